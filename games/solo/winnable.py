"""The solver's budgets for the web app: finding a winnable deal, and judging a deal.

Two questions reach the solver from players (issue 7): "deal me a game I can win" and,
after a game, "was this winnable?". Both are ``solitaire.solve`` on a deal's starting
position, thoughtfully (the solver sees the face-down cards), within a small budget:
a time limit for the player's patience and a node limit so that an answer does not
depend much on how busy the machine is. A search is pure CPU work, so only a few run at
once in a process (``solver_slot``); the rest are told to try again.

This module knows the engine and nothing of the database, HTTP or sockets:
games.solo.verdicts and games.solo.deals give it positions and keep what it proves.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import solitaire
from games.core.errors import Unavailable


@dataclass(frozen=True, slots=True)
class Budget:
    """How long one search may run: ``timeout`` seconds and at most ``max_nodes`` positions."""

    timeout: float
    max_nodes: int


# Most deals are decided within a few thousand positions; a deal that needs more than
# this is skipped for the next one rather than waited for.
DEAL_BUDGET = Budget(timeout=1.5, max_nodes=60_000)
# The whole hunt for a winnable deal, over every deal tried.
DEAL_HUNT_SECONDS = 4.0
# "Was this winnable?" waits longer, since it is about one deal the player cares about.
VERDICT_BUDGET = Budget(timeout=5.0, max_nodes=250_000)
# Searches running at once in one process; the machine has few cores and a search holds one.
SOLVER_SLOTS = 2
# Random deal numbers are drawn from the same range as ordinary random deals.
RANDOM_DEALS = 1_000_000_000

_slots = threading.BoundedSemaphore(SOLVER_SLOTS)


@contextmanager
def solver_slot() -> Iterator[None]:
    """Hold one of the process's solver slots for a search.

    :raises Unavailable: ``solver_busy`` at once, when they are all taken: a player
        should not queue behind other players' searches for seconds.
    """
    if not _slots.acquire(blocking=False):
        raise Unavailable(
            "the solver is busy with other players' deals; try again in a moment", "solver_busy"
        )
    try:
        yield
    finally:
        _slots.release()


def no_winnable_deal() -> Unavailable:
    return Unavailable("no winnable deal was found in time; try again, or deal any game", "no_winnable_deal")


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a search found: ``status`` is solved, unsolvable or unknown; ``moves`` (move
    dicts) win from the deal when solved."""

    status: str
    moves: list[dict[str, Any]]
    nodes: int
    seconds: float

    @property
    def proved(self) -> bool:
        """True for an answer worth keeping: a win found, or none possible."""
        return self.status in ("solved", "unsolvable")

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "moves": self.moves, "nodes": self.nodes, "seconds": self.seconds}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        return cls(data["status"], list(data.get("moves") or []), int(data["nodes"]), float(data["seconds"]))


def judge(state: solitaire.State, budget: Budget) -> Verdict:
    """Solve ``state`` within ``budget``. Time is this thread's CPU time, so a search is
    not cut short because other threads or processes had the core meanwhile."""
    result = solitaire.solve(
        state, timeout=budget.timeout, max_nodes=budget.max_nodes, clock=time.thread_time
    )
    moves = [move.to_dict() for move in result.moves] if result.solved else []
    return Verdict(result.status, moves, result.nodes, round(result.seconds, 3))


def judge_seed(game: str, options: dict[str, Any], seed: int, budget: Budget) -> Verdict:
    """``judge`` on a deal given by its seed: a worker job (games.core.workers), plain
    arguments in and out."""
    return judge(solitaire.new_game(game, seed=seed, **options), budget)


# Deal numbers handed to one hunt for a winnable deal; far more than it gets through.
HUNT_CANDIDATES = 500


def hunt(
    game: str,
    options: dict[str, Any],
    candidates: list[tuple[int, int]],
    budget: Budget,
    total_seconds: float,
) -> tuple[int, Verdict] | None:
    """``first_winnable`` over ``candidates`` (deal number, seed) in order: a worker job.
    The seeds come from the caller, who holds the deal secret.

    The whole hunt is timed in this thread's CPU time, as each deal's search is: on a
    busy machine a wall clock ran out while the worker waited for a core, and a player
    was told no deal was found though hardly any had been tried.
    """
    seeds = dict(candidates)
    return first_winnable(
        lambda number: solitaire.new_game(game, seed=seeds[number], **options),
        iter([number for number, _ in candidates]),
        budget=budget,
        total_seconds=total_seconds,
        clock=time.thread_time,
    )


def cpu_seconds_for(seconds: float) -> float:
    """The worker's CPU limit for a search budgeted ``seconds``: a little more, so the
    search's own clock stops it first."""
    return seconds + 2.0


def random_numbers() -> Iterator[int]:
    """Random public deal numbers, without end."""
    while True:
        yield 1 + secrets.randbelow(RANDOM_DEALS - 1)


def first_winnable(
    deal_of: Callable[[int], solitaire.State],
    numbers: Iterator[int],
    *,
    budget: Budget | None = None,
    total_seconds: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[int, Verdict] | None:
    """The first deal number from ``numbers`` whose deal (``deal_of(number)``) the solver
    proves winnable, with its verdict; None when ``total_seconds`` (default
    ``DEAL_HUNT_SECONDS``) ran out first, or ``numbers`` did.

    Each deal gets at most ``budget`` (default ``DEAL_BUDGET``), trimmed to the time
    left. At least one deal is always tried, so a tiny total still gives an answer when
    the first deal is easy.
    """
    budget = DEAL_BUDGET if budget is None else budget
    deadline = clock() + (DEAL_HUNT_SECONDS if total_seconds is None else total_seconds)
    for number in numbers:
        left = deadline - clock()
        verdict = judge(deal_of(number), Budget(max(0.05, min(budget.timeout, left)), budget.max_nodes))
        if verdict.status == "solved":
            return number, verdict
        if clock() >= deadline:
            return None
    return None
