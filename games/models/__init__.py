"""The games app's tables: single-player games (solo) and Double Solitaire races (race).

Both modules keep the app label ``games`` and the table names they always had, so
moving them here needed no migration.
"""

from games.models.race import Race, RaceConnection, RaceMove, RaceSeat, race_group
from games.models.solo import Deal, Game, Move, game_group

__all__ = [
    "Deal",
    "Game",
    "Move",
    "Race",
    "RaceConnection",
    "RaceMove",
    "RaceSeat",
    "game_group",
    "race_group",
]
