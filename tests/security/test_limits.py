"""Rate limits (games.core.limits): the socket bucket and caps, and HTTP counts in the cache.

Time is a simulated clock here, so the figures are exact: a fast human's pace is never
refused, a script's flood is."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import HttpRequest
from django.test import RequestFactory

from games.core import limits
from games.core.limits import RateLimited, TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def refused_at(rate_per_second: float, seconds: float, bucket: TokenBucket, clock: Clock) -> int:
    """Send at a steady pace for ``seconds``; how many were refused."""
    refused = 0
    for _ in range(int(rate_per_second * seconds)):
        clock.now += 1 / rate_per_second
        refused += bucket.take() > 0
    return refused


@pytest.mark.usefixtures("limits_on")
def test_the_default_move_bucket_never_slows_a_fast_human_but_stops_a_flood(monkeypatch: Any) -> None:
    clock = Clock()
    monkeypatch.setattr(limits.time, "monotonic", clock)
    human = limits.socket_bucket("move")
    assert isinstance(human, TokenBucket)
    # A minute at 20 moves a second, with a burst of 40 quick moves in the middle.
    assert refused_at(20, 30, human, clock) == 0
    assert sum(human.take() > 0 for _ in range(40)) == 0
    clock.now += 2
    assert refused_at(20, 30, human, clock) == 0
    # Reproduction: 400 socket moves at 241 a second all went through.
    script = limits.socket_bucket("move")
    refused = refused_at(241, 400 / 241, script, clock)
    assert refused > 200


def test_a_bucket_says_how_long_to_wait() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=2, burst=2, clock=clock)
    assert bucket.take() == 0 and bucket.take() == 0
    assert bucket.take() == pytest.approx(0.5)
    with pytest.raises(RateLimited) as refused:
        limits.check_bucket(bucket)
    assert refused.value.retry_after == 1 and refused.value.code == "rate_limited"
    clock.now += 0.5
    assert bucket.take() == 0


def test_rates_parse() -> None:
    assert limits.parse_rate("30/s") == (30, 1)
    assert limits.parse_rate("20/5m") == (20, 300)
    assert limits.parse_rate("1200/m") == (1200, 60)
    with pytest.raises(ValueError):
        limits.parse_rate("fast")


def test_with_limits_off_nothing_is_refused(settings: Any) -> None:
    settings.RATE_LIMITS_ON = False
    bucket = limits.socket_bucket("move")
    assert all(bucket.take() == 0 for _ in range(10_000))
    scope = {"client": ("10.0.0.1", 1), "session": None}
    held = [limits.open_socket(scope) for _ in range(500)]
    assert all(keys is not None for keys in held)
    for keys in held:
        limits.close_socket(keys)


@pytest.mark.usefixtures("limits_on")
def test_sockets_are_capped_per_session_and_per_address(settings: Any) -> None:
    """Reproduction: 150 sockets on one game were all accepted."""
    settings.MAX_SOCKETS_PER_SESSION = 3
    settings.MAX_SOCKETS_PER_IP = 5

    class Session:
        def __init__(self, key: str) -> None:
            self.session_key = key

    ana = {"client": ("10.0.0.1", 1), "session": Session("ana")}
    ben = {"client": ("10.0.0.1", 2), "session": Session("ben")}
    held = [limits.open_socket(ana) for _ in range(3)]
    assert all(held) and limits.open_socket(ana) is None  # Ana's session is full
    # Ben shares Ana's address: two more fit under the address's cap of five.
    bens = [limits.open_socket(ben), limits.open_socket(ben)]
    assert all(bens) and limits.open_socket(ben) is None  # the address is full
    limits.close_socket(held.pop())
    bens.append(limits.open_socket(ben))
    assert bens[-1] is not None and limits.sockets.held("ip:10.0.0.1") == 5
    limits.close_socket(held.pop())
    assert limits.open_socket(ben) is None  # now Ben's session is full
    for keys in [*held, *bens]:
        limits.close_socket(keys)
    assert limits.sockets.held("ip:10.0.0.1") == 0 and limits.sockets.held("session:ana") == 0


def request_from(ip: str, token: str | None = None) -> HttpRequest:
    request = RequestFactory().post("/api/games", REMOTE_ADDR=ip)

    class Anonymous:
        is_authenticated = False

    class Session(dict[str, Any]):
        session_key = None

    request.user = Anonymous()  # type: ignore[assignment]
    request.session = Session({"player_token": token} if token else {})  # type: ignore[assignment]
    return request


@pytest.mark.usefixtures("limits_on")
def test_http_counts_per_player_and_per_address(settings: Any) -> None:
    settings.RATE_LIMIT_RATES = {**settings.RATE_LIMIT_RATES, "create_game": "3/m", "create_game_ip": "5/m"}
    for _ in range(3):
        limits.check(request_from("10.0.0.1", "ana"), "create_game")
    with pytest.raises(RateLimited) as refused:
        limits.check(request_from("10.0.0.1", "ana"), "create_game", "new game")
    assert "new game" in str(refused.value) and refused.value.retry_after >= 1
    # Another player on the same address has a count of their own, up to the address's cap.
    limits.check(request_from("10.0.0.1", "ben"), "create_game")
    limits.check(request_from("10.0.0.1", "cat"), "create_game")  # the address's fifth
    with pytest.raises(RateLimited):
        limits.check(request_from("10.0.0.1", "dan"), "create_game")
    # Another address is not affected.
    limits.check(request_from("10.0.0.2", "eve"), "create_game")


def test_http_limits_off_count_nothing(settings: Any) -> None:
    settings.RATE_LIMITS_ON = False
    settings.RATELIMIT_ENABLE = False
    for _ in range(500):
        limits.check(request_from("10.0.0.1", "ana"), "create_game")


# ---------------------------------------------------------------- strict input


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000,  # reproduction: a 500 on the API, a dead socket
        "[" * 17 + "]" * 17,
        '{"id": "\\ud800"}',  # reproduction: a lone surrogate in a move id
        '{"name": "Ana\\u0000"}',  # reproduction: a NUL in a race name (PostgreSQL)
        '{"\\udfff": 1}',
        '{"name": "' + "a" * 201 + '"}',
        '{"n": NaN}',
        '{"n": Infinity}',
        "[" + ",".join(["1"] * 501) + "]",
        '{"a": 1',
        b'{"a": "\xff"}',
    ],
)
def test_strict_loads_refuses_what_no_honest_client_sends(text: str | bytes) -> None:
    with pytest.raises(limits.BadInput) as refused:
        limits.strict_loads(text)
    assert refused.value.status == 400 and refused.value.code == "bad_request"


def test_strict_loads_accepts_every_honest_message() -> None:
    move = (
        '{"type": "move", "id": "c1", "version": 3,'
        ' "move": {"from": "t3", "to": "f1", "count": 1, "cards": ["AH"]}}'
    )
    assert limits.strict_loads(move)["move"]["cards"] == ["AH"]
    assert limits.strict_loads('{"name": "Zoë 🂡"}') == {"name": "Zoë 🂡"}
    assert limits.strict_loads("[" * 16 + "]" * 16) is not None
