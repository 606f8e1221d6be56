"""Game options as the engine reads them: the one check both rooms use.

Knows the engine's registry, nothing of the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import solitaire
from games.core.errors import BadRequest


def validated_options(game_name: str, options: object) -> dict[str, Any]:
    """The engine's own reading of ``options`` (None is no options), defaults filled in.

    :raises BadRequest: ``unknown_game`` for a game the engine does not have,
        ``bad_options`` for an unknown option or a bad value.
    """
    if game_name not in solitaire.GAMES:
        raise BadRequest(f"there is no game called {game_name!r}", "unknown_game")
    if options is None:
        options = {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise BadRequest('options must be an object such as {"draw": 3}', "bad_options")
    try:
        probe = solitaire.new_game(game_name, seed=0, **options)
    except (ValueError, TypeError) as error:
        raise BadRequest(str(error), "bad_options") from None
    return dict(probe.options)


_described: dict[int, tuple[solitaire.Rules, dict[str, Any]]] = {}


def described(rules: solitaire.Rules) -> dict[str, Any]:
    """``rules.describe()``, worked out once per rules object (the engine shares one per
    option set); every payload carries it, and it costs as much as a view. The dict is
    shared: read it, never change it."""
    held = _described.get(id(rules))
    if held is None or held[0] is not rules:
        if len(_described) >= 1024:  # option sets are few; never let the memo grow unbounded
            _described.clear()
        held = (rules, rules.describe())
        _described[id(rules)] = held
    return held[1]
