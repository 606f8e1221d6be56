"""The solver's model of the games laid out like Klondike: Klondike (every option) and Josephine.

The search in ``solver.py`` asks this model for a compact position, its legal "macro"
moves, the position after one, and a canonical key. The model works on bytes and
tuples, not on engine ``State`` objects, because the search visits hundreds of
thousands of positions; it turns its macro moves back into real engine moves only for
the winning line (``expand``), which ``solver.py`` then replays through ``State.apply``.

A position is ``(found, piles, talon, w, passes)``:

- ``found``: bytes, the height of every foundation, ``decks`` slots per suit (slot
  ``suit * decks + j``), kept sorted within a suit. Which engine pile holds a suit does
  not matter to the search; ``expand`` picks the real pile.
- ``piles``: one bytes per tableau pile, in engine order, cards as the engine's ints
  (``rank << 2 | suit``, 64 when face down).
- ``talon``: the waste (bottom first) followed by the stock in the order it will be
  drawn; ``w`` cards of it are in the waste, so ``talon[w - 1]`` is the waste top.
- ``passes``: how many times the waste has been turned over.

The stock is handled with the "K+" abstraction: a move is "draw (and turn over if
needed) until card X is on top of the waste, then play X". Draws on their own are
never needed: they touch only the stock and waste, so they commute with every other
move and can always be postponed to just before the next waste card is played. On the
last pass of a game with a pass limit (Josephine's only pass) the stock is played one
draw at a time instead, which gives the best-first search fewer, better-judged choices.

This module must not know about web pages or hints, and it never changes the engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from .base import FOUNDATION, State, fits_foundation
from .bounds import no_space_ever
from .cards import FACE_DOWN
from .klondike_like import KlondikeLike
from .moves import Move
from .solver import DEPTH_FIRST_NODES, DEPTH_FIRST_SHARE, SOLVED, UNKNOWN, UNSOLVABLE

Position = tuple[bytes, tuple[bytes, ...], bytes, int, int]
# A primitive action is (kind, a, b, c), kinds below; a step is one or more of them.
Action = tuple[int, int, int, int]
Step = tuple[Action, ...]

# Kinds of macro move.
TABLEAU_TO_FOUNDATION = 0  # (kind, pile, 0, 0)
TABLEAU_TO_TABLEAU = 1  # (kind, source pile, target pile, count)
TALON_TO_FOUNDATION = 2  # (kind, waste size when the card is on top, turn over first?, 0)
TALON_TO_TABLEAU = 3  # (kind, waste size when the card is on top, turn over first?, target pile)
FOUNDATION_TO_TABLEAU = 4  # (kind, card, target pile, 0)
DRAW = 5  # (kind, 0, 0, 0): one draw, on the last pass only

_RED = (False, True, True, False)
# The suits of the other colour, by suit.
_OPPOSITE = tuple(tuple(o for o in range(4) if _RED[o] != _RED[s]) for s in range(4))

# Move ordering (lower is tried first). Moves that turn a card up are ranked by the
# number of cards still face down in their pile, from 8 (six hidden) to 18 (one).
PRI_UP = 22  # a card up to a foundation, turning nothing
PRI_TALON_UP = 22
PRI_TALON = 24
PRI_REASON = (0, 26, 28, 30)  # indexed by why a run moves: -, uncovers, empties, feeds up
PRI_DOWN = 40
# "best" (best-first by ``score``) or "depth" (depth-first in move order): both are
# exhaustive; best-first found wins sooner in our trials, for every game.
STRATEGY = "best"
KLONDIKE_WEIGHTS = (2, 6, 6, 8)
# Josephine weighs a blocker more than Klondike does: best-first alone at 3 CPU s solved
# 38 of seeds 1-100 with (2, 10, 6, 0), every one of the 34 that (2, 6, 6, 0) solved
# among them (docs/winnability.md).
JOSEPHINE_WEIGHTS = (2, 10, 6, 0)
# Weights Josephine's best-first starts again with, once its own have had
# JOSEPHINE_RESTART_SHARE of best-first's time (solver.solve). Blockers and nothing
# else: within 1 CPU s of best-first alone it won 6 of the 55 deals among tuning seeds
# 1001-1100 that the default search left unknown at 10 s, more than any other weights
# tried (docs/winnability.md, "Best-first started again with other weights").
JOSEPHINE_RESTARTS: tuple[tuple[int, ...], ...] = ((0, 10, 0, 0),)
JOSEPHINE_RESTART_SHARE = 0.5
_CACHE_LIMIT = 200_000
# The depth-first pass's share of a timeout when it runs in C.
NATIVE_DEPTH_FIRST_SHARE = 0.9
# Whether Josephine's search drops positions where no pile can ever be emptied
# (``bounds.no_space_ever``); a setting so that its effect can be measured.
SPACE_BOUND = True
# The native depth-first search's statuses, in its order.
_NATIVE_STATUS = (SOLVED, UNSOLVABLE, UNKNOWN)


def _load_native() -> Any | None:
    """The C port of the searches (``_klondike_search.c``), built by ``make install``;
    None without a build, when the Python searches below do the work."""
    try:
        return importlib.import_module("solitaire._klondike_search")
    except ImportError:
        return None


_NATIVE = _load_native()


class KlondikeModel:
    """Search model for one seat of a ``KlondikeLike`` game (Klondike, Josephine)."""

    def __init__(self, state: State, *, strict_safety: bool = False) -> None:
        """:param strict_safety: use the older, stricter rule for cards that go up on
        their own where cards may come back down (opposite colour one rank lower, same
        colour two); the hint keeps it until it is measured with the newer one."""
        rules = state.rules
        if not isinstance(rules, KlondikeLike) or len(rules.seat_numbers) != 1:
            raise ValueError(f"the Klondike solver model does not play {rules.name}")
        self.rules: KlondikeLike = rules
        self.seat = rules.seat_by_number[rules.seat_numbers[0]]
        self.draw = rules.draw_count
        self.max_passes = rules.max_passes
        self.same_suit = rules.same_suit
        self.any_space = rules.any_card_in_space
        self.whole = rules.whole_sequences
        self.f2t = rules.foundation_to_tableau
        self.decks = rules.decks
        self.strict_safety = strict_safety
        # With draw 1 and unlimited passes every talon card is reachable from any waste
        # size, and where the waste stood changes nothing else: leave it out of the key.
        self.ignore_w = self.draw == 1 and self.max_passes is None
        self._info: dict[bytes, tuple[int, int]] = {}
        self._runs: dict[bytes, tuple[int, ...]] = {}
        # The dead-end test needs colours and one pack; with any card allowed into a
        # space it could prove nothing, so it is left out there.
        self.check_dead = not self.same_suit and self.decks == 1 and not self.any_space
        # The space bound (bounds.py) holds where a space takes any card, the tableau
        # builds in suit and nothing comes back off the foundations: Josephine.
        self.check_spaces = SPACE_BOUND and self.same_suit and self.any_space and not self.f2t
        # Best-first search finds wins sooner than depth-first here (measured); it is
        # just as exhaustive, so "unsolvable" still means the whole space was seen.
        self.strategy = STRATEGY
        # The depth-first pass before best-first (solver.solve): one pack gets half the
        # time, bounded by time alone (it decided 21 of the 63 draw-3 deals best-first
        # left unknown at 10 s); Josephine keeps a short probe, as depth-first does
        # badly there (1 of 7 deals solved in 10 s).
        self.depth_first_share = 0.5 if self.decks == 1 else DEPTH_FIRST_SHARE
        self.depth_first_nodes: int | None = None if self.decks == 1 else DEPTH_FIRST_NODES
        # One pack: best-first skips what the pass finished with, which decided 15 more
        # of 1,000 draw-3 deals at 10 s and lost none. Josephine, where no deal is lost
        # within a timeout but by exhausting a short pass, keeps its measured search.
        # (Where the pass runs in C, below, it keeps no Python keys: nothing is handed
        # over, and best-first starts afresh.)
        self.hand_over_finished = self.decks == 1
        # Weights of the score: cards out, blockers, spaces (a bonus), hidden cards.
        self.weights: tuple[int, ...] = JOSEPHINE_WEIGHTS if self.same_suit else KLONDIKE_WEIGHTS
        # Weights best-first starts again with once these have had their share of its
        # time (``solver.solve``): none for Klondike.
        self.restart_weights: tuple[tuple[int, ...], ...] = JOSEPHINE_RESTARTS if self.same_suit else ()
        self.restart_share = JOSEPHINE_RESTART_SHARE if self.same_suit else 1.0
        self._disorder: dict[bytes, int] = {}
        self._fits: dict[bytes, tuple[frozenset[int], frozenset[int]]] = {}
        # dead_end's answers by what it reads: foundations, piles and the talon's cards.
        # Positions that differ only in where the waste stands share one (about half of
        # the calls in a draw-3 search).
        self._dead: dict[tuple[bytes, tuple[bytes, ...], bytes], bool] = {}
        self._count_cards(state)
        self._safe = self._safety_conditions()
        self._goal = [
            max((r for r in range(1, 14) if self.total[(r << 2) | suit]), default=0) for suit in range(4)
        ]
        # The cards that may be built onto each card in the tableau.
        self._takes: list[tuple[int, ...]] = [() for _ in range(64)]
        for card in range(4, 56):
            rank = card >> 2
            if rank > 1:
                if self.same_suit:
                    self._takes[card] = (((rank - 1) << 2) | (card & 3),)
                else:
                    suits = (0, 3) if _RED[card & 3] else (1, 2)
                    self._takes[card] = tuple(((rank - 1) << 2) | suit for suit in suits)
        self._holders: list[tuple[int, ...]] = [() for _ in range(64)]
        for card in range(4, 56):
            for taken in self._takes[card]:
                self._holders[taken] += (card,)
        # The C searches (``_klondike_search.c``) play two sets of rules: one pack,
        # alternating colours, unlimited passes and draws of two or more (draw one
        # brings the bridges and climbs, which stay Python's); and Josephine's, two
        # packs in suit, one pass, draw one, nothing back off the foundations. They get
        # the tables above as one bytes object.
        klondike_rules = self.decks == 1 and not self.same_suit and self.max_passes is None and self.draw >= 2
        josephine_rules = (
            self.decks <= 2 and self.same_suit and self.max_passes == 1 and self.draw == 1 and not self.f2t
        )
        self.native: bytes | None = None
        # Whether the depth-first pass runs in C with the schedule measured for it
        # (one-pack Klondike): most of a timeout, and in the hint thirty times the
        # positions. Josephine keeps its short probe: its C searches visit the same
        # positions as the Python ones, only sooner.
        self.native_pass_schedule = False
        if _NATIVE is not None and (klondike_rules or josephine_rules) and len(self.seat.tableau) <= 10:
            self.native = self._native_config()
            if klondike_rules:
                # Ten times Python's speed changes the split: the C pass gets most of
                # the time, best-first only the rest (docs/winnability.md, "The
                # depth-first pass in C").
                self.depth_first_share = NATIVE_DEPTH_FIRST_SHARE
                self.native_pass_schedule = True

    # --- setting up ---------------------------------------------------------------

    def _count_cards(self, state: State) -> None:
        """How many copies of each card the position holds, wherever they lie."""
        total = [0] * 64
        for pile in state.piles:
            for card in pile:
                total[card & 63] += 1
        self.total = total

    def _need(self, suit: int, rank: int, copies: int) -> int:
        """The foundation height at which every ``copies``-th copy of this suit up to
        ``rank`` is off the table (absent cards never come back to the table)."""
        for r in range(rank, 0, -1):
            if self.total[(r << 2) | suit] >= copies:
                return r
        return 0

    def _safety_conditions(self) -> list[tuple[tuple[int, int], ...] | None]:
        """For every card, the foundation heights (slot, at least) that make sending it
        up safe: no card that could ever be built on it, directly or through a chain of
        cards taken back from the foundations, is still in play.

        Alternating colours, one pack: both opposite-colour cards one rank lower must be
        up. Where cards may come back off the foundations: the opposite colour up to two
        ranks lower and the other suit of the card's colour up to three ranks lower
        (``docs/winnability.md`` proves this sound: those cards and the card's own suit
        below it can only ever hold one another, so a winning line never needs them
        down; then nothing can go on the card that could not go up instead). With
        ``strict_safety``: one and two ranks lower. Building in suit: every copy of the
        card one rank lower must be up. A card of rank 1 or 2 is always safe: only Aces
        could go on a 2, and an Ace can always go up itself.
        """
        decks = self.decks
        opposite_gap, same_gap = (1, 2) if self.strict_safety or not self.f2t else (2, 3)
        conditions: list[tuple[tuple[int, int], ...] | None] = [None] * 64
        for rank in range(1, 14):
            for suit in range(4):
                card = (rank << 2) | suit
                if rank <= 2:
                    conditions[card] = ()
                    continue
                needs: list[tuple[int, int]] = []
                if self.same_suit:
                    # Slots of a suit are sorted: the j-th lowest must cover the
                    # (decks - j)-th copy.
                    for j in range(decks):
                        needs.append((suit * decks + j, self._need(suit, rank - 1, decks - j)))
                else:
                    for other in range(4):
                        if other == suit:
                            continue
                        if _RED[other] != _RED[suit]:
                            lowest = rank - opposite_gap
                        elif self.f2t:
                            lowest = rank - same_gap
                        else:
                            continue
                        for j in range(decks):
                            needs.append((other * decks + j, self._need(other, lowest, decks - j)))
                conditions[card] = tuple(needs)
        return conditions

    def start(self, state: State) -> Position:
        rules = self.rules
        seat = self.seat
        decks = self.decks
        heights: list[list[int]] = [[] for _ in range(4)]
        for f in rules.foundations:
            pile = state.piles[f]
            if pile:
                top = pile[-1] & 63
                heights[top & 3].append(top >> 2)
        found = bytearray()
        for suit in range(4):
            if len(heights[suit]) > decks:
                raise ValueError("this position has more foundations of one suit than packs")
            found += bytes(sorted(heights[suit] + [0] * (decks - len(heights[suit]))))
        piles = tuple(bytes(c & 127 for c in state.piles[t]) for t in seat.tableau)
        waste = state.piles[seat.waste]
        stock = state.piles[seat.stock]
        talon = bytes(c & 63 for c in waste) + bytes(c & 63 for c in reversed(stock))
        passes = state.counters[seat.passes_counter]
        return (bytes(found), piles, talon, len(waste), passes)

    def _native_config(self) -> bytes:
        """The tables ``_klondike_search.c`` reads (its CFG_* layout): settings, goal
        heights, each card's safety conditions and each card's holders."""
        blob = bytearray(16 + 64 * 7 + 64 * 3)
        blob[0] = len(self.seat.tableau)
        blob[1] = self.draw
        blob[2] = int(self.whole)
        blob[3] = int(self.f2t)
        blob[4] = int(self.any_space)
        blob[5] = int(self.check_dead)
        blob[6:10] = bytes(self._goal)
        blob[10] = self.decks
        blob[11] = int(self.same_suit)
        blob[12] = int(self.max_passes == 1)
        blob[13] = int(self.check_spaces)
        for card in range(64):
            at = 16 + 7 * card
            conditions = self._safe[card]
            if conditions is None:
                blob[at] = 255
            else:
                if len(conditions) > 3:
                    raise ValueError("more safety conditions than the native search holds")
                blob[at] = len(conditions)
                for k, (slot, height) in enumerate(conditions):
                    blob[at + 1 + 2 * k] = slot
                    blob[at + 2 + 2 * k] = height
            holders = self._holders[card]
            at = 16 + 64 * 7 + 3 * card
            if len(holders) > 2:
                raise ValueError("more holders than the native search holds")
            blob[at] = len(holders)
            for k, holder in enumerate(holders):
                blob[at + 1 + k] = holder
        return bytes(blob)

    def native_depth_first(
        self, root: Position, max_nodes: int | None, deadline: float, clock: Callable[[], float]
    ) -> tuple[str, int, list[Action]] | None:
        """``_Search.depth_first`` from ``root`` in C: the same positions in the same
        order, so the same status, node count and line (the actions after ``root``).
        None where the C search does not play these rules, or is not built."""
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
        best-scored position (the actions after ``root``). None where the C search does
        not play these rules, or is not built."""
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

    # --- the search interface -------------------------------------------------------

    def key(self, position: Position) -> Hashable:
        found, piles, talon, w, passes = position
        if self.ignore_w:
            return (found, talon, *sorted(piles))
        if self.max_passes is None:
            # Unlimited passes: an exhausted stock is as good as one just turned over,
            # and so is any waste size that is a multiple of the draw count: from each
            # of them draws alone reach every other (docs/winnability.md).
            merged = w == len(talon) or w % self.draw == 0
            return (found, talon, 0 if merged else w, *sorted(piles))
        return (found, talon, w, passes, *sorted(piles))

    def won(self, position: Position) -> bool:
        return not position[2] and not any(position[1])

    def pile_info(self, pile: bytes) -> tuple[int, int]:
        """The index of the lowest card of the movable run on top of ``pile`` (its
        length if there is none), and how many of its cards lie face down."""
        info = self._info.get(pile)
        if info is not None:
            return info
        n = len(pile)
        if n == 0 or pile[-1] & FACE_DOWN:
            start = n
        else:
            start = n - 1
            same_suit = self.same_suit
            while start > 0:
                lower = pile[start]
                upper = pile[start - 1]
                if upper & FACE_DOWN or (upper >> 2) != (lower >> 2) + 1:
                    break
                if same_suit:
                    if (upper & 3) != (lower & 3):
                        break
                elif _RED[upper & 3] == _RED[lower & 3]:
                    break
                start -= 1
        hidden = 0
        for card in pile:
            if card & FACE_DOWN:
                hidden += 1
        if len(self._info) > _CACHE_LIMIT:
            self._info.clear()
        info = (start, hidden)
        self._info[pile] = info
        return info

    def fitting(self, found: bytes) -> tuple[frozenset[int], frozenset[int]]:
        """The cards that would go up onto some foundation now, and those of them that
        may go up automatically (see ``_safety_conditions``)."""
        fits = self._fits.get(found)
        if fits is not None:
            return fits
        decks = self.decks
        fit: set[int] = set()
        for slot, height in enumerate(found):
            if height < 13:
                fit.add(((height + 1) << 2) | (slot // decks))
        safe = frozenset(card for card in fit if self.is_safe(found, card))
        fits = (frozenset(fit), safe)
        if len(self._fits) > _CACHE_LIMIT:
            self._fits.clear()
        self._fits[found] = fits
        return fits

    def add_found(self, found: bytes, card: int) -> bytes:
        below = (card >> 2) - 1
        decks = self.decks
        base = (card & 3) * decks
        # Raise the highest slot at that height, so the suit's slots stay sorted.
        for j in range(decks - 1, -1, -1):
            if found[base + j] == below:
                slot = base + j
                return found[:slot] + bytes((below + 1,)) + found[slot + 1 :]
        raise AssertionError("card does not fit its foundation")

    def is_safe(self, found: bytes, card: int) -> bool:
        conditions = self._safe[card]
        if conditions is None:
            return False
        return all(found[slot] >= height for slot, height in conditions)

    def talon_positions(self, talon: bytes, w: int, passes: int) -> list[tuple[int, int]]:
        """Every waste size at which a talon card can be on top, with 1 when the waste
        must be turned over first: this pass, then (if allowed) the next one."""
        size = len(talon)
        if not size:
            return []
        draw = self.draw
        reachable: list[tuple[int, int]] = []
        seen: set[int] = set()
        if w:
            reachable.append((w, 0))
            seen.add(w)
        p = w
        while p < size:
            p = min(p + draw, size)
            reachable.append((p, 0))
            seen.add(p)
        if self.max_passes is None or passes + 1 < self.max_passes:
            p = 0
            while p < size:
                p = min(p + draw, size)
                if p not in seen:
                    reachable.append((p, 1))
        return reachable

    def moves(self, position: Position) -> list[Step]:
        """Every useful step from ``position``, most promising first.

        Pruned as pointless (never needed for a win):

        - moving a whole pile into a space (the position stays the same up to order);
        - moving part of a run off a card ``y`` onto a card that takes it as ``y`` did
          (same rank and colour, or the same card in two packs), unless ``y`` can then
          go up: the two cards are interchangeable for everything else;
        - bringing a card down from a foundation when it would safely go straight back,
          or when no card could go onto it next;
        - with draw one and unlimited passes, a talon card played to the tableau that
          nothing is played onto: every talon card can be fetched at any time, so such
          a play can wait until a card goes onto it. Talon cards reach the tableau only
          in "bridges": one or more talon cards ending in a card that a tableau run (or
          a card from a foundation) then goes onto, all in one step. Likewise a talon
          card sent up matters only once the next card of its suit follows it, so
          talon cards go up only in "climbs" that end with a tableau card going up.
        """
        if self.check_dead:
            seen = (position[0], position[1], position[2])
            dead = self._dead.get(seen)
            if dead is None:
                dead = self.dead_end(position)
                if len(self._dead) > _CACHE_LIMIT:
                    self._dead.clear()
                self._dead[seen] = dead
            if dead:
                return []
        found, piles, talon, w, passes = position
        if self.check_spaces and self.space_bound(position):
            return []
        same_suit = self.same_suit
        any_space = self.any_space
        pile_info = self.pile_info
        fit = self.fitting(found)[0]
        scored: list[tuple[int, Step]] = []
        append = scored.append
        n = len(piles)
        first_empty = -1
        # What each tableau pile will take: card -> target piles.
        wanted: dict[int, list[int]] = {}
        for j in range(n):
            pile = piles[j]
            if not pile:
                if first_empty < 0:
                    first_empty = j
                continue
            top = pile[-1]
            if top & FACE_DOWN:
                continue
            rank = top >> 2
            if rank == 1:
                continue
            if same_suit:
                wanted.setdefault(((rank - 1) << 2) | (top & 3), []).append(j)
            else:
                for suit in (0, 3) if _RED[top & 3] else (1, 2):
                    wanted.setdefault(((rank - 1) << 2) | suit, []).append(j)
        space_ok = first_empty >= 0
        bridges = self.ignore_w and bool(talon)
        # Cards that a run or a foundation card could be played onto after a bridge:
        # (source, card, priority, count or -1 for a foundation card).
        closers: list[tuple[int, int, int, int]] = []

        # Tableau piles: to the foundations and to each other.
        whole = self.whole
        movable: set[int] = set(talon)  # cards that could be played onto another soon
        for i in range(n):
            pile = piles[i]
            size = len(pile)
            start, hidden = pile_info(pile)
            if start >= size:
                continue
            movable.update(pile[start:])
            top = pile[-1]
            # Turning a card up comes first, the more cards still hidden in the pile the
            # sooner (they are the hardest to reach).
            reveal = 20 - 2 * hidden
            if top in fit:
                if hidden and pile[-2] & FACE_DOWN:
                    append((reveal, ((TABLEAU_TO_FOUNDATION, i, 0, 0),)))
                else:
                    append((PRI_UP, ((TABLEAU_TO_FOUNDATION, i, 0, 0),)))
            for k in range(start, start + 1 if whole else size):
                base = pile[k]
                # Why the move could matter, judged from the source pile.
                if k == 0:
                    reason = 2  # empties the pile
                elif pile[k - 1] & FACE_DOWN:
                    reason = 0  # turns a card
                elif k == start:
                    reason = 1  # uncovers a card no run move could reach before
                elif pile[k - 1] in fit:
                    reason = 3  # the card left on top goes up
                else:
                    continue
                priority = reveal if reason == 0 else PRI_REASON[reason]
                if bridges:
                    closers.append((i, base, priority, size - k))
                targets = wanted.get(base)
                if targets:
                    for j in targets:
                        if j != i:
                            append((priority, ((TABLEAU_TO_TABLEAU, i, j, size - k),)))
                if space_ok and reason != 2 and (any_space or base >> 2 == 13):
                    step = ((TABLEAU_TO_TABLEAU, i, first_empty, size - k),)
                    append((priority if reason == 0 else priority + 1, step))

        # Cards back off the foundations (Klondike's option), last.
        if self.f2t:
            decks = self.decks
            tops = [(height << 2) | (slot // decks) for slot, height in enumerate(found) if height]
            movable.update(tops)
            # A card comes down for one of two reasons: a card is to be played onto it,
            # or it uncovers the card below it in its suit, which comes down in turn for
            # the same reasons. So it is kept when a card that could be played onto it
            # or onto any card below it in its suit (an opposite colour card of a lower
            # rank) is movable now or on a foundation (where it can come down in turn,
            # as the K of hearts, then the Q of hearts onto the K of spades, do when two
            # suits are dug down together). Any other card that could be played there
            # must first be uncovered, and the whole dig can wait until it is.
            for card in tops:
                height = card >> 2
                if self.is_safe(found, card) or not self._may_come_down(found, card, movable):
                    continue
                if bridges:
                    closers.append((-1, card, PRI_DOWN, -1))
                targets = wanted.get(card)
                if targets:
                    for t in targets:
                        append((PRI_DOWN, ((FOUNDATION_TO_TABLEAU, card, t, 0),)))
                if space_ok and (any_space or height == 13):
                    append((PRI_DOWN, ((FOUNDATION_TO_TABLEAU, card, first_empty, 0),)))

        # The talon, K+ style: every card that can be brought to the top of the waste.
        if bridges:
            self._add_climbs(position, fit, append)
            if closers:
                self._add_bridges(position, closers, first_empty, append)
        elif talon and self.max_passes is not None and passes + 1 >= self.max_passes:
            # The last pass: a card drawn past is buried for good, so the stock is
            # played as it is, a draw at a time (fewer, better-judged choices than K+).
            if w:
                card = talon[w - 1]
                if card in fit:
                    append((PRI_TALON_UP, ((TALON_TO_FOUNDATION, w, 0, 0),)))
                targets = wanted.get(card)
                if targets:
                    for j in targets:
                        append((PRI_TALON, ((TALON_TO_TABLEAU, w, 0, j),)))
                if space_ok and (any_space or card >> 2 == 13):
                    append((PRI_TALON + 1, ((TALON_TO_TABLEAU, w, 0, first_empty),)))
            if w < len(talon):
                append((PRI_TALON + 2, ((DRAW, 0, 0, 0),)))
        elif talon:
            # Fetching a card from deep in the stock buries the cards drawn past it:
            # nearer cards first.
            scale = 1 if self.max_passes is None else 4
            for at, turn in self.talon_positions(talon, w, passes):
                card = talon[at - 1]
                cost = turn + ((at - w if at >= w else at) // self.draw) // scale
                if card in fit:
                    append((PRI_TALON_UP + cost, ((TALON_TO_FOUNDATION, at, turn, 0),)))
                targets = wanted.get(card)
                if targets:
                    for j in targets:
                        append((PRI_TALON + cost, ((TALON_TO_TABLEAU, at, turn, j),)))
                if space_ok and (any_space or card >> 2 == 13):
                    append((PRI_TALON + 1 + cost, ((TALON_TO_TABLEAU, at, turn, first_empty),)))
        scored.sort(key=_first)
        return [step for _, step in scored]

    def space_bound(self, position: Position) -> bool:
        """True when ``bounds.no_space_ever`` proves the position lost: no tableau pile
        can ever be emptied. On the last pass the waste is a stack for good, and the
        stock comes onto it a card at a time, in order (a queue; drawn in threes, the
        cards of a draw come one by one, which only allows more); before the last pass,
        cards drawn past come round again, so the whole talon counts as open."""
        found, piles, talon, w, passes = position
        if self.max_passes is not None and passes + 1 >= self.max_passes:
            return no_space_ever(found, self.decks, piles, (talon[:w],), b"", talon[w:])
        return no_space_ever(found, self.decks, piles, (), talon)

    def run_tops(self, pile: bytes) -> tuple[int, ...]:
        """For each card of a pile, the index of the highest card of the run it heads."""
        tops = self._runs.get(pile)
        if tops is not None:
            return tops
        n = len(pile)
        result = [0] * n
        for idx in range(n - 1, -1, -1):
            if idx == n - 1:
                result[idx] = idx
                continue
            lower, upper = pile[idx + 1], pile[idx]
            if (
                not (upper | lower) & FACE_DOWN
                and (upper >> 2) == (lower >> 2) + 1
                and _RED[upper & 3] != _RED[lower & 3]
            ):
                result[idx] = result[idx + 1]
            else:
                result[idx] = idx
        tops = tuple(result)
        if len(self._runs) > _CACHE_LIMIT:
            self._runs.clear()
        self._runs[pile] = tops
        return tops

    def _may_come_down(self, found: bytes, card: int, movable: set[int]) -> bool:
        """Whether something could come of ``card`` coming down off its foundation: an
        opposite-colour card of lower rank is up (an ace is enough: a suit's slots are
        sorted, so its last slot is its highest) or movable now (see ``moves``)."""
        decks = self.decks
        height = card >> 2
        for other in _OPPOSITE[card & 3]:
            if found[other * decks + decks - 1]:
                return True
            for rank in range(1, height):
                if (rank << 2) | other in movable:
                    return True
        return False

    def dead_end(self, position: Position) -> bool:
        """True when no line of play can win: a sound test by relaxation.

        It works out, generously, which cards could ever be turned up, leave their
        place or go up: a card goes up once the card below it in suit is up and it is
        uncovered (or in the talon); a card leaves its place, taking any run on it
        along, onto a card that is in the talon, on a foundation (when cards may come
        back), or uncovered itself; a King may always find a space; a card is
        uncovered once the card on it leaves. The talon is taken as open and everything
        as possible at once, so every real line of play stays within these sets. If
        even so some suit cannot be completed, the position is lost.
        """
        found, piles, talon, _w, _passes = position
        in_talon = set(talon)
        up = list(found)
        f2t = self.f2t
        exposed = [False] * 64
        departed = [False] * 64
        shapes: list[tuple[bytes, tuple[int, ...]]] = []
        for pile in piles:
            if pile:
                exposed[pile[-1] & 63] = True
                shapes.append((pile, self.run_tops(pile)))
        # Which cards each card may be built on (the reverse of ``takes``).
        holders = self._holders
        goal = self._goal
        changed = True
        while changed:
            changed = False
            for suit in range(4):
                height = up[suit]
                while height < 13:
                    card = ((height + 1) << 2) | suit
                    if card in in_talon or exposed[card]:
                        height += 1
                    else:
                        break
                if height != up[suit]:
                    up[suit] = height
                    changed = True
            if up == goal:
                return False
            for pile, run_top in shapes:
                n = len(pile)
                for idx in range(n - 1, -1, -1):
                    card = pile[idx] & 63
                    if departed[card]:
                        continue
                    rank = card >> 2
                    leaves = exposed[card] and up[card & 3] >= rank - 1
                    if not leaves:
                        if rank == 13:
                            held = idx > 0
                        else:
                            held = False
                            for holder in holders[card]:
                                if (
                                    holder in in_talon
                                    or exposed[holder]
                                    or (f2t and up[holder & 3] >= holder >> 2)
                                ):
                                    held = True
                                    break
                        if held:
                            top = run_top[idx]
                            if top == n - 1:
                                leaves = True
                            else:
                                for i in range(idx + 1, top + 2):
                                    if departed[pile[i] & 63]:
                                        leaves = True
                                        break
                    if leaves:
                        departed[card] = True
                        changed = True
                        if idx:
                            exposed[pile[idx - 1] & 63] = True
        return up != goal

    def _add_climbs(
        self, position: Position, fit: frozenset[int], append: Callable[[tuple[int, Step]], None]
    ) -> None:
        """Steps that send talon cards up one after another and then a tableau top."""
        _found, piles, talon, w, _passes = position
        tops: dict[int, int] = {}
        for i, pile in enumerate(piles):
            if pile and not pile[-1] & FACE_DOWN:
                tops[pile[-1]] = i
        for card in fit:
            chain: list[int] = []
            while card in talon:
                chain.append(card)
                card += 4  # the next rank of the same suit
            if not chain or card not in tops:
                continue
            i = tops[card]
            actions: list[Action] = []
            rest, waste = talon, w
            for up in chain:
                at = rest.find(up) + 1
                actions.append((TALON_TO_FOUNDATION, at, 1 if at < waste else 0, 0))
                rest = rest[: at - 1] + rest[at:]
                waste = at - 1
            actions.append((TABLEAU_TO_FOUNDATION, i, 0, 0))
            pile = piles[i]
            hidden = self.pile_info(pile)[1]
            reveals = len(pile) > 1 and pile[-2] & FACE_DOWN
            append((21 - 2 * hidden if reveals else PRI_UP + 1, tuple(actions)))

    def _add_bridges(
        self,
        position: Position,
        closers: list[tuple[int, int, int, int]],
        first_empty: int,
        append: Callable[[tuple[int, Step]], None],
    ) -> None:
        """Steps that play talon cards onto a tableau pile (or a King into a space) and
        then a run or a foundation card onto the last of them."""
        _found, piles, talon, w, _passes = position
        takes = self._takes
        in_talon = set(talon)
        # For every pile top a bridge may start from, the talon cards that could go
        # there, level by level: chains[j][d] lists the cards d + 1 ranks below the top.
        # A space starts with a King (any card, when any card may fill it).
        chains: list[tuple[int, list[list[int]]]] = []
        for j, pile in enumerate(piles):
            if not pile or pile[-1] & FACE_DOWN:
                continue
            levels: list[list[int]] = []
            wanted = takes[pile[-1]]
            while True:
                options = [c for c in wanted if c in in_talon]
                if not options:
                    break
                levels.append(options)
                wanted = takes[options[0]]
            if levels:
                chains.append((j, levels))
        space_starts: list[int] = []
        if first_empty >= 0:
            space_starts = [c for c in talon if self.any_space or c >> 2 == 13]
        for source, base, priority, count in closers:
            base_rank = base >> 2
            for target, levels in chains:
                if target == source:
                    continue
                # The last talon card must take the base: right rank, right colour.
                depth = len(levels)
                top_rank = piles[target][-1] >> 2
                need = top_rank - base_rank - 1  # talon cards in the bridge
                if need < 1 or need > depth or base not in takes[levels[need - 1][0]]:
                    continue
                for chain in _product(levels[:need]):
                    step = self._bridge_step(talon, w, chain, target, source, base, count)
                    append((priority + 1, step))
            for first in space_starts:
                need = (first >> 2) - base_rank
                if need < 1 or (need == 1 and base not in takes[first]):
                    continue
                levels = [[first]]
                wanted = takes[first]
                for _ in range(need - 1):
                    options = [c for c in wanted if c in in_talon]
                    if not options:
                        break
                    levels.append(options)
                    wanted = takes[options[0]]
                else:
                    if base in takes[levels[-1][0]]:
                        for chain in _product(levels):
                            step = self._bridge_step(talon, w, chain, first_empty, source, base, count)
                            append((priority + 1, step))

    def _fits_tableau(self, card: int, top: int) -> bool:
        if (top >> 2) != (card >> 2) + 1:
            return False
        if self.same_suit:
            return (top & 3) == (card & 3)
        return _RED[top & 3] != _RED[card & 3]

    def _bridge_step(
        self, talon: bytes, w: int, chain: tuple[int, ...], target: int, source: int, base: int, count: int
    ) -> Step:
        actions: list[Action] = []
        for card in chain:
            at = talon.find(card) + 1
            actions.append((TALON_TO_TABLEAU, at, 1 if at < w else 0, target))
            talon = talon[: at - 1] + talon[at:]
            w = at - 1
        if count < 0:
            actions.append((FOUNDATION_TO_TABLEAU, base, target, 0))
        else:
            actions.append((TABLEAU_TO_TABLEAU, source, target, count))
        return tuple(actions)

    def play(self, position: Position, step: Step) -> Position:
        """The position after one step (no automatic moves)."""
        for action in step:
            position = self.play_one(position, action)
        return position

    def play_one(self, position: Position, action: Action) -> Position:
        """The position after one primitive move."""
        found, piles, talon, w, passes = position
        kind = action[0]
        if kind == TABLEAU_TO_FOUNDATION:
            i = action[1]
            pile = piles[i]
            found = self.add_found(found, pile[-1])
            piles = _replace(piles, i, _uncover(pile[:-1]))
        elif kind == TABLEAU_TO_TABLEAU:
            i, j, count = action[1], action[2], action[3]
            pile = piles[i]
            moving = pile[-count:]
            new = list(piles)
            new[i] = _uncover(pile[:-count])
            new[j] = piles[j] + moving
            piles = tuple(new)
        elif kind in (TALON_TO_FOUNDATION, TALON_TO_TABLEAU):
            at, turn = action[1], action[2]
            card = talon[at - 1]
            talon = talon[: at - 1] + talon[at:]
            w = at - 1
            passes += turn
            if kind == TALON_TO_FOUNDATION:
                found = self.add_found(found, card)
            else:
                j = action[3]
                piles = _replace(piles, j, piles[j] + bytes((card,)))
        elif kind == DRAW:
            w = min(w + self.draw, len(talon))
        else:  # FOUNDATION_TO_TABLEAU
            card, j = action[1], action[2]
            decks = self.decks
            base = (card & 3) * decks
            height = card >> 2
            # Lower the lowest slot at that height, so the suit's slots stay sorted.
            for s in range(decks):
                if found[base + s] == height:
                    slot = base + s
                    break
            else:
                raise AssertionError("card is not on top of a foundation")
            found = found[:slot] + bytes((height - 1,)) + found[slot + 1 :]
            piles = _replace(piles, j, piles[j] + bytes((card,)))
        return (found, piles, talon, w, passes)

    def settle(self, position: Position) -> tuple[Position, list[Action]]:
        """Play every safe foundation move; return the position and the moves made."""
        made: list[Action] = []
        draw_one = self.draw == 1
        ignore_w = self.ignore_w
        while True:
            found, piles, talon, w, _passes = position
            candidates = self.fitting(found)[1]
            if not candidates:
                return position, made
            action: Action | None = None
            for i, pile in enumerate(piles):
                if pile and pile[-1] in candidates:
                    action = (TABLEAU_TO_FOUNDATION, i, 0, 0)
                    break
            if action is None and talon and draw_one:
                if ignore_w:
                    # Draw one, unlimited passes: any talon card can be fetched, and
                    # fetching it changes nothing else.
                    for card in candidates:
                        at = talon.find(card) + 1
                        if at:
                            action = (TALON_TO_FOUNDATION, at, 1 if at < w else 0, 0)
                            break
                elif w and talon[w - 1] in candidates:
                    # Otherwise only the waste top: taking it leaves every other card
                    # reachable in the same pass as before.
                    action = (TALON_TO_FOUNDATION, w, 0, 0)
            if action is None:
                return position, made
            made.append(action)
            position = self.play_one(position, action)

    def score(self, position: Position) -> int:
        """How far from won a position looks (lower is better), for best-first search:
        cards still out, and cards that cover a card needed sooner (one closer to
        going up) in a tableau pile or in the waste, with spaces as a bonus."""
        found, piles, talon, w, _passes = position
        decks = self.decks
        height = [max(found[suit * decks : suit * decks + decks]) for suit in range(4)]
        blockers = 0
        spaces = 0
        hidden = 0
        left = len(talon)
        for pile in piles:
            if not pile:
                spaces += 1
                continue
            left += len(pile)
            most_urgent = 99
            for card in pile:
                if card & FACE_DOWN:
                    hidden += 1
                need = (card >> 2 & 15) - height[card & 3]
                if need > most_urgent:
                    blockers += 1
                else:
                    most_urgent = need
        most_urgent = 99
        for card in talon[:w]:
            need = (card >> 2) - height[card & 3]
            if need > most_urgent:
                blockers += 1
            else:
                most_urgent = need
        w_left, w_block, w_space, w_hidden = self.weights
        return w_left * left + w_block * blockers - w_space * spaces + w_hidden * hidden

    # --- back to engine moves -------------------------------------------------------

    def expand(self, action: Action, state: State) -> list[Move]:
        """The engine moves that make ``action`` from the engine position ``state``."""
        rules = self.rules
        seat = self.seat
        ids = rules.pile_ids
        kind = action[0]
        if kind == TABLEAU_TO_FOUNDATION:
            source = seat.tableau[action[1]]
            card = state.piles[source][-1]
            return [Move(ids[source], ids[_foundation_for(state, card)])]
        if kind == TABLEAU_TO_TABLEAU:
            return [Move(ids[seat.tableau[action[1]]], ids[seat.tableau[action[2]]], action[3])]
        if kind == FOUNDATION_TO_TABLEAU:
            card = action[1]
            for f in rules.foundations:
                pile = state.piles[f]
                if pile and pile[-1] & 63 == card:
                    return [Move(ids[f], ids[seat.tableau[action[2]]])]
            raise AssertionError("card to bring down is not on a foundation")
        at, turn = action[1], action[2]
        stock_id, waste_id = ids[seat.stock], ids[seat.waste]
        draw = Move(stock_id, waste_id)
        if kind == DRAW:
            return [draw]
        moves: list[Move] = []
        stock = len(state.piles[seat.stock])
        waste = len(state.piles[seat.waste])
        draw_count = self.draw
        if turn:
            while stock:
                moved = min(draw_count, stock)
                stock -= moved
                waste += moved
                moves.append(draw)
            moves.append(Move(waste_id, stock_id))
            stock, waste = waste, 0
        while waste < at:
            moved = min(draw_count, stock)
            stock -= moved
            waste += moved
            moves.append(draw)
        if waste != at:
            raise AssertionError("talon move does not land on its card")
        if kind == TALON_TO_FOUNDATION:
            talon_card = _talon_card(state, seat.waste, seat.stock, at, turn)
            target = _foundation_for(state, talon_card)
            moves.append(Move(waste_id, ids[target]))
        else:
            moves.append(Move(waste_id, ids[seat.tableau[action[3]]]))
        return moves


def _first(item: tuple[int, Step]) -> int:
    return item[0]


def _replace(piles: tuple[bytes, ...], i: int, pile: bytes) -> tuple[bytes, ...]:
    new = list(piles)
    new[i] = pile
    return tuple(new)


def _uncover(pile: bytes) -> bytes:
    """The engine turns up a tableau pile's new top card when it is face down."""
    if pile and pile[-1] & FACE_DOWN:
        return pile[:-1] + bytes((pile[-1] & 63,))
    return pile


def _foundation_for(state: State, card: int) -> int:
    rules = state.rules
    for f in rules.foundations:
        if rules.roles[f] == FOUNDATION and fits_foundation(card & 63, state.piles[f]):
            return f
    raise AssertionError("no foundation takes this card")


def _talon_card(state: State, waste: int, stock: int, at: int, turn: int) -> int:
    """The card that will be on top of the waste at size ``at``."""
    talon = [c & 63 for c in state.piles[waste]] + [c & 63 for c in reversed(state.piles[stock])]
    return talon[at - 1]


def _product(choices: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Every way to pick one card from each list, in order."""
    if not choices:
        yield ()
        return
    for card in choices[0]:
        for rest in _product(choices[1:]):
            yield (card, *rest)
