"""Every change to a game goes through here: create, move, undo, auto-finish, adopt.

A change runs in one database transaction: lock the game row, check who asks and the
version, let the rules engine decide, append to the move log, update the game. Once
the transaction commits, one message goes to the game's channel-layer group with the
new version; each socket then renders its own view. A per-process cache of replayed
positions, keyed by game and version, saves replaying the log on every move; it is
only ever used when its version matches the database's.

This module knows the engine (``solitaire``), the models and the channel layer. It
knows nothing of HTTP or WebSocket messages: callers turn ServiceError into answers.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

import solitaire
from games import winnable
from games.actors import Actor
from games.models import Deal, Game, Move

logger = logging.getLogger(__name__)

# Games played alone on the site; "double" is the race's, through its own service.
SINGLE_PLAYER_GAMES = ("klondike", "josephine", "casket")
# Deal numbers travel through JavaScript, so they stay within its exact integers.
MAX_DEAL_NUMBER = 2**53 - 1
RANDOM_DEAL_NUMBERS = 1_000_000_000
# A longer pause between two log entries counts as this much play: the player left.
IDLE_GAP = timedelta(seconds=60)
MAX_CLIENT_ID_LENGTH = 64
UNDO_ENTRY: dict[str, Any] = {"undo": True}


# ---------------------------------------------------------------- errors


class ServiceError(Exception):
    """A request the service will not carry out. ``status`` is the HTTP equivalent.

    ``message`` and ``code`` are for the player; ``data`` holds public details only.
    """

    status = 400
    default_code = "bad_request"

    def __init__(self, message: str, code: str | None = None, **data: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.data = data


class BadRequest(ServiceError):
    """Malformed input: not a move, an unknown pile, an unknown game or option."""


class NotFound(ServiceError):
    """No such game, or not the asker's (the two are not told apart)."""

    status = 404
    default_code = "not_found"


class Refused(ServiceError):
    """Well-formed but not allowed now: an illegal move, a stale version, a finished game."""

    status = 409
    default_code = "illegal"


class Unavailable(ServiceError):
    """Could not be done now, though the request was fine: try again (the solver was busy
    or found no answer in time)."""

    status = 503
    default_code = "unavailable"


# ---------------------------------------------------------------- writing and announcing


_sqlite_writers = threading.Lock()


@contextmanager
def writing() -> Iterator[None]:
    """A write transaction (``transaction.atomic``); on SQLite, one writer at a time per process.

    SQLite has a single write lock. A thread that finds it taken waits in SQLite's busy
    handler, which sleeps 1, 2, 5, 10 ... up to 100 ms between tries, so under load a
    move could wait many times longer than the write before it took. Queued on a lock
    here instead, the next writer starts the moment the last one commits. Other
    databases lock rows, so there writers go ahead side by side.
    """
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        with transaction.atomic():
            yield
        return
    with _sqlite_writers, transaction.atomic():
        yield


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """``group_send`` on the channel layer, without holding up the caller.

    From a worker thread of the server's event loop (a socket's or a view's), the send
    is scheduled on that loop and the thread goes on at once: it is free for the next
    change, and the message leaves as soon as the loop turns. Anywhere else (the shell,
    a command, a sync test) it is sent and waited for.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop()
    if loop is None:
        async_to_sync(layer.group_send)(group, message)
        return
    sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
    sent.add_done_callback(_log_failed_send)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop whose worker thread this is, if any (asgiref records it)."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop: asyncio.AbstractEventLoop | None = getattr(local, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop
    return None  # called on the loop itself: not a worker thread


def _log_failed_send(sent: Future[None]) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        logger.error("a group message was not sent", exc_info=sent.exception())


# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game row and its engine state at ``game.version``.

    ``applied`` is False when the change was a repeat of one already applied.
    """

    game: Game
    state: Any
    applied: bool = True


def game_summary(game: Game) -> dict[str, Any]:
    """The game as the API lists it: everything but the engine's view."""
    return {
        "id": game.pk,
        "url": f"/play/{game.pk}/",
        "game": game.deal.game,
        "options": game.deal.options,
        "deal": game.deal.number,
        "version": game.version,
        "status": game.status,
        "score": game.score,
        "elapsed": int(game.elapsed.total_seconds()),
        "moves_made": game.moves_made,
        # The solver found a win from this deal (when it was dealt as winnable, or once a
        # finished game of the deal asked). Never False before the game ends: a proof
        # that a deal cannot be won is only told by ``verdict_for``.
        "winnable": game.deal.winnable is True,
        "created": game.created.isoformat(),
        "updated": game.updated.isoformat(),
    }


def game_payload(snapshot: Snapshot) -> dict[str, Any]:
    """The game as the API and sockets describe it: ``state`` is the engine's view."""
    return {**game_summary(snapshot.game), "state": snapshot.state.view()}


# ---------------------------------------------------------------- deals


def validated_options(game_name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's own reading of ``options``, defaults filled in.

    :raises BadRequest: for an unknown game or option, or a bad value.
    """
    if game_name not in solitaire.GAMES:
        raise BadRequest(f"there is no game called {game_name!r}", "unknown_game")
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise BadRequest("options must be an object", "bad_options")
    try:
        probe = solitaire.new_game(game_name, seed=0, **options)
    except (ValueError, TypeError) as error:
        raise BadRequest(str(error), "bad_options") from None
    return dict(probe.options)


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def deal_seed(game_name: str, options_key: str, number: int) -> int:
    """The engine seed of a public deal number: HMAC-SHA256 under DEAL_SECRET.

    63 bits, so it fits a signed 64-bit database column.
    """
    message = f"{game_name}:{options_key}:{number}".encode()
    digest = hmac.new(settings.DEAL_SECRET.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def get_or_create_deal(game_name: str, options: Mapping[str, Any], number: int | None = None) -> Deal:
    """The deal of ``number`` (a random one when None) for this game and options.

    :raises BadRequest: for an unknown game or option, or a number out of range.
    """
    clean = validated_options(game_name, options)
    if number is None:
        number = 1 + secrets.randbelow(RANDOM_DEAL_NUMBERS - 1)
    elif isinstance(number, bool) or not isinstance(number, int):
        raise BadRequest("the deal number must be a whole number", "bad_deal")
    elif not 0 <= number <= MAX_DEAL_NUMBER:
        raise BadRequest(f"the deal number must be between 0 and {MAX_DEAL_NUMBER}", "bad_deal")
    key = canonical_json(clean)
    deal, _ = Deal.objects.get_or_create(
        game=game_name,
        options_key=key,
        number=number,
        defaults={"options": clean, "seed": deal_seed(game_name, key, number)},
    )
    return deal


def dealt_state(deal: Deal) -> Any:
    """The engine state of a fresh deal, before any move."""
    return solitaire.new_game(deal.game, seed=deal.seed, **deal.options)


# ---------------------------------------------------------------- replay and its cache


# The moves still in effect, newest first, as a chain of pairs: (move, earlier moves).
MoveChain = tuple[solitaire.Move, "MoveChain | None"]


@dataclass(frozen=True, slots=True)
class Line:
    """A game's effective history: its current state, the deal, and the moves in effect.

    Undo steps back to ``previous``; the log itself only ever grows. Only two states are
    kept, the current one and the deal (``start``; None when ``state`` is the deal): the
    moves in effect cost a few dozen bytes each, where a state costs most of a
    kilobyte, so a long game stays small in the cache. ``previous`` replays the deal
    through the moves before the last, which is quick and only undo needs.
    """

    state: Any
    start: Any = None
    moves: MoveChain | None = None

    @property
    def previous(self) -> Line | None:
        """The line before the last move in effect, or None at the deal."""
        if self.moves is None:
            return None
        earlier = self.moves[1]
        if earlier is None:
            return Line(self.start)
        state = self.start
        for move in _oldest_first(earlier):
            state = state.apply(move)
        return Line(state, self.start, earlier)

    def then(self, state: Any, move: Mapping[str, Any] | solitaire.Move) -> Line:
        """The line after ``move``, which led to ``state``."""
        start = self.state if self.start is None else self.start
        return Line(state, start, (solitaire.Move.from_dict(move), self.moves))


def _oldest_first(moves: MoveChain | None) -> list[solitaire.Move]:
    listed = []
    while moves is not None:
        listed.append(moves[0])
        moves = moves[1]
    listed.reverse()
    return listed


def replay(deal: Deal, entries: Iterable[Mapping[str, Any]]) -> Line:
    """The deal replayed through a log: undos drop moves first, then one pass applies
    what is left, so a log full of undos replays as fast as one without."""
    effective: list[Mapping[str, Any]] = []
    for entry in entries:
        if entry.get("undo"):
            if not effective:
                raise ValueError("the log undoes a move that was never made")
            effective.pop()
        else:
            effective.append(entry)
    line = Line(dealt_state(deal))
    for entry in effective:
        move = solitaire.Move.from_dict(entry)
        line = line.then(line.state.apply(move), move)
    return line


@dataclass
class LineCache:
    """Replayed lines by game, each tagged with the version it belongs to.

    Only an optimisation: a line is returned only for the exact version asked for, and
    is stored only after its transaction committed, so it always matches the log.
    """

    size: int = 512
    _lines: OrderedDict[int, tuple[int, Line]] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self, game_id: int, version: int) -> Line | None:
        with self._lock:
            hit = self._lines.get(game_id)
            if hit is None or hit[0] != version:
                return None
            self._lines.move_to_end(game_id)
            return hit[1]

    def put(self, game_id: int, version: int, line: Line) -> None:
        with self._lock:
            held = self._lines.get(game_id)
            if held is not None and held[0] > version:
                return  # a newer version is already here; keep it
            self._lines[game_id] = (version, line)
            self._lines.move_to_end(game_id)
            while len(self._lines) > self.size:
                self._lines.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._lines.clear()


line_cache = LineCache()


def replayed_line(game: Game) -> Line:
    """The line of ``game`` at ``game.version``, replayed from the log."""
    entries = game.log.filter(seq__lte=game.version).order_by("seq").values_list("move", flat=True)
    return replay(game.deal, entries)


def current_line(game: Game) -> Line:
    """The line of ``game`` at ``game.version``: from the cache, or replayed."""
    line = line_cache.get(game.pk, game.version)
    if line is None:
        line = replayed_line(game)
        line_cache.put(game.pk, game.version, line)
    return line


# ---------------------------------------------------------------- ownership


def owned_games(actor: Actor) -> QuerySet[Game]:
    """The games ``actor`` owns: a user's own, or an anonymous token's unclaimed ones."""
    if actor.user_id is not None:
        return Game.objects.filter(owner_id=actor.user_id)
    if actor.token:
        return Game.objects.filter(owner__isnull=True, owner_key=actor.token)
    return Game.objects.none()


def _find_game(actor: Actor, game_id: object, *, lock: bool) -> Game:
    if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 < game_id < 2**63:
        raise NotFound("there is no such game")
    games = owned_games(actor).select_related("deal")
    if lock:
        games = games.select_for_update(of=("self",))
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("there is no such game") from None


def get_game_for(actor: Actor, game_id: int) -> Snapshot:
    """The game and its state, if ``actor`` owns it.

    :raises NotFound: when there is no such game or it belongs to someone else.
    """
    game = _find_game(actor, game_id, lock=False)
    return Snapshot(game, current_line(game).state)


def list_games_for(actor: Actor) -> list[Game]:
    """The actor's games, newest first (their states are not replayed)."""
    return list(owned_games(actor).select_related("deal").order_by("-created", "-pk"))


# ---------------------------------------------------------------- creating


def create_game(
    actor: Actor,
    game_name: str,
    options: Mapping[str, Any] | None = None,
    deal: int | None = None,
    *,
    verdict: winnable.Verdict | None = None,
) -> Snapshot:
    """Deal a new game for ``actor``: deal number ``deal``, or a random one.

    ``verdict`` is what the solver proved about the deal, if it was asked, and is kept
    with the deal.

    :raises BadRequest: for an unknown game or option, or a bad deal number.
    """
    if actor.is_nobody:
        raise BadRequest("there is no session to keep the game in", "no_session")
    if game_name not in SINGLE_PLAYER_GAMES:
        raise BadRequest(
            f"there is no game called {game_name!r}; choose one of " + ", ".join(SINGLE_PLAYER_GAMES),
            "unknown_game",
        )
    with writing():
        the_deal = get_or_create_deal(game_name, {} if options is None else options, deal)
        if verdict is not None and verdict.proved and the_deal.winnable is None:
            _keep_verdict(the_deal, verdict)
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
        transaction.on_commit(lambda: line_cache.put(game.pk, 0, line))
    return Snapshot(game, state)


# ---------------------------------------------------------------- the solver: winnable deals


@dataclass(frozen=True, slots=True)
class FoundDeal:
    """A deal number the solver proved winnable, with its game, options and proof."""

    game: str
    options: dict[str, Any]
    number: int
    verdict: winnable.Verdict


def find_winnable_deal(game_name: str, options: Mapping[str, Any] | None = None) -> FoundDeal:
    """Try random deals of the game until the solver proves one winnable (issue 7).

    Pure CPU work, no database: callers on an event loop run it in a thread of its own.
    Budgets are in games.winnable: a few seconds in all, a second and a half a deal.

    :raises BadRequest: for an unknown game or option.
    :raises Unavailable: ``no_winnable_deal`` when none was proved in time,
        ``solver_busy`` when the process's solver slots are all taken.
    """
    if game_name not in SINGLE_PLAYER_GAMES:
        raise BadRequest(
            f"there is no game called {game_name!r}; choose one of " + ", ".join(SINGLE_PLAYER_GAMES),
            "unknown_game",
        )
    clean = validated_options(game_name, {} if options is None else options)
    key = canonical_json(clean)

    def deal_of(number: int) -> solitaire.State:
        return solitaire.new_game(game_name, seed=deal_seed(game_name, key, number), **clean)

    with _solver_slot():
        found = winnable.first_winnable(deal_of, winnable.random_numbers())
    if found is None:
        raise Unavailable(
            "no winnable deal was found in time; try again, or deal any game", "no_winnable_deal"
        )
    return FoundDeal(game_name, clean, found[0], found[1])


def create_winnable_game(actor: Actor, game_name: str, options: Mapping[str, Any] | None = None) -> Snapshot:
    """``find_winnable_deal`` then ``create_game``, in this thread (see the async API view
    for the same without holding up other requests)."""
    if actor.is_nobody:
        raise BadRequest("there is no session to keep the game in", "no_session")
    found = find_winnable_deal(game_name, options)
    return create_game(actor, found.game, found.options, found.number, verdict=found.verdict)


def finished_deal_for(actor: Actor, game_id: int) -> Deal:
    """The deal of the actor's finished game, for "was this winnable?".

    :raises NotFound: when there is no such game or it belongs to someone else.
    :raises Refused: ``not_finished`` while the game is in play: the answer shows
        the hidden cards.
    """
    game = _find_game(actor, game_id, lock=False)
    if game.status == Game.Status.PLAYING:
        raise Refused(
            "the game is still in play; the answer would show its hidden cards, so it comes "
            "once the game is over",
            "not_finished",
        )
    return game.deal


def judge_deal(deal: Deal) -> winnable.Verdict:
    """Whether the deal can be won from its start: a proof kept with the deal, or a
    search within ``winnable.VERDICT_BUDGET``. Pure CPU work, no database.

    :raises Unavailable: ``solver_busy`` when the process's solver slots are all taken.
    """
    if deal.verdict:
        kept = winnable.Verdict.from_dict(deal.verdict)
        # A kept win is checked again, in case the engine's rules changed since.
        if kept.status != "solved" or _winning_states(deal, kept.moves) is not None:
            return kept
    with _solver_slot():
        return winnable.judge(dealt_state(deal), winnable.VERDICT_BUDGET)


def keep_verdict(deal: Deal, verdict: winnable.Verdict) -> None:
    """Keep a proof with the deal (an unknown answer is not kept)."""
    if verdict.proved and deal.verdict != verdict.to_dict():
        with writing():
            _keep_verdict(deal, verdict)


def _keep_verdict(deal: Deal, verdict: winnable.Verdict) -> None:
    deal.winnable = verdict.status == "solved"
    deal.verdict = verdict.to_dict()
    deal.save(update_fields=["winnable", "verdict"])


def verdict_payload(deal: Deal, verdict: winnable.Verdict, views: bool = False) -> dict[str, Any]:
    """The answer to "was this winnable?"; with ``views``, the engine's view after each
    move of the winning line (the deal first), each without its list of legal moves.

    Only for a finished game: the moves and views show cards that were face down.
    """
    payload = verdict.to_dict()
    if views:
        states = _winning_states(deal, verdict.moves) if verdict.status == "solved" else None
        payload["views"] = [{**state.view(), "moves": []} for state in states or []]
    return payload


def verdict_for(actor: Actor, game_id: int, views: bool = False) -> dict[str, Any]:
    """Answer "was this winnable?" for the actor's finished game in this thread (the async
    API view does the same steps, the search in a thread of its own)."""
    deal = finished_deal_for(actor, game_id)
    verdict = judge_deal(deal)
    keep_verdict(deal, verdict)
    return verdict_payload(deal, verdict, views)


def _winning_states(deal: Deal, moves: list[dict[str, Any]]) -> list[Any] | None:
    """The deal and the state after each move, if the moves are legal and win; else None."""
    states = [dealt_state(deal)]
    try:
        for move in moves:
            states.append(states[-1].apply(move))
    except ValueError:  # IllegalMove is a ValueError too
        return None
    return states if states[-1].is_won else None


@contextmanager
def _solver_slot() -> Iterator[None]:
    try:
        with winnable.solver_slot():
            yield
    except winnable.SolverBusy:
        raise Unavailable(
            "the solver is busy with other players' deals; try again in a moment", "solver_busy"
        ) from None


# ---------------------------------------------------------------- changing


@dataclass(frozen=True, slots=True)
class MoveAction:
    move: dict[str, Any]


@dataclass(frozen=True, slots=True)
class UndoAction:
    pass


@dataclass(frozen=True, slots=True)
class AutoFinishAction:
    pass


Action = MoveAction | UndoAction | AutoFinishAction


def parse_action(action: Mapping[str, Any]) -> Action:
    """Read ``{"type": "move", "move": {...}}``, ``{"type": "undo"}`` or ``{"type": "autofinish"}``.

    :raises BadRequest: for anything else.
    """
    if not isinstance(action, Mapping):
        raise BadRequest("an action must be an object")
    kind = action.get("type")
    if kind == "move":
        move = action.get("move")
        if not isinstance(move, dict):
            raise BadRequest('a move must be an object such as {"from": "t3", "to": "f1"}')
        return MoveAction(move)
    if kind == "undo":
        return UndoAction()
    if kind == "autofinish":
        return AutoFinishAction()
    raise BadRequest("the action type must be 'move', 'undo' or 'autofinish'")


def clean_client_id(client_id: object) -> str | None:
    """A client's id for a change, as stored: a short string (numbers are accepted).

    :raises BadRequest: for anything else.
    """
    if client_id is None:
        return None
    if isinstance(client_id, int) and not isinstance(client_id, bool):
        client_id = str(client_id)
    if not isinstance(client_id, str) or not 0 < len(client_id) <= MAX_CLIENT_ID_LENGTH:
        raise BadRequest(f"an id must be a string of 1 to {MAX_CLIENT_ID_LENGTH} characters")
    return client_id


def apply_action(
    game_id: int,
    actor: Actor,
    action: Mapping[str, Any],
    client_id: object = None,
    expected_version: object = None,
) -> Snapshot:
    """Apply one player action to a game, the only way a game changes.

    ``client_id`` makes the action idempotent: if an entry with that id is already in
    the log, nothing is applied and the current snapshot comes back with
    ``applied=False``. ``expected_version``, when given, must equal the game's version.

    :raises BadRequest: for a malformed action, id or version, or an unknown pile.
    :raises NotFound: when the game is not the actor's.
    :raises Refused: with the engine's reason for an illegal move, or for a stale
        version, nothing to undo, or a finished game.
    """
    parsed = parse_action(action)
    client_id = clean_client_id(client_id)
    if expected_version is not None and (
        isinstance(expected_version, bool) or not isinstance(expected_version, int)
    ):
        raise BadRequest("the version must be a whole number")
    with writing():
        game = _find_game(actor, game_id, lock=True)
        if client_id is not None and game.log.filter(client_id=client_id).exists():
            return Snapshot(game, current_line(game).state, applied=False)
        if expected_version is not None and expected_version != game.version:
            raise Refused(
                f"the game has changed since version {expected_version}; it is now at version {game.version}",
                "stale_version",
                version=game.version,
            )
        entries, line = _play(game, current_line(game), parsed)
        _record(game, line, entries, client_id)
    return Snapshot(game, line.state)


def _play(game: Game, line: Line, action: Action) -> tuple[list[dict[str, Any]], Line]:
    """The log entries for ``action`` and the line after them; the engine decides."""
    if isinstance(action, UndoAction):
        # A lost game may be undone back into play; a won or abandoned one is settled.
        if game.status in (Game.Status.WON, Game.Status.ABANDONED):
            raise Refused(f"the game is {game.status}; there is nothing to undo", "game_over")
        previous = line.previous
        if previous is None:
            raise Refused("there is no move to undo", "nothing_to_undo")
        return [dict(UNDO_ENTRY)], previous
    if game.status != Game.Status.PLAYING:
        raise Refused(f"the game is {game.status}", "game_over")
    if isinstance(action, MoveAction):
        move = _well_formed_move(line.state, action.move)
        return [move], line.then(_engine_apply(line.state, move), move)
    return _auto_finish(line)


def _well_formed_move(state: Any, move: dict[str, Any]) -> dict[str, Any]:
    """The move in its stored form, with its piles checked against the game's."""
    try:
        parsed = solitaire.Move.from_dict(move).to_dict()
    except ValueError as error:
        raise BadRequest(str(error), "bad_move") from None
    for end in ("from", "to"):
        if parsed[end] not in state.pile_ids:
            raise BadRequest(f"there is no pile {parsed[end]!r} in this game", "unknown_pile")
    return parsed


def _engine_apply(state: Any, move: Mapping[str, Any]) -> Any:
    try:
        return state.apply(move)
    except solitaire.IllegalMove as error:
        # Only the reason and code go on: the engine's details stay on the server.
        raise Refused(str(error), error.code) from None
    except ValueError as error:  # malformed for this game, e.g. a bad count
        raise BadRequest(str(error), "bad_move") from None


def _auto_finish(line: Line) -> tuple[list[dict[str, Any]], Line]:
    """Foundation moves, one log entry each, for as long as the engine says they finish."""
    if not line.state.can_auto_finish:
        raise Refused(
            "the game cannot be finished automatically yet: some cards still need moving",
            "cannot_auto_finish",
        )
    entries: list[dict[str, Any]] = []
    while line.state.can_auto_finish and not line.state.is_won:
        move = next((m.to_dict() for m in line.state.legal_moves() if _is_foundation(m.target)), None)
        if move is None:
            break
        line = line.then(_engine_apply(line.state, move), move)
        entries.append(move)
    if not entries:
        raise Refused("there is no foundation move to make", "cannot_auto_finish")
    return entries, line


def _is_foundation(pile: str) -> bool:
    return pile[:1] == "f" and pile[1:].isdigit()


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
    game.version += len(entries)
    game.moves_made += sum(1 for entry in entries if not entry.get("undo"))
    game.elapsed += min(max(now - game.last_active, timedelta(0)), IDLE_GAP)
    game.last_active = now
    game.score = state.score
    if state.is_won:
        game.status, game.finished = Game.Status.WON, now
    elif state.is_over:
        game.status, game.finished = Game.Status.LOST, now
    else:
        game.status, game.finished = Game.Status.PLAYING, None
    game.save()
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: line_cache.put(game_id, version, line))
    transaction.on_commit(lambda: announce(game_id, version), robust=True)


def announce(game_id: int, version: int) -> None:
    """Tell every socket of the game that it is now at ``version``."""
    send_to_group(f"game.{game_id}", {"type": "game.changed", "game": game_id, "version": version})


# ---------------------------------------------------------------- hints


def hint_for(actor: Actor, game_id: int) -> dict[str, Any] | None:
    """A useful legal move for the player, or None (also when the game is over)."""
    snapshot = get_game_for(actor, game_id)
    if snapshot.game.status != Game.Status.PLAYING:
        return None
    return solitaire.hint(snapshot.state.view())


# ---------------------------------------------------------------- accounts


def give_anonymous_games(token: str | None, user_id: int) -> int:
    """Give the games of an anonymous token to a user (on login); returns how many."""
    if not token:
        return 0
    return Game.objects.filter(owner__isnull=True, owner_key=token).update(owner_id=user_id)


# ---------------------------------------------------------------- statistics


def statistics_for(actor: Actor) -> dict[str, Any]:
    """Played, won, win rate, streaks, best time and best score: overall and per variant.

    A game counts as played once it has a log entry or has finished. Streaks run over
    played games in the order they were dealt: a win extends the streak, anything else
    breaks it, except games still in play dealt after the last finished one.
    """
    rows = list(
        owned_games(actor)
        .order_by("created", "pk")
        .values(
            "deal__game",
            "deal__options",
            "deal__options_key",
            "status",
            "version",
            "score",
            "elapsed",
        )
    )
    played = [row for row in rows if row["version"] > 0 or row["status"] != Game.Status.PLAYING]
    variants: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in played:
        variants.setdefault((row["deal__game"], row["deal__options_key"]), []).append(row)
    return {
        "overall": _tally(played),
        "variants": [
            {"game": group[0]["deal__game"], "options": group[0]["deal__options"], **_tally(group)}
            for _, group in sorted(variants.items())
        ],
    }


def _tally(rows: list[dict[str, Any]]) -> dict[str, Any]:
    won = [row for row in rows if row["status"] == Game.Status.WON]
    finished = [i for i, row in enumerate(rows) if row["status"] != Game.Status.PLAYING]
    streak = best_streak = 0
    for row in rows[: finished[-1] + 1] if finished else []:
        streak = streak + 1 if row["status"] == Game.Status.WON else 0
        best_streak = max(best_streak, streak)
    scores = [row["score"] for row in rows if row["score"] is not None]
    return {
        "played": len(rows),
        "won": len(won),
        "win_rate": round(len(won) / len(rows), 4) if rows else None,
        "current_streak": streak,
        "best_streak": best_streak,
        "best_time": min((int(row["elapsed"].total_seconds()) for row in won), default=None),
        "best_score": max(scores, default=None),
    }
