"""The games app's tables: single-player games (solo) and Double Solitaire races (race).

Both modules keep the app label ``games`` and the table names they always had, so
moving them here needed no migration.
"""

from games.models.race import Race, RaceConnection, RaceMove, RaceSeat, race_group
from games.models.rating import PlayerRating, RaceRating
from games.models.seek import RaceBot, RaceListing, Seek
from games.models.solo import Deal, Game, Move, game_group

__all__ = [
    "Deal",
    "Game",
    "Move",
    "PlayerRating",
    "Race",
    "RaceBot",
    "RaceConnection",
    "RaceListing",
    "RaceMove",
    "RaceRating",
    "RaceSeat",
    "Seek",
    "game_group",
    "race_group",
]
