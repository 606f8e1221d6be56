"""The socket of one game, /ws/games/<id>/: a thin edge over games.solo.play.

On connect the owner gets ``state``; after every change, every socket of the game gets
``state`` again (the sender's socket from the change's own committed snapshot, the
others on the group message). The sender of a change also gets ``ack`` (or ``error``)
first. ``ping`` is answered ``pong`` by the socket base. A tab whose game moved to an
account (its browser signed in elsewhere) gets an ``error`` with code
``ownership_moved``; a deleted game closes its sockets with 4404.

This module decides nothing about games: the service checks, applies and announces.
"""

from __future__ import annotations

from typing import Any

from games.core.actors import Actor, actor_for_scope
from games.core.errors import NotFound, ServiceError
from games.core.sockets import JsonSocket, in_thread, message_id_of
from games.models import game_group
from games.solo import play
from games.solo.actions import KINDS, Change, parse_change
from games.solo.payloads import state_message

CLOSE_NOT_FOUND = 4404  # no such game, or not the caller's (the two look alike)


def _read(actor: Actor, game_id: int) -> dict[str, Any]:
    """The ``state`` message of a game as ``actor`` may see it (raises NotFound)."""
    return state_message(play.get_game_for(actor, game_id))


def _apply(actor: Actor, game_id: int, change: Change) -> play.Played:
    """Apply a change; the state message is of the game after it (or, for a repeat, of
    the game as it is). The snapshot is the committed game, so this socket needs no
    second read: rendering it here saves a thread hop, a query and a view per move."""
    return play.play_change(actor, game_id, change)


class GameConsumer(JsonSocket):
    game_id: int
    group: str
    actor: Actor
    sent_version: int

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.group = game_group(self.game_id)
        self.sent_version = -1
        self.actor = await in_thread(actor_for_scope)(self.scope)
        # Join before reading, so that no change can slip between the read and the join.
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            state = await in_thread(_read)(self.actor, self.game_id)
        except NotFound:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            # Accept first: a close before accepting reaches the browser without its code.
            await self.accept()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        await self._send_state(state)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("type")
        message_id = message_id_of(content)
        if kind == "sync":
            await self.send_current(force=True)
            return
        if kind not in KINDS:
            await self.send_error(
                message_id, "the type must be move, undo, redo, autofinish, sync or ping", "bad_request"
            )
            return
        if message_id is None:
            await self.send_error(None, "a change needs an id", "bad_request")
            return
        try:
            # Parsed once, here at the edge; the service gets typed values.
            change = parse_change(kind, content.get("move"), message_id, content.get("version"))
            played = await in_thread(_apply)(self.actor, self.game_id, change)
        except ServiceError as error:
            await self.send_refusal(message_id, error)
            return
        await self.send_json({"type": "ack", "id": message_id, "version": played.version})
        # The sender's state comes straight from its own change (a repeat's too, which no
        # broadcast follows); the group message for this version then finds it sent.
        if played.version > self.sent_version:
            await self._send_state(played.message)

    async def game_changed(self, event: dict[str, Any]) -> None:
        """The group message a committed change sends: ``{"version": n}``."""
        await self.catch_up(event["version"], f"game {self.game_id}")

    async def game_moved(self, event: dict[str, Any]) -> None:
        """The game moved to an account: read it again (a stale anonymous tab is told)."""
        await self.send_current()

    async def game_deleted(self, event: dict[str, Any]) -> None:
        """The game was deleted (from another tab): nothing is left to show."""
        await self.close(code=CLOSE_NOT_FOUND)

    async def send_current(self, *, force: bool = False) -> int | None:
        """Read the game and send it if it is newer; returns the version read (None when
        the game is gone for this socket)."""
        try:
            state = await in_thread(_read)(self.actor, self.game_id)
        except NotFound as error:
            if error.code == "ownership_moved":
                # The page offers a reload; the socket stays open for it to say so.
                await self.send_refusal(None, error)
            else:
                await self.close(code=CLOSE_NOT_FOUND)
            return None
        if force or state["version"] > self.sent_version:
            await self._send_state(state)
        return int(state["version"])

    async def _send_state(self, state: dict[str, Any]) -> None:
        self.sent_version = state["version"]
        await self.send_json(state)
