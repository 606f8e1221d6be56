"""Klondike: one pack, seven piles, alternating colours, draw one or three.

Options: ``draw`` (1 or 3), ``passes`` (None for unlimited, or how many passes through
the stock), the variants ``whole_sequences``, ``any_card_in_space``, ``face_up`` and
``foundation_to_tableau``, and ``scoring`` ("standard", "vegas" or None).
"""

from __future__ import annotations

from typing import Any

from .base import Counters, Option, State, boolean, choice
from .cards import full_deck
from .klondike_like import (
    FOUNDATION_TO_TABLEAU,
    RECYCLE,
    TABLEAU_TO_FOUNDATION,
    WASTE_TO_FOUNDATION,
    WASTE_TO_TABLEAU,
    KlondikeLike,
)
from .shuffle import shuffled

# The standard scoring table, in points per kind of move.
STANDARD_POINTS = {
    WASTE_TO_TABLEAU: 5,
    WASTE_TO_FOUNDATION: 10,
    TABLEAU_TO_FOUNDATION: 10,
    FOUNDATION_TO_TABLEAU: -15,
}
TURN_UP_POINTS = 5
RECYCLE_PENALTY_DRAW_ONE = 100
RECYCLE_PENALTY_DRAW_THREE = 20
FREE_RECYCLES_DRAW_THREE = 2
VEGAS_ANTE = 52
VEGAS_PER_CARD = 5


MAX_PASSES = 1000


def _passes_ok(value: object) -> bool:
    return value is None or (type(value) is int and 1 <= value <= MAX_PASSES)


class Klondike(KlondikeLike):
    name = "klondike"
    title = "Klondike"
    OPTIONS = {
        "draw": choice(3, 1, 3),
        "passes": Option(None, _passes_ok, f"None (unlimited) or a number of passes from 1 to {MAX_PASSES}"),
        "whole_sequences": boolean(False),
        "any_card_in_space": boolean(False),
        "face_up": boolean(False),
        "foundation_to_tableau": boolean(True),
        "scoring": choice("standard", "standard", "vegas", None),
    }
    counter_names = ("passes", "score")

    def configure(self) -> None:
        options = self.options
        self.draw_count = options["draw"]
        self.max_passes = options["passes"]
        self.whole_sequences = options["whole_sequences"]
        self.any_card_in_space = options["any_card_in_space"]
        self.foundation_to_tableau = options["foundation_to_tableau"]
        self.stock_face_up = options["face_up"]

    def options_text(self) -> str:
        options = self.options
        words = [f"Draw {self.draw_count}"]
        passes = self.max_passes
        if passes is not None:
            words.append("1 pass" if passes == 1 else f"{passes} passes")
        words.append({"standard": "Standard scoring", "vegas": "Vegas", None: "No score"}[options["scoring"]])
        if options["face_up"]:
            words.append("Thoughtful (all cards face up)")
        if self.whole_sequences:
            words.append("Whole runs only")
        if self.any_card_in_space:
            words.append("Any card in a space")
        if not self.foundation_to_tableau:
            words.append("No cards back from the foundations")
        return " · ".join(words)

    def deal(self, seed: int) -> State:
        deck = shuffled(full_deck(), seed)
        columns, stock = self.deal_klondike(deck, face_up=self.options["face_up"])
        piles: list[tuple[int, ...]] = [() for _ in self.pile_ids]
        for t, column in enumerate(columns, start=1):
            piles[self.index[f"t{t}"]] = column
        piles[self.index["stock"]] = stock
        return self.new_state(piles, self.initial_counters())

    def count(self, counters: Counters, action: str, flipped: bool, state: State) -> Counters:
        if self.options["scoring"] != "standard":
            return counters
        points = STANDARD_POINTS.get(action, 0) + (TURN_UP_POINTS if flipped else 0)
        if action == RECYCLE:
            if self.draw_count == 1:
                points -= RECYCLE_PENALTY_DRAW_ONE
            elif counters[0] > FREE_RECYCLES_DRAW_THREE:
                # counters[0] already counts this turn-over: the third and later ones cost.
                points -= RECYCLE_PENALTY_DRAW_THREE
        if not points:
            return counters
        return (counters[0], max(counters[1] + points, 0))

    def score(self, state: State) -> int | None:
        scoring = self.options["scoring"]
        if scoring == "standard":
            return state.counters[1]
        if scoring == "vegas":
            on_foundations = sum(len(state.piles[f]) for f in self.foundations)
            return VEGAS_PER_CARD * on_foundations - VEGAS_ANTE
        return None

    def view_extra(self, state: State, player: int | None, exact: bool = True) -> dict[str, Any]:
        return self.passes_view(state, self.seat_by_number[0])
