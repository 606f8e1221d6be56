"""The one in-process socket client of the test suites: Channels' WebsocketCommunicator
through config.asgi (its Origin check, sessions and auth), and a Player with its own
session cookie and HTTP client.

A Socket remembers every message. ``receive`` takes the next one in order; ``first``,
``expect`` and ``state_at`` look for a particular one without losing those before it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.test import AsyncClient

from config.asgi import application
from games.core.actors import PLAYER_TOKEN_KEY

TIMEOUT = 10
ORIGIN = b"http://localhost"


def session_cookie(token: str) -> bytes:
    """A saved session holding an anonymous player's token, as its browser's cookie
    (sync: wrap it in database_sync_to_async from async tests)."""
    session = SessionStore()
    session[PLAYER_TOKEN_KEY] = token
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()


async def open_socket(
    path: str, cookie: bytes | None, *, origin: bytes = ORIGIN, who: str = "socket"
) -> tuple[bool, Any, Socket]:
    """Connect to ``path``; returns (connected, close code or subprotocol, socket)."""
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, detail = await communicator.connect(timeout=TIMEOUT)
    return connected, detail, Socket(communicator, who)


class Socket:
    """One WebSocket connection; remembers every message it received.

    Messages not yet asked for wait in ``pending``, in order, so a test can look for
    the answer to its move without losing the states that came before it.
    """

    def __init__(self, communicator: WebsocketCommunicator, who: str) -> None:
        self.communicator = communicator
        self.who = who
        self.seen: list[dict[str, Any]] = []  # every message, in order
        self.pending: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None  # the newest state message

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send a message (a dict as JSON, a string as it is)."""
        text = message if isinstance(message, str) else json.dumps(message)
        await self.communicator.send_to(text_data=text)

    async def receive(self) -> dict[str, Any]:
        """The next message in order (one set aside by ``first`` comes first)."""
        if self.pending:
            return self.pending.pop(0)
        return await self._receive()

    async def nothing_more(self) -> bool:
        """True when nothing else arrives for a moment (and nothing is set aside)."""
        return not self.pending and await self.communicator.receive_nothing(timeout=0.2)

    async def closed_with(self) -> int | None:
        """The close code, once the server closes the socket."""
        output = await self.communicator.receive_output(timeout=TIMEOUT)
        return output.get("code") if output.get("type") == "websocket.close" else None

    async def _receive(self) -> dict[str, Any]:
        message = await self.communicator.receive_json_from(timeout=TIMEOUT)
        self.seen.append(message)
        if message["type"] == "state" and (
            self.latest is None or message["version"] >= self.latest["version"]
        ):
            self.latest = message
        return message

    async def first(self, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message, waiting or yet to come, that ``match`` accepts."""
        for index, message in enumerate(self.pending):
            if match(message):
                return self.pending.pop(index)
        while True:
            message = await self._receive()
            if match(message):
                return message
            self.pending.append(message)

    async def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The first message of type ``kind`` with these fields."""
        return await self.first(lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items()))

    async def state_at(self, version: int) -> dict[str, Any]:
        """The first state message at ``version`` or later."""
        return await self.first(lambda m: m["type"] == "state" and m["version"] >= version)

    async def settle(self) -> None:
        """Take in everything sent so far, then forget it (it stays in ``seen``)."""
        while not await self.communicator.receive_nothing(timeout=0.2):
            await self._receive()
        self.pending.clear()

    async def close(self) -> None:
        await self.communicator.disconnect()


class Player:
    """A browser: its own session cookie, an HTTP client and sockets."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.http = AsyncClient()
        self.sockets: list[Socket] = []

    @property
    def cookie(self) -> bytes:
        morsel = self.http.cookies.get("sessionid")
        return f"sessionid={morsel.value}".encode() if morsel else b""

    async def post(self, url: str, body: dict[str, Any]) -> Any:
        return await self.http.post(url, json.dumps(body), content_type="application/json")

    async def connect(self, race_id: int, token: str | None = None) -> Socket:
        """A socket on the race (with a link's token for a non-player)."""
        return await self.connect_to(f"/ws/races/{race_id}/" + (f"?token={token}" if token else ""))

    async def connect_to(self, path: str) -> Socket:
        connected, code, socket = await open_socket(path, self.cookie, who=self.name)
        assert connected, f"{self.name} could not connect ({code})"
        self.sockets.append(socket)
        return socket

    async def close_all(self) -> None:
        for socket in self.sockets:
            await socket.close()
