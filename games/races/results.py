"""The results page (``/races/results/``): the visitor's race rating and recent rated
races, each with its replay. Rendered on the server from ``ratings.rating_for``; the page
has no script of its own."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.core.actors import actor_for_request
from games.races import ratings

OUTCOMES = {1.0: "won", 0.5: "drawn", 0.0: "lost"}


def _row(entry: dict[str, Any]) -> dict[str, Any]:
    change = int(entry["change"])
    return {
        **entry,
        "outcome": OUTCOMES.get(float(entry["score"]), ""),
        "change_text": f"+{change}" if change > 0 else str(change),
    }


@require_GET
def results(request: HttpRequest) -> HttpResponse:
    mine = ratings.rating_for(actor_for_request(request))
    context = {**mine, "recent": [_row(entry) for entry in mine["recent"]]}
    return render(request, "race/results.html", context)
