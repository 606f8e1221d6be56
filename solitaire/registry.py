"""The games by name, and the two ways to get a state of one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Rules, State
from .casket import Casket
from .double import Double
from .josephine import Josephine
from .klondike import Klondike

GAMES: dict[str, type[Rules]] = {game.name: game for game in (Klondike, Josephine, Casket, Double)}


def rules_for(name: str, **options: Any) -> Rules:
    """The rules of game ``name`` with these options. :raises ValueError: if unknown."""
    try:
        game = GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None
    return _cached_rules(game, options)


_RULES_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Rules] = {}


def _cached_rules(game: type[Rules], options: dict[str, Any]) -> Rules:
    # Rules objects are immutable once built, so one per option set is shared.
    try:
        key = (game.name, tuple(sorted(options.items())))
        hash(key)
    except TypeError:
        return game(**options)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        rules = game(**options)
        _RULES_CACHE[key] = rules
    return rules


def new_game(name: str, seed: int, **options: Any) -> State:
    """A fresh deal: the same for the same name, options and seed, always."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("seed must be a whole number")
    return rules_for(name, **options).deal(seed)


def load(name: str, position: Mapping[str, Any], **options: Any) -> State:
    """Any position of game ``name``, for tests, puzzles and saved games."""
    return rules_for(name, **options).load(position)
