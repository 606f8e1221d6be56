"""One browser's HTTP side, as the site expects it: a session cookie and Django's CSRF.

A Browser GETs once to receive the ``csrftoken`` cookie, then POSTs JSON with the token
in ``X-CSRFToken``; its cookies are handed to the WebSocket clients. Blocking (urllib):
the bench uses it before and after the timed part, never inside it.
"""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from typing import Any


class HttpError(RuntimeError):
    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"HTTP {status}: {body[:300]}")
        self.status = status


class Browser:
    """A cookie jar and the JSON API of one server."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Accept": "application/json"}
        data = None
        if method != "GET":
            if self.cookie("csrftoken") is None:
                self.request("GET", "/api/games")
            headers["X-CSRFToken"] = self.cookie("csrftoken") or ""
            headers["Content-Type"] = "application/json"
            headers["Referer"] = self.base_url + "/"
            data = json.dumps(body or {}).encode()
        asked = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with self.opener.open(asked, timeout=30) as answer:
                return json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            raise HttpError(error.code, error.read().decode("utf-8", "replace")) from None

    # ------------------------------------------------------------ the site's API

    def new_game(self, game: str = "klondike", **options: Any) -> dict[str, Any]:
        result: dict[str, Any] = self.request("POST", "/api/games", {"game": game, "options": options})
        return result

    def game(self, game_id: int) -> dict[str, Any]:
        result: dict[str, Any] = self.request("GET", f"/api/games/{game_id}")
        return result

    def new_race(self, name: str, **options: Any) -> dict[str, Any]:
        result: dict[str, Any] = self.request("POST", "/api/races", {"name": name, "options": options})
        return result

    def new_bot_race(self, name: str, level: str, **options: Any) -> dict[str, Any]:
        """A race against the computer (issue 13): this browser in seat 1, the bot in seat 2."""
        result: dict[str, Any] = self.request(
            "POST",
            "/api/races",
            {"name": name, "options": options, "opponent": "computer", "level": level},
        )
        return result

    def hint_status(self, game_id: int) -> int:
        """GET the game's hint; the HTTP status (200, or 503 when the worker pool is busy)."""
        try:
            self.request("GET", f"/api/games/{game_id}/hint")
        except HttpError as error:
            return error.status
        return 200

    def join_race(self, race_id: int, token: str, name: str) -> dict[str, Any]:
        result: dict[str, Any] = self.request(
            "POST", f"/api/races/{race_id}/join", {"token": token, "name": name}
        )
        return result

    def race(self, race_id: int) -> dict[str, Any]:
        result: dict[str, Any] = self.request("GET", f"/api/races/{race_id}")
        return result

    def race_replay(self, race_id: int) -> dict[str, Any]:
        result: dict[str, Any] = self.request("GET", f"/api/races/{race_id}/replay")
        return result
