"""Exact endings: is a game over, with no search cap?

``is_over_exact(state)`` is True when the game is won, or when no sequence of moves,
of any length, can make *lasting* progress for any seat: turn a face-down card up,
make the stock and waste smaller, free a card from Casket's jewels, or put more cards
on the foundations than there are now. Moves that make none of these (draws, turning
the waste over, shuffles between tableau piles, cards taken back off a foundation) are
followed exhaustively, positions that differ only in the order of like piles counted
once; the set of such positions is finite, so the answer is exact. A game that can
still put a card up (and so still score) is therefore not over, and a stuck game is.

As in ``State.is_over``, a game is never over before the player has turned every
stock card once (``Rules.has_seen_stock``), so the verdict reveals nothing hidden.

The cheap probes of ``base.Rules`` run first: a move that makes progress at once, one
turn round the stock, a run of foundation moves (each only ever proves "not over"), and
the relaxation ``could_progress`` (which only ever proves "over"). The exhaustive search
comes last. It may take long in rare positions, so the web app runs it off the move's
hot path; ``max_positions`` (a count) and ``deadline`` (a ``time.process_time()``
value) cap it for callers who prefer "not over" to waiting, such as the hint.

This module knows nothing of the web app, views or hints.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable

from .base import FOUNDATION, State
from .moves import Move

# How many positions a capped search visits between two looks at the clock.
CLOCK_EVERY = 256


def is_over_exact(state: State, *, max_positions: int | None = None, deadline: float | None = None) -> bool:
    """Won, or no seat can make lasting progress by any sequence of moves.

    :param max_positions: stop a search after this many positions and answer False
        (not over); None (the default) searches to the end, which is exact.
    :param deadline: a ``time.process_time()`` value: past it, stop and answer False.
    """
    rules = state.rules
    if rules.is_won(state):
        return True
    return all(
        is_stuck_exact(state, seat, max_positions=max_positions, deadline=deadline) for seat in rules.seats()
    )


def is_stuck_exact(
    state: State,
    seat: int,
    *,
    max_positions: int | None = None,
    probes: bool = True,
    deadline: float | None = None,
) -> bool:
    """True when no sequence of ``seat``'s moves makes lasting progress (see above).

    :param probes: use the cheap probes and the relaxation before the search; False
        runs the plain exhaustive search alone (the reference the tests compare with).
    """
    rules = state.rules
    if not rules.has_seen_stock(state, seat):
        return False
    root = measures(state, seat)
    if probes:
        for move in rules.seat_moves(state, seat):
            following = rules.apply(state, move)
            if rules.is_won(following) or _better(measures(following, seat), root):
                return False
        if not rules.could_progress(state, seat):
            return True
        base_root = rules.progress(state, seat)
        if rules.stock_cycle_progresses(state, seat, base_root):
            return False
        if rules.foundation_run_progresses(state, seat, base_root):
            return False
    seen = {_key(state)}
    frontier = deque([state])
    while frontier:
        current = frontier.popleft()
        for move in rules.seat_moves(current, seat):
            following = rules.apply(current, move)
            if rules.is_won(following) or _better(measures(following, seat), root):
                return False
            key = _key(following)
            if key in seen:
                continue
            if _capped(len(seen), max_positions, deadline):
                return False
            seen.add(key)
            frontier.append(following)
    return True


def measures(state: State, seat: int) -> tuple[int, ...]:
    """The game's own progress measures (lower is further) and, last, the number of
    cards on the foundations, negated: with cards allowed back down the game's own
    measures leave that out, but a card going up still changes the score."""
    rules = state.rules
    on_foundations = sum(len(state.piles[f]) for f, role in enumerate(rules.roles) if role == FOUNDATION)
    return (*rules.progress(state, seat), -on_foundations)


def _better(now: tuple[int, ...], root: tuple[int, ...]) -> bool:
    return any(a < b for a, b in zip(now, root, strict=True))


def _key(state: State) -> Hashable:
    """The position up to the order of like piles, with the counters that matter to
    what can still be done: passes where they are limited, never the score."""
    rules = state.rules
    limited = getattr(rules, "max_passes", None) is not None
    counters = tuple(
        value
        for name, value in zip(rules.counter_names, state.counters, strict=True)
        if name != "score" and (limited or not name.endswith("passes"))
    )
    return (rules.canonical(state), counters)


def _capped(positions: int, max_positions: int | None, deadline: float | None) -> bool:
    """A capped search has visited enough: ``max_positions``, or past ``deadline``."""
    if max_positions is not None and positions >= max_positions:
        return True
    return deadline is not None and positions % CLOCK_EVERY == 0 and time.process_time() > deadline


def path_to_progress(
    state: State,
    seat: int,
    *,
    max_positions: int | None = None,
    deadline: float | None = None,
    accept: Callable[[State], bool] | None = None,
) -> list[Move] | None:
    """The shortest sequence of ``seat``'s moves whose last move makes lasting progress
    (or wins), or None when there is none (or the search passed ``max_positions`` or
    the ``time.process_time()`` value ``deadline``).

    ``accept``, when given, must also hold for the position the path ends in; a
    progress it refuses is searched through like any other position. (The hint
    refuses positions already seen in the game: a card taken down and sent up again
    is progress from where it lies, but nothing lasting.)

    Only the last move can turn up a face-down card, so the path never depends on one.
    """
    rules = state.rules
    root = measures(state, seat)
    parents: dict[Hashable, tuple[Hashable, Move] | None] = {_key(state): None}
    frontier = deque([state])
    while frontier:
        current = frontier.popleft()
        current_key = _key(current)
        for move in rules.seat_moves(current, seat):
            following = rules.apply(current, move)
            if (rules.is_won(following) or _better(measures(following, seat), root)) and (
                accept is None or accept(following)
            ):
                path = [move]
                link = parents[current_key]
                while link is not None:
                    parent_key, parent_move = link
                    path.append(parent_move)
                    link = parents[parent_key]
                path.reverse()
                return path
            key = _key(following)
            if key in parents:
                continue
            if _capped(len(parents), max_positions, deadline):
                return None
            parents[key] = (current_key, move)
            frontier.append(following)
    return None
