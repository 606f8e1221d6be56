"""A player's memory: what one player has seen face up, kept move by move.

The view (``State.view(player)``) shows what lies face up *now*. An attentive player
knows more: every stock card turned into the waste, and in which order, stays known
after the waste is turned over again; a card turned back face down by an undo is still
known. ``Memory`` records exactly that, and nothing a player could not know:

- ``seen``: every card face this player has had face up in front of them;
- for each face-down place (a stock position, counted from the bottom of the pile, or a
  face-down tableau or jewel card), the card that lies there when the player saw it go
  there face up.

It is built on the server, which holds the full states, from consecutive states of one
game: ``Memory.start(state, player)``, then ``memory.after(next_state)`` after each move
(undo and redo included), or ``Memory.from_states(states, player)``. A hidden place is
remembered only when the card that now lies there was face up just before and has just
gone out of sight; a face-down card the player never saw stays unknown. The memory keeps
no state, only what was visible last time and what is known, so handing it to the hint
hands over no hidden card the player has not seen.

The hint (``solitaire.hints``) receives a view and a memory and nothing else. The view
does not show remembered cards; showing them would be a later, separate feature.

This module knows nothing of hints, the web app or storage; ``to_dict``/``from_dict``
give plain JSON for whoever stores it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .base import STOCK, State
from .cards import FACE_DOWN, face_text

# One pile as the player sees it: card text when face up, None when hidden.
Seen = tuple[str | None, ...]


def visible_piles(state: State) -> tuple[Seen, ...]:
    """Every pile as a player sees it: face-up cards as text, hidden places as None.

    A stock is hidden except, where the game lays it face up (Casket), its top card;
    this matches what ``State.view`` shows (a count, plus ``stock_top``).
    """
    rules = state.rules
    piles: list[Seen] = []
    for i, pile in enumerate(state.piles):
        if rules.roles[i] == STOCK:
            shown: list[str | None] = [None] * len(pile)
            if pile and not pile[-1] & FACE_DOWN:
                shown[-1] = face_text(pile[-1])
            piles.append(tuple(shown))
        else:
            piles.append(tuple(None if card & FACE_DOWN else face_text(card) for card in pile))
    return tuple(piles)


@dataclass(frozen=True)
class Memory:
    """What one player knows of one game beyond the view (immutable).

    ``known`` maps ``(pile id, index from the bottom)`` of a face-down place to the card
    (text, e.g. ``"7H"``) the player saw go there; ``seen`` is every card face the
    player has seen face up. ``last`` is what was visible at the last state given.
    """

    game: str
    player: int | None
    pile_ids: tuple[str, ...]
    last: tuple[Seen, ...]
    known: tuple[tuple[str, int, str], ...] = ()
    seen: frozenset[str] = frozenset()

    # --- building -----------------------------------------------------------------

    @classmethod
    def start(cls, state: State, player: int | None = None) -> Memory:
        """The memory at the start of a game (or of watching it): what is face up now."""
        last = visible_piles(state)
        return cls(
            game=state.rules.name,
            player=player,
            pile_ids=state.rules.pile_ids,
            last=last,
            known=(),
            seen=frozenset(card for pile in last for card in pile if card is not None),
        )

    @classmethod
    def from_states(cls, states: Iterable[State], player: int | None = None) -> Memory:
        """The memory after a game's states, first to last (one move apart each).

        :raises ValueError: when no state is given.
        """
        memory: Memory | None = None
        for state in states:
            memory = cls.start(state, player) if memory is None else memory.after(state)
        if memory is None:
            raise ValueError("a memory needs at least one state")
        return memory

    def after(self, state: State) -> Memory:
        """The memory once ``state`` follows the last state given (one move, an undo or
        a redo later). :raises ValueError: for a state of another game."""
        if state.rules.name != self.game or state.rules.pile_ids != self.pile_ids:
            raise ValueError(f"this memory belongs to a game of {self.game}, not {state.rules.name}")
        now = visible_piles(state)
        before_counts = Counter(card for pile in self.last for card in pile if card is not None)
        now_counts = Counter(card for pile in now for card in pile if card is not None)
        # Cards that were face up a moment ago and are not now: the player saw them go.
        went_out = before_counts - now_counts
        old_known = {(pile_id, index): card for pile_id, index, card in self.known}
        known: list[tuple[str, int, str]] = []
        for i, pile_id in enumerate(self.pile_ids):
            before, shown = self.last[i], now[i]
            same = 0
            limit = min(len(before), len(shown))
            while same < limit and before[same] == shown[same]:
                same += 1
            cards = state.piles[i]
            for index, text in enumerate(shown):
                if text is not None:
                    continue
                if index < same:
                    remembered = old_known.get((pile_id, index))
                    if remembered is not None:
                        known.append((pile_id, index, remembered))
                    continue
                face = face_text(cards[index])
                if went_out[face] > 0:
                    went_out[face] -= 1
                    known.append((pile_id, index, face))
        newly_seen = {card for pile in now for card in pile if card is not None}
        return Memory(
            game=self.game,
            player=self.player,
            pile_ids=self.pile_ids,
            last=now,
            known=tuple(known),
            seen=self.seen | newly_seen,
        )

    # --- reading ------------------------------------------------------------------

    def known_places(self) -> dict[str, dict[int, str]]:
        """Face-down places whose card the player knows: pile id -> {index: card}."""
        places: dict[str, dict[int, str]] = {}
        for pile_id, index, card in self.known:
            places.setdefault(pile_id, {})[index] = card
        return places

    def knows_stock(self, pile_id: str = "stock") -> bool:
        """Whether the player knows every card of that stock pile (and their order)."""
        i = self.pile_ids.index(pile_id)
        size = len(self.last[i])
        places = self.known_places().get(pile_id, {})
        return all(index in places or self.last[i][index] is not None for index in range(size))

    # --- storage ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data; ``Memory.from_dict`` reads it back."""
        return {
            "game": self.game,
            "player": self.player,
            "pile_ids": list(self.pile_ids),
            "last": [list(pile) for pile in self.last],
            "known": [list(entry) for entry in self.known],
            "seen": sorted(self.seen),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Memory:
        """A memory from ``to_dict`` data. :raises ValueError: when it is malformed."""
        try:
            pile_ids = tuple(str(p) for p in data["pile_ids"])
            last = tuple(tuple(None if c is None else str(c) for c in pile) for pile in data["last"])
            known = tuple((str(p), int(i), str(c)) for p, i, c in data["known"])
            player = data["player"]
            if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
                raise ValueError("player must be a seat number or null")
            if len(last) != len(pile_ids):
                raise ValueError("one visible pile per pile id")
            return cls(
                game=str(data["game"]),
                player=player,
                pile_ids=pile_ids,
                last=last,
                known=known,
                seen=frozenset(str(c) for c in data["seen"]),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a memory: {error}") from None
