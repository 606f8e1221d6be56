"""Josephine: two packs, ten piles of four face up, building down in suit, one pass.

It is Klondike's machine with the settings changed: sequences in suit, anything may
fill a space, the stock turns one card at a time and is never turned over. Part of an
in-suit run may move (PySolFC's reading of the rule book); the ``whole_sequences``
option lets only the whole run move, the other reading (docs/rules.md).
"""

from __future__ import annotations

from typing import Any

from .base import State, boolean
from .cards import full_deck
from .klondike_like import KlondikeLike
from .shuffle import shuffled

COLUMNS = 10
CARDS_PER_COLUMN = 4


class Josephine(KlondikeLike):
    name = "josephine"
    title = "Josephine"
    decks = 2
    draw_count = 1
    max_passes = 1
    same_suit = True
    any_card_in_space = True
    # The rule book never moves cards back off a foundation, so neither do we.
    foundation_to_tableau = False
    columns = COLUMNS
    foundation_count = 8
    counter_names = ("passes",)
    # Added after Josephine games were being saved: quiet, so {} stays Josephine's options.
    OPTIONS = {"whole_sequences": boolean(False, quiet=True)}

    def configure(self) -> None:
        self.whole_sequences = self.settings["whole_sequences"]

    def options_text(self) -> str:
        return "Whole sequences only" if self.whole_sequences else ""

    def deal(self, seed: int) -> State:
        deck = shuffled(full_deck() + full_deck(), seed)
        piles: list[tuple[int, ...]] = [() for _ in self.pile_ids]
        # Deal row by row, one card to each pile in turn, all face up.
        for t in range(COLUMNS):
            piles[self.index[f"t{t + 1}"]] = tuple(deck[t + COLUMNS * row] for row in range(CARDS_PER_COLUMN))
        rest = deck[COLUMNS * CARDS_PER_COLUMN :]
        piles[self.index["stock"]] = tuple(c | 64 for c in reversed(rest))
        return self.new_state(piles, self.initial_counters())

    def view_extra(self, state: State, player: int | None, exact: bool = True) -> dict[str, Any]:
        return self.passes_view(state, self.seat_by_number[0])
