"""The hint: given only a view, it names a legal move, and it cannot see hidden cards.

The hint receives nothing but the view, so it cannot read a ``State``. These tests check
the rest of that promise: the views it gets hold no hidden card (face-down places are
null, stocks are counts), it needs nothing beyond that plain JSON data, it never
changes the view, and two deals that look the same get the same hint however their
hidden cards lie. The hint bot plays through the same function.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import solitaire
from solitaire.tools.bot import main as bot_main
from solitaire.tools.bot import play
from tests.engine.conftest import suit_run


def plain(view: dict[str, Any]) -> dict[str, Any]:
    """The view as a browser would send it back: JSON data and nothing else."""
    result: dict[str, Any] = json.loads(json.dumps(view))
    return result


GAMES: list[tuple[str, dict[str, Any]]] = [
    ("klondike", {"draw": 1}),
    ("klondike", {"draw": 3}),
    ("josephine", {}),
    ("casket", {}),
    ("casket", {"hard": True}),
    ("double", {}),
]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=lambda v: str(v))
def test_hint_is_one_of_the_views_legal_moves_and_the_engine_accepts_it(
    game: str, options: dict[str, Any]
) -> None:
    state = solitaire.new_game(game, seed=3, **options)
    player = 1 if game == "double" else None
    for _ in range(12):
        view = plain(state.view(player))
        move = solitaire.hint(view)
        if move is None:
            assert not view["moves"] or state.is_over
            break
        assert move in view["moves"]
        state = state.apply(move)


def test_views_given_to_the_hint_hold_no_hidden_card() -> None:
    state = solitaire.new_game("klondike", seed=5, draw=3)
    view = plain(state.view())
    assert view["piles"]["stock"] == 24  # a count, not cards
    for t in range(1, 8):
        pile = view["piles"][f"t{t}"]
        assert pile[:-1] == [None] * (t - 1)  # face-down places are null
        assert pile[-1] is not None


def test_hint_does_not_change_the_view() -> None:
    view = plain(solitaire.new_game("klondike", seed=8, draw=1).view())
    before = copy.deepcopy(view)
    solitaire.hint(view)
    assert view == before


def test_same_view_same_hint() -> None:
    view = plain(solitaire.new_game("casket", seed=4).view())
    assert solitaire.hint(view) == solitaire.hint(copy.deepcopy(view))


def swap_hidden(position: dict[str, Any], first: tuple[str, int], second: tuple[str, int]) -> dict[str, Any]:
    """The same position with two hidden cards exchanged."""
    swapped = copy.deepcopy(position)
    (pile_a, i), (pile_b, j) = first, second
    swapped[pile_a][i], swapped[pile_b][j] = swapped[pile_b][j], swapped[pile_a][i]
    return swapped


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_deals_that_look_the_same_get_the_same_hint(seed: int) -> None:
    # Exchange hidden cards (a face-down tableau card with a stock card): the player
    # sees exactly the same thing, so the hint must not change.
    state = solitaire.new_game("klondike", seed=seed, draw=3)
    position = state.to_position()
    other = solitaire.load("klondike", swap_hidden(position, ("t7", 0), ("stock", 5)), draw=3)
    assert other.to_position() != position
    assert plain(other.view()) == plain(state.view())
    assert solitaire.hint(plain(other.view())) == solitaire.hint(plain(state.view()))


def test_hint_sends_a_card_up_when_that_wins() -> None:
    position = {
        "f1": suit_run("C"),
        "f2": suit_run("D"),
        "f3": suit_run("H"),
        "f4": suit_run("S", "A", "Q"),
        "t3": ["KS"],
    }
    state = solitaire.load("klondike", position, draw=1)
    assert solitaire.hint(plain(state.view())) == {"from": "t3", "to": "f4", "count": 1}


def test_no_moves_no_hint() -> None:
    position = {"f1": suit_run("C"), "f2": suit_run("D"), "f4": suit_run("S"), "t1": ["Ah", "2H"]}
    state = solitaire.load("klondike", position, draw=1, foundation_to_tableau=False)
    view = plain(state.view())
    assert view["moves"] == []
    assert solitaire.hint(view) is None


def test_hint_copes_with_a_view_that_does_not_add_up() -> None:
    # A hand-edited view (a card shown twice) must not break the hint: it falls back
    # to judging the listed moves.
    view = plain(solitaire.new_game("klondike", seed=1, draw=1).view())
    view["piles"]["waste"] = [view["piles"]["t1"][-1]]
    move = solitaire.hint(view)
    assert move is None or move in view["moves"]


# --- the hint bot -------------------------------------------------------------------


def test_bot_plays_a_deal_to_an_end_by_the_hint() -> None:
    result = play("klondike", {"draw": 1}, seed=2, max_steps=1500)
    assert result["ending"] in ("won", "over", "no hint", "loop", "step cap")
    assert result["won"] == (result["ending"] == "won")
    assert result["steps"] > 0


def test_bot_command_prints_the_win_rate_with_an_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot_main(["klondike", "draw=1", "--games", "2", "--steps", "400", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "won" in out and "95% Wilson" in out
