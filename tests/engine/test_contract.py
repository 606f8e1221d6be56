"""The engine's one interface (docs/engine-contract.md): errors with codes and data, strict
moves and options, stale moves, outcomes, seats, auto-finish, safe moves, descriptions,
the hot-path ending check, and states that never print a hidden card.

Generic checks run over every game and option set (``OPTION_SETS``), by random play.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire
from solitaire.registry import rules_for
from tests.engine.conftest import PILE_IDS, hidden_slots, mv, strings_in
from tests.engine.test_properties import MODEST, OPTION_SETS, SEEDS, label, walk

GAME_NAMES = ("klondike", "josephine", "casket", "double")

# Every code a refused move may carry, with the keys its ``data`` always has.
ERROR_CODES: dict[str, set[str]] = {
    "bad_move": {"field"},  # the only code whose key may be missing
    "unknown_pile": {"pile"},
    "not_your_pile": {"source", "target", "seat", "other_seat"},
    "no_such_move": {"source", "target"},
    "count": {"source", "target", "count", "allowed"},
    "empty": {"pile"},
    "stock_not_empty": {"pile"},
    "no_more_passes": {"passes"},
    "face_down": {"pile", "count"},
    "onto_face_down": {"card", "pile"},
    "not_a_run": {"pile", "count", "run", "build"},
    "whole_sequence": {"pile", "count", "run"},
    "no_return": {"pile"},
    "space": {"card", "pile", "fills"},
    "tableau": {"card", "pile", "top", "build"},
    "foundation": {"card", "pile", "top"},
    "foundation_taken": {"card", "pile", "top", "owner"},
    "race_over": {"winner"},
    "occupied": {"pile", "top"},
    "lid_closed": {"pile", "hard"},
    "cards_not_allowed": {"source", "target"},
    "stale": {"pile", "expected", "found"},
}

CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[CDHS](?![0-9A-Za-z])")
CONTRACT = Path(__file__).resolve().parents[2] / "docs" / "engine-contract.md"


def check_error(error: ValueError, state: Any) -> None:
    """A refusal is a MoveError with a documented code, its data keys, and no hidden card."""
    assert isinstance(error, solitaire.MoveError), f"{type(error).__name__}: {error}"
    assert error.code in ERROR_CODES, f"undocumented code {error.code!r}: {error}"
    keys = set(error.data)
    if error.code == "bad_move":
        assert keys <= ERROR_CODES["bad_move"]
    else:
        assert keys == ERROR_CODES[error.code], f"{error.code}: data keys {sorted(keys)}"
    json.dumps(error.data)
    assert str(error).strip()
    visible = {text for text in strings_in(state.view()) if CARD_TEXT.fullmatch(text.split(":")[0])}
    visible = {text.split(":")[0] for text in visible}
    # A stale move's "expected" only echoes what the mover sent.
    public = {key: value for key, value in error.data.items() if key != "expected"}
    shown = {text for text in strings_in(public) if CARD_TEXT.fullmatch(text)}
    assert shown <= visible, f"{error.code} names cards the player cannot see: {shown - visible}"


# --- Errors --------------------------------------------------------------------------------


def test_every_error_is_a_value_error_with_a_code_and_data() -> None:
    for kind in (solitaire.UnknownPile, solitaire.NotYourPile, solitaire.IllegalMove, solitaire.StaleMove):
        assert issubclass(kind, ValueError)
        assert issubclass(kind, solitaire.MoveError)
    assert issubclass(solitaire.StaleMove, solitaire.IllegalMove)
    assert not issubclass(solitaire.UnknownPile, solitaire.IllegalMove)
    assert not issubclass(solitaire.NotYourPile, solitaire.IllegalMove)


def test_every_code_is_listed_in_the_contract_with_its_data_keys() -> None:
    text = CONTRACT.read_text()
    for code, keys in ERROR_CODES.items():
        line = next((row for row in text.splitlines() if row.startswith(f"| `{code}`")), None)
        assert line is not None, f"docs/engine-contract.md does not list {code!r}"
        for key in keys:
            assert f"`{key}`" in line, f"docs/engine-contract.md: {code!r} misses data key {key!r}"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_unknown_pile_is_its_own_error_and_names_the_pile(game: str) -> None:
    state = solitaire.new_game(game, seed=1)
    with pytest.raises(solitaire.UnknownPile) as info:
        state.apply({"from": "t99", "to": "f1"})
    assert info.value.code == "unknown_pile" and info.value.data == {"pile": "t99"}
    assert str(info.value).startswith("unknown pile")


def test_a_double_move_across_seats_is_not_your_pile() -> None:
    state = solitaire.load("double", {"p1.t1": ["9H"], "p2.t2": ["10S"]})
    with pytest.raises(solitaire.NotYourPile) as info:
        state.apply(mv("p1.t1", "p2.t2"))
    assert info.value.code == "not_your_pile"
    assert info.value.data == {"source": "p1.t1", "target": "p2.t2", "seat": 1, "other_seat": 2}


def test_a_seat_may_not_move_the_other_seats_cards() -> None:
    state = solitaire.load("double", {"p1.t1": ["9H"], "p1.t2": ["10S"], "p2.t1": ["9D"], "p2.t2": ["10C"]})
    with pytest.raises(solitaire.NotYourPile) as info:
        state.apply(mv("p2.t1", "p2.t2"), seat=1)
    assert info.value.data == {"source": "p2.t1", "target": "p2.t2", "seat": 1, "other_seat": 2}
    assert state.apply(mv("p2.t1", "p2.t2"), seat=2) == state.apply(mv("p2.t1", "p2.t2"))
    with pytest.raises(solitaire.UnknownPile):
        state.apply(mv("t1", "f1"), seat=1)
    solo = solitaire.load("klondike", {"t1": ["9H"], "t2": ["10S"]})
    assert solo.apply(mv("t1", "t2"), seat=1) == solo.apply(mv("t1", "t2"))


def test_a_tableau_refusal_names_both_cards_and_the_pile() -> None:
    state = solitaire.load("klondike", {"t1": ["2S"], "t2": ["5H"]})
    with pytest.raises(solitaire.IllegalMove) as info:
        state.apply(mv("t1", "t2"))
    assert info.value.code == "tableau"
    assert info.value.data == {"card": "2S", "pile": "t2", "top": "5H", "build": "alternating"}


def test_a_foundation_refusal_on_an_empty_foundation_says_it_takes_an_ace() -> None:
    state = solitaire.load("klondike", {"t1": ["JH"]})
    with pytest.raises(solitaire.IllegalMove) as info:
        state.apply(mv("t1", "f2"))
    assert info.value.code == "foundation"
    assert info.value.data == {"card": "JH", "pile": "f2", "top": None}


def test_errors_survive_pickling_with_their_code_and_data() -> None:
    import pickle

    error = solitaire.StaleMove("gone", pile="t1", expected=["AH"], found=["8H"])
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is solitaire.StaleMove
    assert (again.code, again.data, str(again)) == ("stale", error.data, "gone")


# One position per code: (code, game, options, position, move).
EXAMPLES: list[tuple[str, str, dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    ("bad_move", "klondike", {}, {}, {"from": "t1", "to": "f1", "count": 1.0}),
    ("unknown_pile", "klondike", {}, {}, mv("t9", "f1")),
    ("not_your_pile", "double", {}, {"p1.t1": ["9H"], "p2.t1": ["10S"]}, mv("p1.t1", "p2.t1")),
    ("no_such_move", "klondike", {}, {"stock": ["2c"]}, mv("stock", "t1")),
    ("count", "klondike", {}, {"stock": ["2c", "3c"]}, mv("stock", "waste", 2)),
    ("empty", "klondike", {}, {"t1": ["KS"]}, mv("waste", "f1")),
    ("stock_not_empty", "klondike", {}, {"stock": ["2c"], "waste": ["3D"]}, mv("waste", "stock")),
    ("no_more_passes", "klondike", {"passes": 1}, {"waste": ["3D"]}, mv("waste", "stock")),
    ("face_down", "klondike", {}, {"t1": ["5h", "9S"], "t2": ["10H"]}, mv("t1", "t2", 2)),
    ("onto_face_down", "klondike", {}, {"t1": ["9S"], "t2": ["10h"]}, mv("t1", "t2")),
    ("not_a_run", "klondike", {}, {"t1": ["9S", "8S"], "t2": ["10H"]}, mv("t1", "t2", 2)),
    (
        "whole_sequence",
        "klondike",
        {"whole_sequences": True},
        {"t1": ["10S", "9H"], "t2": ["10C"]},
        mv("t1", "t2"),
    ),
    (
        "no_return",
        "klondike",
        {"foundation_to_tableau": False},
        {"f1": ["AH", "2H"], "t1": ["3S"]},
        mv("f1", "t1"),
    ),
    ("space", "klondike", {}, {"t1": ["QH"]}, mv("t1", "t2")),
    ("tableau", "klondike", {}, {"t1": ["2S"], "t2": ["5H"]}, mv("t1", "t2")),
    ("foundation", "klondike", {}, {"t1": ["JH"]}, mv("t1", "f1")),
    (
        "foundation_taken",
        "double",
        {},
        {"f1": ["AH:2", "2H:2"], "p1.t1": ["2H"], "p2.t1": ["KC"]},
        mv("p1.t1", "f1"),
    ),
    ("race_over", "double", {}, {"p2.t1": ["KC"]}, mv("p2.t1", "p2.t2")),
    ("occupied", "casket", {}, {"lid1": ["5H"], "t1": ["9C"]}, mv("t1", "lid1")),
    ("lid_closed", "casket", {}, {"jewels": ["2c", "3D"], "t1": ["9C"]}, mv("t1", "lid1")),
    ("lid_closed", "casket", {"hard": True}, {"t1": ["9C"]}, mv("t1", "lid1")),
    ("cards_not_allowed", "klondike", {}, {"waste": ["3D"]}, {**mv("waste", "stock"), "cards": ["3D"]}),
    ("stale", "klondike", {}, {"t1": ["3D"]}, {**mv("t1", "f1"), "cards": ["AD"]}),
]


def test_every_documented_code_has_an_example() -> None:
    assert {example[0] for example in EXAMPLES} == set(ERROR_CODES)


@pytest.mark.parametrize(("code", "game", "options", "position", "move"), EXAMPLES)
def test_each_code_comes_with_its_data(
    code: str, game: str, options: dict[str, Any], position: dict[str, Any], move: dict[str, Any]
) -> None:
    state = solitaire.load(game, position, **options)
    with pytest.raises(solitaire.MoveError) as info:
        state.apply(move)
    assert info.value.code == code, str(info.value)
    check_error(info.value, state)


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_every_refusal_carries_a_documented_code_and_only_visible_cards(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    chooser = random.Random(play_seed ^ 0x3C)
    piles = PILE_IDS[game]
    for step, state in enumerate(walk(game, options, deal_seed, play_seed, steps=60)):
        if step % 4:
            continue
        legal = [move.to_dict() for move in state.legal_moves()]
        for _ in range(10):
            move: dict[str, Any] = {
                "from": chooser.choice(piles),
                "to": chooser.choice(piles),
                "count": chooser.choice((1, 1, 2, 3, 13)),
            }
            if move in legal:
                continue
            with pytest.raises(ValueError) as info:
                state.apply(move)
            check_error(info.value, state)


# --- Moves from the outside world -----------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"from": "t1", "to": "f1", "count": True},
        {"from": "t1", "to": "f1", "count": 1.0},
        {"from": "t1", "to": "f1", "count": 105},
        {"from": "t1", "to": "f1", "count": 2**70},
        {"from": True, "to": "f1"},
        {"from": "t1" * 20, "to": "f1"},
        {"from": "t\x001", "to": "f1"},
        {"from": "t1", "to": "\ud800"},
        {"from": "t1", "to": "f1", "\ud800": 1},
        {"from": "t1", "to": "f1", "cards": "AH"},
        {"from": "t1", "to": "f1", "cards": ["AH", "2H"]},
        {"from": "t1", "to": "f1", "cards": [1]},
        {"from": "t1", "to": "f1", "cards": ["ah"]},
        {"from": "t1", "to": "f1", "cards": ["AH\x00"]},
        {"from": "t1", "to": "f1", "cards": ["\ud800H"]},
        {"from": "t1", "to": "f1", "cards": ["TH"]},
        {"from": "t1", "to": "f1", "cards": [None]},
        {"from": "t1", "to": "f1", "cards": {"0": "AH"}},
    ],
)
def test_from_dict_refuses_wrong_types_lengths_and_characters_cleanly(data: Any) -> None:
    with pytest.raises(solitaire.MalformedMove) as info:
        solitaire.Move.from_dict(data)
    assert info.value.code == "bad_move"
    str(info.value).encode("utf-8")  # the reason itself is safe to send anywhere
    json.dumps(info.value.data)


def test_move_cards_round_trip_and_are_left_out_when_not_given() -> None:
    data = {"from": "t3", "to": "t4", "count": 2, "cards": ["10H", "9S"]}
    move = solitaire.Move.from_dict(data)
    assert move.cards == ("10H", "9S")
    assert move.to_dict() == data
    assert "cards" not in solitaire.Move("t3", "t4", 2).to_dict()


def test_cards_are_a_claim_not_part_of_the_moves_identity() -> None:
    assert solitaire.Move("t1", "f1", 1, ("AH",)) == solitaire.Move("t1", "f1")
    state = solitaire.load("klondike", {"t1": ["AH"]})
    assert solitaire.Move.from_dict({"from": "t1", "to": "f1", "cards": ["AH"]}) in state.legal_moves()


# --- Stale moves ------------------------------------------------------------------------------


def test_a_repeated_move_of_an_ace_that_has_gone_up_is_stale_not_a_different_card() -> None:
    # Four quick double-clicks on the A of hearts: the second must not move the 8H under it.
    state = solitaire.load("klondike", {"t1": ["9S", "8H", "AH"]})
    move = {"from": "t1", "to": "f1", "cards": ["AH"]}
    after = state.apply(move)
    with pytest.raises(solitaire.StaleMove) as info:
        after.apply(move)
    assert info.value.code == "stale"
    assert info.value.data == {"pile": "t1", "expected": ["AH"], "found": ["8H"]}


def test_a_move_whose_cards_are_there_applies_as_without_them() -> None:
    state = solitaire.load("klondike", {"t1": ["5s", "10H", "9S"], "t2": ["JC"]})
    named = state.apply({"from": "t1", "to": "t2", "count": 2, "cards": ["10H", "9S"]})
    assert named == state.apply(mv("t1", "t2", 2))


def test_a_stale_move_never_shows_a_face_down_card() -> None:
    state = solitaire.load("klondike", {"t1": ["5s", "9S"], "t2": ["10H"]})
    with pytest.raises(solitaire.StaleMove) as info:
        state.apply({"from": "t1", "to": "t2", "count": 2, "cards": ["10D", "9S"]})
    assert info.value.data["found"] == [None, "9S"]
    assert "5S" not in str(info.value) + json.dumps(info.value.data)


def test_a_draw_from_a_face_down_stock_names_no_cards() -> None:
    state = solitaire.new_game("klondike", seed=3)
    with pytest.raises(solitaire.IllegalMove) as info:
        state.apply({"from": "stock", "to": "waste", "cards": ["AH"]})
    assert info.value.code == "cards_not_allowed"


def test_casket_stock_top_may_be_named_but_not_the_cards_below_it() -> None:
    state = solitaire.load("casket", {"stock": ["2C", "3C"], "t1": ["9H"]})
    state.apply({"from": "stock", "to": "w1", "cards": ["3C"]})
    with pytest.raises(solitaire.StaleMove) as info:
        state.apply({"from": "stock", "to": "w1", "cards": ["2C"]})
    assert info.value.data["found"] == ["3C"]


def test_double_stale_move_on_the_other_seats_foundation_card() -> None:
    state = solitaire.load("double", {"f1": ["AH:2"], "p1.t1": ["KS", "2H"], "p2.t1": ["KC"]})
    with pytest.raises(solitaire.StaleMove):
        state.apply({"from": "p1.t1", "to": "f1", "cards": ["AH"]})
    assert state.apply({"from": "p1.t1", "to": "f1", "cards": ["2H"]}).is_won is False


# --- Strict options and the rules cache ---------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("klondike", {"draw": 1.0}),
        ("klondike", {"draw": True}),
        ("klondike", {"passes": 3.0}),
        ("klondike", {"passes": True}),
        ("klondike", {"face_up": 1}),
        ("klondike", {"scoring": b"vegas"}),
        ("josephine", {"whole_sequences": 0}),
        ("casket", {"hard": 1}),
        ("casket", {"hard": 0}),
        ("double", {"same_deal": 1}),
    ],
)
def test_options_are_checked_by_exact_type(game: str, options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        rules_for(game, **options)


def test_a_float_draw_cannot_poison_the_rules_cache() -> None:
    # Reproduction: {"draw": 1.0} used to be accepted and cached as equal to draw 1.
    with pytest.raises(ValueError):
        rules_for("klondike", draw=1.0, passes=7)
    rules = rules_for("klondike", draw=1, passes=7)
    assert type(rules.options["draw"]) is int
    state = solitaire.new_game("klondike", seed=2, draw=1, passes=7).apply(mv("stock", "waste"))
    assert len(state.to_position()["waste"]) == 1


def test_an_int_for_a_yes_no_option_is_refused_whatever_was_cached_before() -> None:
    rules_for("casket", hard=True)
    with pytest.raises(ValueError):
        rules_for("casket", hard=1)
    rules_for("double", same_deal=True)
    with pytest.raises(ValueError):
        rules_for("double", same_deal=1)


def test_equal_option_sets_share_one_rules_object() -> None:
    assert rules_for("klondike", draw=3) is rules_for("klondike")
    assert rules_for("casket", hard=False) is rules_for("casket")


# --- Hidden cards never printed ---------------------------------------------------------------------


def secret_faces(state: Any, game: str) -> set[str]:
    position = state.to_position()
    hidden = hidden_slots(position, game)
    secret, seen = set(), set()
    for pile_id in PILE_IDS[game]:
        for index, card in enumerate(position.get(pile_id, [])):
            face = card.split(":")[0].upper().replace("T", "10")
            (secret if index in hidden[pile_id] else seen).add(face)
    return secret - seen


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_repr_and_str_of_a_state_show_no_hidden_card_and_no_seed(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    for state in walk(game, options, deal_seed, play_seed, steps=40):
        for text in (repr(state), str(state), repr(state.rules), repr(state.outcome())):
            printed = set(CARD_TEXT.findall(text))
            leaked = printed & secret_faces(state, game)
            assert not leaked, f"{text} shows hidden cards {leaked}"
            assert deal_seed < 10**6 or str(deal_seed) not in text, "a seed is printed"


def test_repr_counts_the_stock_and_face_down_cards() -> None:
    state = solitaire.load("klondike", {"stock": ["2c", "3d"], "t1": ["7h", "8s", "QD"], "waste": ["4S"]})
    text = repr(state)
    assert "stock:2" in text and "t1:[2 down QD]" in text and "waste:[4S]" in text
    assert "7H" not in text.upper() and "8S" not in text.upper() and "2C" not in text.upper()


# --- Outcomes and seats ----------------------------------------------------------------------------


def test_a_won_game_has_outcome_won_by_seat_one() -> None:
    state = solitaire.load("klondike", {"f1": ["AH"], "waste": ["2H"]})
    assert state.outcome() is None
    outcome = state.apply(mv("waste", "f1")).outcome()
    assert outcome == solitaire.Outcome(1, solitaire.WON)
    assert outcome.to_dict() == {"winner": 1, "reason": "won", "scores": None}


def test_a_stuck_game_has_outcome_stuck_with_no_winner() -> None:
    state = solitaire.load("klondike", {"f1": ["AH"], "waste": ["10D"], "t1": ["9c", "QH"]}, draw=1, passes=1)
    assert state.outcome() == solitaire.Outcome(None, solitaire.STUCK)
    assert state.outcome(exact=True) == solitaire.Outcome(None, solitaire.STUCK)


def test_double_first_seat_all_home_wins() -> None:
    state = solitaire.load("double", {"f1": ["AH:1"], "p1.waste": ["2H"], "p2.t1": ["KS"]})
    outcome = state.apply(mv("p1.waste", "f1")).outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (1, solitaire.ALL_HOME)
    assert outcome.scores == {"1": 2, "2": 0}


def test_double_blockage_higher_contribution_wins_and_equal_is_a_draw() -> None:
    blocked = {"f1": ["AH:2", "2H:2"], "p1.t1": ["KS"], "p2.t1": ["KC"], "p1.t2": ["5h", "JD"]}
    outcome = solitaire.load("double", blocked).outcome(exact=True)
    assert outcome == solitaire.Outcome(2, solitaire.BLOCKED, {"1": 0, "2": 2})
    even = {"f1": ["AH:2", "2H:1"], "p1.t1": ["KS"], "p2.t1": ["KC"], "p1.t2": ["5h", "JD"]}
    assert solitaire.load("double", even).outcome(exact=True) == solitaire.Outcome(
        None, solitaire.DRAW, {"1": 1, "2": 1}
    )


def test_double_result_keeps_its_older_words() -> None:
    state = solitaire.load("double", {"f1": ["AH:1"], "p1.waste": ["2H"], "p2.t1": ["KS"]})
    after = state.apply(mv("p1.waste", "f1"))
    assert after.rules.result(after) == {"winner": 1, "reason": "finished", "contributions": {"1": 2, "2": 0}}


def test_seat_of_names_the_seat_of_each_double_pile_and_none_elsewhere() -> None:
    double = rules_for("double")
    assert double.seat_of("p1.t3") == 1 and double.seat_of("p2.stock") == 2
    assert double.seat_of("f4") is None
    assert double.seat_of(solitaire.Move("p2.waste", "f1")) == 2  # the older form
    for game in ("klondike", "josephine", "casket"):
        rules = rules_for(game)
        assert all(rules.seat_of(pile) is None for pile in PILE_IDS[game])
    with pytest.raises(solitaire.UnknownPile):
        double.seat_of("t1")


# --- Auto-finish and safe moves --------------------------------------------------------------------


def test_auto_finish_moves_win_the_game() -> None:
    state = solitaire.load("klondike", {"f1": ["AH", "2H"], "t1": ["5H", "4H", "3H"], "t2": ["7H", "6H"]})
    moves = state.auto_finish_moves()
    assert moves is not None and len(moves) == 5
    for move in moves:
        state = state.apply(move)
    assert state.is_won


def test_auto_finish_moves_are_none_while_cards_are_hidden() -> None:
    assert solitaire.load("klondike", {"t1": ["5h", "AH"]}).auto_finish_moves() is None
    assert solitaire.load("klondike", {"f1": ["AH"], "t1": ["5H", "3H", "2H"]}).auto_finish_moves() is None


def test_aces_are_always_safe_to_play_up() -> None:
    state = solitaire.load("klondike", {"t1": ["9s", "AH"], "t2": ["AC"], "stock": ["5d"]})
    assert {m.source for m in state.safe_foundation_moves()} == {"t1", "t2"}


def test_a_three_is_not_safe_while_a_black_two_may_still_want_it() -> None:
    position = {"f1": ["AH", "2H"], "f2": ["AS"], "f3": ["AD"], "t1": ["3H"], "t2": ["2S"]}
    for f2t in (True, False):
        state = solitaire.load("klondike", position, foundation_to_tableau=f2t)
        assert [m.to_dict() for m in state.safe_foundation_moves()] == [mv("t2", "f2")]


def test_where_cards_come_back_a_card_waits_for_everything_two_ranks_below() -> None:
    # Both black fours are home, so no card could go on the 5H; but the 3D is not home.
    position = {
        "f1": ["AH", "2H", "3H", "4H"],
        "f2": ["AS", "2S", "3S", "4S"],
        "f3": ["AC", "2C", "3C", "4C"],
        "f4": ["AD", "2D"],
        "t1": ["5H"],
        "t2": ["3D"],
    }
    without = solitaire.load("klondike", position, foundation_to_tableau=False)
    assert {m.source for m in without.safe_foundation_moves()} == {"t1", "t2"}
    with_back = solitaire.load("klondike", position, foundation_to_tableau=True)
    assert {m.source for m in with_back.safe_foundation_moves()} == {"t2"}


def test_a_draw_three_waste_card_is_never_called_safe() -> None:
    state = solitaire.load("klondike", {"waste": ["AH"], "stock": ["5d"]}, draw=3)
    assert state.safe_foundation_moves() == []
    state = solitaire.load("klondike", {"waste": ["AH"], "stock": ["5d"]}, draw=1)
    assert state.safe_foundation_moves() == [solitaire.Move("waste", "f1")]


def test_double_offers_no_safe_moves_in_a_race() -> None:
    assert solitaire.load("double", {"p1.t1": ["AH"]}).safe_foundation_moves() == []


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_safe_moves_are_legal_foundation_moves_one_per_card(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    for state in walk(game, options, deal_seed, play_seed, steps=80):
        legal = state.legal_moves()
        safe = state.safe_foundation_moves()
        assert len({m.source for m in safe}) == len(safe)
        for move in safe:
            assert move in legal and move.target.startswith("f")


# --- Descriptions for the UI ---------------------------------------------------------------------------

ROLES = {"stock", "waste", "foundation", "tableau", "reserve", "jewels"}
FILLS = {"king", "any", "ace", "none", "stock", "waste", "jewels"}


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
def test_describe_names_every_pile_with_a_label_role_and_fill(case: tuple[str, dict[str, Any]]) -> None:
    game, options = case
    rules = rules_for(game, **options)
    description = rules.describe()
    json.dumps(description)
    assert description["game"] == game and description["title"]
    assert description["players"] == (2 if game == "double" else 1)
    assert list(description["piles"]) == list(rules.pile_ids)
    for pile in description["piles"].values():
        assert pile["label"] and pile["role"] in ROLES and pile["fills"] in FILLS
    assert isinstance(description["options_text"], str)
    assert description["draw"] in (1, 3)


def test_klondike_describes_its_space_rule_passes_and_draw() -> None:
    description = rules_for("klondike", draw=1, passes=3, scoring="vegas").describe()
    assert description["piles"]["t1"] == {"label": "Pile 1", "role": "tableau", "fills": "king"}
    assert (description["passes"], description["draw"]) == (3, 1)
    assert description["options_text"] == "Draw 1 · 3 passes · Vegas"
    assert rules_for("klondike", any_card_in_space=True).describe()["piles"]["t4"]["fills"] == "any"
    assert rules_for("josephine").describe()["piles"]["t10"]["fills"] == "any"
    assert rules_for("double").describe()["piles"]["p2.t1"]["label"] == "Player 2's pile 1"


# --- The hot-path ending check ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_quick_over_never_contradicts_is_over(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    for step, state in enumerate(walk(game, options, deal_seed, play_seed, steps=150)):
        quick = state.quick_over()
        if state.is_won:
            assert quick is True
        if quick is not None or step % 5 == 0:
            assert state.is_over == (quick if quick is not None else state.is_over)
        if quick is True:
            break


def test_quick_over_finds_a_stock_card_that_fits_after_a_lap() -> None:
    # Nothing plays now, but the second draw brings up the 9H, which goes on the 10S.
    position = {"t1": ["10S"], "stock": ["9h", "2c", "3c", "4c", "5c", "6c"], "f1": ["AH"], "passes": 1}
    state = solitaire.load("klondike", position, draw=3)
    assert state.quick_over() is False


def test_view_can_skip_the_deep_search() -> None:
    state = solitaire.load("klondike", {"f1": ["AH"], "waste": ["10D"], "t1": ["9c", "QH"]}, draw=1, passes=1)
    assert state.view(exact=False)["is_over"] is True


# --- Rule readings ------------------------------------------------------------------------------------------


def test_thoughtful_klondike_deals_every_card_face_up_and_shows_the_stock_in_order() -> None:
    state = solitaire.new_game("klondike", seed=12, face_up=True, draw=3)
    position = state.to_position()
    assert all(card[-1].isupper() for pile in PILE_IDS["klondike"] for card in position[pile])
    view = state.view()
    assert view["piles"]["stock"] == 24 and view["stock_cards"] == position["stock"]
    after = state.apply(mv("stock", "waste"))
    assert after.view()["stock_cards"] == position["stock"][:-3]


def test_thoughtful_klondike_stock_stays_face_up_after_a_turn_over() -> None:
    state = solitaire.load("klondike", {"waste": ["2C", "3D"], "t1": ["KS"]}, face_up=True, draw=1)
    after = state.apply(mv("waste", "stock"))
    assert after.to_position()["stock"] == ["3D", "2C"]
    assert after.view()["stock_cards"] == ["3D", "2C"]


def test_josephine_lets_part_of_an_in_suit_run_move_by_default() -> None:
    state = solitaire.load("josephine", {"t1": ["9H", "8H", "7H"], "t2": ["8H"], "t3": ["10H"]})
    assert mv("t1", "t2", 1) in [m.to_dict() for m in state.legal_moves()]
    assert state.apply(mv("t1", "t2", 1)).to_position()["t2"] == ["8H", "7H"]
    assert state.apply(mv("t1", "t3", 3)).to_position()["t3"] == ["10H", "9H", "8H", "7H"]


def test_josephine_whole_sequences_lets_only_the_whole_run_move() -> None:
    position = {"t1": ["10H", "9H", "8H", "7H"], "t2": ["8H"], "t3": ["JH"]}
    state = solitaire.load("josephine", position, whole_sequences=True)
    with pytest.raises(solitaire.IllegalMove) as info:
        state.apply(mv("t1", "t2", 1))
    assert info.value.code == "whole_sequence"
    assert state.apply(mv("t1", "t3", 4)).to_position()["t3"] == ["JH", "10H", "9H", "8H", "7H"]
    assert mv("t1", "t2", 1) not in [m.to_dict() for m in state.legal_moves()]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
MOVE_LIKE = st.fixed_dictionaries(
    {},
    optional={
        "from": JSON | st.sampled_from(["t1", "stock", "p1.t1", "f1"]),
        "to": JSON | st.sampled_from(["t2", "waste", "f1"]),
        "count": JSON | st.integers(min_value=-2, max_value=200),
        "cards": JSON | st.lists(st.sampled_from(["AH", "10S", "7H:1", "ah", "1H"]), max_size=3),
    },
)


@settings(max_examples=150, deadline=None, database=None)
@given(data=JSON | MOVE_LIKE)
def test_any_json_is_a_move_or_a_malformed_move_and_apply_never_fails_otherwise(data: Any) -> None:
    try:
        move = solitaire.Move.from_dict(data)
    except solitaire.MalformedMove as error:
        assert error.code == "bad_move"
        str(error).encode("utf-8")
        return
    assert solitaire.Move.from_dict(move.to_dict()) == move
    for game in ("klondike", "double"):
        try:
            solitaire.new_game(game, seed=1).apply(move)
        except solitaire.MoveError as error:
            assert error.code in ERROR_CODES
