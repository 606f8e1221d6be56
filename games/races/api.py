"""The races' JSON API: thin views that decode a request, call one race service and
answer JSON, with the same error answers as the single-player API (games.core.http).

Play itself (ready, moves, resigning, offering to stop) goes over the race's socket;
HTTP creates, joins, shows, rematches and replays. These views know nothing of rules.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.core import limits, workers
from games.core.actors import actor_for_request
from games.core.errors import BadRequest
from games.core.http import answers_json, in_own_thread, json_body
from games.races import bot, lobby, payloads, records, seeks


def _token(request: HttpRequest) -> str | None:
    """The invite or watch token a non-player shows, from ``?token=``."""
    return request.GET.get("token") or None


@require_http_methods(["GET", "POST"])
@ensure_csrf_cookie
@answers_json
def race_list(request: HttpRequest) -> HttpResponse:
    """GET: the caller's races, newest first. POST ``{"options", "name"}``: a new race;
    with ``"opponent": "computer", "level": "easy" | "steady" | "sharp"`` the computer
    holds seat 2, joined and ready (games.races.bot). ``"public": true`` lists the race
    on the home page for anyone to watch."""
    if request.method == "GET":
        return JsonResponse({"races": lobby.races_for(actor_for_request(request))})
    limits.check(request, "create_race", "new race")
    body = json_body(request)
    actor = actor_for_request(request, create=True)
    if body.get("opponent") == "computer":
        snapshot = bot.create_bot_race(actor, body.get("options"), body.get("name"), body.get("level"))
    elif body.get("opponent") not in (None, "friend"):
        raise BadRequest('the opponent is "friend" (the default) or "computer"', "bad_opponent")
    else:
        snapshot = lobby.create_race(actor, body.get("options"), body.get("name"))
    if body.get("public") is True:
        seeks.list_publicly(snapshot.race.pk)
    response = JsonResponse(payloads.race_payload(snapshot, 1), status=201)
    response["Location"] = f"/api/races/{snapshot.race.pk}"
    return response


@require_GET
@ensure_csrf_cookie
@answers_json
def race_detail(request: HttpRequest, race_id: int) -> HttpResponse:
    """The race as the caller may see it: a player's own view, or a spectator's."""
    token = _token(request)
    snapshot, seat = records.get_race_for(actor_for_request(request), race_id, token)
    return JsonResponse(payloads.race_payload(snapshot, seat, token=token))


@require_POST
@answers_json
def join(request: HttpRequest, race_id: int) -> HttpResponse:
    """Body ``{"token": <from the invite link>, "name": "Ben"}``: take seat 2."""
    limits.check(request, "join_race", "join")
    body = json_body(request)
    snapshot = lobby.join_race(
        actor_for_request(request, create=True), race_id, body.get("token"), body.get("name")
    )
    return JsonResponse(payloads.race_payload(snapshot, 2))


@require_POST
@answers_json
def rematch(request: HttpRequest, race_id: int) -> HttpResponse:
    """A new race for the same two players; both get the same one."""
    actor = actor_for_request(request)
    snapshot = lobby.rematch(actor, race_id)
    return JsonResponse(payloads.race_payload(snapshot, snapshot.seat_of(actor)), status=200)


@require_GET
@answers_json
async def replay(request: HttpRequest, race_id: int) -> HttpResponse:
    """A finished race move by move, with its seed: replayed once in the worker pool,
    then served from the cache; the database steps in a thread of their own."""
    await limits.acheck(request, "replay")
    actor = await sync_to_async(actor_for_request)(request)
    found = await sync_to_async(payloads.replay_request)(actor, race_id, _token(request))
    if isinstance(found, payloads.ReplayJob):
        function, args, kwargs = found.frames()
        frames = await workers.run(function, *args, **kwargs)
        found = await in_own_thread(found.body)(frames)
    return HttpResponse(found, content_type="application/json")
