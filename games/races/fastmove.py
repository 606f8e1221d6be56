"""A race move decided on the event loop, or handed to the locked service.

Like ``games.solo.fastmove``: ``try_move`` decides a seat's move against the race's
committed snapshot in this process (``records.snapshots``, kept after every commit)
and writes it with the store's guarded statement pair (the race still at that version
and in play; the log entry guarded by the unique (race, seq) and (race, seat,
client_id) constraints). It answers the new snapshot once the write has committed, or
None, and then the caller MUST run the locked service (``play.play_move``), which gives
the exact answer or error. None comes back for a cache miss, a race not in play (the
countdown's end opens play the locked way), a spectator, another seat's pile, anything
the engine refuses, a move after which the race may be over (the exact verdict and the
finish stay off the loop), a guard that does not hold, an id used before, a busy
writer, or a database whose store does not write race moves.
"""

from __future__ import annotations

import asyncio
import copy

from django.utils import timezone

import solitaire
from games.core.actors import Actor
from games.core.fastpath import GuardedRaceMove, store
from games.models import Race
from games.races import records
from games.races.records import RaceSnapshot

# Both seats of a race move at once. Decided side by side against the same cached
# version, the second write's guard would fail and send it the locked way; so the fast
# moves of one race take turns on the loop, each deciding on what the last committed.
_turns: dict[int, asyncio.Lock] = {}


async def try_move(
    actor: Actor, race_id: int, move: solitaire.Move, client_id: str | None
) -> RaceSnapshot | None:
    """The committed snapshot after the move, or None: then use the locked service."""
    turn = _turns.setdefault(race_id, asyncio.Lock())
    try:
        async with turn:
            return await _try_move(actor, race_id, move, client_id)
    finally:
        if not turn.locked():
            _turns.pop(race_id, None)


async def _try_move(
    actor: Actor, race_id: int, move: solitaire.Move, client_id: str | None
) -> RaceSnapshot | None:
    writer = store()
    if writer is None:
        return None
    held = records.snapshots.latest(race_id)
    if held is None:
        return None
    version, snapshot = held
    race, state = snapshot.race, snapshot.state
    if race.version != version or race.status != Race.Status.PLAYING:
        return None
    seat = snapshot.seat_of(actor)
    if seat is None:
        return None
    try:
        state.rules.check_seat(move, seat)
        after = state.apply(move, seat=seat)
    except Exception:  # another seat's pile, an unknown pile, an illegal or stale move ...
        return None
    if after.is_won or after.quick_over() is not False:
        return None  # the race may be over: the locked path settles it exactly
    now = timezone.now()
    new_version = await writer.write(
        GuardedRaceMove(
            race_id=race_id,
            version=version,
            seat=seat,
            # Stored without the cards it named, as the locked path stores it.
            entry=solitaire.Move(move.source, move.target, move.count).to_dict(),
            client_id=client_id,
            now=now,
        )
    )
    if new_version is None:
        return None
    row = copy.copy(race)
    row.version = new_version
    row.moves_made = race.moves_made + 1
    row.updated = now
    committed = RaceSnapshot(row, snapshot.seats, after)
    records.states.put((race_id, race.seed), new_version, after)
    records.snapshots.put(race_id, new_version, committed)
    return committed
