"""The seek pool's JSON API (games.races.seeks), thin views like games.races.api:

- ``POST /api/seeks {"options", "name"}`` -> 201 ``{"id", "status": "waiting", ...}``
  (or ``"matched"`` with ``"race"`` when a stranger was already waiting);
- ``GET /api/seeks/<id>`` -> ``{"status": "waiting" | "matched" | "cancelled",
  "race": <race object, when matched>, "offer_computer": bool, "waited_seconds": n}``;
- ``DELETE /api/seeks/<id>`` cancels (a matched seek stays matched);
- ``GET /api/ratings/me`` -> the caller's race rating and recent rated races;
- ``GET /api/races/live`` -> listed (opt-in) races under way, with watch links.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.core import limits
from games.core.actors import actor_for_request
from games.core.http import answers_json, json_body
from games.races import ratings, seeks


@require_POST
@answers_json
def seek_list(request: HttpRequest) -> HttpResponse:
    limits.check(request, "create_race", "seek")
    body = json_body(request)
    actor = actor_for_request(request, create=True)
    seek = seeks.create_seek(actor, body.get("options"), body.get("name"))
    response = JsonResponse(seeks.seek_payload(actor, seek), status=201)
    response["Location"] = f"/api/seeks/{seek.pk}"
    return response


@require_http_methods(["GET", "DELETE"])
@answers_json
def seek_detail(request: HttpRequest, seek_id: int) -> HttpResponse:
    actor = actor_for_request(request)
    if request.method == "DELETE":
        return JsonResponse(seeks.cancel_seek(actor, seek_id))
    return JsonResponse(seeks.seek_status(actor, seek_id))


@require_GET
@answers_json
def my_rating(request: HttpRequest) -> HttpResponse:
    return JsonResponse(ratings.rating_for(actor_for_request(request)))


@require_GET
@answers_json
def live(request: HttpRequest) -> HttpResponse:
    """Races under way whose creators listed them, with watch links."""
    return JsonResponse({"races": seeks.live_races()})
