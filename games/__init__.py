"""The solitaire web app: deals, saved games and their move logs, the API and sockets."""
