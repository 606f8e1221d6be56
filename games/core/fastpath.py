"""The parts of the fast move path that know nothing of solitaire: one guarded write,
the stores that carry it out, who else listens to a group, and JSON encoded once.

The fast path decides a move on the event loop against the process's cached position
and writes it with ONE guarded statement pair, in one transaction of its own:

    UPDATE games_game SET version = version + 1, ...
     WHERE id = ? AND version = ? AND status = 'playing' AND <the owner matches>
    RETURNING version;
    INSERT INTO games_move (game_id, seq, move, client_id, created) VALUES (...);

The UPDATE finds no row when the game moved on in another process (or socket), was
finished or abandoned, or changed hands; the INSERT fails on the unique (game, seq)
and (game, client_id) constraints when the id was used before. Either way the
transaction is rolled back and the store answers None. So does a busy writer. The
caller then goes to the locked service, which gives the exact answer or error: the
fast path never refuses anything itself, and it acknowledges nothing before COMMIT.

The store is chosen by the default database: SQLite (``games.core.store_sqlite``) or
PostgreSQL (``games.core.store_pg``); for any other database there is none, and every
move goes the locked way.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

import orjson
from channels.layers import BaseChannelLayer, InMemoryChannelLayer
from django.db import connections

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GuardedMove:
    """One move's write: the row's new fields, guarded by what the cache believed.

    ``user_id`` / ``owner_key`` are the owner the mover claims, matched the way the
    locked service finds an actor's games: a user's own games, or an anonymous token's
    games that no user owns. ``entry`` is the log entry (a JSON object)."""

    game_id: int
    version: int  # the version the move was decided against; the row must still have it
    user_id: int | None
    owner_key: str | None
    entry: dict[str, Any]
    client_id: str | None
    now: datetime
    status: str
    finished: datetime | None
    score: int | None
    elapsed: timedelta
    moves_made: int


@dataclass(frozen=True, slots=True)
class GuardedRaceMove:
    """One race move's write: the race must still be at ``version`` and in play. The
    seat was checked against the cached seats (a seat never changes hands)."""

    race_id: int
    version: int
    seat: int
    entry: dict[str, Any]
    client_id: str | None
    now: datetime


class MoveStore(Protocol):
    """Writes a guarded move in one transaction; the new version after COMMIT, or None
    (the guard did not hold, the id was used before, the writer was busy, any error)."""

    vendor: str

    async def write(self, move: GuardedMove | GuardedRaceMove) -> int | None: ...

    def close(self) -> None: ...


def owner_value(move: GuardedMove) -> int | str:
    return move.user_id if move.user_id is not None else (move.owner_key or "")


def claims_someone(move: GuardedMove | GuardedRaceMove) -> bool:
    """A move by nobody (no user, no token) owns nothing: never write it fast. (A race
    move's seat was found for its actor already.)"""
    if isinstance(move, GuardedRaceMove):
        return True
    return move.user_id is not None or bool(move.owner_key)


def owner_digest(token: str | None) -> str | None:
    """An anonymous owner's token as group messages carry it: a digest, never the token."""
    if not token:
        return None
    return hashlib.blake2b(token.encode(), digest_size=16).hexdigest()


# ---------------------------------------------------------------- the store of this process


_stores: dict[str, MoveStore | None] = {}


def store() -> MoveStore | None:
    """The fast store of the default database in this process, opened on first use; None
    for a database without one (or when opening it failed: logged, and not tried again
    until ``close_stores``)."""
    if "default" in _stores:
        return _stores["default"]
    settings = connections["default"].settings_dict
    vendor = connections["default"].vendor
    made: MoveStore | None = None
    try:
        if vendor == "sqlite":
            from games.core.store_sqlite import SqliteStore

            made = SqliteStore(str(settings["NAME"]))
        elif vendor == "postgresql":
            from games.core.store_pg import PostgresStore

            made = PostgresStore(settings)
    except Exception:
        logger.exception("the fast move store could not be opened; moves go the locked way")
        made = None
    _stores["default"] = made
    return made


def close_stores() -> None:
    """Close the process's fast stores (tests, between databases); they reopen on use."""
    for made in _stores.values():
        if made is not None:
            made.close()
    _stores.clear()


# ---------------------------------------------------------------- who listens


class Listeners:
    """The sockets of this process in each group, kept by the sockets themselves.

    With a process-local channel layer (the in-memory one) this is everyone who can
    hear a group, so a sender alone in its group can skip the group send. With a layer
    shared by processes (Redis) sockets elsewhere may listen, and the sockets of a group
    tell each other that they are there (``local`` is then False; see the game socket's
    hello and here messages). Never reads a layer's private state."""

    def __init__(self) -> None:
        self._groups: dict[str, set[str]] = {}

    @staticmethod
    def local(layer: BaseChannelLayer | None) -> bool:
        """Does ``layer`` reach only this process's sockets?"""
        return isinstance(layer, InMemoryChannelLayer)

    def add(self, group: str, channel: str) -> None:
        self._groups.setdefault(group, set()).add(channel)

    def discard(self, group: str, channel: str) -> None:
        members = self._groups.get(group)
        if members is None:
            return
        members.discard(channel)
        if not members:
            del self._groups[group]

    def alone(self, group: str, channel: str) -> bool:
        """Is ``channel`` this process's only socket in ``group``?"""
        return self._groups.get(group, set()) <= {channel}


listeners = Listeners()


# ---------------------------------------------------------------- JSON once


def dumps(value: Any) -> str:
    """Compact JSON text (orjson), for a WebSocket text frame. Keys that are not strings
    (whole numbers) become strings, as the standard library's ``json`` makes them."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def ack_text(message_id: str | int, version: int) -> str:
    return dumps({"type": "ack", "id": message_id, "version": version})
