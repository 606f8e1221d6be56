"""Double Solitaire: the worked example of shared/rules/double-solitaire.txt and one test per
rule sentence (seats, draw three with unlimited passes, shared foundations with owners,
collisions, the finish call and mutual blockage), played on positions built with ``load``.

These tests must not depend on the shuffle; dealt games are used only for the layout and
for the ``same_deal`` option.
"""

from __future__ import annotations

from typing import Any

import pytest

import solitaire
from tests.engine.conftest import (
    ONE_DECK,
    allowed,
    faces,
    is_face_down,
    moves_of,
    mv,
    owned,
    pile,
    play,
    refused,
    seat_cards,
    suit_run,
)


def double(position: dict[str, Any], **options: Any) -> Any:
    """Load a Double position; a seat the test leaves without cards gets a lone 9S.

    A seat with no cards left has finished and the race would be over, so every seat
    keeps one card that fits nowhere unless the test says otherwise.
    """
    position = dict(position)
    for seat in (1, 2):
        if not any(cards for key, cards in position.items() if key.startswith(f"p{seat}.")):
            position[f"p{seat}.t7"] = ["9S"]
    return solitaire.load("double", position, **options)


def result(state: Any) -> Any:
    return state.view()["result"]


def seat_piles(position: dict[str, Any], seat: int) -> dict[str, list[str]]:
    prefix = f"p{seat}."
    return {key[len(prefix) :]: cards for key, cards in position.items() if key.startswith(prefix)}


# Both seats blocked: a lone 9 with nothing to build on, no stock and no waste.
BLOCKED_P2 = {"p2.t1": ["9S"]}


# --- The worked example ------------------------------------------------------------------


def test_worked_example_seven_of_hearts_onto_eight_of_spades_then_ace_of_clubs_up() -> None:
    position = {
        "p1.t1": ["ac", "7H"],
        "p1.t2": ["8S"],
        "p1.t3": ["QD"],
        "p1.t4": ["4c", "KS", "QH"],
        "p2.t1": ["5d", "9C"],
    }
    state = double(position)
    # 7H onto 8S: the rank descends and red follows black.
    state = allowed(state, "p1.t1", "p1.t2")
    assert pile(state, "p1.t2") == ["8S", "7H"]
    # The released card is turned up: it is the ace of clubs.
    assert pile(state, "p1.t1") == ["AC"]
    # The ace goes on an empty shared foundation and remembers its owner.
    state = allowed(state, "p1.t1", "f5")
    assert pile(state, "f5") == ["AC:1"]
    # The emptied column now takes only a King or a King-headed run.
    assert pile(state, "p1.t1") == []
    refused(state, "p1.t3", "p1.t1")
    state = allowed(state, "p1.t4", "p1.t1", 2)
    assert pile(state, "p1.t1") == ["KS", "QH"]


# --- Players and cards, deal and opening -------------------------------------------------


def test_each_seat_has_its_own_full_pack() -> None:
    position = solitaire.new_game("double", seed=1).to_position()
    for seat in (1, 2):
        assert seat_cards(position, seat) == dict.fromkeys(ONE_DECK, 1)


def test_each_seat_lays_seven_columns_of_one_to_seven_cards_with_only_the_last_face_up() -> None:
    position = solitaire.new_game("double", seed=2).to_position()
    for seat in (1, 2):
        for number in range(1, 8):
            cards = position[f"p{seat}.t{number}"]
            assert len(cards) == number
            assert not is_face_down(cards[-1])
            assert all(is_face_down(card) for card in cards[:-1])


def test_each_seat_has_24_in_its_stock_an_empty_waste_and_eight_empty_shared_foundations() -> None:
    position = solitaire.new_game("double", seed=3).to_position()
    for seat in (1, 2):
        assert len(position[f"p{seat}.stock"]) == 24
        assert position.get(f"p{seat}.waste", []) == []
    for number in range(1, 9):
        assert position.get(f"f{number}", []) == []


def test_each_seat_shuffles_independently() -> None:
    position = solitaire.new_game("double", seed=4).to_position()
    assert seat_piles(position, 1) != seat_piles(position, 2)


def test_same_deal_gives_both_seats_the_same_layout() -> None:
    position = solitaire.new_game("double", seed=4, same_deal=True).to_position()
    assert seat_piles(position, 1) == seat_piles(position, 2)


def test_double_keeps_no_running_score_but_counts_contributions() -> None:
    state = solitaire.new_game("double", seed=4)
    assert state.score is None
    assert state.view()["contributions"] == {"1": 0, "2": 0}


# --- Playing a turn ----------------------------------------------------------------------


def test_red_queen_goes_on_a_black_king() -> None:
    state = allowed(double({"p1.t1": ["QH"], "p1.t2": ["KC"]}), "p1.t1", "p1.t2")
    assert pile(state, "p1.t2") == ["KC", "QH"]


def test_red_queen_cannot_go_on_a_red_king() -> None:
    refused(double({"p1.t1": ["QH"], "p1.t2": ["KD"]}), "p1.t1", "p1.t2")


def test_descending_alternating_sequence_moves_together() -> None:
    state = double({"p2.t1": ["3c", "9H", "8C", "7D"], "p2.t2": ["10S"]})
    state = allowed(state, "p2.t1", "p2.t2", 3)
    assert pile(state, "p2.t2") == ["10S", "9H", "8C", "7D"]


def test_lower_part_of_a_sequence_moves_together() -> None:
    state = allowed(double({"p2.t1": ["9H", "8C", "7D"], "p2.t2": ["9D"]}), "p2.t1", "p2.t2", 2)
    assert pile(state, "p2.t2") == ["9D", "8C", "7D"]


def test_cards_out_of_sequence_cannot_move_together() -> None:
    refused(double({"p1.t1": ["9H", "8H"], "p1.t2": ["10S"]}), "p1.t1", "p1.t2", 2)


def test_exposed_face_down_card_is_turned_up_at_once() -> None:
    state = play(double({"p1.t1": ["2d", "9H"], "p1.t2": ["10S"]}), "p1.t1", "p1.t2")
    assert pile(state, "p1.t1") == ["2D"]


def test_empty_column_accepts_only_a_king() -> None:
    state = double({"p1.t1": ["5c", "QH"], "p1.t2": ["6d", "KH"]})
    refused(state, "p1.t1", "p1.t3")
    allowed(state, "p1.t2", "p1.t3")


def test_empty_column_accepts_a_sequence_headed_by_a_king() -> None:
    state = allowed(double({"p1.t1": ["5c", "KH", "QC"]}), "p1.t1", "p1.t3", 2)
    assert pile(state, "p1.t3") == ["KH", "QC"]


def test_ace_goes_below_a_deuce() -> None:
    allowed(double({"p1.t1": ["AH"], "p1.t2": ["2S"]}), "p1.t1", "p1.t2")


def test_there_is_no_wrap_between_king_and_ace() -> None:
    refused(double({"p1.t1": ["KS"], "p1.t2": ["AH"]}), "p1.t1", "p1.t2")


def test_you_cannot_put_a_card_on_the_opponents_columns() -> None:
    state = double({"p1.t1": ["9H"], "p2.t1": ["10S"]})
    with pytest.raises(ValueError, match=r"p2\.t1"):
        state.apply(mv("p1.t1", "p2.t1"))
    assert mv("p1.t1", "p2.t1") not in moves_of(state)


def test_you_cannot_take_the_opponents_waste_card() -> None:
    state = double({"p2.waste": ["9H"], "p1.t1": ["10S"]})
    with pytest.raises(ValueError, match=r"p1\.t1|p2\.waste"):
        state.apply(mv("p2.waste", "p1.t1"))
    assert mv("p2.waste", "p1.t1") not in moves_of(state)


def test_you_cannot_draw_onto_the_opponents_waste() -> None:
    state = double({"p1.stock": ["9H"], "p1.t1": ["10S"]})
    with pytest.raises(ValueError, match=r"p2\.waste"):
        state.apply(mv("p1.stock", "p2.waste"))


# --- Drawing and recycling ---------------------------------------------------------------


def test_draw_turns_the_next_three_cards_of_your_own_stock_keeping_their_order() -> None:
    position = {"p1.stock": ["2C", "3C", "4C", "5C"], "p2.stock": ["6D", "7D"], "p1.t1": ["KD"]}
    state = allowed(double(position), "p1.stock", "p1.waste")
    assert faces(state, "p1.waste") == ["5C", "4C", "3C"]
    assert faces(state, "p1.stock") == ["2C"]
    assert faces(state, "p2.stock") == ["6D", "7D"], "the other seat's stock is untouched"


def test_only_the_top_waste_card_is_available_and_removing_it_exposes_the_next() -> None:
    state = double({"p1.waste": ["5C", "4C", "3C"], "p1.t1": ["4D"], "p1.t2": ["5H"]})
    refused(state, "p1.waste", "p1.t2")
    state = allowed(state, "p1.waste", "p1.t1")
    allowed(state, "p1.waste", "p1.t2")


def test_with_fewer_than_three_left_the_draw_turns_the_remainder() -> None:
    state = allowed(double({"p1.stock": ["2C", "3C"], "p1.t1": ["KD"]}), "p1.stock", "p1.waste")
    assert faces(state, "p1.waste") == ["3C", "2C"]
    assert faces(state, "p1.stock") == []


def test_empty_stock_is_made_by_turning_the_waste_over_without_rearranging_it() -> None:
    state = double({"p1.waste": ["2C", "3C", "4C", "5C"], "p1.t1": ["KD"]})
    state = allowed(state, "p1.waste", "p1.stock")
    assert faces(state, "p1.stock") == ["5C", "4C", "3C", "2C"]
    state = play(state, "p1.stock", "p1.waste")
    assert faces(state, "p1.waste") == ["2C", "3C", "4C"]


def test_waste_is_not_turned_over_while_the_stock_has_cards() -> None:
    refused(double({"p1.waste": ["2C"], "p1.stock": ["3C"], "p1.t1": ["KD"]}), "p1.waste", "p1.stock")


def test_passes_are_unlimited() -> None:
    state = double({"p1.stock": ["2C"], "p1.t1": ["KD"], "p2.stock": ["3D"], "p2.t1": ["KC"]})
    for _ in range(8):
        state = play(state, "p1.stock", "p1.waste")
        state = allowed(state, "p1.waste", "p1.stock")


# --- Shared foundations and collisions ---------------------------------------------------


def test_empty_foundation_starts_with_an_ace_of_either_seat() -> None:
    state = double({"p1.t1": ["AH"], "p1.t2": ["9S"], "p2.t1": ["AS"], "p2.t2": ["9D"]})
    state = allowed(state, "p2.t1", "f1")
    state = allowed(state, "p1.t1", "f8")
    assert pile(state, "f1") == ["AS:2"]
    assert pile(state, "f8") == ["AH:1"]


def test_foundation_refuses_a_non_ace_when_empty() -> None:
    refused(double({"p1.t1": ["2H"], "p1.t2": ["KS"]}), "p1.t1", "f1")


def test_ace_does_not_reserve_its_foundation_for_its_owner() -> None:
    state = allowed(double({"f3": ["AH:1"], "p2.t1": ["2H"]}), "p2.t1", "f3")
    assert pile(state, "f3") == ["AH:1", "2H:2"]


def test_foundation_builds_up_in_suit_to_the_king_whatever_the_backs() -> None:
    foundation = owned(suit_run("D", "A", "6"), 1) + owned(suit_run("D", "7", "Q"), 2)
    state = allowed(double({"f2": foundation, "p1.waste": ["KD"]}), "p1.waste", "f2")
    assert pile(state, "f2")[-1] == "KD:1"


def test_foundation_refuses_the_wrong_suit_or_rank() -> None:
    state = double({"f1": ["AH:2"], "p1.t1": ["2D"], "p1.t2": ["3H"], "p1.t3": ["KS"]})
    refused(state, "p1.t1", "f1")
    refused(state, "p1.t2", "f1")


def test_available_single_tableau_card_goes_to_a_foundation_but_not_a_run() -> None:
    state = double({"f1": ["AH:1"], "p1.t1": ["3S", "2H"]})
    refused(state, "p1.t1", "f1", 2)
    allowed(state, "p1.t1", "f1")


def test_waste_top_goes_to_a_foundation() -> None:
    state = allowed(double({"f1": ["AH:1"], "p2.waste": ["2H"], "p2.t1": ["KS"]}), "p2.waste", "f1")
    assert pile(state, "f1") == ["AH:1", "2H:2"]


def test_second_four_of_hearts_must_use_another_foundation() -> None:
    position = {
        "f1": ["AH:1", "2H:1", "3H:2"],
        "f2": ["AH:2", "2H:2", "3H:1"],
        "p1.t1": ["4H"],
        "p2.t1": ["4H"],
        # Each seat keeps a card back, so that neither finishes with its four.
        "p1.t2": ["9S"],
        "p2.t2": ["9C"],
    }
    state = allowed(double(position), "p1.t1", "f1")
    assert pile(state, "f1")[-1] == "4H:1"
    with pytest.raises(solitaire.IllegalMove) as info:
        state.apply(mv("p2.t1", "f1"))
    assert "4H" in str(info.value)
    assert info.value.code == "foundation_taken"
    assert info.value.data.get("owner") == 1
    state = allowed(state, "p2.t1", "f2")
    assert pile(state, "f2")[-1] == "4H:2"


def test_foundation_cards_never_return() -> None:
    state = double({"f1": owned(suit_run("H", "A", "5"), 1), "p1.t1": ["6S"], "p1.t2": ["KD"]})
    for target in ("p1.t1", "p1.t3", "p2.t1"):
        with pytest.raises(ValueError):
            state.apply(mv("f1", target))
        assert mv("f1", target) not in moves_of(state)


def test_contributions_count_foundation_cards_by_their_backs() -> None:
    position = {"f1": ["AH:1", "2H:2", "3H:1"], "f2": ["AS:2"], "p1.t1": ["9C"], "p2.t1": ["KD"]}
    assert double(position).view()["contributions"] == {"1": 2, "2": 2}
    position["f3"] = ["AC:1"]
    assert double(position).view()["contributions"] == {"1": 3, "2": 2}


# --- Ending the game ---------------------------------------------------------------------


def test_player_who_sends_all_their_cards_to_the_foundations_wins() -> None:
    position = {
        "f1": owned(suit_run("H", "A", "Q"), 1),
        "p1.t1": ["KH"],
        "p2.t1": ["4c", "9C"],
        "p2.stock": ["5D", "6D", "7D"],
    }
    state = double(position)
    assert result(state) is None and not state.is_over
    state = play(state, "p1.t1", "f1")
    assert result(state)["winner"] == 1
    assert state.is_over


def test_finished_race_takes_no_more_moves() -> None:
    position = {
        "f1": owned(suit_run("H", "A", "Q"), 1),
        "p1.t1": ["KH"],
        "p2.t1": ["9C"],
        "p2.t2": ["AD"],
    }
    state = play(double(position), "p1.t1", "f1")
    assert moves_of(state) == []
    with pytest.raises(solitaire.IllegalMove):
        state.apply(mv("p2.t2", "f2"))


def test_a_full_deal_is_finished_only_when_all_52_own_cards_are_up() -> None:
    foundations = {f"f{n}": owned(suit_run(suit), 2) for n, suit in enumerate("CDH", start=1)}
    foundations["f4"] = owned(suit_run("S", "A", "Q"), 2)
    position = {**foundations, "p2.waste": ["KS"]}
    position |= {f"p1.t{n}": [card] for n, card in enumerate(["9C", "9D", "9H"], start=1)}
    state = double(position)
    assert result(state) is None
    state = play(state, "p2.waste", "f4")
    assert result(state)["winner"] == 2
    assert state.view()["contributions"] == {"1": 0, "2": 52}


def test_empty_columns_alone_do_not_finish_while_stock_or_waste_cards_remain() -> None:
    position = {
        "f1": owned(suit_run("H", "A", "Q"), 1),
        "p1.t1": ["KH"],
        "p1.stock": ["5S"],
        "p2.t1": ["9C"],
        "p2.waste": ["AD"],
    }
    state = play(double(position), "p1.t1", "f1")
    assert all(not pile(state, f"p1.t{n}") for n in range(1, 8))
    assert result(state) is None
    assert not state.is_over


def test_mutual_blockage_ends_the_game_and_the_higher_contribution_wins() -> None:
    position = {"f1": ["AH:1", "2H:1", "3H:2"], "p1.t1": ["9C"], **BLOCKED_P2}
    state = double(position)
    assert moves_of(state) == []
    assert state.is_over
    assert result(state)["winner"] == 1


def test_mutual_blockage_with_equal_contributions_is_a_draw() -> None:
    position = {"f1": ["AH:1", "2H:2"], "p1.t1": ["9C"], **BLOCKED_P2}
    state = double(position)
    assert state.is_over
    assert result(state)["winner"] is None


def test_blockage_is_judged_over_a_full_cycle_of_each_stock() -> None:
    # Seat 1 can still draw and turn its waste over, but nothing it turns up ever fits.
    position = {
        "f1": ["AH:2"],
        "p1.t1": ["9C"],
        "p1.stock": ["QD", "JD", "5S"],
        "p2.t1": ["9S"],
        "p2.waste": ["4C", "7S"],
    }
    state = double(position)
    assert moves_of(state), "drawing is still possible"
    assert state.is_over
    assert result(state)["winner"] == 2


def test_a_stock_card_that_fits_somewhere_is_not_a_blockage() -> None:
    position = {"p1.t1": ["9C"], "p1.stock": ["QD", "8H", "5S", "JD"], **BLOCKED_P2}
    state = double(position)
    assert not state.is_over
    assert result(state) is None


def test_endless_reversible_tableau_moves_do_not_count_as_progress() -> None:
    position = {"p1.t1": ["10H", "9S"], "p1.t2": ["10D"], **BLOCKED_P2, "f1": ["AC:2"]}
    state = double(position)
    assert moves_of(state), "the 9 of spades can shuttle between the tens"
    assert state.is_over
    assert result(state)["winner"] == 2


# --- Views -------------------------------------------------------------------------------


def test_seat_view_shows_both_layouts_face_up_cards_and_foundation_owners() -> None:
    position = {
        "f1": ["AH:2"],
        "p1.t1": ["4c", "9H"],
        "p1.stock": ["2S", "3S"],
        "p1.waste": ["6D"],
        "p2.t1": ["7s", "QC"],
        "p2.stock": ["JD"],
    }
    view = double(position).view(1)
    assert view["player"] == 1
    piles = view["piles"]
    assert piles["p1.t1"] == [None, "9H"]
    assert piles["p2.t1"] == [None, "QC"]
    assert piles["p1.waste"] == ["6D"]
    assert piles["p1.stock"] == 2 and piles["p2.stock"] == 1
    assert piles["f1"] == ["AH:2"]


def test_seat_view_lists_only_that_seats_moves() -> None:
    state = double({"p1.t1": ["9H"], "p1.t2": ["10S"], "p2.t1": ["AD"], "p2.stock": ["5C"]})
    for seat in (1, 2):
        moves = state.view(seat)["moves"]
        assert moves, f"seat {seat} has moves"
        for move in moves:
            assert move["from"].startswith(f"p{seat}.")


def test_spectator_view_lists_no_moves() -> None:
    state = double({"p1.t1": ["9H"], "p1.t2": ["10S"]})
    view = state.view(None)
    assert view["player"] is None
    assert view["moves"] == []


@pytest.mark.parametrize("same_deal", [False, True])
def test_options_are_named_same_deal(same_deal: bool) -> None:
    assert solitaire.new_game("double", seed=9, same_deal=same_deal).options == {"same_deal": same_deal}


# --- Ended by the players: agreeing to stop, resigning -----------------------------------


def test_agreeing_to_stop_gives_the_race_to_the_larger_contribution() -> None:
    state = double({"f1": ["AS:2", "2S:2"], "f8": ["AH:1"], "p1.t1": ["KC"], "p2.t1": ["KD"]})
    outcome = state.outcome_if_stopped()
    assert outcome == solitaire.Outcome(2, solitaire.AGREED, {"1": 1, "2": 2})
    assert outcome.scores == {"1": 1, "2": 2}
    assert solitaire.AGREED == "agreed"


def test_agreeing_to_stop_with_equal_contributions_is_a_draw() -> None:
    state = double({"f1": ["AS:2"], "f8": ["AH:1"], "p1.t1": ["KC"], "p2.t1": ["KD"]})
    assert state.outcome_if_stopped() == solitaire.Outcome(None, solitaire.AGREED, {"1": 1, "2": 1})
    fresh = solitaire.new_game("double", seed=4)
    assert fresh.outcome_if_stopped().winner is None


def test_resigning_gives_the_race_to_the_other_seat_whatever_the_contributions() -> None:
    state = double({"f1": ["AS:2", "2S:2"], "f8": ["AH:1"], "p1.t1": ["KC"], "p2.t1": ["KD"]})
    assert state.outcome_if_resigned(2) == solitaire.Outcome(1, solitaire.RESIGNED, {"1": 1, "2": 2})
    assert state.outcome_if_resigned(1).winner == 2
    assert solitaire.RESIGNED == "resigned"
    for seat in (0, 3, True):
        with pytest.raises(ValueError):
            state.outcome_if_resigned(seat)


def test_a_one_player_game_stopped_or_resigned_has_no_winner() -> None:
    state = solitaire.new_game("klondike", seed=4)
    assert state.outcome_if_stopped() == solitaire.Outcome(None, solitaire.AGREED, None)
    assert state.outcome_if_resigned(1) == solitaire.Outcome(None, solitaire.RESIGNED, None)
