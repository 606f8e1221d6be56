"""No acknowledged move is lost when the server is killed.

A real Daphne on a real SQLite file, players moving as fast as answers come over real
WebSockets, then SIGKILL: every move a player saw acknowledged is in the log with the
version its ack gave, and at most one more move per game (committed, its ack not yet
out) is there. A fresh server on the same file then serves each game from its log, and
play goes on. Ack after COMMIT is what makes this hold."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest
from websockets.exceptions import WebSocketException

from bench.players import open_socket
from bench.server import SITE_APP, Server, bench_environment, migrate
from bench.web import Browser

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]
PLAYERS = 4


async def play(
    server: Server, browser: Browser, game_id: int, acked: list[tuple[str, int]], seed: int
) -> None:
    """Move until the connection goes; note each acknowledged (id, version)."""
    chooser = random.Random(seed)
    try:
        async with open_socket(
            f"{server.ws_url}/ws/games/{game_id}/", server.base_url, browser.cookie_header
        ) as ws:
            state = json.loads(await ws.recv())
            for n in range(100_000):
                moves = state["state"]["moves"]
                if not moves or state["status"] != "playing":
                    return
                message_id = f"s{seed}m{n}"
                await ws.send(json.dumps({"type": "move", "id": message_id, "move": chooser.choice(moves)}))
                version = None
                while version is None or state["version"] < version:
                    answer = json.loads(await ws.recv())
                    if answer["type"] == "ack" and answer["id"] == message_id:
                        version = answer["version"]
                        acked.append((message_id, version))
                    elif answer["type"] == "state":
                        state = answer
                    elif answer["type"] == "error":
                        raise AssertionError(answer)
    except (WebSocketException, OSError):
        return  # the server was killed


def logged(database: Path, game_id: int) -> dict[str | None, int]:
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT client_id, seq FROM games_move WHERE game_id = ?", (game_id,)).fetchall()
    return {client_id: seq for client_id, seq in rows}


def test_no_acknowledged_move_is_lost_when_the_server_is_killed(tmp_path: Path) -> None:
    env = bench_environment(tmp_path)
    # Its own server on its own SQLite file (whatever database the suite runs on).
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    migrate(env)
    database = tmp_path / "db.sqlite3"
    server = Server(SITE_APP, env, tmp_path / "daphne.log").start()
    try:
        browsers = [Browser(server.base_url) for _ in range(PLAYERS)]
        games = [browser.new_game("klondike", draw=1)["id"] for browser in browsers]
        acked: list[list[tuple[str, int]]] = [[] for _ in games]

        async def round_of_play() -> None:
            tasks = [
                asyncio.ensure_future(play(server, browser, game_id, seen, seed))
                for seed, (browser, game_id, seen) in enumerate(zip(browsers, games, acked, strict=True))
            ]
            deadline = time.monotonic() + 30
            while sum(map(len, acked)) < 200 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert server.process is not None
            server.process.kill()  # SIGKILL: no shutdown of any kind
            await asyncio.gather(*tasks)

        asyncio.run(round_of_play())
        server.process = None
    finally:
        server.stop()
    assert sum(map(len, acked)) >= 200, "too few moves were made to test anything"
    for game_id, seen in zip(games, acked, strict=True):
        log = logged(database, game_id)
        assert all(log.get(message_id) == version for message_id, version in seen), game_id
        assert len(log) - len(seen) in (0, 1), game_id  # at most one committed, its ack not out

    # A fresh server serves each game from its log, and play goes on.
    with Server(SITE_APP, env, tmp_path / "daphne-2.log") as again:
        for browser, game_id in zip(browsers, games, strict=True):
            browser.base_url = again.base_url
            assert browser.game(game_id)["version"] == len(logged(database, game_id))
        before = len(logged(database, games[0]))
        more: list[tuple[str, int]] = []

        async def once_more() -> None:
            task = asyncio.ensure_future(play(again, browsers[0], games[0], more, 99))
            while len(more) < 5:
                await asyncio.sleep(0.02)
            task.cancel()

        asyncio.run(once_more())
        assert [version for _, version in more[:5]] == [before + n for n in range(1, 6)]
