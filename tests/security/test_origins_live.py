"""The Origin check on a real Daphne: a page on another port of the same host cannot open
a socket with the player's cookies (reproduction, issue 11)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server import Player, Server, serve
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serve() as running:
        yield running


def opens(server: Server, path: str, origin: str, cookie: str) -> bool:
    url = f"ws://{server.host}:{server.port}{path}"
    try:
        with connect(url, origin=origin, additional_headers={"Cookie": cookie}, open_timeout=30):  # type: ignore[arg-type]
            return True
    except InvalidStatus as refused:
        assert refused.response.status_code == 403
        return False


def test_only_the_sites_own_origin_opens_a_game_socket(server: Server) -> None:
    player = Player(server)
    status, _, game = player.post("/api/games", {"game": "klondike"})
    assert status == 201
    path = f"/ws/games/{game['id']}/"
    cookie = player.cookie_header()
    assert opens(server, path, server.url, cookie)
    assert not opens(server, path, f"http://{server.host}:9999", cookie)
    assert not opens(server, path, f"http://{server.host}", cookie)
    assert not opens(server, path, f"https://{server.host}:{server.port}", cookie)
    assert not opens(server, path, f"http://localhost:{server.port}", cookie)
    player.close()
