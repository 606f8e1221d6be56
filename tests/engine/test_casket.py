"""Casket: the worked lid/jewels/refill example of shared/rules/casket.txt and one test per
rule sentence (jewels, lid, walls and base, three wastes, face-up stock, every automatic
refill, and the harder variation), played on positions built with ``load``.

These tests must not depend on the shuffle; dealt games are used only for the layout.
"""

from __future__ import annotations

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

LIDS = tuple(f"lid{n}" for n in range(1, 6))
WASTES = ("w1", "w2", "w3")
TABLEAU = tuple(f"t{n}" for n in range(1, 9))


def casket(position: dict[str, Any], **options: Any) -> Any:
    return solitaire.load("casket", position, **options)


# --- The worked example ------------------------------------------------------------------


def test_worked_example_five_of_hearts_from_the_lid_then_four_of_hearts_refills() -> None:
    position = {
        "lid1": ["5H"],
        "jewels": ["2c", "9S"],
        "t1": ["4H"],
        "t5": ["6H"],
        "stock": ["QD", "10C"],
    }
    state = casket(position)
    # The 5 of hearts in a lid cell goes onto the 6 of hearts at the base ...
    state = allowed(state, "lid1", "t5")
    assert pile(state, "t5") == ["6H", "5H"]
    # ... and the top of the jewels, the 9 of spades, fills the lid cell at once,
    assert pile(state, "lid1") == ["9S"]
    # turning the next jewel face up.
    assert pile(state, "jewels") == ["2C"]
    # The 4 of hearts can now follow onto the 5 and 6 of hearts ...
    state = allowed(state, "t1", "t5")
    assert pile(state, "t5") == ["6H", "5H", "4H"]
    # ... and the top of the stock, the 10 of clubs, fills the empty tableau space at once.
    assert pile(state, "t1") == ["10C"]
    assert faces(state, "stock") == ["QD"]


# --- Setup -------------------------------------------------------------------------------


def test_deal_uses_two_packs_of_104_cards() -> None:
    position = solitaire.new_game("casket", seed=1).to_position()
    assert card_counts(position, "casket") == dict.fromkeys(ONE_DECK, 2)


def test_deal_puts_13_jewels_face_down_with_the_top_one_turned_up() -> None:
    jewels = solitaire.new_game("casket", seed=2).to_position()["jewels"]
    assert len(jewels) == 13
    assert not is_face_down(jewels[-1])
    assert all(is_face_down(card) for card in jewels[:-1])


def test_deal_puts_one_face_up_card_in_each_of_the_five_lid_cells() -> None:
    position = solitaire.new_game("casket", seed=3).to_position()
    for lid in LIDS:
        assert len(position[lid]) == 1
        assert not is_face_down(position[lid][0])


def test_deal_lays_eight_face_up_tableau_piles_for_the_walls_and_the_base() -> None:
    position = solitaire.new_game("casket", seed=4).to_position()
    for pile_id in TABLEAU:
        assert position[pile_id], f"{pile_id} is dealt empty"
        assert not any(is_face_down(card) for card in position[pile_id])


def test_deal_leaves_the_rest_face_up_in_the_stock_and_empty_wastes_and_foundations() -> None:
    position = solitaire.new_game("casket", seed=5).to_position()
    dealt = 13 + 5 + sum(len(position[pile_id]) for pile_id in TABLEAU)
    assert len(position["stock"]) == 104 - dealt
    for pile_id in (*WASTES, *(f"f{n}" for n in range(1, 9))):
        assert position.get(pile_id, []) == []


def test_view_shows_the_stock_top_and_the_jewels_top_but_no_other_hidden_card() -> None:
    state = casket({"stock": ["2C", "3C", "10D"], "jewels": ["4s", "7h", "8D"], "lid1": ["KS"]})
    view = state.view()
    assert view["piles"]["stock"] == 3
    assert view["stock_top"] == "10D"
    assert view["piles"]["jewels"] == [None, None, "8D"]
    assert "3C" not in str(view) and "7H" not in str(view) and "4S" not in str(view)


def test_casket_keeps_no_score() -> None:
    assert solitaire.new_game("casket", seed=5).score is None


# --- Foundations -------------------------------------------------------------------------


def test_available_ace_starts_a_foundation() -> None:
    state = allowed(casket({"t1": ["AH"], "stock": ["5C"]}), "t1", "f1")
    assert pile(state, "f1") == ["AH"]


def test_foundation_takes_one_rank_higher_in_the_same_suit() -> None:
    state = casket({"t1": ["2H"], "t2": ["2S"], "t3": ["3H"], "f1": ["AH"], "stock": ["5C"]})
    refused(state, "t2", "f1")
    refused(state, "t3", "f1")
    allowed(state, "t1", "f1")


def test_foundation_cannot_start_without_an_ace() -> None:
    refused(casket({"t1": ["2H"], "stock": ["5C"]}), "t1", "f1")


def test_two_foundations_per_suit_run_from_ace_to_king() -> None:
    state = casket({"lid1": ["KH"], "f1": suit_run("H", "A", "Q"), "f2": suit_run("H", "A", "Q")})
    allowed(state, "lid1", "f2")
    state = allowed(state, "lid1", "f1")
    assert pile(state, "f1") == suit_run("H")


# --- Available cards ---------------------------------------------------------------------


def test_top_card_of_the_stock_is_available_for_a_foundation() -> None:
    state = allowed(casket({"stock": ["9C", "AD"], "t1": ["KS"]}), "stock", "f1")
    assert pile(state, "f1") == ["AD"]
    assert faces(state, "stock") == ["9C"]


def test_top_card_of_the_stock_is_available_for_a_tableau_pile() -> None:
    state = allowed(casket({"stock": ["9C", "5D"], "t1": ["6D"]}), "stock", "t1")
    assert pile(state, "t1") == ["6D", "5D"]


@pytest.mark.parametrize("waste", WASTES)
def test_top_card_of_each_waste_is_available(waste: str) -> None:
    state = casket({waste: ["9C", "5D"], "t1": ["6D"], "stock": ["KS"]})
    refused(state, waste, "t1", 2)
    state = allowed(state, waste, "t1")
    assert pile(state, waste) == ["9C"]


@pytest.mark.parametrize("lid", LIDS)
def test_all_five_lid_cards_are_available(lid: str) -> None:
    state = casket({lid: ["AS"], "jewels": ["7C"], "t1": ["KD"]})
    allowed(state, lid, "f1")


def test_jewels_top_is_not_available_for_play() -> None:
    state = casket({"jewels": ["5c", "AS"], "t1": ["2S"], "lid1": ["KD"], "stock": ["9C"]})
    refused(state, "jewels", "f1")
    refused(
        casket({"jewels": ["5c", "9S"], "t1": ["10S"], "lid1": ["KD"], "stock": ["9C"]}),
        "jewels",
        "t1",
    )


def test_only_one_card_moves_at_a_time() -> None:
    state = casket({"t1": ["6H", "5H"], "t2": ["7H"], "t3": ["6H"], "stock": ["KS"]})
    refused(state, "t1", "t2", 2)
    allowed(state, "t1", "t3")


# --- The lid -----------------------------------------------------------------------------


def test_lid_cell_holds_only_one_card() -> None:
    state = casket({"lid1": ["KD"], "t1": ["QC"], "stock": ["9S"]})
    refused(state, "t1", "lid1")
    refused(state, "stock", "lid1")


def test_empty_lid_cell_is_filled_at_once_from_the_jewels() -> None:
    state = play(casket({"lid3": ["AS"], "jewels": ["8d", "JH"], "t1": ["KD"]}), "lid3", "f1")
    assert pile(state, "lid3") == ["JH"]


def test_face_down_jewel_left_on_top_is_turned_face_up() -> None:
    state = play(casket({"lid3": ["AS"], "jewels": ["8d", "JH"], "t1": ["KD"]}), "lid3", "f1")
    assert pile(state, "jewels") == ["8D"]
    assert state.view()["piles"]["jewels"] == ["8D"]


def test_lid_cell_cannot_be_filled_by_hand_while_jewels_remain() -> None:
    state = casket({"lid1": ["KD"], "jewels": ["5H"], "t1": ["9C", "QC"], "stock": ["8S"]})
    refused(state, "t1", "lid2")
    refused(state, "stock", "lid2")


def test_lid_cell_left_empty_after_the_jewels_are_gone_stays_empty_until_filled() -> None:
    state = play(casket({"lid1": ["AS"], "t1": ["KD"], "stock": ["QC"]}), "lid1", "f1")
    assert pile(state, "lid1") == []


def test_after_the_jewels_are_gone_a_tableau_top_may_fill_a_lid_space() -> None:
    state = allowed(casket({"t1": ["9C", "QC"], "stock": ["2S"]}), "t1", "lid1")
    assert pile(state, "lid1") == ["QC"]
    assert pile(state, "t1") == ["9C"]


def test_after_the_jewels_are_gone_the_stock_top_may_fill_a_lid_space() -> None:
    state = allowed(casket({"t1": ["9C"], "stock": ["2S", "QH"]}), "stock", "lid4")
    assert pile(state, "lid4") == ["QH"]


def test_after_the_jewels_are_gone_a_waste_top_may_fill_a_lid_space() -> None:
    state = allowed(casket({"t1": ["9C"], "w2": ["4D", "JS"], "stock": ["2S"]}), "w2", "lid5")
    assert pile(state, "lid5") == ["JS"]
    assert pile(state, "w2") == ["4D"]


def test_hard_variation_never_refills_the_lid_once_the_jewels_are_gone() -> None:
    position = {"t1": ["9C", "QC"], "w1": ["JS"], "stock": ["2S", "QH"], "lid1": ["AD"]}
    state = casket(position, hard=True)
    for source in ("t1", "w1", "stock"):
        refused(state, source, "lid2")
    state = play(state, "lid1", "f1")
    assert pile(state, "lid1") == []
    refused(state, "t1", "lid1")


def test_hard_variation_still_refills_the_lid_from_the_jewels() -> None:
    state = casket({"lid1": ["AS"], "jewels": ["6c", "10D"], "t1": ["KD"]}, hard=True)
    state = play(state, "lid1", "f1")
    assert pile(state, "lid1") == ["10D"]
    assert pile(state, "jewels") == ["6C"]


# --- The tableau -------------------------------------------------------------------------


def test_tableau_builds_down_in_suit() -> None:
    allowed(casket({"t1": ["5H"], "t2": ["6H"], "stock": ["KS"]}), "t1", "t2")


def test_tableau_refuses_another_suit_of_the_right_rank() -> None:
    refused(casket({"t1": ["5S"], "t2": ["6H"], "stock": ["KS"]}), "t1", "t2")


def test_tableau_refuses_the_wrong_rank_in_suit() -> None:
    refused(casket({"t1": ["4H"], "t2": ["6H"], "stock": ["KS"]}), "t1", "t2")
    refused(casket({"t1": ["7H"], "t2": ["6H"], "stock": ["KS"]}), "t1", "t2")


def test_empty_tableau_pile_is_filled_at_once_from_the_stock() -> None:
    state = play(casket({"t4": ["5H"], "t2": ["6H"], "stock": ["8C", "JD"]}), "t4", "t2")
    assert pile(state, "t4") == ["JD"]
    assert faces(state, "stock") == ["8C"]


def test_tableau_pile_emptied_onto_a_foundation_is_filled_from_the_stock() -> None:
    state = play(casket({"t6": ["AH"], "stock": ["8C", "JD"]}), "t6", "f1")
    assert pile(state, "t6") == ["JD"]


def test_tableau_pile_emptied_into_the_lid_is_filled_from_the_stock() -> None:
    state = play(casket({"t6": ["QS"], "stock": ["8C", "JD"]}), "t6", "lid1")
    assert pile(state, "t6") == ["JD"]


def test_with_the_stock_empty_a_tableau_space_stays_empty() -> None:
    state = play(casket({"t4": ["5H"], "t2": ["6H"], "w1": ["9D"]}), "t4", "t2")
    assert pile(state, "t4") == []


def test_with_the_stock_empty_a_lid_card_may_fill_a_tableau_space() -> None:
    state = allowed(casket({"lid2": ["QD"], "t1": ["3S"], "jewels": ["8C"]}), "lid2", "t5")
    assert pile(state, "t5") == ["QD"]
    assert pile(state, "lid2") == ["8C"], "the jewels still refill the lid"


def test_with_the_stock_empty_another_tableau_top_may_fill_a_tableau_space() -> None:
    state = allowed(casket({"t1": ["3S", "9H"], "lid1": ["KD"]}), "t1", "t5")
    assert pile(state, "t5") == ["9H"]


@pytest.mark.parametrize("waste", WASTES)
def test_with_the_stock_empty_any_waste_top_may_fill_a_tableau_space(waste: str) -> None:
    state = allowed(casket({waste: ["7C", "2D"], "t1": ["3S"]}), waste, "t8")
    assert pile(state, "t8") == ["2D"]


# --- The stock and the wastes ------------------------------------------------------------


@pytest.mark.parametrize("waste", WASTES)
def test_top_of_the_stock_may_go_onto_any_of_the_three_wastes(waste: str) -> None:
    state = allowed(casket({"stock": ["2S", "QH"], "t1": ["KC"]}), "stock", waste)
    assert pile(state, waste) == ["QH"]
    assert faces(state, "stock") == ["2S"]


def test_waste_piles_take_cards_only_from_the_stock() -> None:
    state = casket({"stock": ["2S"], "t1": ["KC"], "lid1": ["5D"], "w1": ["9H"]})
    refused(state, "t1", "w2")
    refused(state, "lid1", "w2")
    refused(state, "w1", "w2")


def test_cards_never_go_back_onto_the_stock() -> None:
    refused(casket({"stock": ["2S"], "t1": ["KC"], "w1": ["9H"]}), "w1", "stock")


def test_cannot_draw_from_an_empty_stock() -> None:
    refused(casket({"t1": ["KC"], "w1": ["9H"]}), "stock", "w1")


def test_foundation_cards_never_move_again() -> None:
    state = casket({"f1": suit_run("H", "A", "5"), "t1": ["6H"], "stock": ["9C"]})
    refused(state, "f1", "t1")
    refused(state, "f1", "w1")


# --- The end -----------------------------------------------------------------------------


def test_game_is_won_when_all_cards_are_on_the_foundations() -> None:
    position: dict[str, Any] = {
        f"f{number}": suit_run(suit) for number, suit in enumerate("CDHSCDHS", start=1)
    }
    position["f8"] = suit_run("S", "A", "Q")
    position["lid1"] = ["KS"]
    state = casket(position)
    assert not state.is_won
    state = allowed(state, "lid1", "f8")
    assert state.is_won and state.is_over


def test_stock_depleted_and_no_moves_left_is_over_and_lost() -> None:
    # No card fits anywhere: every tableau top waits for a card that is not in play,
    # the lid is full and the stock is gone.
    tops = ["3S", "9H", "5D", "JC", "7S", "KH", "2D", "QS"]
    position: dict[str, Any] = {pile_id: [top] for pile_id, top in zip(TABLEAU, tops, strict=True)}
    lids = ["QD", "8C", "4H", "10S", "6C"]
    position |= {lid: [card] for lid, card in zip(LIDS, lids, strict=True)}
    position |= {"w1": ["5C"], "jewels": ["7D"]}
    state = casket(position)
    assert moves_of(state) == []
    assert state.is_over and not state.is_won


def test_game_with_stock_left_is_not_over() -> None:
    state = casket({"t1": ["3S"], "lid1": ["QD"], "jewels": ["7D"], "stock": ["8C"]})
    assert not state.is_over
