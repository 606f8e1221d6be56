"""Helpers for the web tests: deal games through the service and compare with the engine.

The module name is unique across tests/ because test directories are not packages.
"""

from __future__ import annotations

from typing import Any

import solitaire
from games import services
from games.actors import Actor


def klondike(actor: Actor, deal: int = 7, **options: Any) -> services.Snapshot:
    """A Klondike game, draw one unless told otherwise, dealt through the service."""
    return services.create_game(actor, "klondike", {"draw": 1, **options}, deal)


def engine_state(snapshot: services.Snapshot) -> Any:
    """The same deal dealt straight by the engine, for comparison."""
    deal = snapshot.game.deal
    return solitaire.new_game(deal.game, seed=deal.seed, **deal.options)


def an_illegal_move(state: Any) -> dict[str, Any]:
    """A move between real piles that the engine refuses here."""
    legal = {(m.source, m.target, m.count) for m in state.legal_moves()}
    piles = [p for p in state.view()["piles"] if p != "stock"]
    for source in piles:
        for target in piles:
            if source != target and (source, target, 1) not in legal and state.view()["piles"][source]:
                try:
                    state.apply({"from": source, "to": target})
                except solitaire.IllegalMove:
                    return {"from": source, "to": target, "count": 1}
    raise AssertionError("every move is legal here")
