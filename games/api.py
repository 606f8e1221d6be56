"""The JSON API: thin views that decode a request, call one service, answer JSON.

They use the session cookie and Django's CSRF protection (send X-CSRFToken from the
csrftoken cookie). A ServiceError becomes ``{"error", "code"}`` with its HTTP status.
These views know nothing of the rules; games.services decides everything.

The views that run the solver (a winnable deal, "was this winnable?") are async: a
search takes seconds of CPU, and Django runs sync views one at a time on one shared
thread, where it would hold up every other request and socket of the process. Their
database steps go to that thread; the search goes to a thread of its own.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from asgiref.sync import sync_to_async
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
    """Turn a ServiceError raised by ``view`` (sync or async) into its JSON error answer."""

    if inspect.iscoroutinefunction(view):

        @wraps(view)
        async def awaited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                return await view(request, *args, **kwargs)
            except ServiceError as error:
                return _error(error)

        return awaited

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ServiceError as error:
            return _error(error)

    return wrapped


def _error(error: ServiceError) -> JsonResponse:
    return JsonResponse({"error": error.message, "code": error.code, **error.data}, status=error.status)


def _in_own_thread(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (CPU work, no database) awaited in a worker thread of its own."""
    return sync_to_async(function, thread_sensitive=False)


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
async def games(request: HttpRequest) -> HttpResponse:
    """GET: the caller's games, newest first. POST: deal a new game (async only for
    ``"winnable": true``, whose search must not hold up the shared thread)."""
    if request.method == "GET":
        return await sync_to_async(_list_games)(request)
    body = _body(request)
    wanted = body.get("winnable", False)
    if not isinstance(wanted, bool):
        raise BadRequest("winnable must be true or false")
    if not wanted:
        return await sync_to_async(_create_game)(request, body)
    if body.get("deal") is not None:
        raise BadRequest("a deal number cannot be asked for together with a winnable deal", "bad_deal")
    game, options = body.get("game"), body.get("options") if body.get("options") is not None else {}
    actor = await sync_to_async(actor_for_request)(request, create=True)
    if actor.is_nobody:
        raise BadRequest("there is no session to keep the game in", "no_session")
    found = await _in_own_thread(services.find_winnable_deal)(game, options)
    snapshot = await sync_to_async(services.create_game)(
        actor, found.game, found.options, found.number, verdict=found.verdict
    )
    return _created(snapshot)


def _list_games(request: HttpRequest) -> HttpResponse:
    listed = services.list_games_for(actor_for_request(request))
    return JsonResponse({"games": [services.game_summary(game) for game in listed]})


def _create_game(request: HttpRequest, body: dict[str, Any]) -> HttpResponse:
    snapshot = services.create_game(
        actor_for_request(request, create=True),
        body.get("game"),  # type: ignore[arg-type]  # the service checks it
        body.get("options") if body.get("options") is not None else {},
        body.get("deal"),
    )
    return _created(snapshot)


def _created(snapshot: Snapshot) -> HttpResponse:
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
@answers_json
async def winnable(request: HttpRequest, game_id: int) -> HttpResponse:
    """Was this (finished) game winnable from its deal? ``?views=1`` adds the views of
    the winning line, for watching it."""
    views = request.GET.get("views", "") in ("1", "true", "yes")
    actor = await sync_to_async(actor_for_request)(request)
    deal = await sync_to_async(services.finished_deal_for)(actor, game_id)
    verdict = await _in_own_thread(services.judge_deal)(deal)
    await sync_to_async(services.keep_verdict)(deal, verdict)
    return JsonResponse(await _in_own_thread(services.verdict_payload)(deal, verdict, views))


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
