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

OptionsKey = tuple[str, tuple[tuple[str, str, Any], ...]]

# One shared Rules object per game and option set: they are immutable once built.
# Keys carry each value's exact type, so 1, 1.0 and True can never share an entry, and
# an entry is made only for options the game has accepted. Both the options as given
# and as validated (defaults filled in) point at the same object.
_RULES_CACHE: dict[OptionsKey, Rules] = {}
_CACHE_LIMIT = 4096


def options_key(name: str, options: Mapping[str, Any]) -> OptionsKey | None:
    """A canonical, type-aware key for an option set, or ``None`` when a value is not a
    plain ``None``, ``bool``, ``int`` or ``str`` (such options are never cached)."""
    items: list[tuple[str, str, Any]] = []
    for key, value in options.items():
        if type(key) is not str or not (value is None or type(value) in (bool, int, str)):
            return None
        items.append((key, type(value).__name__, value))
    return (name, tuple(sorted(items)))


def rules_for(name: str, **options: Any) -> Rules:
    """The rules of game ``name`` with these options.

    :raises ValueError: for an unknown game, an unknown option or a value of the
        wrong type or range (checked by exact type: ``1.0`` and ``True`` are not ``1``).
    """
    try:
        game = GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None
    key = options_key(name, options)
    if key is not None:
        cached = _RULES_CACHE.get(key)
        if cached is not None:
            return cached
    rules = game(**options)  # validates, or raises
    canonical = options_key(name, rules.options)
    if canonical is not None:
        existing = _RULES_CACHE.get(canonical)
        if existing is not None:
            rules = existing
        elif len(_RULES_CACHE) < _CACHE_LIMIT:
            _RULES_CACHE[canonical] = rules
    if key is not None and len(_RULES_CACHE) < _CACHE_LIMIT:
        _RULES_CACHE[key] = rules
    return rules


def new_game(name: str, seed: int, **options: Any) -> State:
    """A fresh deal: the same for the same name, options and seed, always."""
    if type(seed) is not int:
        raise ValueError("seed must be a whole number")
    return rules_for(name, **options).deal(seed)


def load(name: str, position: Mapping[str, Any], **options: Any) -> State:
    """Any position of game ``name``, for tests, puzzles and saved games."""
    return rules_for(name, **options).load(position)
