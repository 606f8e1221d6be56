"""The fast move path's guarantees, through the real ASGI stack (Origin check, session,
auth, the game socket) and the real database:

- a move acknowledged is in the log, written by the fast store, and what the socket
  shows is what replaying the log gives;
- a repeated id is applied once;
- a stale version goes the locked way and gets that path's exact error;
- a game changed elsewhere (as by another process, whose change this process's cache
  never saw) is noticed by the version guard, and the move is applied on the real
  position;
- a busy SQLite writer makes the store step aside, and the move still lands;
- the owner's other sockets get the same state from the group message;
- a move into a loss that ``quick_over`` cannot decide is acknowledged in play, and the
  exact verdict, settled later, never ends the game at a version a later move has left.

Whether a move went the fast way is told by the store's count of commits.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

import solitaire
from config.asgi import application
from games.core import fastpath, workers
from games.core.actors import PLAYER_TOKEN_KEY, Actor
from games.models import Game, Move
from games.solo import consumer, fastmove, history, play
from tests.support.solo import (
    UNDECIDED_LOSS_DEAL,
    a_move_that_stays_undecided,
    apply_action,
    klondike,
    line_into_an_undecided_loss,
)

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 10
DRAW = {"from": "stock", "to": "waste", "count": 1}


@database_sync_to_async
def session_cookie(token: str) -> bytes:
    session = SessionStore()
    session[PLAYER_TOKEN_KEY] = token
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()


@database_sync_to_async
def deal(actor: Actor, number: int = 7) -> int:
    return int(klondike(actor, deal=number).game.pk)


@database_sync_to_async
def log_of(game_id: int) -> list[tuple[int, dict[str, Any], str | None]]:
    return [
        (row.seq, row.move, row.client_id) for row in Move.objects.filter(game_id=game_id).order_by("seq")
    ]


@database_sync_to_async
def row_of(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


@database_sync_to_async
def replayed_view(actor: Actor, game_id: int) -> dict[str, Any]:
    """The engine's view of the game replayed from its log (the cache left out)."""
    history.positions.discard(game_id)
    return play.get_game_for(actor, game_id).state.view()


def commits() -> int:
    """Moves the fast store has committed in this process so far."""
    made = fastpath.store()
    assert made is not None, "this database has no fast store"
    return int(getattr(made, "commits"))  # noqa: B009


class Socket:
    def __init__(self, game_id: int, cookie: bytes) -> None:
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
        self.communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)

    async def open(self) -> dict[str, Any]:
        connected, _ = await self.communicator.connect(timeout=TIMEOUT)
        assert connected
        first = await self.receive()
        assert first["type"] == "state"
        return first

    async def send(self, message: dict[str, Any]) -> None:
        await self.communicator.send_to(text_data=json.dumps(message))

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = await self.communicator.receive_json_from(timeout=TIMEOUT)
        return message

    async def move(self, message_id: str, move: dict[str, Any], **extra: Any) -> tuple[dict[str, Any], ...]:
        """Send a move; the answers up to its ack or error, and the state after an ack."""
        await self.send({"type": "move", "id": message_id, "move": move, **extra})
        answer = await self.receive()
        if answer["type"] == "ack":
            return answer, await self.receive()
        return (answer,)

    async def nothing_more(self) -> bool:
        return bool(await self.communicator.receive_nothing(timeout=0.2))

    async def close(self) -> None:
        await self.communicator.disconnect()


@pytest.fixture
async def player() -> AsyncIterator[tuple[Actor, bytes]]:
    actor = Actor(token="fast-path-player-token")
    yield actor, await session_cookie(actor.token or "")


@pytest.fixture
def sockets() -> Iterator[list[Socket]]:
    opened: list[Socket] = []
    yield opened


async def open_game(opened: list[Socket], player: tuple[Actor, bytes]) -> tuple[int, Socket, dict[str, Any]]:
    actor, cookie = player
    game_id = await deal(actor)
    socket = Socket(game_id, cookie)
    first = await socket.open()
    opened.append(socket)
    return game_id, socket, first


def a_card_move(state: dict[str, Any]) -> dict[str, Any]:
    """A legal move of a card (not a draw) in the state message's view."""
    return next(move for move in state["state"]["moves"] if move["from"] != "stock")


async def test_an_acknowledged_move_is_in_the_log(player: tuple[Actor, bytes], sockets: list[Socket]) -> None:
    game_id, socket, first = await open_game(sockets, player)
    move = a_card_move(first)
    before = commits()
    ack, state = await socket.move("m1", move, version=0)
    assert ack == {"type": "ack", "id": "m1", "version": 1}
    assert (state["type"], state["version"], state["moves_made"]) == ("state", 1, 1)
    assert commits() == before + 1  # the fast way
    assert await log_of(game_id) == [(1, move, "m1")]
    row = await row_of(game_id)
    assert (row.version, row.moves_made, row.status) == (1, 1, "playing")
    assert state["state"] == await replayed_view(player[0], game_id)
    await socket.close()


async def test_a_repeated_id_is_applied_once(player: tuple[Actor, bytes], sockets: list[Socket]) -> None:
    game_id, socket, _ = await open_game(sockets, player)
    before = commits()
    ack, _ = await socket.move("same", DRAW)
    assert ack["version"] == 1
    # The same message again: the fast write fails on the unique (game, client id), and
    # the locked path answers with the version the first one made; no new state.
    await socket.send({"type": "move", "id": "same", "move": DRAW})
    assert await socket.receive() == {"type": "ack", "id": "same", "version": 1}
    assert await socket.nothing_more()
    assert commits() == before + 1
    assert await log_of(game_id) == [(1, DRAW, "same")]
    await socket.close()


async def test_a_stale_version_gets_the_exact_error(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    game_id, socket, _ = await open_game(sockets, player)
    await socket.move("m1", DRAW, version=0)
    before = commits()
    (error,) = await socket.move("m2", DRAW, version=0)
    assert error["type"] == "error"
    assert (error["id"], error["code"], error["data"]) == ("m2", "stale", {"version": 1})
    assert commits() == before
    assert len(await log_of(game_id)) == 1
    # A move naming cards that are not where the player saw them: the engine refuses it
    # on the loop, and the locked path answers with the engine's code.
    (error,) = await socket.move("m3", {"from": "waste", "to": "f1", "count": 1, "cards": ["KS"]})
    assert (error["type"], error["id"], error["code"]) == ("error", "m3", "stale")
    assert commits() == before
    assert len(await log_of(game_id)) == 1
    await socket.close()


async def test_a_change_made_elsewhere_is_noticed_by_the_version_guard(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    actor, _ = player
    game_id, socket, _ = await open_game(sockets, player)
    held = history.positions.latest(game_id)
    assert held is not None and held[0] == 0
    # Another process draws a card: through the locked service, then this process's cache
    # is put back to what it held, as if it had never heard of the change.
    await database_sync_to_async(apply_action)(game_id, actor, {"type": "move", "move": DRAW}, "elsewhere")
    assert (await socket.receive())["version"] == 1  # the socket hears of it all the same
    history.positions.discard(game_id)
    history.positions.put(game_id, held[0], held[1])
    before = commits()
    # Drawing is legal in the stale position too, so the fast path decides it there and
    # writes with version 0 in its guard, which the row (at 1) no longer has.
    ack, state = await socket.move("m2", DRAW)
    assert ack["version"] == 2
    assert commits() == before  # the fast write found no row at version 0: nothing committed
    assert await log_of(game_id) == [(1, DRAW, "elsewhere"), (2, DRAW, "m2")]
    assert state["state"] == await replayed_view(actor, game_id)
    assert state["state"]["piles"]["stock"] == 22
    await socket.close()


async def test_a_busy_writer_makes_the_fast_path_step_aside(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's single write lock")
    game_id, socket, _ = await open_game(sockets, player)
    made = fastpath.store()
    busy, before = made.busy, commits()  # type: ignore[union-attr]
    # Another connection holds the write lock for longer than the store's retries: the
    # fast path must not wait on the loop; the locked path waits in its thread, then writes.
    other = sqlite3.connect(str(connection.settings_dict["NAME"]), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(0.3, other.execute, "ROLLBACK")
    ack, state = await socket.move("m1", DRAW)
    other.close()
    assert (ack["version"], state["version"]) == (1, 1)
    assert made.busy > busy  # type: ignore[union-attr]  # tried, found it taken, gave up
    assert commits() == before
    assert await log_of(game_id) == [(1, DRAW, "m1")]
    await socket.close()


async def test_the_owners_other_sockets_get_the_state(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    _, cookie = player
    game_id, first, _ = await open_game(sockets, player)
    second = Socket(game_id, cookie)
    await second.open()
    before = commits()
    _, state = await first.move("m1", DRAW)
    assert await second.receive() == state
    assert commits() == before + 1
    assert await second.nothing_more()
    await first.close()
    await second.close()


@database_sync_to_async
def two_games(actor: Actor) -> tuple[Game, Game]:
    return klondike(actor, deal=7).game, klondike(actor, deal=8).game


async def test_a_batch_commits_the_moves_whose_guards_hold_and_only_those(
    player: tuple[Actor, bytes],
) -> None:
    """Moves written together (one transaction on SQLite, one statement on PostgreSQL):
    one whose version is stale and one whose id is used already are not written; the
    others commit. Someone else's game, or nobody's, is never written."""
    actor, _ = player
    one, two = await two_games(actor)
    made = fastpath.store()
    assert made is not None

    def draw(game: Game, version: int, client_id: str) -> fastpath.GuardedMove:
        return fastpath.GuardedMove(
            game_id=game.pk,
            version=version,
            user_id=None,
            owner_key=actor.token,
            entry=DRAW,
            client_id=client_id,
            now=game.last_active,
            status="playing",
            finished=None,
            score=0,
            elapsed=game.elapsed,
            moves_made=version + 1,
        )

    async def together(*moves: fastpath.GuardedMove) -> list[int | None]:
        return list(await asyncio.gather(*(made.write(move) for move in moves)))  # type: ignore[union-attr]

    assert await together(draw(one, 0, "a")) == [1]
    transactions = made.transactions  # type: ignore[union-attr]
    assert await together(draw(two, 0, "b"), draw(one, 0, "c"), draw(one, 1, "a"), draw(one, 1, "d")) == [
        1,
        None,
        None,
        2,
    ]
    if connection.vendor == "sqlite":  # all four in one transaction, each in a savepoint
        assert made.transactions == transactions + 1  # type: ignore[union-attr]
    assert await log_of(one.pk) == [(1, DRAW, "a"), (2, DRAW, "d")]
    assert await log_of(two.pk) == [(1, DRAW, "b")]
    assert [(await row_of(game.pk)).version for game in (one, two)] == [2, 1]
    stranger = dataclasses.replace(draw(two, 1, "e"), owner_key="someone-else")
    nobody = dataclasses.replace(draw(two, 1, "f"), owner_key=None)
    assert await together(stranger, nobody) == [None, None]
    assert await log_of(two.pk) == [(1, DRAW, "b")]


async def test_on_a_shared_layer_sockets_find_each_other_and_miss_no_move(
    player: tuple[Actor, bytes], sockets: list[Socket], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Redis, where sockets of other processes may listen: a socket that moved while
    alone sent no group message; a socket opening then, whose first read came back
    older (read before that move committed), hears the version from the older socket's
    answer to its hello and reads again. After that, moves reach it by group message."""
    monkeypatch.setattr(fastpath.Listeners, "local", staticmethod(lambda layer: False))
    _, cookie = player
    game_id, first, _ = await open_game(sockets, player)
    _, moved = await first.move("m1", DRAW)
    assert moved["version"] == 1

    real = consumer._read
    stale: list[int] = []

    def read_behind(actor: Actor, game: int) -> dict[str, Any]:
        state = real(actor, game)
        if not stale:  # the second socket's first read: as if made before the move
            stale.append(state["version"])
            return {**state, "version": 0}
        return state

    monkeypatch.setattr(consumer, "_read", read_behind)
    second = Socket(game_id, cookie)
    assert (await second.open())["version"] == 0
    assert (await second.receive())["version"] == 1  # after the first socket's "here"
    assert stale == [1]
    _, moved = await first.move("m2", DRAW)
    assert await second.receive() == moved
    await second.close()
    await first.close()


async def endings_settled() -> None:
    """Wait (a few seconds at most) until no ending is left to settle."""
    for _ in range(100):
        if not fastmove.endings.pending():
            break
        await asyncio.sleep(0.05)
    assert not fastmove.endings.pending()


async def one_move_from_an_undecided_loss(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> tuple[int, Socket, solitaire.State, list[solitaire.Move]]:
    """A game played the slow way up to one move before a loss ``quick_over`` cannot
    decide, with its socket open: the game, the socket, the dealt state and the whole
    line (its last move is the one into the loss)."""
    actor, cookie = player
    snapshot = await database_sync_to_async(klondike)(actor, deal=UNDECIDED_LOSS_DEAL)
    game_id = snapshot.game.pk
    line = line_into_an_undecided_loss(snapshot.state)
    for number, move in enumerate(line[:-1]):
        change = {"type": "move", "move": move.to_dict()}
        await database_sync_to_async(apply_action)(game_id, actor, change, f"p{number}")
    socket = Socket(game_id, cookie)
    await socket.open()
    sockets.append(socket)
    return game_id, socket, snapshot.state, list(line)


async def test_an_exact_verdict_does_not_end_the_game_once_it_has_moved_on(
    player: tuple[Actor, bytes], sockets: list[Socket], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, socket, _, line = await one_move_from_an_undecided_loss(player, sockets)
    *before_the_loss, into_the_loss = line
    lost_at = len(before_the_loss) + 1
    # The exact check waits in the "worker pool" until the test lets it go on.
    go_on = asyncio.Event()

    async def held_run(fn: Any, *args: Any, **kwargs: Any) -> Any:
        await go_on.wait()
        return fn(*args)

    monkeypatch.setattr(workers, "run", held_run)
    before = commits()
    ack, state = await socket.move("loss", into_the_loss.to_dict())
    assert commits() == before + 1  # the fast way, though quick_over cannot tell the ending
    assert (ack["version"], state["version"], state["status"]) == (lost_at, lost_at, "playing")
    assert state["state"]["is_over"] is False  # rendered from quick_over: no search on the loop
    assert fastmove.endings.pending() == 1
    # Before the verdict comes, the move is undone: back to a position that is not over.
    await socket.send({"type": "undo", "id": "undo"})
    assert (await socket.receive())["version"] == lost_at + 1
    assert (await socket.receive())["status"] == "playing"
    # As if the undo had been made by another process: this one's cache forgets it, so
    # only the locked service's version guard stands between the verdict and the game.
    history.positions.discard(game_id)
    go_on.set()
    await endings_settled()
    assert await socket.nothing_more()
    row = await row_of(game_id)
    assert (row.version, row.status) == (lost_at + 1, "playing")
    assert [entry for _, entry, _ in (await log_of(game_id))[-2:]] == [
        history.stored_move(into_the_loss),
        {"undo": True},
    ]


async def test_a_loss_found_before_later_moves_ends_the_game_after_them(
    player: tuple[Actor, bytes], sockets: list[Socket], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, socket, dealt, line = await one_move_from_an_undecided_loss(player, sockets)
    lost_position = dealt
    for move in line:
        lost_position = lost_position.apply(move)
    go_on, searches = asyncio.Event(), []

    async def held_run(fn: Any, *args: Any, **kwargs: Any) -> Any:
        searches.append(args)
        await go_on.wait()
        return fn(*args)

    monkeypatch.setattr(workers, "run", held_run)
    await socket.move("loss", line[-1].to_dict())
    # The player moves on while the search runs: a move from a position that is over
    # leads to one that is over, so the verdict holds there too.
    later = a_move_that_stays_undecided(lost_position)
    ack, state = await socket.move("later", later.to_dict())
    assert (ack["version"], state["status"]) == (len(line) + 1, "playing")
    go_on.set()
    ended = await socket.receive()
    assert (ended["version"], ended["status"]) == (len(line) + 2, "lost")
    assert len(searches) == 1  # the later position needed no search of its own
    log = await log_of(game_id)
    assert [entry for _, entry, _ in log[-3:]] == [
        history.stored_move(line[-1]),
        history.stored_move(later),
        dict(play.LOST_ENTRY),
    ]


async def test_a_pool_that_stays_busy_leaves_the_game_in_play_and_says_so(
    player: tuple[Actor, bytes],
    sockets: list[Socket],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id, socket, _, line = await one_move_from_an_undecided_loss(player, sockets)
    *before_the_loss, into_the_loss = line
    tries: list[int] = []

    async def always_busy(fn: Any, *args: Any, **kwargs: Any) -> Any:
        tries.append(1)
        raise workers.Busy("the pool is full")

    monkeypatch.setattr(workers, "run", always_busy)
    monkeypatch.setattr(fastmove, "ENDING_RETRY_SECONDS", (0.0, 0.01))
    caplog.set_level(logging.WARNING, logger=fastmove.__name__)
    _, state = await socket.move("loss", into_the_loss.to_dict())
    assert state["status"] == "playing"
    await endings_settled()
    assert len(tries) == 3  # the first try and one after each pause, never a search here
    # An overload is a warning, not an error with a traceback; the game stays in play.
    settled = [record for record in caplog.records if "not settled" in record.getMessage()]
    assert [record.levelno for record in settled] == [logging.WARNING]
    assert await socket.nothing_more()
    row = await row_of(game_id)
    assert (row.version, row.status) == (len(before_the_loss) + 1, "playing")
