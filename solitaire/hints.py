"""A hint from what the player can see: the most useful legal move, or none.

``hint`` reads only a view (``State.view(player)``): the visible cards, the number of
cards in each stock, and the legal moves listed there. It never sees a face-down card
or the stock's order, so it cannot cheat, and the same function serves the browser's
hint button and the hint bot (``python -m solitaire.bot``).

How it judges, for Klondike, Josephine and Casket: it fills the hidden places with the
cards it cannot see, in an order drawn from a generator seeded by the view itself (so
the same view always gets the same hint), and asks the solver for a line from that
guessed deal within a small budget: a win if it finds one, else the way to the most
promising position it saw. The first move of that line is the hint ("hindsight
optimisation" with one sample). While later views match what the guess predicted, the
rest of the line is reused; when a turned card shows the guess was wrong, it guesses
again from what is now visible. When the solver has nothing to say, or for Double
Solitaire, a simple rule-of-thumb judgement of each legal move decides.

This module must not touch a ``State``'s hidden cards: everything it knows comes from
the view it is given.
"""

from __future__ import annotations

import json
import random
import threading
import zlib
from collections import OrderedDict
from typing import Any

from .base import STOCK
from .cards import FACE_DOWN, KING, card_text, rank_of
from .cards import parse_card as _parse

NO_HINT_BELOW = 0
# The solver's budget per guess: positions, and a wall-clock safety net in seconds.
PLAN_NODES = 1500
PLAN_SECONDS = 0.5
# How many view -> move entries of earlier lines are remembered.
PLAN_MEMORY = 3_000
SOLVED_GAMES = ("klondike", "josephine", "casket")

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = "CDHS"
_DECKS = {"klondike": 1, "josephine": 2, "casket": 2}
_plans: OrderedDict[str, dict[str, Any]] = OrderedDict()
# The web app may ask for hints from several threads at once.
_plans_lock = threading.Lock()


def hint(view: dict[str, Any]) -> dict[str, Any] | None:
    """The most useful move in ``view["moves"]``, or None when there is none."""
    moves: list[dict[str, Any]] = list(view.get("moves") or [])
    if not moves:
        return None
    planned = _planned(view, moves)
    if planned is not None:
        return planned
    return _by_rule_of_thumb(view, moves)


# --- planning on a guessed deal -----------------------------------------------------


def visible_key(game: str, options: dict[str, Any], piles: dict[str, Any], extra: dict[str, Any]) -> str:
    """What a player sees of a position, as one string (piles with hidden cards as
    null, stocks as counts, passes used, Casket's stock top)."""
    return json.dumps([game, options, piles, extra], sort_keys=True, separators=(",", ":"))


def _view_key(view: dict[str, Any]) -> str:
    extra: dict[str, Any] = {name: view[name] for name in ("passes", "stock_top") if name in view}
    return visible_key(view.get("game", ""), view.get("options", {}), view.get("piles", {}), extra)


def _planned(view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    game = view.get("game")
    if game not in SOLVED_GAMES:
        return None
    key = _view_key(view)
    with _plans_lock:
        remembered = _plans.get(key)
    if remembered is None:
        _plan(view, key)
        with _plans_lock:
            remembered = _plans.get(key)
    if remembered is not None and remembered in moves:
        return remembered
    return None


def _plan(view: dict[str, Any], key: str) -> None:
    """Guess the hidden cards, ask the solver for a line, remember its moves by view."""
    # Imported here: the solver imports the engine, which imports this module.
    from .registry import load
    from .solver import best_line

    rng = random.Random(zlib.crc32(key.encode()))
    try:
        position = _guess(view, rng)
        state = load(view["game"], position, **view.get("options", {}))
        _status, line = best_line(state, PLAN_NODES, PLAN_SECONDS)
    except (ValueError, KeyError, TypeError):
        return
    # Walk the line on the guessed deal, remembering each move under the view the
    # player would see before it. A later view matches one of these only while every
    # card that came into sight was guessed right.
    current = state
    learned: list[tuple[str, dict[str, Any]]] = []
    for move in line:
        learned.append((_visible(current), move.to_dict()))
        current = current.apply(move)
    with _plans_lock:
        for seen, move_dict in learned:
            _plans[seen] = move_dict
            _plans.move_to_end(seen)
        while len(_plans) > PLAN_MEMORY:
            _plans.popitem(last=False)


def _visible(state: Any) -> str:
    """The visible key of a guessed ``State``, built as ``view()`` would show it."""
    rules = state.rules
    piles: dict[str, Any] = {}
    for i, pile_id in enumerate(rules.pile_ids):
        pile = state.piles[i]
        if rules.roles[i] == STOCK:
            piles[pile_id] = len(pile)
        else:
            piles[pile_id] = [None if c & FACE_DOWN else card_text(c) for c in pile]
    extra: dict[str, Any] = {}
    if "passes" in rules.counter_names:
        extra["passes"] = state.counters[rules.counter_names.index("passes")]
    if rules.name == "casket":
        stock = state.piles[rules.index["stock"]]
        extra["stock_top"] = card_text(stock[-1]) if stock else None
    return visible_key(rules.name, dict(rules.options), piles, extra)


def _guess(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A full position consistent with the view: the unseen cards, shuffled, in the
    hidden places. :raises ValueError: when the view does not add up to full packs."""
    game = view["game"]
    piles: dict[str, Any] = view["piles"]
    unseen: list[str] = [rank + suit for suit in _SUITS for rank in _RANKS] * _DECKS[game]
    top = view.get("stock_top")
    for cards in piles.values():
        if isinstance(cards, list):
            for card in cards:
                if card is not None:
                    unseen.remove(_face(card))
    if top is not None:
        unseen.remove(_face(top))
    rng.shuffle(unseen)
    position: dict[str, Any] = {}
    for pile_id, cards in piles.items():
        if isinstance(cards, list):
            position[pile_id] = [_hidden(unseen.pop()) if card is None else card for card in cards]
        else:  # a stock, shown as a count
            count = int(cards)
            if game == "casket":
                # Casket's stock lies face up: its top is known, the rest is guessed.
                below = [unseen.pop() for _ in range(max(count - 1, 0))]
                position[pile_id] = below + ([_face(top)] if count and top is not None else [])
            else:
                position[pile_id] = [_hidden(unseen.pop()) for _ in range(count)]
    if unseen:
        raise ValueError("the view does not hold full packs")
    if "passes" in view:
        position["passes"] = view["passes"]
    return position


def _face(card: str) -> str:
    return card.split(":")[0]


def _hidden(card: str) -> str:
    return card[:-1] + card[-1].lower()


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
