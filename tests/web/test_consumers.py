"""The game socket, through the real ASGI stack (Origin check, session, auth): sockets
stay in step, repeats are applied once, bad messages are refused without harm, and no
message ever carries a face-down or stock card."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.core.actors import Actor
from games.models import Game, Move
from games.solo import history
from tests.support.sockets import Socket, open_socket, session_cookie
from tests.support.solo import an_illegal_move, apply_action, klondike

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def deal(actor: Actor, number: int = 7) -> int:
    return klondike(actor, deal=number).game.pk


@database_sync_to_async
def full_position(game_id: int) -> dict[str, Any]:
    """Everything the server knows, face-down cards and stock order included."""
    return history.current_line(Game.objects.select_related("deal").get(pk=game_id)).state.to_position()


@database_sync_to_async
def log_length(game_id: int) -> int:
    return Move.objects.filter(game_id=game_id).count()


@pytest.fixture
async def player() -> AsyncIterator[tuple[Actor, bytes]]:
    actor = Actor(token="socket-player-token")
    yield actor, await database_sync_to_async(session_cookie)(actor.token or "")


@pytest.fixture
def sockets() -> Iterator[list[Socket]]:
    opened: list[Socket] = []
    yield opened


async def open_game_socket(opened: list[Socket], game_id: int, cookie: bytes | None) -> Socket:
    connected, _, socket = await open_socket(f"/ws/games/{game_id}/", cookie)
    assert connected
    opened.append(socket)
    return socket


async def test_connecting_sends_the_state(player: tuple[Actor, bytes], sockets: list[Socket]) -> None:
    actor, cookie = player
    game_id = await deal(actor)
    socket = await open_game_socket(sockets, game_id, cookie)
    state = await socket.receive()
    assert state["type"] == "state"
    assert (state["id"], state["version"], state["status"]) == (game_id, 0, "playing")
    assert state["state"]["piles"]["stock"] == 24
    assert {"score", "elapsed", "moves_made", "deal", "game", "options"} <= set(state)
    await socket.close()


async def test_two_sockets_on_one_game_stay_in_step(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    actor, cookie = player
    game_id = await deal(actor)
    first = await open_game_socket(sockets, game_id, cookie)
    second = await open_game_socket(sockets, game_id, cookie)
    start = await first.receive()
    assert (await second.receive())["version"] == 0

    await first.send({"type": "move", "id": "a1", "move": start["state"]["moves"][0]})
    assert await first.receive() == {"type": "ack", "id": "a1", "version": 1}
    mine, theirs = await first.receive(), await second.receive()
    assert mine == theirs
    assert (mine["type"], mine["version"]) == ("state", 1)

    await second.send({"type": "undo", "id": "b1"})
    assert await second.receive() == {"type": "ack", "id": "b1", "version": 2}
    mine, theirs = await first.receive(), await second.receive()
    assert mine == theirs
    assert mine["version"] == 2
    assert mine["state"] == start["state"]
    assert await first.nothing_more() and await second.nothing_more()
    await first.close()
    await second.close()


async def test_a_repeated_id_is_applied_once_and_acknowledged_again(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    actor, cookie = player
    game_id = await deal(actor)
    mover = await open_game_socket(sockets, game_id, cookie)
    watcher = await open_game_socket(sockets, game_id, cookie)
    start = await mover.receive()
    await watcher.receive()
    move = {"type": "move", "id": 41, "move": start["state"]["moves"][0]}

    await mover.send(move)
    assert await mover.receive() == {"type": "ack", "id": 41, "version": 1}
    assert (await mover.receive())["version"] == 1
    await mover.send(move)  # as after a reconnect, when the ack was lost
    assert await mover.receive() == {"type": "ack", "id": 41, "version": 1}

    assert (await watcher.receive())["version"] == 1
    assert await watcher.nothing_more() and await mover.nothing_more()
    assert await log_length(game_id) == 1
    await mover.close()
    await watcher.close()


async def test_a_repeat_sent_on_a_new_socket_brings_it_up_to_date(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    actor, cookie = player
    game_id = await deal(actor)
    old = await open_game_socket(sockets, game_id, cookie)
    start = await old.receive()
    move = {"type": "move", "id": "resend-me", "move": start["state"]["moves"][0]}
    await old.send(move)
    await old.receive()
    await old.close()

    new = await open_game_socket(sockets, game_id, cookie)
    assert (await new.receive())["version"] == 1
    await new.send(move)
    assert await new.receive() == {"type": "ack", "id": "resend-me", "version": 1}
    assert await new.nothing_more()
    assert await log_length(game_id) == 1
    await new.close()


async def test_illegal_and_malformed_messages_are_refused_and_play_goes_on(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    actor, cookie = player
    game_id = await deal(actor)
    socket = await open_game_socket(sockets, game_id, cookie)
    start = await socket.receive()
    illegal = an_illegal_move(await database_sync_to_async(_state)(game_id))

    refusals: list[tuple[dict[str, Any] | str, str]] = [
        ({"type": "move", "id": "x1", "move": illegal}, "x1"),
        ({"type": "move", "id": "x2", "move": {"from": "t99", "to": "f1"}}, "x2"),
        ({"type": "move", "id": "x3", "move": "t1 to f1"}, "x3"),
        ({"type": "move", "move": start["state"]["moves"][0]}, None),
        ({"type": "teleport", "id": "x4"}, "x4"),
        ({"type": "undo", "id": "x5"}, "x5"),
        ({"type": "autofinish", "id": "x6"}, "x6"),
        ({"type": "move", "id": {"no": 1}, "move": start["state"]["moves"][0]}, None),
        ("{not json", None),
        ("[1, 2, 3]", None),
        (json.dumps({"type": "move", "id": "big", "pad": "x" * 5000}), None),
    ]
    for message, expected_id in refusals:
        await socket.send(message)
        answer = await socket.receive()
        assert answer["type"] == "error", (message, answer)
        assert answer["id"] == expected_id
        assert answer["error"]
    await socket.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await socket.receive())["type"] == "error"
    assert await log_length(game_id) == 0

    await socket.send({"type": "move", "id": "ok", "move": start["state"]["moves"][0]})
    assert await socket.receive() == {"type": "ack", "id": "ok", "version": 1}
    assert (await socket.receive())["version"] == 1
    await socket.send({"type": "sync"})
    assert (await socket.receive())["version"] == 1
    await socket.close()


def _state(game_id: int) -> Any:
    return history.current_line(Game.objects.select_related("deal").get(pk=game_id)).state


async def test_the_illegal_move_error_is_the_engines_reason(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    actor, cookie = player
    game_id = await deal(actor)
    socket = await open_game_socket(sockets, game_id, cookie)
    await socket.receive()
    state = await database_sync_to_async(_state)(game_id)
    illegal = an_illegal_move(state)
    with pytest.raises(ValueError) as reason:
        state.apply(illegal)
    await socket.send({"type": "move", "id": "i1", "move": illegal})
    error = await socket.receive()
    assert error["error"] == str(reason.value)
    await socket.close()


async def test_someone_elses_game_is_closed_with_4404(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    actor, _ = player
    game_id = await deal(actor)
    for cookie in (await database_sync_to_async(session_cookie)("a-stranger"), None):
        connected, _, socket = await open_socket(f"/ws/games/{game_id}/", cookie)
        assert connected  # accepted, then closed with a code the browser can read
        assert await socket.closed_with() == 4404
    own_cookie = await database_sync_to_async(session_cookie)(actor.token or "")
    _, _, missing = await open_socket("/ws/games/999999/", own_cookie)
    assert await missing.closed_with() == 4404


async def test_a_foreign_origin_is_refused(player: tuple[Actor, bytes]) -> None:
    actor, cookie = player
    game_id = await deal(actor)
    connected, _, _ = await open_socket(f"/ws/games/{game_id}/", cookie, origin=b"http://evil.example")
    assert not connected


async def test_no_message_carries_a_face_down_or_stock_card(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    actor, cookie = player
    game_id = await deal(actor)
    first = await open_game_socket(sockets, game_id, cookie)
    second = await open_game_socket(sockets, game_id, cookie)
    state = await first.receive()
    await second.receive()
    for step in range(15):
        message: dict[str, Any] = (
            {"type": "undo", "id": f"u{step}"}
            if step % 5 == 4
            else {"type": "move", "id": f"m{step}", "move": state["state"]["moves"][-1]}
        )
        await first.send(message)
        assert (await first.receive())["type"] == "ack"
        state = await first.receive()
        await second.receive()
        await _assert_nothing_hidden(game_id, state, first.seen + second.seen)
    await first.close()
    await second.close()


async def _assert_nothing_hidden(game_id: int, latest: dict[str, Any], messages: list[Any]) -> None:
    position = await full_position(game_id)
    hidden = {
        card.upper()
        for pile, cards in position.items()
        if isinstance(cards, list)
        for card in cards
        if pile == "stock" or card != card.upper()
    }
    assert hidden, "the test needs hidden cards to look for"
    seed = str(await database_sync_to_async(_seed)(game_id))
    for message in messages:
        text = json.dumps(message)
        assert seed not in text
        assert hidden.isdisjoint(_strings(message)), message
        if message["type"] == "state":
            assert isinstance(message["state"]["piles"]["stock"], int)
    # What the latest view shows is exactly the face-up cards (one deck: each once).
    shown = Counter(s for s in _strings(latest["state"]["piles"]))
    face_up = Counter(
        card
        for pile, cards in position.items()
        if isinstance(cards, list) and pile != "stock"
        for card in cards
        if card == card.upper()
    )
    assert shown == face_up


def _seed(game_id: int) -> int:
    return Game.objects.select_related("deal").get(pk=game_id).deal.seed


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


async def test_a_change_made_elsewhere_reaches_the_socket(
    player: tuple[Actor, bytes], sockets: list[Socket]
) -> None:
    actor, cookie = player
    game_id = await deal(actor)
    socket = await open_game_socket(sockets, game_id, cookie)
    start = await socket.receive()
    # As the HTTP API does it: the service alone, in a worker thread.
    await database_sync_to_async(apply_action)(
        game_id, actor, {"type": "move", "move": start["state"]["moves"][0]}
    )
    pushed = await socket.receive()
    assert (pushed["type"], pushed["version"]) == ("state", 1)
    assert await socket.nothing_more()
    await socket.close()
