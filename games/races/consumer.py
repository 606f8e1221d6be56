"""The socket of one race, /ws/races/<id>/[?token=<invite or watch token>]: a thin edge
over games.races' services (lobby, play, presence).

On connect the server sends ``state`` (with ``seat``: 1, 2, or null for a spectator).
After every change each socket receives ``state`` again, rendered here from the race at
its new version with the engine's view for this socket's seat only (the sender's socket
from the change's own committed snapshot, the others on the group message). Around the start
each socket counts down by itself from the race's stored ``starts_at`` (so every socket,
on any process, shows the same 3-2-1, and a reconnect mid-countdown picks it up), then
sends ``start``. Presence changes of a seat arrive as ``presence``; the end as
``finished``. The sender of a change also gets ``ack`` or ``error``; ``ping`` is
answered ``pong`` by the socket base.

This module decides nothing about races: the service checks, applies and announces.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qs

from django.utils import timezone

import solitaire
from games.core.actors import Actor, actor_for_scope
from games.core.client_ids import clean_client_id
from games.core.errors import NotFound, ServiceError
from games.core.fastpath import ack_text
from games.core.sockets import JsonSocket, in_thread, message_id_of
from games.models import Race, race_group
from games.races import bot, fastmove, lobby, play, presence, records
from games.races.payloads import state_message

CLOSE_NOT_FOUND = 4404  # no such race, or the caller may not see it (the two look alike)


def _read(actor: Actor, race_id: int, token: str | None) -> dict[str, Any]:
    """The ``state`` message of the race as ``actor`` may see it (raises NotFound)."""
    snapshot, seat = records.get_race_for(actor, race_id, token)
    return state_message(snapshot, seat, token=token)


def _change(
    actor: Actor,
    race_id: int,
    kind: str,
    move: solitaire.Move | None,
    client_id: str | int | None,
    token: str | None,
    presence: dict[int, bool] | None = None,
) -> dict[str, Any]:
    """Make a change; returns the sender's ``state`` message after it (for a repeat, of the
    race as it is). The snapshot is the committed race, so the sender's socket needs no
    second read of it: rendering it here saves a thread hop and two queries a move.
    ``presence`` is what the socket has been told of who is connected (read when None)."""
    if move is not None:
        snapshot = play.play_move(actor, race_id, move, client_id)
    elif kind == "ready":
        snapshot = lobby.set_ready(actor, race_id)
    elif kind == "resign":
        snapshot = play.resign(actor, race_id)
    else:
        snapshot = play.offer_end(actor, race_id)
    return state_message(snapshot, snapshot.seat_of(actor), token=token, presence=presence)


CHANGES = ("move", "ready", "resign", "offer_end")


class RaceConsumer(JsonSocket):
    race_id: int
    group: str
    actor: Actor
    token: str | None
    sent_version: int
    sent_finished: bool
    countdown_for: str | None
    tasks: list[asyncio.Task[None]]
    recorded: bool
    # Which seats have a live socket, as the last state sent and the presence messages
    # since told this socket (None before the first state).
    presence: dict[int, bool] | None = None

    async def connect(self) -> None:
        self.race_id = self.scope["url_route"]["kwargs"]["race_id"]
        self.group = race_group(self.race_id)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.token = (query.get("token") or [None])[0]
        self.sent_version = -1
        self.sent_finished = False
        self.countdown_for = None
        self.tasks = []
        self.recorded = False
        self.actor = await in_thread(actor_for_scope)(self.scope)
        # Join before reading, so that no change can slip between the read and the join.
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            await in_thread(records.get_race_for)(self.actor, self.race_id, self.token)
        except NotFound:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            # Accept first: a close before accepting reaches the browser without its code.
            await self.accept()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        self.recorded = True
        # Record the socket first, so the state sent next already shows this player here.
        seat = await in_thread(presence.socket_opened)(self.actor, self.race_id, self.channel_name)
        if seat is not None:
            # A race against the computer: its seat plays from this process (after a
            # restart too: the bot resumes from the log when its opponent reconnects).
            await bot.ensure_driving(self.race_id)
        self.tasks.append(asyncio.ensure_future(self._keep_presence()))
        await self.send_current(force=True)

    async def disconnect(self, code: int) -> None:
        for task in self.tasks:
            task.cancel()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.recorded:
            self.recorded = False
            with contextlib.suppress(NotFound):
                await in_thread(presence.socket_closed)(self.race_id, self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("type")
        message_id = message_id_of(content)
        if kind == "sync":
            await self.send_current(force=True)
            return
        if kind not in CHANGES:
            await self.send_error(
                message_id,
                "the type must be ready, move, resign, offer_end, sync or ping",
                "bad_request",
            )
            return
        if kind == "move" and message_id is None:
            await self.send_error(None, "a move needs an id", "bad_request")
            return
        try:
            # A move is parsed once, here at the edge; the service gets a solitaire.Move.
            move = play.parse_move(content.get("move")) if kind == "move" else None
        except ServiceError as error:
            await self.send_refusal(message_id, error)
            return
        if move is not None and await self._fast_move(move, message_id):
            return
        try:
            known = None if self.presence is None else dict(self.presence)
            state = await in_thread(_change)(
                self.actor, self.race_id, kind, move, message_id, self.token, known
            )
        except ServiceError as error:
            await self.send_refusal(message_id, error)
            return
        await self.send_json({"type": "ack", "id": message_id, "version": state["version"]})
        # The sender's state comes straight from its own change (a repeat's too, which no
        # broadcast follows); the group message for this version then finds it sent.
        await self._send_state(state)

    async def _fast_move(self, move: solitaire.Move, message_id: str | int | None) -> bool:
        """A move decided on the loop and written with one guarded statement pair
        (games.races.fastmove); False when it went nowhere, and the locked way answers."""
        try:
            client_id = clean_client_id(message_id)
        except ServiceError:
            return False  # the locked way gives the error
        snapshot = await fastmove.try_move(self.actor, self.race_id, move, client_id)
        if snapshot is None:
            return False
        version = snapshot.race.version
        await self.send(text_data=ack_text(message_id if message_id is not None else "", version))
        seat = snapshot.seat_of(self.actor)
        await self._send_state(state_message(snapshot, seat, token=self.token, presence=self.presence))
        # Committed: every socket of the race hears of it (this process's render from the
        # snapshot just cached; others read the race).
        await self.channel_layer.group_send(
            self.group, {"type": "race.changed", "version": version, "race": self.race_id}
        )
        return True

    # ------------------------------------------------------------ group messages

    async def race_changed(self, event: dict[str, Any]) -> None:
        """A committed change: ``{"version": n}``. Render this socket's own view.

        When this process committed version n, its snapshot is in ``records.snapshots``
        and this socket renders its seat's view from it, with the presence it has been
        told, on the loop: no thread hop, no database read. Otherwise (another process
        made the change, or the cache moved on) it reads the race: the message is the
        only word this socket gets of version n (the last one of a race above all:
        nothing follows ``finished``), so a read that comes back older than n is not the
        end of it: read again until the race shows n, for a little while."""
        version = event["version"]
        if version <= self.sent_version:
            return
        snapshot = records.snapshots.get(self.race_id, version)
        if snapshot is not None and self.presence is not None:
            seat = snapshot.seat_of(self.actor)
            race = snapshot.race
            if (
                seat is not None
                or records.same_token(race.invite_token, self.token)
                or records.same_token(race.watch_token, self.token)
            ):
                await self._send_state(
                    state_message(snapshot, seat, token=self.token, presence=self.presence)
                )
                return
        await self.catch_up(version, f"race {self.race_id}")

    async def race_presence(self, event: dict[str, Any]) -> None:
        if self.presence is not None:
            self.presence[event["seat"]] = bool(event["connected"])
        await self.send_json({"type": "presence", "seat": event["seat"], "connected": event["connected"]})
        # An opponent leaving often follows the race's end; make sure this socket has it,
        # even if the "changed" message was lost on the way.
        await self.send_current()

    # ------------------------------------------------------------ sending

    async def send_current(self, *, force: bool = False) -> int | None:
        """Read the race and send it if it is newer; returns the version read (None when
        the race is gone for this socket, which is then closed)."""
        try:
            state = await in_thread(_read)(self.actor, self.race_id, self.token)
        except NotFound:
            await self.close(code=CLOSE_NOT_FOUND)
            return None
        await self._send_state(state, force=force)
        return int(state["version"])

    async def _send_state(self, state: dict[str, Any], *, force: bool = False) -> None:
        """Send ``state`` unless this socket already has that version; then start the
        countdown or announce the end if the state says so."""
        if not force and state["version"] <= self.sent_version:
            return
        self.sent_version = state["version"]
        self.presence = {number: False for number in records.SEATS}
        self.presence.update((player["seat"], bool(player["connected"])) for player in state["players"])
        await self.send_json(state)
        status = state["status"]
        if status == Race.Status.COUNTDOWN and state["starts_at"] != self.countdown_for:
            self.countdown_for = state["starts_at"]
            self.tasks.append(asyncio.ensure_future(self._count_down(state["starts_at"])))
        if status == Race.Status.FINISHED and not self.sent_finished:
            self.sent_finished = True
            await self.send_json(
                {
                    "type": "finished",
                    "result": state["result"],
                    "players": state["players"],
                    "seed": state.get("seed"),
                    "version": state["version"],
                }
            )

    async def _count_down(self, starts_at_text: str) -> None:
        """3, 2, 1 on the seconds before ``starts_at``, then ``start``; then open play."""
        starts_at = datetime.fromisoformat(starts_at_text)
        tick = records.tick_seconds()
        for remaining in range(records.countdown_ticks(), 0, -1):
            delay = (starts_at - timedelta(seconds=remaining * tick) - timezone.now()).total_seconds()
            if delay <= -tick:
                continue  # this tick went by before we connected
            if delay > 0:
                await asyncio.sleep(delay)
            await self.send_json({"type": "countdown", "seconds": remaining, "starts_at": starts_at_text})
        delay = (starts_at - timezone.now()).total_seconds()
        if delay > 0:
            await asyncio.sleep(delay)
        await self.send_json({"type": "start", "starts_at": starts_at_text})
        # Every socket asks; the first one opens play and the rest find it open.
        await in_thread(lobby.begin)(self.race_id)

    async def _keep_presence(self) -> None:
        while True:
            await asyncio.sleep(presence.PRESENCE_REFRESH.total_seconds())
            await in_thread(presence.socket_seen)(self.channel_name)
