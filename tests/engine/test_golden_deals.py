"""Deals never change: the first deals of each game, pinned, and the generator behind them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import solitaire
from solitaire.shuffle import SplitMix64, shuffled

GOLDEN = json.loads((Path(__file__).parent / "fixtures" / "golden_deals.json").read_text())
CASES = [
    (entry["game"], entry["options"], int(seed), position)
    for entry in GOLDEN.values()
    for seed, position in entry["deals"].items()
]


def test_splitmix64_matches_the_published_reference_outputs() -> None:
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    rng = SplitMix64(1234567)
    assert [rng.next64() for _ in range(2)] == [6457827717110365317, 3203168211198807973]


def test_shuffle_is_fisher_yates_from_the_last_place_down() -> None:
    assert shuffled(list(range(10)), 42) == shuffled(list(range(10)), 42)
    assert sorted(shuffled(list(range(52)), 7)) == list(range(52))
    assert shuffled(list(range(52)), 7) != shuffled(list(range(52)), 8)


@pytest.mark.parametrize(("name", "options", "seed", "position"), CASES)
def test_first_deals_are_pinned(
    name: str, options: dict[str, Any], seed: int, position: dict[str, Any]
) -> None:
    assert solitaire.new_game(name, seed=seed, **options).to_position() == position


def test_klondike_deal_one_has_seven_piles_of_one_to_seven_with_only_the_top_face_up() -> None:
    position = solitaire.new_game("klondike", seed=1).to_position()
    for t in range(1, 8):
        pile = position[f"t{t}"]
        assert len(pile) == t
        assert pile[-1][-1].isupper()
        assert all(card[-1].islower() for card in pile[:-1])
    assert len(position["stock"]) == 24


def test_same_deal_gives_both_seats_the_same_layout() -> None:
    position = solitaire.new_game("double", seed=5, same_deal=True).to_position()
    for pile in ["stock", *[f"t{t}" for t in range(1, 8)]]:
        assert position[f"p1.{pile}"] == position[f"p2.{pile}"]
    separate = solitaire.new_game("double", seed=5).to_position()
    assert separate["p1.stock"] != separate["p2.stock"]
