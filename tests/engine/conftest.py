"""Shared helpers for the engine tests: building positions, playing moves, reading piles.

The helpers speak only the public contract of ``solitaire`` (docs/engine-contract.md):
``load``, ``new_game``, ``apply``, ``legal_moves``, ``to_position`` and ``view``. They must
not know how the engine stores a state inside.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import solitaire

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
ONE_DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)

PILE_IDS: dict[str, tuple[str, ...]] = {
    "klondike": ("stock", "waste", *(f"f{i}" for i in range(1, 5)), *(f"t{i}" for i in range(1, 8))),
    "josephine": (
        "stock",
        "waste",
        *(f"f{i}" for i in range(1, 9)),
        *(f"t{i}" for i in range(1, 11)),
    ),
    "casket": (
        "stock",
        *(f"w{i}" for i in range(1, 4)),
        *(f"f{i}" for i in range(1, 9)),
        *(f"t{i}" for i in range(1, 9)),
        *(f"lid{i}" for i in range(1, 6)),
        "jewels",
    ),
    "double": (
        *(f"f{i}" for i in range(1, 9)),
        *(
            f"p{seat}.{pile}"
            for seat in (1, 2)
            for pile in ("stock", "waste", *(f"t{i}" for i in range(1, 8)))
        ),
    ),
}

# How many packs each game deals: every card identity appears this often in a full deal.
DECKS = {"klondike": 1, "josephine": 2, "casket": 2, "double": 2}

_CARD_RE = re.compile(r"^(A|[2-9]|10|T|J|Q|K)([CDHScdhs])(?::([12]))?$")


def run(*cards: str) -> list[str]:
    """A list of cards written bottom first, so tests read like the rule books."""
    return list(cards)


def suit_run(suit: str, low: str = "A", high: str = "K") -> list[str]:
    """Every card of ``suit`` from ``low`` to ``high``, bottom (low) first: a foundation."""
    start, stop = RANKS.index(low), RANKS.index(high)
    return [rank + suit for rank in RANKS[start : stop + 1]]


def owned(cards: list[str], owner: int) -> list[str]:
    """Double foundation cards with their owner suffix."""
    return [f"{card}:{owner}" for card in cards]


def face(card: str) -> str:
    """The card's face in canonical text: upper-case suit, ``10`` not ``T``, no owner."""
    match = _CARD_RE.match(card)
    assert match, f"not a card in the contract's notation: {card!r}"
    rank, suit, _owner = match.groups()
    return ("10" if rank == "T" else rank) + suit.upper()


def is_face_down(card: str) -> bool:
    """A face-down card is written with its suit in lower case."""
    return card.split(":")[0][-1].islower()


def owner(card: str) -> int | None:
    match = _CARD_RE.match(card)
    assert match, card
    return int(match.group(3)) if match.group(3) else None


def mv(source: str, target: str, count: int = 1) -> dict[str, Any]:
    return {"from": source, "to": target, "count": count}


def play(state: Any, source: str, target: str, count: int = 1) -> Any:
    """Apply one move and return the new state (fails the test with the engine's reason)."""
    return state.apply(mv(source, target, count))


def play_all(state: Any, *moves: tuple[Any, ...]) -> Any:
    for move in moves:
        state = play(state, *move)
    return state


def replayed(state: Any, moves: list[Any]) -> Any:
    """The state after ``moves`` (engine moves, as a solver's line gives them)."""
    for move in moves:
        state = state.apply(move)
    return state


def randomly_played(state: Any, rng: Any, least: int, most: int) -> Any:
    """The state after between ``least`` and ``most`` - 1 random legal moves (fewer if
    the game gets stuck): positions part-way through a game, for the searches' tests."""
    for _ in range(rng.randrange(least, most)):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply(rng.choice(moves))
    return state


def refused(state: Any, source: str, target: str, count: int = 1) -> solitaire.IllegalMove:
    """Assert the move is refused as illegal, and that it is not offered as legal either."""
    assert mv(source, target, count) not in moves_of(state), (
        f"{source}->{target} x{count} is offered by legal_moves but should be illegal"
    )
    with pytest.raises(solitaire.IllegalMove) as info:
        state.apply(mv(source, target, count))
    assert str(info.value).strip(), "an IllegalMove must say why in words"
    return info.value


def allowed(state: Any, source: str, target: str, count: int = 1) -> Any:
    """Assert the move is offered by legal_moves and accepted; return the new state."""
    assert mv(source, target, count) in moves_of(state), (
        f"{source}->{target} x{count} is legal but missing from legal_moves: {moves_of(state)}"
    )
    return play(state, source, target, count)


def moves_of(state: Any) -> list[dict[str, Any]]:
    return [move.to_dict() for move in state.legal_moves()]


def pile(state: Any, pile_id: str) -> list[str]:
    """The cards of one pile as ``to_position`` writes them (missing piles are empty)."""
    return list(state.to_position().get(pile_id, []))


def faces(state: Any, pile_id: str) -> list[str]:
    """The faces of a pile's cards, ignoring which side is up and who owns them."""
    return [face(card) for card in pile(state, pile_id)]


def all_cards(position: dict[str, Any], game: str) -> Iterator[tuple[str, str]]:
    """Every (pile id, card text) pair in a position, skipping its counter keys."""
    for pile_id in PILE_IDS[game]:
        for card in position.get(pile_id, []):
            yield pile_id, card


def card_counts(position: dict[str, Any], game: str) -> Counter[str]:
    return Counter(face(card) for _pile, card in all_cards(position, game))


def hidden_slots(position: dict[str, Any], game: str) -> dict[str, set[int]]:
    """For each pile, the indexes of the cards no player may see.

    Face-down cards are hidden wherever they lie. Casket's stock lies face up but in a
    pile: only its top card shows. Thoughtful Klondike's stock is all face up and seen.
    """
    slots: dict[str, set[int]] = {}
    for pile_id in PILE_IDS[game]:
        cards = position.get(pile_id, [])
        hidden = {index for index, card in enumerate(cards) if is_face_down(card)}
        if pile_id.endswith("stock") and game == "casket":
            hidden = set(range(len(cards) - 1))
        slots[pile_id] = hidden
    return slots


def strings_in(value: Any) -> Iterator[str]:
    """Every string anywhere inside a JSON-like value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def keys_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from keys_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from keys_in(item)


def assert_view_hides(state: Any, game: str, player: int | None = None) -> None:
    """The view shows each pile slot for slot, with hidden cards as null and stocks as counts.

    It also checks that a hidden card identity that is not visible anywhere else never
    appears as a string anywhere in the view, and that no seed leaves the engine.
    """
    position = state.to_position()
    view = state.view(player)
    json.dumps(view)  # JSON-serialisable, or this raises
    assert not any("seed" in key.lower() for key in keys_in(view)), "the view leaks a seed"
    hidden = hidden_slots(position, game)
    hidden_faces: set[str] = set()
    visible_faces: set[str] = set()
    for pile_id in PILE_IDS[game]:
        cards = position.get(pile_id, [])
        shown = view["piles"][pile_id]
        if pile_id.endswith("stock"):
            assert shown == len(cards), f"{pile_id} must be a count in the view, got {shown!r}"
            for index, card in enumerate(cards):
                (hidden_faces if index in hidden[pile_id] else visible_faces).add(face(card))
            if cards and not hidden[pile_id] and game != "casket":
                assert view["stock_cards"] == [face(card) for card in cards], "a face-up stock shows in order"
            continue
        assert isinstance(shown, list), f"{pile_id} must be a list in the view"
        assert len(shown) == len(cards), f"{pile_id} shows {len(shown)} cards, holds {len(cards)}"
        for index, (card, seen) in enumerate(zip(cards, shown, strict=True)):
            if index in hidden[pile_id]:
                assert seen is None, f"{pile_id}[{index}] is face down but the view shows {seen!r}"
                hidden_faces.add(face(card))
            else:
                assert seen is not None, f"{pile_id}[{index}] is face up but the view hides it"
                assert face(seen) == face(card), f"{pile_id}[{index}]: view {seen!r}, is {card!r}"
                assert owner(seen) == owner(card), f"{pile_id}[{index}] loses its owner in the view"
                visible_faces.add(face(card))
    if game == "casket":
        stock = position.get("stock", [])
        assert view.get("stock_top") == (face(stock[-1]) if stock else None)
    secret = hidden_faces - visible_faces
    leaked = {face(text) for text in strings_in(view) if _CARD_RE.match(text)} & secret
    assert not leaked, f"the view reveals hidden cards: {sorted(leaked)}"


def seat_cards(position: dict[str, Any], seat: int) -> Counter[str]:
    """Double: the faces of every card that belongs to ``seat``, wherever it lies."""
    counts: Counter[str] = Counter()
    for pile_id, card in all_cards(position, "double"):
        if pile_id.startswith(f"p{seat}.") or (pile_id.startswith("f") and owner(card) == seat):
            counts[face(card)] += 1
    return counts
