"""Every change to a single-player game goes through here: deal, play an action
(move, undo, redo, auto-finish), abandon, delete.

A change runs in one database transaction: lock the game row, check who asks and the
version, let the rules engine decide, append to the move log, update the game. Once
the transaction commits, the new position is kept in the process's cache and ONE
message goes to the game's channel-layer group with the new version; each socket then
renders its view. Nothing here knows HTTP or WebSocket messages: callers turn a
ServiceError into an answer.

The seam for a faster move path: ``apply_change`` is the locked, exact path. A fast
path may decide a move against ``history.positions`` (the committed row and line by
game id and version) and write it with a guarded statement of its own, and must fall
back to ``apply_change`` for every cache miss, repeated id, refusal or busy writer:
that gives the exact answer and error.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone

import solitaire
from games.core.actors import Actor
from games.core.errors import BadRequest, NotFound, Refused, from_engine
from games.core.transactions import after_commit, send_after_commit, writing
from games.models import Game, Move, game_group
from games.solo import winnable
from games.solo.actions import (
    Action,
    Change,
    MoveAction,
    RedoAction,
    UndoAction,
)
from games.solo.deals import dealt_state, get_or_create_deal, keep_verdict_now
from games.solo.history import REDO_ENTRY, UNDO_ENTRY, Line, current_line, keep, positions, stored_move
from games.solo.owners import find_game, moved_to_account, owned_games
from games.solo.payloads import Snapshot, settled, state_message

# A longer pause between two log entries counts as this much play: the player left.
IDLE_GAP = timedelta(seconds=60)
ABANDON_ENTRY: dict[str, Any] = {"abandon": True}
LOST_ENTRY: dict[str, Any] = {"lost": True}
GAMES_PER_PAGE = 20


# ---------------------------------------------------------------- reading


def get_game_for(actor: Actor, game_id: object) -> Snapshot:
    """The game and its line, if ``actor`` owns it.

    :raises NotFound: when there is no such game or it belongs to someone else
        (``ownership_moved`` when it moved from this anonymous session to an account).
    """
    try:
        game = find_game(actor, game_id, lock=False)
    except NotFound:
        raise _not_found(actor, game_id) from None
    return Snapshot(game, current_line(game))


def _not_found(actor: Actor, game_id: object) -> NotFound:
    if moved_to_account(actor, game_id):
        return NotFound(
            "this game moved to your account when you signed in; reload the page to go on",
            "ownership_moved",
        )
    return NotFound("there is no such game")


@dataclass(frozen=True, slots=True)
class GamePage:
    games: list[Game]
    page: int
    next: int | None


def list_games_for(actor: Actor, page: object = 1) -> GamePage:
    """One page of the actor's games, newest first (their states are not replayed).

    :raises BadRequest: for a page that is not a whole number from 1.
    """
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise BadRequest("the page must be a whole number from 1", "bad_page")
    start = (page - 1) * GAMES_PER_PAGE
    rows = list(
        owned_games(actor)
        .select_related("deal")
        .order_by("-created", "-pk")[start : start + GAMES_PER_PAGE + 1]
    )
    more = len(rows) > GAMES_PER_PAGE
    return GamePage(rows[:GAMES_PER_PAGE], page, page + 1 if more else None)


# ---------------------------------------------------------------- dealing


def create_game(
    actor: Actor,
    game_name: object,
    options: object = None,
    deal: object = None,
    *,
    verdict: winnable.Verdict | None = None,
) -> Snapshot:
    """Deal a new game for ``actor``: deal number ``deal``, or a random one.

    ``verdict`` is what the solver proved about the deal, if it was asked, and is kept
    with the deal.

    :raises BadRequest: for an unknown game or option, a bad deal number, or no session.
    """
    if actor.is_nobody:
        raise BadRequest("there is no session to keep the game in", "no_session")
    with writing():
        the_deal = get_or_create_deal(game_name, options, deal)  # type: ignore[arg-type]
        if verdict is not None and verdict.proved and the_deal.winnable is None:
            keep_verdict_now(the_deal, verdict)
        state = dealt_state(the_deal)
        now = timezone.now()
        game = Game.objects.create(
            deal=the_deal,
            owner_id=actor.user_id,
            owner_key="" if actor.user_id is not None else (actor.token or ""),
            score=state.score,
            last_active=now,
        )
        line = Line(state)
        after_commit(lambda: keep(game, line))
    return Snapshot(game, line)


# ---------------------------------------------------------------- playing


def apply_change(actor: Actor, game_id: object, change: Change) -> Snapshot:
    """Apply one player action to a game: the only way play changes a game.

    ``change.client_id`` makes the action idempotent: if an entry with that id is
    already in the log, nothing is applied and the current snapshot comes back with
    ``applied=False``. ``change.version``, when given, must equal the game's version.

    :raises BadRequest: for a move the game cannot read (an unknown pile, a bad count).
    :raises NotFound: when the game is not the actor's.
    :raises Refused: with the engine's code and reason for an illegal move (``stale``
        when its cards are no longer where the player saw them), ``stale`` for an old
        version, ``nothing_to_undo``, ``nothing_to_redo``, ``game_over`` ...
    """
    with writing():
        try:
            game = find_game(actor, game_id, lock=True)
        except NotFound:
            raise _not_found(actor, game_id) from None
        if change.client_id is not None and game.log.filter(client_id=change.client_id).exists():
            return Snapshot(game, current_line(game), applied=False)
        if change.version is not None and change.version != game.version:
            raise Refused(
                f"the game has changed since version {change.version}; it is now at version {game.version}",
                "stale",
                version=game.version,
            )
        entries, line = _play(game, current_line(game), change.action)
        _record(game, line, entries, change.client_id)
    return Snapshot(game, line)


@dataclass(frozen=True, slots=True)
class Played:
    """What a socket sends for a change: the ``ack`` version and the ``state`` message
    (rendered once; the same for every socket of the owner)."""

    version: int
    applied: bool
    message: dict[str, Any]


def play_change(actor: Actor, game_id: object, change: Change) -> Played:
    """``apply_change``, then the game's ``state`` message after it."""
    snapshot = apply_change(actor, game_id, change)
    return Played(snapshot.game.version, snapshot.applied, state_message(snapshot))


def _play(game: Game, line: Line, action: Action) -> tuple[list[dict[str, Any]], Line]:
    """The log entries for ``action`` and the line after them; the engine decides."""
    if isinstance(action, UndoAction | RedoAction):
        # A lost game may be undone back into play; a won or abandoned one is settled.
        if settled(game):
            raise Refused(f"the game is {game.status}; it can no longer change", "game_over")
        if isinstance(action, UndoAction):
            previous = line.previous
            if previous is None:
                raise Refused("there is no move to undo", "nothing_to_undo")
            return [dict(UNDO_ENTRY)], previous
        redone = line.redone
        if redone is None:
            raise Refused("there is no undone move to redo", "nothing_to_redo")
        return [dict(REDO_ENTRY)], redone
    if game.status != Game.Status.PLAYING:
        raise Refused(f"the game is {game.status}", "game_over")
    if isinstance(action, MoveAction):
        return [stored_move(action.move)], line.then(_engine_apply(line.state, action.move), action.move)
    return _auto_finish(line)


def _engine_apply(state: solitaire.State, move: solitaire.Move) -> solitaire.State:
    try:
        return state.apply(move)
    except ValueError as error:  # UnknownPile, IllegalMove, StaleMove ... are ValueErrors
        raise from_engine(error) from None


def _auto_finish(line: Line) -> tuple[list[dict[str, Any]], Line]:
    """The engine's finishing moves, one log entry each."""
    moves = line.state.auto_finish_moves()
    if not moves:
        raise Refused(
            "the game cannot be finished automatically yet: some cards still need moving",
            "cannot_auto_finish",
        )
    for move in moves:
        line = line.then(_engine_apply(line.state, move), move)
    return [stored_move(move) for move in moves], line


def _record(game: Game, line: Line, entries: list[dict[str, Any]], client_id: str | None) -> None:
    """Append ``entries`` to the log, update the game, and announce it after commit."""
    now = timezone.now()
    Move.objects.bulk_create(
        Move(
            game=game,
            seq=game.version + offset,
            move=entry,
            client_id=client_id if offset == 1 else None,
            created=now,
        )
        for offset, entry in enumerate(entries, start=1)
    )
    state = line.state
    # Exact: this runs off the event loop, and a position the quick check cannot
    # decide must still end the game when it is over.
    outcome = state.outcome(exact=True)
    game.version += len(entries)
    game.moves_made += sum(1 for entry in entries if not (entry.get("undo") or entry.get("redo")))
    if game.paused_at is not None:
        # A change while paused (another tab, or a lost resume) resumes the game: the
        # paused span is not play time.
        game.last_active, game.paused_at = now, None
    game.elapsed += min(max(now - game.last_active, timedelta(0)), IDLE_GAP)
    game.last_active = now
    game.score = state.score
    if outcome is None:
        game.status, game.finished = Game.Status.PLAYING, None
    elif outcome.winner is not None:
        game.status, game.finished = Game.Status.WON, now
    else:
        game.status, game.finished = Game.Status.LOST, now
    game.save()
    _announce(game, line)


def _announce(game: Game, line: Line) -> None:
    """After commit: keep the new position, and tell every socket of the game its version."""
    game_id, version = game.pk, game.version
    after_commit(lambda: keep(game, line))
    send_after_commit(game_group(game_id), {"type": "game.changed", "game": game_id, "version": version})


# ---------------------------------------------------------------- pausing


def set_paused(actor: Actor, game_id: object, paused: bool) -> int:
    """Pause the game's clock, or start it again; the game's version comes back.

    Pausing counts the time played since the last change (at most ``IDLE_GAP``, as any
    gap) and stops the clock; resuming starts it from now, so the paused span never
    reaches ``elapsed``. Neither writes to the move log, so replay, undo and redo never
    see them, and the version does not move. Pausing a paused game, or resuming a
    running one, changes nothing; so does either for a game that is over. A change
    made while paused resumes the game (see ``_record``).

    :raises NotFound: when the game is not the actor's.
    """
    with writing():
        try:
            game = find_game(actor, game_id, lock=True)
        except NotFound:
            raise _not_found(actor, game_id) from None
        version: int = game.version
        if game.status != Game.Status.PLAYING or paused == (game.paused_at is not None):
            return version
        now = timezone.now()
        if paused:
            game.elapsed += min(max(now - game.last_active, timedelta(0)), IDLE_GAP)
            game.paused_at = now
        else:
            game.paused_at = None
        game.last_active = now
        game.save(update_fields=["elapsed", "paused_at", "last_active", "updated"])
        # The fast path decides moves on the kept row: drop it, so the next move takes
        # the locked path and reads the row as it is now.
        pk = game.pk
        after_commit(lambda: positions.discard(pk))
    return version


# ---------------------------------------------------------------- abandoning and deleting


def abandon(actor: Actor, game_id: object) -> Snapshot:
    """Give the game up: it counts as lost in the statistics and can no longer change.

    A log entry records it, so the version moves on and every socket hears of it.
    Abandoning an abandoned game again changes nothing.

    :raises NotFound: when the game is not the actor's.
    :raises Refused: ``game_over`` for a won game.
    """
    with writing():
        try:
            game = find_game(actor, game_id, lock=True)
        except NotFound:
            raise _not_found(actor, game_id) from None
        line = current_line(game)
        if game.status == Game.Status.ABANDONED:
            return Snapshot(game, line, applied=False)
        if game.status == Game.Status.WON:
            raise Refused("the game is won; there is nothing to give up", "game_over")
        now = timezone.now()
        Move.objects.create(game=game, seq=game.version + 1, move=dict(ABANDON_ENTRY), created=now)
        game.version += 1
        game.status, game.finished = Game.Status.ABANDONED, now
        game.save()
        _announce(game, line)
    return Snapshot(game, line)


def end_lost(actor: Actor, game_id: object, version: int) -> Snapshot | None:
    """End the game as lost at ``version``: no move can make progress there, as the
    hint found, or the exact ending check of a fast move (``fastmove.endings``).
    Recorded as a stuck game is (status ``lost``, a lost game can be undone back into
    play), with a ``{"lost": true}`` log entry so the version moves on and every socket
    hears of it after commit. None, and nothing changes, when the game is no longer in
    play at that version (a move came in meanwhile, or it is over).

    :raises NotFound: when the game is not the actor's.
    """
    with writing():
        try:
            game = find_game(actor, game_id, lock=True)
        except NotFound:
            raise _not_found(actor, game_id) from None
        if game.status != Game.Status.PLAYING or game.version != version:
            return None
        line = current_line(game)
        now = timezone.now()
        Move.objects.create(game=game, seq=game.version + 1, move=dict(LOST_ENTRY), created=now)
        game.version += 1
        game.status, game.finished = Game.Status.LOST, now
        game.save()
        _announce(game, line)
    return Snapshot(game, line)


def delete_game(actor: Actor, game_id: object) -> None:
    """Delete one of the actor's games, with its log. Its sockets are closed.

    :raises NotFound: when the game is not the actor's.
    """
    with writing():
        try:
            game = find_game(actor, game_id, lock=True)
        except NotFound:
            raise _not_found(actor, game_id) from None
        pk = game.pk
        game.delete()
        after_commit(lambda: positions.discard(pk))
        send_after_commit(game_group(pk), {"type": "game.deleted", "game": pk})
