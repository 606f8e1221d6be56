"""Double Solitaire: two seats race their own Klondike layouts onto shared foundations.

Each seat has its own pack, stock, waste and seven piles, draws three and may turn its
waste over without limit. The eight foundations are shared, and every card on them
remembers whose it is. The first seat to send all its cards up wins; if neither can
make progress any more (mutual blockage), the larger contribution wins, and equal
contributions are a draw.

The seat that moves is the one whose piles the move names. Who is allowed to send a
move for a seat is the caller's business, not the engine's.
"""

from __future__ import annotations

from typing import Any

from .base import ALL_HOME, BLOCKED, DRAW, FOUNDATION, Outcome, State, boolean
from .cards import OWNER_SHIFT, Card, face_text, full_deck, owner_of
from .klondike_like import KlondikeLike, Seat
from .moves import IllegalMove, Move
from .shuffle import shuffled, sub_seed

SEATS = (1, 2)


class Double(KlondikeLike):
    name = "double"
    title = "Double Solitaire"
    players = 2
    decks = 2
    OPTIONS = {"same_deal": boolean(False)}
    draw_count = 3
    max_passes = None
    foundation_to_tableau = False
    foundation_count = 8
    seat_numbers = SEATS
    counter_names = ("p1.passes", "p2.passes")

    def deal(self, seed: int) -> State:
        piles: list[tuple[int, ...]] = [() for _ in self.pile_ids]
        for number in SEATS:
            # With same_deal both seats get seat 1's shuffle; otherwise each its own.
            stream = 1 if self.options["same_deal"] else number
            deck = shuffled(full_deck(), sub_seed(seed, stream))
            columns, stock = self.deal_klondike(deck)
            seat = self.seat_by_number[number]
            for t, column in zip(seat.tableau, columns, strict=True):
                piles[t] = column
            piles[seat.stock] = stock
        return self.new_state(piles, self.initial_counters())

    def owned(self, card: Card, seat: Seat) -> Card:
        return (card & 0x7F) | (seat.number << OWNER_SHIFT)

    def load_card(self, pile_id: str, card: Card) -> Card:
        if self.roles[self.index[pile_id]] == FOUNDATION:
            if not owner_of(card):
                raise ValueError(f"foundation card {face_text(card)} on {pile_id} needs its owner, like 7H:1")
            return card
        return card & 0x7F

    def foundation_refused(self, card: Card, foundation: tuple[Card, ...], pile_id: str) -> IllegalMove:
        refusal = super().foundation_refused(card, foundation, pile_id)
        if foundation:
            top = foundation[-1]
            if (top & 3) == (card & 3) and ((top >> 2) & 15) >= ((card >> 2) & 15):
                owner = owner_of(top)
                return IllegalMove(
                    f"the {face_text(card)} spot on {pile_id} was just taken by player {owner}",
                    "foundation_taken",
                    card=face_text(card),
                    pile=pile_id,
                    top=face_text(top),
                    owner=owner,
                )
        return refusal

    def contributions(self, state: State) -> dict[str, int]:
        counts = {"1": 0, "2": 0}
        for f in self.foundations:
            for card in state.piles[f]:
                counts[str(owner_of(card))] += 1
        return counts

    def outcome(self, state: State, *, exact: bool = False) -> Outcome | None:
        """The first seat with all its cards home wins; when neither seat can make
        progress any more, the larger contribution wins and equal ones are a draw."""
        finished = self.finished_seat(state)
        contributions = self.contributions(state)
        if finished is not None:
            return Outcome(finished, ALL_HOME, contributions)
        over = state.is_over if exact else state.quick_over()
        if not over:
            return None
        one, two = contributions["1"], contributions["2"]
        if one == two:
            return Outcome(None, DRAW, contributions)
        return Outcome(1 if one > two else 2, BLOCKED, contributions)

    def result(self, state: State, *, exact: bool = True) -> dict[str, Any] | None:
        """The outcome in the view's older words: reason "finished" or "blocked"
        (a draw is "blocked" with no winner), and ``contributions``. None while the
        race goes on."""
        outcome = self.outcome(state, exact=exact)
        if outcome is None:
            return None
        reason = "finished" if outcome.reason == ALL_HOME else "blocked"
        return {"winner": outcome.winner, "reason": reason, "contributions": outcome.scores}

    def is_won(self, state: State) -> bool:
        return self.finished_seat(state) is not None

    def seat_of(self, pile_id: str | Move) -> int | None:
        """The seat (1 or 2) whose pile this is; ``None`` for a shared foundation.

        Given a ``Move`` (the older form), the seat the move belongs to.

        :raises UnknownPile: for a pile the game does not have.
        :raises NotYourPile: for a move naming both seats' piles.
        :raises IllegalMove: for a move between two foundations.
        """
        if isinstance(pile_id, Move):
            return self.seat_of_move(pile_id).number
        return super().seat_of(pile_id)

    def options_text(self) -> str:
        return "Same deal for both players" if self.options["same_deal"] else ""

    def moves_for(self, state: State, player: int | None) -> list[Move]:
        if player not in SEATS:
            return []
        return self.seat_moves(state, player)

    def can_auto_finish(self, state: State) -> bool:
        return False

    def has_seen_stock(self, state: State, seat: int) -> bool:
        # The rule book has the players check blockage over a full cycle of each stock;
        # the server is that referee, so it may look before the players have.
        return True

    def view_extra(self, state: State, player: int | None, exact: bool = True) -> dict[str, Any]:
        seats = {str(number): self.passes_view(state, self.seat_by_number[number]) for number in SEATS}
        return {
            "contributions": self.contributions(state),
            "seats": seats,
            "result": self.result(state, exact=exact),
        }
