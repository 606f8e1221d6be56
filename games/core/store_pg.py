"""The fast path's PostgreSQL store: async psycopg connections on the event loop, and
group commit.

Moves waiting to be written go together, one per game, as arrays through ``unnest``, in
ONE statement that is its own transaction:

- the guarded UPDATE of each game (version, status, owner as the locked service finds
  them; and no log entry with the move's id yet), RETURNING the rows it changed;
- the INSERT of a log entry for each changed row, ON CONFLICT DO NOTHING.

A move whose guard does not hold changes nothing and comes back None. Should an entry
not go in while its row changed (an id or seq taken between the check and the insert,
which the row lock makes all but impossible), the whole batch is rolled back and every
move of it comes back None: the locked path then gives each its answer. The UPDATE
locks each game row first, as the locked service's ``SELECT ... FOR UPDATE`` does, so
the two never deadlock. While one batch is in flight the next gathers, so under load a
commit (PostgreSQL's fsync) carries many moves. A few connections (``POOL_SIZE``), kept
for the life of the process, opened on the loop that first needs them; each statement
is prepared by the server on first use.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import psycopg

from games.core.fastpath import GuardedMove, GuardedRaceMove, claims_someone, dumps, owner_value

logger = logging.getLogger(__name__)

POOL_SIZE = 2
MAX_BATCH = 200

WRITE_BATCH = """
WITH v AS (
    SELECT * FROM unnest(
        %(ids)s::bigint[], %(versions)s::bigint[], %(user_ids)s::bigint[], %(keys)s::text[],
        %(moves_made)s::bigint[], %(scores)s::bigint[], %(elapsed)s::interval[],
        %(nows)s::timestamptz[], %(statuses)s::text[], %(finished)s::timestamptz[],
        %(entries)s::text[], %(client_ids)s::text[]
    ) AS v(id, version, user_id, owner_key, moves_made, score, elapsed, now, status, finished,
           entry, client_id)
),
moved AS (
    UPDATE games_game AS g
       SET version = g.version + 1, moves_made = v.moves_made, score = v.score,
           elapsed = v.elapsed, last_active = v.now, updated = v.now, status = v.status,
           finished = v.finished
      FROM v
     WHERE g.id = v.id AND g.version = v.version AND g.status = 'playing'
       AND CASE WHEN v.user_id IS NOT NULL THEN g.owner_id = v.user_id
                ELSE g.owner_id IS NULL AND g.owner_key = v.owner_key END
       AND (v.client_id IS NULL OR NOT EXISTS (
                SELECT 1 FROM games_move AS m WHERE m.game_id = v.id AND m.client_id = v.client_id))
    RETURNING g.id, g.version, v.entry, v.client_id, v.now
),
logged AS (
    INSERT INTO games_move (game_id, seq, move, client_id, created)
    SELECT id, version, entry::jsonb, client_id, now FROM moved
    ON CONFLICT DO NOTHING
    RETURNING game_id
)
SELECT moved.id, moved.version, logged.game_id IS NOT NULL
  FROM moved LEFT JOIN logged ON logged.game_id = moved.id
"""


class _Incomplete(Exception):
    """A row changed without its log entry: the batch must not commit."""


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
    """Guarded move writes, batched, on a few async connections of their own."""

    vendor = "postgresql"

    def __init__(self, settings: dict[str, Any]) -> None:
        self.keywords = conninfo(settings)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.opened: list[psycopg.AsyncConnection[Any]] = []
        self.pending: list[tuple[GuardedMove, asyncio.Future[int | None]]] = []
        self.idle: list[psycopg.AsyncConnection[Any]] = []
        self.flushers = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.commits = 0  # moves committed
        self.transactions = 0  # batches committed

    async def write(self, move: GuardedMove | GuardedRaceMove) -> int | None:
        if isinstance(move, GuardedRaceMove) or not claims_someone(move):
            return None  # race moves go the locked way on PostgreSQL (not batched here yet)
        loop = asyncio.get_running_loop()
        if self.loop is not loop:
            # Connections belong to the loop that opened them (a test may run several).
            self.close()
            self.loop = loop
        answer: asyncio.Future[int | None] = loop.create_future()
        self.pending.append((move, answer))
        if self.flushers < POOL_SIZE:
            self._start_flusher(loop)
        return await answer

    def _start_flusher(self, loop: asyncio.AbstractEventLoop) -> None:
        self.flushers += 1
        task = loop.create_task(self._flush())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _flush(self) -> None:
        try:
            connection = await self._connect()
        except psycopg.Error:
            logger.warning("the fast store could not connect; moves go the locked way", exc_info=True)
            self.flushers -= 1
            self._answer_all(self.pending, None)
            self.pending = []
            return
        try:
            while self.pending:
                batch = self._take()
                try:
                    versions = await self._write(connection, [move for move, _ in batch])
                except (psycopg.Error, _Incomplete):
                    logger.info("a batch of fast moves was not written", exc_info=True)
                    versions = [None] * len(batch)
                for (_, answer), version in zip(batch, versions, strict=True):
                    if not answer.done():
                        answer.set_result(version)
                if connection.closed or connection.broken:
                    break
        finally:
            self.flushers -= 1
            if connection.closed or connection.broken:
                if connection in self.opened:
                    self.opened.remove(connection)
            elif connection in self.opened:
                self.idle.append(connection)
            if self.pending and self.flushers == 0:
                # Left behind by a connection that broke: start again.
                self._start_flusher(asyncio.get_running_loop())

    def _take(self) -> list[tuple[GuardedMove, asyncio.Future[int | None]]]:
        """Up to MAX_BATCH waiting moves, at most one per game (the rest wait their turn)."""
        batch: list[tuple[GuardedMove, asyncio.Future[int | None]]] = []
        rest: list[tuple[GuardedMove, asyncio.Future[int | None]]] = []
        games: set[int] = set()
        for item in self.pending:
            if len(batch) < MAX_BATCH and item[0].game_id not in games:
                games.add(item[0].game_id)
                batch.append(item)
            else:
                rest.append(item)
        self.pending = rest
        return batch

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        if self.idle:
            return self.idle.pop()
        connection = await psycopg.AsyncConnection.connect(
            autocommit=True, prepare_threshold=0, **self.keywords
        )
        self.opened.append(connection)
        return connection

    async def _write(
        self, connection: psycopg.AsyncConnection[Any], moves: list[GuardedMove]
    ) -> list[int | None]:
        params = {
            "ids": [m.game_id for m in moves],
            "versions": [m.version for m in moves],
            "user_ids": [m.user_id for m in moves],
            "keys": [None if m.user_id is not None else owner_value(m) for m in moves],
            "moves_made": [m.moves_made for m in moves],
            "scores": [m.score for m in moves],
            "elapsed": [m.elapsed for m in moves],
            "nows": [m.now for m in moves],
            "statuses": [m.status for m in moves],
            "finished": [m.finished for m in moves],
            "entries": [dumps(m.entry) for m in moves],
            "client_ids": [m.client_id for m in moves],
        }
        async with connection.transaction():
            cursor = await connection.execute(WRITE_BATCH, params)
            rows = await cursor.fetchall()
            if not all(logged for _, _, logged in rows):
                raise _Incomplete()
        written = {int(game_id): int(version) for game_id, version, _ in rows}
        if written:
            self.transactions += 1
            self.commits += len(written)
        return [written.get(m.game_id) for m in moves]

    @staticmethod
    def _answer_all(batch: list[tuple[GuardedMove, asyncio.Future[int | None]]], value: int | None) -> None:
        for _, answer in batch:
            if not answer.done():
                answer.set_result(value)

    def close(self) -> None:
        for connection in self.opened:
            if not connection.closed:
                # Closing the socket is enough; the server ends the session.
                connection.pgconn.finish()
        self.opened.clear()
        self.idle = []
        self._answer_all(self.pending, None)
        self.pending = []
        self.flushers = 0
