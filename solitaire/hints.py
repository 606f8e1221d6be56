"""A hint from what the player can see: the most useful legal move, or none.

``hint`` reads only a view (``State.view(player)``): the visible cards and the legal
moves listed there. It never sees face-down cards or the stock's order, so it cannot
cheat, and the same function serves the browser's hint button and the hint bot.
"""

from __future__ import annotations

from typing import Any

from .cards import KING, rank_of
from .cards import parse_card as _parse

NO_HINT_BELOW = 0


def hint(view: dict[str, Any]) -> dict[str, Any] | None:
    """The best move in ``view["moves"]`` by a simple, honest judgement, or None."""
    best: dict[str, Any] | None = None
    best_score = NO_HINT_BELOW
    piles: dict[str, Any] = view.get("piles", {})
    for move in view.get("moves", []):
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
