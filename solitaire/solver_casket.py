"""The solver's model of Casket: positions as bytes, one-card moves, automatic refills.

A position is ``(found, tableau, wastes, lid, stock, jewels)``:

- ``found``: bytes, two foundation heights per suit (slot ``suit * 2 + j``), sorted;
- ``tableau``: eight bytes, the tableau piles in engine order;
- ``wastes``: three bytes, the waste piles in engine order;
- ``lid``: five bytes values, the card in each lid cell or 0 for an empty cell;
- ``stock`` and ``jewels``: how many cards are left in each. Both only ever lose their
  top card, so the rest is the deal's own order, kept once in the model.

Moves are the engine's own (one card from a top to a place), so ``expand`` maps each
to one engine move; the engine's refills (a lid cell from the jewels, an emptied
tableau pile from the stock) are made here exactly as the engine makes them.

This module must not know about web pages or hints, and it never changes the engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable
from typing import Any

from .base import State
from .bounds import no_space_ever
from .casket import Casket
from .moves import Move
from .solver import SOLVED, UNKNOWN, UNSOLVABLE

Position = tuple[bytes, tuple[bytes, ...], tuple[bytes, ...], bytes, int, int]
Action = tuple[int, int, int, int]
Step = tuple[Action, ...]

# Places, in one numbering: the stock, the wastes, the tableau, the lid cells, and the
# foundations taken together.
STOCK = 0
WASTES = (1, 2, 3)
TABLEAU = tuple(range(4, 12))
LID = tuple(range(12, 17))
FOUNDATIONS = 17

# Move ordering for ties in the best-first queue (lower first).
_CACHE_LIMIT = 200_000
# Whether the hard variation's search drops positions where no tableau pile can ever
# be emptied (``bounds.no_space_ever``). Off: it is sound (tests/engine/test_bounds.py)
# but fires on only 1-7% of the positions a hard search expands, and costs about a third
# more CPU a position in this cheap model; at 10 s on seeds 1-40 it decided no deal
# more and lost one win to the clock (docs/winnability.md, "The space bound, measured").
SPACE_BOUND = False
# Weights of the score: cards out, blockers, spaces (a bonus), jewels still locked.
CASKET_WEIGHTS = (2, 5, 4, 2)
# Weights best-first starts again with, in this order, once the model's own have had
# CASKET_RESTART_SHARE of best-first's time (solver.solve). Each of the first five won,
# within 1 CPU s of best-first alone, hard deals among tuning seeds 1001-1100 that the
# default schedule left unknown at 10 s; the five together won 8 of those 32
# (docs/winnability.md, "Best-first started again with other weights"). The last three
# won hard deals among tuning seeds 1101-1300 that the default left unknown once the
# stock's card was laid where it blocks nothing, which none of the five won ("Casket:
# the stock's card laid where it blocks nothing").
CASKET_RESTARTS: tuple[tuple[int, ...], ...] = (
    (4, 5, 4, 2),
    (2, 10, 4, 2),
    (2, 5, 4, 8),
    (1, 5, 4, 2),
    (2, 5, 8, 2),
    (4, 3, 2, 8),
    (4, 5, 8, 8),
    (1, 10, 4, 2),
)
CASKET_RESTART_SHARE = 0.2
# The native searches' statuses, in their order.
_NATIVE_STATUS = (SOLVED, UNSOLVABLE, UNKNOWN)


def _load_native() -> Any | None:
    """The C port of the depth-first and best-first searches (``_casket_search.c``),
    built by ``make install``; None without a build, when the Python searches do the work."""
    try:
        return importlib.import_module("solitaire._casket_search")
    except ImportError:
        return None


_NATIVE = _load_native()


class CasketModel:
    """Search model of Casket (and its hard variation)."""

    strategy = "best"
    # The depth-first pass before best-first (solver.solve) gets half the time, bounded
    # by time alone: at 10 s that decided 454 of 500 deals against 436 with the short
    # probe, and 58 of 100 hard deals against 49 (docs/winnability.md).
    depth_first_share = 0.5
    depth_first_nodes: int | None = None
    # Off: it was measured to change nothing here (seeds 1-200 at fixed budgets of
    # 60,000 and 300,000 positions: the same verdicts and the same positions counted),
    # so Casket's figures stay those measured without it (docs/winnability.md).
    hand_over_finished = False

    def __init__(self, state: State) -> None:
        rules = state.rules
        if not isinstance(rules, Casket):
            raise ValueError(f"the Casket solver model does not play {rules.name}")
        self.rules: Casket = rules
        self.hard = bool(rules.options["hard"])
        # The space bound (bounds.py) needs a lid that never takes a card: the hard
        # variation. In the other, an empty lid cell takes any card once the jewels are
        # out. (A caller may switch it on for the hard variation; never for the other.)
        self.check_spaces = SPACE_BOUND and self.hard
        # The score's weights, and those best-first starts again with (``solver.solve``).
        self.weights: tuple[int, ...] = CASKET_WEIGHTS
        self.restart_weights: tuple[tuple[int, ...], ...] = CASKET_RESTARTS
        self.restart_share = CASKET_RESTART_SHARE
        self.stock_cards = bytes(c & 63 for c in state.piles[rules.stock])
        self.jewel_cards = bytes(c & 63 for c in state.piles[rules.jewels])
        total = [0] * 64
        for pile in state.piles:
            for card in pile:
                total[card & 63] += 1
        # Safe to send up: ranks 1-2, or every copy of the card one rank lower is up.
        # need[card] = (lowest slot at least, highest slot at least).
        self._need: list[tuple[int, int]] = [(0, 0)] * 64
        for rank in range(3, 14):
            for suit in range(4):
                below = rank - 1
                both = max((r for r in range(1, below + 1) if total[(r << 2) | suit] >= 2), default=0)
                one = max((r for r in range(1, below + 1) if total[(r << 2) | suit] >= 1), default=0)
                self._need[(rank << 2) | suit] = (both, one)
        self._fits: dict[bytes, tuple[frozenset[int], frozenset[int]]] = {}
        # The C searches' tables (``native_depth_first``, ``native_best_first``); they do
        # not hold the space bound.
        self.native: bytes | None = None if self.check_spaces else self._native_config()

    def start(self, state: State) -> Position:
        rules = self.rules
        heights: list[list[int]] = [[] for _ in range(4)]
        for f in rules.foundations:
            pile = state.piles[f]
            if pile:
                top = pile[-1] & 63
                heights[top & 3].append(top >> 2)
        found = bytearray()
        for suit in range(4):
            if len(heights[suit]) > 2:
                raise ValueError("this position has more foundations of one suit than packs")
            found += bytes(sorted(heights[suit] + [0] * (2 - len(heights[suit]))))
        tableau = tuple(bytes(c & 63 for c in state.piles[t]) for t in rules.tableau)
        wastes = tuple(bytes(c & 63 for c in state.piles[w]) for w in rules.wastes)
        lid = bytes((state.piles[c][-1] & 63) if state.piles[c] else 0 for c in rules.lid)
        return (bytes(found), tableau, wastes, lid, len(self.stock_cards), len(self.jewel_cards))

    def key(self, position: Position) -> Hashable:
        found, tableau, wastes, lid, stock, jewels = position
        return (found, stock, jewels, bytes(sorted(lid)), *sorted(tableau), *sorted(wastes))

    def won(self, position: Position) -> bool:
        _found, tableau, wastes, lid, stock, jewels = position
        return not stock and not jewels and not any(lid) and not any(tableau) and not any(wastes)

    def fitting(self, found: bytes) -> tuple[frozenset[int], frozenset[int]]:
        """The cards that would go up now, and those of them that may go up by themselves."""
        fits = self._fits.get(found)
        if fits is not None:
            return fits
        fit = {((height + 1) << 2) | (slot >> 1) for slot, height in enumerate(found) if height < 13}
        safe = set()
        for card in fit:
            if card >> 2 <= 2:
                safe.add(card)
                continue
            both, one = self._need[card]
            suit = card & 3
            if found[suit * 2] >= both and found[suit * 2 + 1] >= one:
                safe.add(card)
        fits = (frozenset(fit), frozenset(safe))
        if len(self._fits) > _CACHE_LIMIT:
            self._fits.clear()
        self._fits[found] = fits
        return fits

    def space_bound(self, position: Position) -> bool:
        """True when ``bounds.no_space_ever`` proves the position lost: no tableau pile
        can ever be emptied. The lid cells, the jewels and the stock are open cards to
        it, taken in any order: a jewel only ever reaches the lid, and a stock card a
        waste pile, or a tableau pile once emptied, which the bound never lets happen."""
        found, tableau, wastes, lid, stock, jewels = position
        hand = bytes(card for card in lid if card) + self.jewel_cards[:jewels] + self.stock_cards[:stock]
        return no_space_ever(found, 2, tableau, wastes, hand)

    def moves(self, position: Position) -> list[Step]:
        """Every legal move except moving a tableau pile's only card into a space (the
        position would not change), best guesses first."""
        found, tableau, wastes, lid, stock, jewels = position
        if self.check_spaces and self.space_bound(position):
            return []
        fit = self.fitting(found)[0]
        lid_open = not jewels and not self.hard
        scored: list[tuple[int, Step]] = []
        append = scored.append
        # Where each card could go in the tableau: card -> target piles.
        wanted: dict[int, list[int]] = {}
        first_space = -1
        for t in range(8):
            pile = tableau[t]
            if pile:
                top = pile[-1]
                if top >> 2 > 1:
                    wanted.setdefault(top - 4, []).append(TABLEAU[t])
            elif first_space < 0:
                first_space = TABLEAU[t]
        empty_cell = -1
        if lid_open:
            for c in range(5):
                if not lid[c]:
                    empty_cell = LID[c]
                    break
        sources: list[tuple[int, int]] = []
        if stock:
            sources.append((STOCK, self.stock_cards[stock - 1]))
        for i in range(3):
            if wastes[i]:
                sources.append((WASTES[i], wastes[i][-1]))
        for t in range(8):
            if tableau[t]:
                sources.append((TABLEAU[t], tableau[t][-1]))
        for c in range(5):
            if lid[c]:
                sources.append((LID[c], lid[c]))
        for place, card in sources:
            alone = 4 <= place <= 11 and len(tableau[place - 4]) == 1
            if card in fit:
                append((0, ((place, FOUNDATIONS, 0, 0),)))
            targets = wanted.get(card)
            if targets:
                for target in targets:
                    if target != place:
                        # Emptying a pile brings in the stock's next card: progress.
                        append((1 if alone or place >= 12 else 3, ((place, target, 0, 0),)))
            if first_space >= 0 and not alone:
                append((4, ((place, first_space, 0, 0),)))
            if empty_cell >= 0 and place < 12:
                append((6, ((place, empty_cell, 0, 0),)))
        if stock:
            card = self.stock_cards[stock - 1]
            card_need = (card >> 2) - found[(card & 3) * 2 + 1]
            seen: set[bytes] = set()
            draws: list[tuple[int, int, int]] = []
            for i in range(3):
                waste = wastes[i]
                if waste in seen:
                    continue
                seen.add(waste)
                # A card laid on one needed no sooner than itself (by how far each is
                # from going up) blocks nothing: the closest such top first, as in
                # patience sorting, an empty waste after them; then the tops needed
                # sooner, the latest first.
                if not waste:
                    draws.append((2, 99, i))
                    continue
                top = waste[-1]
                top_need = (top >> 2) - found[(top & 3) * 2 + 1]
                if top_need >= card_need:
                    draws.append((2, top_need, i))
                else:
                    draws.append((5, 99 - top_need, i))
            draws.sort(key=_first_two)
            for priority, _key, i in draws:
                append((priority, ((STOCK, WASTES[i], 0, 0),)))
        scored.sort(key=_first)
        return [step for _, step in scored]

    def play(self, position: Position, step: Step) -> Position:
        for action in step:
            position = self.play_one(position, action)
        return position

    def play_one(self, position: Position, action: Action) -> Position:
        found, tableau, wastes, lid, stock, jewels = position
        source, target = action[0], action[1]
        # Take the card.
        if source == STOCK:
            card = self.stock_cards[stock - 1]
            stock -= 1
        elif source <= 3:
            pile = wastes[source - 1]
            card = pile[-1]
            wastes = _replace(wastes, source - 1, pile[:-1])
        elif source <= 11:
            pile = tableau[source - 4]
            card = pile[-1]
            rest = pile[:-1]
            if not rest and stock:
                rest = bytes((self.stock_cards[stock - 1],))
                stock -= 1
            tableau = _replace(tableau, source - 4, rest)
        else:
            cell = source - 12
            card = lid[cell]
            refill = 0
            if jewels:
                refill = self.jewel_cards[jewels - 1]
                jewels -= 1
            lid = lid[:cell] + bytes((refill,)) + lid[cell + 1 :]
        # Put it down.
        if target == FOUNDATIONS:
            slot = (card & 3) * 2
            below = (card >> 2) - 1
            if found[slot + 1] == below:
                slot += 1
            elif found[slot] != below:
                raise AssertionError("card does not fit its foundation")
            found = found[:slot] + bytes((below + 1,)) + found[slot + 1 :]
        elif target <= 3:
            wastes = _replace(wastes, target - 1, wastes[target - 1] + bytes((card,)))
        elif target <= 11:
            tableau = _replace(tableau, target - 4, tableau[target - 4] + bytes((card,)))
        else:
            cell = target - 12
            lid = lid[:cell] + bytes((card,)) + lid[cell + 1 :]
        return (found, tableau, wastes, lid, stock, jewels)

    def settle(self, position: Position) -> tuple[Position, list[Action]]:
        """Send up every card that is safe to: from the stock, a waste, the lid, or a
        tableau pile unless that would pull in the stock's next card (a pile's only
        card while the stock lasts: the refill changes what can happen next)."""
        made: list[Action] = []
        while True:
            found, tableau, wastes, lid, stock, _jewels = position
            safe = self.fitting(found)[1]
            if not safe:
                return position, made
            action: Action | None = None
            if stock and self.stock_cards[stock - 1] in safe:
                action = (STOCK, FOUNDATIONS, 0, 0)
            if action is None:
                for i in range(3):
                    if wastes[i] and wastes[i][-1] in safe:
                        action = (WASTES[i], FOUNDATIONS, 0, 0)
                        break
            if action is None:
                for c in range(5):
                    if lid[c] and lid[c] in safe:
                        action = (LID[c], FOUNDATIONS, 0, 0)
                        break
            if action is None:
                for t in range(8):
                    pile = tableau[t]
                    if pile and pile[-1] in safe and (len(pile) > 1 or not stock):
                        action = (TABLEAU[t], FOUNDATIONS, 0, 0)
                        break
            if action is None:
                return position, made
            made.append(action)
            position = self.play_one(position, action)

    def score(self, position: Position) -> int:
        """How far from won a position looks (lower is better): cards out, cards that
        cover a card needed sooner (in a pile, a waste or the stock), locked jewels,
        and empty tableau piles as a bonus."""
        found, tableau, wastes, lid, stock, jewels = position
        height = [max(found[2 * suit], found[2 * suit + 1]) for suit in range(4)]
        left = stock + jewels + sum(1 for card in lid if card)
        blockers = 0
        spaces = 0
        for pile in (*tableau, *wastes, self.stock_cards[:stock]):
            if not pile:
                spaces += 1
                continue
            left += len(pile)
            most_urgent = 99
            for card in pile:
                need = (card >> 2) - height[card & 3]
                if need > most_urgent:
                    blockers += 1
                else:
                    most_urgent = need
        w_left, w_block, w_space, w_jewels = self.weights
        return w_left * left + w_block * blockers - w_space * spaces + w_jewels * jewels

    def _native_config(self) -> bytes:
        """The deal's tables for ``_casket_search.c``: whether hard, the stock and jewel
        counts, each card's two "safe to go up" heights, then the stock and jewel cards
        in the order they are taken from (the last first)."""
        blob = bytearray((int(self.hard), len(self.stock_cards), len(self.jewel_cards)))
        for both, one in self._need:
            blob += bytes((both, one))
        return bytes(blob + self.stock_cards + self.jewel_cards)

    def native_depth_first(
        self, root: Position, max_nodes: int | None, deadline: float, clock: Callable[[], float]
    ) -> tuple[str, int, list[Action]] | None:
        """``_Search.depth_first`` from ``root`` in C: the same positions in the same
        order, so the same status, node count and line (the actions after ``root``).
        None with the space bound on (the C search does not hold it), or without a build."""
        if self.native is None or _NATIVE is None:
            return None
        status, nodes, path = _NATIVE.depth_first(self.native, root, max_nodes, deadline, clock)
        actions: list[Action] = [(a[0], a[1], a[2], a[3]) for a in path]
        return _NATIVE_STATUS[status], nodes, actions

    def native_best_first(
        self, root: Position, max_nodes: int | None, deadline: float, clock: Callable[[], float]
    ) -> tuple[str, int, list[Action], int, list[Action]] | None:
        """``_Search.best_first`` from ``root`` in C: the same positions in the same
        order, so the same status, node count, winning line, best score and line to the
        best-scored position (the actions after ``root``). None as for the depth-first."""
        if self.native is None or _NATIVE is None:
            return None
        status, nodes, line, best, best_line = _NATIVE.best_first(
            self.native, root, max_nodes, deadline, clock, self.weights
        )
        return (
            _NATIVE_STATUS[status],
            nodes,
            [(a[0], a[1], a[2], a[3]) for a in line],
            best,
            [(a[0], a[1], a[2], a[3]) for a in best_line],
        )

    def expand(self, action: Action, state: State) -> list[Move]:
        """The engine move for ``action`` from the engine position ``state``."""
        rules = self.rules
        ids = rules.pile_ids
        source, target = action[0], action[1]
        source_id = ids[self._pile(source)]
        if target == FOUNDATIONS:
            card = state.piles[self._pile(source)][-1] & 63
            for f in rules.foundations:
                pile = state.piles[f]
                if (not pile and card >> 2 == 1) or (
                    pile and (pile[-1] & 3) == (card & 3) and (pile[-1] >> 2 & 15) == (card >> 2) - 1
                ):
                    return [Move(source_id, ids[f])]
            raise AssertionError("no foundation takes this card")
        return [Move(source_id, ids[self._pile(target)])]

    def _pile(self, place: int) -> int:
        rules = self.rules
        if place == STOCK:
            return rules.stock
        if place <= 3:
            return rules.wastes[place - 1]
        if place <= 11:
            return rules.tableau[place - 4]
        return rules.lid[place - 12]


def _first(item: tuple[int, Step]) -> int:
    return item[0]


def _first_two(item: tuple[int, int, int]) -> tuple[int, int]:
    return item[0], item[1]


def _replace(piles: tuple[bytes, ...], i: int, pile: bytes) -> tuple[bytes, ...]:
    new = list(piles)
    new[i] = pile
    return tuple(new)
