"""A player's change to a game, parsed once at the edge into typed values.

The API views and the socket read what the client sent with ``parse_change`` and hand
the service a ``Change``; nothing after this module reads a move's JSON again.
Knows the engine's Move; nothing of the database.
"""

from __future__ import annotations

from dataclasses import dataclass

import solitaire
from games.core.client_ids import clean_client_id, clean_version
from games.core.errors import BadRequest, from_engine


@dataclass(frozen=True, slots=True)
class MoveAction:
    """Play ``move`` (which may name the cards it means to move, checked by the engine)."""

    move: solitaire.Move


@dataclass(frozen=True, slots=True)
class UndoAction:
    """Step back one move; it can be played again with redo."""


@dataclass(frozen=True, slots=True)
class RedoAction:
    """Play the last undone move again."""


@dataclass(frozen=True, slots=True)
class AutoFinishAction:
    """Play the moves that finish a decided game, one log entry each."""


Action = MoveAction | UndoAction | RedoAction | AutoFinishAction

KINDS = ("move", "undo", "redo", "autofinish")


@dataclass(frozen=True, slots=True)
class Change:
    """An action with the client's id for it (a repeat is applied once) and the version
    the client saw (when given, it must be the game's)."""

    action: Action
    client_id: str | None = None
    version: int | None = None


def parse_move(move: object) -> solitaire.Move:
    """``{"from", "to", "count"?, "cards"?}`` as the engine's Move.

    :raises BadRequest: ``bad_move`` for anything else.
    """
    if not isinstance(move, dict):
        raise BadRequest('a move must be an object such as {"from": "t3", "to": "f1"}', "bad_move")
    try:
        return solitaire.Move.from_dict(move)
    except ValueError as error:  # MalformedMove
        raise from_engine(error) from None


def parse_action(kind: object, move: object = None) -> Action:
    """The action of type ``kind`` ("move" needs ``move``).

    :raises BadRequest: for another type or a malformed move.
    """
    if kind == "move":
        return MoveAction(parse_move(move))
    if kind == "undo":
        return UndoAction()
    if kind == "redo":
        return RedoAction()
    if kind == "autofinish":
        return AutoFinishAction()
    raise BadRequest("the action type must be 'move', 'undo', 'redo' or 'autofinish'")


def parse_change(
    kind: object, move: object = None, client_id: object = None, version: object = None
) -> Change:
    """A whole change as a client sends it.

    :raises BadRequest: for a malformed action, id or version.
    """
    return Change(parse_action(kind, move), clean_client_id(client_id), clean_version(version))
