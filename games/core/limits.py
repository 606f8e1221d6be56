"""Rate limits: per player and per address, for moves, game creation, hints, races and logins.

Two mechanisms, one vocabulary (the rates in ``settings.RATE_LIMIT_RATES``, written
``count/period`` as django-ratelimit writes them, e.g. ``60/m`` or ``20/5m``):

- **HTTP requests** count in the cache with django-ratelimit's fixed windows
  (:func:`check`, :func:`acheck`). With ``REDIS_URL`` the cache is Redis, so the counts
  are shared by every process of the site; without it the site is one process and its
  memory is enough. Each request counts twice: against the player (the account, else
  the anonymous player's token, else the address) and against the address, so neither
  many sessions from one address nor one session from many addresses get round it.
- **Socket messages** count in the socket itself, in a :class:`TokenBucket`: no cache
  round trip on the move path. A player's sockets are capped per process
  (:class:`SocketCounter`), which bounds a player's total rate as well.

Input is bounded here too: :func:`strict_loads` parses a request body or socket message
and refuses (:class:`BadInput`, a 400 or a socket ``error``) over-deep JSON, NUL
characters, lone surrogates, NaN and over-long strings, before any service sees them.

A refusal is :class:`RateLimited` (HTTP 429, socket error code ``rate_limited``) with the
seconds to wait. ``RATE_LIMITS=off`` in the environment turns every limit off, for
benchmarks and load tests. The defaults never slow a fast human: 30 moves a second
sustained on a socket, with bursts of 60.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import get_usage  # type: ignore[import-untyped,unused-ignore]

logger = logging.getLogger(__name__)

PLAYER_TOKEN_KEY = "player_token"  # games.core.actors keeps an anonymous player's token here
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class RateLimited(Exception):
    """Too many requests of one kind: wait ``retry_after`` seconds."""

    code = "rate_limited"
    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = max(1, retry_after)


def enabled() -> bool:
    return bool(getattr(settings, "RATE_LIMITS_ON", True))


def parse_rate(rate: str) -> tuple[int, int]:
    """``"30/s"`` -> (30, 1); ``"20/5m"`` -> (20, 300)."""
    found = _RATE.match(rate)
    if found is None:
        raise ValueError(f"a rate is written count/period, such as 30/s or 20/5m, not {rate!r}")
    count, multiple, unit = found.groups()
    return int(count), (int(multiple) if multiple else 1) * _PERIODS[unit]


def rate_of(name: str) -> str | None:
    """The configured rate called ``name``; None (no limit) when it is not set or empty."""
    rates: dict[str, str] = getattr(settings, "RATE_LIMIT_RATES", {})
    return rates.get(name) or None


# ---------------------------------------------------------------- who is counted


def client_ip(request: HttpRequest) -> str:
    """The client's address. Behind the proxy, Daphne (--proxy-headers) has already put
    the proxy's X-Forwarded-For here; the client cannot set it."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def player_key(request: HttpRequest) -> str:
    """The account, else the anonymous player's token, else the address. Reading the
    session does not create one."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    session = getattr(request, "session", None)
    token = session.get(PLAYER_TOKEN_KEY) if session is not None else None
    if token:
        return f"player:{token}"
    return f"ip:{client_ip(request)}"


def scope_keys(scope: Mapping[str, Any]) -> tuple[str, str]:
    """(player key, address key) of a socket's scope, as :func:`player_key` would say."""
    client = scope.get("client") or ("unknown", 0)
    ip = f"ip:{client[0]}"
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}", ip
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    return (f"session:{key}" if key else ip), ip


# ---------------------------------------------------------------- HTTP


def _count(request: HttpRequest, group: str, key: str, rate: str) -> dict[str, Any] | None:
    try:
        usage: dict[str, Any] | None = get_usage(
            request, group=f"patience.{group}", key=lambda _group, _request: key, rate=rate, increment=True
        )
    except Exception:  # the cache is unreachable: let the request through rather than fail it
        logger.warning("rate limit %s: the cache did not answer", group, exc_info=True)
        return None
    return usage


def check(request: HttpRequest, name: str, what: str | None = None) -> None:
    """Count this request against the limit ``name`` (per player) and ``name_ip`` (per
    address).

    :raises RateLimited: when either is over its rate; the message names ``what``.
    """
    if not enabled():
        return
    for group, key in ((name, player_key(request)), (f"{name}_ip", f"ip:{client_ip(request)}")):
        rate = rate_of(group)
        if rate is None:
            continue
        usage = _count(request, group, key, rate)
        if usage is not None and usage["should_limit"]:
            raise RateLimited(
                f"too many {what or name.replace('_', ' ')} requests; try again in a moment",
                int(usage["time_left"]) if usage["time_left"] > 0 else 1,
            )


async def acheck(request: HttpRequest, name: str, what: str | None = None) -> None:
    """:func:`check` from async code: the cache round trip goes to a thread of its own,
    never the shared sync thread."""
    if enabled():
        await sync_to_async(check, thread_sensitive=False)(request, name, what)


def check_login(request: HttpRequest) -> None:
    """Count a login attempt per address and per user name named.

    :raises RateLimited: after too many attempts.
    """
    if not enabled():
        return
    username = str(request.POST.get("username", ""))[:150].strip().lower()
    ip = client_ip(request)
    for group, key in (("login_ip", f"ip:{ip}"), ("login_user", f"user:{username}")):
        rate = rate_of(group)
        if rate is None or (group == "login_user" and not username):
            continue
        usage = _count(request, group, key, rate)
        if usage is not None and usage["should_limit"]:
            raise RateLimited(
                "too many login attempts; try again later",
                int(usage["time_left"]) if usage["time_left"] > 0 else 1,
            )


# ---------------------------------------------------------------- sockets


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; one message takes one.

    In a socket's own memory: sockets are single-threaded coroutines, so no lock.
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] | None = None) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a bucket needs a positive rate and room for at least one token")
        self.rate = rate
        self.burst = burst
        self._clock = clock or time.monotonic
        self._tokens = burst
        self._stamp = self._clock()

    def take(self) -> float:
        """Take a token: 0.0 when there was one, else the seconds until there is one
        (and nothing is taken)."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        return (1 - self._tokens) / self.rate


class _Unlimited:
    def take(self) -> float:
        return 0.0


def socket_bucket(kind: str = "move") -> TokenBucket | _Unlimited:
    """A fresh bucket for one socket: ``kind`` is "move" (moves, undo, redo ...) or
    "message" (everything else a socket may send)."""
    rate, burst = rate_of(kind), rate_of(f"{kind}_burst")
    if not enabled() or rate is None:
        return _Unlimited()
    count, period = parse_rate(rate)
    return TokenBucket(count / period, float(burst) if burst else float(count))


def check_bucket(bucket: TokenBucket | _Unlimited, what: str = "moves") -> None:
    """Take a token from a socket's bucket.

    :raises RateLimited: when it is empty.
    """
    wait = bucket.take()
    if wait > 0:
        raise RateLimited(f"too many {what} at once; slow down a little", math.ceil(wait))


class SocketCounter:
    """How many sockets each key (a player, an address) holds open in this process."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def acquire(self, key: str, limit: int) -> bool:
        """Count one more socket for ``key``; False (and nothing counted) at ``limit``."""
        with self._lock:
            held = self._open.get(key, 0)
            if enabled() and held >= limit:
                return False
            self._open[key] = held + 1
            return True

    def release(self, key: str) -> None:
        with self._lock:
            held = self._open.get(key, 0) - 1
            if held > 0:
                self._open[key] = held
            else:
                self._open.pop(key, None)

    def held(self, key: str) -> int:
        return self._open.get(key, 0)


sockets = SocketCounter()


def open_socket(scope: Mapping[str, Any]) -> list[str] | None:
    """Count a new socket against its player's and its address's caps
    (MAX_SOCKETS_PER_SESSION, MAX_SOCKETS_PER_IP). The keys to hand to
    :func:`close_socket` when it closes, or None when a cap is reached (nothing counted):
    refuse the socket."""
    player, ip = scope_keys(scope)
    taken: list[str] = []
    caps = [(player, int(getattr(settings, "MAX_SOCKETS_PER_SESSION", 12)))]
    if ip != player:
        caps.append((ip, int(getattr(settings, "MAX_SOCKETS_PER_IP", 60))))
    for key, limit in caps:
        if not sockets.acquire(key, limit):
            close_socket(taken)
            return None
        taken.append(key)
    return taken


def close_socket(keys: list[str] | None) -> None:
    for key in keys or []:
        sockets.release(key)


# ---------------------------------------------------------------- strict input

# JSON nesting deeper than this is refused: no message of the site needs more than 4.
MAX_JSON_DEPTH = 16
# No string in a request (names, ids, card texts, option names) needs more characters.
MAX_STRING_LENGTH = 200
# Items in one array or object.
MAX_ITEMS = 500
_BAD_CHARACTERS = re.compile("[\x00\ud800-\udfff]")


class BadInput(ValueError):
    """Input the site refuses before any service sees it: a 400 or a socket ``error``."""

    code = "bad_request"
    status = 400


def _refuse_constant(name: str) -> None:
    raise BadInput(f"{name} is not a number this site accepts")


def strict_loads(
    text: str | bytes,
    *,
    max_depth: int = MAX_JSON_DEPTH,
    max_string: int = MAX_STRING_LENGTH,
    max_items: int = MAX_ITEMS,
) -> Any:
    """``json.loads(text)``, refusing what no honest client sends.

    :raises BadInput: for invalid JSON or UTF-8, nesting deeper than ``max_depth``, a
        string (or key) longer than ``max_string`` or holding a NUL or a lone surrogate,
        more than ``max_items`` items in one array or object, NaN or Infinity.
    """
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise BadInput(f"the JSON is nested too deeply (at most {max_depth} levels)") from None
    except BadInput:
        raise
    except (ValueError, UnicodeDecodeError):
        raise BadInput("this is not valid JSON") from None
    check_value(value, max_depth=max_depth, max_string=max_string, max_items=max_items)
    return value


def check_string(text: str, max_string: int = MAX_STRING_LENGTH, what: str = "a text") -> None:
    """:raises BadInput: for a NUL, a lone surrogate or more than ``max_string`` characters."""
    if len(text) > max_string:
        raise BadInput(f"{what} may be at most {max_string} characters long")
    if _BAD_CHARACTERS.search(text):
        raise BadInput(f"{what} holds a character that is not allowed (NUL or a lone surrogate)")


def check_value(
    value: Any,
    *,
    max_depth: int = MAX_JSON_DEPTH,
    max_string: int = MAX_STRING_LENGTH,
    max_items: int = MAX_ITEMS,
) -> None:
    """Walk a parsed JSON value (without recursion) and refuse what :func:`strict_loads`
    refuses."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_string(item, max_string)
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise BadInput(f"the JSON is nested too deeply (at most {max_depth} levels)")
            if len(item) > max_items:
                raise BadInput(f"at most {max_items} items in one array or object")
            if isinstance(item, dict):
                for key, child in item.items():
                    check_string(key, max_string, "a key")
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)
