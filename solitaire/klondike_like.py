"""Rules shared by the games laid out like Klondike.

A stock turned onto a waste, tableau piles built downward, foundations built up from
the Ace. Klondike, Josephine and each seat of Double Solitaire are this one machine
with different settings: how many cards a draw turns, how often the waste may be
turned over, whether the tableau builds by colour or by suit, what may fill a space.
Each seat has its own stock, waste and tableau; the foundations are shared.

Nothing here knows about a particular game's deal, scoring table or players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import (
    FOUNDATION,
    STOCK,
    TABLEAU,
    WASTE,
    Counters,
    Rules,
    State,
    fits_foundation,
    foundation_refusal,
)
from .cards import FACE_DOWN, FACE_MASK, KING, Card, face_text
from .moves import IllegalMove, Move, NotYourPile

_RED = (False, True, True, False)
_ACES = frozenset((1 << 2) | suit for suit in range(4))
_KINGS = frozenset((KING << 2) | suit for suit in range(4))

# What a move did, for scoring.
WASTE_TO_TABLEAU, WASTE_TO_FOUNDATION, TABLEAU_TO_FOUNDATION = "wt", "wf", "tf"
FOUNDATION_TO_TABLEAU, TABLEAU_TO_TABLEAU, DRAW, RECYCLE = "ft", "tt", "draw", "recycle"


@dataclass(frozen=True, slots=True)
class Seat:
    """The piles one player owns, by index, and where its pass count is kept."""

    number: int
    stock: int
    waste: int
    tableau: tuple[int, ...]
    passes_counter: int


class KlondikeLike(Rules):
    """A stock-waste-tableau game. Subclasses set the class attributes and deal."""

    draw_count: int = 1
    max_passes: int | None = None
    same_suit: bool = False
    any_card_in_space: bool = False
    whole_sequences: bool = False
    foundation_to_tableau: bool = True
    stock_face_up: bool = False  # every stock card lies face up (Thoughtful Klondike)
    columns: int = 7
    foundation_count: int = 4
    seat_numbers: tuple[int, ...] = (0,)

    def declare_piles(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        ids: list[str] = []
        roles: list[int] = []
        for f in range(1, self.foundation_count + 1):
            ids.append(f"f{f}")
            roles.append(FOUNDATION)
        for number in self.seat_numbers:
            prefix = f"p{number}." if number else ""
            ids += [prefix + "stock", prefix + "waste"]
            roles += [STOCK, WASTE]
            for t in range(1, self.columns + 1):
                ids.append(f"{prefix}t{t}")
                roles.append(TABLEAU)
        return tuple(ids), tuple(roles)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.configure()
        self.seat_by_number: dict[int, Seat] = {}
        self.seat_of_pile: list[Seat | None] = [None] * len(self.pile_ids)
        for k, number in enumerate(self.seat_numbers):
            prefix = f"p{number}." if number else ""
            seat = Seat(
                number,
                self.index[prefix + "stock"],
                self.index[prefix + "waste"],
                tuple(self.index[f"{prefix}t{t}"] for t in range(1, self.columns + 1)),
                k,
            )
            self.seat_by_number[number] = seat
            for i in (seat.stock, seat.waste, *seat.tableau):
                self.seat_of_pile[i] = seat
        self.build_rule = "in the same suit" if self.same_suit else "in alternating colours"
        self.build_word = "suit" if self.same_suit else "alternating"
        faces = [(rank << 2) | suit for suit in range(4) for rank in range(1, 14)]
        self.children: dict[Card, tuple[Card, ...]] = {
            face: tuple(child for child in faces if self.fits_tableau(child, (face,))) for face in faces
        }

    def configure(self) -> None:
        """Hook: read the options into the settings above."""

    def seats(self) -> tuple[int, ...]:
        return self.seat_numbers

    def seat_of(self, pile_id: str) -> int | None:
        seat = self.seat_of_pile[self.pile(pile_id)]
        return seat.number if seat is not None and len(self.seat_numbers) > 1 else None

    # --- the game in words, for the UI --------------------------------------------------

    def pile_label(self, pile_id: str) -> str:
        owner, _, name = pile_id.rpartition(".")
        if name.startswith("t"):
            label = f"Pile {name[1:]}"
        elif name.startswith("f"):
            label = f"Foundation {name[1:]}"
        else:
            label = name.capitalize()
        return f"Player {owner[1:]}'s {label.lower()}" if owner else label

    def pile_fills(self, index: int) -> str:
        role = self.roles[index]
        if role == TABLEAU:
            return "any" if self.any_card_in_space else "king"
        if role == FOUNDATION:
            return "ace"
        if role == WASTE:
            return "stock"
        return "waste" if self.max_passes != 1 else "none"

    def passes_allowed(self) -> int | None:
        return self.max_passes

    def cards_per_draw(self) -> int:
        return self.draw_count

    # --- safe moves to the foundations (docs/rules.md) -----------------------------------

    def safe_sources(self, state: State) -> tuple[int, ...]:
        if len(self.seat_numbers) > 1:
            return ()  # in a race, which card goes up first is the race
        seat = self.seat_by_number[self.seat_numbers[0]]
        # A waste card is safe to lift only when draws turn one card: with three, taking
        # a card out of the waste changes which cards later draws can reach.
        return (seat.waste, *seat.tableau) if self.draw_count == 1 else seat.tableau

    def children_of(self, face: Card) -> tuple[Card, ...]:
        return self.children[face]

    def cards_come_back(self) -> bool:
        return self.foundation_to_tableau

    # --- rules of placement ---------------------------------------------------------

    def fits_tableau(self, card: Card, pile: tuple[Card, ...]) -> bool:
        if not pile:
            return self.any_card_in_space or ((card >> 2) & 15) == KING
        top = pile[-1]
        if top & FACE_DOWN or ((top >> 2) & 15) != ((card >> 2) & 15) + 1:
            return False
        if self.same_suit:
            return (top & 3) == (card & 3)
        return _RED[top & 3] != _RED[card & 3]

    def run_length(self, pile: tuple[Card, ...]) -> int:
        """How many cards at the top of a tableau pile form one movable sequence."""
        n = len(pile)
        if n == 0 or pile[-1] & FACE_DOWN:
            return 0
        length = 1
        same_suit = self.same_suit
        while length < n:
            lower = pile[n - length]
            upper = pile[n - length - 1]
            if upper & FACE_DOWN or ((upper >> 2) & 15) != ((lower >> 2) & 15) + 1:
                break
            if same_suit:
                if (upper & 3) != (lower & 3):
                    break
            elif _RED[upper & 3] == _RED[lower & 3]:
                break
            length += 1
        return length

    def may_recycle(self, state: State, seat: Seat) -> bool:
        return self.max_passes is None or state.counters[seat.passes_counter] + 1 < self.max_passes

    # --- moves ----------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        moves: list[Move] = []
        for number in self.seat_numbers:
            self.add_seat_moves(state, self.seat_by_number[number], moves)
        return moves

    def seat_moves(self, state: State, seat: int) -> list[Move]:
        moves: list[Move] = []
        self.add_seat_moves(state, self.seat_by_number[seat], moves)
        return moves

    def add_seat_moves(self, state: State, seat: Seat, moves: list[Move]) -> None:
        if len(self.seat_numbers) > 1 and self.finished_seat(state) is not None:
            return
        piles = state.piles
        ids = self.pile_ids
        foundations = self.foundations
        tableau = seat.tableau
        fits_tableau = self.fits_tableau
        stock, waste = piles[seat.stock], piles[seat.waste]
        if stock:
            moves.append(Move(ids[seat.stock], ids[seat.waste]))
        elif waste and self.may_recycle(state, seat):
            moves.append(Move(ids[seat.waste], ids[seat.stock]))
        if waste:
            card = waste[-1]
            source = ids[seat.waste]
            for f in foundations:
                if fits_foundation(card, piles[f]):
                    moves.append(Move(source, ids[f]))
            for t in tableau:
                if fits_tableau(card, piles[t]):
                    moves.append(Move(source, ids[t]))
        for t in tableau:
            pile = piles[t]
            run = self.run_length(pile)
            if not run:
                continue
            source = ids[t]
            top = pile[-1]
            for f in foundations:
                if fits_foundation(top, piles[f]):
                    moves.append(Move(source, ids[f]))
            counts = (run,) if self.whole_sequences else range(1, run + 1)
            for count in counts:
                card = pile[-count]
                for u in tableau:
                    if u != t and fits_tableau(card, piles[u]):
                        moves.append(Move(source, ids[u], count))
        if self.foundation_to_tableau:
            for f in foundations:
                if piles[f]:
                    card = piles[f][-1]
                    for t in tableau:
                        if fits_tableau(card, piles[t]):
                            moves.append(Move(ids[f], ids[t]))

    def seat_of_move(self, move: Move) -> Seat:
        """The seat a move belongs to, from the piles it names.

        :raises ValueError: for unknown piles, or piles of two different seats.
        """
        source = self.pile(move.source)
        target = self.pile(move.target)
        seat_a = self.seat_of_pile[source]
        seat_b = self.seat_of_pile[target]
        if seat_a is not None and seat_b is not None and seat_a is not seat_b:
            raise NotYourPile(
                f"{move.source} and {move.target} belong to different players: "
                "you cannot use the other player's piles",
                source=move.source,
                target=move.target,
                seat=seat_a.number,
                other_seat=seat_b.number,
            )
        seat = seat_a or seat_b
        if seat is None:
            raise IllegalMove(
                f"cards do not move from {move.source} to {move.target}: "
                "foundation cards only go back to a tableau pile",
                "no_such_move",
                source=move.source,
                target=move.target,
            )
        return seat

    def moves_chosen_cards(self, state: State, move: Move) -> bool:
        # A draw turns whatever the stock holds; a turn-over takes the whole waste.
        source = self.roles[self.pile(move.source)]
        return source != STOCK and not (source == WASTE and self.roles[self.pile(move.target)] == STOCK)

    def apply(self, state: State, move: Move) -> State:
        seat = self.seat_of_move(move)
        finished = self.finished_seat(state) if len(self.seat_numbers) > 1 else None
        if finished is not None:
            raise IllegalMove("the race is over", "race_over", winner=finished)
        source = self.index[move.source]
        target = self.index[move.target]
        roles = self.roles
        source_role, target_role = roles[source], roles[target]
        piles = list(state.piles)
        counters = state.counters
        action: str
        ends = {"source": move.source, "target": move.target}
        if source_role == STOCK:
            if target != seat.waste:
                raise IllegalMove(
                    f"stock cards are turned onto the waste, not {move.target}", "no_such_move", **ends
                )
            if move.count != 1:
                raise IllegalMove(
                    "a draw is one action: send it without a count",
                    "count",
                    count=move.count,
                    allowed=1,
                    **ends,
                )
            stock = piles[source]
            if not stock:
                raise IllegalMove("the stock is empty: turn the waste over first", "empty", pile=move.source)
            turned = stock[-self.draw_count :][::-1]
            piles[source] = stock[: len(stock) - len(turned)]
            piles[target] = piles[target] + tuple(c & ~FACE_DOWN for c in turned)
            action = DRAW
        elif source_role == WASTE and target_role == STOCK:
            if target != seat.stock:
                raise IllegalMove("the waste turns over onto its own stock", "no_such_move", **ends)
            if move.count != 1:
                raise IllegalMove(
                    "turning the waste over is one action: send it without a count",
                    "count",
                    count=move.count,
                    allowed=1,
                    **ends,
                )
            if piles[target]:
                raise IllegalMove(
                    "the waste can be turned over only when the stock is empty",
                    "stock_not_empty",
                    pile=move.target,
                )
            if not piles[source]:
                raise IllegalMove("the waste is empty", "empty", pile=move.source)
            if not self.may_recycle(state, seat):
                raise IllegalMove(self.no_more_passes_reason(), "no_more_passes", passes=self.max_passes)
            hide = 0 if self.stock_face_up else FACE_DOWN
            piles[target] = tuple(c | hide for c in reversed(piles[source]))
            piles[source] = ()
            counters = _bumped(counters, seat.passes_counter)
            action = RECYCLE
        else:
            action = self.move_card(piles, state, move, source, target, seat)
        flipped = False
        if source_role == TABLEAU:
            pile = piles[source]
            if pile and pile[-1] & FACE_DOWN:
                piles[source] = pile[:-1] + (pile[-1] & ~FACE_DOWN,)
                flipped = True
        counters = self.count(counters, action, flipped, state)
        return State(self, tuple(piles), counters)

    def move_card(
        self,
        piles: list[tuple[Card, ...]],
        state: State,
        move: Move,
        source: int,
        target: int,
        seat: Seat,
    ) -> str:
        """Move cards onto a tableau pile or a foundation; return what kind of move it was."""
        roles = self.roles
        source_role, target_role = roles[source], roles[target]
        pile = piles[source]
        ends = {"source": move.source, "target": move.target}
        if source_role == STOCK or target_role in (STOCK, WASTE):
            raise IllegalMove(
                f"cards do not move from {move.source} to {move.target}", "no_such_move", **ends
            )
        if not pile:
            raise IllegalMove(f"{move.source} is empty", "empty", pile=move.source)
        count = move.count
        if source_role == TABLEAU:
            run = self.run_length(pile)
            if count > len(pile) or count > run:
                if pile[-count:] and any(c & FACE_DOWN for c in pile[-count:]):
                    raise IllegalMove(
                        "face-down cards cannot be moved", "face_down", pile=move.source, count=count
                    )
                raise IllegalMove(
                    f"those {count} cards on {move.source} are not one sequence: "
                    f"a run must go down by one {self.build_rule}",
                    "not_a_run",
                    pile=move.source,
                    count=count,
                    run=run,
                    build=self.build_word,
                )
            if self.whole_sequences and count != run and target_role == TABLEAU:
                raise IllegalMove(
                    f"only the whole sequence of {run} on {move.source} may move (whole sequences only)",
                    "whole_sequence",
                    pile=move.source,
                    count=count,
                    run=run,
                )
        elif count != 1:
            self.check_count(move)
        card = pile[-count]
        if target_role == FOUNDATION:
            if count != 1:
                raise IllegalMove(
                    "cards go to the foundations one at a time", "count", count=count, allowed=1, **ends
                )
            if source_role == FOUNDATION:
                raise IllegalMove("cards do not move between foundations", "no_such_move", **ends)
            foundation = piles[target]
            if not fits_foundation(card, foundation):
                raise self.foundation_refused(card, foundation, move.target)
            piles[source] = pile[:-1]
            piles[target] = foundation + (self.owned(card, seat),)
            return WASTE_TO_FOUNDATION if source_role == WASTE else TABLEAU_TO_FOUNDATION
        # target is a tableau pile
        if source_role == FOUNDATION and not self.foundation_to_tableau:
            raise IllegalMove(
                "cards never come back from the foundations in this game", "no_return", pile=move.source
            )
        destination = piles[target]
        if source == target:
            raise IllegalMove("a card cannot move onto its own pile", "no_such_move", **ends)
        if not self.fits_tableau(card, destination):
            raise self.tableau_refused(card, destination, move.target)
        moving = pile[-count:]
        if source_role == FOUNDATION:
            moving = (moving[0] & 0x7F,)
        piles[source] = pile[:-count]
        piles[target] = destination + moving
        if source_role == WASTE:
            return WASTE_TO_TABLEAU
        if source_role == FOUNDATION:
            return FOUNDATION_TO_TABLEAU
        return TABLEAU_TO_TABLEAU

    def owned(self, card: Card, seat: Seat) -> Card:
        """Hook: a card as it lies on a foundation (Double marks its owner)."""
        return card

    def foundation_refused(self, card: Card, foundation: tuple[Card, ...], pile_id: str) -> IllegalMove:
        return foundation_refusal(card, foundation, pile_id)

    def tableau_refused(self, card: Card, destination: tuple[Card, ...], pile_id: str) -> IllegalMove:
        if not destination:
            return IllegalMove(
                f"{face_text(card)} cannot fill an empty pile: only a King or a run headed by a King can",
                "space",
                card=face_text(card),
                pile=pile_id,
                fills="king",
            )
        top = destination[-1]
        if top & FACE_DOWN:
            return IllegalMove(
                "nothing goes on a face-down card", "onto_face_down", card=face_text(card), pile=pile_id
            )
        return IllegalMove(
            f"{face_text(card)} does not go on {face_text(top)}: tableau builds down {self.build_rule}",
            "tableau",
            card=face_text(card),
            pile=pile_id,
            top=face_text(top),
            build=self.build_word,
        )

    def no_more_passes_reason(self) -> str:
        passes = self.max_passes
        if passes == 1:
            return "only one pass through the stock is allowed: the waste cannot be turned over"
        return f"only {passes} passes through the stock are allowed"

    def count(self, counters: Counters, action: str, flipped: bool, state: State) -> Counters:
        """Hook: update counters such as the score after a move."""
        return counters

    # --- state of play --------------------------------------------------------------

    def seat_finished(self, state: State, number: int) -> bool:
        seat = self.seat_by_number[number]
        piles = state.piles
        return not piles[seat.stock] and not piles[seat.waste] and not any(piles[t] for t in seat.tableau)

    def finished_seat(self, state: State) -> int | None:
        for number in self.seat_numbers:
            if self.seat_finished(state, number):
                return number
        return None

    def progress(self, state: State, seat: int) -> tuple[int, ...]:
        layout = self.seat_by_number[seat]
        piles = state.piles
        on_foundations = sum(len(piles[f]) for f in self.foundations)
        hidden = sum(1 for t in layout.tableau for c in piles[t] if c & FACE_DOWN)
        unplayed = len(piles[layout.stock]) + len(piles[layout.waste])
        if self.foundation_to_tableau:
            # Cards may come back down, so putting one up is not lasting progress.
            on_foundations = 0
        return (-on_foundations, hidden, unplayed)

    def could_progress(self, state: State, seat: int) -> bool:
        """An over-estimate of whether lasting progress can still be made.

        It pretends any face-up card may move wherever a parent card could be uncovered,
        ignoring the order things must happen in. When even this finds nothing, the
        position is surely stuck, however many reversible moves it has.
        """
        piles = state.piles
        layout = self.seat_by_number[seat]
        tableau = layout.tableau
        foundation_cards = [c & 63 for f in self.foundations for c in piles[f]]
        # Cards that can be made the top of their pile without lasting progress.
        exposed: set[tuple[int, int]] = {(t, len(piles[t]) - 1) for t in tableau if piles[t]}
        all_face_up = [t for t in tableau if not any(c & FACE_DOWN for c in piles[t])]

        def leaves(card: Card, pile: int, parents: dict[int, int], chain: dict[int, int]) -> bool:
            rank, suit = (card >> 2) & 15, card & 3
            for parent_suit in range(4):
                fits = parent_suit == suit if self.same_suit else _RED[parent_suit] != _RED[suit]
                if fits and parents.get(((rank + 1) << 2) | parent_suit, 0):
                    return True
            if all(chain.get((r << 2) | suit, 0) for r in range(1, rank)):
                return True
            return (self.any_card_in_space or rank == KING) and any(t != pile for t in all_face_up)

        def tallies() -> tuple[dict[int, int], dict[int, int]]:
            parents: dict[int, int] = {}
            for t, k in exposed:
                face = piles[t][k] & 63
                parents[face] = parents.get(face, 0) + 1
            chain = dict(parents)
            for face in foundation_cards:
                chain[face] = chain.get(face, 0) + 1
                if self.foundation_to_tableau:
                    parents[face] = parents.get(face, 0) + 1
            return parents, chain

        changed = True
        while changed:
            changed = False
            parents, chain = tallies()
            for t in tableau:
                pile = piles[t]
                for k in range(len(pile) - 1, 0, -1):
                    below = pile[k - 1]
                    if below & FACE_DOWN:
                        break
                    if (t, k - 1) in exposed:
                        continue
                    # the card on ``below`` is not a parent for itself
                    if leaves(pile[k], t, parents, chain):
                        exposed.add((t, k - 1))
                        changed = True
        parents, chain = tallies()
        for t in tableau:
            pile = piles[t]
            hidden = [k for k, c in enumerate(pile) if c & FACE_DOWN]
            if hidden and hidden[-1] + 1 < len(pile) and leaves(pile[hidden[-1] + 1], t, parents, chain):
                return True
            # A card that may go up is progress, or (where cards can come back down)
            # a step towards a win that the full search will look for.
            for k, card in enumerate(pile):
                if (t, k) in exposed and all(
                    chain.get((r << 2) | (card & 3), 0) for r in range(1, (card >> 2) & 15)
                ):
                    return True
        stock, waste = piles[layout.stock], piles[layout.waste]
        reachable = stock + waste if stock or self.may_recycle(state, layout) else waste[-1:]
        return any(leaves(card & 63, -1, parents, chain) for card in reachable)

    def has_seen_stock(self, state: State, seat: int) -> bool:
        layout = self.seat_by_number[seat]
        return (
            self.stock_face_up or not state.piles[layout.stock] or state.counters[layout.passes_counter] > 0
        )

    def surely_progresses(self, state: State, seat: int) -> bool:
        if not self.has_seen_stock(state, seat):
            return True
        layout = self.seat_by_number[seat]
        up = self.foundation_wants(state)
        down = self.tableau_wants(state, layout)
        return self.progress_with(state, layout, up, down) or self.lap_with(state, layout, up, down)

    def progresses_now(self, state: State, seat: int) -> bool:
        layout = self.seat_by_number[seat]
        up, down = self.foundation_wants(state), self.tableau_wants(state, layout)
        return self.progress_with(state, layout, up, down)

    def stock_lap_progresses(self, state: State, seat: int) -> bool:
        layout = self.seat_by_number[seat]
        return self.lap_with(state, layout, self.foundation_wants(state), self.tableau_wants(state, layout))

    def foundation_wants(self, state: State) -> set[Card]:
        """The faces that would fit some foundation now."""
        piles = state.piles
        wanted: set[Card] = set()
        for f in self.foundations:
            pile = piles[f]
            if pile:
                top = pile[-1] & FACE_MASK
                if top >> 2 < KING:
                    wanted.add(top + 4)
            else:
                wanted.update(_ACES)
        return wanted

    def tableau_wants(self, state: State, layout: Seat) -> set[Card] | None:
        """The faces that would fit one of this seat's tableau piles now; ``None`` when an
        empty pile takes any card."""
        piles = state.piles
        children = self.children
        wanted: set[Card] = set()
        for t in layout.tableau:
            pile = piles[t]
            if not pile:
                if self.any_card_in_space:
                    return None
                wanted.update(_KINGS)
            elif not pile[-1] & FACE_DOWN:
                wanted.update(children[pile[-1] & FACE_MASK])
        return wanted

    def progress_with(self, state: State, layout: Seat, up: set[Card], down: set[Card] | None) -> bool:
        """A move of this seat makes progress now: the waste card plays, a run uncovers a
        face-down card, or (where foundation cards stay up) a card goes up."""
        piles = state.piles
        waste = piles[layout.waste]
        if waste:
            face = waste[-1] & FACE_MASK
            if face in up or down is None or face in down:
                return True
        up_counts = not self.foundation_to_tableau
        run_length = self.run_length
        for t in layout.tableau:
            pile = piles[t]
            run = run_length(pile)
            if not run:
                continue
            uncovers = run < len(pile) and pile[-run - 1] & FACE_DOWN
            if (up_counts or (uncovers and run == 1)) and pile[-1] & FACE_MASK in up:
                return True
            # A run's base never fits its own pile, so "some pile" is "another pile".
            if uncovers and (down is None or pile[-run] & FACE_MASK in down):
                return True
        return False

    def lap_with(self, state: State, layout: Seat, up: set[Card], down: set[Card] | None) -> bool:
        """Some card that draws and turn-overs alone bring to the top of the waste fits a
        foundation or a tableau pile as they lie now: playing it is progress.

        Draws and turn-overs never change the order of waste-then-stock (the "talon"),
        only where it is cut; so one pass over that order finds every such card.
        """
        piles = state.piles
        stock, waste = piles[layout.stock], piles[layout.waste]
        size = len(stock) + len(waste)
        if not size:
            return False
        if down is None:
            return True  # an empty pile takes any card
        wanted = up | down
        talon = waste + stock[::-1]
        cut = len(waste)
        turnovers = (
            size  # enough for every cut
            if self.max_passes is None
            else max(self.max_passes - 1 - state.counters[layout.passes_counter], 0)
        )
        draw = self.draw_count
        seen: set[int] = set()
        while cut not in seen:
            seen.add(cut)
            if cut and talon[cut - 1] & FACE_MASK in wanted:
                return True
            if cut < size:
                cut = min(cut + draw, size)
            elif turnovers:
                turnovers -= 1
                cut = 0
            else:
                break
        return False

    def passes_view(self, state: State, seat: Seat) -> dict[str, Any]:
        used = state.counters[seat.passes_counter]
        left = None if self.max_passes is None else max(self.max_passes - 1 - used, 0)
        data: dict[str, Any] = {"passes": used, "passes_left": left}
        if self.stock_face_up:
            # Every stock card lies face up: the player sees them all, next to be drawn last.
            data["stock_cards"] = [face_text(c) for c in state.piles[seat.stock]]
        return data

    def deal_klondike(
        self, deck: list[Card], face_up: bool = False
    ) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
        """Klondike's deal: one card to each pile left to right, then again from the
        second pile, and so on; the last card of each pile face up; the rest is the stock,
        whose next card drawn is the next card of the deck."""
        columns: list[list[Card]] = [[] for _ in range(self.columns)]
        position = 0
        for start in range(self.columns):
            for t in range(start, self.columns):
                columns[t].append(deck[position] | (0 if face_up else FACE_DOWN))
                position += 1
        for column in columns:
            column[-1] &= ~FACE_DOWN
        hide = 0 if face_up else FACE_DOWN
        stock = tuple(c | hide for c in reversed(deck[position:]))
        return [tuple(c) for c in columns], stock


def _bumped(counters: Counters, index: int, by: int = 1) -> Counters:
    values = list(counters)
    values[index] += by
    return tuple(values)
