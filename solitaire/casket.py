"""Casket: two packs; jewels under a lid, walls and a base of tableau piles.

Thirteen jewels lie face down with the top one turned up; five lid cells above them
each hold one card; eight tableau piles (two walls of two, a base of four) build down
in suit, one card at a time. The stock lies face up and feeds three waste piles. Every
refill is automatic: an empty lid cell takes the top jewel at once, an empty tableau
pile takes the stock's top card at once. Once the jewels are gone, an empty lid cell
may be filled by hand with any available card (never, in the ``hard`` variation).
"""

from __future__ import annotations

from typing import Any

from .base import (
    FOUNDATION,
    JEWELS,
    RESERVE,
    STOCK,
    TABLEAU,
    WASTE,
    Rules,
    State,
    boolean,
    fits_foundation,
    foundation_refusal,
)
from .cards import FACE_DOWN, Card, face_text, full_deck
from .moves import IllegalMove, Move
from .shuffle import shuffled

JEWEL_COUNT = 13
LID_CELLS = 5
TABLEAU_PILES = 8
WASTE_PILES = 3
FOUNDATIONS = 8


class Casket(Rules):
    name = "casket"
    title = "Casket"
    decks = 2
    OPTIONS = {"hard": boolean(False)}

    def declare_piles(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        ids = ["stock"] + [f"w{i}" for i in range(1, WASTE_PILES + 1)]
        ids += [f"f{i}" for i in range(1, FOUNDATIONS + 1)]
        ids += [f"t{i}" for i in range(1, TABLEAU_PILES + 1)]
        ids += [f"lid{i}" for i in range(1, LID_CELLS + 1)]
        ids.append("jewels")
        roles = [STOCK] + [WASTE] * WASTE_PILES + [FOUNDATION] * FOUNDATIONS
        roles += [TABLEAU] * TABLEAU_PILES + [RESERVE] * LID_CELLS + [JEWELS]
        return tuple(ids), tuple(roles)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        roles = self.roles
        self.stock = self.index["stock"]
        self.jewels = self.index["jewels"]
        self.wastes = tuple(i for i, r in enumerate(roles) if r == WASTE)
        self.tableau = tuple(i for i, r in enumerate(roles) if r == TABLEAU)
        self.lid = tuple(i for i, r in enumerate(roles) if r == RESERVE)
        self.sources = (self.stock, *self.wastes, *self.tableau, *self.lid)

    # --- the game in words, for the UI --------------------------------------------------

    def options_text(self) -> str:
        return "Hard (an empty lid cell stays empty)" if self.options["hard"] else ""

    def pile_label(self, pile_id: str) -> str:
        for prefix, word in (("lid", "Lid cell"), ("w", "Waste"), ("f", "Foundation"), ("t", "Pile")):
            if pile_id.startswith(prefix) and pile_id[len(prefix) :].isdigit():
                return f"{word} {pile_id[len(prefix) :]}"
        return pile_id.capitalize()

    def pile_fills(self, index: int) -> str:
        role = self.roles[index]
        if role == TABLEAU:
            return "stock"  # refilled from the stock at once; any card once it is gone
        if role == FOUNDATION:
            return "ace"
        if role == WASTE:
            return "stock"
        if role == RESERVE:
            return "jewels"  # refilled from the jewels at once; then by hand unless hard
        return "none"

    # --- safe moves to the foundations (docs/rules.md) -----------------------------------

    def safe_sources(self, state: State) -> tuple[int, ...]:
        # Lifting a card must not set off a refill: that would change which card a
        # later refill brings. Waste piles never refill; a lid cell refills only from
        # the jewels, a tableau pile only from the stock, when the move empties it.
        piles = state.piles
        sources = list(self.wastes)
        sources += [t for t in self.tableau if len(piles[t]) > 1 or not piles[self.stock]]
        if not piles[self.jewels]:
            sources += self.lid
        return tuple(sources)

    def children_of(self, face: Card) -> tuple[Card, ...]:
        return (face - 4,) if face >> 2 > 1 else ()

    def deal(self, seed: int) -> State:
        deck = shuffled(full_deck() + full_deck(), seed)
        piles: list[tuple[Card, ...]] = [() for _ in self.pile_ids]
        jewels = [c | FACE_DOWN for c in deck[:JEWEL_COUNT]]
        jewels[-1] &= ~FACE_DOWN
        piles[self.jewels] = tuple(jewels)
        position = JEWEL_COUNT
        for cell in self.lid:
            piles[cell] = (deck[position],)
            position += 1
        for t in self.tableau:
            piles[t] = (deck[position],)
            position += 1
        piles[self.stock] = tuple(reversed(deck[position:]))
        return self.new_state(piles, ())

    def lid_open(self, piles: tuple[tuple[Card, ...], ...]) -> bool:
        """Empty lid cells take cards by hand only once the jewels are gone."""
        return not piles[self.jewels] and not self.options["hard"]

    def legal_moves(self, state: State) -> list[Move]:
        piles = state.piles
        ids = self.pile_ids
        moves: list[Move] = []
        stock = piles[self.stock]
        if stock:
            moves += [Move("stock", ids[w]) for w in self.wastes]
        lid_open = self.lid_open(piles)
        for source in self.sources:
            pile = piles[source]
            if not pile:
                continue
            card = pile[-1]
            source_id = ids[source]
            for f in self.foundations:
                if fits_foundation(card, piles[f]):
                    moves.append(Move(source_id, ids[f]))
            for t in self.tableau:
                if t != source and self.fits_tableau(card, piles[t]):
                    moves.append(Move(source_id, ids[t]))
            if lid_open and self.roles[source] != RESERVE:
                moves += [Move(source_id, ids[c]) for c in self.lid if not piles[c]]
        return moves

    def fits_tableau(self, card: Card, pile: tuple[Card, ...]) -> bool:
        if not pile:
            return True
        top = pile[-1]
        return (top & 3) == (card & 3) and ((top >> 2) & 15) == ((card >> 2) & 15) + 1

    def apply(self, state: State, move: Move) -> State:
        source = self.pile(move.source)
        target = self.pile(move.target)
        roles = self.roles
        source_role, target_role = roles[source], roles[target]
        ends = {"source": move.source, "target": move.target}
        if move.count != 1:
            raise IllegalMove(
                "in Casket only one card moves at a time", "count", count=move.count, allowed=1, **ends
            )
        if source_role in (FOUNDATION, JEWELS):
            what = (
                "foundation cards stay put"
                if source_role == FOUNDATION
                else "jewels only go to the lid, by themselves"
            )
            raise IllegalMove(f"cards cannot be taken from {move.source}: {what}", "no_such_move", **ends)
        piles = list(state.piles)
        pile = piles[source]
        if not pile:
            raise IllegalMove(f"{move.source} is empty", "empty", pile=move.source)
        card = pile[-1]
        destination = piles[target]
        if target_role == WASTE:
            if source_role != STOCK:
                raise IllegalMove("only stock cards go onto the waste piles", "no_such_move", **ends)
        elif target_role == FOUNDATION:
            if not fits_foundation(card, destination):
                raise foundation_refusal(card, destination, move.target)
        elif target_role == TABLEAU:
            if target == source:
                raise IllegalMove("a card cannot move onto its own pile", "no_such_move", **ends)
            if not self.fits_tableau(card, destination):
                raise IllegalMove(
                    f"{face_text(card)} does not go on {face_text(destination[-1])}: "
                    "tableau builds down in the same suit",
                    "tableau",
                    card=face_text(card),
                    pile=move.target,
                    top=face_text(destination[-1]),
                    build="suit",
                )
        elif target_role == RESERVE:
            if destination:
                raise IllegalMove(
                    f"{move.target} already holds a card: a lid cell holds one",
                    "occupied",
                    pile=move.target,
                    top=face_text(destination[-1]),
                )
            if piles[self.jewels]:
                raise IllegalMove(
                    "lid cells are refilled from the jewels while any are left",
                    "lid_closed",
                    pile=move.target,
                    hard=self.options["hard"],
                )
            if self.options["hard"]:
                raise IllegalMove(
                    "in the hard variation an empty lid cell stays empty",
                    "lid_closed",
                    pile=move.target,
                    hard=True,
                )
            if source_role == RESERVE:
                raise IllegalMove("cards do not move from one lid cell to another", "no_such_move", **ends)
        else:
            raise IllegalMove(f"cards do not go onto {move.target}", "no_such_move", **ends)
        piles[source] = pile[:-1]
        piles[target] = destination + (card,)
        self.refill(piles, source)
        return State(self, tuple(piles), ())

    def refill(self, piles: list[tuple[Card, ...]], emptied: int) -> None:
        """The automatic refills: a lid cell from the jewels, a tableau pile from the stock."""
        if piles[emptied]:
            return
        role = self.roles[emptied]
        if role == RESERVE and piles[self.jewels]:
            jewels = piles[self.jewels]
            piles[emptied] = (jewels[-1] & ~FACE_DOWN,)
            rest = jewels[:-1]
            if rest and rest[-1] & FACE_DOWN:
                rest = rest[:-1] + (rest[-1] & ~FACE_DOWN,)
            piles[self.jewels] = rest
        elif role == TABLEAU and piles[self.stock]:
            stock = piles[self.stock]
            piles[emptied] = (stock[-1],)
            piles[self.stock] = stock[:-1]

    def progresses_now(self, state: State, seat: int) -> bool:
        """Any stock card can go to a waste pile; otherwise a card going up, a waste card
        played, or a lid card played while a jewel will refill its cell is progress."""
        piles = state.piles
        if piles[self.stock]:
            return True
        roles = self.roles
        index = self.index
        jewels = bool(piles[self.jewels])
        for move in state.legal_moves():
            source, target = roles[index[move.source]], roles[index[move.target]]
            if target == FOUNDATION or source == WASTE or (jewels and source == RESERVE):
                return True
        return False

    def progress(self, state: State, seat: int) -> tuple[int, ...]:
        piles = state.piles
        on_foundations = sum(len(piles[f]) for f in self.foundations)
        in_wastes = sum(len(piles[w]) for w in self.wastes)
        return (-on_foundations, len(piles[self.stock]), len(piles[self.jewels]), in_wastes)

    def view_extra(self, state: State, player: int | None, exact: bool = True) -> dict[str, Any]:
        stock = state.piles[self.stock]
        return {"stock_top": face_text(stock[-1]) if stock else None}
