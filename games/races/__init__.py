"""Double Solitaire races: two seats, one table, moves checked one at a time.

records   a race's row, seats and state at its version; loading, the cache, announcing
lobby     create, join, start position, ready, the countdown's start, rematch, listing
play      moves, resigning, offering to stop, the end
presence  which seats have a live socket, across processes
payloads  the race as each seat (or a spectator) may see it; replays
api, pages, consumer, urls: thin edges
"""
