"""The rules engine: Klondike, Josephine, Casket and Double Solitaire behind one interface.

Pure Python, standard library only. It decides every move in the product and knows
nothing of HTTP, Django, databases or pixels. What a player may see leaves it only
through ``State.view(player)``.

    >>> import solitaire
    >>> s = solitaire.new_game("klondike", seed=7, draw=3)
    >>> s2 = s.apply({"from": "stock", "to": "waste"})
    >>> len(s2.view()["piles"]["waste"])
    3
    >>> s2.outcome() is None
    True
"""

from .base import AGREED, ALL_HOME, BLOCKED, DRAW, RESIGNED, STUCK, WON, Outcome, Rules, State
from .cards import card_text, parse_card
from .hints import hint
from .memory import Memory
from .moves import IllegalMove, MalformedMove, Move, MoveError, NotYourPile, StaleMove, UnknownPile
from .registry import GAMES, load, new_game, rules_for
from .solver import SolveResult, solve

__all__ = [
    "AGREED",
    "ALL_HOME",
    "BLOCKED",
    "DRAW",
    "GAMES",
    "RESIGNED",
    "STUCK",
    "WON",
    "IllegalMove",
    "MalformedMove",
    "Memory",
    "Move",
    "MoveError",
    "NotYourPile",
    "Outcome",
    "Rules",
    "SolveResult",
    "StaleMove",
    "State",
    "UnknownPile",
    "card_text",
    "hint",
    "load",
    "new_game",
    "parse_card",
    "rules_for",
    "solve",
]
