"""What every JSON view shares: reading the body, turning a ServiceError into its
answer, running CPU work in a thread of its own, and CSRF refusals as JSON.

The views use the session cookie and Django's CSRF protection (send X-CSRFToken from
the csrftoken cookie). An error answers ``{"error", "code", "data"}`` with the error's
HTTP status. Knows nothing of games.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import wraps
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.csrf import csrf_failure as default_csrf_failure

from games.core.errors import BadRequest, ServiceError
from games.core.limits import BadInput, strict_loads

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
                return error_response(error)

        return awaited

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ServiceError as error:
            return error_response(error)

    return wrapped


def error_response(error: ServiceError) -> JsonResponse:
    return JsonResponse(error.as_dict(), status=error.status)


def in_own_thread(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (CPU work, no database) awaited in a worker thread of its own."""
    return sync_to_async(function, thread_sensitive=False)


def json_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object; an empty body is an empty object.

    :raises BadRequest: for a body that is too long, not JSON, or not an object; or
        strict JSON's refusals (games.core.limits.strict_loads): over-deep nesting, a
        NUL or lone surrogate, an over-long string.
    """
    if len(request.body) > MAX_BODY_BYTES:
        raise BadRequest(f"the request body is over {MAX_BODY_BYTES} bytes")
    if not request.body.strip():
        return {}
    try:
        data = strict_loads(request.body)
    except BadInput as error:
        raise BadRequest(f"the request body was refused: {error}") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF refusals: JSON for the API, Django's usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "error": "the CSRF check failed: send the csrftoken cookie's value as X-CSRFToken",
                "code": "csrf",
                "data": {},
            },
            status=403,
        )
    return default_csrf_failure(request, reason)
