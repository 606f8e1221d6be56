"""Moves as small immutable values, and the errors a move can raise.

A move says which cards leave which pile for which pile, and optionally which cards
the mover believes they are; it knows nothing of whether that is legal. Legality
belongs to each game's rules.

Every error here is a ``ValueError`` with a short machine word in ``code`` and the
public details in ``data`` (pile ids, card texts, numbers: never a hidden card), so a
caller can phrase its own sentence. ``str(error)`` is a plain-words reason.
``docs/engine-contract.md`` lists every code with its data keys.

    MoveError(ValueError)          any refusal of a move; never raised itself
    ├── MalformedMove              not a move at all: wrong types, lengths, characters
    ├── UnknownPile                names a pile the game does not have
    ├── NotYourPile                names a pile of another seat
    └── IllegalMove                well formed, but the rules do not allow it here
        └── StaleMove              its ``cards`` are not what would move now
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

# Input limits for moves read from the outside world.
MAX_PILE_ID = 16
MAX_COUNT = 104
MAX_CARD_TEXT = 5  # "10H:1"
_PILE_ID = re.compile(r"[A-Za-z0-9._-]{1,16}")
_CARD_TEXT = re.compile(r"(?:[AJQK2-9]|10)[CDHS](?::[12])?")
_FIELDS = frozenset(("from", "to", "count", "cards"))


class MoveError(ValueError):
    """A refused move. ``code`` is a short word, ``data`` the public details."""

    default_code: ClassVar[str] = "bad_move"

    def __init__(self, reason: str, code: str | None = None, **data: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code: str = code or self.default_code
        self.data: dict[str, Any] = data

    def __reduce__(self) -> tuple[Any, ...]:
        # Errors cross process boundaries (worker pools): keep code and data.
        return (_rebuild, (type(self), self.reason, self.code, self.data))


def _rebuild(kind: type[MoveError], reason: str, code: str, data: dict[str, Any]) -> MoveError:
    return kind(reason, code, **data)


class MalformedMove(MoveError):
    """Not a move: a missing field, a wrong type, an over-long or unprintable string.

    Code ``bad_move``; ``data`` has ``field`` (the offending field) when there is one.
    """


class UnknownPile(MoveError):
    """A pile id the game does not have. Code ``unknown_pile``; data ``pile``.

    ``str(error)`` starts with "unknown pile", as it always has.
    """

    default_code = "unknown_pile"


class NotYourPile(MoveError):
    """A move naming a pile of another seat (Double Solitaire): one of the mover's
    (``State.apply(move, seat=n)``), or piles of two different seats.

    Code ``not_your_pile``; data ``source``, ``target``, ``seat`` (the mover, or the
    seat of the source pile) and ``other_seat`` (the seat whose pile it names).
    """

    default_code = "not_your_pile"


class IllegalMove(MoveError):
    """A well-formed move that the rules do not allow here.

    ``code`` says which rule (``tableau``, ``foundation``, ``space``, ...), ``data``
    the cards and piles involved; docs/engine-contract.md lists them all.
    """

    default_code = "illegal"


class StaleMove(IllegalMove):
    """The move's ``cards`` are not the cards it would move now: the board changed.

    Code ``stale``; data ``pile`` (the source), ``expected`` (the cards the move
    named) and ``found`` (what lies there now, face-down cards as ``None``).
    """

    default_code = "stale"


@dataclass(frozen=True, slots=True)
class Move:
    """``count`` cards leave the top of ``source`` for ``target``.

    ``cards``, when given, are the texts of the cards the mover means to move, bottom
    to top of the run. They are a claim ``apply`` checks (see ``StaleMove``), not part
    of the move's identity: two moves that differ only in ``cards`` are equal.
    """

    source: str
    target: str
    count: int = 1
    cards: tuple[str, ...] | None = field(default=None, compare=False)

    @classmethod
    def from_dict(cls, data: object) -> Move:
        """Read ``{"from": PILE, "to": PILE, "count": N, "cards": [CARD, ...]}``.

        ``count`` defaults to 1 and ``cards`` to none. Types are checked exactly: a
        count is an ``int`` (not a ``bool`` or ``float``), pile ids and card texts are
        short ASCII strings, ``cards`` is a list of exactly ``count`` card texts.

        :raises MalformedMove: when the dict is malformed (piles are checked by the game).
        """
        if isinstance(data, Move):
            return data
        if not isinstance(data, Mapping):
            raise MalformedMove("a move must be an object with 'from' and 'to'")
        for key in data:
            if key not in _FIELDS:
                if _printable_short(key):
                    raise MalformedMove(f"a move has no field {key!r}", field=key)
                raise MalformedMove("a move has a field that is not one of from, to, count, cards")
        source = _pile_id(data.get("from"), "from")
        target = _pile_id(data.get("to"), "to")
        count = data.get("count", 1)
        if type(count) is not int:
            raise MalformedMove("a move's 'count' must be a whole number", field="count")
        if not 1 <= count <= MAX_COUNT:
            raise MalformedMove(f"a move's 'count' must be from 1 to {MAX_COUNT}", field="count")
        cards = _cards(data.get("cards"), count)
        return cls(source, target, count, cards)

    def to_dict(self) -> dict[str, Any]:
        """The dict ``from_dict`` reads; ``cards`` appears only when given."""
        data: dict[str, Any] = {"from": self.source, "to": self.target, "count": self.count}
        if self.cards is not None:
            data["cards"] = list(self.cards)
        return data

    def __str__(self) -> str:
        suffix = f" x{self.count}" if self.count != 1 else ""
        return f"{self.source}->{self.target}{suffix}"


def _printable_short(value: object) -> bool:
    return isinstance(value, str) and len(value) <= MAX_PILE_ID and value.isascii() and value.isprintable()


def _pile_id(value: object, name: str) -> str:
    if type(value) is not str:
        raise MalformedMove(f"a move needs '{name}' as a pile id string", field=name)
    if _PILE_ID.fullmatch(value) is None:
        raise MalformedMove(
            f"a move's '{name}' must be a pile id: up to {MAX_PILE_ID} letters, digits and dots",
            field=name,
        )
    return value


def _cards(value: object, count: int) -> tuple[str, ...] | None:
    if value is None:
        return None
    if type(value) is not list and type(value) is not tuple:
        raise MalformedMove("a move's 'cards' must be a list of card texts", field="cards")
    if len(value) != count:
        raise MalformedMove(
            f"a move's 'cards' must name exactly its {count} card{'s' if count != 1 else ''}",
            field="cards",
        )
    for text in value:
        if type(text) is not str or len(text) > MAX_CARD_TEXT or _CARD_TEXT.fullmatch(text) is None:
            raise MalformedMove(
                "each of a move's 'cards' must be a face-up card text such as 'AH' or '10S'",
                field="cards",
            )
    return tuple(value)
