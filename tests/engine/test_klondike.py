"""Klondike: one test per sentence of the rule book (shared/rules/klondike.txt), its variants
and its scoring table, played on small positions built with ``load``.

These tests must not depend on the shuffle; the only dealt games used here check the
shape of the layout, never which cards land where.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

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


def klondike(position: dict[str, Any], **options: Any) -> Any:
    return solitaire.load("klondike", position, **options)


def score_after(state: Any, *moves: tuple[Any, ...]) -> int:
    for move in moves:
        state = play(state, *move)
    return int(state.score)


# --- The layout ---------------------------------------------------------------------


def test_deal_lays_out_seven_piles_of_one_to_seven_cards_with_only_the_top_face_up() -> None:
    state = solitaire.new_game("klondike", seed=11)
    position = state.to_position()
    for number in range(1, 8):
        cards = position[f"t{number}"]
        assert len(cards) == number
        assert not is_face_down(cards[-1]), f"t{number}'s top card must be face up"
        assert all(is_face_down(card) for card in cards[:-1]), f"t{number} shows too much"


def test_deal_uses_28_cards_21_face_down_and_leaves_24_in_the_stock() -> None:
    position = solitaire.new_game("klondike", seed=12).to_position()
    tableau = [card for n in range(1, 8) for card in position[f"t{n}"]]
    assert len(tableau) == 28
    assert sum(is_face_down(card) for card in tableau) == 21
    assert len(position["stock"]) == 24


def test_deal_starts_with_empty_waste_and_empty_foundations() -> None:
    position = solitaire.new_game("klondike", seed=13).to_position()
    for pile_id in ("waste", "f1", "f2", "f3", "f4"):
        assert position.get(pile_id, []) == []


def test_deal_uses_one_pack_of_52_cards_without_jokers() -> None:
    position = solitaire.new_game("klondike", seed=14).to_position()
    assert card_counts(position, "klondike") == dict.fromkeys(ONE_DECK, 1)


# --- Building on the tableau -----------------------------------------------------------


def test_red_nine_goes_on_black_ten() -> None:
    state = allowed(klondike({"t1": ["9H"], "t2": ["10S"]}), "t1", "t2")
    assert pile(state, "t2") == ["10S", "9H"]
    assert pile(state, "t1") == []


def test_black_eight_goes_on_that_red_nine() -> None:
    state = allowed(klondike({"t1": ["8C"], "t2": ["10S", "9H"]}), "t1", "t2")
    assert pile(state, "t2") == ["10S", "9H", "8C"]


def test_red_nine_cannot_go_on_red_ten() -> None:
    refused(klondike({"t1": ["9H"], "t2": ["10D"]}), "t1", "t2")


def test_black_eight_cannot_go_on_black_nine() -> None:
    refused(klondike({"t1": ["8C"], "t2": ["9S"]}), "t1", "t2")


def test_card_must_be_exactly_one_rank_lower() -> None:
    refused(klondike({"t1": ["8H"], "t2": ["10S"]}), "t1", "t2")
    refused(klondike({"t1": ["10H"], "t2": ["9S"]}), "t1", "t2")


def test_ace_goes_on_a_two_of_the_other_colour() -> None:
    allowed(klondike({"t1": ["AH"], "t2": ["2S"]}), "t1", "t2")


def test_king_does_not_wrap_onto_an_ace() -> None:
    refused(klondike({"t1": ["KS"], "t2": ["AH"]}), "t1", "t2")


def test_face_up_card_takes_the_run_on_top_of_it_along() -> None:
    state = klondike({"t1": ["5c", "9H", "8C", "7D"], "t2": ["10S"]})
    state = allowed(state, "t1", "t2", 3)
    assert pile(state, "t2") == ["10S", "9H", "8C", "7D"]


def test_only_part_of_a_sequence_may_move() -> None:
    state = klondike({"t1": ["5c", "9H", "8C", "7D"], "t2": ["9D"]})
    state = allowed(state, "t1", "t2", 2)
    assert pile(state, "t2") == ["9D", "8C", "7D"]
    assert pile(state, "t1") == ["5c", "9H"]


def test_cards_that_do_not_alternate_in_colour_cannot_move_together() -> None:
    refused(klondike({"t1": ["5c", "9H", "8H"], "t2": ["10S"]}), "t1", "t2", 2)


def test_cards_that_do_not_run_down_cannot_move_together() -> None:
    refused(klondike({"t1": ["5c", "9H", "7C"], "t2": ["10S"]}), "t1", "t2", 2)


def test_face_down_card_cannot_be_moved() -> None:
    refused(klondike({"t1": ["7c", "5H"], "t2": ["8D"], "t3": ["6S"]}), "t1", "t2", 2)


def test_move_count_larger_than_the_pile_is_refused() -> None:
    state = klondike({"t1": ["9H"], "t2": ["10S"]})
    with pytest.raises(ValueError):
        state.apply({"from": "t1", "to": "t2", "count": 2})


def test_move_that_leaves_a_face_down_card_on_top_turns_it_face_up() -> None:
    state = play(klondike({"t1": ["3d", "5c", "9H"], "t2": ["10S"]}), "t1", "t2")
    assert pile(state, "t1") == ["3d", "5C"]


def test_only_a_king_may_fill_an_empty_pile() -> None:
    state = klondike({"t1": ["QH"], "t2": ["KS"], "t3": []})
    refused(state, "t1", "t3")
    state = allowed(state, "t2", "t3")
    assert pile(state, "t3") == ["KS"]


def test_sequence_headed_by_a_king_may_fill_an_empty_pile() -> None:
    state = allowed(klondike({"t1": ["3c", "KS", "QH", "JC"]}), "t1", "t2", 3)
    assert pile(state, "t2") == ["KS", "QH", "JC"]
    assert pile(state, "t1") == ["3C"]


def test_sequence_headed_by_a_queen_cannot_fill_an_empty_pile() -> None:
    refused(klondike({"t1": ["3c", "KS", "QH", "JC"]}), "t1", "t2", 2)


def test_waste_queen_cannot_fill_an_empty_pile() -> None:
    refused(klondike({"waste": ["QH"], "t1": ["2c"]}), "waste", "t2")


# --- The stock and the waste -------------------------------------------------------------


def test_draw_one_turns_one_card_onto_the_waste() -> None:
    state = allowed(klondike({"stock": ["2C", "3C", "4C"]}, draw=1), "stock", "waste")
    assert faces(state, "waste") == ["4C"]
    assert faces(state, "stock") == ["2C", "3C"]


def test_draw_three_turns_three_cards_keeping_their_order() -> None:
    state = allowed(klondike({"stock": ["2C", "3C", "4C", "5C"]}, draw=3), "stock", "waste")
    assert faces(state, "waste") == ["5C", "4C", "3C"], "the third card turned lies on top"
    assert faces(state, "stock") == ["2C"]


def test_draw_three_with_fewer_than_three_left_turns_them_all() -> None:
    state = allowed(klondike({"stock": ["2C", "3C"], "waste": ["9D"]}, draw=3), "stock", "waste")
    assert faces(state, "waste") == ["9D", "3C", "2C"]
    assert faces(state, "stock") == []


def test_draw_of_three_leaves_the_same_waste_as_three_draws_of_one() -> None:
    position = {"stock": ["2C", "3C", "4C", "5C", "6C"], "t1": ["KD"]}
    three = play(klondike(position, draw=3), "stock", "waste")
    one = klondike(position, draw=1)
    for _ in range(3):
        one = play(one, "stock", "waste")
    assert faces(three, "waste") == faces(one, "waste")
    assert faces(three, "stock") == faces(one, "stock")


def test_draw_three_only_the_top_waste_card_can_be_played() -> None:
    state = klondike({"waste": ["5C", "4C", "3C"], "t1": ["4D"], "t2": ["5H"]}, draw=3)
    refused(state, "waste", "t2", 2)
    refused(state, "waste", "t2")  # 3C does not go on 5H: 4C beneath it is not available
    state = allowed(state, "waste", "t1")
    assert pile(state, "t1") == ["4D", "3C"]


def test_playing_the_top_waste_card_makes_the_card_beneath_available() -> None:
    state = klondike({"waste": ["5C", "4C", "3C"], "t1": ["4D"], "t2": ["5H"]}, draw=3)
    state = play(state, "waste", "t1")
    state = allowed(state, "waste", "t2")
    assert pile(state, "t2") == ["5H", "4C"]
    assert faces(state, "waste") == ["5C"]


def test_top_waste_card_goes_on_a_tableau_pile_where_it_fits() -> None:
    state = allowed(klondike({"waste": ["9H"], "t1": ["10C"]}), "waste", "t1")
    assert pile(state, "t1") == ["10C", "9H"]


def test_top_waste_card_goes_on_a_foundation_where_it_fits() -> None:
    state = allowed(klondike({"waste": ["2H"], "f1": ["AH"]}), "waste", "f1")
    assert pile(state, "f1") == ["AH", "2H"]


def test_empty_stock_is_made_again_by_turning_the_waste_over_without_shuffling() -> None:
    state = allowed(klondike({"waste": ["2C", "3C", "4C"], "t1": ["KD"]}, draw=1), "waste", "stock")
    assert faces(state, "waste") == []
    assert faces(state, "stock") == ["4C", "3C", "2C"], "the first card turned comes up first"


def test_turning_the_waste_over_deals_the_same_cards_in_the_same_order_as_the_pass_before() -> None:
    state = klondike({"stock": ["2C", "3C", "4C", "5C", "6C"], "t1": ["KD"]}, draw=1)
    first_pass = []
    for _ in range(5):
        state = play(state, "stock", "waste")
        first_pass.append(faces(state, "waste")[-1])
    state = allowed(state, "waste", "stock")
    second_pass = []
    for _ in range(5):
        state = play(state, "stock", "waste")
        second_pass.append(faces(state, "waste")[-1])
    assert second_pass == first_pass == ["6C", "5C", "4C", "3C", "2C"]


def test_draw_three_pass_with_no_plays_brings_up_the_same_groups_of_three() -> None:
    stock = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]
    state = klondike({"stock": stock, "t1": ["KD"]}, draw=3)

    def one_pass(state: Any) -> tuple[Any, list[list[str]]]:
        groups = []
        while pile(state, "stock"):
            before = len(pile(state, "waste"))
            state = play(state, "stock", "waste")
            groups.append(faces(state, "waste")[before:])
        return state, groups

    state, first = one_pass(state)
    state = play(state, "waste", "stock")
    _state, second = one_pass(state)
    assert first == second == [["9C", "8C", "7C"], ["6C", "5C", "4C"], ["3C", "2C"]]


def test_you_may_go_through_the_stock_as_often_as_you_like() -> None:
    state = klondike({"stock": ["2C"], "t1": ["KD"]}, draw=1, scoring=None)
    for _ in range(6):
        state = play(state, "stock", "waste")
        state = allowed(state, "waste", "stock")
    assert faces(state, "stock") == ["2C"]


def test_waste_is_turned_over_only_when_the_stock_has_run_out() -> None:
    refused(klondike({"stock": ["2C"], "waste": ["3C"], "t1": ["KD"]}), "waste", "stock")


def test_nothing_to_turn_over_when_stock_and_waste_are_empty() -> None:
    refused(klondike({"t1": ["KD"], "t2": ["5C"]}), "waste", "stock")


def test_cannot_draw_from_an_empty_stock() -> None:
    refused(klondike({"waste": ["3C"], "t1": ["KD"]}), "stock", "waste")


def test_cards_cannot_be_put_back_on_the_stock_or_waste() -> None:
    state = klondike({"stock": ["2C"], "waste": ["3C"], "t1": ["KD", "QS"]})
    refused(state, "t1", "waste")
    refused(state, "t1", "stock")


# --- The foundations ------------------------------------------------------------------


@pytest.mark.parametrize("foundation", ["f1", "f2", "f3", "f4"])
def test_any_ace_goes_into_any_empty_foundation(foundation: str) -> None:
    state = allowed(klondike({"t1": ["AH"], "t2": ["KS"]}), "t1", foundation)
    assert pile(state, foundation) == ["AH"]


def test_foundation_must_start_with_an_ace() -> None:
    refused(klondike({"t1": ["2H"], "t2": ["KS"]}), "t1", "f1")


def test_foundation_takes_the_two_of_the_same_suit_on_its_ace() -> None:
    allowed(klondike({"t1": ["2H"], "f1": ["AH"], "t2": ["KS"]}), "t1", "f1")


def test_foundation_refuses_a_card_of_another_suit() -> None:
    refused(klondike({"t1": ["2D"], "f1": ["AH"], "t2": ["KS"]}), "t1", "f1")


def test_foundation_refuses_a_card_that_skips_a_rank() -> None:
    refused(klondike({"t1": ["3H"], "f1": ["AH"], "t2": ["KS"]}), "t1", "f1")


def test_foundation_builds_all_the_way_up_to_the_king() -> None:
    state = allowed(klondike({"t1": ["KH"], "f1": suit_run("H", "A", "Q")}), "t1", "f1")
    assert pile(state, "f1") == suit_run("H")


def test_foundation_takes_cards_one_at_a_time() -> None:
    state = klondike({"t1": ["3H", "2H"], "f1": ["AH"], "t2": ["KS"]})
    refused(state, "t1", "f1", 2)
    state = allowed(state, "t1", "f1")
    state = allowed(state, "t1", "f1")
    assert pile(state, "f1") == ["AH", "2H", "3H"]


def test_only_the_top_card_of_a_tableau_pile_goes_to_a_foundation() -> None:
    refused(klondike({"t1": ["2H", "KS"], "f1": ["AH"]}), "t1", "f1", 2)


def test_foundation_top_card_may_move_back_down_to_the_tableau() -> None:
    state = klondike({"f1": suit_run("H", "A", "5"), "t1": ["6S"]})
    state = allowed(state, "f1", "t1")
    assert pile(state, "t1") == ["6S", "5H"]
    assert pile(state, "f1") == suit_run("H", "A", "4")


def test_foundation_card_moved_back_must_fit_where_it_goes() -> None:
    refused(klondike({"f1": suit_run("H", "A", "5"), "t1": ["6D"]}), "f1", "t1")


def test_foundation_card_moves_back_one_at_a_time() -> None:
    refused(klondike({"f1": suit_run("H", "A", "5"), "t1": ["7C"]}), "f1", "t1", 2)


def test_foundation_king_may_move_back_to_an_empty_pile_but_a_queen_may_not() -> None:
    allowed(klondike({"f1": suit_run("H"), "t1": ["5C"]}), "f1", "t2")
    refused(klondike({"f1": suit_run("H", "A", "Q"), "t1": ["5C"]}), "f1", "t2")


def test_cards_do_not_move_from_one_foundation_to_another() -> None:
    refused(klondike({"f1": ["AH"], "t1": ["5C"]}), "f1", "f2")


# --- Winning and losing ------------------------------------------------------------------


def test_game_is_won_when_all_52_cards_are_on_the_foundations() -> None:
    position = {
        "f1": suit_run("C"),
        "f2": suit_run("D"),
        "f3": suit_run("H"),
        "f4": suit_run("S", "A", "Q"),
        "waste": ["KS"],
    }
    state = klondike(position)
    assert not state.is_won and not state.is_over
    state = allowed(state, "waste", "f4")
    assert state.is_won
    assert state.is_over


def test_game_in_progress_is_neither_won_nor_over() -> None:
    state = solitaire.new_game("klondike", seed=5)
    assert not state.is_won
    assert not state.is_over


def test_game_is_lost_once_through_the_stock_with_no_move_changing_anything() -> None:
    # Nothing in the stock fits anywhere and the tableau is frozen: drawing and turning the
    # waste over repeat forever without changing anything.
    state = klondike({"stock": ["9D", "5H"], "t1": ["2C"], "t2": ["QC"]}, draw=1)
    for _ in range(2):
        state = play(state, "stock", "waste")
    state = play(state, "waste", "stock")
    assert state.is_over
    assert not state.is_won


def test_game_with_passes_used_up_and_nothing_to_play_is_over() -> None:
    state = klondike({"stock": ["9D"], "t1": ["2C"]}, draw=1, passes=1)
    state = play(state, "stock", "waste")
    assert state.is_over
    assert not state.is_won


def test_game_with_no_progress_left_among_thousands_of_reversible_moves_is_over() -> None:
    # Reached by random play (seed 2, draw 1, three passes). The passes are used up, no
    # face-down card can ever be turned and no waste card can ever be played; the only
    # moves left shuttle cards between tableau piles and on and off the foundations, and
    # no sequence of them gets more than these eight cards up. More than 30,000 positions
    # are reachable that way, so a search that gives up early calls this "not over".
    position = {
        "f1": ["AS", "2S", "3S"],
        "f2": ["AD"],
        "f3": ["AC", "2C"],
        "f4": ["AH", "2H"],
        "waste": ["3H", "9D", "6D", "5C", "7C", "4S", "QS", "KS", "8S", "KD", "8D"],
        "t1": ["QH", "JC", "10D"],
        "t2": ["KC", "QD", "JS", "10H", "9C", "8H"],
        "t4": ["5h", "6c", "6h", "JD"],
        "t5": ["7h", "7s", "JH", "10S", "9H", "8C", "7D", "6S", "5D", "4C", "3D"],
        "t6": ["2d", "3c", "10c", "4D"],
        "t7": ["Kh", "Qc", "9s", "5S", "4H"],
        "passes": 2,
        "score": 35,
    }
    state = klondike(position, draw=1, passes=3)
    assert not state.is_won
    assert state.is_over


def test_passes_used_are_kept_in_the_position() -> None:
    state = klondike({"waste": ["2C"], "t1": ["KD"], "passes": 2}, draw=1, passes=3)
    refused(state, "waste", "stock")
    state = klondike({"waste": ["2C"], "t1": ["KD"], "passes": 1}, draw=1, passes=3)
    assert allowed(state, "waste", "stock").to_position()["passes"] == 2


# --- Keeping score -----------------------------------------------------------------------


def test_waste_to_tableau_scores_5() -> None:
    state = klondike({"waste": ["9H"], "t1": ["10C"], "score": 0})
    assert score_after(state, ("waste", "t1")) == 5


def test_waste_to_foundation_scores_10() -> None:
    state = klondike({"waste": ["AH"], "t1": ["10C"], "score": 0})
    assert score_after(state, ("waste", "f1")) == 10


def test_tableau_to_foundation_scores_10() -> None:
    state = klondike({"t1": ["10C", "AH"], "score": 0})
    assert score_after(state, ("t1", "f1")) == 10


def test_turning_a_tableau_card_face_up_scores_5() -> None:
    state = klondike({"t1": ["5c", "9H"], "t2": ["10S"], "score": 0})
    assert score_after(state, ("t1", "t2")) == 5


def test_tableau_to_foundation_that_turns_a_card_up_scores_15() -> None:
    state = klondike({"t1": ["5c", "AH"], "score": 0})
    assert score_after(state, ("t1", "f1")) == 15


def test_foundation_back_to_tableau_costs_15() -> None:
    state = klondike({"f1": suit_run("H", "A", "5"), "t1": ["6S"], "score": 100})
    assert score_after(state, ("f1", "t1")) == 85


def test_tableau_to_tableau_scores_nothing() -> None:
    state = klondike({"t1": ["KD", "9H"], "t2": ["10S"], "score": 40})
    assert score_after(state, ("t1", "t2")) == 40


def test_drawing_from_the_stock_scores_nothing() -> None:
    state = klondike({"stock": ["2C", "3C"], "t1": ["KD"], "score": 40}, draw=1)
    assert score_after(state, ("stock", "waste")) == 40


def test_turning_the_waste_over_in_draw_one_costs_100_each_time() -> None:
    state = klondike({"waste": ["2C"], "t1": ["KD"], "score": 300}, draw=1)
    state = play(state, "waste", "stock")
    assert state.score == 200
    state = play_draw_and_turn(state)
    assert state.score == 100


def play_draw_and_turn(state: Any) -> Any:
    while pile(state, "stock"):
        state = play(state, "stock", "waste")
    return play(state, "waste", "stock")


def test_turning_the_waste_over_in_draw_three_is_free_twice_then_costs_20_each_time() -> None:
    state = klondike({"waste": ["2C"], "t1": ["KD"], "score": 100}, draw=3)
    state = play(state, "waste", "stock")
    assert state.score == 100, "the first turn-over is free"
    state = play_draw_and_turn(state)
    assert state.score == 100, "the second turn-over is free"
    state = play_draw_and_turn(state)
    assert state.score == 80, "the third turn-over costs 20"
    state = play_draw_and_turn(state)
    assert state.score == 60, "and so does every one after it"


def test_score_never_drops_below_zero() -> None:
    state = klondike({"f1": suit_run("H", "A", "5"), "t1": ["6S"], "score": 10})
    assert score_after(state, ("f1", "t1")) == 0


def test_score_never_drops_below_zero_when_turning_the_waste_over() -> None:
    state = klondike({"waste": ["2C"], "t1": ["KD"], "score": 30}, draw=1)
    assert score_after(state, ("waste", "stock")) == 0


def test_stock_card_played_to_tableau_then_foundation_earns_15_in_all() -> None:
    state = klondike({"waste": ["2H"], "t1": ["3S"], "f1": ["AH"], "score": 0})
    assert score_after(state, ("waste", "t1"), ("t1", "f1")) == 15


def test_dealt_tableau_card_played_to_foundation_earns_only_10() -> None:
    state = klondike({"t1": ["3S", "2H"], "f1": ["AH"], "score": 0})
    assert score_after(state, ("t1", "f1")) == 10


def test_new_standard_game_starts_at_zero() -> None:
    assert solitaire.new_game("klondike", seed=3).score == 0


def test_game_without_scoring_keeps_no_score() -> None:
    state = solitaire.new_game("klondike", seed=3, scoring=None)
    assert state.score is None
    state = play(state, "stock", "waste")
    assert state.score is None


def test_vegas_scoring_starts_with_an_ante_of_52() -> None:
    assert solitaire.new_game("klondike", seed=3, scoring="vegas").score == -52


def test_vegas_scoring_pays_5_for_each_card_put_on_a_foundation() -> None:
    state = klondike({"waste": ["2H"], "t1": ["5c", "AH"], "t2": ["KS"]}, scoring="vegas")
    start = state.score
    state = play(state, "t1", "f1")
    assert state.score == start + 5
    state = play(state, "waste", "f1")
    assert state.score == start + 10


def test_vegas_scoring_pays_nothing_for_tableau_play_or_turning_cards_up() -> None:
    position = {"waste": ["9H"], "t1": ["5c", "9D"], "t2": ["10S"], "t3": ["10C"]}
    state = klondike(position, scoring="vegas")
    start = state.score
    state = play(state, "t1", "t2")
    state = play(state, "waste", "t3")
    assert state.score == start


def test_vegas_scoring_takes_back_5_when_a_card_leaves_a_foundation() -> None:
    state = klondike({"f1": suit_run("H", "A", "5"), "t1": ["6S"]}, scoring="vegas")
    start = state.score
    assert play(state, "f1", "t1").score == start - 5


# --- Variants --------------------------------------------------------------------------


def test_three_passes_allow_the_waste_to_be_turned_over_twice() -> None:
    state = klondike({"stock": ["2C"], "t1": ["KD"]}, draw=1, passes=3)
    for _ in range(2):
        state = play(state, "stock", "waste")
        state = allowed(state, "waste", "stock")
    state = play(state, "stock", "waste")
    refused(state, "waste", "stock")


def test_single_pass_never_turns_the_waste_over() -> None:
    state = klondike({"stock": ["2C"], "t1": ["KD"]}, draw=1, passes=1)
    state = play(state, "stock", "waste")
    refused(state, "waste", "stock")


def test_pass_limit_applies_to_draw_three_too() -> None:
    state = klondike({"stock": ["2C", "3C", "4C", "5C"], "t1": ["KD"]}, draw=3, passes=1)
    state = play(state, "stock", "waste")
    state = play(state, "stock", "waste")
    refused(state, "waste", "stock")


def test_whole_sequences_only_forbids_splitting_a_sequence() -> None:
    position = {"t1": ["5c", "9H", "8C", "7D"], "t2": ["8S"], "t3": ["9D"]}
    state = klondike(position, whole_sequences=True)
    refused(state, "t1", "t2")
    refused(state, "t1", "t3", 2)


def test_whole_sequences_only_still_moves_the_complete_sequence() -> None:
    state = klondike({"t1": ["5c", "9H", "8C", "7D"], "t2": ["10S"]}, whole_sequences=True)
    state = allowed(state, "t1", "t2", 3)
    assert pile(state, "t1") == ["5C"]


def test_whole_sequences_only_moves_a_lone_face_up_card() -> None:
    allowed(klondike({"t1": ["5c", "9H"], "t2": ["10S"]}, whole_sequences=True), "t1", "t2")


def test_whole_sequences_only_still_sends_single_cards_to_the_foundations() -> None:
    # docs/rules.md: the variant is about moves between tableau piles.
    state = klondike({"t1": ["5c", "3S", "2H"], "f1": ["AH"]}, whole_sequences=True)
    allowed(state, "t1", "f1")


def test_splitting_a_sequence_is_allowed_without_the_whole_sequences_variant() -> None:
    allowed(klondike({"t1": ["5c", "9H", "8C", "7D"], "t2": ["8S"]}), "t1", "t2")


def test_any_card_in_a_space_lets_a_queen_fill_an_empty_pile() -> None:
    state = allowed(klondike({"t1": ["4c", "QH"]}, any_card_in_space=True), "t1", "t2")
    assert pile(state, "t2") == ["QH"]


def test_any_card_in_a_space_lets_a_sequence_headed_by_any_card_fill_an_empty_pile() -> None:
    state = klondike({"t1": ["4c", "7H", "6C"]}, any_card_in_space=True)
    state = allowed(state, "t1", "t2", 2)
    assert pile(state, "t2") == ["7H", "6C"]


def test_any_card_in_a_space_lets_a_waste_card_fill_an_empty_pile() -> None:
    allowed(klondike({"waste": ["3D"], "t1": ["4c"]}, any_card_in_space=True), "waste", "t2")


def test_no_moving_back_forbids_foundation_cards_returning_to_the_tableau() -> None:
    state = klondike({"f1": suit_run("H", "A", "5"), "t1": ["6S"]}, foundation_to_tableau=False)
    refused(state, "f1", "t1")


def test_all_face_up_deals_every_tableau_card_face_up() -> None:
    state = solitaire.new_game("klondike", seed=21, face_up=True)
    position = state.to_position()
    for number in range(1, 8):
        assert len(position[f"t{number}"]) == number
        assert not any(is_face_down(card) for card in position[f"t{number}"])
    view = state.view()
    assert all(card is not None for n in range(1, 8) for card in view["piles"][f"t{n}"])
    assert view["piles"]["stock"] == 24, "the stock stays hidden"


def test_all_face_up_deals_the_same_cards_as_the_usual_game() -> None:
    usual = solitaire.new_game("klondike", seed=21).to_position()
    open_deal = solitaire.new_game("klondike", seed=21, face_up=True).to_position()
    for number in range(1, 8):
        assert faces_of(usual[f"t{number}"]) == faces_of(open_deal[f"t{number}"])


def faces_of(cards: list[str]) -> list[str]:
    return [card.upper() for card in cards]


# --- The view -------------------------------------------------------------------------


def test_view_shows_the_waste_and_hides_face_down_cards_and_the_stock() -> None:
    state = klondike({"stock": ["2C", "3C"], "waste": ["5H", "KD"], "t1": ["7c", "AS"]})
    piles = state.view()["piles"]
    assert piles["stock"] == 2
    assert piles["waste"] == ["5H", "KD"]
    assert piles["t1"] == [None, "AS"]


def test_view_does_not_tell_whether_unseen_stock_cards_will_play() -> None:
    # The rule book calls the game lost once you have been through the stock and nothing
    # changes anything. Before the stock has been seen, the view must not already know:
    # two positions that differ only in face-down stock cards must look the same.
    dead = klondike({"stock": ["9D", "5H"], "t1": ["2C"], "t2": ["QC"]}, draw=1)
    live = klondike({"stock": ["9D", "AH"], "t1": ["2C"], "t2": ["QC"]}, draw=1)
    assert dead.view() == live.view()


def test_view_lists_the_legal_moves() -> None:
    state = klondike({"t1": ["AS"], "t2": ["KD"]})
    shown = sorted(json.dumps(move, sort_keys=True) for move in state.view()["moves"])
    assert shown == sorted(json.dumps(move, sort_keys=True) for move in moves_of(state))
