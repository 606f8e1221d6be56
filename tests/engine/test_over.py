"""When a game is over: positions that once fooled the search, pinned."""

from __future__ import annotations

import solitaire


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
