"""The game socket's newer messages: ping, redo, stale versions, a deleted game, and a
tab whose game moved to an account; and the race socket's ping."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.core.actors import Actor
from games.solo import owners, play
from tests.support.sockets import Player, Socket, open_socket, session_cookie
from tests.support.solo import klondike

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


async def game_socket(actor: Actor) -> tuple[int, Socket, dict[str, Any]]:
    game_id = (await database_sync_to_async(klondike)(actor)).game.pk
    cookie = await database_sync_to_async(session_cookie)(actor.token or "")
    connected, _, socket = await open_socket(f"/ws/games/{game_id}/", cookie)
    assert connected
    return game_id, socket, await socket.expect("state")


async def answer(socket: Socket, message_id: str) -> dict[str, Any]:
    return await socket.first(lambda m: m["type"] in ("ack", "error") and m.get("id") == message_id)


async def test_ping_is_answered_pong(ana: Actor) -> None:
    _, socket, _ = await game_socket(ana)
    await socket.send({"type": "ping"})
    assert await socket.receive() == {"type": "pong"}
    await socket.close()


async def test_undo_and_redo_over_the_socket(ana: Actor) -> None:
    _, socket, state = await game_socket(ana)
    move = state["state"]["moves"][0]
    await socket.send({"type": "move", "id": "m1", "version": 0, "move": move})
    assert (await answer(socket, "m1"))["version"] == 1
    moved = await socket.state_at(1)
    await socket.send({"type": "undo", "id": "u1"})
    await answer(socket, "u1")
    undone = await socket.state_at(2)
    assert (undone["can_undo"], undone["can_redo"]) == (False, True)
    await socket.send({"type": "redo", "id": "r1", "version": 2})
    assert (await answer(socket, "r1"))["type"] == "ack"
    redone = await socket.state_at(3)
    assert redone["state"]["piles"] == moved["state"]["piles"]
    assert (redone["can_undo"], redone["can_redo"]) == (True, False)
    await socket.close()


async def test_a_stale_version_is_refused_with_code_stale(ana: Actor) -> None:
    _, socket, state = await game_socket(ana)
    move = state["state"]["moves"][0]
    await socket.send({"type": "move", "id": "m1", "version": 0, "move": move})
    await answer(socket, "m1")
    await socket.send({"type": "move", "id": "m2", "version": 0, "move": {"from": "stock", "to": "waste"}})
    refused = await answer(socket, "m2")
    assert (refused["type"], refused["code"], refused["data"]) == ("error", "stale", {"version": 1})
    await socket.close()


async def test_deleting_a_game_closes_its_sockets(ana: Actor) -> None:
    game_id, socket, _ = await game_socket(ana)
    await database_sync_to_async(play.delete_game)(ana, game_id)
    assert await socket.closed_with() == 4404


async def test_a_tab_whose_game_moved_to_an_account_is_told(ana: Actor, django_user_model: Any) -> None:
    _, socket, state = await game_socket(ana)
    user = await database_sync_to_async(django_user_model.objects.create_user)("ana")
    await database_sync_to_async(owners.give_anonymous_games)(ana.token, user.pk)
    told = await socket.expect("error")
    assert told["code"] == "ownership_moved"
    await socket.send({"type": "move", "id": "m1", "move": state["state"]["moves"][0]})
    assert (await answer(socket, "m1"))["code"] == "ownership_moved"
    await socket.close()


async def test_the_race_socket_answers_ping_too() -> None:
    ana = Player("Ana")
    created = await ana.post("/api/races", {"name": "Ana"})
    socket = await ana.connect(created.json()["id"])
    await socket.expect("state")
    await socket.send({"type": "ping"})
    assert await socket.expect("pong") == {"type": "pong"}
    await ana.close_all()
