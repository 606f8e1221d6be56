"""Is this position winnable? An exhaustive solver over the engine's one-player games.

``solve(state)`` searches every line of play from ``state`` (knowing the face-down
cards: "thoughtful" solitaire, as in the published winnability studies) and answers
``"solved"`` with a winning list of engine moves, ``"unsolvable"`` when the whole
search space was exhausted, or ``"unknown"`` when time or the node budget ran out.

The search is best-first (by the model's score) or depth-first, with a transposition
table either way; both are exhaustive. The game models
(``solver_klondike``, ``solver_casket``) supply what makes it fast: compact positions,
canonical keys (tableau piles sorted, the score ignored), safe automatic foundation
moves, pruning of moves that can never be needed, move ordering, and the stock taken
as "the cards reachable after k draws". Every pruning rule is one that cannot lose a
win, so "unsolvable" is a proof, not a guess. docs/winnability.md explains each rule.

A solution is checked before it is returned: the moves are replayed through
``State.apply`` and must reach ``is_won``.

This module knows nothing of the web app or of views. (``best_line`` serves the hint,
which calls it on a deal whose hidden cards it has guessed.)
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from .base import State
from .moves import Move

SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"
# How many new positions between two looks at the clock.
CLOCK_EVERY = 512
# The depth-first pass before best-first search, unless the model says otherwise:
# its share of a timeout, and its positions (with a node budget, at most a quarter).
DEPTH_FIRST_SHARE = 0.25
DEPTH_FIRST_NODES = 20_000

P = TypeVar("P")
# A primitive move of a model, and a step: one or more primitives the search takes as one.
Action = tuple[int, int, int, int]
Step = tuple[Action, ...]


@dataclass(frozen=True)
class SolveResult:
    """What ``solve`` found.

    ``status`` is ``"solved"``, ``"unsolvable"`` or ``"unknown"``; ``moves`` wins from
    the given state when solved (and is empty otherwise); ``nodes`` counts the distinct
    positions visited; ``seconds`` is the time taken by the clock ``solve`` was given.
    """

    status: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def solved(self) -> bool:
        return self.status == SOLVED


class Model(Protocol[P]):
    """What a game model gives the search (see solver_klondike.KlondikeModel)."""

    def start(self, state: State) -> P: ...

    def key(self, position: P) -> Hashable: ...

    def won(self, position: P) -> bool: ...

    def moves(self, position: P) -> list[Step]: ...

    def play(self, position: P, step: Step) -> P: ...

    def settle(self, position: P) -> tuple[P, list[Action]]: ...

    def expand(self, action: Action, state: State) -> list[Move]: ...

    # "depth" for depth-first search; "best" for best-first search by ``score``.
    strategy: str
    # For best-first models, ``solve``'s depth-first pass first: its share of the
    # timeout, and its positions (None: bounded by time alone).
    depth_first_share: float
    depth_first_nodes: int | None
    # Whether best-first skips the positions the depth-first pass finished with. That
    # makes proofs of a loss cheaper (no position is searched twice), but it leaves
    # best-first only the pass's own line into what the pass finished with, so a win
    # there may be found later (docs/winnability.md, "Finished positions carried over").
    hand_over_finished: bool
    # The score's weights (``score`` reads them), and other weights for best-first to
    # start again with once the model's own have had ``restart_share`` of best-first's
    # time: a search led by another score finds other wins early (docs/winnability.md,
    # "Best-first started again with other weights"). Empty: one best-first search.
    weights: tuple[int, ...]
    restart_weights: tuple[tuple[int, ...], ...]
    restart_share: float

    def score(self, position: P) -> int: ...

    def native_depth_first(
        self, root: P, max_nodes: int | None, deadline: float, clock: Callable[[], float]
    ) -> tuple[str, int, list[Action]] | None:
        """``_Search.depth_first`` from ``root`` in compiled code, visiting the same
        positions in the same order (status, nodes, the actions after ``root``); None
        where the model has no such search for these rules."""
        ...

    def native_best_first(
        self, root: P, max_nodes: int | None, deadline: float, clock: Callable[[], float]
    ) -> tuple[str, int, list[Action], int, list[Action]] | None:
        """``_Search.best_first`` from ``root`` in compiled code, expanding the same
        positions in the same order (status, nodes, the winning line, the best score
        and the line to the best-scored position, lines after ``root``); None where the
        model has no such search."""
        ...


def model_for(state: State) -> Model[object]:
    """The search model of the state's game. :raises ValueError: for Double Solitaire."""
    name = state.rules.name
    if name in ("klondike", "josephine"):
        from .solver_klondike import KlondikeModel

        return KlondikeModel(state)  # type: ignore[return-value]
    if name == "casket":
        from .solver_casket import CasketModel

        return CasketModel(state)  # type: ignore[return-value]
    raise ValueError(f"the solver plays klondike, josephine and casket, not {name}")


def solve(
    state: State,
    timeout: float = 10.0,
    thoughtful: bool = True,
    *,
    max_nodes: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
    depth_first_nodes: int | None = None,
    depth_first_share: float | None = None,
    hand_over: bool | None = None,
    native: bool = True,
) -> SolveResult:
    """Search for a win from ``state``.

    :param timeout: seconds (by ``clock``) after which the answer is ``"unknown"``.
    :param thoughtful: must be True: the solver sees the face-down cards. (Without
        them "winnable" is a question about every possible deal, not one position.)
    :param max_nodes: stop with ``"unknown"`` after this many positions, if given.
    :param clock: the clock the timeout is measured by; ``time.process_time`` gives
        CPU seconds, fair on a shared machine.
    :param depth_first_nodes: positions for the depth-first pass run before the
        best-first search (0 for no pass; with ``max_nodes``, at most a quarter of it).
        Both searches are exhaustive, so either may prove a loss. ``None`` takes the
        model's ``depth_first_nodes`` (``None`` there: bounded by time alone, or with
        ``max_nodes`` by ``DEPTH_FIRST_NODES``).
    :param depth_first_share: the share of ``timeout`` the depth-first pass may take
        (0 for no pass); ``None`` takes the model's ``depth_first_share``.
    :param hand_over: whether best-first skips the positions the depth-first pass
        finished with; ``None`` takes the model's ``hand_over_finished``. The C pass
        (below) keeps no positions to hand over, so with it best-first starts afresh.
    :param native: let the searches run in the model's compiled code where it has
        some (the depth-first pass of one-pack Klondike, draw three: ``_klondike_search.c``;
        both searches of Casket: ``_casket_search.c``); False runs the Python reference,
        which visits the same positions.
    :raises ValueError: for a game the solver does not play, or ``thoughtful=False``.
    """
    if not thoughtful:
        raise ValueError("only thoughtful solving is supported: the solver must see the face-down cards")
    started = clock()
    model = model_for(state)
    deadline = started + timeout
    nodes = 0
    probe: _Search[object] | None = None
    if depth_first_share is None:
        depth_first_share = model.depth_first_share
    if depth_first_nodes is None:
        depth_first_nodes = model.depth_first_nodes
    if (
        model.strategy == "best"
        and depth_first_share > 0
        and (depth_first_nodes is None or depth_first_nodes > 0)
    ):
        # A depth-first pass first: many deals the best-first search wanders on fall to
        # plain depth-first in the model's move order, and in Klondike depth-first, which
        # keeps no parents or queue, exhausts a lost deal's space sooner (measured on the
        # draw-3 deals best-first left unknown: docs/winnability.md).
        if max_nodes is not None:
            first_cap: int | None = max(min(depth_first_nodes or DEPTH_FIRST_NODES, max_nodes // 4), 1)
        else:
            first_cap = depth_first_nodes
        probe = _Search(model, clock, started + timeout * depth_first_share, first_cap, native=native)
        status, path = probe.run(state, strategy="depth")
        nodes = probe.nodes
        if status != UNKNOWN or clock() > deadline:
            found = _replay(model, state, path) if status == SOLVED else []
            return SolveResult(status, found, nodes, clock() - started)
    if hand_over is None:
        hand_over = model.hand_over_finished
    # Best-first with the model's own weights, then, if time is left, afresh with each
    # of its other weights in equal parts of the rest. Every run is exhaustive, so any
    # of them may prove a loss; the last runs to the deadline and the node budget.
    own = model.weights
    runs = [own]
    shares = [1.0]
    if model.strategy == "best" and model.restart_weights:
        runs += model.restart_weights
        others = len(model.restart_weights)
        shares = [model.restart_share] + [(1 - model.restart_share) / others] * others
    status, path = UNKNOWN, []
    try:
        begun = clock()
        time_left = deadline - begun
        nodes_left = None if max_nodes is None else max_nodes - nodes
        for at, (weights, share) in enumerate(zip(runs, shares, strict=True)):
            last = at == len(runs) - 1
            if last:
                run_deadline, cap = deadline, None if max_nodes is None else max(max_nodes - nodes, 1)
            else:
                run_deadline = begun + time_left * sum(shares[: at + 1])
                cap = None if nodes_left is None else max(int(nodes_left * share), 1)
            model.weights = weights
            search: _Search[object] = _Search(model, clock, run_deadline, cap, native=native)
            if probe is not None and hand_over:
                search.dead = probe.dead
            status, path = search.run(state)
            nodes += search.nodes
            if status != UNKNOWN or clock() > deadline or (max_nodes is not None and nodes >= max_nodes):
                break
    finally:
        model.weights = own
    moves: list[Move] = []
    if status == SOLVED:
        moves = _replay(model, state, path)
    return SolveResult(status, moves, nodes, clock() - started)


def best_line(state: State, max_nodes: int, timeout: float = 1.0) -> tuple[str, list[Move]]:
    """A winning line if one is found within ``max_nodes`` positions; otherwise, for
    the best-first games, the line to the most promising position seen (possibly
    empty). Used by the hint, on a deal whose hidden cards it has guessed."""
    model = model_for(state)
    search: _Search[object] = _Search(
        model, time.perf_counter, time.perf_counter() + timeout, max_nodes, native=True
    )
    status, path = search.run(state)
    if status != SOLVED:
        path = search.best_path
    return status, _replay(model, state, path, must_win=status == SOLVED)


def search_from(
    model: Model[P],
    position: P,
    max_nodes: int,
    deadline: float = float("inf"),
    clock: Callable[[], float] = time.process_time,
    depth_first_nodes: int = 0,
    hand_over: bool = False,
    native: bool = True,
) -> tuple[str, int, list[Action]]:
    """Search from a model position (not an engine state) within ``max_nodes``.

    Returns the status, the best (lowest) score seen, and the actions of the winning
    line, or of the way to the best-scored position when no win was found. The hint
    uses it to judge each candidate move on each sampled deal.

    :param depth_first_nodes: positions for a depth-first pass first (0 for none). A
        win or a proved loss there is the answer (with the root's score); otherwise
        best-first searches with the positions left.
    :param hand_over: best-first skips the positions the pass finished with (as in
        ``solve``); the score it reports is then the best among the positions it saw.
    :param native: run the searches in compiled code where the model has them (the
        same positions as the Python ones; see ``solve``).
    """
    root, made = model.settle(position)
    if model.won(root):
        return SOLVED, model.score(root), made
    if depth_first_nodes > 0:
        probe: _Search[P] = _Search(model, clock, deadline, min(depth_first_nodes, max_nodes), native=native)
        status, path = probe.depth_first(root, made)
        if status != UNKNOWN:
            return status, model.score(root) if status != SOLVED else 0, path
        max_nodes = max(max_nodes - probe.nodes, 1)
    search: _Search[P] = _Search(model, clock, deadline, max_nodes, native=native)
    if hand_over and depth_first_nodes > 0:
        search.dead = probe.dead
    search.best_score = model.score(root)
    status, path = search.best_first(root, made)
    if status != SOLVED:
        path = search.best_path
    return status, search.best_score, path


class _Search(Generic[P]):
    """Depth-first search with a transposition table over a model's positions."""

    def __init__(
        self,
        model: Model[P],
        clock: Callable[[], float],
        deadline: float,
        max_nodes: int | None,
        native: bool = False,
    ) -> None:
        self.model = model
        # Whether ``depth_first`` may hand the work to the model's compiled search.
        self.native = native
        self.clock = clock
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        # Best-first only: when the budget runs out, the way to the best-scored position.
        self.best_path: list[Action] = []
        self.best_score = 0
        # Positions a search from the root may skip: set by ``depth_first`` when it
        # stops short, read by ``best_first`` (``solve`` hands them over).
        self.dead: set[Hashable] = set()

    def run(self, state: State, strategy: str | None = None) -> tuple[str, list[Action]]:
        model = self.model
        root, made = model.settle(model.start(state))
        if model.won(root):
            self.nodes = 1
            return SOLVED, made
        if (strategy or model.strategy) == "best":
            return self.best_first(root, made)
        return self.depth_first(root, made)

    def depth_first(self, root: P, made: list[Action]) -> tuple[str, list[Action]]:
        """Depth-first, moves in the model's order: little memory, and very fast when
        the model's pruning is strong (Klondike).

        When it stops short, ``dead`` holds the positions it had finished with (every
        move from them tried): a best-first search from the same root may skip them
        without losing a win (docs/winnability.md, "Finished positions carried over").
        """
        model = self.model
        if self.native:
            answer = model.native_depth_first(root, self.max_nodes, self.deadline, self.clock)
            if answer is not None:
                status, self.nodes, line = answer
                return status, made + line if status == SOLVED else []
        key = model.key
        won = model.won
        moves = model.moves
        play = model.play
        settle = model.settle
        seen: set[Hashable] = {key(root)}
        # A frame: position, its moves, the index of the next move to try, and the
        # actions (move plus automatic moves) that led to it.
        stack: list[tuple[P, list[Step], list[int], list[Action]]] = [(root, moves(root), [0], made)]
        nodes = 1
        deadline = self.deadline
        clock = self.clock
        limit = self.max_nodes
        while stack:
            position, options, cursor, _ = stack[-1]
            index = cursor[0]
            if index >= len(options):
                stack.pop()
                continue
            cursor[0] = index + 1
            step = options[index]
            child, automatic = settle(play(position, step))
            child_key = key(child)
            if child_key in seen:
                continue
            seen.add(child_key)
            nodes += 1
            if won(child):
                self.nodes = nodes
                path: list[Action] = []
                for frame in stack:
                    path += frame[3]
                path += step
                path += automatic
                return SOLVED, path
            if (nodes % CLOCK_EVERY == 0 and clock() > deadline) or (limit is not None and nodes >= limit):
                self.nodes = nodes
                # Seen, less the positions still open (the stack) and the one just
                # found: the positions finished with.
                seen.discard(child_key)
                for frame in stack:
                    seen.discard(key(frame[0]))
                self.dead = seen
                return UNKNOWN, []
            stack.append((child, moves(child), [0], [*step, *automatic]))
        self.nodes = nodes
        return UNSOLVABLE, []

    def best_first(self, root: P, made: list[Action]) -> tuple[str, list[Action]]:
        """Always expand the open position the model scores best. It stores every
        position's parent, so it needs more memory than depth-first, but an early bad
        choice costs it little: the games with huge trees (Josephine, Casket) need that.
        It is exhaustive all the same: an empty queue proves the position lost."""
        model = self.model
        depth_weight = getattr(model, "depth_weight", 0)
        if self.native and not self.dead and not depth_weight:
            answer = model.native_best_first(root, self.max_nodes, self.deadline, self.clock)
            if answer is not None:
                status, self.nodes, line, best_score, best_line = answer
                if status == SOLVED:
                    return status, made + line
                self.best_score = best_score
                self.best_path = made + best_line
                return status, []
        key = model.key
        won = model.won
        moves = model.moves
        play = model.play
        settle = model.settle
        score = model.score
        root_key = key(root)
        # key -> (parent key, actions from the parent); the root has no parent.
        parents: dict[Hashable, tuple[Hashable, list[Action]] | None] = {root_key: None}
        # Entries: (priority, tie-breaker, position, key, depth). A model may add a
        # little of the depth to the score (``depth_weight``) so that no single line is
        # followed too far.
        # Positions a depth-first pass from the same root finished with (``dead``).
        dead = self.dead
        queue: list[tuple[int, int, P, Hashable, int]] = [(score(root), 0, root, root_key, 0)]
        nodes = 1
        deadline = self.deadline
        clock = self.clock
        limit = self.max_nodes
        pushed = 0
        best_score, best_key = queue[0][0], root_key
        while queue:
            _, _, position, position_key, depth = heapq.heappop(queue)
            for step in moves(position):
                child, automatic = settle(play(position, step))
                child_key = key(child)
                if child_key in parents or child_key in dead:
                    continue
                parents[child_key] = (position_key, [*step, *automatic])
                nodes += 1
                if won(child):
                    self.nodes = nodes
                    return SOLVED, made + _path(parents, child_key)
                if (nodes % CLOCK_EVERY == 0 and clock() > deadline) or (
                    limit is not None and nodes >= limit
                ):
                    self.nodes = nodes
                    self.best_score = best_score
                    self.best_path = made + _path(parents, best_key)
                    return UNKNOWN, []
                pushed += 1
                child_score = score(child)
                if child_score < best_score:
                    best_score, best_key = child_score, child_key
                heapq.heappush(
                    queue, (child_score + depth_weight * (depth + 1), pushed, child, child_key, depth + 1)
                )
        self.nodes = nodes
        self.best_score = best_score
        self.best_path = made + _path(parents, best_key)
        return UNSOLVABLE, []


def _path(parents: dict[Hashable, tuple[Hashable, list[Action]] | None], last: Hashable) -> list[Action]:
    pieces: list[list[Action]] = []
    link = parents[last]
    while link is not None:
        parent, actions = link
        pieces.append(actions)
        link = parents[parent]
    path: list[Action] = []
    for actions in reversed(pieces):
        path += actions
    return path


def _replay(model: Model[P], state: State, path: list[Action], must_win: bool = True) -> list[Move]:
    """Turn the search's actions into engine moves, applying each to check it."""
    moves: list[Move] = []
    current = state
    for action in path:
        for move in model.expand(action, current):
            current = current.apply(move)
            moves.append(move)
    if must_win and not current.is_won:
        raise AssertionError("solver bug: the winning line does not win when replayed")
    return moves
