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
- a position whose ending ``quick_over`` cannot decide (the exact check stays off the loop);
- a guard that did not hold (the row moved on, in another process or another socket),
  an id used before, a busy writer, a database without a fast store.

So the fast path never refuses anything itself. What it writes is what the locked
service would write for the same move from the same position: the same log entry, the
same row fields.
"""

from __future__ import annotations

import copy
from datetime import timedelta

from django.utils import timezone

from games.core.actors import Actor
from games.core.fastpath import GuardedMove, owner_digest, store
from games.models import Game
from games.solo.actions import Change, MoveAction
from games.solo.history import Position, positions, stored_move
from games.solo.payloads import Snapshot
from games.solo.play import IDLE_GAP


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
    """The committed snapshot after the move, or None: then use the locked service."""
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
        over = after.quick_over()
        if over is None:
            return None  # undecided: the exact check runs in the locked path, off the loop
        status = Game.Status.LOST if over else Game.Status.PLAYING
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
