"""The WebSocket Origin check (games.core.middleware.OriginValidator): scheme, host and
port must all match the site's own origin or a CSRF_TRUSTED_ORIGINS entry.

Reproduction (issue 11): the old check compared host names only, so a page on
http://localhost:9999, or any other port of the same host, could open sockets with the
player's cookies."""

from __future__ import annotations

from typing import Any

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator

from games.core.middleware import OriginValidator, parse_origin


class Accept(AsyncWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        await self.accept()


APP = OriginValidator(Accept.as_asgi())
# Channels closes old database connections around each message, hence the mark.
pytestmark = pytest.mark.django_db


async def opens(
    origin: str | None, host: str | None = "localhost:8000", scheme: str = "ws", **extra: str
) -> bool:
    headers = []
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if host is not None:
        headers.append((b"host", host.encode()))
    headers += [(name.encode(), value.encode()) for name, value in extra.items()]
    communicator = WebsocketCommunicator(APP, "/ws/games/1/", headers=headers)
    communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return bool(connected)


@pytest.fixture(autouse=True)
def site(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "cards.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.cards.example", "https://*.friends.example"]
    settings.SECURE_PROXY_SSL_HEADER = None


async def test_the_sites_own_origin_opens_a_socket() -> None:
    assert await opens("http://localhost:8000")
    assert await opens("http://LOCALHOST:8000")
    assert await opens("http://cards.example", host="cards.example")
    assert await opens("https://cards.example", host="cards.example", scheme="wss")
    assert await opens("https://cards.example:443", host="cards.example:443", scheme="wss")


async def test_another_port_of_the_same_host_is_refused() -> None:
    assert not await opens("http://localhost:9999")
    assert not await opens("http://localhost")  # port 80, the socket is on 8000
    assert not await opens("http://127.0.0.1:8000")  # another host name of the same machine


async def test_another_scheme_is_refused() -> None:
    assert not await opens("https://localhost:8000")
    assert not await opens("http://cards.example", host="cards.example", scheme="wss")


async def test_foreign_missing_and_malformed_origins_are_refused() -> None:
    assert not await opens("http://evil.example:8000")
    assert not await opens(None)
    assert not await opens("null")
    assert not await opens("file://")
    assert not await opens("http://localhost:8000/path")
    assert not await opens("http://user@localhost:8000")
    assert not await opens("http://localhost:notaport")
    # A Host that is not one of ALLOWED_HOSTS makes no origin the site's own.
    assert not await opens("http://evil.example:8000", host="evil.example:8000")


async def test_trusted_origins_match_exactly_or_by_subdomain() -> None:
    assert await opens("https://play.cards.example", host="cards.example")
    assert not await opens("http://play.cards.example", host="cards.example")
    assert not await opens("https://play.cards.example:8443", host="cards.example")
    assert await opens("https://ana.friends.example", host="cards.example")
    assert not await opens("https://friends.example.evil", host="cards.example")


async def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert await opens("https://cards.example", host="cards.example", **{"x-forwarded-proto": "https"})
    assert not await opens("http://cards.example", host="cards.example", **{"x-forwarded-proto": "https"})


def test_origins_parse_to_scheme_host_and_port() -> None:
    assert parse_origin("https://Cards.Example") == ("https", "cards.example", 443)
    assert parse_origin("http://[::1]:8000") == ("http", "::1", 8000)
    assert parse_origin("ftp://cards.example") is None
