"""The health check behind GET /healthz: can this process reach its database and
its channel layer? Knows nothing of games."""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET

TIMEOUT_SECONDS = 3.0
logger = logging.getLogger(__name__)


def _database_answers() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 did not answer 1")


async def _channel_layer_answers() -> None:
    """A message sent to a fresh channel of the layer comes back."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    # The default prefix on purpose: channels_redis lets one coroutine at a time wait on
    # Redis for all of a process's channels that share a prefix, and hands out what it
    # pops. A prefix of our own would queue behind the sockets' waits (up to five
    # seconds each) instead of sharing them, and time out on a busy process.
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "healthz.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "healthz.ping":
        raise RuntimeError("the channel layer returned another message")


async def check_health() -> dict[str, str]:
    """``{"database": "ok" | error, "channel_layer": "ok" | error}``."""
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(sync_to_async(_database_answers)(), TIMEOUT_SECONDS)
        checks["database"] = "ok"
    except Exception as error:
        # The answer is public: the details (hosts, users) go to the log only.
        logger.warning("health check: database failed", exc_info=True)
        checks["database"] = f"error: {type(error).__name__}"
    try:
        await asyncio.wait_for(_channel_layer_answers(), TIMEOUT_SECONDS)
        checks["channel_layer"] = "ok"
    except Exception as error:
        # The answer is public: the details (hosts, users) go to the log only.
        logger.warning("health check: channel_layer failed", exc_info=True)
        checks["channel_layer"] = f"error: {type(error).__name__}"
    return checks


@require_GET
async def healthz(request: HttpRequest) -> HttpResponse:
    """GET /healthz: 200 when the database and the channel layer answer, else 503."""
    checks = await check_health()
    healthy = all(result == "ok" for result in checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503)
