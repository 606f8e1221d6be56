"""The site-wide pages: home and the "How to play" guides. Thin views that hand the
templates what the scripts in static/ need; they decide nothing about games.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

import solitaire

# Games with a "How to play" page, in the order the pages list them.
GUIDES = ("klondike", "josephine", "casket", "double")
# The example deal drawn beside each guide: a fixed engine seed, not a player's deal
# number (those go through the deal secret), so it reveals nothing about any game.
EXAMPLE_SEED = 20240601


def game_title(description: dict[str, Any]) -> str:
    """A game's title with its options in words, from the engine's ``describe()``."""
    title: str = description["title"]
    options_text: str = description["options_text"]
    return f"{title} · {options_text}" if options_text else title


def _guides() -> list[tuple[str, str]]:
    """(game, title) of each guide, the titles being the engine's."""
    return [(game, solitaire.rules_for(game).describe()["title"]) for game in GUIDES]


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"guides": _guides()})


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
            "title": solitaire.rules_for(game).describe()["title"],
            "guides": _guides(),
            "example": example,
        },
    )
