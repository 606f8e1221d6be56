"""The single-player JSON API: thin views that decode a request, call one service and
answer JSON. Errors answer ``{"error", "code", "data"}`` with their HTTP status.

The views that run the solver (a winnable deal, "was this winnable?") are async: a
search takes seconds of CPU, and Django runs sync views one at a time on one shared
thread, where it would hold up every other request and socket of the process. Their
database steps go to that thread; the search goes to a thread of its own.
"""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.core import limits, workers
from games.core.actors import actor_for_request
from games.core.errors import BadRequest
from games.core.http import answers_json, in_own_thread, json_body
from games.solo import deals, play, stats, verdicts
from games.solo.actions import parse_change
from games.solo.payloads import Snapshot, game_payload, game_summary


def _game(snapshot: Snapshot, status: int = 200) -> JsonResponse:
    return JsonResponse(game_payload(snapshot), status=status)


@require_http_methods(["GET", "POST"])
@ensure_csrf_cookie
@answers_json
async def games(request: HttpRequest) -> HttpResponse:
    """GET ``?page=n``: one page of the caller's games, newest first. POST: deal a new
    game (async only for ``"winnable": true``, whose search must not hold up the shared
    thread)."""
    if request.method == "GET":
        return await sync_to_async(_list_games)(request)
    await limits.acheck(request, "create_game", "new game")
    body = json_body(request)
    wanted = body.get("winnable", False)
    if not isinstance(wanted, bool):
        raise BadRequest("winnable must be true or false")
    if not wanted:
        return await sync_to_async(_create_game)(request, body)
    if body.get("deal") is not None:
        raise BadRequest("a deal number cannot be asked for together with a winnable deal", "bad_deal")
    await limits.acheck(request, "winnable", "winnable deal")
    actor = await sync_to_async(actor_for_request)(request, create=True)
    if actor.is_nobody:
        raise BadRequest("there is no session to keep the game in", "no_session")
    found = await in_own_thread(deals.find_winnable_deal)(body.get("game"), body.get("options"))
    snapshot = await sync_to_async(play.create_game)(
        actor, found.game, found.options, found.number, verdict=found.verdict
    )
    return _created(snapshot)


def _list_games(request: HttpRequest) -> HttpResponse:
    listed = play.list_games_for(actor_for_request(request), _whole_number(request.GET.get("page", "1")))
    return JsonResponse(
        {"games": [game_summary(game) for game in listed.games], "page": listed.page, "next": listed.next}
    )


def _whole_number(text: str) -> int | str:
    return int(text) if text.isdigit() and len(text) < 10 else text


def _create_game(request: HttpRequest, body: dict[str, Any]) -> HttpResponse:
    snapshot = play.create_game(
        actor_for_request(request, create=True), body.get("game"), body.get("options"), body.get("deal")
    )
    return _created(snapshot)


def _created(snapshot: Snapshot) -> HttpResponse:
    response = _game(snapshot, status=201)
    response["Location"] = f"/api/games/{snapshot.game.pk}"
    return response


@require_http_methods(["GET", "DELETE"])
@ensure_csrf_cookie
@answers_json
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: the game. DELETE: delete it with its log (204)."""
    actor = actor_for_request(request)
    if request.method == "DELETE":
        play.delete_game(actor, game_id)
        return HttpResponse(status=204)
    return _game(play.get_game_for(actor, game_id))


def _change(request: HttpRequest, game_id: int, kind: str) -> HttpResponse:
    limits.check(request, "http_move", "move")
    body = json_body(request)
    change = parse_change(kind, body.get("move"), body.get("id"), body.get("version"))
    return _game(play.apply_change(actor_for_request(request), game_id, change))


@require_POST
@answers_json
def moves(request: HttpRequest, game_id: int) -> HttpResponse:
    """Body ``{"move": {"from", "to", "count"?, "cards"?}, "id"?, "version"?}``."""
    return _change(request, game_id, "move")


@require_POST
@answers_json
def undo(request: HttpRequest, game_id: int) -> HttpResponse:
    """Body optional: ``{"id"?, "version"?}``."""
    return _change(request, game_id, "undo")


@require_POST
@answers_json
def redo(request: HttpRequest, game_id: int) -> HttpResponse:
    """Body optional: ``{"id"?, "version"?}``."""
    return _change(request, game_id, "redo")


@require_POST
@answers_json
def autofinish(request: HttpRequest, game_id: int) -> HttpResponse:
    """Body optional: ``{"id"?, "version"?}``."""
    return _change(request, game_id, "autofinish")


@require_POST
@answers_json
def abandon(request: HttpRequest, game_id: int) -> HttpResponse:
    """Give the game up (it counts as lost). Body optional."""
    json_body(request)
    return _game(play.abandon(actor_for_request(request), game_id))


@require_GET
@answers_json
async def hint(request: HttpRequest, game_id: int) -> HttpResponse:
    """``{"move", "lost", "reason"}``. The hint runs in the worker pool (503 ``busy``
    when it is full), awaited: the database steps take the shared thread, building the
    player's memory takes a thread of its own, and the hint's CPU the pool. A lost
    answer ends the game as lost first."""
    await limits.acheck(request, "hint")
    actor = await sync_to_async(actor_for_request)(request)
    found = await sync_to_async(verdicts.hint_line_for)(actor, game_id)
    job = None if found is None else await in_own_thread(verdicts.hint_job)(*found)
    advice = (
        None
        if job is None
        else await workers.run(workers.advise, *job.arguments(), cpu_seconds=workers.HINT_CPU_SECONDS)
    )
    return JsonResponse(await sync_to_async(verdicts.hint_answer)(actor, job, advice))


@require_GET
@answers_json
async def winnable(request: HttpRequest, game_id: int) -> HttpResponse:
    """Was this (finished) game winnable from its deal? ``?views=1`` adds the views of
    the winning line, for watching it. Asking settles a lost game for good (see
    verdicts.finished_deal_for), so the line cannot be played back into a win."""
    await limits.acheck(request, "winnable", "was this winnable")
    views = request.GET.get("views", "") in ("1", "true", "yes")
    actor = await sync_to_async(actor_for_request)(request)
    deal = await sync_to_async(verdicts.finished_deal_for)(actor, game_id)
    verdict = await in_own_thread(verdicts.judge_deal)(deal)
    await sync_to_async(verdicts.keep_verdict)(deal, verdict)
    return JsonResponse(await in_own_thread(verdicts.verdict_payload)(deal, verdict, views))


@require_GET
@ensure_csrf_cookie
def stats_view(request: HttpRequest) -> HttpResponse:
    return JsonResponse(stats.statistics_for(actor_for_request(request)))


@require_GET
@ensure_csrf_cookie
@answers_json
def daily(request: HttpRequest) -> HttpResponse:
    """``?game=klondike&draw=1`` (or ``&options={"draw": 1}``): today's deal number of
    that game and options, the same for everyone, with today's results."""
    daily_deal = deals.daily_deal(request.GET.get("game"), _query_options(request), timezone.now().date())
    return JsonResponse(
        {**daily_deal.to_dict(), **stats.daily_results(daily_deal, actor_for_request(request))}
    )


def _query_options(request: HttpRequest) -> dict[str, Any]:
    """Options from the query: ``options`` as JSON, or each other parameter, read as a
    whole number or true/false where it looks like one."""
    if "options" in request.GET:
        try:
            options = json.loads(request.GET["options"])
        except (ValueError, RecursionError):
            raise BadRequest("options must be a JSON object", "bad_options") from None
        if not isinstance(options, dict):
            raise BadRequest("options must be a JSON object", "bad_options")
        return options
    read: dict[str, Any] = {}
    for name, value in request.GET.items():
        if name == "game":
            continue
        if value in ("true", "false"):
            read[name] = value == "true"
        elif value.isdigit() and len(value) < 10:
            read[name] = int(value)
        else:
            read[name] = value
    return read
