"""The computer opponent of Double Solitaire: a policy that plays one seat from what
that seat can see.

The racer reads only ``state.view(seat)`` (its own cards, the opponent's face-up
cards, stock sizes and the shared foundations) and its own ``RacerMemory`` of what it
has seen: the order of its stock once it has been through it, the layouts it has
already shown, and what changed since its last look. It never receives a ``State``,
so it cannot see a face-down card or the order of a stock it has not turned.

How it decides (``decide``):

1. It fills its hidden places with the cards of its pack it has not seen, shuffled
   ("determinization"), several times for the stronger levels, and builds an engine
   state from each guess. The opponent's hidden places get the opponent's unseen cards;
   they never matter to the racer's own moves.
2. For each of its legal moves it searches its own moves a few plies deep on every
   guess (a run of draws to a given waste card counts as one ply), scores the best
   position reached (cards sent up, cards still face down, cards left in the stock and
   waste, empty columns), and averages over the guesses.
3. The shared foundations add a policy: *race* for a foundation spot the opponent could
   take with the same card now, and *hold back* a card whose only effect would be to
   open a foundation for a card the opponent has ready, when it does nothing for us.
4. A weaker level errs before it thinks: it sometimes plays a random legal move, and
   it overlooks some of its moves (never a draw), choosing among those it noticed.

Levels differ in what they do, not only in how fast they are: Easy looks one move
ahead on one guess with no foundation policy, overlooks most of its moves and often
plays at random; Steady looks two plies ahead (with draw runs) on one guess, overlooks
some moves and errs now and then, with no foundation policy; Sharp looks two plies
ahead on three guesses, sees every move, never errs, races for contested spots and
holds back. Each level also has a human pace (``think_seconds``): a think time per
move from a log-normal distribution, shorter for a plain draw, longer after a card has
been turned face up, and never shorter than a human reaction time, so the racer cannot
snap up a spot the instant the opponent opens it. Measured strengths are in ``docs/bots.md`` (``python -m
solitaire.tools.racebench``).

Standard library only; knows nothing of the web app.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .base import FOUNDATION, STOCK, TABLEAU, WASTE, State, fits_foundation
from .cards import FACE_DOWN, Card, card_text, full_deck, parse_card
from .klondike_like import KlondikeLike
from .moves import Move
from .registry import rules_for

GAME = "double"
SEATS = (1, 2)

# Weights of the position score (see ``evaluate``).
SENT_UP = 100.0
FACE_DOWN_PENALTY = 30.0
STOCK_PENALTY = 1.5
EMPTY_COLUMN = 6.0
# Foundation policy adjustments at the root.
RACE_BONUS = 45.0
HOLD_BACK_PENALTY = 120.0
# Below this many own cards left, every card goes up as soon as it can.
ENDGAME_CARDS = 12
# A level that has gone round its stock this many times with nothing else to do waits
# for the opponent to change the foundations instead of drawing for ever.
IDLE_CYCLES = 2


@dataclass(frozen=True, slots=True)
class Level:
    """What one computer level does, and how fast it plays."""

    name: str
    title: str
    depth: int  # plies of own moves searched
    samples: int  # guesses of the hidden cards averaged over
    draw_runs: bool  # may treat "draw until card X" as one ply
    mistake_rate: float  # chance of a random legal move instead of the chosen one
    overlooks: float  # chance of not seeing a move (any but a draw or turn-over) in one look
    races: bool  # plays first for a foundation spot the opponent could take
    holds_back: bool  # keeps back a card that would only open a spot for the opponent
    think_median: float  # seconds, median think time of an ordinary move
    think_spread: float  # sigma of the log-normal think time
    reveal_extra: float  # seconds added after one of its cards was turned face up
    reaction: float  # the least time between seeing a change and acting on it
    rating: int  # the fixed rating of this level (Glicko-2 scale, RD never shrinks)


LEVELS: dict[str, Level] = {
    "easy": Level("easy", "Easy", 1, 1, False, 0.3, 0.65, False, False, 2.4, 0.35, 1.2, 0.9, 1280),
    "steady": Level("steady", "Steady", 2, 1, True, 0.1, 0.4, False, False, 1.6, 0.3, 0.8, 0.6, 1500),
    "sharp": Level("sharp", "Sharp", 2, 3, True, 0.0, 0.0, True, True, 1.1, 0.25, 0.5, 0.4, 1710),
}


def level_named(name: object) -> Level:
    """The level called ``name``. :raises ValueError: for anything else."""
    if isinstance(name, str) and name in LEVELS:
        return LEVELS[name]
    raise ValueError(f"the computer plays at levels {', '.join(LEVELS)}")


# ---------------------------------------------------------------- memory


@dataclass(frozen=True, slots=True)
class RacerMemory:
    """What the racer has seen, built from its own views only.

    ``draw_order`` is its stock's cards, next to be drawn first, once known: turning
    the waste over makes the stock the waste's cards again, in the order they were
    drawn, so after the first turn-over the whole stock is known. ``seen`` holds the
    racer's own layouts it has shown (to avoid going round in circles), and the flags
    say what changed between the last two views.
    """

    seat: int
    draw_order: tuple[str, ...] | None = None
    last_waste: tuple[str, ...] = ()
    last_stock: int = -1
    last_hidden: int = -1
    last_foundations: tuple[int, ...] = ()
    last_opponent: int = -1
    seen: frozenset[str] = field(default_factory=frozenset)
    idle_cycles: int = 0
    revealed: bool = False
    opponent_sent_up: bool = False
    moves_seen: int = 0

    @classmethod
    def start(cls, view: Mapping[str, Any], seat: int | None = None) -> RacerMemory:
        """The memory of a racer that has just sat down to ``view``."""
        number = seat if seat is not None else view.get("player")
        if number not in SEATS:
            raise ValueError("a racer plays seat 1 or 2")
        return cls(seat=int(number)).after(view)

    def after(self, view: Mapping[str, Any]) -> RacerMemory:
        """The memory once the racer has looked at ``view`` (its own seat's view)."""
        piles: Mapping[str, Any] = view["piles"]
        prefix = f"p{self.seat}."
        stock = int(piles[prefix + "stock"])
        waste = tuple(str(c) for c in piles[prefix + "waste"])
        hidden = sum(1 for t in range(1, 8) for c in piles[f"{prefix}t{t}"] if c is None)
        foundations = tuple(len(piles[f"f{f}"]) for f in range(1, 9))
        draw_order = self.draw_order
        idle = self.idle_cycles
        if self.last_stock >= 0:
            recycled = self.last_stock == 0 and stock > 0 and not waste
            if recycled:
                # The stock is the old waste again; it will be drawn in the same order.
                draw_order = self.last_waste if len(self.last_waste) == stock else None
                idle += 1
            elif draw_order is not None and stock < self.last_stock:
                drawn = self.last_stock - stock
                draw_order = draw_order[drawn:]
            if draw_order is not None and len(draw_order) != stock:
                draw_order = None  # should not happen; forget rather than believe wrongly
            own_other = self.last_hidden != hidden or (
                not recycled and stock == self.last_stock and waste != self.last_waste
            )
            if own_other:
                idle = 0
        contributions = view.get("contributions") or {}
        opponent = int(contributions.get(str(3 - self.seat), 0))
        opponent_sent_up = self.last_opponent >= 0 and opponent > self.last_opponent
        if self.last_foundations and sum(foundations) > sum(self.last_foundations):
            idle = 0
        return replace(
            self,
            draw_order=draw_order,
            last_waste=waste,
            last_stock=stock,
            last_hidden=hidden,
            last_foundations=foundations,
            last_opponent=opponent,
            seen=self.seen | {own_key_of_view(view, self.seat)},
            idle_cycles=idle,
            revealed=self.last_hidden >= 0 and hidden < self.last_hidden,
            opponent_sent_up=opponent_sent_up,
            moves_seen=self.moves_seen + 1,
        )


def own_key_of_view(view: Mapping[str, Any], seat: int) -> str:
    """The racer's own tableau as it sees it, as one string. Stock and waste are left
    out: a tableau seen before is a circle, whatever the stock has done meanwhile."""
    piles: Mapping[str, Any] = view["piles"]
    prefix = f"p{seat}."
    parts = []
    for t in range(1, 8):
        parts.append(",".join("?" if c is None else str(c) for c in piles[f"{prefix}t{t}"]))
    return "|".join(parts)


def own_key_of_state(state: State, seat: int) -> str:
    """``own_key_of_view`` for a (guessed) state, without building a whole view."""
    rules = state.rules
    assert isinstance(rules, KlondikeLike)
    layout = rules.seat_by_number[seat]
    piles = state.piles
    parts = []
    for t in layout.tableau:
        parts.append(",".join("?" if c & FACE_DOWN else card_text(c) for c in piles[t]))
    return "|".join(parts)


# ---------------------------------------------------------------- decisions


@dataclass(frozen=True, slots=True)
class Decision:
    """A move the racer wants to send, the cards it believes it moves (bottom to top),
    and how long it thinks before sending it."""

    move: Move
    cards: tuple[str, ...]
    think_seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {**self.move.to_dict(), "cards": list(self.cards)}


def decide(
    view: Mapping[str, Any], memory: RacerMemory, level: Level | str, rng: random.Random
) -> Decision | None:
    """The racer's next move from ``view`` (its own seat's) and ``memory``, or None when
    it has nothing useful to do until the opponent changes something."""
    chosen = level_named(level) if isinstance(level, str) else level
    seat = memory.seat
    if view.get("result") or view.get("is_over"):
        return None
    listed = [Move.from_dict(m) for m in view.get("moves") or []]
    if not listed:
        return None
    guesses = [guess_state(view, memory, rng) for _ in range(chosen.samples)]
    rules = guesses[0].rules
    assert isinstance(rules, KlondikeLike)
    move = _choose(guesses, listed, memory, chosen, rng, view)
    if move is None:
        return None
    return Decision(move, moved_cards(view, move), think_seconds(chosen, memory, move, rng, rules, seat))


def _choose(
    guesses: Sequence[State],
    listed: list[Move],
    memory: RacerMemory,
    level: Level,
    rng: random.Random,
    view: Mapping[str, Any],
) -> Move | None:
    seat = memory.seat
    rules = guesses[0].rules
    assert isinstance(rules, KlondikeLike)
    stock_moves = [
        m for m in listed if rules.roles[rules.index[m.source]] in (STOCK, WASTE) and _is_cycle(rules, m)
    ]
    if level.mistake_rate and rng.random() < level.mistake_rate:
        return rng.choice(listed)
    if level.overlooks:
        # It does not see every move: each one but a draw or turn-over may be missed.
        noticed = [m for m in listed if _is_cycle(rules, m) or rng.random() >= level.overlooks]
        listed = noticed or listed
    # Aces and twos can never be wrong to send up: no search needed.
    for move in listed:
        if rules.roles[rules.index[move.target]] == FOUNDATION and _rank_of_top(view, move.source) <= 2:
            return move
    candidates = []
    for move in listed:
        if (
            rules.roles[rules.index[move.source]] != TABLEAU
            or rules.roles[rules.index[move.target]] != TABLEAU
        ):
            candidates.append(move)  # only moves between tableau piles can go round in circles
            continue
        after_key = own_key_of_state(guesses[0].apply(move), seat)
        if after_key in memory.seen:
            continue  # back to a layout it has already had: going round in circles
        candidates.append(move)
    if not candidates:
        return None
    idle = memory.idle_cycles >= IDLE_CYCLES
    base = sum(evaluate(g, seat) for g in guesses) / len(guesses)
    scored: list[tuple[float, float, int, Move]] = []
    held: list[tuple[float, Move]] = []  # moves the foundation policy marked down
    tables: list[dict[Any, float]] = [{} for _ in guesses]
    for move in candidates:
        total = 0.0
        now = 0.0
        for guess, table in zip(guesses, tables, strict=True):
            after = guess.apply(move)
            now += evaluate(after, seat)
            value = _search(after, seat, level.depth - 1, level.draw_runs, table)
            if level.draw_runs and move in stock_moves and level.depth > 1:
                # Going through the stock is worth the best card it brings to play.
                for macro in _draw_macros(guess, seat):
                    value = max(value, _search(macro, seat, level.depth - 2, level.draw_runs, table))
            total += value
        policy = _foundation_policy(view, move, seat, level, rules)
        value = total / len(guesses) + policy
        if policy < 0:
            held.append((total / len(guesses), move))
        # Then the better position at once; then a plain draw: with nothing better,
        # go through the stock rather than shuffle cards about.
        scored.append((value, now / len(guesses), 1 if move in stock_moves else 0, move))
    scored.sort(key=lambda item: item[:3], reverse=True)
    best_value, _, _, best = scored[0]
    if best_value <= base + 1e-9 or (idle and best in stock_moves):
        if idle:
            # Round the stock twice with nothing to show: give up a card held back
            # rather than stall, else wait for the opponent.
            released = [move for raw, move in sorted(held, key=lambda h: h[0], reverse=True) if raw > base]
            return released[0] if released else None
        if best not in stock_moves:
            draws = [m for m in candidates if m in stock_moves]
            if draws:
                return draws[0]
    return best


def _is_cycle(rules: KlondikeLike, move: Move) -> bool:
    """A draw (stock to waste) or a turn-over (waste to stock)."""
    roles = rules.roles
    source, target = roles[rules.index[move.source]], roles[rules.index[move.target]]
    return (source == STOCK and target == WASTE) or (source == WASTE and target == STOCK)


def _rank_of_top(view: Mapping[str, Any], pile_id: str) -> int:
    pile = view["piles"].get(pile_id)
    if not isinstance(pile, list) or not pile or pile[-1] is None:
        return 99
    return (parse_card(pile[-1]) >> 2) & 15


def _search(state: State, seat: int, depth: int, draw_runs: bool, table: dict[Any, float]) -> float:
    """The best score reachable from ``state`` in ``depth`` more of the seat's moves."""
    best = evaluate(state, seat)
    if depth <= 0:
        return best
    key = (state.piles, depth)
    known = table.get(key)
    if known is not None:
        return known
    rules = state.rules
    assert isinstance(rules, KlondikeLike)
    for after in _children(state, seat, draw_runs):
        value = _search(after, seat, depth - 1, draw_runs, table)
        if value > best:
            best = value
    table[key] = best
    return best


def _children(state: State, seat: int, draw_runs: bool) -> list[State]:
    rules = state.rules
    assert isinstance(rules, KlondikeLike)
    children: list[State] = []
    cycle: Move | None = None
    for move in rules.seat_moves(state, seat):
        if _is_cycle(rules, move):
            cycle = move
            continue
        children.append(rules.apply(state, move))
    if cycle is not None:
        children.append(rules.apply(state, cycle))
        if draw_runs:
            children += _draw_macros(state, seat)
    return children


def _draw_macros(state: State, seat: int) -> list[State]:
    """ "Draw until card X shows, then play X": one state for every waste card one
    cycle of the stock brings to the top and every place it can go."""
    rules = state.rules
    assert isinstance(rules, KlondikeLike)
    layout = rules.seat_by_number[seat]
    ids = rules.pile_ids
    stock_id, waste_id = ids[layout.stock], ids[layout.waste]
    draw, turn_over = Move(stock_id, waste_id), Move(waste_id, stock_id)
    macros: list[State] = []
    current = state
    start = (state.piles[layout.stock], state.piles[layout.waste])
    for _ in range(40):
        piles = current.piles
        if piles[layout.stock]:
            current = rules.apply(current, draw)
        elif piles[layout.waste] and rules.may_recycle(current, layout):
            current = rules.apply(current, turn_over)
        else:
            break
        piles = current.piles
        if (piles[layout.stock], piles[layout.waste]) == start:
            break
        waste = piles[layout.waste]
        if not waste:
            continue
        card = waste[-1]
        for f in rules.foundations:
            if fits_foundation(card, piles[f]):
                macros.append(rules.apply(current, Move(waste_id, ids[f])))
                break
        for t in layout.tableau:
            if rules.fits_tableau(card, piles[t]):
                macros.append(rules.apply(current, Move(waste_id, ids[t])))
    return macros


def evaluate(state: State, seat: int) -> float:
    """How far along the seat is: cards sent up, minus face-down cards and cards still
    in the stock and waste, plus empty columns."""
    rules = state.rules
    assert isinstance(rules, KlondikeLike)
    piles = state.piles
    layout = rules.seat_by_number[seat]
    mark = seat << 7
    sent = 0
    for f in rules.foundations:
        for card in piles[f]:
            if card & 0x180 == mark:
                sent += 1
    hidden = 0
    empty = 0
    for t in layout.tableau:
        pile = piles[t]
        if not pile:
            empty += 1
            continue
        for card in pile:
            if card & FACE_DOWN:
                hidden += 1
            else:
                break
    waiting = len(piles[layout.stock]) + len(piles[layout.waste])
    return SENT_UP * sent - FACE_DOWN_PENALTY * hidden - STOCK_PENALTY * waiting + EMPTY_COLUMN * empty


# ---------------------------------------------------------------- the shared foundations


def _available(view: Mapping[str, Any], seat: int) -> list[Card]:
    """The seat's cards that could go up now: its waste top and its tableau tops."""
    piles: Mapping[str, Any] = view["piles"]
    prefix = f"p{seat}."
    tops: list[Card] = []
    for pile_id in [prefix + "waste"] + [f"{prefix}t{t}" for t in range(1, 8)]:
        pile = piles[pile_id]
        if pile and pile[-1] is not None:
            tops.append(parse_card(pile[-1]) & 63)
    return tops


def _foundation_tops(view: Mapping[str, Any]) -> list[int]:
    """Each foundation's top card (rank and suit), 0 for an empty one."""
    tops = []
    for f in range(1, 9):
        pile = view["piles"][f"f{f}"]
        tops.append(parse_card(pile[-1]) & 63 if pile else 0)
    return tops


def _fits(card: int, top: int) -> bool:
    if not top:
        return (card >> 2) == 1
    return (card & 3) == (top & 3) and (card >> 2) == (top >> 2) + 1


def _foundation_policy(
    view: Mapping[str, Any], move: Move, seat: int, level: Level, rules: KlondikeLike
) -> float:
    if not (level.races or level.holds_back):
        return 0.0
    if rules.roles[rules.index[move.target]] != FOUNDATION:
        return 0.0
    source = view["piles"][move.source]
    if not source or source[-1] is None:
        return 0.0
    card = parse_card(source[-1]) & 63
    opponent = _available(view, 3 - seat)
    tops = _foundation_tops(view)
    adjustment = 0.0
    if level.races and card in opponent:
        # The opponent holds the same card ready: whoever is first takes the spot.
        spots = sum(1 for top in tops if _fits(card, top))
        if spots == 1:
            adjustment += RACE_BONUS
    if level.holds_back and _left(view, seat) > ENDGAME_CARDS:
        following = card + 4  # same suit, one rank up
        opens_for_opponent = following in opponent and not any(_fits(following, top) for top in tops)
        mine = _available(view, seat)
        helps_me = (
            following in mine
            or rules.roles[rules.index[move.source]] == WASTE
            or len(source) == 1
            or source[-2] is None
        )
        if opens_for_opponent and not helps_me:
            adjustment -= HOLD_BACK_PENALTY
    return adjustment


def _left(view: Mapping[str, Any], seat: int) -> int:
    contributions = view.get("contributions") or {}
    return 52 - int(contributions.get(str(seat), 0))


# ---------------------------------------------------------------- guessing the hidden cards


def guess_state(view: Mapping[str, Any], memory: RacerMemory, rng: random.Random) -> State:
    """A full engine state consistent with ``view`` and ``memory``: the racer's unseen
    cards shuffled into its hidden places (its stock in the remembered order when it
    knows it), the opponent's unseen cards in the opponent's."""
    options = dict(view.get("options") or {})
    rules = rules_for(GAME, **options)
    assert isinstance(rules, KlondikeLike)
    piles_view: Mapping[str, Any] = view["piles"]
    piles: list[tuple[Card, ...]] = [() for _ in rules.pile_ids]
    by_seat: dict[int, list[Card]] = {1: [], 2: []}
    for f in rules.foundations:
        cards = tuple(parse_card(text) for text in piles_view[rules.pile_ids[f]])
        piles[f] = cards
        for card in cards:
            by_seat[card >> 7].append(card & 63)
    for number in SEATS:
        layout = rules.seat_by_number[number]
        seen = by_seat[number]
        known_stock: list[Card] | None = None
        if number == memory.seat and memory.draw_order is not None:
            known_stock = [parse_card(text) & 63 for text in memory.draw_order]
            seen = seen + known_stock
        shown: dict[int, list[Card | None]] = {}
        for i in (layout.waste, *layout.tableau):
            cards_seen = [
                None if text is None else parse_card(text) & 63 for text in piles_view[rules.pile_ids[i]]
            ]
            shown[i] = cards_seen
            seen = seen + [c for c in cards_seen if c is not None]
        unseen = _unseen(seen)
        if number == memory.seat:
            rng.shuffle(unseen)
        for i, cards_seen in shown.items():
            piles[i] = tuple((unseen.pop() | FACE_DOWN) if c is None else c for c in cards_seen)
        count = int(piles_view[rules.pile_ids[layout.stock]])
        if known_stock is not None and len(known_stock) == count:
            piles[layout.stock] = tuple(c | FACE_DOWN for c in reversed(known_stock))
        else:
            piles[layout.stock] = tuple(unseen.pop() | FACE_DOWN for _ in range(min(count, len(unseen))))
    counters = list(rules.initial_counters())
    seats_view = view.get("seats") or {}
    for k, number in enumerate(SEATS):
        counters[k] = int((seats_view.get(str(number)) or {}).get("passes", 0))
    return rules.new_state(piles, tuple(counters))


def _unseen(seen: Sequence[Card]) -> list[Card]:
    remaining: dict[Card, int] = {}
    for card in full_deck():
        remaining[card] = remaining.get(card, 0) + 1
    for card in seen:
        if remaining.get(card, 0) > 0:
            remaining[card] -= 1
    return [card for card, n in remaining.items() for _ in range(n)]


def moved_cards(view: Mapping[str, Any], move: Move) -> tuple[str, ...]:
    """The cards a move takes, bottom to top, as the view shows them (none for a draw)."""
    pile = view["piles"].get(move.source)
    if not isinstance(pile, list) or move.source.endswith("stock"):
        return ()
    if move.target.endswith("stock"):
        return ()
    taken = pile[-move.count :] if move.count <= len(pile) else pile
    return tuple(str(c).split(":")[0] for c in taken if c is not None)


# ---------------------------------------------------------------- pace


def think_seconds(
    level: Level, memory: RacerMemory, move: Move, rng: random.Random, rules: KlondikeLike, seat: int
) -> float:
    """How long the racer thinks before sending ``move``: log-normal around the level's
    median, shorter for a plain draw, longer just after a card of its own was turned up,
    and never under the level's reaction time."""
    median = level.think_median
    if _is_cycle(rules, move):
        median *= 0.55
    if memory.revealed:
        median += level.reveal_extra
    seconds = median * math.exp(rng.gauss(0.0, level.think_spread))
    floor = level.reaction * (1.5 if memory.opponent_sent_up else 1.0)
    return max(floor, seconds)


# ---------------------------------------------------------------- jobs for a worker process


def decide_job(
    view: dict[str, Any], memory: RacerMemory | None, level: str, seed: int, seat: int
) -> tuple[RacerMemory, Decision | None]:
    """One look and one decision, as a picklable job: the memory after looking at
    ``view`` and the move to send (or None). ``seed`` makes it repeatable, so two
    processes driving the same seat at the same version decide the same."""
    looked = RacerMemory.start(view, seat) if memory is None else memory.after(view)
    return looked, decide(view, looked, level, random.Random(seed))


def memory_from_views(views: Sequence[Mapping[str, Any]], seat: int) -> RacerMemory | None:
    """The memory of a racer that saw ``views`` one after the other (to resume a seat
    from a race's log after a restart); None when there were none."""
    memory: RacerMemory | None = None
    for view in views:
        memory = RacerMemory.start(view, seat) if memory is None else memory.after(view)
    return memory
