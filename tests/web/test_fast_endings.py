"""A fast move into a loss that ``quick_over`` cannot decide, on a real Daphne.

The move is committed in play and acknowledged on the event loop; the exact ending is
settled afterwards in the server's worker pool, and the loss, recorded by the locked
service at that version, reaches the socket as a new state. (That an earlier verdict
never ends a game that has moved on is in test_fast_moves.py.)"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

import solitaire
from bench.players import open_socket
from bench.server import SITE_APP, Server, bench_environment, migrate
from bench.web import Browser
from tests.support.solo import line_into_an_undecided_loss

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]
TIMEOUT = 30
# The server deals under this secret (strong enough for DEBUG off), and its deal 7 of
# Klondike draw one has a line into an undecided loss on the first try.
SERVER_DEAL_SECRET = "fast-endings-on-a-real-daphne-0123456789"
UNDECIDED_LOSS_DEAL = 7


def dealt(database: Path, game_id: int) -> solitaire.State:
    """The game's deal, as the engine deals it (the seed never leaves the server: the test
    reads it from the database file)."""
    with closing(sqlite3.connect(database)) as db:
        name, options, seed = db.execute(
            "SELECT d.game, d.options, d.seed FROM games_game g JOIN games_deal d ON d.id = g.deal_id"
            " WHERE g.id = ?",
            (game_id,),
        ).fetchone()
    return solitaire.new_game(name, seed=seed, **json.loads(options))


def log_of(database: Path, game_id: int) -> list[tuple[int, dict[str, Any]]]:
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT seq, move FROM games_move WHERE game_id = ? ORDER BY seq", (game_id,))
        return [(seq, json.loads(move)) for seq, move in rows]


async def play_into_the_loss(
    server: Server, browser: Browser, game_id: int, line: list[solitaire.Move]
) -> None:
    async with open_socket(
        f"{server.ws_url}/ws/games/{game_id}/", server.base_url, browser.cookie_header
    ) as ws:

        async def receive() -> dict[str, Any]:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert message["type"] != "error", message
            return message

        state = await receive()
        for number, move in enumerate(line, start=1):
            await ws.send(json.dumps({"type": "move", "id": f"m{number}", "move": move.to_dict()}))
            assert await receive() == {"type": "ack", "id": f"m{number}", "version": number}
            state = await receive()
            assert (state["type"], state["version"]) == ("state", number)
        # Acknowledged in play: quick_over could not tell, and the loop did not search.
        assert (state["status"], state["state"]["is_over"]) == ("playing", False)
        # Then the verdict, settled in the worker pool, ends the game, and the socket hears it.
        ended = await receive()
        assert (ended["type"], ended["version"], ended["status"]) == ("state", len(line) + 1, "lost")
        assert ended["state"]["is_over"] is True
        assert ended["state"]["piles"] == state["state"]["piles"]


def test_a_fast_move_into_an_undecided_loss_ends_the_game_lost_and_the_socket_hears_it(
    tmp_path: Path,
) -> None:
    env = bench_environment(tmp_path)
    # Its own server on its own SQLite file (whatever database the suite runs on), dealing
    # with a fixed secret, so the deal is the one whose line is known.
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    env["DEAL_SECRET"] = SERVER_DEAL_SECRET
    migrate(env)
    database = tmp_path / "db.sqlite3"
    with Server(SITE_APP, env, tmp_path / "daphne.log") as server:
        browser = Browser(server.base_url)
        game = browser.request(
            "POST", "/api/games", {"game": "klondike", "options": {"draw": 1}, "deal": UNDECIDED_LOSS_DEAL}
        )
        line = line_into_an_undecided_loss(dealt(database, game["id"]))
        asyncio.run(play_into_the_loss(server, browser, game["id"], line))
        assert browser.game(game["id"])["status"] == "lost"
    log = log_of(database, game["id"])
    assert len(log) == len(line) + 1
    assert log[-1] == (len(line) + 1, {"lost": True})
