"""The site-wide pages: home and the "How to play" guides. Thin views that hand the
templates what the scripts in static/ need; they decide nothing about games.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

import solitaire

GAME_TITLES = {
    "klondike": "Klondike",
    "josephine": "Josephine",
    "casket": "Casket",
    "double": "Double Solitaire",
}
# Games with a "How to play" page, in the order the pages list them.
GUIDES = ("klondike", "josephine", "casket", "double")
# The example deal drawn beside each guide: a fixed engine seed, not a player's deal
# number (those go through the deal secret), so it reveals nothing about any game.
EXAMPLE_SEED = 20240601


def game_title(game: str, options: dict[str, object]) -> str:
    """A game's title with the options that tell its variants apart."""
    title = GAME_TITLES.get(game, game.title())
    if game == "klondike":
        title += f", draw {options.get('draw', 3)}"
    if game == "casket" and options.get("hard"):
        title += ", hard"
    return title


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"guides": [(g, GAME_TITLES[g]) for g in GUIDES]})


def how_to_play(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GUIDES:
        raise Http404("There is no guide for that game.")
    # Only the view leaves the engine, as on the play page: face-down cards stay hidden.
    example = solitaire.new_game(game, seed=EXAMPLE_SEED).view(1 if game == "double" else None)
    return render(
        request,
        f"how_to_play/{game}.html",
        {
            "game": game,
            "title": GAME_TITLES[game],
            "guides": [(g, GAME_TITLES[g]) for g in GUIDES],
            "example": example,
        },
    )
