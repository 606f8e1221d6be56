"""The C best-first search of Casket (``best_first`` in ``solitaire/_casket_search.c``,
the loop in ``_native_bfs_loop.h``) against the Python one, ``_Search.best_first``.

Run from the same root with the same node budget, the two must expand the same
positions in the same order: the same status, node count and winning line, and when
no win is found the same best score and line to the best-scored position (the Casket
hint follows that line). The Python search stays the reference. The searches are
bounded by positions, so speed cannot matter. ``test_native_passes.py`` checks that
the C loop stops by its clock and lets a signal handler stop it.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import solitaire
from solitaire import solver_casket
from solitaire.solver import _Search
from solitaire.solver_casket import CasketModel
from tests.engine.conftest import randomly_played, replayed

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
    """The state after the model's actions ``line``, each turned into engine moves."""
    model = CasketModel(state)
    for action in line:
        state = replayed(state, model.expand(action, state))
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
        state = randomly_played(solitaire.new_game("casket", seed=seed, hard=seed % 2 == 0), rng, 40, 200)
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
