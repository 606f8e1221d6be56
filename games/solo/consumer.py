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
from games.core.fastpath import ack_text, dumps, listeners, owner_digest
from games.core.sockets import JsonSocket, in_thread, message_id_of
from games.models import game_group
from games.solo import fastmove, play
from games.solo.actions import KINDS, Change, parse_change
from games.solo.payloads import Snapshot, state_message

CLOSE_NOT_FOUND = 4404  # no such game, or not the caller's (the two look alike)


def _read(actor: Actor, game_id: int) -> dict[str, Any]:
    """The ``state`` message of a game as ``actor`` may see it (raises NotFound)."""
    return state_message(play.get_game_for(actor, game_id))


def _apply(actor: Actor, game_id: int, change: Change) -> play.Played:
    """Apply a change the locked way; the state message is of the game after it (or, for
    a repeat, of the game as it is). The snapshot is the committed game, so this socket
    needs no second read: rendering it here saves a thread hop, a query and a view."""
    return play.play_change(actor, game_id, change)


def _owner_of(snapshot: Snapshot) -> dict[str, Any]:
    """Who owns the game, as a group message carries it (the token only as a digest)."""
    game = snapshot.game
    return {"owner_id": game.owner_id, "owner_key": owner_digest(game.owner_key)}


class GameConsumer(JsonSocket):
    game_id: int
    group: str
    actor: Actor
    sent_version: int
    # On a layer shared by processes: the other sockets of this game, wherever they are,
    # as their hello and here messages told (a socket of a process that died unseen
    # stays in the set, which only costs a group message now and then).
    peers: set[str]

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.group = game_group(self.game_id)
        self.sent_version = -1
        self.actor = await in_thread(actor_for_scope)(self.scope)
        self.peers = set()
        # Join before reading, so that no change can slip between the read and the join.
        await self.channel_layer.group_add(self.group, self.channel_name)
        listeners.add(self.group, self.channel_name)
        if not listeners.local(self.channel_layer):
            # Say hello to the game's other sockets, in any process. One that moved before
            # it heard this answers with its version: this socket then reads again, so a
            # move sent to no one (the mover thought itself alone) is never missed.
            await self.channel_layer.group_send(
                self.group, {"type": "game.hello", "channel": self.channel_name}
            )
        try:
            state = await in_thread(_read)(self.actor, self.game_id)
        except NotFound:
            listeners.discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            # Accept first: a close before accepting reaches the browser without its code.
            await self.accept()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        await self._send_state(state)

    async def disconnect(self, code: int) -> None:
        listeners.discard(self.group, self.channel_name)
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if not listeners.local(self.channel_layer):
            await self.channel_layer.group_send(
                self.group, {"type": "game.bye", "channel": self.channel_name}
            )

    def _alone(self) -> bool:
        """Does no other socket listen to this game? Then a fast move sends no group message."""
        if listeners.local(self.channel_layer):
            return listeners.alone(self.group, self.channel_name)
        return not self.peers

    async def game_hello(self, event: dict[str, Any]) -> None:
        """Another socket of the game opened: note it, and tell it the version sent here."""
        channel = event["channel"]
        if channel == self.channel_name:
            return
        self.peers.add(channel)
        await self.channel_layer.send(
            channel, {"type": "game.here", "channel": self.channel_name, "version": self.sent_version}
        )

    async def game_here(self, event: dict[str, Any]) -> None:
        """An older socket of the game answered this one's hello."""
        channel, version = event["channel"], event["version"]
        self.peers.add(channel)
        if version > self.sent_version:
            await self.catch_up(version, f"game {self.game_id}")
        elif version < self.sent_version:
            # This socket moved between its hello and this answer, thinking itself alone,
            # so it sent those moves to no one: tell the older socket now.
            await self.channel_layer.send(channel, {"type": "game.changed", "version": self.sent_version})

    async def game_bye(self, event: dict[str, Any]) -> None:
        self.peers.discard(event["channel"])

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("type")
        message_id = message_id_of(content)
        if kind == "sync":
            await self.send_current(force=True)
            return
        if kind in ("pause", "resume"):
            await self._pause(message_id, kind == "pause")
            return
        if kind not in KINDS:
            await self.send_error(
                message_id,
                "the type must be move, undo, redo, autofinish, pause, resume, sync or ping",
                "bad_request",
            )
            return
        if message_id is None:
            await self.send_error(None, "a change needs an id", "bad_request")
            return
        try:
            change = parse_change(kind, content.get("move"), message_id, content.get("version"))
        except ServiceError as error:
            await self.send_refusal(message_id, error)
            return
        # A move first tries the fast path: decided here on the loop, written with one
        # guarded statement pair, committed before the ack. Anything it does not take
        # (a miss, a refusal, a repeat, a busy writer) goes the locked way, which gives
        # the exact answer.
        snapshot = await fastmove.try_move(self.actor, self.game_id, change)
        if snapshot is not None:
            version, text = snapshot.game.version, dumps(state_message(snapshot, exact=False))
            await self.send(text_data=ack_text(message_id, version))
            await self._send_text(version, text)
            # The owner's other sockets get the same text; none listening, no message.
            if not self._alone():
                await self.channel_layer.group_send(
                    self.group,
                    {"type": "game.state", "version": version, "text": text, **_owner_of(snapshot)},
                )
            # An ending quick_over left open is settled off the loop; a loss, once
            # recorded, reaches every socket of the game as any change does.
            fastmove.endings.settle(self.actor, snapshot)
            return
        try:
            played = await in_thread(_apply)(self.actor, self.game_id, change)
        except ServiceError as error:
            await self.send_refusal(message_id, error)
            return
        await self.send(text_data=ack_text(message_id, played.version))
        # The sender's state comes straight from its own change (a repeat's too, which no
        # broadcast follows); the group message for this version then finds it sent.
        if played.version > self.sent_version:
            await self._send_state(played.message)

    async def _pause(self, message_id: str | int | None, paused: bool) -> None:
        """Stop or start the game's clock on the server (no log entry, no new version);
        the ack carries the game's version."""
        try:
            version = await in_thread(play.set_paused)(self.actor, self.game_id, paused)
        except ServiceError as error:
            await self.send_refusal(message_id, error)
            return
        if message_id is not None:
            await self.send(text_data=ack_text(message_id, version))

    async def game_changed(self, event: dict[str, Any]) -> None:
        """The group message a committed change sends: ``{"version": n}``."""
        await self.catch_up(event["version"], f"game {self.game_id}")

    async def game_state(self, event: dict[str, Any]) -> None:
        """A fast move's group message: the version and the owner's state as JSON text,
        rendered once by the sender. Sent on as it is to a socket of the same owner; a
        socket of anyone else (a stale tab whose game moved to an account) reads the game
        instead, and is told."""
        version = event["version"]
        if version <= self.sent_version:
            return
        if not fastmove.owns_digest(self.actor, event["owner_id"], event["owner_key"]):
            await self.catch_up(version, f"game {self.game_id}")
            return
        await self._send_text(version, event["text"])

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

    async def _send_text(self, version: int, text: str) -> None:
        """Send a state message already encoded, unless this socket has that version."""
        if version > self.sent_version:
            self.sent_version = version
            await self.send(text_data=text)
