"""A hint from what the player can see and remember: the most useful move, or none.

``hint(view, memory, seen=..., budget=...)`` reads only a view (``State.view(player)``)
and, if given, the player's ``Memory`` (the stock cards they have seen, in order, and
any face-down card they saw go back down). It never sees a face-down card the player
has not seen, so it cannot cheat; the same function serves the browser's hint button,
the hint bot (``python -m solitaire.bot``) and, later, the computer opponent.

How it judges Klondike and Josephine (sampling, "hindsight optimisation"):

1. A card that can go up safely (nothing could ever need to be built on it) goes up.
   Then, with ``LOOK_THROUGH_STOCK``, while a look through the stock costs nothing
   (unlimited passes, and the waste a whole number of draws deep, so one turn of the
   stock rebuilds it) and the stock holds cards the player has never seen, the hint is
   the draw: the player learns the stock before anything rests on a guess of it.
2. Otherwise it deals the unseen cards at random into the face-down places, several
   times ("samples"); remembered cards stay where the player knows they are. The
   generator is seeded by the view and memory, so the same knowledge gets the same hint.
   (With ``KEEP_SAMPLES``, off by default, it is seeded by what is unknown alone, so the
   deals stay the same from move to move until the player sees a new card.)
3. The candidates are the solver's own macro moves whose cards the player knows ("draw
   until 9H is on top, then play 9H on 10S"), plus a plain draw while the stock still
   holds unseen cards. Each candidate is played on every sample and followed by a short
   search (depth-first for half its positions, then best-first); a win scores 1, a
   proved loss 0, an unfinished search ``UNFINISHED_WEIGHT`` of how far it got (0 by
   default: no credit). The candidate with the best average over the same samples is
   the hint, unless it leads the model's first candidate by no more than
   ``MODEL_ORDER_MARGIN`` (0 by default). (With ``PRUNE``, off by default, a candidate
   confidently no better than the leader is dropped after 16 samples and every 8 more;
   measured, it bought nothing.)
4. With nothing left to guess, one "sample" is the truth and the search is exact.
5. A candidate that leads back to a position in ``seen`` (earlier positions of this
   game, as ``position_key`` strings) is left out unless nothing else is possible.
6. When the player has seen the whole stock and no move can make lasting progress any
   more (``endings.is_over_exact``), the advice is "no useful move: the game is lost".

The moves of a chosen macro move are remembered by position, so the hint does not change
its mind half-way through one. So is the winning line after it on the first sample, as far
as it digs cards back down off the foundations (``DIG_GAP``), or all of it when nothing
is hidden any more; a remembered line ends at the next unseen card revealed.

Casket keeps the older single-guess plan; Double Solitaire a rule of thumb.

This module must not touch a ``State``'s hidden cards: everything it knows comes from
the view and the memory it is given. (It builds ``State`` objects only from samples.)
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from .base import FOUNDATION, STOCK, TABLEAU, WASTE, Rules, State
from .cards import FACE_DOWN, KING, card_text, face_text, rank_of
from .cards import parse_card as _parse
from .memory import Memory
from .registry import rules_for

NO_HINT_BELOW = 0
# The default budget of one hint, in budget seconds of search (NODES_PER_SECOND below;
# a hint's real CPU is far less: about 0.07 s a move at 2.0). A budget above 0.5 buys
# more samples, not longer searches (SAMPLES_PER_SECOND). At 0.5 (8 samples) the hint
# won 32 of draw-3 seeds 5001-5100; at 2.0 (32 samples), 42; a longer search on 8
# samples (1.5 on seeds 1001-1100) had won no more (docs/winnability.md).
DEFAULT_BUDGET = 2.0
# How many search positions a budget second buys: the budget is spent as a node count,
# so a hint does not depend on how busy the machine is, with a CPU-time safety net at
# twice the budget (and never past MOVE_SECONDS below). The solver compiled by mypyc
# (`make install`, solitaire/tools/compile.py) searches about three times as fast as
# plain Python (24,000 against 6,700 positions a CPU second on this machine's loaded
# cores; 12,000 was plain Python's rate on a quiet one). Run as plain Python, a hint
# costs about three times the CPU.
NODES_PER_SECOND = 36_000
# The most CPU seconds one hint may take, whatever the budget and however slow the
# machine: every search inside a hint stops at this limit (the target is 2 s a
# move; the margin covers the last stretch between two looks at the clock).
MOVE_SECONDS = 1.8
# The share of that limit the "is the game lost?" and "way out" searches may use, so
# that scoring the candidates always keeps some time.
ENDING_SHARE = 0.5
# Sampled deals per hint: at least SAMPLES, and SAMPLES_PER_SECOND for every second of
# budget, so that a larger budget averages each candidate over more deals while each
# search stays the size it has at 0.5. (Spreading the same budget over more samples,
# each searched less, lost: 96 against 98 of seeds 5001-5300 with 32 samples at 0.5.)
SAMPLES = 8
SAMPLES_PER_SECOND = 16
# Beyond this many samples a larger budget lengthens each search instead: samples are
# dealt before any search starts, so their number must stay modest.
MAX_SAMPLES = 64
# Pruning: after PRUNE_AFTER samples, and every PRUNE_EVERY more, a candidate is dropped
# when it is confidently no better than the leader: the mean of its score minus the
# leader's, sample by sample, plus PRUNE_Z standard errors, is below PRUNE_MARGIN. The
# samples it saves go to the candidates still close, up to the budget's sample count.
# Off: at budget 4.0 (up to 64 samples) with pruning the hint won 412 of the held-out
# draw-3 seeds 1101-2100, against 417 for the default (2.0, 32 samples, no pruning),
# at 0.090 CPU s a move against 0.063 (docs/winnability.md).
PRUNE = False
PRUNE_AFTER = 16
PRUNE_EVERY = 8
PRUNE_Z = 2.0
PRUNE_MARGIN = 0.02
# The share of each candidate's search on a sample spent first on a depth-first pass
# (the solver's own move order), before best-first takes the rest. Depth-first settles
# many samples outright, a win or a proved loss, where a short best-first search ends
# with only a partial score. On held-out draw-3 deals 1001-1100: 39 wins with a half,
# 30 with nine tenths, 33 with none (docs/winnability.md).
DEPTH_FIRST_SHARE = 0.5
# Whether each search's best-first part skips what its depth-first pass finished with
# (``solver.search_from``), as ``solve`` does for one-pack Klondike. Off: on draw-3
# seeds 1001-1300 it won 97 games against 95 (14 against 12 by deal), no measurable
# gain, and the hint's measured figures are without it (docs/winnability.md).
HAND_OVER = False
# Whether the hint keeps playing the first sample's winning line, after the chosen
# macro move, until an unseen card comes up (with nothing hidden, the line is always
# followed: it is the truth). Off, each move is chosen afresh, except through a dig (see
# DIG_GAP). Choosing afresh everywhere won 352 against 334 on draw-3 seeds 5001-6000,
# but it went round a loop on deal 1748, where a long dig off the foundations must be
# played through; with digs followed, it won 110 against 98 of seeds 5001-5300 and
# deal 1748 ends won (docs/winnability.md).
FOLLOW_LINE = False
# With FOLLOW_LINE off, a winning line is still followed through a dig: a stretch of
# cards taken back down from the foundations, each within DIG_GAP moves of the last. A
# dig only pays once it is played through, and choosing afresh half-way could undo it.
DIG_GAP = 4
# How many times the depth-first pass's positions the hint's searches get when the pass
# runs in C with its own schedule (``KlondikeModel.native_pass_schedule``: Klondike draw
# three), about thirteen times as fast as the compiled Python. On draw-3 seeds
# 5001-6000 (tuning): 334 wins with 30 against 320 with 1 (McNemar 123 against 109, not
# significant), for 0.014 CPU s a move against 0.007 s; on seeds 1001-1100, 39 against
# 34 (docs/winnability.md).
NATIVE_DEPTH_FIRST_FACTOR = 30
# The same for the best-first part, which runs in C too since 2026-12-07 (about eleven
# times the compiled Python's positions a CPU second). 1: the same games as before, for
# less CPU. Ten times won 115 of draw-3 seeds 5001-5300 against 131 (McNemar 20 against
# 36, p = 0.044; docs/winnability.md).
NATIVE_BEST_FIRST_FACTOR = 1.0
# What a search that ends unfinished on a sample is worth, at most: this share of a win,
# by how far it got (the share of the root's score it took off). None, since 2026-12-05:
# an unfinished search counts as no win, as in lonelybot. Half credit (0.5) won 417 of
# the held-out draw-3 seeds 1101-2100; none won 426 (docs/winnability.md).
UNFINISHED_WEIGHT = 0.0
# Two more scorings were tried and removed (docs/winnability.md, 2026-12-05; the code is
# at commit 3e15b52): less credit for a win the search took long to find (lonelybot's
# cap), 78 against 87 of draw-3 seeds 5001-5200, and a bonus for each face-down card a
# candidate turns over, 88 against 87.
MIN_NODES = 40
# Positions the "is the game lost?" check may visit inside a hint.
LOST_CHECK_POSITIONS = 20_000
# Casket's single-guess plan: positions, and a safety net in seconds.
PLAN_NODES = 1500
PLAN_SECONDS = 0.5
# How many position -> move entries of earlier lines are remembered.
PLAN_MEMORY = 5_000
LOST = "no useful move: the game is lost"
# Look through a stock the player has not seen yet before choosing anything that rests
# on it, where a look costs nothing (unlimited passes; see ``_sampled``). Off: on the
# 1,000 held-out draw-3 seeds it won 424 against 426 (docs/winnability.md).
LOOK_THROUGH_STOCK = False
LOOK = "look through the stock"
# Whether the sampled deals stay the same from move to move until the player sees a
# new card (the generator seeded by what is unknown, ``_unknown_key``, not by the whole
# position), so that consecutive choices are judged on the same deals and follow one
# consistent idea of the hidden cards. Off: on draw-3 seeds 5001-5210 it won 83
# against the default's 95 (docs/winnability.md).
KEEP_SAMPLES = False
# Which rule says a card may go up safely, in step 1 and inside every search: the
# stricter one (True), with which the hint's figures in docs/winnability.md were
# measured, or the solver's looser one (False; sound as well where cards may come back
# down, docs/winnability.md), which plays more cards up and prunes more.
STRICT_SAFETY = True
# Whether the plain draw is weighed as a candidate even when the player knows every
# talon card. Without it, a known talon is reached only through the model's macro moves
# ("draw until 9H, then play it"), so where every other fresh move loses (or the one
# fresh move does, taken unweighed as "only move") the hint cannot choose to draw and
# come back to a move that leads to a position already seen, which after the draw it
# no longer does (draw-3 seed 5007, move 117: waste to foundation lost a won game).
DRAW_ALWAYS_WEIGHED = False
# A narrower, cheaper form of the same (0 for off): where one fresh move is left, the
# talon is known and a draw leads somewhere new, search after the lone move on this
# many samples first; if it wins on none of them, the draw is weighed against it.
LONE_MOVE_CHECK = 0
# Whether a remembered plan's play from the waste (the end of "draw until X, then play
# X") is weighed afresh rather than followed: 10 of 35 moves that lost won deals on
# tuning seeds were such plays (docs/winnability.md). Off: not measured yet.
REWEIGH_WASTE_PLAYS = False
# How much better, as a share of the samples scored, a candidate must score than the
# first candidate in the model's own move order to be chosen over it. 0 (the default):
# any lead wins. A margin trusts the solver's ordering over a small lead that may come
# from the samples being searched as if their hidden cards were known (64 samples
# played worse than 32 on tuning seeds). At 0.07 it won 122 of draw-3 seeds 5001-5300
# against the default's 131 (docs/winnability.md).
MODEL_ORDER_MARGIN = 0.0

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = "CDHS"
_DECKS = {"klondike": 1, "josephine": 2, "casket": 2}
_SAMPLED_GAMES = ("klondike", "josephine")
_plans: OrderedDict[str, dict[str, Any]] = OrderedDict()
# For a remembered move: the position key where its stretch of draws ends.
_ends: dict[str, str] = {}
# The web app may ask for hints from several threads at once.
_plans_lock = threading.Lock()


@dataclass(frozen=True)
class Advice:
    """What the hint has to say: a move, or none and why.

    ``move`` is one of the view's legal moves (a dict) or None; ``lost`` is True when
    the hint found that no move can make lasting progress (``reason`` is then
    ``LOST``); ``reason`` names how the move was chosen ("safe", "sampled", "exact",
    "plan", "rule of thumb", "only repeats") or why there is none ("no moves").
    ``cut_short`` is True when the CPU limit (``max_seconds``, or twice the budget)
    stopped a search early, or stopped the scoring before every sample was scored.
    ``samples`` is how many sampled deals the budget allows, ``scored`` how many the
    candidates were scored on before pruning left one (or the samples ran out), and
    ``finalists`` how many candidates were still in the running at the end.
    """

    move: dict[str, Any] | None
    lost: bool = False
    reason: str = ""
    samples: int = 0
    candidates: int = 0
    cut_short: bool = False
    scored: int = 0
    finalists: int = 0


def hint(
    view: dict[str, Any],
    memory: Memory | None = None,
    *,
    seen: Collection[str] | None = None,
    budget: float = DEFAULT_BUDGET,
    max_seconds: float = MOVE_SECONDS,
) -> dict[str, Any] | None:
    """The most useful move in ``view["moves"]``, or None when there is none worth
    making (no legal move, or the game is lost: see ``advise`` to tell which).

    :param memory: what the player remembers (``Memory``); None for the view alone.
    :param seen: ``position_key`` of every earlier position of this game; a move back
        to one of them is suggested only when nothing else is possible.
    :param budget: CPU seconds of search, roughly (spent as a node count).
    :param max_seconds: a hard limit on the CPU seconds of the whole hint; when it
        runs out the hint judges by what it has scored so far.
    """
    return advise(view, memory, seen=seen, budget=budget, max_seconds=max_seconds).move


def advise(
    view: dict[str, Any],
    memory: Memory | None = None,
    *,
    seen: Collection[str] | None = None,
    budget: float = DEFAULT_BUDGET,
    max_seconds: float = MOVE_SECONDS,
) -> Advice:
    """Like ``hint``, with the reason: ``Advice(move=None, lost=True)`` says that no
    move can make progress any more, so the game is lost."""
    started = time.process_time()
    moves: list[dict[str, Any]] = list(view.get("moves") or [])
    if not moves:
        return Advice(None, lost=not view.get("is_won", False), reason="no moves")
    seen_keys = frozenset(seen or ())
    game = view.get("game")
    if game in _SAMPLED_GAMES and "seats" not in view:
        try:
            return _sampled(view, memory, seen_keys, moves, budget, started + max_seconds)
        except (ValueError, KeyError, TypeError, IndexError):
            pass  # a view that does not add up: judge the listed moves instead
    if game == "casket":
        planned = _planned(view, moves, seen_keys)
        if planned is not None:
            return Advice(planned, reason="plan")
    move = _by_rule_of_thumb(view, moves)
    return Advice(move, reason="rule of thumb")


def clear_plans() -> None:
    """Forget every remembered line (tests use it to compare fresh hints)."""
    with _plans_lock:
        _plans.clear()
        _ends.clear()


# --- positions as the player sees them ---------------------------------------------


def _digest(parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def position_key(view: dict[str, Any]) -> str:
    """A short string naming the position a view shows, for ``seen``.

    Interchangeable piles (the engine's ``pile_groups``: tableau piles, foundations)
    are taken in sorted order, so a layout that comes back with a run on another
    tableau pile is the same position: a cycle that shifts a run from pile to pile each
    time round still repeats. Pass counts are part of it only where passes are
    limited, so going round an unlimited stock with nothing else changing comes back
    to the same key.
    """
    rules = rules_for(view["game"], **dict(view.get("options") or {}))
    piles: dict[str, Any] = {}
    for pile_id, cards in view["piles"].items():
        piles[pile_id] = list(cards) if isinstance(cards, list) else [cards, view.get("stock_top")]
    passes: list[Any] = []
    if view.get("passes_left") is not None:
        passes.append(["passes", view.get("passes")])
    for number, info in sorted((view.get("seats") or {}).items()):
        if isinstance(info, dict) and info.get("passes_left") is not None:
            passes.append([f"p{number}.passes", info.get("passes")])
    return _digest([rules.name, _grouped(rules, piles), passes])


def position_key_of(state: State, player: int | None = None) -> str:
    """``position_key(state.view(player))``, without building the whole view."""
    rules = state.rules
    piles: dict[str, Any] = {}
    for i, pile_id in enumerate(rules.pile_ids):
        pile = state.piles[i]
        if rules.roles[i] == STOCK:
            top = face_text(pile[-1]) if pile and not pile[-1] & FACE_DOWN else None
            piles[pile_id] = [len(pile), top]
        else:
            piles[pile_id] = [None if c & FACE_DOWN else card_text(c) for c in pile]
    passes: list[Any] = []
    if getattr(rules, "max_passes", None) is not None:
        for name, value in zip(rules.counter_names, state.counters, strict=True):
            if name.endswith("passes"):
                passes.append([name, value])
    return _digest([rules.name, _grouped(rules, piles), passes])


def _grouped(rules: Rules, piles: dict[str, Any]) -> list[list[str]]:
    """The piles by the engine's groups of interchangeable piles, each group sorted."""
    ids = rules.pile_ids
    return [
        sorted(json.dumps(piles[ids[i]], separators=(",", ":")) for i in group) for group in rules.pile_groups
    ]


def _plan_key(state_piles: dict[str, Any], passes: int, known: list[tuple[str, int, str]]) -> str:
    return _digest([state_piles, passes, sorted(known)])


def _view_plan_key(view: dict[str, Any], known: dict[str, dict[int, str]]) -> str:
    entries = [(pile, index, card) for pile, places in known.items() for index, card in places.items()]
    return _plan_key(view["piles"], int(view.get("passes") or 0), entries)


def _state_plan_key(state: State, known: dict[str, dict[int, str]]) -> str:
    rules = state.rules
    piles: dict[str, Any] = {}
    for i, pile_id in enumerate(rules.pile_ids):
        pile = state.piles[i]
        if rules.roles[i] == STOCK:
            piles[pile_id] = len(pile)
        else:
            piles[pile_id] = [None if c & FACE_DOWN else card_text(c) for c in pile]
    passes = state.counters[rules.counter_names.index("passes")] if "passes" in rules.counter_names else 0
    entries = [(pile, index, card) for pile, places in known.items() for index, card in places.items()]
    return _plan_key(piles, passes, entries)


# --- what the player knows ---------------------------------------------------------


def _knowledge(view: dict[str, Any], memory: Memory | None) -> dict[str, dict[int, str]]:
    """The hidden places whose card the player knows: every place of a stock dealt face
    up (the view's ``stock_cards``, Thoughtful Klondike), and the memory's known places
    that are still hidden places in this view."""
    piles: dict[str, Any] = view["piles"]
    known: dict[str, dict[int, str]] = {}
    shown = view.get("stock_cards")
    if isinstance(shown, list) and isinstance(piles.get("stock"), int) and len(shown) == piles["stock"]:
        # A stock dealt face up (Thoughtful Klondike): every card is in plain sight.
        known["stock"] = {index: _face(str(card)) for index, card in enumerate(shown)}
    if memory is None or memory.game != view.get("game"):
        return known
    for pile_id, places in memory.known_places().items():
        cards = piles.get(pile_id)
        for index, card in places.items():
            if isinstance(cards, list):
                hidden = index < len(cards) and cards[index] is None
            else:
                hidden = isinstance(cards, int) and index < cards
            if hidden:
                known.setdefault(pile_id, {})[index] = card
    return known


def _unknown_places(view: dict[str, Any], known: dict[str, dict[int, str]]) -> int:
    hidden = 0
    for cards in view["piles"].values():
        hidden += sum(1 for c in cards if c is None) if isinstance(cards, list) else int(cards)
    if view.get("stock_top") is not None:
        hidden -= 1
    return hidden - sum(len(places) for places in known.values())


def _unseen(view: dict[str, Any], known: dict[str, dict[int, str]]) -> list[str]:
    """The cards the player has never seen (nor remembers), in pack order.

    :raises ValueError: when the view shows a card more often than the packs hold it.
    """
    unseen: list[str] = [rank + suit for suit in _SUITS for rank in _RANKS] * _DECKS[view["game"]]
    for cards in view["piles"].values():
        if isinstance(cards, list):
            for card in cards:
                if card is not None:
                    unseen.remove(_face(card))
    top = view.get("stock_top")
    if top is not None:
        unseen.remove(_face(top))
    for places in known.values():
        for card in places.values():
            unseen.remove(card)
    return unseen


def _unknown_key(view: dict[str, Any], known: dict[str, dict[int, str]]) -> str:
    """A name for what the player does not know: which cards are unseen, and which
    hidden places they may lie in. It changes only when a card is seen (a card turned
    up, a new stock card drawn), not when known cards move about."""
    places: list[Any] = []
    for pile_id, cards in view["piles"].items():
        mine = known.get(pile_id, {})
        if isinstance(cards, list):
            indexes = [i for i, card in enumerate(cards) if card is None and i not in mine]
        else:
            indexes = [i for i in range(int(cards)) if i not in mine]
        if indexes:
            places.append([pile_id, indexes])
    return _digest([view["game"], places, _unseen(view, known)])


def _sample(view: dict[str, Any], known: dict[str, dict[int, str]], rng: random.Random) -> dict[str, Any]:
    """A full position consistent with the view and the memory: the unseen cards,
    shuffled, in the hidden places nobody remembers.

    :raises ValueError: when the view and memory do not add up to full packs.
    """
    game = view["game"]
    piles: dict[str, Any] = view["piles"]
    top = view.get("stock_top")
    unseen = _unseen(view, known)
    rng.shuffle(unseen)
    position: dict[str, Any] = {}
    for pile_id, cards in piles.items():
        places = known.get(pile_id, {})
        if isinstance(cards, list):
            position[pile_id] = [
                (_hidden(places[i]) if i in places else _hidden(unseen.pop())) if card is None else card
                for i, card in enumerate(cards)
            ]
        else:  # a stock, shown as a count
            count = int(cards)
            if game == "casket":
                below = [places[i] if i in places else unseen.pop() for i in range(max(count - 1, 0))]
                position[pile_id] = below + ([_face(top)] if count and top is not None else [])
            elif isinstance(view.get("stock_cards"), list):
                # A stock dealt face up stays face up (every card of it is known).
                position[pile_id] = [places[i] if i in places else unseen.pop() for i in range(count)]
            else:
                position[pile_id] = [
                    _hidden(places[i] if i in places else unseen.pop()) for i in range(count)
                ]
    if unseen:
        raise ValueError("the view does not hold full packs")
    if "passes" in view:
        position["passes"] = view["passes"]
    return position


def _face(card: str) -> str:
    return card.split(":")[0]


def _hidden(card: str) -> str:
    return card[:-1] + card[-1].lower()


# --- sampling (Klondike, Josephine) -------------------------------------------------


def _sampled(
    view: dict[str, Any],
    memory: Memory | None,
    seen: frozenset[str],
    moves: list[dict[str, Any]],
    budget: float,
    stop: float,
) -> Advice:
    """The sampling hint; ``stop`` is the ``time.process_time()`` it must end by."""
    # Imported here: the solver imports the engine, which the package imports first.
    from .registry import load
    from .solver import SOLVED, UNSOLVABLE, search_from
    from .solver_klondike import (
        DRAW,
        FOUNDATION_TO_TABLEAU,
        TALON_TO_FOUNDATION,
        TALON_TO_TABLEAU,
        KlondikeModel,
    )

    game = view["game"]
    options: dict[str, Any] = view.get("options", {})
    known = _knowledge(view, memory)
    unknown = _unknown_places(view, known)
    plan_key = _view_plan_key(view, known)
    seed_key = _unknown_key(view, known) if KEEP_SAMPLES else plan_key
    rng = random.Random(zlib.crc32(seed_key.encode()))
    count = 1 if unknown == 0 else min(max(SAMPLES, int(budget * SAMPLES_PER_SECOND)), MAX_SAMPLES)
    truth_like = load(game, _sample(view, known, rng), **options)

    def repeats(move: dict[str, Any], state: State = truth_like) -> bool:
        return position_key_of(state.apply(move)) in seen

    # A line remembered from an earlier hint, still valid while nothing new is seen.
    with _plans_lock:
        remembered = _plans.get(plan_key)
        plan_end = _ends.get(plan_key)
    # A draw that comes back to a position already seen is fine inside a macro move
    # ("draw until 9H, then play it"): going round the stock passes such positions, and
    # the macro move ends in a position not seen yet. Without this the hint could choose
    # a different macro move after every draw and go round the stock for ever.
    # (Tableau moves of a macro move end their own stretch, so a repeated one is refused
    # here; only a way out of a dead loop passes seen positions on purpose.)
    if (
        remembered is not None
        and remembered in moves
        and (not repeats(remembered) or (plan_end is not None and plan_end not in seen))
        and not (REWEIGH_WASTE_PLAYS and _plays_from_waste(truth_like.rules, remembered))
    ):
        return Advice(remembered, reason="plan")

    model = KlondikeModel(truth_like, strict_safety=STRICT_SAFETY)
    # Samples are dealt only when a search first needs them (pruning may stop early);
    # dealt in order from one generator, they are the same deals either way.
    roots: list[Any] = [model.start(truth_like)]

    def root_at(i: int) -> Any:
        while len(roots) <= i:
            roots.append(model.start(load(game, _sample(view, known, rng), **options)))
        return roots[i]

    rules = truth_like.rules
    roles = rules.roles

    # 1. A card that may safely go up, goes up (from the waste only at draw one: at
    #    draw three taking the waste top changes which stock cards come up later).
    found = roots[0][0]
    for move in moves:
        source, target = rules.index[move["from"]], rules.index[move["to"]]
        if roles[target] != FOUNDATION or roles[source] not in (TABLEAU, WASTE):
            continue
        if roles[source] == WASTE and model.draw != 1:
            continue
        card = truth_like.piles[source][-1] & 63
        if model.is_safe(found, card) and not repeats(move):
            return Advice(move, reason="safe")

    stock_index = rules.index["stock"]
    waste_index = rules.index["waste"]
    stock_size = len(truth_like.piles[stock_index])
    waste_size = len(truth_like.piles[waste_index])
    known_stock = known.get("stock", {})
    # Talon order: the waste (bottom first), then the stock in the order it is drawn.
    talon_known = [True] * waste_size + [(stock_size - 1 - j) in known_stock for j in range(stock_size)]
    stock_move = next(
        (m for m in moves if roles[rules.index[m["from"]]] == STOCK or roles[rules.index[m["to"]]] == STOCK),
        None,
    )

    # 2. A look through the stock, while it costs nothing: with unlimited passes, and
    #    the waste a whole number of draws deep, drawing to the end, turning the waste
    #    over and drawing back rebuilds this very waste, and the player then knows every
    #    stock card. Sampling cannot value that (every sample already "knows" the
    #    stock), so it is decided here, before any choice rests on guessed stock cards.
    if (
        LOOK_THROUGH_STOCK
        and stock_move is not None
        and not all(talon_known)
        and "passes_left" in view
        and view["passes_left"] is None
        and waste_size % model.draw == 0
        and not repeats(stock_move)
    ):
        return Advice(stock_move, reason=LOOK, samples=count)

    # 3. Candidates: the model's macro moves whose cards the player knows.

    def knowable(step: tuple[tuple[int, int, int, int], ...]) -> bool:
        mask = list(talon_known)
        for action in step:
            if action[0] in (TALON_TO_FOUNDATION, TALON_TO_TABLEAU):
                at = action[1]
                if not mask[at - 1]:
                    return False
                del mask[at - 1]
        return True

    candidates: list[tuple[tuple[int, int, int, int], ...]] = []
    for k in range(count):
        for step in model.moves(root_at(k)):
            if step not in candidates and knowable(step):
                candidates.append(step)
        if candidates:
            break
    # The ending searches may use part of what is left before ``stop``; scoring keeps the rest.
    ending_stop = time.process_time() + ENDING_SHARE * max(0.0, stop - time.process_time())
    talon_all_known = all(talon_known)
    if talon_all_known and _lost(truth_like, ending_stop):
        return Advice(None, lost=True, reason=LOST, samples=count)
    cut = talon_all_known and time.process_time() > ending_stop
    draw_step: tuple[tuple[int, int, int, int], ...] = ((DRAW, -1, 0, 0),)
    if stock_move is not None and (not all(talon_known) or not candidates or DRAW_ALWAYS_WEIGHED):
        candidates.append(draw_step)

    def after(root: Any, step: tuple[tuple[int, int, int, int], ...]) -> Any:
        if step == draw_step:
            found_, piles_, talon_, w_, passes_ = root
            if w_ < len(talon_) and stock_size:
                return (found_, piles_, talon_, min(w_ + model.draw, len(talon_)), passes_)
            return (found_, piles_, talon_, 0, passes_ + 1)
        return model.play(root, step)

    def first_moves(step: tuple[tuple[int, int, int, int], ...]) -> list[dict[str, Any]]:
        """The engine moves of a step on the first sample (the same on every sample)."""
        if step == draw_step:
            return [stock_move] if stock_move is not None else []
        current = truth_like
        result: list[dict[str, Any]] = []
        for action in step:
            for move in model.expand(action, current):
                current = current.apply(move)
                result.append(move.to_dict())
        return result

    expanded = {step: first_moves(step) for step in candidates}
    fresh: list[tuple[tuple[int, int, int, int], ...]] = []
    for step in candidates:
        engine_moves = expanded[step]
        if not engine_moves or engine_moves[0] not in moves:
            continue
        current = truth_like
        for move in engine_moves:
            current = current.apply(move)
        if position_key_of(current) not in seen:
            fresh.append(step)

    if not fresh and all(talon_known):
        # Every macro move leads back: find the shortest way to progress, even through
        # positions already seen, and follow it to its end.
        from .endings import path_to_progress

        # The way out must end somewhere new: sending back up a card that an earlier
        # move took down is progress from here, but it only closes a loop.
        way = path_to_progress(
            truth_like,
            0,
            max_positions=LOST_CHECK_POSITIONS,
            deadline=stop,
            accept=lambda state: position_key_of(state) not in seen,
        )
        cut = cut or time.process_time() > stop
        if way:
            escape = [step_move.to_dict() for step_move in way]
            _remember(truth_like, escape, known, memory, through=True)
            return Advice(escape[0], reason="way out", samples=count, cut_short=cut)
    if not fresh:
        choices = [m for m in moves if not repeats(m)] or moves
        move = _by_rule_of_thumb(view, choices) or choices[0]
        return Advice(move, reason="only repeats", samples=count, cut_short=cut)

    deadline = min(time.process_time() + 2 * budget + 0.05, stop)

    def search_sizes(candidate_count: int) -> tuple[int, int]:
        """Positions for each search, and the depth-first pass's share of them, when
        ``candidate_count`` candidates share the budget over every sample."""
        total_nodes = max(int(budget * NODES_PER_SECOND), MIN_NODES * candidate_count * count)
        per_search = max(MIN_NODES, total_nodes // (candidate_count * count))
        first = int(per_search * DEPTH_FIRST_SHARE)
        rest = per_search - first
        if model.native_pass_schedule:
            # Both searches run about ten times as fast in C: each may take more
            # positions for the same CPU (the factors say how many more).
            first *= NATIVE_DEPTH_FIRST_FACTOR
            rest = max(int(rest * NATIVE_BEST_FIRST_FACTOR), 1)
        return first + rest, first

    def wins_on_a_sample(step: tuple[tuple[int, int, int, int], ...], samples: int) -> bool:
        """Whether a search after ``step`` wins on any of the first ``samples`` samples."""
        nodes, first = search_sizes(2)
        for i in range(min(samples, count)):
            status, _best, _path = search_from(
                model, after(root_at(i), step), nodes, deadline, depth_first_nodes=first, hand_over=HAND_OVER
            )
            if status == SOLVED:
                return True
        return False

    if len(fresh) == 1 and stock_move is not None:
        lone = fresh[0]
        if (
            LONE_MOVE_CHECK
            and lone != draw_step
            and draw_step not in candidates
            and not repeats(stock_move)
            and not wins_on_a_sample(lone, LONE_MOVE_CHECK)
        ):
            # The lone fresh move loses on every sample looked at: weigh a draw against it
            # (after a draw, moves that led back to seen positions lead somewhere new).
            fresh.append(draw_step)
            expanded[draw_step] = [stock_move]
        else:
            # Nothing to choose between (a stock move is always there to fall back on).
            _remember(truth_like, expanded[lone], known, memory)
            return Advice(expanded[lone][0], reason="only move", samples=count, candidates=1, cut_short=cut)

    # 4. Score every fresh candidate on every sample with a short search, sample by
    #    sample, so that when the time runs out every candidate has been judged on the
    #    same samples: a sample cut short is dropped (the first is kept, as far as it got).
    values: dict[tuple[tuple[int, int, int, int], ...], float] = dict.fromkeys(fresh, 0.0)
    lines: dict[tuple[tuple[int, int, int, int], ...], tuple[str, list[tuple[int, int, int, int]]]] = {}
    search_nodes, first_nodes = search_sizes(len(fresh))
    active = list(fresh)
    scored = 0
    # Whether the limit stopped the scoring before every sample was scored (a hint
    # judged on fewer samples than its budget bought is cut short, like a search).
    timed_out = False
    history: dict[tuple[tuple[int, int, int, int], ...], list[float]] = {step: [] for step in fresh}
    for i in range(count):
        root = root_at(i)
        start_score = max(model.score(root), 1)
        scores: dict[tuple[tuple[int, int, int, int], ...], float] = {}
        for step in active:
            status, best, path = search_from(
                model,
                after(root, step),
                search_nodes,
                deadline,
                depth_first_nodes=first_nodes,
                hand_over=HAND_OVER,
            )
            scores[step] = 1.0 if status == SOLVED else 0.0
            if status not in (SOLVED, UNSOLVABLE):
                scores[step] = UNFINISHED_WEIGHT * min(1.0, max(0.0, 1.0 - best / start_score))
            if i == 0:
                lines[step] = (status, path)
        if i and time.process_time() > deadline:
            timed_out = True
            break
        scored = i + 1
        for step in active:
            values[step] += scores[step]
            history[step].append(scores[step])
        if time.process_time() > deadline:
            timed_out = scored < count
            break
        if PRUNE and i + 1 >= PRUNE_AFTER and (i + 1 - PRUNE_AFTER) % PRUNE_EVERY == 0:
            active = _survivors(active, history)
            if len(active) == 1:
                break
    # First of the best, in model order; every candidate still active was scored on the
    # same samples, and a dropped one was behind the leader.
    best_step = max(active, key=lambda step: values[step])
    if values[best_step] - values[active[0]] <= MODEL_ORDER_MARGIN * scored:
        # Not clearly better than the model's own first choice: keep that.
        best_step = active[0]

    # 5. Remember the chosen step's moves, and the winning line after it on the first
    #    sample, until a card nobody has seen comes up.
    engine_moves = expanded[best_step]
    status, path = lines[best_step]
    plan_moves = list(engine_moves)
    if status == SOLVED and best_step != draw_step:
        followed = list(path) if FOLLOW_LINE or count == 1 else _dig(best_step, path, FOUNDATION_TO_TABLEAU)
        current = truth_like
        for engine_move in engine_moves:
            current = current.apply(engine_move)
        try:
            for action in followed:
                for planned in model.expand(action, current):
                    current = current.apply(planned)
                    plan_moves.append(planned.to_dict())
        except (ValueError, AssertionError):
            pass
    _remember(truth_like, plan_moves, known, memory)
    reason = "exact" if count == 1 else "sampled"
    return Advice(
        engine_moves[0],
        reason=reason,
        samples=count,
        candidates=len(fresh),
        cut_short=cut or timed_out,
        scored=scored,
        finalists=len(active),
    )


def _survivors(active: list[Any], history: dict[Any, list[float]]) -> list[Any]:
    """The candidates in ``active`` (model order) not confidently behind the leader,
    judged on the samples all of them were scored on (``history``), the leader first
    among equals in model order."""
    n = len(history[active[0]])
    leader = max(active, key=lambda step: sum(history[step]))
    kept = []
    for step in active:
        if step == leader:
            kept.append(step)
            continue
        gains = [a - b for a, b in zip(history[step], history[leader], strict=True)]
        mean = sum(gains) / n
        spread = (sum((g - mean) ** 2 for g in gains) / (n - 1)) ** 0.5 if n > 1 else 0.0
        if mean + PRUNE_Z * spread / n**0.5 >= PRUNE_MARGIN:
            kept.append(step)
    return kept


def _dig(
    step: tuple[tuple[int, int, int, int], ...],
    path: list[tuple[int, int, int, int]],
    dig_kind: int,
) -> list[tuple[int, int, int, int]]:
    """The part of ``path`` (the line after ``step``) that finishes a dig: up to its
    last card taken down from a foundation, while each comes within ``DIG_GAP`` moves of
    the one before, counted from the start of ``step``. Empty when no dig starts there."""
    line = list(step) + list(path)
    end = 0
    gap = 0
    for i, action in enumerate(line):
        if action[0] == dig_kind:
            end, gap = i + 1, 0
        else:
            gap += 1
            if gap > DIG_GAP:
                break
    return line[len(step) : max(end, len(step))]


def _remember(
    state: State,
    plan_moves: list[dict[str, Any]],
    known: dict[str, dict[int, str]],
    memory: Memory | None,
    through: bool = False,
) -> None:
    """Store the plan's moves by the position before each, up to and including the
    first move that shows a card the player has not seen. ``through``: the plan may
    pass positions already seen on its way to its end (a way out of a dead loop)."""
    if len(plan_moves) < 2:
        return
    from .memory import visible_piles

    rules = state.rules
    entries = tuple((pile, index, card) for pile, places in known.items() for index, card in places.items())
    simulated = Memory(
        game=rules.name,
        player=memory.player if memory is not None else None,
        pile_ids=rules.pile_ids,
        last=visible_piles(state),
        known=entries,
    )
    learned: list[tuple[str, dict[str, Any], int]] = []
    current_known = known
    unknown = _hidden_places(simulated) - len(simulated.known)
    # Walk the plan: the key before move k is taken on the position reached so far.
    current = state
    after: list[State] = []
    for k, move in enumerate(plan_moves):
        if k:
            learned.append((_state_plan_key(current, current_known), move, k))
        try:
            current = current.apply(move)
        except ValueError:
            break
        after.append(current)
        simulated = simulated.after(current)
        now_unknown = _hidden_places(simulated) - len(simulated.known)
        if now_unknown < unknown:
            break
        unknown = now_unknown
        current_known = simulated.known_places()
    # Where each move's stretch of draws ends: the position after the next move that is
    # not a draw or a turn-over (see ``_sampled`` on going round the stock).
    ends: list[str] = []
    end = position_key_of(after[-1]) if after else ""
    for k in range(len(after) - 1, -1, -1):
        if not through and not _is_talon_move(state, plan_moves[k]):
            end = position_key_of(after[k])
        ends.append(end)
    ends.reverse()
    with _plans_lock:
        for key, move, k in learned:
            _plans[key] = move
            _plans.move_to_end(key)
            if k < len(ends):
                _ends[key] = ends[k]
        while len(_plans) > PLAN_MEMORY:
            dropped, _ = _plans.popitem(last=False)
            _ends.pop(dropped, None)


def _plays_from_waste(rules: Rules, move: dict[str, Any]) -> bool:
    """A move that takes the waste's top card to a foundation or the tableau."""
    return rules.roles[rules.index[move["from"]]] == WASTE


def _is_talon_move(state: State, move: dict[str, Any]) -> bool:
    """A draw or a turn-over of the waste: a move that only goes round the stock."""
    rules = state.rules
    return STOCK in (rules.roles[rules.index[move["from"]]], rules.roles[rules.index[move["to"]]])


def _hidden_places(memory: Memory) -> int:
    return sum(1 for pile in memory.last for card in pile if card is None)


def _lost(sample: State, deadline: float) -> bool:
    """True when no move can make lasting progress. Decided on a sample, which is
    exact here when the player knows the stock: the search stops at the first
    face-down card it could turn, so it never depends on a card nobody has seen. A
    search cut short (positions, or the ``time.process_time()`` deadline) says False."""
    from .endings import is_over_exact

    return is_over_exact(sample, max_positions=LOST_CHECK_POSITIONS, deadline=deadline) is True


# --- Casket: one guessed deal --------------------------------------------------------


def _planned(
    view: dict[str, Any], moves: list[dict[str, Any]], seen: frozenset[str]
) -> dict[str, Any] | None:
    """Casket: the first move of the solver's line on one guessed deal, remembered by
    position while later views match the guess."""
    from .registry import load

    key = "casket:" + _view_plan_key(view, {})
    with _plans_lock:
        remembered = _plans.get(key)
    rng = random.Random(zlib.crc32(key.encode()))
    try:
        state = load(view["game"], _sample(view, {}, rng), **view.get("options", {}))
    except (ValueError, KeyError, TypeError):
        return None
    if remembered is None:
        _plan(state)
        with _plans_lock:
            remembered = _plans.get(key)
    if remembered is None or remembered not in moves:
        return None
    if seen and position_key_of(state.apply(remembered)) in seen:
        return None
    return remembered


def _plan(state: State) -> None:
    """Ask the solver for a line on a guessed deal; remember its moves by position."""
    from .solver import best_line

    try:
        _status, line = best_line(state, PLAN_NODES, PLAN_SECONDS)
    except (ValueError, KeyError, TypeError):
        return
    current = state
    learned: list[tuple[str, dict[str, Any]]] = []
    for move in line:
        learned.append(("casket:" + _state_plan_key(current, {}), move.to_dict()))
        current = current.apply(move)
    with _plans_lock:
        for seen_key, move_dict in learned:
            _plans[seen_key] = move_dict
            _plans.move_to_end(seen_key)
        while len(_plans) > PLAN_MEMORY:
            _plans.popitem(last=False)


# --- the rule of thumb ---------------------------------------------------------------


def _by_rule_of_thumb(view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    best: dict[str, Any] | None = None
    best_score = NO_HINT_BELOW
    piles: dict[str, Any] = view.get("piles", {})
    for move in moves:
        score = _judge(move, piles)
        if score > best_score:
            best, best_score = move, score
    return best


def _kind(pile_id: str) -> str:
    name = pile_id.split(".")[-1]
    for prefix in ("stock", "waste", "lid", "jewels"):
        if name.startswith(prefix):
            return prefix
    return name[:1]  # "f", "t" or "w"


def _judge(move: dict[str, Any], piles: dict[str, Any]) -> int:
    source, target, count = move["from"], move["to"], move.get("count", 1)
    source_kind, target_kind = _kind(source), _kind(target)
    source_pile = piles.get(source)
    cards = source_pile if isinstance(source_pile, list) else []
    moving = cards[-count] if len(cards) >= count else None
    left_behind = cards[: len(cards) - count] if cards else []
    exposes_hidden = bool(left_behind) and left_behind[-1] is None
    if source_kind == "stock":
        return 10
    if source_kind == "waste" and target_kind == "stock":
        return 5
    if source_kind == "f":
        return -10
    if target_kind == "f":
        low = moving is not None and rank_of(_parse(moving)) <= 2
        return 100 + (20 if low else 0) + (30 if exposes_hidden else 0)
    if source_kind in ("waste", "w", "lid") and target_kind == "t":
        return 40
    if source_kind == "t" and target_kind == "t":
        if exposes_hidden:
            return 80 + len(left_behind)
        if moving is None:
            return -1
        target_pile = piles.get(target) or []
        if not left_behind:
            # Emptying a pile helps only if the card does not already head it alone.
            return 20 if rank_of(_parse(moving)) != KING else -1
        if not target_pile:
            return -1
        # A move that uncovers a card which can then go up is worth a look.
        uncovered = left_behind[-1]
        return 15 if uncovered is not None and rank_of(_parse(uncovered)) <= 3 else -1
    if target_kind == "lid":
        return 1
    return 0
