"""Random JSON at every HTTP endpoint and every socket message type (issue 11): no answer
may be a 500, and no socket may close or crash. Hypothesis shrinks any failure to a small
request worth pasting into a test.

Through the real stacks: Django's test client with every middleware for HTTP, and
config.asgi's router (Origin check, session, auth) for the sockets."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.asgi import application
from games.core.limits import BadInput, strict_loads
from games.core.sockets import MAX_MESSAGE_BYTES
from games.solo import winnable

pytestmark = pytest.mark.django_db(transaction=True)

NASTY_TEXT = st.sampled_from(
    ["\ud800", "\udfff", "a\x00b", "x" * 300, "", "stock", "waste", "t1", "f1", "AH", "10S", "-1", "1e400"]
)
TEXT = st.one_of(st.text(max_size=20), NASTY_TEXT)
NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 3, 2**63, -1, 1.0, 3.0]),
)
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, TEXT),
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(TEXT, children, max_size=5)),
    max_leaves=20,
)
MOVE = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"from": JSON, "to": JSON},
        optional={"count": JSON, "cards": JSON, "extra": JSON},
    ),
)
# Every key a request body of the API reads, with random values, plus random keys.
BODY = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {},
        optional={
            "game": st.one_of(st.sampled_from(["klondike", "josephine", "casket", "double"]), JSON),
            "options": JSON,
            "deal": JSON,
            "winnable": JSON,
            "move": MOVE,
            "id": JSON,
            "version": JSON,
            "name": JSON,
            "token": JSON,
        },
    ),
)
DEEP = st.integers(min_value=1, max_value=6000).map(lambda n: "[" * n + "]" * n)
RAW = st.one_of(
    BODY.map(lambda body: json.dumps(body)),
    DEEP,
    st.binary(max_size=40).map(lambda data: data.decode("latin-1")),
    st.sampled_from(["", "{", '{"a":', "nul\x00", "[1,2", '"\\ud800"', "NaN", "{}" * 10]),
)

HTTP = [
    ("GET", "/api/games"),
    ("POST", "/api/games"),
    ("GET", "/api/games/{game}"),
    ("DELETE", "/api/games/{other}"),
    ("POST", "/api/games/{game}/moves"),
    ("POST", "/api/games/{game}/undo"),
    ("POST", "/api/games/{game}/redo"),
    ("POST", "/api/games/{game}/autofinish"),
    ("POST", "/api/games/{other}/abandon"),
    ("GET", "/api/games/{game}/hint"),
    ("GET", "/api/games/{game}/winnable"),
    ("GET", "/api/stats"),
    ("GET", "/api/daily"),
    ("GET", "/api/races"),
    ("POST", "/api/races"),
    ("GET", "/api/races/{race}"),
    ("POST", "/api/races/{race}/join"),
    ("POST", "/api/races/{race}/rematch"),
    ("GET", "/api/races/{race}/replay"),
    ("GET", "/api/games/999999"),
    ("POST", "/api/races/999999/join"),
    ("GET", "/play/{game}/"),
    ("GET", "/races/{race}/"),
    ("GET", "/races/{race}/join/{token}/"),
    ("GET", "/"),
]
QUERY = st.one_of(
    st.just(""),
    st.dictionaries(
        st.sampled_from(["page", "game", "draw", "options", "token", "views", "x"]), TEXT, max_size=3
    ).map(lambda query: "?" + "&".join(f"{k}={json.dumps(v)[1:-1]}" for k, v in query.items())),
)


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver's searches cut short, so that a fuzzed "winnable" costs little."""
    monkeypatch.setattr(winnable, "DEAL_BUDGET", winnable.Budget(timeout=0.2, max_nodes=500))
    monkeypatch.setattr(winnable, "DEAL_HUNT_SECONDS", 0.3)
    monkeypatch.setattr(winnable, "VERDICT_BUDGET", winnable.Budget(timeout=0.2, max_nodes=500))


@pytest.fixture
def table() -> Iterator[dict[str, Any]]:
    """Ana with two games and a race that Ben joined."""
    ana, ben = Client(), Client()
    game = ana.post("/api/games", json.dumps({"game": "klondike"}), content_type="application/json").json()
    other = ana.post("/api/games", json.dumps({"game": "casket"}), content_type="application/json").json()
    race = ana.post("/api/races", json.dumps({"options": {}, "name": "Ana"}), content_type="application/json")
    race_data = race.json()
    ben.post(
        f"/api/races/{race_data['id']}/join",
        json.dumps({"token": race_data["token"], "name": "Ben"}),
        content_type="application/json",
    )
    yield {
        "ana": ana,
        "game": game["id"],
        "other": other["id"],
        "race": race_data["id"],
        "token": race_data["token"],
    }


@pytest.mark.usefixtures("small_budgets")
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(endpoint=st.sampled_from(HTTP), query=QUERY, body=st.one_of(BODY.map(json.dumps), RAW))
def test_no_http_request_gets_a_500(
    table: dict[str, Any], endpoint: tuple[str, str], query: str, body: str
) -> None:
    method, template = endpoint
    path = template.format(**{k: v for k, v in table.items() if k != "ana"}) + query
    client: Client = table["ana"]
    client.raise_request_exception = False
    response = client.generic(
        method, path, body.encode("utf-8", "surrogatepass"), content_type="application/json"
    )
    assert response.status_code < 500 or response.status_code == 503, (
        method,
        path,
        body,
        response.content[:300],
    )
    if path.startswith("/api/") and response.status_code >= 400:
        answer = response.json()
        assert isinstance(answer["error"], str) and isinstance(answer["code"], str)


GAME_TYPES = ["move", "undo", "redo", "autofinish", "sync", "ping"]
RACE_TYPES = ["move", "ready", "resign", "offer_end", "sync", "ping"]


def messages(types: list[str]) -> st.SearchStrategy[str]:
    shaped = st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(types), JSON)},
        optional={"id": JSON, "move": MOVE, "version": JSON, "extra": JSON},
    ).map(json.dumps)
    return st.one_of(shaped, shaped, RAW)


def _is_ping(text: str) -> bool:
    """Whether the socket answers ``text`` with a pong (as games.core.sockets reads it)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        return False
    try:
        content = strict_loads(text)
    except BadInput:
        return False
    return isinstance(content, dict) and content.get("type") == "ping"


async def _hammer(path: str, cookie: str, texts: list[str]) -> None:
    socket = WebsocketCommunicator(
        application,
        path,
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())],
    )
    connected, _ = await socket.connect(timeout=10)
    assert connected
    texts = [text or " " for text in texts]  # a text frame is never empty here
    for text in texts:
        await socket.send_to(text_data=text)
    # Every message was read and answered if a ping sent after them comes back.
    await socket.send_to(text_data='{"type": "ping"}')
    pongs = 1 + sum(_is_ping(text) for text in texts)
    while pongs:
        output = await socket.receive_output(timeout=20)
        assert output["type"] == "websocket.send", (output, texts)
        pongs -= json.loads(output["text"]) == {"type": "pong"}
    await socket.disconnect()


def _cookie(client: Client) -> str:
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(texts=st.lists(messages(GAME_TYPES), min_size=1, max_size=12))
def test_no_game_socket_message_closes_the_socket(table: dict[str, Any], texts: list[str]) -> None:
    asyncio.run(_hammer(f"/ws/games/{table['game']}/", _cookie(table["ana"]), texts))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(texts=st.lists(messages(RACE_TYPES), min_size=1, max_size=12))
def test_no_race_socket_message_closes_the_socket(table: dict[str, Any], texts: list[str]) -> None:
    asyncio.run(_hammer(f"/ws/races/{table['race']}/", _cookie(table["ana"]), texts))
