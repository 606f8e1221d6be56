"""Single-player helpers: deal through the real services, and apply a change given as
a client would send it (parsed at the edge, as the API and the socket do)."""

from __future__ import annotations

import random
from typing import Any

import solitaire
from games.core.actors import Actor
from games.solo import play
from games.solo.actions import parse_change
from games.solo.payloads import Snapshot


def klondike(actor: Actor, deal: int = 7, **options: Any) -> Snapshot:
    """A Klondike game, draw one unless told otherwise, dealt through the service."""
    return play.create_game(actor, "klondike", {"draw": 1, **options}, deal)


def apply_action(
    game_id: int,
    actor: Actor,
    action: dict[str, Any],
    client_id: object = None,
    expected_version: object = None,
) -> Snapshot:
    """``{"type": "move", "move": {...}}`` (or undo, redo, autofinish) as a client sends it."""
    change = parse_change(action.get("type"), action.get("move"), client_id, expected_version)
    return play.apply_change(actor, game_id, change)


def engine_state(snapshot: Snapshot) -> solitaire.State:
    """The same deal dealt straight by the engine, for comparison."""
    deal = snapshot.game.deal
    return solitaire.new_game(deal.game, seed=deal.seed, **deal.options)


def an_illegal_move(state: solitaire.State) -> dict[str, Any]:
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


# Deal 32 of Klondike draw one, under the tests' deal secret (tests.support.fixtures),
# has a line into an undecided loss on the first try of ``line_into_an_undecided_loss``.
UNDECIDED_LOSS_DEAL = 32


def line_into_an_undecided_loss(start: solitaire.State, attempts: int = 10) -> list[solitaire.Move]:
    """Moves from ``start`` to a position that is over, but that ``quick_over`` cannot
    decide (only the exact ``is_over`` search tells), and no position before it over.

    Random play leaning off the stock, as ``solitaire.tools.endings`` builds its corpus,
    seeded by the attempt: the same start gives the same line every time."""
    for attempt in range(attempts):
        chooser = random.Random(attempt)
        state, moves = start, []
        for _ in range(400):
            legal = state.legal_moves()
            if not legal:
                break
            off_stock = [m for m in legal if m.source != "stock" and m.target != "stock"]
            move = chooser.choice(off_stock if off_stock and chooser.random() < 0.7 else legal)
            after = state.apply(move)
            quick = after.quick_over()
            if quick is True:
                break
            moves.append(move)
            if quick is None and after.is_over:
                return moves
            state = after
    raise AssertionError("no line into an undecided loss from this start")


def a_move_that_stays_undecided(state: solitaire.State) -> solitaire.Move:
    """A legal move after which ``quick_over`` still cannot decide the ending."""
    for move in state.legal_moves():
        if state.apply(move).quick_over() is None:
            return move
    raise AssertionError("every move here leads to a position quick_over decides")
