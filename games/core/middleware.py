"""The site's protective layers: JSON errors for the API, security headers, login
throttling (HTTP middleware) and the WebSocket Origin check (ASGI middleware).

- :class:`ApiErrorMiddleware`: every answer under ``/api/`` with status 400 or more is
  JSON ``{"error", "code", "data"}``, 404s, 405s and 500s included, and an unexpected exception
  never shows a page. The pool's and the limits' refusals (``Busy`` 503, ``RateLimited``
  429) become their answer with ``Retry-After``, on any path.
- :class:`SecurityHeadersMiddleware`: a strict Content-Security-Policy (no inline
  script) and the headers Django's SecurityMiddleware does not send.
- :class:`LoginThrottleMiddleware`: too many login attempts from one address or for one
  user name answer 429 before the password is even checked.
- :class:`OriginValidator`: a WebSocket is accepted only when its Origin matches the
  scheme, host and port of the site itself or of a CSRF_TRUSTED_ORIGINS entry.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.http.request import split_domain_port, validate_host

from games.core.limits import RateLimited, check_login
from games.core.workers import WorkerError

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
# The code of an error answer by its status, when the view did not give one.
STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "timeout",
    409: "conflict",
    413: "too_large",
    429: "rate_limited",
    500: "server_error",
    502: "unavailable",
    503: "unavailable",
    504: "timeout",
}
# Headers of the original error answer that its JSON replacement keeps.
KEPT_HEADERS = ("Allow", "Retry-After", "Location", "Vary")

GetResponse = Callable[[HttpRequest], Any]


class _Middleware:
    """A middleware usable in both sync and async stacks (Django's own pattern), so an
    async view is never pushed onto a thread because of it."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        early = self.before(request)
        if early is not None:
            return self.after(request, early)
        return self.after(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        early = self.before(request)
        if early is not None:
            return self.after(request, early)
        return self.after(request, await self.get_response(request))

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        return None

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        return response


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def refusal(request: HttpRequest, error: RateLimited | WorkerError) -> HttpResponse:
    """The answer to a limit's or the pool's refusal: JSON under /api/, plain text elsewhere."""
    message = str(error) or HTTPStatus(error.status).phrase
    response: HttpResponse
    if is_api(request):
        response = JsonResponse(
            {"error": message, "code": error.code, "data": {"retry_after": error.retry_after}},
            status=error.status,
        )
    else:
        response = HttpResponse(message, status=error.status, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(error.retry_after)
    return response


class ApiErrorMiddleware(_Middleware):
    """JSON for every API error, and the answers to Busy and RateLimited everywhere.

    It also refuses (400) a path or query holding a NUL, which no page or API call uses
    and which PostgreSQL cannot store or compare."""

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in request.GET.getlist(key)) for key in request.GET
        ):
            if is_api(request):
                return _json_error(400, "the address holds a NUL character")
            return HttpResponse(
                "the address holds a NUL character", status=400, content_type="text/plain; charset=utf-8"
            )
        return None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RateLimited | WorkerError):
            return refusal(request, exception)
        if is_api(request) and not _is_http_error(exception):
            logger.error(
                "Internal Server Error: %s", request.path, exc_info=(type(exception), exception, None)
            )
            return _json_error(500, "the server failed to answer this request; the game is unharmed")
        return None  # Django's own handling (404, 403, 400 ...), made JSON in after()

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.status_code < 400 or not is_api(request):
            return response
        if str(response.get("Content-Type", "")).startswith("application/json"):
            return response
        replacement = _json_error(response.status_code)
        for header in KEPT_HEADERS:
            if header in response:
                replacement[header] = response[header]
        return replacement


def _is_http_error(exception: Exception) -> bool:
    """The exceptions Django turns into a 4xx answer of its own."""
    from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
    from django.http import Http404
    from django.http.multipartparser import MultiPartParserError

    return isinstance(
        exception, Http404 | PermissionDenied | BadRequest | SuspiciousOperation | MultiPartParserError
    )


def _json_error(status: int, message: str | None = None) -> JsonResponse:
    """``{"error", "code", "data"}``, the shape of every error answer (games.core.errors)."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "error"
    return JsonResponse(
        {"error": message or phrase.lower(), "code": STATUS_CODES.get(status, "error"), "data": {}},
        status=status,
    )


class SecurityHeadersMiddleware(_Middleware):
    """Content-Security-Policy (settings.CONTENT_SECURITY_POLICY) and friends."""

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", "")
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        if "Cross-Origin-Resource-Policy" not in response:
            response["Cross-Origin-Resource-Policy"] = "same-origin"
        if "Permissions-Policy" not in response:
            response["Permissions-Policy"] = "camera=(), microphone=(), geolocation=(), payment=()"
        if is_api(request) and "Cache-Control" not in response:
            response["Cache-Control"] = "no-store"
        return response


class NoSessionForRefusalsMiddleware(_Middleware):
    """A request that came without a session and was refused (status 400 or more) does not
    get one: sessions are created only when a game or race is (issue 11). Without this, a
    view that gives the caller a player token before the service refuses the request
    would leave a session row (kept a year) per refused request. Sits just inside
    SessionMiddleware, which saves the session on the way out."""

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        session = getattr(request, "session", None)
        if response.status_code >= 400 and session is not None and session.session_key is None:
            session.modified = False
        return response


class LoginThrottleMiddleware(_Middleware):
    """429 for a login POST over the login limits (games.core.limits.check_login)."""

    LOGIN_PATHS = ("/accounts/login/", "/admin/login/")

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        if request.method != "POST" or request.path not in self.paths():
            return None
        try:
            check_login(request)
        except RateLimited as error:
            return refusal(request, error)
        return None

    def paths(self) -> tuple[str, ...]:
        login_url = str(getattr(settings, "LOGIN_URL", ""))
        return (*self.LOGIN_PATHS, login_url) if login_url.startswith("/") else self.LOGIN_PATHS


# ---------------------------------------------------------------- WebSocket origins

Origin = tuple[str, str, int]
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(text: str) -> Origin | None:
    """``("https", "cards.example", 443)`` for ``https://cards.example``; None for
    anything that is not a plain http(s) origin."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.username or parts.password or parts.query or parts.fragment:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return found


def own_origin(scope: dict[str, Any], headers: dict[str, str], origin: Origin) -> Origin | None:
    """The origin the socket was opened on: its scheme (wss, or ws behind a TLS proxy that
    says https) and its Host header, which must be one of ALLOWED_HOSTS."""
    secure = scope.get("scheme") in ("wss", "https")
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header and headers.get("x-forwarded-proto", "").lower() == "https":
        secure = True
    scheme = "https" if secure else "http"
    host_header = headers.get("host")
    allowed = list(getattr(settings, "ALLOWED_HOSTS", []))
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    if host_header is None:
        # Every browser and HTTP/1.1 client sends Host; only in-process test clients
        # leave it out. Then the site is taken to be the origin's host, if allowed, on
        # the default port of the socket's own scheme.
        host, port = origin[1], DEFAULT_PORTS[scheme]
        return (scheme, host, port) if validate_host(host, allowed) else None
    domain, port_text = split_domain_port(host_header)
    if not domain or not validate_host(domain, allowed):
        return None
    try:
        port = int(port_text) if port_text else DEFAULT_PORTS[scheme]
    except ValueError:
        return None
    return scheme, domain.strip("[]").lower(), port


def trusted_origins() -> list[str]:
    return list(getattr(settings, "CSRF_TRUSTED_ORIGINS", []))


def _matches_trusted(origin: Origin, trusted: str) -> bool:
    """Exact scheme, host and port; ``https://*.example.com`` allows subdomains, as CSRF does."""
    wildcard = "://*." in trusted
    pattern = parse_origin(trusted.replace("://*.", "://", 1) if wildcard else trusted)
    if pattern is None:
        return False
    scheme, host, port = pattern
    if (origin[0], origin[2]) != (scheme, port):
        return False
    return origin[1].endswith("." + host) if wildcard else origin[1] == host


def origin_allowed(scope: dict[str, Any]) -> bool:
    headers = _headers(scope)
    raw = headers.get("origin")
    if raw is None:
        return False
    origin = parse_origin(raw)
    if origin is None:
        return False
    if origin == own_origin(scope, headers, origin):
        return True
    return any(_matches_trusted(origin, trusted) for trusted in trusted_origins())


class OriginValidator:
    """ASGI middleware: refuse (HTTP 403 at the handshake) a WebSocket whose Origin is not
    the site's own scheme, host and port, nor a CSRF_TRUSTED_ORIGINS entry. In place of
    Channels' AllowedHostsOriginValidator, which compares host names only."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            logger.info("websocket refused: origin %r", _headers(scope).get("origin"))
            denier = WebsocketDenier()
            return await denier(scope, receive, send)  # type: ignore[arg-type]
        return await self.application(scope, receive, send)
