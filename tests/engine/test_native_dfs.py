"""The C depth-first search (``solitaire/_klondike_search.c``) against the Python one.

The C pass is a port of ``KlondikeModel.moves``, ``settle`` and
``_Search.depth_first``. Run with the same root and node budget, the two must visit the
same positions in the same order: the same status, the same node count and the same
winning line, replayed through the engine. The Python search stays the reference
(``native=False``). The searches are bounded by positions, so speed cannot matter.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import solitaire
from solitaire import solver_klondike
from solitaire.solver import search_from
from solitaire.solver_klondike import KlondikeModel
from tests.engine.conftest import randomly_played, replayed

pytestmark = pytest.mark.skipif(
    solver_klondike._NATIVE is None, reason="the C depth-first pass is not built (make install)"
)


def both(state: solitaire.State, nodes: int) -> tuple[Any, Any]:
    """The depth-first pass alone (best-first given nothing), in C and in Python."""
    runs = []
    for native in (True, False):
        runs.append(
            solitaire.solve(
                state,
                timeout=600,
                max_nodes=nodes + 1,
                depth_first_nodes=nodes,
                hand_over=False,
                native=native,
            )
        )
    return runs[0], runs[1]


@pytest.mark.parametrize(
    "options",
    [
        {"draw": 3},
        {"draw": 3, "foundation_to_tableau": False},
        {"draw": 3, "whole_sequences": True},
        {"draw": 3, "any_card_in_space": True},
        {"draw": 3, "face_up": True},
    ],
)
def test_the_c_pass_visits_what_the_python_pass_visits(options: dict[str, Any]) -> None:
    verdicts = set()
    for seed in range(1, 31):
        state = solitaire.new_game("klondike", seed=seed, **options)
        assert KlondikeModel(state).native is not None
        fast, reference = both(state, 3000)
        assert (fast.status, fast.nodes) == (reference.status, reference.nodes), seed
        assert fast.moves == reference.moves, seed
        if fast.solved:
            assert replayed(state, fast.moves).is_won
        verdicts.add(fast.status)
    # The deals reach a win and another ending, so more than one way of ending is compared.
    assert "solved" in verdicts and len(verdicts) >= 2, verdicts


def test_the_c_pass_proves_the_same_losses() -> None:
    """Draw-3 deals whose whole space the pass exhausts (docs/winnability.md)."""
    for seed, exhausted_in in ((40, 5671), (66, 41373), (103, 2572)):
        state = solitaire.new_game("klondike", seed=seed, draw=3)
        fast, reference = both(state, 10 * exhausted_in)
        assert (fast.status, fast.nodes) == ("unsolvable", exhausted_in)
        assert (reference.status, reference.nodes) == ("unsolvable", exhausted_in)


def test_the_hints_searches_are_the_same_in_c() -> None:
    """``search_from`` (each of the hint's searches) from positions of played games,
    with the hint's stricter safety tables: the same answer, score and line."""
    rng = random.Random(7)
    compared = 0
    for seed in range(1, 9):
        state = randomly_played(solitaire.new_game("klondike", seed=seed, draw=3), rng, 0, 60)
        model = KlondikeModel(state, strict_safety=True)
        root = model.start(state)
        fast = search_from(model, root, 2000, depth_first_nodes=1000)
        reference = search_from(model, root, 2000, depth_first_nodes=1000, native=False)
        assert fast == reference, seed
        compared += 1
    assert compared == 8


def test_a_malformed_position_is_refused_not_searched() -> None:
    state = solitaire.new_game("klondike", seed=1, draw=3)
    model = KlondikeModel(state)
    found, piles, talon, w, passes = model.start(state)
    with pytest.raises(ValueError):
        model.native_depth_first((found, piles[:3], talon, w, passes), 10, 1e9, time.perf_counter)
    with pytest.raises(ValueError):
        model.native_depth_first((found, piles, talon, len(talon) + 1, passes), 10, 1e9, time.perf_counter)
    with pytest.raises(ValueError):
        model.native_depth_first((found, piles, b"\xff" + talon[1:], w, passes), 10, 1e9, time.perf_counter)
    with pytest.raises(ValueError):
        model.native_depth_first((b"\x0e\0\0\0", piles, talon, w, passes), 10, 1e9, time.perf_counter)
