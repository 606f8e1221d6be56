"""What every game socket shares: decoding messages, refusing bad ones, the heartbeat,
thread hops and catching up with an announced version.

The single-player and race consumers both take JSON text messages of bounded size and
answer anything malformed with an ``error`` message, leaving the connection and the
game as they were. ``{"type": "ping"}`` is answered ``{"type": "pong"}`` here, so a
page can tell a dead socket from a quiet one. This module knows nothing of games or
races.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.core import limits
from games.core.errors import ServiceError

MAX_MESSAGE_BYTES = 4096
# Message types that change a game or race: they draw on the socket's move bucket; every
# other message on its message bucket (games.core.limits).
MOVE_TYPES = frozenset({"move", "undo", "redo", "autofinish"})
# The close code of a socket refused because its player has too many open.
CLOSE_TOO_MANY = 4429
# A group message announces a committed version; should a read still come back older
# (a reader behind the writer), try again after these pauses (seconds) before giving up.
CATCH_UP_PAUSES = (0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0)

T = TypeVar("T")

logger = logging.getLogger(__name__)


def in_thread(function: Callable[..., T]) -> Callable[..., Any]:
    """Run blocking database work off the event loop.

    Not thread-sensitive: each call is one self-contained transaction, so any pool
    thread will do, and sockets of different games do not queue behind one thread.
    """
    hopping: Callable[..., Any] = database_sync_to_async(function, thread_sensitive=False)
    return hopping


def message_id_of(content: dict[str, Any]) -> str | int | None:
    """The client's id of a message, when it is a string or a whole number."""
    message_id = content.get("id")
    if not isinstance(message_id, str | int) or isinstance(message_id, bool):
        return None
    return message_id


class JsonSocket(AsyncJsonWebsocketConsumer):
    """A consumer of JSON objects sent as text, each at most ``MAX_MESSAGE_BYTES``.

    Input is strict (games.core.limits.strict_loads: no NUL, lone surrogate, over-deep
    JSON or over-long string) and rate-limited per socket; a refusal is an ``error``
    message and the socket stays open. A player may hold MAX_SOCKETS_PER_SESSION
    sockets at once (per process); one more is told so and closed with 4429.
    """

    socket_keys: list[str] | None = None
    refused: bool = False

    async def websocket_connect(self, message: Any) -> None:
        self.move_bucket = limits.socket_bucket("move")
        self.message_bucket = limits.socket_bucket("message")
        self.socket_keys = limits.open_socket(self.scope)
        if self.socket_keys is None:
            self.refused = True
            await self.accept()
            await self.send_error(None, "too many open connections from this browser", "rate_limited")
            await self.close(code=CLOSE_TOO_MANY)
            return
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: Any) -> None:
        limits.close_socket(self.socket_keys)
        self.socket_keys = None
        if self.refused:
            raise StopConsumer()
        await super().websocket_disconnect(message)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if self.refused:
            return
        if text_data is None:
            await self.send_error(None, "send JSON as text messages", "bad_request")
            return
        if len(text_data.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
            await self.send_error(None, f"a message may be at most {MAX_MESSAGE_BYTES} bytes", "too_large")
            return
        try:
            content = limits.strict_loads(text_data)
        except limits.BadInput as error:
            await self.send_error(None, f"a message must be valid JSON: {error}", "bad_request")
            return
        if not isinstance(content, dict):
            await self.send_error(None, "a message must be a JSON object", "bad_request")
            return
        kind = content.get("type")
        try:
            limits.check_bucket(
                self.move_bucket if kind in MOVE_TYPES else self.message_bucket,
                "moves" if kind in MOVE_TYPES else "messages",
            )
        except limits.RateLimited as error:
            await self.send_error(
                message_id_of(content), error.message, error.code, retry_after=error.retry_after
            )
            return
        if kind == "ping":
            await self.send_json({"type": "pong"})
            return
        await self.receive_json(content)

    async def send_error(self, message_id: str | int | None, error: str, code: str, **data: Any) -> None:
        """``{"type": "error", "id", "code", "error", "data"}``: the sender's request was refused."""
        await self.send_json({"type": "error", "id": message_id, "error": error, "code": code, "data": data})

    async def send_refusal(self, message_id: str | int | None, error: ServiceError) -> None:
        await self.send_error(message_id, error.message, error.code, **error.data)

    # The consumer keeps ``sent_version`` and reads and sends its state with
    # ``send_current`` (returning the version read, or None once the socket is closed).
    sent_version: int

    async def send_current(self, *, force: bool = False) -> int | None:
        raise NotImplementedError

    async def catch_up(self, version: int, what: str) -> None:
        """Bring this socket to ``version``, announced by a group message.

        That message is the socket's only word of the version (the last of a race above
        all), so a read that comes back older (a reader behind the writer) is tried again
        for a little while, then logged."""
        for pause in CATCH_UP_PAUSES:
            if version <= self.sent_version:
                return
            read = await self.send_current()
            if read is None or read >= version:
                return
            await asyncio.sleep(pause)
        if version > self.sent_version:
            logger.warning(
                "%s: socket %s was told of version %s but reads version %s",
                what,
                self.channel_name,
                version,
                self.sent_version,
            )
