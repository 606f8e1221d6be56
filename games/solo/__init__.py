"""Single-player games: deals, play, history, verdicts, statistics, and their edges.

deals     deal numbers, seeds, the daily deal, winnable deals
actions   a player's change, parsed once at the edge into a typed action
history   a game's effective line (undo/redo) replayed from its log, and its cache
owners    whose game it is: lookups by actor
play      the only way a game changes: create, apply an action, abandon, delete
verdicts  "was this winnable?" and hints
winnable  the solver's budgets
stats     statistics and the daily results
payloads  the game as the API, the pages and the sockets describe it
api, pages, consumer, urls: thin edges
"""
