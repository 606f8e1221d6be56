"""The engine's interface promises (docs/engine-contract.md), checked the same way for every
game: the registry, deterministic deals, option checking, malformed moves, moves as
values, card text, positions, and the views.

Nothing here knows how a game keeps its state inside; only the public calls are used.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import solitaire
from tests.engine.conftest import PILE_IDS, mv, pile, play, refused

GAME_NAMES = ("klondike", "josephine", "casket", "double")

# A small legal position per game, and one move in it that is legal, for the generic checks.
SAMPLES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "klondike": ({"t1": ["9H"], "t2": ["10S"], "stock": ["2C"]}, mv("t1", "t2")),
    "josephine": ({"t1": ["7C"], "t2": ["8C"], "stock": ["2C"]}, mv("t1", "t2")),
    "casket": ({"t1": ["5H"], "t2": ["6H"], "stock": ["2C", "3C"]}, mv("t1", "t2")),
    "double": ({"p1.t1": ["9H"], "p1.t2": ["10S"], "p2.stock": ["2C"]}, mv("p1.t1", "p1.t2")),
}


def sample(game: str) -> Any:
    return solitaire.load(game, SAMPLES[game][0])


# --- The registry and deals ---------------------------------------------------------------


def test_games_registry_names_the_four_games() -> None:
    assert set(solitaire.GAMES) == set(GAME_NAMES)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_new_game_is_the_same_for_the_same_name_options_and_seed(game: str) -> None:
    assert solitaire.new_game(game, seed=77).to_position() == solitaire.new_game(game, seed=77).to_position()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_new_game_with_different_seeds_deals_differently(game: str) -> None:
    assert solitaire.new_game(game, seed=1).to_position() != solitaire.new_game(game, seed=2).to_position()


def test_new_game_deal_is_the_same_whatever_the_scoring_and_pass_options() -> None:
    # Options that do not change the layout must not change the shuffle either.
    plain = solitaire.new_game("klondike", seed=5).to_position()
    other = solitaire.new_game("klondike", seed=5, passes=1, scoring=None).to_position()
    assert {key: plain[key] for key in PILE_IDS["klondike"]} == {
        key: other[key] for key in PILE_IDS["klondike"]
    }


@pytest.mark.parametrize("game", GAME_NAMES)
def test_state_knows_its_game_name(game: str) -> None:
    assert solitaire.new_game(game, seed=3).name == game


def test_klondike_options_have_the_documented_defaults() -> None:
    assert solitaire.new_game("klondike", seed=1).options == {
        "draw": 3,
        "passes": None,
        "whole_sequences": False,
        "any_card_in_space": False,
        "face_up": False,
        "foundation_to_tableau": True,
        "scoring": "standard",
    }


def test_casket_option_hard_defaults_to_false() -> None:
    assert solitaire.new_game("casket", seed=1).options == {"hard": False}


def test_josephine_option_whole_sequences_is_left_out_of_the_options_at_its_default() -> None:
    # It came after games were saved: keys made from the options must not change.
    assert solitaire.new_game("josephine", seed=1).options == {}
    assert solitaire.new_game("josephine", seed=1, whole_sequences=False).options == {}
    assert solitaire.new_game("josephine", seed=1, whole_sequences=True).options == {"whole_sequences": True}
    assert solitaire.rules_for("josephine", whole_sequences=False) is solitaire.rules_for("josephine")


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("klondike", {"colour": "red"}),
        ("klondike", {"hard": True}),
        ("josephine", {"draw": 1}),
        ("josephine", {"hard": True}),
        ("casket", {"same_deal": True}),
        ("double", {"draw": 1}),
    ],
)
def test_unknown_option_is_refused_with_a_value_error(game: str, options: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=next(iter(options))):
        solitaire.new_game(game, seed=1, **options)
    with pytest.raises(ValueError):
        solitaire.load(game, {}, **options)


@pytest.mark.parametrize(
    "options",
    [{"draw": 2}, {"passes": 0}, {"passes": "3"}, {"scoring": "bridge"}, {"face_up": "yes"}],
)
def test_bad_option_value_is_refused_with_a_value_error(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        solitaire.new_game("klondike", seed=1, **options)


def test_unknown_game_is_refused_with_a_value_error() -> None:
    with pytest.raises(ValueError, match="spider"):
        solitaire.new_game("spider", seed=1)


# --- Moves as values -------------------------------------------------------------------


def test_move_round_trips_through_its_dict() -> None:
    data = {"from": "t3", "to": "f1", "count": 2}
    assert solitaire.Move.from_dict(data).to_dict() == data


def test_move_count_defaults_to_one() -> None:
    assert solitaire.Move.from_dict({"from": "stock", "to": "waste"}).to_dict() == {
        "from": "stock",
        "to": "waste",
        "count": 1,
    }


def test_moves_with_the_same_fields_are_equal() -> None:
    assert solitaire.Move.from_dict({"from": "t1", "to": "t2"}) == solitaire.Move.from_dict(
        {"from": "t1", "to": "t2", "count": 1}
    )


@pytest.mark.parametrize(
    "data",
    [
        {"to": "f1"},
        {"from": "t1"},
        {},
        {"from": 3, "to": "f1"},
        {"from": "t1", "to": None},
        {"from": "t1", "to": "f1", "count": "1"},
        {"from": "t1", "to": "f1", "count": 1.0},
        {"from": "t1", "to": "f1", "count": 0},
        {"from": "t1", "to": "f1", "count": -2},
        ["t1", "f1"],
        "t1->f1",
        None,
    ],
)
def test_malformed_move_dict_is_refused_with_a_value_error(data: Any) -> None:
    with pytest.raises(ValueError) as info:
        solitaire.Move.from_dict(data)
    assert str(info.value).strip()


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize(
    "data",
    [
        {"from": "t99", "to": "f1"},
        {"from": "nowhere", "to": "stock"},
        {"to": "f1"},
        {"from": "t1"},
        {"from": ["t1"], "to": "f1"},
        {"from": "t1", "to": "f1", "count": 0},
        {"from": "t1", "to": "f1", "count": "two"},
        ["t1", "f1", 1],
        "t1 f1",
    ],
)
def test_apply_refuses_a_malformed_move_with_a_value_error_that_says_why(game: str, data: Any) -> None:
    state = sample(game)
    before = state.to_position()
    with pytest.raises(ValueError) as info:
        state.apply(data)
    assert str(info.value).strip()
    assert state.to_position() == before, "nothing is lost on bad input"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_unknown_pile_error_names_the_pile(game: str) -> None:
    with pytest.raises(ValueError, match="t99"):
        sample(game).apply({"from": "t99", "to": "f1"})


def test_pile_of_another_game_is_unknown() -> None:
    with pytest.raises(ValueError, match="lid1"):
        sample("klondike").apply({"from": "lid1", "to": "f1"})
    with pytest.raises(ValueError, match="w1"):
        sample("josephine").apply({"from": "stock", "to": "w1"})


def test_double_move_naming_the_other_seats_pile_is_refused_with_its_name() -> None:
    state = sample("double")
    with pytest.raises(ValueError, match=r"p2\.t2"):
        state.apply({"from": "p1.t1", "to": "p2.t2"})


def test_double_pile_without_a_seat_is_unknown() -> None:
    with pytest.raises(ValueError):
        sample("double").apply({"from": "t1", "to": "f1"})


@pytest.mark.parametrize("game", GAME_NAMES)
def test_apply_takes_a_move_or_a_dict_alike(game: str) -> None:
    state = sample(game)
    data = SAMPLES[game][1]
    assert state.apply(data).to_position() == state.apply(solitaire.Move.from_dict(data)).to_position()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_apply_leaves_its_receiver_unchanged(game: str) -> None:
    state = sample(game)
    before = state.to_position()
    state.apply(SAMPLES[game][1])
    assert state.to_position() == before


@pytest.mark.parametrize("game", GAME_NAMES)
def test_legal_moves_are_moves_whose_dicts_apply(game: str) -> None:
    state = sample(game)
    for move in state.legal_moves():
        assert isinstance(move, solitaire.Move)
        state.apply(move.to_dict())


# --- IllegalMove -----------------------------------------------------------------------


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(solitaire.IllegalMove, ValueError)


def test_illegal_move_says_why_in_plain_words() -> None:
    error = refused(solitaire.load("klondike", {"t1": ["9H"], "t2": ["10D"]}), "t1", "t2")
    text = str(error)
    assert "9H" in text and "10D" in text, text
    assert "Traceback" not in text and "<" not in text, text


def test_illegal_move_carries_a_short_code_and_data() -> None:
    error = refused(solitaire.load("josephine", {"t1": ["7H"], "t2": ["8C"]}), "t1", "t2")
    assert isinstance(error.code, str) and error.code and " " not in error.code
    assert isinstance(error.data, dict)


def test_refused_move_leaves_the_state_as_it_was() -> None:
    state = solitaire.load("klondike", {"t1": ["9H"], "t2": ["10D"]})
    before = state.to_position()
    with pytest.raises(solitaire.IllegalMove):
        play(state, "t1", "t2")
    assert state.to_position() == before


# --- Card text and positions -----------------------------------------------------------


def test_ten_may_be_written_as_t_on_input() -> None:
    state = solitaire.load("klondike", {"t1": ["th", "TS"], "waste": ["9H"]})
    assert pile(state, "t1") == ["10h", "10S"]
    assert pile(play(state, "waste", "t1"), "t1") == ["10h", "10S", "9H"]


def test_cards_are_written_rank_then_suit() -> None:
    state = solitaire.load("klondike", {"t1": ["AS", "10H", "QD"]})
    assert pile(state, "t1") == ["AS", "10H", "QD"]


def test_face_down_cards_are_written_with_a_lower_case_suit() -> None:
    state = solitaire.load("klondike", {"t1": ["7h", "AS"]})
    assert pile(state, "t1") == ["7h", "AS"]


@pytest.mark.parametrize("text", ["ZZ", "1", "11H", "AX", "", "7H:3", 7])
def test_load_refuses_text_that_is_not_a_card(text: Any) -> None:
    with pytest.raises(ValueError):
        solitaire.load("klondike", {"t1": [text]})


def test_load_refuses_an_unknown_pile() -> None:
    with pytest.raises(ValueError, match="t8"):
        solitaire.load("klondike", {"t8": ["AS"]})


def test_double_foundation_cards_carry_their_owner() -> None:
    state = solitaire.load("double", {"f1": ["AH:2", "2H:1"]})
    assert pile(state, "f1") == ["AH:2", "2H:1"]


def test_missing_piles_are_empty() -> None:
    position = solitaire.load("klondike", {"t1": ["AS"]}).to_position()
    for pile_id in PILE_IDS["klondike"]:
        assert position.get(pile_id, []) == ([] if pile_id != "t1" else ["AS"])


@pytest.mark.parametrize("game", GAME_NAMES)
def test_to_position_and_load_round_trip(game: str) -> None:
    state = solitaire.new_game(game, seed=31)
    for move in state.legal_moves()[:3]:
        state = state.apply(move)
    again = solitaire.load(game, state.to_position())
    assert again.to_position() == state.to_position()
    assert [m.to_dict() for m in again.legal_moves()] == [m.to_dict() for m in state.legal_moves()]


def test_round_trip_keeps_the_counters() -> None:
    state = solitaire.load("klondike", {"waste": ["2C"], "t1": ["KD"], "score": 50}, draw=3)
    state = play(state, "waste", "stock")
    again = solitaire.load("klondike", state.to_position(), draw=3)
    assert again.score == state.score
    assert again.to_position() == state.to_position()


def test_editing_the_position_given_to_load_does_not_change_the_state() -> None:
    position = {"t1": ["9H"], "t2": ["10S"]}
    state = solitaire.load("klondike", position)
    position["t1"].append("KS")
    assert pile(state, "t1") == ["9H"]


def test_editing_to_position_output_does_not_change_the_state() -> None:
    state = solitaire.load("klondike", {"t1": ["9H"], "t2": ["10S"]})
    state.to_position()["t1"].append("KS")
    assert pile(state, "t1") == ["9H"]


# --- Draw and turn-over promises -----------------------------------------------------------


def test_draw_of_three_leaves_the_same_waste_as_three_draws_of_one() -> None:
    deal = solitaire.new_game("klondike", seed=8, draw=3).to_position()
    three = play(solitaire.load("klondike", deal, draw=3), "stock", "waste")
    one = solitaire.load("klondike", deal, draw=1)
    for _ in range(3):
        one = play(one, "stock", "waste")
    assert pile(three, "waste") == pile(one, "waste")
    assert pile(three, "stock") == pile(one, "stock")


@pytest.mark.parametrize("draw", [1, 3])
def test_turning_the_waste_over_deals_the_same_order_as_the_pass_before(draw: int) -> None:
    state = solitaire.new_game("klondike", seed=9, draw=draw, scoring=None)
    passes: list[list[list[str]]] = []
    for _ in range(2):
        seen = []
        while pile(state, "stock"):
            state = play(state, "stock", "waste")
            seen.append(pile(state, "waste"))
        passes.append(seen)
        state = play(state, "waste", "stock")
    assert passes[0] == passes[1]


# --- Views -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_NAMES)
def test_view_is_json_and_names_every_pile_by_its_id(game: str) -> None:
    view = solitaire.new_game(game, seed=4).view()
    json.dumps(view)
    assert set(view["piles"]) == set(PILE_IDS[game])
    assert view["game"] == game


@pytest.mark.parametrize("game", GAME_NAMES)
def test_view_shows_the_stock_as_a_count_and_never_the_seed(game: str) -> None:
    state = solitaire.new_game(game, seed=123456789)
    view = state.view()
    for pile_id in PILE_IDS[game]:
        if pile_id.endswith("stock"):
            assert isinstance(view["piles"][pile_id], int)
    assert "123456789" not in json.dumps(view)


def test_view_reports_won_and_over() -> None:
    state = solitaire.load("klondike", {"f1": ["AH"], "waste": ["2H"]})
    assert state.view()["is_won"] is False
    won = play(state, "waste", "f1")
    assert won.view()["is_won"] is True and won.view()["is_over"] is True


def test_view_keeps_the_score() -> None:
    assert solitaire.load("klondike", {"t1": ["KS"], "score": 35}).view()["score"] == 35
    assert solitaire.load("josephine", {"t1": ["KS"]}).view()["score"] is None
