"""The play page of a single game: a thin view that embeds the game exactly as the API
describes it (the engine's view, never more), so the table is drawn at once and the
socket only brings changes.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from games.core.actors import actor_for_request
from games.core.errors import NotFound
from games.site import game_title
from games.solo import play as solo_play
from games.solo.payloads import game_payload


@ensure_csrf_cookie
def play(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        snapshot = solo_play.get_game_for(actor_for_request(request), game_id)
    except NotFound:
        raise Http404("There is no such game here, or it belongs to someone else.") from None
    payload = game_payload(snapshot)
    return render(
        request,
        "play.html",
        {
            "game": payload,
            "title": game_title(payload["describe"]),
            "title_short": payload["describe"]["title"],
        },
    )
