"""The fast path's SQLite store: its own connection, used only on the event loop.

One write is ``BEGIN IMMEDIATE``, the guarded UPDATE ... RETURNING, the INSERT into the
log, ``COMMIT``: about 60-100 µs of SQLite's own work, so it runs on the loop itself
with no thread hop. The statements are prepared once and kept by the sqlite3 module's
statement cache (their text never changes; values are bound).

- **Group commit.** Moves that arrive in the same turn of the loop are written in one
  transaction, each inside a savepoint of its own: a move whose guard does not hold, or
  whose id was used before, is rolled back to its savepoint alone, and the others
  commit together. COMMIT is most of a write's cost (the WAL frames), and moves of one
  batch share pages. Every move of a batch is answered after the COMMIT.

- **No busy wait.** The busy timeout is 0: when another connection (a Django thread of
  the locked service) holds the write lock, ``BEGIN IMMEDIATE`` fails at once; SQLite's
  busy handler never sleeps on the loop. The batch is tried again on the loop's timer
  (``BUSY_RETRIES``, 15.5 ms in all; the loop serves everyone meanwhile), then its moves
  go the locked way, which queues for the lock off the loop. Falling back at the first
  busy answer fed itself: the moves sent the locked way held the lock more often, so
  more batches found it busy, until nearly every move went the locked way (seen in
  races at M = 25).
- **Checkpoints off the loop.** This connection never checkpoints on commit
  (``wal_autocheckpoint = 0``); after every ``CHECKPOINT_EVERY`` commits a passive
  checkpoint runs on a connection of its own in a worker thread.
- **A modest page cache** (``CACHE_KIB``): one per process, not per player.

Datetimes and durations are stored the way Django's SQLite backend stores them: UTC
text ``YYYY-MM-DD HH:MM:SS[.ffffff]`` and whole microseconds.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from contextlib import closing
from datetime import UTC, datetime, timedelta

from games.core.fastpath import GuardedMove, GuardedRaceMove, claims_someone, dumps, owner_value

logger = logging.getLogger(__name__)

CHECKPOINT_EVERY = 500
# When another connection holds the write lock, the batch is tried again after these
# pauses (seconds, on the loop's timer), then its moves go the locked way.
BUSY_RETRIES = (0.0005, 0.001, 0.002, 0.004, 0.008)


class Busy(Exception):
    """Another connection holds SQLite's write lock."""


CACHE_KIB = 512

_SET = (
    "UPDATE games_game SET version = version + 1, moves_made = ?, score = ?, elapsed = ?, "
    "last_active = ?, updated = ?, status = ?, finished = ? "
    "WHERE id = ? AND version = ? AND status = 'playing' AND "
)
UPDATE_FOR_USER = _SET + "owner_id = ? RETURNING version"
UPDATE_FOR_TOKEN = _SET + "owner_id IS NULL AND owner_key = ? RETURNING version"
INSERT_ENTRY = "INSERT INTO games_move (game_id, seq, move, client_id, created) VALUES (?, ?, ?, ?, ?)"
UPDATE_RACE = (
    "UPDATE games_race SET version = version + 1, moves_made = moves_made + 1, updated = ? "
    "WHERE id = ? AND version = ? AND status = 'playing' RETURNING version, moves_made"
)
INSERT_RACE_ENTRY = (
    "INSERT INTO games_racemove (race_id, seq, seat, move, client_id, version, created) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def sqlite_datetime(moment: datetime) -> str:
    """A datetime as Django's SQLite backend stores it (USE_TZ: naive UTC text)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return str(moment)


def sqlite_duration(delta: timedelta) -> int:
    """A duration as Django's SQLite backend stores it: whole microseconds."""
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


class SqliteStore:
    """Guarded move writes on a connection of their own (see the module's notes)."""

    vendor = "sqlite"

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(
            path, timeout=0, isolation_level=None, check_same_thread=False, cached_statements=16
        )
        self.db.execute("PRAGMA busy_timeout = 0")
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        self.db.execute("PRAGMA wal_autocheckpoint = 0")
        self.commits = 0  # moves committed
        self.transactions = 0  # COMMITs (a batch of moves is one)
        self.busy = 0  # batches given back because another writer held the lock
        self._checkpointing = threading.Lock()
        self._pending: list[tuple[GuardedMove | GuardedRaceMove, asyncio.Future[int | None]]] = []
        self._retrying = 0  # busy retries of the batch now waiting

    async def write(self, move: GuardedMove | GuardedRaceMove) -> int | None:
        """Queue the move for this turn of the loop's batch; its version once committed."""
        if not claims_someone(move):
            return None
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[int | None] = loop.create_future()
        self._pending.append((move, answer))
        if len(self._pending) == 1 and not self._retrying:
            loop.call_soon(self._flush)
        return await answer

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        try:
            versions = self.write_now([move for move, _ in batch])
        except Busy:
            if self._retrying < len(BUSY_RETRIES):
                # Another connection (a Django thread of the locked path) holds the write
                # lock for a moment. Waiting on the loop's timer blocks nothing; falling
                # back at once would send these moves to the locked path too, whose
                # writes would then hold the lock ever more often.
                self._pending = batch + self._pending
                delay = BUSY_RETRIES[self._retrying]
                self._retrying += 1
                asyncio.get_running_loop().call_later(delay, self._flush)
                return
            versions = [None] * len(batch)
        except Exception:
            logger.exception("the fast store failed a batch; its moves go the locked way")
            versions = [None] * len(batch)
        self._retrying = 0
        for (_, answer), version in zip(batch, versions, strict=True):
            if not answer.done():
                answer.set_result(version)
        if self._pending:
            asyncio.get_running_loop().call_soon(self._flush)

    def write_now(self, moves: list[GuardedMove | GuardedRaceMove]) -> list[int | None]:
        """Write ``moves`` in one transaction, synchronously (on the event loop: it never
        waits for a lock); each one's new version, or None where it was not written.

        :raises Busy: when another connection holds the write lock (nothing written)."""
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            self.busy += 1
            raise Busy() from None  # another writer holds the lock; SQLite is not waited on
        alone = len(moves) == 1
        versions: list[int | None] = []
        try:
            for move in moves:
                if not alone:
                    db.execute("SAVEPOINT move")
                version = (
                    self._write_race(move) if isinstance(move, GuardedRaceMove) else self._write_one(move)
                )
                if not alone:
                    db.execute("RELEASE move" if version is not None else "ROLLBACK TO move")
                    if version is None:
                        db.execute("RELEASE move")
                versions.append(version)
            if any(version is not None for version in versions):
                db.execute("COMMIT")
            else:
                db.execute("ROLLBACK")
        except sqlite3.Error:
            # SQLite said no to the transaction as a whole: nothing of it is written.
            if db.in_transaction:
                db.execute("ROLLBACK")
            return [None] * len(moves)
        written = sum(1 for version in versions if version is not None)
        if written:
            self.transactions += 1
            before, self.commits = self.commits, self.commits + written
            if before // CHECKPOINT_EVERY != self.commits // CHECKPOINT_EVERY:
                self._checkpoint_soon()
        return versions

    def _write_one(self, move: GuardedMove) -> int | None:
        """The guarded UPDATE and the INSERT; None when the guard does not hold or the id
        was used before (then the caller rolls this move back)."""
        if not claims_someone(move):
            return None
        now = sqlite_datetime(move.now)
        try:
            row = self.db.execute(
                UPDATE_FOR_USER if move.user_id is not None else UPDATE_FOR_TOKEN,
                (
                    move.moves_made,
                    move.score,
                    sqlite_duration(move.elapsed),
                    now,
                    now,
                    move.status,
                    None if move.finished is None else sqlite_datetime(move.finished),
                    move.game_id,
                    move.version,
                    owner_value(move),
                ),
            ).fetchone()
            if row is None:
                return None
            self.db.execute(INSERT_ENTRY, (move.game_id, row[0], dumps(move.entry), move.client_id, now))
        except sqlite3.IntegrityError:
            return None  # the id (or the seq) is in the log already
        return int(row[0])

    def _write_race(self, move: GuardedRaceMove) -> int | None:
        """The guarded UPDATE of the race and the INSERT of its log entry; None as above."""
        now = sqlite_datetime(move.now)
        try:
            row = self.db.execute(UPDATE_RACE, (now, move.race_id, move.version)).fetchone()
            if row is None:
                return None
            version, seq = int(row[0]), int(row[1])
            self.db.execute(
                INSERT_RACE_ENTRY,
                (move.race_id, seq, move.seat, dumps(move.entry), move.client_id, version, now),
            )
        except sqlite3.IntegrityError:
            return None  # the id (or the seq) is in the log already
        return version

    def _checkpoint_soon(self) -> None:
        """A passive checkpoint in a worker thread: it copies what it can from the WAL
        into the database without waiting for readers or blocking the writer."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.checkpoint()
            return
        loop.run_in_executor(None, self.checkpoint)

    def checkpoint(self) -> None:
        if not self._checkpointing.acquire(blocking=False):
            return
        try:
            with closing(sqlite3.connect(self.path, timeout=0)) as other:
                other.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:
            logger.info("a WAL checkpoint was skipped", exc_info=True)
        finally:
            self._checkpointing.release()

    def close(self) -> None:
        self.db.close()
