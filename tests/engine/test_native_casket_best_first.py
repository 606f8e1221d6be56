"""The C best-first search of Casket (``best_first`` in ``solitaire/_casket_dfs.c``,
the loop in ``_native_bfs_loop.h``) against the Python one, ``_Search.best_first``.

Run from the same root with the same node budget, the two must expand the same
positions in the same order: the same status, node count and winning line, and when
no win is found the same best score and line to the best-scored position (the Casket
hint follows that line). The Python search stays the reference. The searches are
bounded by positions, so speed cannot matter; the last two tests give the C loop a
clock and a signal, as ``test_native_passes.py`` does for the depth-first passes.
"""

from __future__ import annotations

import itertools
import random
import signal
import time
from typing import Any

import pytest

import solitaire
from solitaire import solver_casket
from solitaire.solver import _Search
from solitaire.solver_casket import CasketModel

pytestmark = pytest.mark.skipif(
    solver_casket._NATIVE is None, reason="the C searches are not built (make install)"
)


def best_first_both_ways(state: solitaire.State, nodes: int) -> tuple[Any, Any]:
    """(status, nodes, line, best score, best line) of best-first from the settled
    position of ``state``, in C and in Python."""
    answers = []
    for native in (True, False):
        model = CasketModel(state)
        root, made = model.settle(model.start(state))
        search = _Search(model, time.perf_counter, float("inf"), nodes, native=native)
        status, line = search.best_first(root, made)
        answers.append((status, search.nodes, line, search.best_score, search.best_path))
    return answers[0], answers[1]


def replay(state: solitaire.State, line: list[Any]) -> solitaire.State:
    model = CasketModel(state)
    for action in line:
        for move in model.expand(action, state):
            state = state.apply(move)
    return state


@pytest.mark.parametrize("hard", [False, True])
def test_the_c_search_expands_what_the_python_search_expands(hard: bool) -> None:
    verdicts = set()
    for seed in range(1, 21):
        state = solitaire.new_game("casket", seed=seed, hard=hard)
        fast, reference = best_first_both_ways(state, 8000)
        assert fast == reference, seed
        status, _nodes, line, _best, best_line = fast
        if status == "solved":
            assert replay(state, line).is_won, seed
        else:
            # The line to the best position seen plays, and does not win.
            assert not replay(state, best_line).is_won, seed
        verdicts.add(status)
    assert {"solved", "unknown"} <= verdicts, verdicts


def test_from_played_positions_including_exhausted_searches() -> None:
    """From positions part-way through random games (wastes built up, the lid and
    jewels changed, spaces once the stock is out, some positions lost), the two
    searches end the same way: a win, a proof of loss by an emptied queue, or the
    budget spent, with the same counts and lines."""
    rng = random.Random(5)
    compared = set()
    for seed in range(1, 25):
        state = solitaire.new_game("casket", seed=seed, hard=seed % 2 == 0)
        for _ in range(rng.randrange(40, 200)):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.apply(rng.choice(moves))
        fast, reference = best_first_both_ways(state, 3000)
        assert fast == reference, seed
        compared.add(fast[0])
    assert compared == {"solved", "unsolvable", "unknown"}, compared


def test_solve_gives_the_same_answer_with_either_search() -> None:
    """Through ``solve`` (a depth-first pass, then best-first with what is left), the
    C searches and the Python ones reach the same verdict with the same line."""
    for seed in (1, 2, 9, 11):
        state = solitaire.new_game("casket", seed=seed, hard=True)
        runs = [
            solitaire.solve(state, timeout=600, max_nodes=20_000, depth_first_nodes=2000, native=native)
            for native in (True, False)
        ]
        assert (runs[0].status, runs[0].moves, runs[0].nodes) == (
            runs[1].status,
            runs[1].moves,
            runs[1].nodes,
        )


def test_a_malformed_position_or_weights_are_refused_not_searched() -> None:
    state = solitaire.new_game("casket", seed=1, hard=True)
    model = CasketModel(state)
    assert model.native is not None
    found, tableau, wastes, lid, stock, jewels = model.start(state)
    bad_positions = [
        (found, tableau[:3], wastes, lid, stock, jewels),
        (found, tableau, wastes, lid, stock + 1, jewels),
        (found, tableau, (b"\xff", b"", b""), lid, stock, jewels),
    ]
    for position in bad_positions:
        with pytest.raises(ValueError):
            model.native_best_first(position, 10, 1e9, time.perf_counter)  # type: ignore[arg-type]
    native = solver_casket._NATIVE
    with pytest.raises(ValueError):
        native.best_first(model.native, model.start(state), 10, 1e9, time.perf_counter, tuple(range(9)))
    with pytest.raises(TypeError):
        native.best_first(model.native, model.start(state), 10, 1e9, time.perf_counter, [2, 5, 4, 2])


def test_the_c_search_stops_at_the_deadline_by_the_clock_it_is_given() -> None:
    """A fake clock that jumps past the deadline on its fourth reading stops the search
    at the fourth reading: one every 512 positions."""
    state = solitaire.new_game("casket", seed=1, hard=True)
    model = CasketModel(state)
    readings = iter([0.0, 0.0, 0.0] + [100.0] * 100)
    answer = model.native_best_first(model.start(state), None, 10.0, lambda: next(readings))
    assert answer is not None
    status, nodes, line, _best, _best_line = answer
    assert (status, nodes, line) == ("unknown", 4 * 512, [])


class Interrupted(Exception):
    pass


def test_a_signal_handler_stops_the_c_search() -> None:
    """As for the depth-first passes: SIGPROF fires after 0.2 CPU s and its handler
    raises; the clock never reaches the deadline and runs no Python code, so only the C
    loop's own signal check can end the search early."""
    state = solitaire.new_game("casket", seed=1, hard=True)
    model = CasketModel(state)
    readings = itertools.count()
    cap = 3_000_000

    def interrupt(signum: int, frame: object) -> None:
        raise Interrupted

    previous = signal.signal(signal.SIGPROF, interrupt)
    try:
        signal.setitimer(signal.ITIMER_PROF, 0.2)
        with pytest.raises(Interrupted):
            model.native_best_first(model.start(state), cap, float("inf"), readings.__next__)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    assert next(readings) < cap // 512 // 2
