"""The space bound (``solitaire/bounds.py``): a position where no tableau pile can ever
be emptied is lost, and the bound never calls a winnable position lost.

Positions are built with ``solitaire.load`` and may hold fewer cards than full packs.
The reference is the solver's own exhaustive search with the bound switched off; budgets
are node counts, never clocks.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import solitaire
from solitaire import solver_casket, solver_klondike
from solitaire.bounds import no_space_ever
from solitaire.solver import search_from
from tests.engine.conftest import RANKS

SUITS = "CDHS"
NODES = 50_000


def above(heights: dict[str, int]) -> list[str]:
    """Two of every card above each suit's height (the rest of the packs is up)."""
    return [rank + suit for suit, height in heights.items() for rank in RANKS[height:] for _ in range(2)]


def foundations(heights: dict[str, int]) -> dict[str, list[str]]:
    piles: dict[str, list[str]] = {}
    for i, (suit, height) in enumerate(heights.items()):
        for j in range(2):
            piles[f"f{2 * i + j + 1}"] = [rank + suit for rank in RANKS[:height]]
    return piles


def rank_order(card: str) -> int:
    return RANKS.index(card[:-1])


def deal_into(rng: random.Random, cards: list[str], count: int) -> list[list[str]]:
    """``cards`` cut into ``count`` non-empty piles, most of them put in rank order with
    the lowest card deepest (the order that blocks most)."""
    cuts = sorted(rng.sample(range(1, len(cards)), count - 1))
    piles = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]
    return [sorted(pile, key=rank_order) if rng.random() < 0.9 else pile for pile in piles]


def josephine_endgame(rng: random.Random) -> dict[str, list[str]]:
    heights = {suit: rng.randint(3, 9) for suit in SUITS}
    cards = above(heights)
    rng.shuffle(cards)
    talon = max(1, len(cards) // 5)
    position = foundations(heights)
    for i, pile in enumerate(deal_into(rng, cards[talon:], 10)):
        position[f"t{i + 1}"] = pile
    waste = rng.randint(0, talon)
    position["waste"] = cards[:waste]
    position["stock"] = [card.lower() for card in cards[waste:talon]]
    return position


def casket_endgame(rng: random.Random) -> dict[str, list[str]]:
    heights = {suit: rng.randint(4, 10) for suit in SUITS}
    cards = above(heights)
    rng.shuffle(cards)
    position = foundations(heights)
    lid = rng.randint(0, 5)
    for i, card in enumerate(cards[:lid]):
        position[f"lid{i + 1}"] = [card]
    rest = cards[lid:]
    wastes = len(rest) // 4
    for i, pile in enumerate(deal_into(rng, rest[wastes:], 8)):
        position[f"t{i + 1}"] = pile
    for i, pile in enumerate(deal_into(rng, rest[:wastes], 3) if wastes >= 3 else [rest[:wastes], [], []]):
        position[f"w{i + 1}"] = pile
    return position


def verdict(model: Any, state: Any) -> str:
    status, _best, _path = search_from(model, model.start(state), NODES)
    return status


@pytest.mark.parametrize(
    ("game", "options", "model_class", "endgame"),
    [
        ("josephine", {}, solver_klondike.KlondikeModel, josephine_endgame),
        ("casket", {"hard": True}, solver_casket.CasketModel, casket_endgame),
    ],
    ids=["josephine", "casket-hard"],
)
def test_the_space_bound_never_calls_a_winnable_position_lost(
    game: str, options: dict[str, Any], model_class: Any, endgame: Any
) -> None:
    # Random endgames: the bound's "lost" must never meet a win found by the exhaustive
    # search without it, and with the bound on, the search must decide every position
    # it decided before the same way. The bound must also fire, on positions the
    # reference proves lost, or this test could not fail.
    rng = random.Random(5)
    proved = agreed = 0
    for _ in range(120):
        state = solitaire.load(game, endgame(rng), **options)
        bounded = model_class(state)
        bounded.check_spaces = True  # on by default in Josephine only (docs/winnability.md)
        reference = model_class(state)
        reference.check_spaces = False
        truth = verdict(reference, state)
        lost = bounded.space_bound(bounded.start(state))
        assert not (lost and truth == "solved"), state.to_position()
        with_bound = verdict(bounded, state)
        if truth != "unknown" and with_bound != "unknown":
            assert with_bound == truth
            agreed += 1
        proved += lost and truth == "unsolvable"
    assert proved >= 5 and agreed >= 100, (proved, agreed)


def blocked(t9: list[str]) -> dict[str, list[str]]:
    """Spades A-5 and hearts, diamonds and clubs A-2, both packs, the spade aces up.
    Each 2 of the three other suits lies on its own ace, each 3 of spades on its 2."""
    position: dict[str, list[str]] = {"f1": ["AS"], "f2": ["AS"]}
    for i, suit in enumerate("HHDDCC"):
        position[f"t{i + 1}"] = [f"A{suit}", f"2{suit}"]
    position["t7"] = ["2S", "3S"]
    position["t8"] = ["2S", "3S"]
    position["t9"] = t9
    position["t10"] = ["4S", "5S"]
    return position


def test_ten_piles_that_can_never_be_emptied_are_lost_without_a_search() -> None:
    # Every top waits for a card under itself: each 2 for its ace, each 3 of spades
    # for a 2 (or a 4 that lies under a 5), each 5 of spades for a 4. With one space
    # the deal would come out, but no pile can ever be emptied to make one.
    state = solitaire.load("josephine", blocked(["4S", "5S"]))
    model = solver_klondike.KlondikeModel(state)
    assert model.space_bound(model.start(state))
    reference = solver_klondike.KlondikeModel(state)
    reference.check_spaces = False
    assert verdict(reference, state) == "unsolvable"


def test_a_pile_that_can_be_emptied_is_left_to_the_search() -> None:
    # The same, but with the ninth pile's 4 of spades on its 5: a 3 of spades can go
    # onto it, its 2 then goes up, a pile empties, and the deal comes out.
    state = solitaire.load("josephine", blocked(["5S", "4S"]))
    model = solver_klondike.KlondikeModel(state)
    assert not model.space_bound(model.start(state))
    assert verdict(model, state) == "solved"


def test_a_stock_card_buried_on_the_last_pass_cannot_help() -> None:
    # Josephine's one pass: the 6 of spades comes first, while no 7 of spades is out to
    # take it, and the King of clubs drawn next buries it for good. The 7 of spades,
    # drawn last, goes onto the 8, but the 6 stays under the King, so no 5 of spades can
    # ever move and no pile empties. Were the stock's cards open (taken in any order),
    # 7, 6 and then the 5 and the 3 would move and a pile would empty: the order proves it.
    position = blocked(["8S"])
    position["stock"] = ["7s", "kc", "6s"]  # the last is drawn first
    state = solitaire.load("josephine", position)
    model = solver_klondike.KlondikeModel(state)
    found, piles, talon, w, _passes = model.start(state)
    assert talon == bytes([6 << 2 | 3, 13 << 2 | 0, 7 << 2 | 3])
    assert model.space_bound(model.start(state))
    assert not no_space_ever(found, 2, piles, (talon[:w],), talon[w:])
    reference = solver_klondike.KlondikeModel(state)
    reference.check_spaces = False
    assert verdict(reference, state) == "unsolvable"
    # Drawn the other way round (the King first), the 6 comes out on top and is played.
    position["stock"] = ["6s", "7s", "kc"]
    state = solitaire.load("josephine", position)
    model = solver_klondike.KlondikeModel(state)
    assert not model.space_bound(model.start(state))
