"""The C depth-first search of Casket (``solitaire/_casket_search.c``) against the Python one.

The C pass is a port of ``CasketModel.moves``, ``settle``, ``play_one`` and
``_Search.depth_first``. Run from the same root with the same node budget, the two must
visit the same positions in the same order: the same status, the same node count and
the same winning line, replayed through the engine. The Python search stays the
reference (``native=False``). The searches are bounded by positions, so speed cannot
matter.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import solitaire
from solitaire import solver_casket
from solitaire.solver_casket import CasketModel
from tests.engine.conftest import randomly_played, replayed

pytestmark = pytest.mark.skipif(
    solver_casket._NATIVE is None, reason="the C depth-first pass is not built (make install)"
)


def both(state: solitaire.State, nodes: int) -> tuple[Any, Any]:
    """The depth-first pass alone (best-first given one position), in C and in Python.
    ``solve`` gives the pass at most a quarter of ``max_nodes``."""
    runs = []
    for native in (True, False):
        runs.append(
            solitaire.solve(
                state,
                timeout=600,
                max_nodes=4 * nodes + 1,
                depth_first_nodes=nodes,
                hand_over=False,
                native=native,
            )
        )
    return runs[0], runs[1]


@pytest.mark.parametrize("hard", [False, True])
def test_the_c_pass_visits_what_the_python_pass_visits(hard: bool) -> None:
    verdicts = set()
    for seed in range(1, 21):
        state = solitaire.new_game("casket", seed=seed, hard=hard)
        assert CasketModel(state).native is not None
        fast, reference = both(state, 4000)
        assert fast.status == reference.status, seed
        assert fast.moves == reference.moves, seed
        if fast.solved:
            assert fast.nodes == reference.nodes, seed
            assert replayed(state, fast.moves).is_won
        verdicts.add(fast.status)
    # The deals reach a win and go unfinished, so more than one ending is compared.
    assert "solved" in verdicts and len(verdicts) >= 2, verdicts


def test_the_pass_alone_counts_the_same_positions_from_played_positions() -> None:
    """From positions part-way through random games (wastes built up, the lid and jewels
    changed, spaces once the stock is out), the pass alone, in C and in Python, ends the
    same way after the same number of positions with the same line."""
    rng = random.Random(11)
    compared = set()
    for seed in range(1, 13):
        state = randomly_played(solitaire.new_game("casket", seed=seed, hard=seed % 2 == 0), rng, 20, 140)
        answers = []
        for native in (True, False):
            model = CasketModel(state)
            root, _made = model.settle(model.start(state))
            if native:
                answers.append(model.native_depth_first(root, 3000, float("inf"), time.perf_counter))
            else:
                search = solitaire.solver._Search(model, time.perf_counter, float("inf"), 3000)
                status, path = search.depth_first(root, [])
                answers.append((status, search.nodes, path))
        assert answers[0] == answers[1], seed
        compared.add(answers[0][0])
    assert len(compared) >= 2, compared


def test_with_the_space_bound_on_the_python_pass_runs() -> None:
    """The C pass does not hold the space bound, so a model with it on has no C tables."""
    state = solitaire.new_game("casket", seed=1, hard=True)
    saved = solver_casket.SPACE_BOUND
    solver_casket.SPACE_BOUND = True
    try:
        model = CasketModel(state)
    finally:
        solver_casket.SPACE_BOUND = saved
    assert model.native is None
    assert model.native_depth_first(model.start(state), 10, 1e9, time.perf_counter) is None
    assert CasketModel(state).native is not None


def test_a_malformed_position_is_refused_not_searched() -> None:
    state = solitaire.new_game("casket", seed=1, hard=True)
    model = CasketModel(state)
    found, tableau, wastes, lid, stock, jewels = model.start(state)
    bad_positions = [
        (found, tableau[:3], wastes, lid, stock, jewels),
        (found, tableau, wastes, lid, stock + 1, jewels),
        (found, tableau, wastes, lid, stock, -1),
        (found, tableau, (b"\xff", b"", b""), lid, stock, jewels),
        (b"\x0e" + found[1:], tableau, wastes, lid, stock, jewels),
        (found, tableau, wastes, lid[:4], stock, jewels),
    ]
    for position in bad_positions:
        with pytest.raises(ValueError):
            model.native_depth_first(position, 10, 1e9, time.perf_counter)  # type: ignore[arg-type]
