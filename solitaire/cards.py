"""Cards as small integers, and their text form.

A card is an ``int``: ``rank << 2 | suit``, with bit 6 set when it lies face down and
bits 7-8 naming its owner in Double Solitaire (0 for nobody). Ints keep states small
and make ``apply`` cheap. This module knows nothing of piles, games or rules.

Text form: rank then suit, ``AS``, ``10H``, ``QD``. In a position a face-down card has
its suit in lower case (``7h``) and a Double foundation card carries its owner (``7H:1``).
"""

from __future__ import annotations

Card = int

SUITS = "CDHS"
RANKS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
KING = 13
FACE_DOWN = 64
OWNER_SHIFT = 7
FACE_MASK = 63  # rank and suit only

_RANK_BY_TEXT = {text: rank for rank, text in enumerate(RANKS) if text}
_RANK_BY_TEXT["T"] = 10
_RANK_BY_TEXT["1"] = 1


def make_card(rank: int, suit: int, *, face_down: bool = False, owner: int = 0) -> Card:
    """The card of that rank (1-13) and suit index (0-3 in ``SUITS`` order)."""
    return (rank << 2) | suit | (FACE_DOWN if face_down else 0) | (owner << OWNER_SHIFT)


def rank_of(card: Card) -> int:
    return (card >> 2) & 15


def owner_of(card: Card) -> int:
    return card >> OWNER_SHIFT


def face_text(card: Card) -> str:
    """The face of the card, ``7H``, whatever its side or owner."""
    return RANKS[(card >> 2) & 15] + SUITS[card & 3]


def card_text(card: Card) -> str:
    """The card as a position writes it: lower-case suit when face down, ``:owner`` suffix."""
    text = RANKS[(card >> 2) & 15] + (SUITS[card & 3].lower() if card & FACE_DOWN else SUITS[card & 3])
    owner = card >> OWNER_SHIFT
    return f"{text}:{owner}" if owner else text


def parse_card(text: object) -> Card:
    """Read a card written as ``card_text`` does; ``T`` is accepted for ten.

    :raises ValueError: when the text is not a card.
    """
    if not isinstance(text, str) or not text:
        raise ValueError(f"not a card: {text!r}")
    body, _, owner_text = text.partition(":")
    owner = 0
    if owner_text:
        if owner_text not in ("1", "2"):
            raise ValueError(f"not a card: {text!r} (owner must be 1 or 2)")
        owner = int(owner_text)
    if len(body) < 2:
        raise ValueError(f"not a card: {text!r}")
    rank = _RANK_BY_TEXT.get(body[:-1].upper())
    suit_letter = body[-1]
    suit = SUITS.find(suit_letter.upper())
    if rank is None or suit < 0:
        raise ValueError(f"not a card: {text!r}")
    return make_card(rank, suit, face_down=suit_letter.islower(), owner=owner)


def full_deck() -> list[Card]:
    """One 52-card pack, face up, in a fixed order: clubs, diamonds, hearts, spades, A to K."""
    return [make_card(rank, suit) for suit in range(4) for rank in range(1, 14)]
