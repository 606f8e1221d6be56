"""The benchmarks behind ``make bench``: the engine, the server and its same-run baselines.

Everything here measures from the outside: real Daphne processes on loopback, real
WebSocket clients (the ``websockets`` library) speaking the documented protocol, and
HTTP for what the site does over HTTP. Nothing here is imported by the site, and no
test asserts on its figures; ``python -m bench`` prints a table and writes JSON.
"""
