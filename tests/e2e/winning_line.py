"""A small search for a winning line of a dealt game, for the browser test of a win.

Given the engine state the server dealt, it finds moves that win by depth-first search
with the obvious orderings (foundation moves first, draws last) and without moves
that only undo progress. It is meant for easy deals (Klondike, draw one, all cards face
up) and gives up past a node budget. It knows the engine's public API only.
"""

from __future__ import annotations

from typing import Any

import solitaire

RED = {"D", "H"}


def _face(text: str | None) -> tuple[int, str] | None:
    if text is None:
        return None
    rank_text, suit = text[:-1], text[-1]
    ranks = {"A": 1, "J": 11, "Q": 12, "K": 13}
    return ranks.get(rank_text) or int(rank_text), suit


def _sits_on_parent(cards: list[str | None], index: int) -> bool:
    """Whether cards[index] already lies on the card it builds down from."""
    if index == 0:
        return False
    below, card = _face(cards[index - 1]), _face(cards[index])
    if below is None or card is None:
        return False
    return below[0] == card[0] + 1 and ((below[1] in RED) != (card[1] in RED))


def _ordered_moves(state: Any) -> list[dict[str, Any]]:
    position = state.to_position()
    foundation, tableau, waste, stock = [], [], [], []
    for move in (m.to_dict() for m in state.legal_moves()):
        source, target = move["from"], move["to"]
        if source.startswith("f"):
            continue  # taking a card back down never helps this search
        if target.startswith("f"):
            foundation.append(move)
        elif source.startswith("t") and target.startswith("t"):
            cards = position[source]
            index = len(cards) - move["count"]
            # Moving a run that already sits on its parent, or a king off an empty
            # bottom, goes round in circles.
            if not _sits_on_parent(cards, index) and not (index == 0 and not position[target]):
                tableau.append(move)
        elif source == "waste":
            waste.append(move)
        else:
            stock.append(move)
    return foundation + tableau + waste + stock


def find_winning_line(state: Any, budget: int = 60_000) -> list[dict[str, Any]] | None:
    """Moves from ``state`` to a won game, or None if none was found within ``budget``."""
    seen = {state.piles}
    path: list[dict[str, Any]] = []
    stack = [(state, iter(_ordered_moves(state)))]
    nodes = 0
    while stack:
        current, moves = stack[-1]
        if current.is_won:
            return path
        following = None
        for move in moves:
            candidate = current.apply(move)
            if candidate.piles not in seen:
                seen.add(candidate.piles)
                following = (candidate, move)
                break
        if following is None:
            stack.pop()
            if path:
                path.pop()
            continue
        nodes += 1
        if nodes > budget:
            return None
        path.append(following[1])
        stack.append((following[0], iter(_ordered_moves(following[0]))))
    return None


if __name__ == "__main__":
    import time

    for seed in range(10):
        started = time.perf_counter()
        dealt = solitaire.new_game("klondike", seed=seed, draw=1, face_up=True)
        line = find_winning_line(dealt)
        took = time.perf_counter() - started
        print(seed, None if line is None else len(line), f"{took:.2f}s")
