"""The race pages: the lobby (create a race), the race table (for its players, for a
friend holding the invite link, and for spectators holding the watch link), and the
replay of a finished race.

Each page embeds the race exactly as the API describes it to this visitor (the
engine's view for their seat, never more), so the table is drawn at once and the
socket only brings changes. These views decide nothing: games.races' services do.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from games.core.actors import actor_for_request
from games.core.errors import NotFound
from games.races import payloads, records


def _page(
    request: HttpRequest, race_id: int, mode: str, token: str | None, *, create: bool = False
) -> HttpResponse:
    # An invitee gets a player token now, so that the socket the page opens already
    # knows who they are when they take the seat.
    actor = actor_for_request(request, create=create)
    try:
        snapshot, seat = records.get_race_for(actor, race_id, token)
    except NotFound:
        raise Http404("There is no such race, or this link is not right.") from None
    if mode == "invite" and seat is None and 2 in snapshot.seats:
        mode = "watch"  # the seat is taken: the link still lets its holder watch
    context: dict[str, Any] = {
        "race": payloads.race_payload(snapshot, seat, token=token),
        "page": {"mode": mode, "token": token, "logged_in": request.user.is_authenticated},
    }
    return render(request, "race/race.html", context)


@require_GET
@ensure_csrf_cookie
def lobby(request: HttpRequest) -> HttpResponse:
    """Create a race and find your recent ones."""
    return render(request, "race/lobby.html")


@require_GET
@ensure_csrf_cookie
def race(request: HttpRequest, race_id: int) -> HttpResponse:
    """A player's race table (someone with a link may add ?token=...)."""
    return _page(request, race_id, "play", request.GET.get("token") or None)


@require_GET
@ensure_csrf_cookie
def invited(request: HttpRequest, race_id: int, token: str) -> HttpResponse:
    """The invite link: see who is waiting, choose a name, take the second seat."""
    return _page(request, race_id, "invite", token, create=True)


@require_GET
@ensure_csrf_cookie
def watch(request: HttpRequest, race_id: int, token: str) -> HttpResponse:
    """The watch link: the race live, read-only."""
    return _page(request, race_id, "watch", token)


@require_GET
@ensure_csrf_cookie
def replay(request: HttpRequest, race_id: int) -> HttpResponse:
    """A finished race move by move (the API decides who may see it)."""
    return render(
        request,
        "race/replay.html",
        {"page": {"race_id": race_id, "token": request.GET.get("token") or None}},
    )
