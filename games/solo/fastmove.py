"""A single-player move decided on the event loop, or handed to the locked service.

``try_move`` takes a parsed move, the game's committed position from this process's
cache (``history.positions``: the row and line at the version the cache holds) and
decides it with the engine, then writes it with the store's one guarded statement
pair (``games.core.fastpath``). It answers the new snapshot once the write has
committed, or None, and then the caller MUST run the locked service
(``play.apply_change``), which gives the exact answer or error. None comes back for:

- a cache miss (no position of the game in this process);
- a version the client names that is not the cached one;
- a game not in play, or not this actor's (as far as the cache knows);
- anything the engine refuses or cannot read (an unknown pile, a bad count, stale cards);
- a guard that did not hold (the row moved on, in another process or another socket),
  an id used before, a busy writer, a database without a fast store.

So the fast path never refuses anything itself. What it writes is what the locked
service would write for the same move from the same position: the same log entry, the
same row fields.

A move into a position whose ending ``quick_over`` cannot decide takes the fast path
too: it is committed in play, as the locked service would if the game were not over,
and acknowledged. Its exact ending is settled afterwards, off the loop (``endings``:
the exact search in the worker pool), and when the position is over the locked
service ``play.end_lost`` records the loss, guarded by the version: only if the game is
still in play at that version, or at a later one reached by moves alone (a move from a
position that is over leads to one that is over), so an undo or redo since makes the
verdict moot. Its commit tells the game's sockets, as every change does. The exact search runs only on
the server: the state goes to a worker process, never to a client.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.utils import timezone

import solitaire
from games.core import workers
from games.core.actors import Actor
from games.core.errors import NotFound
from games.core.fastpath import GuardedMove, owner_digest, store
from games.core.sockets import in_thread
from games.models import Game
from games.solo.actions import Change, MoveAction
from games.solo.history import Position, positions, stored_move
from games.solo.payloads import Snapshot
from games.solo.play import IDLE_GAP, end_lost

logger = logging.getLogger(__name__)

# When the worker pool is full, the exact ending check waits this long (doubling up to
# the last value) and tries again with the game's newest undecided version.
ENDING_RETRY_SECONDS = (0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
# How many times a loss is offered to the locked service when moves keep landing first.
RECORD_TRIES = 5


def owns(actor: Actor, game: Game) -> bool:
    """As ``owners.owned_games`` decides: a user's own game, or a token's unclaimed one."""
    if actor.user_id is not None:
        return bool(game.owner_id == actor.user_id)
    return bool(actor.token) and game.owner_id is None and game.owner_key == actor.token


def owns_digest(actor: Actor, owner_id: int | None, owner_key_digest: str | None) -> bool:
    """``owns`` for a group message, which carries the owner's token only as a digest."""
    if actor.user_id is not None:
        return owner_id == actor.user_id
    return owner_id is None and owner_key_digest is not None and owner_digest(actor.token) == owner_key_digest


async def try_move(actor: Actor, game_id: int, change: Change) -> Snapshot | None:
    """The committed snapshot after the move, or None: then use the locked service.

    A snapshot whose ending ``quick_over`` leaves undecided must go to
    ``endings.settle`` once it is acknowledged."""
    action = change.action
    if not isinstance(action, MoveAction):
        return None
    writer = store()
    if writer is None:
        return None
    held = positions.latest(game_id)
    if held is None:
        return None
    version, position = held
    game, line = position.game, position.line
    if (change.version is not None and change.version != version) or game.version != version:
        return None
    if game.status != Game.Status.PLAYING or game.paused_at is not None or not owns(actor, game):
        return None  # a paused game's move resumes it: the locked path does that
    move = action.move
    state = line.state
    if move.source not in state.pile_ids or move.target not in state.pile_ids:
        return None
    try:
        after = state.apply(move)
    except Exception:  # IllegalMove, StaleMove, a bad count ...: the locked path says which
        return None
    if after.is_won:
        status = Game.Status.WON
    else:
        # Undecided (None): in play for now; ``endings.settle`` decides it off the loop.
        status = Game.Status.LOST if after.quick_over() else Game.Status.PLAYING
    now = timezone.now()
    finished = now if status != Game.Status.PLAYING else None
    elapsed = game.elapsed + min(max(now - game.last_active, timedelta(0)), IDLE_GAP)
    entry = stored_move(move)
    new_version = await writer.write(
        GuardedMove(
            game_id=game_id,
            version=version,
            user_id=actor.user_id,
            owner_key=None if actor.user_id is not None else actor.token,
            entry=entry,
            client_id=change.client_id,
            now=now,
            status=str(status),
            finished=finished,
            score=after.score,
            elapsed=elapsed,
            moves_made=game.moves_made + 1,
        )
    )
    if new_version is None:
        return None
    # Committed: the row as it now is, and the line after the move, kept for the next one.
    row = copy.copy(game)
    row.version = new_version
    row.moves_made = game.moves_made + 1
    row.elapsed = elapsed
    row.last_active = row.updated = now
    row.score = after.score
    row.status, row.finished = status, finished
    new_line = line.then(after, move)
    # ``row`` is this function's own copy and nobody changes it: kept as it is.
    positions.put(game_id, new_version, Position(row, new_line))
    return Snapshot(row, new_line)


class Endings:
    """The exact endings of fast moves that ``quick_over`` left undecided, settled off the loop.

    ``settle`` notes a game's newest such version; one task per game at a time takes the
    newest noted version, skips it when this process already holds a later one (the
    later one is noted too), runs ``State.is_over`` in the worker pool, and on "over"
    calls the locked service ``play.end_lost`` in a thread at the version where the
    verdict still holds (``_still_over_at``); the service records the loss only if the
    game is still in play at that version. When the pool is full it waits and tries
    again (``ENDING_RETRY_SECONDS``) rather than search in this process, whose CPU the
    sockets need. A pool error (the search ran out of CPU time, its worker died) leaves
    the game in play; the hint's own check, or a later move's, still ends it."""

    def __init__(self) -> None:
        self._noted: dict[int, _Noted] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def settle(self, actor: Actor, snapshot: Snapshot) -> None:
        """After a fast move's ack: settle its ending if ``quick_over`` could not."""
        game = snapshot.game
        if game.status != Game.Status.PLAYING or snapshot.state.quick_over() is not None:
            return
        self._noted[game.pk] = _Noted(actor, game.version, game.moves_made, snapshot.state)
        task = self._tasks.get(game.pk)
        loop = asyncio.get_running_loop()
        if task is None or task.done() or task.get_loop() is not loop:
            self._tasks[game.pk] = loop.create_task(self._run(game.pk))

    def pending(self) -> int:
        """How many games have an ending still to settle (tests, health)."""
        return sum(1 for task in self._tasks.values() if not task.done())

    async def _run(self, game_id: int) -> None:
        try:
            while (noted := self._noted.pop(game_id, None)) is not None:
                try:
                    await self._settle_one(game_id, noted)
                except workers.Busy:
                    # An overload, not a fault: the game stays in play until the next
                    # move's check, or the hint's, ends it.
                    logger.warning(
                        "game %s: ending at version %s not settled: the pool stayed busy",
                        game_id,
                        noted.version,
                    )
                except Exception:
                    logger.exception("game %s: ending at version %s not settled", game_id, noted.version)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _settle_one(self, game_id: int, noted: _Noted) -> None:
        for pause in (*ENDING_RETRY_SECONDS, None):
            if self._superseded(game_id, noted.version):
                return
            try:
                over = await workers.run(workers.is_over, noted.state, cpu_seconds=workers.ENDING_CPU_SECONDS)
            except workers.Busy:
                if pause is None:
                    raise
                await asyncio.sleep(pause)
                if game_id in self._noted:  # a newer version came meanwhile: settle that one
                    return
                continue
            if over:
                await self._record_loss(game_id, noted)
            return

    async def _record_loss(self, game_id: int, noted: _Noted) -> None:
        """``play.end_lost`` where the verdict still holds. A move that lands between
        the look at the cache and the locked service's read makes the service refuse;
        the loss then holds at the move's version too, so it is tried again there (a
        few times: a player moving flat out would otherwise outrun every verdict)."""
        tried: int | None = None
        for _ in range(RECORD_TRIES):
            version = self._still_over_at(game_id, noted)
            if version is None or version == tried:
                return  # nothing new to try: a move from another process came first
            tried = version
            try:
                if await in_thread(end_lost)(noted.actor, game_id, version) is not None:
                    return
            except NotFound:
                return  # deleted, or moved to an account: nothing of this actor's to end

    @staticmethod
    def _superseded(game_id: int, version: int) -> bool:
        held = positions.latest(game_id)
        return held is not None and held[0] > version

    @staticmethod
    def _still_over_at(game_id: int, noted: _Noted) -> int | None:
        """Where a position found over at ``noted.version`` is still over, as this process
        knows the game: that version, or the later one it holds when only moves came
        since (each log entry since counted in ``moves_made``). A move from a position
        that is over makes no progress, and whatever can be reached after it could be
        reached before, so the position after it is over too; an undo or a redo may
        lead anywhere. None when an undo or redo came since, or the game is no longer in
        play. The locked service's version guard has the last word either way."""
        held = positions.latest(game_id)
        if held is None or held[0] <= noted.version:
            return noted.version
        version, position = held
        row = position.game
        if row.status != Game.Status.PLAYING:
            return None
        if row.moves_made - noted.moves_made != version - noted.version:
            return None
        return version


@dataclass(frozen=True, slots=True)
class _Noted:
    """A fast move's position whose ending is to be settled: who moved, the version and
    ``moves_made`` after the move, and the state."""

    actor: Actor
    version: int
    moves_made: int
    state: solitaire.State = field(repr=False)  # never in a log line: it holds the hidden cards


endings = Endings()
