"""Moves as small immutable values, and the error an illegal one raises.

A move says which cards leave which pile for which pile; it knows nothing of whether
that is legal. Legality belongs to each game's rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class IllegalMove(ValueError):
    """A well-formed move that the rules do not allow here.

    ``str(error)`` is the reason in plain words. ``code`` is a short machine word and
    ``data`` holds the details a caller may want to phrase its own message with.
    """

    def __init__(self, reason: str, code: str = "illegal", **data: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.data = data


@dataclass(frozen=True, slots=True)
class Move:
    """``count`` cards leave the top of ``source`` for ``target``."""

    source: str
    target: str
    count: int = 1

    @classmethod
    def from_dict(cls, data: object) -> Move:
        """Read ``{"from": PILE, "to": PILE, "count": N}``; ``count`` defaults to 1.

        :raises ValueError: when the dict is malformed (piles are checked by the game).
        """
        if isinstance(data, Move):
            return data
        if not isinstance(data, dict):
            raise ValueError("a move must be an object with 'from' and 'to'")
        source = data.get("from")
        target = data.get("to")
        count = data.get("count", 1)
        if not isinstance(source, str) or not isinstance(target, str):
            raise ValueError("a move needs 'from' and 'to' pile ids as strings")
        if isinstance(count, bool) or not isinstance(count, int):
            raise ValueError("a move's 'count' must be a whole number")
        if count < 1:
            raise ValueError("a move's 'count' must be at least 1")
        unknown = set(data) - {"from", "to", "count"}
        if unknown:
            raise ValueError(f"a move has no field {sorted(unknown)[0]!r}")
        return cls(source, target, count)

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.source, "to": self.target, "count": self.count}

    def __str__(self) -> str:
        suffix = f" x{self.count}" if self.count != 1 else ""
        return f"{self.source}->{self.target}{suffix}"
