"""The errors services raise, and how an engine refusal becomes one.

A ServiceError carries what a player is told: ``message`` in plain words, ``code`` a
short word the front end can phrase its own sentence from, ``data`` public details
only (card texts, pile ids, a version). ``status`` is the HTTP equivalent. Edges (API
views, consumers) turn them into answers; nothing here knows HTTP or sockets.
"""

from __future__ import annotations

from typing import Any

import solitaire


class ServiceError(Exception):
    """A request the service will not carry out."""

    status = 400
    default_code = "bad_request"

    def __init__(self, message: str, code: str | None = None, **data: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.data = data

    def as_dict(self) -> dict[str, Any]:
        """``{"error", "code", "data"}``, the body of every error answer."""
        return {"error": self.message, "code": self.code, "data": dict(self.data)}


class BadRequest(ServiceError):
    """Malformed input: not a move, an unknown pile, an unknown game or option."""


class NotFound(ServiceError):
    """No such game or race, or not the asker's (the two are not told apart)."""

    status = 404
    default_code = "not_found"


class Refused(ServiceError):
    """Well-formed but not allowed now: an illegal or stale move, a finished game."""

    status = 409
    default_code = "illegal"


class Unavailable(ServiceError):
    """Could not be done now, though the request was fine: try again (the solver was busy
    or found no answer in time)."""

    status = 503
    default_code = "unavailable"


def from_engine(error: ValueError) -> ServiceError:
    """The engine's refusal of a move as the service's error, code and public data kept.

    ``MalformedMove`` and ``UnknownPile`` are bad requests; ``NotYourPile``,
    ``StaleMove`` (code ``stale``) and every other ``IllegalMove`` are refusals. Any
    other ValueError from the engine is a bad move, without details.
    """
    if isinstance(error, solitaire.MalformedMove | solitaire.UnknownPile):
        return BadRequest(str(error), error.code, **error.data)
    if isinstance(error, solitaire.MoveError):
        return Refused(str(error), error.code, **error.data)
    return BadRequest(str(error), "bad_move")
