"""When a game is over: positions that once fooled the search, pinned, and the exact
ending (``solitaire.endings``) checked against a plain uncapped search on random play."""

from __future__ import annotations

import random
from typing import Any

import pytest

import solitaire
from solitaire.endings import is_over_exact, is_stuck_exact
from tests.engine.conftest import suit_run

# The plain reference search stops here; a corpus position that needs more would show
# as a disagreement only if the fast answer said "over".
PLAIN_LIMIT = 200_000


def test_a_position_that_auto_finish_can_win_is_not_over_even_with_nothing_hidden() -> None:
    state = solitaire.load(
        "klondike",
        {"f1": ["AH", "2H"], "t1": ["5H", "4H", "3H"], "t2": ["7H", "6H"]},
        draw=1,
    )
    assert state.can_auto_finish
    assert not state.is_over


def test_a_long_chain_of_foundation_moves_that_frees_the_waste_card_is_not_the_end() -> None:
    # Found by random play: JH in the waste can go up only after some twenty foundation
    # moves, and thousands of tableau shuffles sit in between.
    position = {
        "f1": ["AH", "2H"],
        "f2": ["AD"],
        "f3": ["AS", "2S"],
        "waste": ["JH"],
        "t1": ["KC", "QH", "JC", "10D", "9C", "8H", "7C", "6D", "5S", "4H", "3S", "2D", "AC"],
        "t2": ["KD"],
        "t3": ["KS", "QD", "JS", "10H", "9S"],
        "t4": ["7H", "6S", "5H", "4S", "3D"],
        "t5": ["10s", "7S", "6H", "5C", "4D", "3C"],
        "t6": ["KH", "QC", "JD", "10C", "9H"],
        "t7": ["8d", "8c", "Qs", "9D", "8S", "7D", "6C", "5D", "4C", "3H", "2C"],
        "passes": 2,
    }
    assert not solitaire.load("klondike", position, draw=1, passes=3).is_over


def test_a_waste_card_with_no_place_ever_and_no_passes_left_is_the_end() -> None:
    position = {
        "f1": ["AH"],
        "waste": ["10D"],
        "t1": ["9c", "QH"],
        "passes": 0,
    }
    state = solitaire.load("klondike", position, draw=1, passes=1)
    assert state.is_over and not state.is_won


def test_auto_finish_is_not_offered_when_a_suit_lacks_its_lower_cards() -> None:
    state = solitaire.load("klondike", {"f1": ["AH"], "t1": ["5H", "3H", "2H"]}, draw=1)
    assert not state.can_auto_finish


# --- exact endings (solitaire.endings) ------------------------------------------------


def test_exact_a_foundation_move_that_still_scores_means_not_over() -> None:
    # 2H can go up (and come back down): with cards allowed back the game's own progress
    # measures leave foundations out, but a card going up still scores.
    position = {"f1": ["AH"], "t1": ["2H"], "t2": ["QS"]}
    state = solitaire.load("klondike", position, draw=1)
    assert not is_over_exact(state)
    up = state.apply({"from": "t1", "to": "f1"})
    assert is_over_exact(up) and not up.is_won


def test_exact_agrees_on_the_positions_pinned_above() -> None:
    lost = solitaire.load("klondike", {"f1": ["AH"], "waste": ["10D"], "t1": ["9c", "QH"]}, draw=1, passes=1)
    assert is_over_exact(lost)
    finishing = solitaire.load(
        "klondike", {"f1": ["AH", "2H"], "t1": ["5H", "4H", "3H"], "t2": ["7H", "6H"]}, draw=1
    )
    assert not is_over_exact(finishing)


def test_exact_a_won_game_is_over() -> None:
    won = solitaire.load("klondike", {f"f{i + 1}": suit_run(s) for i, s in enumerate("CDHS")})
    assert is_over_exact(won)


def test_exact_a_game_is_never_over_before_the_stock_has_been_seen() -> None:
    assert not is_over_exact(solitaire.new_game("klondike", seed=2, draw=3))


def random_positions(game: str, options: dict[str, Any], seeds: range, steps: int) -> list[Any]:
    """Positions from random play (leaning to moves off the stock, so that games get
    stuck): every 25th position of each game, and its last."""
    chooser = random.Random(11)
    positions: list[Any] = []
    for seed in seeds:
        state = solitaire.new_game(game, seed=seed, **options)
        for step in range(steps):
            moves = state.legal_moves()
            if not moves:
                break
            off_stock = [m for m in moves if m.source != "stock" and m.target != "stock"]
            state = state.apply(chooser.choice(off_stock if off_stock and chooser.random() < 0.7 else moves))
            if step % 25 == 24:
                positions.append(state)
        positions.append(state)
    return positions


CORPUS: list[tuple[str, dict[str, Any], range, int]] = [
    ("klondike", {"draw": 1}, range(1, 11), 300),
    ("klondike", {"draw": 3}, range(1, 31), 300),
    ("klondike", {"draw": 1, "passes": 2}, range(1, 11), 200),
    ("klondike", {"draw": 3, "foundation_to_tableau": False}, range(1, 11), 200),
    ("josephine", {}, range(1, 6), 200),
    ("casket", {}, range(1, 6), 200),
    ("double", {}, range(1, 4), 200),
]


@pytest.mark.parametrize(("game", "options", "seeds", "steps"), CORPUS, ids=lambda v: str(v))
def test_exact_with_its_shortcuts_agrees_with_the_plain_uncapped_search(
    game: str, options: dict[str, Any], seeds: range, steps: int
) -> None:
    # The probes and the relaxation may only ever answer sooner, never differently.
    over = 0
    for state in random_positions(game, options, seeds, steps):
        for seat in state.rules.seats():
            fast = is_stuck_exact(state, seat)
            assert fast == is_stuck_exact(state, seat, probes=False), (repr(state), seat)
            over += fast
    if options == {"draw": 3}:
        assert over > 20  # the corpus does hold stuck games to judge


def test_exact_a_card_that_can_still_go_up_is_not_the_end() -> None:
    # From random play: the capped ``is_over`` called this over, but the 3H can still go
    # up (and score); once it has, nothing more can happen (the 3C lies at a waste place
    # that draw three never turns up).
    position = {
        "f1": ["AD", "2D", "3D", "4D"],
        "f2": ["AC", "2C"],
        "f3": ["AS", "2S"],
        "f4": ["AH", "2H"],
        "waste": [
            "9C",
            "3S",
            "6D",
            "7D",
            "5D",
            "9H",
            "JS",
            "10D",
            "10H",
            "3C",
            "QD",
            "7C",
            "4H",
            "JH",
            "10C",
        ],
        "t1": ["KC", "QH"],
        "t2": ["KH"],
        "t4": ["Qs", "Jc", "5c", "JD", "10S", "9D", "8S", "7H", "6S", "5H", "4C", "3H"],
        "t5": ["9s", "Ks", "Qc", "4S"],
        "t7": ["5s", "6c", "Kd", "8h", "8c", "8D", "7S", "6H"],
        "passes": 1,
    }
    state = solitaire.load("klondike", position, draw=3)
    assert not is_over_exact(state)
    assert is_over_exact(state.apply({"from": "t4", "to": "f4"}))


def test_endings_corpus_command_reports_agreement(capsys: pytest.CaptureFixture[str]) -> None:
    from solitaire.tools.endings import main

    assert main(["--games", "2", "--steps", "60"]) == 0
    out = capsys.readouterr().out
    assert "exact vs plain search disagree 0" in out and "p99" in out
    # One line per option set, each with the hot path's own timing.
    assert out.count("hot path quick_over p99") == out.count("exact vs plain search disagree") > 1
