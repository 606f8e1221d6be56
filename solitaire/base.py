"""What every game shares: options, states, positions, views and the end of play.

A ``Rules`` object is a game with its options fixed (OpenSpiel's "game"); a ``State``
is one immutable position of it. Each game module subclasses ``Rules`` and fills in
a few hooks: its piles, its deal, its moves and how it scores. Everything else, the
position format, option checking, views and the definition of "over", lives here once.

This module knows nothing of HTTP, Django or pixels.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from .cards import FACE_DOWN, RANKS, Card, card_text, face_text, parse_card, rank_of
from .moves import IllegalMove, Move

Piles = tuple[tuple[Card, ...], ...]
Counters = tuple[int, ...]

# Pile roles: what a pile is for decides which rules apply to it.
STOCK, WASTE, FOUNDATION, TABLEAU, RESERVE, JEWELS = range(6)

# How many positions the "is anything still possible?" search may visit before it
# gives up and says the game is not over. Real positions need far fewer.
STUCK_SEARCH_LIMIT = 600


class Option:
    """One typed option: its default and a check that explains a bad value."""

    def __init__(self, default: Any, check: Callable[[Any], bool], expects: str) -> None:
        self.default = default
        self.check = check
        self.expects = expects


def boolean(default: bool) -> Option:
    return Option(default, lambda v: isinstance(v, bool), "True or False")


class State:
    """One position of a game: immutable, hashable, cheap to copy.

    ``piles`` holds one tuple of cards per pile id (bottom first), ``counters`` the
    numbers the rules keep (passes used, score), named by ``rules.counter_names``.
    """

    __slots__ = ("_legal", "_over", "counters", "piles", "rules")

    rules: Rules
    piles: Piles
    counters: Counters
    _legal: list[Move] | None
    _over: bool | None

    def __init__(self, rules: Rules, piles: Piles, counters: Counters) -> None:
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "piles", piles)
        object.__setattr__(self, "counters", counters)
        object.__setattr__(self, "_legal", None)
        object.__setattr__(self, "_over", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a State is immutable; apply a move to get a new one")

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and other.rules == self.rules
            and other.piles == self.piles
            and other.counters == self.counters
        )

    def __hash__(self) -> int:
        return hash((self.piles, self.counters))

    def __repr__(self) -> str:
        return f"solitaire.load({self.rules.name!r}, {self.to_position()!r})"

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.rules.options)

    def legal_moves(self) -> list[Move]:
        """Every move ``apply`` accepts here, each once."""
        legal: list[Move] | None = self._legal
        if legal is None:
            legal = self.rules.legal_moves(self)
            object.__setattr__(self, "_legal", legal)
        return list(legal)

    def apply(self, move: Move | Mapping[str, Any]) -> State:
        """The state after ``move``; this state is unchanged.

        :raises ValueError: when the move is malformed (unknown pile, bad count).
        :raises IllegalMove: when the rules do not allow it here.
        """
        return self.rules.apply(self, move if isinstance(move, Move) else Move.from_dict(move))

    @property
    def is_won(self) -> bool:
        return self.rules.is_won(self)

    @property
    def is_over(self) -> bool:
        """Won, or nothing that can still be done would change anything.

        Precisely: from this state, follow every sequence of moves that makes no lasting
        progress (draws, turning the waste over, moves between tableau piles that turn no
        card, foundation moves where cards may come back); if none of the states reached
        is won or has a move that makes lasting progress (a face-down card turned up, the
        stock and waste getting smaller, a card leaving the jewels, a card onto a
        foundation it can never leave), the game is over. Each game names its progress
        measures in ``Rules.progress``. A game is never over before the player has
        turned every stock card once, so ``is_over`` reveals nothing hidden. Positions
        differing only in the order of like piles count as one; if the search passes
        ``STUCK_SEARCH_LIMIT`` positions it stops and the game counts as not over.
        """
        over: bool | None = self._over
        if over is None:
            over = self.rules.is_over(self)
            object.__setattr__(self, "_over", over)
        return over

    @property
    def score(self) -> int | None:
        return self.rules.score(self)

    @property
    def pile_ids(self) -> tuple[str, ...]:
        return self.rules.pile_ids

    @property
    def can_auto_finish(self) -> bool:
        """Foundation moves alone will finish the game from here."""
        return self.rules.can_auto_finish(self)

    def view(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data, and nothing else."""
        return self.rules.view(self, player)

    def to_position(self) -> dict[str, Any]:
        """Full information: every pile, face-down cards included, and the counters."""
        return self.rules.to_position(self)


class Rules:
    """A game with its options fixed. Subclasses declare piles and fill in the hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    OPTIONS: ClassVar[dict[str, Option]] = {}
    decks: ClassVar[int] = 1
    players: ClassVar[int] = 1

    pile_ids: tuple[str, ...]
    roles: tuple[int, ...]
    counter_names: tuple[str, ...] = ()

    def __init__(self, **options: Any) -> None:
        values: dict[str, Any] = {}
        for key in options:
            if key not in self.OPTIONS:
                known = ", ".join(self.OPTIONS) or "none"
                raise ValueError(f"{self.name} has no option {key!r} (options: {known})")
        for key, option in self.OPTIONS.items():
            value = options.get(key, option.default)
            if not option.check(value):
                raise ValueError(f"{self.name} option {key!r} must be {option.expects}")
            values[key] = value
        self.options: dict[str, Any] = values
        self.pile_ids, self.roles = self.declare_piles()
        self.index = {pile_id: i for i, pile_id in enumerate(self.pile_ids)}
        self.foundations = tuple(i for i, r in enumerate(self.roles) if r == FOUNDATION)
        groups: dict[tuple[int, str], list[int]] = {}
        for i, pile_id in enumerate(self.pile_ids):
            owner = pile_id.split(".")[0] if "." in pile_id else ""
            groups.setdefault((self.roles[i], owner), []).append(i)
        self.pile_groups = tuple(tuple(group) for group in groups.values())

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options == self.options

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

    # --- hooks each game fills in -------------------------------------------------

    def declare_piles(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        raise NotImplementedError

    def deal(self, seed: int) -> State:
        raise NotImplementedError

    def legal_moves(self, state: State) -> list[Move]:
        raise NotImplementedError

    def apply(self, state: State, move: Move) -> State:
        raise NotImplementedError

    def progress(self, state: State, seat: int) -> tuple[int, ...]:
        """Measures that only fall when play really moves on (lower is further)."""
        raise NotImplementedError

    def initial_counters(self) -> Counters:
        return tuple(0 for _ in self.counter_names)

    def score(self, state: State) -> int | None:
        return None

    def view_extra(self, state: State, player: int | None) -> dict[str, Any]:
        return {}

    def seat_moves(self, state: State, seat: int) -> list[Move]:
        """The moves of one seat; single-player games have only seat 0."""
        return state.legal_moves()

    def seats(self) -> tuple[int, ...]:
        return (0,)

    # --- shared behaviour ---------------------------------------------------------

    def pile(self, pile_id: str) -> int:
        """The index of a pile id. :raises ValueError: for an unknown pile."""
        try:
            return self.index[pile_id]
        except KeyError:
            raise ValueError(f"unknown pile {pile_id!r} in {self.name}") from None

    def is_won(self, state: State) -> bool:
        return all(not pile for i, pile in enumerate(state.piles) if self.roles[i] != FOUNDATION)

    def is_over(self, state: State) -> bool:
        if self.is_won(state):
            return True
        return all(self.is_stuck(state, seat) for seat in self.seats())

    def is_stuck(self, state: State, seat: int) -> bool:
        """True when no sequence of this seat's moves can make progress (see is_over)."""
        if not self.has_seen_stock(state, seat):
            return False
        root = self.progress(state, seat)
        for move in self.seat_moves(state, seat):
            following = self.apply(state, move)
            measures = self.progress(following, seat)
            if any(now < before for now, before in zip(measures, root, strict=True)):
                return False
        if not self.could_progress(state, seat):
            return True
        if self.stock_cycle_progresses(state, seat, root):
            return False
        if self.foundation_run_progresses(state, seat, root):
            return False
        canonical = self.canonical
        seen = {canonical(state)}
        frontier = deque([state])
        while frontier:
            current = frontier.popleft()
            for move in self.seat_moves(current, seat):
                following = self.apply(current, move)
                measures = self.progress(following, seat)
                if any(now < before for now, before in zip(measures, root, strict=True)):
                    return False
                if self.is_won(following):
                    return False
                key = canonical(following)
                if key not in seen:
                    if len(seen) >= STUCK_SEARCH_LIMIT:
                        return False
                    seen.add(key)
                    frontier.append(following)
        return True

    def could_progress(self, state: State, seat: int) -> bool:
        """Hook: a quick over-estimate. False only when progress is surely impossible."""
        return True

    def stock_cycle_progresses(self, state: State, seat: int, root: tuple[int, ...]) -> bool:
        """Go once round the stock, drawing and turning over; does any card then play?

        Most positions that are not over show it here, long before the full search
        would reach the tenth draw through all the tableau shuffles in between.
        """
        roles = self.roles
        seen = {state.piles}
        current = state
        while True:
            moves = self.seat_moves(current, seat)
            cycle = next((m for m in moves if roles[self.index[m.source]] == STOCK), None)
            if cycle is None:
                cycle = next(
                    (
                        m
                        for m in moves
                        if roles[self.index[m.source]] == WASTE and roles[self.index[m.target]] == STOCK
                    ),
                    None,
                )
            if cycle is None:
                return False
            current = self.apply(current, cycle)
            if current.piles in seen:
                return False
            seen.add(current.piles)
            for move in self.seat_moves(current, seat):
                after = self.progress(self.apply(current, move), seat)
                if any(now < before for now, before in zip(after, root, strict=True)):
                    return True

    def foundation_run_progresses(self, state: State, seat: int, root: tuple[int, ...]) -> bool:
        """Send cards to the foundations while any will go; does that make progress?

        A cheap probe before the full search: many positions whose way forward is a long
        series of foundation moves would otherwise need a very wide search to find it.
        """
        foundations = {self.pile_ids[f] for f in self.foundations}
        current = state
        for _ in range(self.decks * 52):
            move = next((m for m in self.seat_moves(current, seat) if m.target in foundations), None)
            if move is None:
                return False
            current = self.apply(current, move)
            if self.is_won(current):
                return True
            measures = self.progress(current, seat)
            if any(now < before for now, before in zip(measures, root, strict=True)):
                return True
            # a foundation card's own move is not progress here, but it may open the way
            for follow in self.seat_moves(current, seat):
                if follow.target in foundations:
                    continue
                after = self.progress(self.apply(current, follow), seat)
                if any(now < before for now, before in zip(after, root, strict=True)):
                    return True
        return False

    def has_seen_stock(self, state: State, seat: int) -> bool:
        """Hook: whether the player has turned every stock card at least once. Until then
        the game is never called over, so that ``is_over`` tells nothing about unseen cards."""
        return True

    def canonical(self, state: State) -> tuple[tuple[tuple[Card, ...], ...], ...]:
        """The state with interchangeable piles (tableau piles, foundations, cells) sorted,
        so the search above treats positions that differ only in pile order as one."""
        piles = state.piles
        return tuple(tuple(sorted(piles[i] for i in group)) for group in self.pile_groups)

    def new_state(self, piles: Iterable[Iterable[Card]], counters: Counters) -> State:
        return State(self, tuple(tuple(p) for p in piles), counters)

    def load(self, position: Mapping[str, Any]) -> State:
        """A state from a position dict (see ``to_position``).

        :raises ValueError: for unknown piles or counters, or text that is not a card.
        """
        if not isinstance(position, Mapping):
            raise ValueError("a position must be a dict of pile ids to lists of cards")
        piles: list[list[Card]] = [[] for _ in self.pile_ids]
        counters = list(self.initial_counters())
        for key, value in position.items():
            if key in self.index:
                if not isinstance(value, list | tuple):
                    raise ValueError(f"pile {key!r} must be a list of cards")
                piles[self.index[key]] = [self.load_card(key, parse_card(text)) for text in value]
            elif key in self.counter_names:
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError(f"counter {key!r} must be a whole number")
                counters[self.counter_names.index(key)] = value
            else:
                raise ValueError(f"unknown pile {key!r} in {self.name}")
        return self.new_state(piles, tuple(counters))

    def load_card(self, pile_id: str, card: Card) -> Card:
        """Hook: how a card read from a position is stored (Double keeps owners)."""
        return card

    def to_position(self, state: State) -> dict[str, Any]:
        position: dict[str, Any] = {
            pile_id: [card_text(c) for c in state.piles[i]] for i, pile_id in enumerate(self.pile_ids)
        }
        for i, name in enumerate(self.counter_names):
            position[name] = state.counters[i]
        return position

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        piles: dict[str, Any] = {}
        for i, pile_id in enumerate(self.pile_ids):
            pile = state.piles[i]
            if self.roles[i] == STOCK:
                piles[pile_id] = len(pile)
            else:
                piles[pile_id] = [None if c & FACE_DOWN else card_text(c) for c in pile]
        moves = self.moves_for(state, player)
        data: dict[str, Any] = {
            "game": self.name,
            "options": dict(self.options),
            "player": player,
            "piles": piles,
            "score": self.score(state),
            "is_won": state.is_won,
            "is_over": state.is_over,
            "can_auto_finish": self.can_auto_finish(state),
            "moves": [m.to_dict() for m in moves],
        }
        data.update(self.view_extra(state, player))
        return data

    def moves_for(self, state: State, player: int | None) -> list[Move]:
        return state.legal_moves()

    def can_auto_finish(self, state: State) -> bool:
        """Foundation moves alone will finish: nothing hidden or still to be drawn, and
        every other pile falls in rank from bottom to top, so the lowest card left is
        always on top of some pile and fits its foundation."""
        if self.is_won(state):
            return False
        for i, pile in enumerate(state.piles):
            role = self.roles[i]
            if role == FOUNDATION or not pile:
                continue
            if role in (STOCK, JEWELS):
                return False
            previous = 14
            for card in pile:
                if card & FACE_DOWN or rank_of(card) > previous:
                    return False
                previous = rank_of(card)
        # A hand-made position may lack a suit's lower cards: play it out to be sure.
        return self.foundation_run_wins(state)

    def foundation_run_wins(self, state: State) -> bool:
        current = state
        while not self.is_won(current):
            move = next(
                (m for m in current.legal_moves() if self.roles[self.index[m.target]] == FOUNDATION), None
            )
            if move is None:
                return False
            current = self.apply(current, move)
        return True

    def check_count(self, move: Move, allowed: int = 1) -> None:
        if move.count > allowed:
            raise IllegalMove(
                f"only {allowed} card{'s' if allowed != 1 else ''} can move from {move.source} here",
                "count",
            )


def fits_foundation(card: Card, foundation: tuple[Card, ...]) -> bool:
    """Foundations start with an Ace and build up by one in the same suit."""
    if not foundation:
        return (card & 60) == 4
    top = foundation[-1]
    return (card & 3) == (top & 3) and ((card >> 2) & 15) == ((top >> 2) & 15) + 1


def foundation_refusal(card: Card, foundation: tuple[Card, ...], pile_id: str) -> IllegalMove:
    if not foundation:
        return IllegalMove(
            f"{face_text(card)} cannot start foundation {pile_id}: foundations start with an Ace",
            "foundation",
        )
    top = foundation[-1]
    return IllegalMove(
        f"{face_text(card)} does not go on {face_text(top)}: foundations build up by one in the same suit",
        "foundation",
    )


def rank_name(rank: int) -> str:
    return RANKS[rank]
