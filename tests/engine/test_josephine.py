"""Josephine: the twelve worked examples of shared/rules/josephine.txt, one test each, and
one test per rule sentence, played on positions built with ``load``.

These tests must not depend on the shuffle; dealt games are used only for the layout.
"""

from __future__ import annotations

from typing import Any

import solitaire
from tests.engine.conftest import (
    ONE_DECK,
    allowed,
    card_counts,
    faces,
    is_face_down,
    moves_of,
    pile,
    play,
    refused,
    suit_run,
)


def josephine(position: dict[str, Any]) -> Any:
    return solitaire.load("josephine", position)


# --- The twelve worked examples ----------------------------------------------------------


def test_example_1_ace_of_hearts_starts_an_empty_foundation_then_two_and_three_follow() -> None:
    state = josephine({"t1": ["3H"], "t2": ["2H"], "t3": ["AH"], "t4": ["KS"]})
    state = allowed(state, "t3", "f1")
    state = allowed(state, "t2", "f1")
    state = allowed(state, "t1", "f1")
    assert pile(state, "f1") == ["AH", "2H", "3H"]


def test_example_2_seven_of_clubs_goes_on_eight_of_clubs() -> None:
    state = allowed(josephine({"t1": ["7C"], "t2": ["8C"]}), "t1", "t2")
    assert pile(state, "t2") == ["8C", "7C"]


def test_example_3_seven_of_hearts_cannot_go_on_eight_of_clubs() -> None:
    error = refused(josephine({"t1": ["7H"], "t2": ["8C"]}), "t1", "t2")
    assert "7H" in str(error) and "8C" in str(error), f"say which cards: {error}"


def test_example_4_nine_eight_seven_of_diamonds_move_together_onto_ten_of_diamonds() -> None:
    state = josephine({"t1": ["KS", "9D", "8D", "7D"], "t2": ["10D"]})
    state = allowed(state, "t1", "t2", 3)
    assert pile(state, "t2") == ["10D", "9D", "8D", "7D"]
    assert pile(state, "t1") == ["KS"]


def test_example_5_nine_eight_of_spades_and_seven_of_clubs_cannot_move_together() -> None:
    refused(josephine({"t1": ["KH", "9S", "8S", "7C"], "t2": ["10S"]}), "t1", "t2", 3)


def test_example_6_queen_of_hearts_fills_an_empty_tableau_pile() -> None:
    state = allowed(josephine({"t1": ["3C", "QH"], "t2": []}), "t1", "t2")
    assert pile(state, "t2") == ["QH"]


def test_example_7_jack_ten_nine_of_clubs_fill_an_empty_tableau_pile_together() -> None:
    state = allowed(josephine({"t1": ["4D", "JC", "10C", "9C"]}), "t1", "t2", 3)
    assert pile(state, "t2") == ["JC", "10C", "9C"]
    assert pile(state, "t1") == ["4D"]


def test_example_8_six_of_spades_from_the_waste_goes_on_seven_of_spades() -> None:
    state = allowed(josephine({"waste": ["6S"], "t1": ["7S"]}), "waste", "t1")
    assert pile(state, "t1") == ["7S", "6S"]
    assert pile(state, "waste") == []


def test_example_9_four_of_spades_from_the_waste_goes_on_ace_two_three_of_spades() -> None:
    state = josephine({"waste": ["4S"], "f1": suit_run("S", "A", "3"), "t1": ["KD"]})
    state = allowed(state, "waste", "f1")
    assert pile(state, "f1") == suit_run("S", "A", "4")


def test_example_10_nine_of_hearts_on_the_waste_cannot_be_played() -> None:
    position: dict[str, Any] = {
        "waste": ["9H"],
        "f1": suit_run("H", "A", "7"),
        "f2": ["AH"],
        "stock": ["5C"],
    }
    # Every tableau pile is occupied, and none ends with the 10 of hearts.
    tops = ["10S", "JH", "KH", "10C", "8H", "2D", "QS", "5C", "7C", "9D"]
    position |= {f"t{n}": [top] for n, top in enumerate(tops, start=1)}
    state = josephine(position)
    for target in (*(f"t{n}" for n in range(1, 11)), *(f"f{n}" for n in range(1, 9))):
        refused(state, "waste", target)
    assert not [move for move in moves_of(state) if move["from"] == "waste"]


def test_example_11_only_the_available_card_can_be_moved() -> None:
    # King of clubs, 5 of hearts and 4 of hearts, with the 4 of hearts available on top.
    state = josephine({"t1": ["KC", "5H", "4H"], "t2": ["6H"], "t3": ["QS"]})
    refused(state, "t1", "t4", 3)  # the King is covered: it cannot take the hearts along
    refused(state, "t1", "t3", 3)
    state = allowed(state, "t1", "t4")
    assert pile(state, "t4") == ["4H"]


def test_example_12_king_of_clubs_completes_a_club_foundation() -> None:
    state = josephine({"f1": suit_run("C", "A", "Q"), "t1": ["KC"]})
    state = allowed(state, "t1", "f1")
    assert pile(state, "f1") == suit_run("C")
    assert state.is_won, "every card of this position is on the foundations"


# --- Setting up ------------------------------------------------------------------------


def test_deal_uses_two_packs_of_104_cards() -> None:
    position = solitaire.new_game("josephine", seed=1).to_position()
    assert card_counts(position, "josephine") == dict.fromkeys(ONE_DECK, 2)


def test_deal_lays_ten_piles_of_four_cards_all_face_up() -> None:
    position = solitaire.new_game("josephine", seed=2).to_position()
    for number in range(1, 11):
        cards = position[f"t{number}"]
        assert len(cards) == 4
        assert not any(is_face_down(card) for card in cards)


def test_deal_leaves_64_cards_in_the_stock_and_eight_empty_foundations() -> None:
    position = solitaire.new_game("josephine", seed=3).to_position()
    assert len(position["stock"]) == 64
    for number in range(1, 9):
        assert position.get(f"f{number}", []) == []
    assert position.get("waste", []) == []


def test_view_shows_every_tableau_card_and_only_a_count_of_the_stock() -> None:
    state = solitaire.new_game("josephine", seed=4)
    piles = state.view()["piles"]
    assert piles["stock"] == 64
    assert all(card is not None for n in range(1, 11) for card in piles[f"t{n}"])


def test_view_does_not_tell_whether_unseen_stock_cards_will_play() -> None:
    # Two positions that differ only in face-down stock cards must look the same.
    tops = ["2S", "QD", "4C", "6H", "8S", "10D", "KC", "3H", "7D", "JS"]
    tableau: dict[str, Any] = {f"t{n}": [top] for n, top in enumerate(tops, start=1)}
    dead = josephine(tableau | {"stock": ["9H", "5C"]})
    live = josephine(tableau | {"stock": ["9H", "AC"]})
    assert dead.view() == live.view()


def test_josephine_keeps_no_score() -> None:
    assert solitaire.new_game("josephine", seed=4).score is None


# --- How the game is played ------------------------------------------------------------


def test_foundation_must_begin_with_an_ace() -> None:
    refused(josephine({"t1": ["2H"], "t2": ["KS"]}), "t1", "f1")


def test_any_ace_goes_to_any_of_the_eight_empty_foundations() -> None:
    for number in range(1, 9):
        allowed(josephine({"t1": ["AD"], "t2": ["KS"]}), "t1", f"f{number}")


def test_foundation_builds_up_in_the_same_suit() -> None:
    refused(josephine({"t1": ["2D"], "f1": ["AH"], "t2": ["KS"]}), "t1", "f1")
    refused(josephine({"t1": ["3H"], "f1": ["AH"], "t2": ["KS"]}), "t1", "f1")


def test_both_aces_of_a_suit_start_their_own_foundations() -> None:
    state = josephine({"t1": ["AH"], "t2": ["AH"], "t3": ["KS"]})
    state = play(state, "t1", "f1")
    refused(state, "t2", "f1")
    state = allowed(state, "t2", "f2")
    assert pile(state, "f1") == pile(state, "f2") == ["AH"]


def test_tableau_builds_down_in_the_same_suit_not_in_alternating_colours() -> None:
    refused(josephine({"t1": ["7D"], "t2": ["8C"]}), "t1", "t2")


def test_tableau_builds_down_by_exactly_one_rank() -> None:
    refused(josephine({"t1": ["6C"], "t2": ["8C"]}), "t1", "t2")
    refused(josephine({"t1": ["9C"], "t2": ["8C"]}), "t1", "t2")


def test_one_available_card_moves_from_pile_to_pile() -> None:
    state = allowed(josephine({"t1": ["9D", "8D", "7D"], "t2": ["8D"]}), "t1", "t2")
    assert pile(state, "t2") == ["8D", "7D"]


def test_empty_pile_takes_any_card_from_the_waste() -> None:
    state = allowed(josephine({"waste": ["5D"], "t1": ["KS"]}), "waste", "t2")
    assert pile(state, "t2") == ["5D"]


def test_stock_turns_one_card_at_a_time_face_up_onto_the_waste() -> None:
    state = allowed(josephine({"stock": ["2C", "3C", "4C"], "t1": ["KS"]}), "stock", "waste")
    assert faces(state, "waste") == ["4C"]
    assert faces(state, "stock") == ["2C", "3C"]
    assert state.view()["piles"]["waste"] == ["4C"]


def test_only_the_top_waste_card_can_be_played() -> None:
    state = josephine({"waste": ["6S", "9H"], "t1": ["7S"]})
    refused(state, "waste", "t1", 2)
    refused(state, "waste", "t1")


def test_one_pass_through_the_stock_with_no_redeal() -> None:
    state = josephine({"stock": ["2C"], "t1": ["KS"]})
    state = play(state, "stock", "waste")
    refused(state, "waste", "stock")


def test_game_is_won_when_all_104_cards_are_on_the_eight_foundations() -> None:
    position: dict[str, Any] = {}
    for number, suit in enumerate("CDHSCDHS", start=1):
        position[f"f{number}"] = suit_run(suit)
    position["f8"] = suit_run("S", "A", "Q")
    position["waste"] = ["KS"]
    state = josephine(position)
    assert not state.is_won
    state = allowed(state, "waste", "f8")
    assert state.is_won and state.is_over


def test_game_with_the_stock_gone_and_no_moves_left_is_over_and_lost() -> None:
    # Ten single cards, none one rank below another of its suit, and a dead waste card.
    tops = ["2S", "QD", "4C", "6H", "8S", "10D", "KC", "3H", "7D", "JS"]
    position: dict[str, Any] = {f"t{n}": [top] for n, top in enumerate(tops, start=1)}
    state = josephine(position | {"waste": ["9H", "5C"]})
    assert state.is_over
    assert not state.is_won
    assert moves_of(state) == []


# --- Choices where the rule book is silent (docs/rules.md) --------------------------------


def test_lower_part_of_an_in_suit_run_may_move() -> None:
    state = allowed(josephine({"t1": ["KS", "9D", "8D", "7D"], "t2": ["9D"]}), "t1", "t2", 2)
    assert pile(state, "t2") == ["9D", "8D", "7D"]
    assert pile(state, "t1") == ["KS", "9D"]


def test_foundation_cards_do_not_come_back_to_the_tableau() -> None:
    refused(josephine({"f1": suit_run("H", "A", "5"), "t1": ["6H"]}), "f1", "t1")
