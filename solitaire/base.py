"""What every game shares: options, states, positions, views and the end of play.

A ``Rules`` object is a game with its options fixed (OpenSpiel's "game"); a ``State``
is one immutable position of it. Each game module subclasses ``Rules`` and fills in
a few hooks: its piles, its deal, its moves and how it scores. Everything else, the
position format, option checking, views and the definition of "over", lives here once.

This module knows nothing of HTTP, Django or pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .cards import FACE_DOWN, FACE_MASK, Card, card_text, face_text, parse_card, rank_of
from .moves import IllegalMove, MalformedMove, Move, NotYourPile, StaleMove, UnknownPile

Piles = tuple[tuple[Card, ...], ...]
Counters = tuple[int, ...]

# Pile roles: what a pile is for decides which rules apply to it.
STOCK, WASTE, FOUNDATION, TABLEAU, RESERVE, JEWELS = range(6)
ROLE_NAMES = ("stock", "waste", "foundation", "tableau", "reserve", "jewels")

# Why a game ended: ``Outcome.reason``.
WON = "won"  # one player: every card is home
STUCK = "stuck"  # one player: nothing left to do can make progress
ALL_HOME = "all_home"  # Double: this seat sent all its cards up first
BLOCKED = "blocked"  # Double: neither seat can progress; the larger contribution wins
DRAW = "draw"  # Double: neither seat can progress, and the contributions are equal
AGREED = "agreed"  # the players agreed to stop: the larger contribution wins, equal ones draw
RESIGNED = "resigned"  # a player gave up: in a race the other seat wins, alone nobody does


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is the winning seat (1 in a one-player game) or ``None`` (a lost
    one-player game, or a drawn race); ``reason`` is one of ``WON``, ``STUCK``,
    ``ALL_HOME``, ``BLOCKED`` and ``DRAW``, or, for a game ended by its players rather
    than by the cards, ``AGREED`` and ``RESIGNED``; ``scores`` holds each seat's contribution to
    the foundations in Double Solitaire (``{"1": n, "2": m}``), ``None`` otherwise.
    """

    winner: int | None
    reason: str
    scores: dict[str, int] | None = field(default=None, hash=False)

    def to_dict(self) -> dict[str, Any]:
        scores = None if self.scores is None else dict(self.scores)
        return {"winner": self.winner, "reason": self.reason, "scores": scores}


class Option:
    """One typed option: its default and a check that explains a bad value.

    ``quiet`` marks an option added after games were already being saved: while it is
    at its default it is left out of ``Rules.options``, so that keys made from the
    options (the web app's deal numbers and statistics) stay what they were.
    """

    def __init__(
        self, default: Any, check: Callable[[Any], bool], expects: str, *, quiet: bool = False
    ) -> None:
        self.default = default
        self.check = check
        self.expects = expects
        self.quiet = quiet


def boolean(default: bool, *, quiet: bool = False) -> Option:
    """A yes/no option: exactly ``True`` or ``False`` (not 1 or 0)."""
    return Option(default, lambda v: type(v) is bool, "True or False", quiet=quiet)


def choice(default: Any, *values: Any) -> Option:
    """One of a few values, each matched by exact type: ``1.0`` or ``True`` is not ``1``."""

    def check(value: Any) -> bool:
        return any(type(value) is type(allowed) and value == allowed for allowed in values)

    expects = " or ".join("None" if v is None else repr(v) if isinstance(v, str) else str(v) for v in values)
    return Option(default, check, expects)


_NOT_ASKED = -1
_QUICK_ANSWERS: tuple[bool | None, ...] = (False, True, None)


class State:
    """One position of a game: immutable, hashable, cheap to copy.

    ``piles`` holds one tuple of cards per pile id (bottom first), ``counters`` the
    numbers the rules keep (passes used, score), named by ``rules.counter_names``.
    Neither ``repr`` nor ``str`` shows a face-down or stock card: use ``to_position``
    for the full position and ``view`` for what a player may see.
    """

    __slots__ = ("_legal", "_over", "_quick", "counters", "piles", "rules")

    rules: Rules
    piles: Piles
    counters: Counters
    _legal: list[Move] | None
    _over: bool | None
    _quick: int  # _NOT_ASKED, or the index of the answer in _QUICK_ANSWERS

    def __init__(self, rules: Rules, piles: Piles, counters: Counters) -> None:
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "piles", piles)
        object.__setattr__(self, "counters", counters)
        object.__setattr__(self, "_legal", None)
        object.__setattr__(self, "_over", None)
        object.__setattr__(self, "_quick", _NOT_ASKED)

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

    def __reduce__(self) -> tuple[Any, ...]:
        # States cross process boundaries (worker pools): rebuild, never set attributes.
        return (State, (self.rules, self.piles, self.counters))

    def __repr__(self) -> str:
        return self.rules.describe_state(self)

    __str__ = __repr__

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

    def apply(self, move: Move | Mapping[str, Any], *, seat: int | None = None) -> State:
        """The state after ``move``; this state is unchanged.

        ``seat``, when given, is the seat making the move: a move naming another seat's
        pile is then refused (Double Solitaire; one-player games have no seat piles).

        :raises MalformedMove: when a dict is not a move at all.
        :raises UnknownPile: when the move names a pile the game does not have.
        :raises NotYourPile: when it names piles of two seats (Double Solitaire).
        :raises StaleMove: when its ``cards`` are not the cards it would move.
        :raises IllegalMove: when the rules do not allow it here.
        """
        if isinstance(move, Move):
            parsed = move
            if type(move.count) is not int or move.count < 1:
                raise MalformedMove("a move's 'count' must be a whole number of at least 1", field="count")
        else:
            parsed = Move.from_dict(move)
        if seat is not None:
            self.rules.check_seat(parsed, seat)
        if parsed.cards is not None:
            self.rules.check_cards(self, parsed)
        return self.rules.apply(self, parsed)

    @property
    def is_won(self) -> bool:
        return self.rules.is_won(self)

    def quick_over(self) -> bool | None:
        """The hot-path ending check: cheap (tens of microseconds), never a deep search.

        ``True``: proved over (won, or proved stuck). ``False``: proved not over (a move
        that makes progress is there now or after drawing, or the player has not yet
        seen every stock card). ``None``: undecided; only ``is_over`` can tell, and it may
        take milliseconds, so run it off the hot path. Undecided positions are rare in
        real play: no move makes progress now, none does after going round the stock,
        and a quick over-estimate still sees a way forward.
        """
        if self._quick == _NOT_ASKED:
            object.__setattr__(self, "_quick", _QUICK_ANSWERS.index(self.rules.quick_over(self)))
        return _QUICK_ANSWERS[self._quick]

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
        differing only in the order of like piles count as one. The search has no cap,
        so the answer is exact (solitaire/endings.py; docs/winnability.md).

        It asks ``quick_over`` first and searches only when that is undecided.
        """
        over: bool | None = self._over
        if over is None:
            over = self.rules.is_over(self)
            object.__setattr__(self, "_over", over)
        return over

    def outcome(self, *, exact: bool = False) -> Outcome | None:
        """Who won and why, once the game is over; ``None`` while play goes on.

        By default it decides with ``quick_over``, so an undecided position (see there)
        gives ``None`` too; ``exact=True`` settles those with ``is_over`` (slow, rare).
        """
        return self.rules.outcome(self, exact=exact)

    def outcome_if_stopped(self) -> Outcome:
        """The outcome if the players agreed to stop here (reason ``AGREED``): the larger
        contribution wins and equal ones draw; a one-player game has no winner."""
        return self.rules.outcome_if_stopped(self)

    def outcome_if_resigned(self, seat: int) -> Outcome:
        """The outcome if ``seat`` gave up here (reason ``RESIGNED``): in a race the other
        seat wins; a one-player game has no winner.

        :raises ValueError: for a seat the game does not have.
        """
        return self.rules.outcome_if_resigned(self, seat)

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

    def auto_finish_moves(self) -> list[Move] | None:
        """The foundation moves that finish the game from here, in order; ``None`` when
        foundation moves alone cannot finish it (``can_auto_finish`` is false)."""
        if not self.rules.can_auto_finish(self):
            return None
        return self.rules.foundation_run(self)

    def safe_foundation_moves(self) -> list[Move]:
        """Moves to the foundations that can never spoil a win: at most one per card,
        each legal here. docs/rules.md gives the rule and why it is safe."""
        return self.rules.safe_foundation_moves(self)

    def view(self, player: int | None = None, *, exact: bool = True) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data, and nothing else.

        ``exact=False`` fills ``is_over`` from ``quick_over`` (an undecided position
        shows ``false``) so that the view costs no deep search.
        """
        return self.rules.view(self, player, exact=exact)

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
            if type(key) is not str or key not in self.OPTIONS:
                known = ", ".join(self.OPTIONS) or "none"
                raise ValueError(f"{self.name} has no option {key!r} (options: {known})")
        for key, option in self.OPTIONS.items():
            value = options.get(key, option.default)
            if not option.check(value):
                raise ValueError(f"{self.name} option {key!r} must be {option.expects}")
            values[key] = value
        self.settings: dict[str, Any] = values  # every option, defaults included
        self.options: dict[str, Any] = {
            key: value
            for key, value in values.items()
            if not (self.OPTIONS[key].quiet and value == self.OPTIONS[key].default)
        }
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

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.options_text() or 'default options'}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickled rules are the shared ones of ``rules_for``.
        return (_shared_rules, (self.name, self.settings))

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

    def view_extra(self, state: State, player: int | None, exact: bool = True) -> dict[str, Any]:
        return {}

    def seat_moves(self, state: State, seat: int) -> list[Move]:
        """The moves of one seat; single-player games have only seat 0."""
        return state.legal_moves()

    def seats(self) -> tuple[int, ...]:
        return (0,)

    def progresses_now(self, state: State, seat: int) -> bool:
        """Hook: a move of this seat makes progress right now (sound; may be sped up)."""
        root = self.progress(state, seat)
        for move in self.seat_moves(state, seat):
            measures = self.progress(self.apply(state, move), seat)
            if any(now < before for now, before in zip(measures, root, strict=True)):
                return True
        return False

    def stock_lap_progresses(self, state: State, seat: int) -> bool:
        """Hook: a cheap look round the stock finds a card that would make progress."""
        return False

    def safe_sources(self, state: State) -> Iterable[int]:
        """Hook: the piles whose top card may go up safely if the card itself allows it
        (see ``safe_foundation_moves``); none unless a game argues otherwise."""
        return ()

    def options_text(self) -> str:
        """Hook: the options in a few words for the UI, such as "Draw 3 · Vegas"."""
        return ""

    def pile_label(self, pile_id: str) -> str:
        """Hook: a pile's name for people, such as "Foundation 2" or "Pile 3"."""
        return pile_id

    def pile_fills(self, index: int) -> str:
        """Hook: what may go into an empty pile: "king", "any", "ace", "none", "stock"..."""
        return "none"

    def passes_allowed(self) -> int | None:
        """Hook: how many times the player goes through the stock (None: no limit)."""
        return 1

    def cards_per_draw(self) -> int:
        return 1

    # --- shared behaviour ---------------------------------------------------------

    def pile(self, pile_id: str) -> int:
        """The index of a pile id. :raises UnknownPile: for a pile the game does not have."""
        try:
            return self.index[pile_id]
        except KeyError:
            raise UnknownPile(f"unknown pile {pile_id!r} in {self.name}", pile=pile_id) from None

    def seat_of(self, pile_id: str) -> int | None:
        """The seat whose pile this is; ``None`` for a shared pile and in one-player games.

        :raises UnknownPile: for a pile the game does not have.
        """
        self.pile(pile_id)
        return None

    def check_seat(self, move: Move, seat: int) -> None:
        """The move names only piles of ``seat`` or shared ones.

        :raises UnknownPile: for a pile the game does not have.
        :raises NotYourPile: for a pile of another seat (``data["other_seat"]``).
        """
        for pile_id in (move.source, move.target):
            owner = self.seat_of(pile_id)
            if owner is not None and owner != seat:
                raise NotYourPile(
                    f"{pile_id} belongs to player {owner}: you can only move your own cards",
                    source=move.source,
                    target=move.target,
                    seat=seat,
                    other_seat=owner,
                )

    def describe(self) -> dict[str, Any]:
        """The game for the UI as JSON-ready data: title, players, piles with their
        label, role and what fills an empty one, passes, draw and the options in words."""
        return {
            "game": self.name,
            "title": self.title,
            "players": self.players,
            "piles": {
                pile_id: {
                    "label": self.pile_label(pile_id),
                    "role": ROLE_NAMES[self.roles[i]],
                    "fills": self.pile_fills(i),
                }
                for i, pile_id in enumerate(self.pile_ids)
            },
            "passes": self.passes_allowed(),
            "draw": self.cards_per_draw(),
            "options_text": self.options_text(),
        }

    def describe_state(self, state: State) -> str:
        """A state in words for logs and debuggers: face-up cards by name, face-down and
        stock cards only counted, so no hidden card can leak through a traceback."""
        parts = [self.name]
        options = self.options_text()
        if options:
            parts.append(f"({options})")
        for i, pile_id in enumerate(self.pile_ids):
            pile = state.piles[i]
            if self.roles[i] == STOCK:
                parts.append(f"{pile_id}:{len(pile)}")
                continue
            down = sum(1 for card in pile if card & FACE_DOWN)
            shown = [card_text(card) for card in pile if not card & FACE_DOWN]
            text = f"{down} down" + (" " if shown else "") if down else ""
            parts.append(f"{pile_id}:[{text}{' '.join(shown)}]")
        parts += [f"{name}={value}" for name, value in zip(self.counter_names, state.counters, strict=True)]
        return f"<State {' '.join(parts)}>"

    def check_cards(self, state: State, move: Move) -> None:
        """The move's ``cards`` are the cards it would move, bottom to top.

        :raises UnknownPile: for a pile the game does not have.
        :raises IllegalMove: code ``cards_not_allowed`` for a move that picks no cards
            (a draw from a face-down stock, turning the waste over).
        :raises StaleMove: when the cards are not the ones on top of the source now.
        """
        source = self.pile(move.source)
        self.pile(move.target)
        expected = move.cards or ()
        if len(expected) != move.count:
            raise MalformedMove("a move's 'cards' must name exactly the cards it moves", field="cards")
        if not self.moves_chosen_cards(state, move):
            raise IllegalMove(
                f"a move from {move.source} to {move.target} does not name cards: send it without 'cards'",
                "cards_not_allowed",
                source=move.source,
                target=move.target,
            )
        pile = state.piles[source]
        found = self.visible_top(source, pile, len(expected))
        named = [parse_card(text) & FACE_MASK for text in expected]
        actual = [None if text is None else parse_card(text) & FACE_MASK for text in found]
        if len(found) != len(expected) or actual != named:
            raise StaleMove(
                f"the cards on {move.source} are not the ones the move names: the table has changed",
                pile=move.source,
                expected=list(expected),
                found=found,
            )

    def moves_chosen_cards(self, state: State, move: Move) -> bool:
        """Hook: whether the move takes cards the player picks (so ``cards`` can name them)."""
        return True

    def visible_top(self, index: int, pile: tuple[Card, ...], count: int) -> list[str | None]:
        """The faces of the top ``count`` cards of a pile as any player sees them, bottom
        to top; hidden ones (face down, or under a stock's top) are ``None``."""
        cards = pile[-count:] if count else ()
        start = len(pile) - len(cards)
        stock = self.roles[index] == STOCK
        return [
            None if card & FACE_DOWN or (stock and start + k != len(pile) - 1) else face_text(card)
            for k, card in enumerate(cards)
        ]

    def is_won(self, state: State) -> bool:
        return all(not pile for i, pile in enumerate(state.piles) if self.roles[i] != FOUNDATION)

    def quick_over(self, state: State) -> bool | None:
        """See ``State.quick_over``: True proved over, False proved not, None undecided."""
        if self.is_won(state):
            return True
        seats = self.seats()
        # The cheap proofs of "not over" first, for every seat, before any over-estimate.
        if any(self.surely_progresses(state, seat) for seat in seats):
            return False
        if any(self.could_progress(state, seat) for seat in seats):
            return None
        return True

    def surely_progresses(self, state: State, seat: int) -> bool:
        """Hook: a cheap proof that this seat is not stuck (see ``quick_over``)."""
        return (
            not self.has_seen_stock(state, seat)
            or self.progresses_now(state, seat)
            or self.stock_lap_progresses(state, seat)
        )

    def quick_stuck(self, state: State, seat: int) -> bool | None:
        """The cheap part of ``is_stuck``: True stuck, False not, None undecided."""
        if self.surely_progresses(state, seat):
            return False
        return None if self.could_progress(state, seat) else True

    def is_over(self, state: State) -> bool:
        quick = state.quick_over()
        if quick is not None:
            return quick
        # Undecided by the cheap proofs: the exact search (solitaire/endings.py), which
        # has no cap. Imported here because endings builds on this module.
        from .endings import is_stuck_exact

        return all(self.quick_stuck(state, seat) or is_stuck_exact(state, seat) for seat in self.seats())

    def outcome(self, state: State, *, exact: bool = False) -> Outcome | None:
        """See ``State.outcome``. One player: won, or stuck with nobody winning."""
        if self.is_won(state):
            return Outcome(1, WON)
        over = state.is_over if exact else state.quick_over()
        return Outcome(None, STUCK) if over else None

    def seat_scores(self, state: State) -> dict[str, int] | None:
        """Each seat's contribution, ``{"1": n, ...}``, where the game counts them
        (Double); ``None`` in one-player games."""
        return None

    def outcome_if_stopped(self, state: State) -> Outcome:
        """See ``State.outcome_if_stopped``."""
        scores = self.seat_scores(state)
        if not scores:
            return Outcome(None, AGREED, scores)
        best = max(scores.values())
        leaders = [seat for seat, count in scores.items() if count == best]
        winner = int(leaders[0]) if len(leaders) == 1 else None
        return Outcome(winner, AGREED, scores)

    def outcome_if_resigned(self, state: State, seat: int) -> Outcome:
        """See ``State.outcome_if_resigned``."""
        seats = tuple(range(1, self.players + 1))
        if seat not in seats or isinstance(seat, bool):
            raise ValueError(f"seat must be one of {', '.join(map(str, seats))}, not {seat!r}")
        others = [other for other in seats if other != seat]
        winner = others[0] if len(others) == 1 else None
        return Outcome(winner, RESIGNED, self.seat_scores(state))

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

    def view(self, state: State, player: int | None, *, exact: bool = True) -> dict[str, Any]:
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
            "is_over": state.is_over if exact else state.quick_over() is True,
            "can_auto_finish": self.can_auto_finish(state),
            "moves": [m.to_dict() for m in moves],
        }
        data.update(self.view_extra(state, player, exact))
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
        return self.foundation_run(state) is not None

    def foundation_run(self, state: State) -> list[Move] | None:
        """Foundation moves, each the first one offered, until the game is won; ``None``
        if they run out first."""
        moves: list[Move] = []
        current = state
        while not self.is_won(current):
            move = next(
                (m for m in current.legal_moves() if self.roles[self.index[m.target]] == FOUNDATION), None
            )
            if move is None:
                return None
            moves.append(move)
            current = self.apply(current, move)
        return moves

    def safe_foundation_moves(self, state: State) -> list[Move]:
        """Top cards of ``safe_sources`` that fit a foundation and that no card can ever
        need in play again (docs/rules.md, "Safe moves to the foundations"): every card
        that could be put on it is home, and, where cards may come back down, every card
        two ranks below it is home too."""
        piles = state.piles
        home: dict[int, int] = {}
        for f in self.foundations:
            for card in piles[f]:
                face = card & FACE_MASK
                home[face] = home.get(face, 0) + 1
        moves: list[Move] = []
        for source in self.safe_sources(state):
            pile = piles[source]
            if not pile or pile[-1] & FACE_DOWN:
                continue
            card = pile[-1]
            target = next((f for f in self.foundations if fits_foundation(card, piles[f])), None)
            if target is None or not self.is_safe_to_play_up(card & FACE_MASK, home):
                continue
            moves.append(Move(self.pile_ids[source], self.pile_ids[target]))
        return moves

    def is_safe_to_play_up(self, face: Card, home: Mapping[Card, int]) -> bool:
        decks = self.decks
        if any(home.get(child, 0) < decks for child in self.children_of(face)):
            return False
        if self.cards_come_back():
            below = rank_of(face) - 2
            return all(
                home.get((rank << 2) | suit, 0) >= decks for rank in range(1, below + 1) for suit in range(4)
            )
        return True

    def children_of(self, face: Card) -> tuple[Card, ...]:
        """The faces of the cards that may be put on ``face`` in the tableau."""
        return ()

    def cards_come_back(self) -> bool:
        """Hook: whether a foundation card may ever return to play."""
        return False

    def check_count(self, move: Move, allowed: int = 1) -> None:
        if move.count > allowed:
            raise IllegalMove(
                f"only {allowed} card{'s' if allowed != 1 else ''} can move from {move.source} here",
                "count",
                source=move.source,
                target=move.target,
                count=move.count,
                allowed=allowed,
            )


def _shared_rules(name: str, options: dict[str, Any]) -> Rules:
    from .registry import rules_for

    return rules_for(name, **options)


def fits_foundation(card: Card, foundation: tuple[Card, ...]) -> bool:
    """Foundations start with an Ace and build up by one in the same suit."""
    if not foundation:
        return (card & 60) == 4
    top = foundation[-1]
    return (card & 3) == (top & 3) and ((card >> 2) & 15) == ((top >> 2) & 15) + 1


def foundation_refusal(card: Card, foundation: tuple[Card, ...], pile_id: str) -> IllegalMove:
    """Why ``card`` does not fit a foundation: code ``foundation`` with ``card``, ``pile``
    and ``top`` (``None`` for an empty foundation, which takes only an Ace)."""
    if not foundation:
        return IllegalMove(
            f"{face_text(card)} cannot start foundation {pile_id}: foundations start with an Ace",
            "foundation",
            card=face_text(card),
            pile=pile_id,
            top=None,
        )
    top = foundation[-1]
    return IllegalMove(
        f"{face_text(card)} does not go on {face_text(top)}: foundations build up by one in the same suit",
        "foundation",
        card=face_text(card),
        pile=pile_id,
        top=face_text(top),
    )
