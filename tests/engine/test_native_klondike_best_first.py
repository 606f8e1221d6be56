"""The C searches of solver_klondike's model (``solitaire/_klondike_search.c``) against
the Python ones: best-first for one-pack Klondike at draw three, and both searches for
Josephine (two packs in suit, one pass, draw one, with the space bound).

Run from the same root with the same node budget, the two must expand the same
positions in the same order: the same status, node count and winning line, and when
no win is found the same best score and line to the best-scored position (the hint
follows that line). The Python searches stay the reference. The searches are bounded by
positions, so speed cannot matter. ``test_native_dfs.py`` covers Klondike's
depth-first pass.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import solitaire
from solitaire import solver_klondike
from solitaire.solver import _Search, search_from
from solitaire.solver_klondike import KlondikeModel
from tests.engine.conftest import randomly_played, replayed

pytestmark = pytest.mark.skipif(
    solver_klondike._NATIVE is None, reason="the C searches are not built (make install)"
)


def search_both_ways(state: solitaire.State, nodes: int, strategy: str) -> tuple[Any, Any]:
    """(status, nodes, line, best score, best line) of one search from the settled
    position of ``state``, in C and in Python."""
    answers = []
    for native in (True, False):
        model = KlondikeModel(state)
        assert model.native is not None
        root, made = model.settle(model.start(state))
        search = _Search(model, time.perf_counter, float("inf"), nodes, native=native)
        if strategy == "best":
            status, line = search.best_first(root, made)
        else:
            status, line = search.depth_first(root, made)
        answers.append((status, search.nodes, line, search.best_score, search.best_path))
    return answers[0], answers[1]


def replay(state: solitaire.State, line: list[Any]) -> solitaire.State:
    """The state after the model's actions ``line``, each turned into engine moves."""
    model = KlondikeModel(state)
    for action in line:
        state = replayed(state, model.expand(action, state))
    return state


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("klondike", {"draw": 3}),
        ("klondike", {"draw": 3, "foundation_to_tableau": False}),
        ("klondike", {"draw": 3, "any_card_in_space": True}),
        ("josephine", {}),
        ("josephine", {"whole_sequences": True}),
    ],
)
def test_best_first_in_c_expands_what_the_python_search_expands(game: str, options: dict[str, Any]) -> None:
    verdicts = set()
    for seed in range(1, 16):
        state = solitaire.new_game(game, seed=seed, **options)
        fast, reference = search_both_ways(state, 6000, "best")
        assert fast == reference, seed
        status, _nodes, line, _best, best_line = fast
        if status == "solved":
            assert replay(state, line).is_won, seed
        else:
            # The line to the best position seen plays, and does not win.
            assert not replay(state, best_line).is_won, seed
        verdicts.add(status)
    assert {"solved", "unknown"} <= verdicts, verdicts


def test_josephines_depth_first_pass_in_c_visits_what_the_python_pass_visits() -> None:
    verdicts = set()
    for seed in range(1, 21):
        state = solitaire.new_game("josephine", seed=seed)
        fast, reference = search_both_ways(state, 4000, "depth")
        assert fast == reference, seed
        if fast[0] == "solved":
            assert replay(state, fast[2]).is_won, seed
        verdicts.add(fast[0])
    assert {"solved", "unknown"} <= verdicts, verdicts


@pytest.mark.parametrize("game", ["klondike", "josephine"])
def test_from_played_positions_including_exhausted_searches(game: str) -> None:
    """From positions part-way through random games (the waste built up, spaces, in
    Josephine positions the space bound proves lost), both searches end the same way:
    a win, a proof of loss by an emptied queue, or the budget spent."""
    rng = random.Random(11)
    compared = set()
    options = {"draw": 3} if game == "klondike" else {}
    for seed in range(1, 41):
        state = randomly_played(solitaire.new_game(game, seed=seed, **options), rng, 20, 160)
        for strategy in ("best", "depth"):
            fast, reference = search_both_ways(state, 3000, strategy)
            assert fast == reference, (seed, strategy)
            compared.add(fast[0])
    assert compared == {"solved", "unsolvable", "unknown"}, compared


def test_the_space_bound_in_c_proves_what_the_python_bound_proves() -> None:
    """Josephine seed 10 is lost at the deal by the space bound alone (docs/winnability.md):
    the C search stops at the root as the Python one does. A played position the bound
    does not fire on is searched on by both."""
    state = solitaire.new_game("josephine", seed=10)
    model = KlondikeModel(state)
    root, _made = model.settle(model.start(state))
    assert model.space_bound(root)
    fast, reference = search_both_ways(state, 1000, "best")
    assert fast[:2] == reference[:2] == ("unsolvable", 1)
    fired = 0
    rng = random.Random(3)
    for seed in range(1, 60):
        played = randomly_played(solitaire.new_game("josephine", seed=seed), rng, 30, 200)
        model = KlondikeModel(played)
        root, _made = model.settle(model.start(played))
        fast, reference = search_both_ways(played, 1, "depth")
        assert fast == reference, seed
        # One position counted: a root with no moves is proved lost, as Python proves it.
        if model.space_bound(root):
            fired += 1
            assert fast[0] == "unsolvable", seed
    assert fired >= 1


def test_the_hints_searches_are_the_same_in_c_for_josephine() -> None:
    """``search_from`` (each of the hint's searches) from positions of played Josephine
    games: the same answer, score and line either way."""
    rng = random.Random(8)
    for seed in range(1, 9):
        state = randomly_played(solitaire.new_game("josephine", seed=seed), rng, 0, 60)
        model = KlondikeModel(state)
        root = model.start(state)
        fast = search_from(model, root, 2000, depth_first_nodes=500)
        reference = search_from(model, root, 2000, depth_first_nodes=500, native=False)
        assert fast == reference, seed


def test_solve_gives_the_same_answer_with_either_search() -> None:
    """Through ``solve`` (Josephine's short depth-first probe, then best-first), the C
    searches and the Python ones reach the same verdict with the same line."""
    for seed in (1, 2, 3, 187):
        state = solitaire.new_game("josephine", seed=seed)
        runs = [
            solitaire.solve(state, timeout=600, max_nodes=30_000, depth_first_nodes=3000, native=native)
            for native in (True, False)
        ]
        fast, reference = runs
        assert (fast.status, fast.moves, fast.nodes) == (reference.status, reference.moves, reference.nodes)


def test_a_malformed_josephine_position_or_weights_are_refused_not_searched() -> None:
    state = solitaire.new_game("josephine", seed=1)
    model = KlondikeModel(state)
    assert model.native is not None
    found, piles, talon, w, passes = model.start(state)
    bad_positions = [
        (found[:4], piles, talon, w, passes),  # one pack's foundations
        (b"\x02\x01" + found[2:], piles, talon, w, passes),  # a suit's slots out of order
        (found, piles, talon, w, 1),  # the single pass already ended
        (found, piles[:9], talon, w, passes),
        (found, piles, talon + talon[:1], w, passes),  # more talon than the search holds
    ]
    for position in bad_positions:
        with pytest.raises(ValueError):
            model.native_best_first(position, 10, 1e9, time.perf_counter)
        with pytest.raises(ValueError):
            model.native_depth_first(position, 10, 1e9, time.perf_counter)
    native = solver_klondike._NATIVE
    with pytest.raises(ValueError):
        native.best_first(model.native, model.start(state), 10, 1e9, time.perf_counter, tuple(range(9)))
    with pytest.raises(TypeError):
        native.best_first(model.native, model.start(state), 10, 1e9, time.perf_counter, [2, 10, 6, 0])
