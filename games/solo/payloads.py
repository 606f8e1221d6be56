"""The game as the API, the pages and the sockets describe it.

Card data is only ever the engine's ``view()``: face-down and stock cards never leave
the server. Knows the engine's state and the models; decides nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import solitaire
from games.core.options import described, options_text
from games.models import Game
from games.solo.history import Line


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A committed game row and its line at ``game.version``.

    ``applied`` is False when the change was a repeat of one already applied.
    """

    game: Game
    line: Line
    applied: bool = True

    @property
    def state(self) -> solitaire.State:
        return self.line.state


def game_summary(game: Game) -> dict[str, Any]:
    """The game as the API lists it: everything but the engine's view."""
    return {
        "id": game.pk,
        "url": f"/play/{game.pk}/",
        "game": game.deal.game,
        "options": game.deal.options,
        "options_text": options_text(game.deal.game, game.deal.options),
        "deal": game.deal.number,
        "version": game.version,
        "status": game.status,
        "score": game.score,
        "elapsed": int(game.elapsed.total_seconds()),
        "moves_made": game.moves_made,
        # The clock is stopped (socket "pause"): a page loaded now shows the game paused.
        "paused": game.paused_at is not None,
        # The solver found a win from this deal (when it was dealt as winnable, or once a
        # finished game of the deal asked). Never False before the game ends: a proof
        # that a deal cannot be won is only told by "was this winnable?".
        "winnable": game.deal.winnable is True,
        "created": game.created.isoformat(),
        "updated": game.updated.isoformat(),
    }


def settled(game: Game) -> bool:
    """A won or abandoned game is settled: nothing may change it any more."""
    return game.status in (Game.Status.WON, Game.Status.ABANDONED)


def game_payload(snapshot: Snapshot, *, exact: bool = True) -> dict[str, Any]:
    """The game with the engine's view (``state``) and what the table needs to offer:
    the game's description, the safe foundation moves, and whether undo and redo can go.

    ``exact=False`` renders the view's ``is_over`` from ``quick_over`` (no deep search):
    for the fast path, whose game status already says what is known of the ending."""
    game, line = snapshot.game, snapshot.line
    state = line.state
    playing = game.status == Game.Status.PLAYING
    return {
        **game_summary(game),
        "state": state.view(exact=exact),
        "describe": described(state.rules),
        "safe_moves": [move.to_dict() for move in state.safe_foundation_moves()] if playing else [],
        "can_undo": line.can_undo and not settled(game),
        "can_redo": line.can_redo and not settled(game),
    }


def state_message(snapshot: Snapshot, *, exact: bool = True) -> dict[str, Any]:
    """The socket's ``state`` message (``exact``: see ``game_payload``)."""
    return {"type": "state", **game_payload(snapshot, exact=exact)}
