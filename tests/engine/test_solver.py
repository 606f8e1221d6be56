"""The solver: its wins replay to a win through the engine, and its "unsolvable" is right.

Positions are built with ``solitaire.load`` and may hold fewer cards than full packs; a
position is then won when every card in it is on the foundations. Solver budgets here
are node counts, never clocks: these tests check answers, not speed.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from typing import Any

import pytest

import solitaire
from solitaire import solver_klondike
from solitaire.solver import search_from
from solitaire.tools.winnability import main as winnability_main
from solitaire.tools.winnability import parse_options, wilson
from tests.engine.conftest import RANKS, suit_run

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
BUDGET = 20_000  # positions per solve: enough for these deals, small enough to be quick


def replays_to_a_win(state: Any, moves: list[Any]) -> bool:
    for move in moves:
        state = state.apply(move)
    return bool(state.is_won)


def solve(state: Any, nodes: int = BUDGET) -> Any:
    return solitaire.solve(state, timeout=600, max_nodes=nodes)


# --- the result -------------------------------------------------------------------


def test_result_is_a_frozen_value_with_status_moves_nodes_and_seconds() -> None:
    result = solve(solitaire.new_game("klondike", seed=2, draw=1))
    assert result.status == "solved"
    assert all(isinstance(move, solitaire.Move) for move in result.moves)
    assert result.nodes >= 1 and result.seconds >= 0
    with pytest.raises(AttributeError):
        result.status = "unknown"


def test_a_won_position_is_solved_with_no_moves() -> None:
    won = solitaire.load("klondike", {f"f{i + 1}": suit_run(s) for i, s in enumerate("CDHS")})
    result = solve(won)
    assert result.status == "solved" and result.moves == []


def test_running_out_of_budget_says_unknown_not_unsolvable() -> None:
    # Seed 3 of Josephine is not decided within a few hundred positions.
    result = solitaire.solve(solitaire.new_game("josephine", seed=3), max_nodes=300)
    assert result.status == "unknown" and result.moves == []


def test_the_timeout_is_honoured_with_any_clock() -> None:
    # A clock that ticks once per look: the search must stop after a few looks.
    ticks = iter(range(1_000_000))
    result = solitaire.solve(
        solitaire.new_game("josephine", seed=3), timeout=3, clock=lambda: float(next(ticks))
    )
    assert result.status == "unknown"
    assert result.nodes < 10_000


def test_double_and_thoughtless_solving_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="klondike, josephine and casket"):
        solitaire.solve(solitaire.new_game("double", seed=1))
    with pytest.raises(ValueError, match="thoughtful"):
        solitaire.solve(solitaire.new_game("klondike", seed=1), thoughtful=False)


# --- every win found replays to a win ----------------------------------------------

DEALS = [
    ("klondike", {"draw": 1}, range(1, 9)),
    ("klondike", {"draw": 3}, range(1, 7)),
    ("klondike", {"draw": 1, "passes": 2}, range(1, 5)),
    ("klondike", {"draw": 3, "passes": 3, "scoring": "vegas"}, range(5, 9)),
    ("klondike", {"draw": 1, "whole_sequences": True}, range(1, 5)),
    ("klondike", {"draw": 1, "any_card_in_space": True}, range(1, 5)),
    ("klondike", {"draw": 3, "face_up": True}, range(1, 5)),
    ("klondike", {"draw": 1, "foundation_to_tableau": False, "scoring": None}, range(1, 5)),
    ("josephine", {}, range(1, 4)),
    ("casket", {}, range(1, 6)),
    ("casket", {"hard": True}, range(1, 5)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options", "seeds"), DEALS, ids=lambda v: str(v))
def test_every_win_found_replays_to_a_win(game: str, options: dict[str, Any], seeds: range) -> None:
    solved = 0
    for seed in seeds:
        state = solitaire.new_game(game, seed=seed, **options)
        result = solve(state)
        assert result.status in ("solved", "unsolvable", "unknown")
        if result.status == "solved":
            solved += 1
            assert replays_to_a_win(state, result.moves), f"{game} {options} seed {seed}"
            # The state given is left as it was.
            assert state == solitaire.new_game(game, seed=seed, **options)
        else:
            assert result.moves == []
    assert solved, f"no {game} {options} deal among {list(seeds)} was solved: the test proves nothing"


def test_depth_first_search_agrees_with_best_first(monkeypatch: pytest.MonkeyPatch) -> None:
    best = [solve(solitaire.new_game("klondike", seed=seed, draw=1)).status for seed in range(1, 7)]
    monkeypatch.setattr(solver_klondike, "STRATEGY", "depth")
    for seed, expected in zip(range(1, 7), best, strict=True):
        state = solitaire.new_game("klondike", seed=seed, draw=1)
        result = solve(state)
        assert result.status == expected
        if result.status == "solved":
            assert replays_to_a_win(state, result.moves)


# --- small hand-made positions --------------------------------------------------------


def full(*suits: str) -> dict[str, list[str]]:
    """Foundations holding whole suits, f1 upward."""
    return {f"f{i + 1}": suit_run(s) for i, s in enumerate(suits)}


# Klondike: 5H lies on a face-down 4H; the only black 6 is on its foundation.
NEEDS_A_CARD_BACK = {
    "f1": suit_run("C"),
    "f2": suit_run("D", "A", "6"),
    "f3": suit_run("H", "A", "3"),
    "f4": suit_run("S", "A", "6"),
    "t1": ["4h", "5H"],
    "t2": ["7D"],
}
# Klondike: the talon, drawn in the order 2H AH 4H 3H.
TALON = ["3h", "4h", "ah", "2h"]


def test_klondike_a_card_must_come_back_off_a_foundation() -> None:
    state = solitaire.load("klondike", NEEDS_A_CARD_BACK, draw=1)
    result = solve(state)
    assert result.status == "solved"
    assert replays_to_a_win(state, result.moves)
    assert solitaire.Move("f4", "t2") in result.moves or any(m.source.startswith("f") for m in result.moves)
    # Without that option the same position is lost, and the solver proves it.
    closed = solitaire.load("klondike", NEEDS_A_CARD_BACK, draw=1, foundation_to_tableau=False)
    assert solve(closed).status == "unsolvable"


# Draw-three deal 1748, as the hint bot reached it: every card still down is under the
# 3D, which can go only onto a black 4; the 4C is under it and the 4S is under the
# 5S-KS on a foundation. The way out digs both major suits down in turn: KS into a
# space, KH into another, QH onto KS, QS onto KH, and so on to 4S onto 5D, where the
# 3D goes. The solver once pruned each card coming down as "nothing can go onto it
# next" (the card that would is still on a foundation) and called this lost.
DIG = {
    "f1": suit_run("S"),
    "f2": ["AD"],
    "f3": suit_run("H"),
    "f4": suit_run("C", "A", "3"),
    "t2": ["KD", "QC", "JD", "10C", "9D", "8C", "7D", "6C", "5D"],
    "t6": ["4d", "4c", "2d", "3D"],
    "t7": ["KC", "QD", "JC", "10D", "9C", "8D", "7C", "6D", "5C"],
}


def test_klondike_cards_are_dug_off_two_foundations_in_turn() -> None:
    state = solitaire.load("klondike", DIG, draw=3)
    result = solve(state)
    assert result.status == "solved", result.status
    assert replays_to_a_win(state, result.moves)
    assert sum(1 for m in result.moves if m.source.startswith("f")) >= 19  # KS-4S, KH-5H down


# The 3H must move to free the 4D and 2H below it, and the only black 4 is the 4S,
# under the 5S. Nothing is ever played onto the 5S (the 4H and 4D that would fit are
# face down): it comes down onto the 6D only so that the 4S can come down onto the 5D
# and take the 3H. A solver that brings a card down only to build on it calls this lost.
DUG_BELOW = {
    "f1": suit_run("S", "A", "5"),
    "f2": suit_run("D", "A", "3"),
    "f3": ["AH"],
    "t1": ["2h", "4d", "3H"],
    "t2": ["4h", "6D"],
    "t4": ["5D"],
}


def test_klondike_a_card_comes_down_only_to_uncover_the_one_below_it() -> None:
    position = DUG_BELOW
    state = solitaire.load("klondike", position, draw=1)
    result = solve(state)
    assert result.status == "solved" and replays_to_a_win(state, result.moves)
    assert result.moves[:2] == [solitaire.Move("f1", "t2"), solitaire.Move("f1", "t4")]
    closed = solitaire.load("klondike", position, draw=1, foundation_to_tableau=False)
    assert solve(closed).status == "unsolvable"


def test_klondike_a_card_on_its_own_ace_face_down_is_lost_unless_cards_come_back() -> None:
    position = {**full("C", "D", "S"), "t1": ["Ah", "2H"]}
    closed = solitaire.load("klondike", position, draw=1, foundation_to_tableau=False)
    assert solve(closed).status == "unsolvable"
    # Where cards may come back down, clubs and diamonds are dug down in turn (KC and
    # KD into spaces, QD onto KC, QC onto KD, ...) until the 2H can go onto the 3C.
    state = solitaire.load("klondike", position, draw=1)
    result = solve(state)
    assert result.status == "solved" and replays_to_a_win(state, result.moves)


def test_klondike_draw_three_reaches_only_every_third_card() -> None:
    # Draw one reaches every card; draw three shows only 4H and 3H on top, and is
    # lost unless 4H can be parked on the tableau to bring AH and 2H within reach.
    # (Cards may not come back down here: otherwise a black 5 dug off a foundation
    # would take the 4H, as in the next test.)
    bare = {"f1": suit_run("C"), "f2": suit_run("D"), "f4": suit_run("S"), "stock": TALON}
    closed = {"foundation_to_tableau": False}
    assert solve(solitaire.load("klondike", bare, draw=1, **closed)).status == "solved"
    assert solve(solitaire.load("klondike", bare, draw=3, **closed)).status == "unsolvable"
    dug = solitaire.load("klondike", bare, draw=3)
    result = solve(dug)
    assert result.status == "solved" and replays_to_a_win(dug, result.moves)
    parked = {
        "f1": suit_run("C"),
        "f2": suit_run("D"),
        "f4": suit_run("S", "A", "4"),
        "t1": ["5S"],
        "stock": TALON,
    }
    state = solitaire.load("klondike", parked, draw=3)
    result = solve(state)
    assert result.status == "solved" and replays_to_a_win(state, result.moves)
    assert solitaire.Move("waste", "t1") in result.moves


def test_klondike_pass_limit_is_respected() -> None:
    # Drawn in the order 2H 3H AH 4H: with one pass 2H ends up under 3H in the waste.
    # (Cards may not come back down: a black 4 dug off a foundation would take the 3H.)
    position = {**full("C", "D", "S"), "stock": ["4h", "ah", "3h", "2h"]}
    closed = {"foundation_to_tableau": False}
    assert solve(solitaire.load("klondike", position, draw=1, passes=1, **closed)).status == "unsolvable"
    state = solitaire.load("klondike", position, draw=1, passes=2, **closed)
    result = solve(state)
    assert result.status == "solved" and replays_to_a_win(state, result.moves)
    assert solitaire.Move("waste", "stock") in result.moves


JOSEPHINE_PAIRS = {f"t{i + 1}": [f"A{suit}", f"2{suit}"] for i, suit in enumerate("SSHHDDCC")}


def test_josephine_needs_a_space_and_solves_with_one() -> None:
    state = solitaire.load("josephine", {**JOSEPHINE_PAIRS, "t9": ["3S"]})
    result = solve(state)
    assert result.status == "solved" and replays_to_a_win(state, result.moves)


def test_josephine_without_a_space_is_lost() -> None:
    state = solitaire.load("josephine", {**JOSEPHINE_PAIRS, "t9": ["KS"], "t10": ["KH"]})
    assert solve(state).status == "unsolvable"


CASKET_SMALL = {"w1": ["AS", "2S"], "lid1": ["3S"], "jewels": ["4s", "AH"]}
CASKET_STUCK = {
    "w1": ["AS", "2S"],
    "w2": ["AS", "2S"],
    **{f"t{i + 1}": [card] for i, card in enumerate(["KH", "KH", "KD", "KD", "KC", "KC", "KS", "KS"])},
}


@pytest.mark.parametrize("hard", [False, True])
def test_casket_small_position_is_solved_through_the_lid_and_jewels(hard: bool) -> None:
    state = solitaire.load("casket", CASKET_SMALL, hard=hard)
    result = solve(state)
    assert result.status == "solved" and replays_to_a_win(state, result.moves)


@pytest.mark.parametrize("hard", [False, True])
def test_casket_kings_without_queens_are_lost(hard: bool) -> None:
    assert solve(solitaire.load("casket", CASKET_STUCK, hard=hard)).status == "unsolvable"


# --- known-winnable Klondike deals ------------------------------------------------------


def known_deals() -> list[dict[str, Any]]:
    data = json.loads((FIXTURES / "solver_klondike_deals.json").read_text())
    return list(data["deals"])


@pytest.mark.slow
@pytest.mark.parametrize("deal", known_deals(), ids=lambda deal: deal["name"])
def test_known_winnable_klondike_deals(deal: dict[str, Any]) -> None:
    state = solitaire.load("klondike", deal["position"], **deal["options"])
    # The recorded line wins, through the engine alone.
    line = [{"from": source, "to": target, "count": count} for source, target, count in deal["line"]]
    assert replays_to_a_win(state, line)
    # And the solver finds a win of its own.
    result = solve(state, nodes=200_000)
    assert result.status == "solved"
    assert replays_to_a_win(state, result.moves)


def test_known_deals_are_our_seeded_deals() -> None:
    for deal in known_deals():
        seed = int(deal["name"].split()[1].rstrip(","))
        dealt = solitaire.new_game("klondike", seed=seed, **deal["options"])
        assert dealt.to_position() == deal["position"]


# --- the winnability command --------------------------------------------------------


def test_wilson_interval_matches_the_textbook() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_options_are_read_as_typed_values() -> None:
    assert parse_options(["draw=1", "passes=none", "hard=true", "scoring=vegas"]) == {
        "draw": 1,
        "passes": None,
        "hard": True,
        "scoring": "vegas",
    }
    with pytest.raises(ValueError, match="key=value"):
        parse_options(["draw"])


def test_winnability_command_reports_shares_and_bounds(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run.json"
    code = winnability_main(["klondike", "draw=1", "--deals", "4", "--timeout", "30", "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr()
    assert "solved" in printed.out and "winnable:" in printed.out
    assert "[    4/4]" in printed.err  # progress as it goes
    data = json.loads(out.read_text())
    assert [deal["seed"] for deal in data["deals"]] == [1, 2, 3, 4]
    counts = data["summary"]["counts"]
    assert sum(counts.values()) == 4
    assert 0 <= data["summary"]["lower"] <= data["summary"]["upper"] <= 1
    quick = sum(1 for deal in data["deals"] if deal["status"] != "unknown" and deal["seconds"] <= 1.0)
    assert data["summary"]["decided_within_1s"] == quick / 4
    assert f"within 1 s: {100 * quick / 4:.1f}%" in printed.out


def test_the_documented_commands_run_as_modules_of_the_package() -> None:
    # docs/winnability.md names `python -m solitaire.winnability` and `python -m solitaire.bot`.
    for module, args in (
        ("solitaire.winnability", ["klondike", "draw=1", "--deals", "1", "--timeout", "30", "--quiet"]),
        (
            "solitaire.bot",
            ["klondike", "draw=1", "--games", "1", "--steps", "3", "--budget", "0.1", "--quiet"],
        ),
    ):
        done = subprocess.run(
            [sys.executable, "-m", module, *args], capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode == 0, done.stderr
        assert "seeds 1..1" in done.stdout


def test_winnability_command_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        winnability_main(["klondike", "draw=2"])
    assert "draw" in capsys.readouterr().err


def test_draw_three_waste_sizes_that_are_multiples_of_three_share_a_key() -> None:
    # With unlimited passes, draws alone lead from any of them to any other.
    state = solitaire.new_game("klondike", seed=3, draw=3)
    model = solver_klondike.KlondikeModel(state)
    found, piles, talon, _w, passes = model.start(state)
    keys = {w: model.key((found, piles, talon, w, passes)) for w in (0, 3, 6, 21, 24, 4, 7)}
    assert keys[0] == keys[3] == keys[6] == keys[21] == keys[24]
    assert keys[4] != keys[0] and keys[7] != keys[4]
    limited = solver_klondike.KlondikeModel(solitaire.new_game("klondike", seed=3, draw=3, passes=3))
    assert limited.key((found, piles, talon, 3, passes)) != limited.key((found, piles, talon, 6, passes))


def test_the_depth_first_pass_and_best_first_alone_agree() -> None:
    statuses: set[str] = set()
    for seed in (2, 3, 5):
        state = solitaire.new_game("klondike", seed=seed, draw=3)
        with_pass = solitaire.solve(state, timeout=600, max_nodes=15_000)
        alone = solitaire.solve(state, timeout=600, max_nodes=15_000, depth_first_nodes=0)
        statuses.add(alone.status)
        if "unknown" not in (with_pass.status, alone.status):
            assert with_pass.status == alone.status, seed
    assert {"solved", "unsolvable"} <= statuses  # both answers were compared


def test_search_from_with_a_depth_first_pass_agrees_and_its_wins_replay() -> None:
    """The hint's per-sample search: a depth-first pass first settles deals that the
    same number of positions of best-first alone leaves unknown, never contradicts it,
    and its winning lines are real wins."""
    settled_only_with_the_pass = 0
    statuses: set[str] = set()
    for seed in range(1, 13):
        state = solitaire.new_game("klondike", seed=seed, draw=3)
        model = solver_klondike.KlondikeModel(state, strict_safety=True)
        root = model.start(state)
        with_pass, _score, actions = search_from(model, root, 3000, depth_first_nodes=1500)
        alone, _score, _actions = search_from(model, root, 3000)
        statuses.add(with_pass)
        if "unknown" not in (with_pass, alone):
            assert with_pass == alone, seed
        elif alone == "unknown" and with_pass != "unknown":
            settled_only_with_the_pass += 1
        if with_pass == "solved":
            current = state
            for action in actions:
                for move in model.expand(action, current):
                    current = current.apply(move)
            assert current.is_won, seed
    assert {"solved", "unsolvable"} <= statuses
    assert settled_only_with_the_pass >= 1


# --- the safe-foundation rule where cards may come back down ----------------------------


def _goes_up_on_its_own(position: dict[str, list[str]], card: str, **options: Any) -> dict[bool, bool]:
    """Whether the solver may send ``card`` up at once, by the looser rule (False) and
    the stricter one (True), with the foundations as they are in ``position``."""
    state = solitaire.load("klondike", position, draw=1, **options)
    code = solitaire.parse_card(card) & 63
    answer: dict[bool, bool] = {}
    for strict in (False, True):
        model = solver_klondike.KlondikeModel(state, strict_safety=strict)
        answer[strict] = model.is_safe(model.start(state)[0], code)
    return answer


def _with_the_rest_in_the_stock(position: dict[str, list[str]]) -> dict[str, list[str]]:
    placed = {card.upper() for cards in position.values() for card in cards}
    rest = [rank + suit.lower() for suit in "CDHS" for rank in RANKS if rank + suit not in placed]
    return {**position, "stock": rest}


def test_five_of_hearts_goes_up_when_black_threes_and_two_of_diamonds_are_up() -> None:
    # Opposite colour within two ranks (black 3s up), same colour within three (2D up):
    # nothing that could be built on 5H could fail to go up itself, so 5H goes up.
    base = {
        "f1": suit_run("C", "A", "3"),
        "f2": suit_run("D", "A", "2"),
        "f3": suit_run("H", "A", "4"),
        "f4": suit_run("S", "A", "3"),
        "t1": ["5H"],
    }
    assert _goes_up_on_its_own(_with_the_rest_in_the_stock(base), "5H") == {False: True, True: False}
    # A black card three ranks lower still out (3S): 4S could need 5H to hold it.
    lower_spades = {**base, "f4": suit_run("S", "A", "2")}
    assert _goes_up_on_its_own(_with_the_rest_in_the_stock(lower_spades), "5H") == {False: False, True: False}
    # The other red suit four ranks lower (only AD up): 3D could need 4S, then 5H.
    lower_diamonds = {**base, "f2": suit_run("D", "A", "A")}
    assert _goes_up_on_its_own(_with_the_rest_in_the_stock(lower_diamonds), "5H") == {
        False: False,
        True: False,
    }
    # Where cards never come back down, the classic rule (black 4s up) is unchanged.
    closed = _with_the_rest_in_the_stock(base)
    assert _goes_up_on_its_own(closed, "5H", foundation_to_tableau=False) == {False: False, True: False}


def test_the_looser_safe_rule_never_changes_a_verdict_on_small_random_positions() -> None:
    # Cards A-6 of every suit (the rest count as up), dealt at random into five piles
    # with face-down cards, a stock, and a few cards already up: the solver with either
    # rule must agree on every position it decides (both search exhaustively). About
    # half are lost; the looser rule cuts the positions searched about fourfold.
    import random

    rng = random.Random(12)
    compared = differed = 0
    for _ in range(150):
        cards = [rank + suit for suit in "CDHS" for rank in RANKS[:6]]
        rng.shuffle(cards)
        position: dict[str, list[str]] = {}
        for suit_index, suit in enumerate("CDHS"):
            height = rng.choice((0, 0, 1, 2, 3))
            position[f"f{suit_index + 1}"] = [rank + suit for rank in RANKS[:height]]
            for card in position[f"f{suit_index + 1}"]:
                cards.remove(card)
        for pile in range(1, 6):
            size = min(len(cards), rng.randint(1, 4))
            dealt, cards = cards[:size], cards[size:]
            position[f"t{pile}"] = [c.lower() if i < len(dealt) - 1 else c for i, c in enumerate(dealt)]
        position["stock"] = [c.lower() for c in cards]
        state = solitaire.load("klondike", position, draw=1)
        verdicts = set()
        for strict in (False, True):
            model = solver_klondike.KlondikeModel(state, strict_safety=strict)
            status, _best, _path = search_from(model, model.start(state), 200_000)
            verdicts.add(status)
        if "unknown" not in verdicts:
            compared += 1
            differed += len(verdicts) > 1
    assert compared >= 120 and differed == 0, (compared, differed)


# --- what the depth-first pass hands to best-first ------------------------------------


@pytest.mark.parametrize(("seed", "exhausted_in"), [(40, 5671), (66, 41373), (103, 2572)])
def test_positions_the_depth_first_pass_finished_with_are_not_searched_again(
    seed: int, exhausted_in: int
) -> None:
    """Draw-3 deals whose whole space depth-first search exhausts in ``exhausted_in``
    positions: cut the pass at a tenth, a half and nine tenths of that, and best-first
    proves the loss by visiting only what the pass left, not the whole space again."""
    state = solitaire.new_game("klondike", seed=seed, draw=3)
    alone = solitaire.solve(state, timeout=600, max_nodes=10 * exhausted_in, depth_first_nodes=0)
    assert (alone.status, alone.nodes) == ("unsolvable", exhausted_in)
    for share in (0.1, 0.5, 0.9):
        cut = int(exhausted_in * share)
        # The Python pass: the C one (the default here) keeps nothing to hand over.
        budget = {"timeout": 600, "max_nodes": 10 * exhausted_in, "depth_first_nodes": cut, "native": False}
        result = solitaire.solve(state, **budget)  # one pack: handed over by default
        assert result.status == "unsolvable"
        assert result.nodes <= exhausted_in + 100, (share, result.nodes)
        # Without the hand-over best-first visits every position again.
        again = solitaire.solve(state, **budget, hand_over=False)
        assert (again.status, again.nodes) == ("unsolvable", cut + exhausted_in), share


def test_a_depth_first_pass_cut_anywhere_never_hides_a_win_from_best_first() -> None:
    """The positions handed over exclude those still open on the pass's stack: the
    only win may lie beyond one of them. In the two dig positions the win is a single
    narrow line (handing over the stack too loses it when the pass is cut after 3 to 29
    positions); wherever the pass is cut, each stays solved and its line replays."""
    for position, draw in ((DIG, 3), (DUG_BELOW, 1)):
        state = solitaire.load("klondike", position, draw=draw)
        whole = solitaire.solve(state, timeout=600, max_nodes=10**6, depth_first_nodes=10**5, native=False)
        assert whole.status == "solved"
        for cut in range(1, whole.nodes + 1):
            result = solitaire.solve(state, timeout=600, max_nodes=10**6, depth_first_nodes=cut, native=False)
            assert result.status == "solved", cut
            assert replays_to_a_win(state, result.moves)


def test_the_hints_search_can_hand_over_too() -> None:
    """``search_from`` (the hint's search) with ``hand_over``: after a pass cut at half
    of a lost deal's space, the positions left prove the loss; without it they do not."""
    state = solitaire.new_game("klondike", seed=40, draw=3)
    model = solver_klondike.KlondikeModel(state)
    root = model.start(state)
    budget = 5671 + 100  # the deal's whole space (above), and a little
    kept = search_from(model, root, budget, depth_first_nodes=5671 // 2, hand_over=True, native=False)
    assert kept[0] == "unsolvable"
    again = search_from(model, root, budget, depth_first_nodes=5671 // 2, native=False)
    assert again[0] == "unknown"
