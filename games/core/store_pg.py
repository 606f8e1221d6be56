"""The fast path's PostgreSQL store: async psycopg connections on the event loop.

A write is ONE statement in autocommit, so the statement is the transaction:

    WITH moved AS (UPDATE games_game SET version = version + 1, ...
                    WHERE id = %s AND version = %s AND status = 'playing' AND <owner>
                   RETURNING id, version)
    INSERT INTO games_move (game_id, seq, move, client_id, created)
    SELECT id, version, %s, %s, %s FROM moved RETURNING seq

The UPDATE locks the game row first, as the locked service's ``SELECT ... FOR UPDATE``
does, so the two never deadlock. A unique violation of the INSERT (an id used before)
fails the whole statement; a guard that does not hold inserts nothing. One round trip
per move; the statement is prepared by the server on first use. A few connections
(``POOL_SIZE``) let moves of different games go side by side; they live as long as the
process, opened on the loop that first needs them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from games.core.fastpath import GuardedMove, claims_someone, owner_value

logger = logging.getLogger(__name__)

POOL_SIZE = 4

_SET = (
    "WITH moved AS (UPDATE games_game SET version = version + 1, moves_made = %(moves_made)s, "
    "score = %(score)s, elapsed = %(elapsed)s, last_active = %(now)s, updated = %(now)s, "
    "status = %(status)s, finished = %(finished)s "
    "WHERE id = %(id)s AND version = %(version)s AND status = 'playing' AND "
)
_INSERT = (
    " RETURNING id, version) "
    "INSERT INTO games_move (game_id, seq, move, client_id, created) "
    "SELECT id, version, %(entry)s, %(client_id)s, %(now)s FROM moved RETURNING seq"
)
WRITE_FOR_USER = _SET + "owner_id = %(owner)s" + _INSERT
WRITE_FOR_TOKEN = _SET + "owner_id IS NULL AND owner_key = %(owner)s" + _INSERT


def conninfo(settings: dict[str, Any]) -> dict[str, Any]:
    """psycopg connection keywords from Django's settings of a database."""
    keywords = {
        "dbname": settings.get("NAME") or None,
        "user": settings.get("USER") or None,
        "password": settings.get("PASSWORD") or None,
        "host": settings.get("HOST") or None,
        "port": settings.get("PORT") or None,
    }
    options = {k: v for k, v in (settings.get("OPTIONS") or {}).items() if isinstance(v, str | int)}
    return {**{k: v for k, v in keywords.items() if v is not None}, **options}


class PostgresStore:
    """Guarded move writes on a few async connections of their own."""

    vendor = "postgresql"

    def __init__(self, settings: dict[str, Any]) -> None:
        self.keywords = conninfo(settings)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.idle: asyncio.Queue[psycopg.AsyncConnection[Any]] | None = None
        self.opened: list[psycopg.AsyncConnection[Any]] = []
        self.commits = 0

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        loop = asyncio.get_running_loop()
        if self.loop is not loop or self.idle is None:
            # Connections belong to the loop that opened them (a test may run several).
            self.close()
            self.loop, self.idle = loop, asyncio.Queue()
        if self.idle.empty() and len(self.opened) < POOL_SIZE:
            connection = await psycopg.AsyncConnection.connect(
                autocommit=True, prepare_threshold=0, **self.keywords
            )
            self.opened.append(connection)
            return connection
        return await self.idle.get()

    async def write(self, move: GuardedMove) -> int | None:
        if not claims_someone(move):
            return None
        try:
            connection = await self._connection()
        except psycopg.Error:
            logger.warning("the fast store could not connect; this move goes the locked way", exc_info=True)
            return None
        idle = self.idle
        try:
            cursor = await connection.execute(
                WRITE_FOR_USER if move.user_id is not None else WRITE_FOR_TOKEN,
                {
                    "moves_made": move.moves_made,
                    "score": move.score,
                    "elapsed": move.elapsed,
                    "now": move.now,
                    "status": move.status,
                    "finished": move.finished,
                    "id": move.game_id,
                    "version": move.version,
                    "owner": owner_value(move),
                    "entry": Jsonb(move.entry),
                    "client_id": move.client_id,
                },
            )
            row = await cursor.fetchone()
        except psycopg.Error:
            # An id used before (unique violation), a lost connection ...: nothing was
            # written; the locked path gives the answer.
            if connection.closed or connection.broken:
                self.opened.remove(connection)
                await connection.close()
                return None
            row = None
        if idle is self.idle and idle is not None:
            idle.put_nowait(connection)
        if row is None:
            return None
        self.commits += 1
        return int(row[0])

    def close(self) -> None:
        for connection in self.opened:
            if not connection.closed:
                # Closing the socket is enough; the server ends the session.
                connection.pgconn.finish()
        self.opened.clear()
        self.idle = None
