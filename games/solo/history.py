"""A game's history: the line of moves in effect, replayed from its append-only log.

The log holds moves, ``{"undo": true}``, ``{"redo": true}``, ``{"lost": true}`` (the
hint found no useful move: the game ended lost there) and, last, ``{"abandon": true}``.
Undo steps the line back one move and keeps it for redo; redo plays the last undone
move again; any new move forgets what was undone. The log itself only ever grows.

Replaying every move is too slow for every request, so each process keeps the latest
position of recent games (``positions``): the committed game row and its line, keyed by
game id and tagged with the game's version. Knows the engine and the models; nothing
of HTTP or sockets.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import solitaire
from games.core.cache import VersionedCache
from games.models import Deal, Game
from games.solo.deals import dealt_state

UNDO_ENTRY: dict[str, Any] = {"undo": True}
REDO_ENTRY: dict[str, Any] = {"redo": True}

# Moves, newest first, as a chain of pairs: (move, earlier moves).
MoveChain = tuple[solitaire.Move, "MoveChain | None"]


@dataclass(frozen=True, slots=True)
class Line:
    """A game's effective history: its current state, the deal, the moves in effect and
    the moves undone (most recently undone first), which redo plays again.

    Only two states are kept, the current one and the deal (``start``; None when
    ``state`` is the deal): moves cost a few dozen bytes each, where a state costs most
    of a kilobyte, so a long game stays small in the cache. ``previous`` replays the
    deal through the moves before the last, which is quick and only undo needs.
    """

    state: solitaire.State
    start: solitaire.State | None = None
    moves: MoveChain | None = None
    undone: MoveChain | None = None

    @property
    def can_undo(self) -> bool:
        return self.moves is not None

    @property
    def can_redo(self) -> bool:
        return self.undone is not None

    @property
    def previous(self) -> Line | None:
        """The line before the last move in effect (that move kept for redo), or None at the deal."""
        if self.moves is None:
            return None
        last, earlier = self.moves
        undone = (last, self.undone)
        start = self.state if self.start is None else self.start
        if earlier is None:
            return Line(start, None, None, undone)
        state = start
        for move in oldest_first(earlier):
            state = state.apply(move)
        return Line(state, start, earlier, undone)

    @property
    def redone(self) -> Line | None:
        """The line with the last undone move played again, or None when nothing was undone."""
        if self.undone is None:
            return None
        move, still_undone = self.undone
        start = self.state if self.start is None else self.start
        return Line(self.state.apply(move), start, (move, self.moves), still_undone)

    def then(self, state: solitaire.State, move: solitaire.Move) -> Line:
        """The line after ``move``, which led to ``state``; nothing is left to redo."""
        start = self.state if self.start is None else self.start
        return Line(state, start, (move, self.moves), None)


def oldest_first(moves: MoveChain | None) -> list[solitaire.Move]:
    listed = []
    while moves is not None:
        listed.append(moves[0])
        moves = moves[1]
    listed.reverse()
    return listed


def line_states(line: Line) -> list[solitaire.State]:
    """The states of the line in effect, the deal first and ``line.state`` last: the deal
    played through the moves in effect (the log is not read again)."""
    if line.start is None:
        return [line.state]
    states = [line.start]
    for move in oldest_first(line.moves):
        states.append(states[-1].apply(move))
    return states


def seen_states(line: Line) -> list[solitaire.State]:
    """Every state of ``line_states`` and then of the moves still to redo, one move apart
    each, in an order the player could have seen them: up the line in effect, up through
    the undone moves, and back down to ``line.state`` (as the undos came). What was
    undone and then forgotten by a new move is not in the line, so not here either."""
    states = line_states(line)
    redone: list[solitaire.State] = []
    state, undone = states[-1], line.undone
    while undone is not None:
        move, undone = undone
        state = state.apply(move)
        redone.append(state)
    if not redone:
        return states
    return [*states, *redone, *reversed([states[-1], *redone[:-1]])]


def stored_move(move: solitaire.Move) -> dict[str, Any]:
    """A move as the log stores it: its piles and count (the cards it named were checked
    when it was played, and replay need not check them again)."""
    return {"from": move.source, "to": move.target, "count": move.count}


def replay(deal: Deal, entries: Iterable[Mapping[str, Any]]) -> Line:
    """The deal replayed through a log.

    Undos and redos are worked out on the moves first, then one pass applies what is
    left, so a log full of undos replays as fast as one without.

    :raises ValueError: for a log that undoes or redoes what is not there.
    """
    effective: list[solitaire.Move] = []
    undone: list[solitaire.Move] = []
    for entry in entries:
        if entry.get("undo"):
            if not effective:
                raise ValueError("the log undoes a move that was never made")
            undone.append(effective.pop())
        elif entry.get("abandon") or entry.get("lost"):
            continue  # the game was given up, or found lost, here; the position stays as it was
        elif entry.get("redo"):
            if not undone:
                raise ValueError("the log redoes a move that was never undone")
            effective.append(undone.pop())
        else:
            effective.append(solitaire.Move.from_dict(dict(entry)))
            undone.clear()
    line = Line(dealt_state(deal))
    for move in effective:
        line = line.then(line.state.apply(move), move)
    undone_chain: MoveChain | None = None
    for move in undone:  # the first undone goes deepest: redo takes the last undone first
        undone_chain = (move, undone_chain)
    return Line(line.state, line.start, line.moves, undone_chain)


@dataclass(frozen=True, slots=True)
class Position:
    """A committed game row and its line at ``game.version``.

    The row is a snapshot taken after its transaction committed: nothing changes it."""

    game: Game
    line: Line


# The per-process cache of positions, by game id, tagged with the game's version.
positions: VersionedCache[int, Position] = VersionedCache("solo positions", 512)


def replayed_line(game: Game) -> Line:
    """The line of ``game`` at ``game.version``, replayed from the log."""
    entries = game.log.filter(seq__lte=game.version).order_by("seq").values_list("move", flat=True)
    return replay(game.deal, entries)


def current_line(game: Game) -> Line:
    """The line of ``game`` at ``game.version``: from the cache, or replayed (and kept)."""
    hit = positions.get(game.pk, game.version)
    if hit is not None:
        return hit.line
    line = replayed_line(game)
    keep(game, line)
    return line


def keep(game: Game, line: Line) -> None:
    """Keep ``line`` as ``game``'s position at its version (a copy of the row, so later
    changes to ``game`` in the caller's hands do not reach the cache)."""
    positions.put(game.pk, game.version, Position(copy.copy(game), line))
