"""The JSON API: thin views that decode a request, call one service, answer JSON.

They use the session cookie and Django's CSRF protection (send X-CSRFToken from the
csrftoken cookie). A ServiceError becomes ``{"error", "code"}`` with its HTTP status.
These views know nothing of the rules; games.services decides everything.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.csrf import csrf_failure as default_csrf_failure
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import services
from games.actors import actor_for_request
from games.health import check_health
from games.services import BadRequest, ServiceError, Snapshot, game_payload

MAX_BODY_BYTES = 16 * 1024

View = Callable[..., HttpResponse]


def answers_json(view: View) -> View:
    """Turn a ServiceError raised by ``view`` into its JSON error answer."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ServiceError as error:
            return JsonResponse(
                {"error": error.message, "code": error.code, **error.data}, status=error.status
            )

    return wrapped


def _body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object; an empty body is an empty object."""
    if len(request.body) > MAX_BODY_BYTES:
        raise BadRequest(f"the request body is over {MAX_BODY_BYTES} bytes")
    if not request.body.strip():
        return {}
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _game(snapshot: Snapshot, status: int = 200) -> JsonResponse:
    return JsonResponse(game_payload(snapshot), status=status)


@require_http_methods(["GET", "POST"])
@ensure_csrf_cookie
@answers_json
def games(request: HttpRequest) -> HttpResponse:
    """GET: the caller's games, newest first. POST: deal a new game."""
    if request.method == "GET":
        listed = services.list_games_for(actor_for_request(request))
        return JsonResponse({"games": [services.game_summary(game) for game in listed]})
    body = _body(request)
    snapshot = services.create_game(
        actor_for_request(request, create=True),
        body.get("game"),  # type: ignore[arg-type]  # the service checks it
        body.get("options") if body.get("options") is not None else {},
        body.get("deal"),
    )
    response = _game(snapshot, status=201)
    response["Location"] = f"/api/games/{snapshot.game.pk}"
    return response


@require_GET
@ensure_csrf_cookie
@answers_json
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    return _game(services.get_game_for(actor_for_request(request), game_id))


def _change(request: HttpRequest, game_id: int, action: dict[str, Any]) -> HttpResponse:
    body = _body(request)
    if action["type"] == "move":
        action = {**action, "move": body.get("move")}
    snapshot = services.apply_action(
        game_id,
        actor_for_request(request),
        action,
        client_id=body.get("id"),
        expected_version=body.get("version"),
    )
    return _game(snapshot)


@require_POST
@answers_json
def moves(request: HttpRequest, game_id: int) -> HttpResponse:
    """Body ``{"move": {"from", "to", "count"}, "id"?, "version"?}``."""
    return _change(request, game_id, {"type": "move"})


@require_POST
@answers_json
def undo(request: HttpRequest, game_id: int) -> HttpResponse:
    """Body optional: ``{"id"?, "version"?}``."""
    return _change(request, game_id, {"type": "undo"})


@require_POST
@answers_json
def autofinish(request: HttpRequest, game_id: int) -> HttpResponse:
    """Body optional: ``{"id"?, "version"?}``."""
    return _change(request, game_id, {"type": "autofinish"})


@require_GET
@answers_json
def hint(request: HttpRequest, game_id: int) -> HttpResponse:
    return JsonResponse({"move": services.hint_for(actor_for_request(request), game_id)})


@require_GET
@ensure_csrf_cookie
def stats(request: HttpRequest) -> HttpResponse:
    return JsonResponse(services.statistics_for(actor_for_request(request)))


@require_GET
async def healthz(request: HttpRequest) -> HttpResponse:
    checks = await check_health()
    healthy = all(result == "ok" for result in checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF refusals: JSON for the API, Django's usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "error": "the CSRF check failed: send the csrftoken cookie's value as X-CSRFToken",
                "code": "csrf",
            },
            status=403,
        )
    return default_csrf_failure(request, reason)
