"""Safe defaults (issue 11): DEBUG off unless asked for, strong secrets, security headers,
JSON errors for the API (500s included), no session for a refused or cookie-less
request, throttled logins, no inline script, and a runtime set without test tools.

Settings are read in a fresh interpreter with its own environment, as a server reads them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client

ROOT = Path(settings.BASE_DIR)
PROBE = """
import json
from config import settings as s
print(json.dumps({"debug": s.DEBUG, "hsts": s.SECURE_HSTS_SECONDS, "secret": s.SECRET_KEY,
                  "limits": s.RATE_LIMITS_ON}))
"""
STRONG = "8f14e45fceea167a5a36dedd4bea2543c9f0f895fb98ab9159f51fd0297e236d"
STRONG_TOO = "Zq3v-7LwP0xN_kR2mT9sY4bH1cF6gJ8dA5eU"


def read_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), "VAR_DIR": str(tmp_path), **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def settings_of(tmp_path: Path, **env: str) -> dict[str, Any]:
    result = read_settings(tmp_path, **env)
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


# ---------------------------------------------------------------- settings


def test_debug_is_off_unless_asked_for(tmp_path: Path) -> None:
    assert settings_of(tmp_path, SECRET_KEY=STRONG, DEAL_SECRET=STRONG_TOO)["debug"] is False
    assert settings_of(tmp_path, DEBUG="1")["debug"] is True


def test_weak_secrets_are_refused_with_debug_off(tmp_path: Path) -> None:
    """Reproduction: `SECRET_KEY=x DEAL_SECRET=y` with DEBUG off was accepted."""
    weak = read_settings(tmp_path, DEBUG="0", SECRET_KEY="x", DEAL_SECRET="y")
    assert weak.returncode != 0 and "SECRET_KEY is too weak" in weak.stderr
    for key in ("k" * 50, "changeme-changeme-changeme-changeme", "django-insecure-" + STRONG):
        refused = read_settings(tmp_path, SECRET_KEY=key, DEAL_SECRET=STRONG_TOO)
        assert refused.returncode != 0 and "SECRET_KEY is too weak" in refused.stderr, key
    weak_deal = read_settings(tmp_path, SECRET_KEY=STRONG, DEAL_SECRET="deal-secret")
    assert weak_deal.returncode != 0 and "DEAL_SECRET is too weak" in weak_deal.stderr
    assert settings_of(tmp_path, SECRET_KEY=STRONG, DEAL_SECRET=STRONG_TOO)["secret"] == STRONG
    # Development may use anything.
    assert settings_of(tmp_path, DEBUG="1", SECRET_KEY="x", DEAL_SECRET="y")["secret"] == "x"


def test_make_run_generates_strong_secrets_once(tmp_path: Path) -> None:
    missing = read_settings(tmp_path)
    assert missing.returncode != 0 and "SECRET_KEY must be set" in missing.stderr
    first = settings_of(tmp_path, GENERATE_SECRETS="1")
    assert first["debug"] is False and len(first["secret"]) >= 32
    assert settings_of(tmp_path, GENERATE_SECRETS="1")["secret"] == first["secret"]
    assert (tmp_path / "deal_secret").exists()
    makefile = (ROOT / "Makefile").read_text()
    assert "DEBUG ?= 0" in makefile and "GENERATE_SECRETS=1" in makefile


def test_hsts_is_on_with_https_and_limits_can_be_turned_off(tmp_path: Path) -> None:
    secure = settings_of(tmp_path, SECRET_KEY=STRONG, DEAL_SECRET=STRONG_TOO, HTTPS="1")
    assert secure["hsts"] >= 60 * 60 * 24 * 180
    plain = settings_of(tmp_path, SECRET_KEY=STRONG, DEAL_SECRET=STRONG_TOO)
    assert plain["hsts"] == 0 and plain["limits"] is True
    off = settings_of(tmp_path, SECRET_KEY=STRONG, DEAL_SECRET=STRONG_TOO, RATE_LIMITS="off")
    assert off["limits"] is False


def test_the_runtime_requirements_carry_no_test_or_development_tools() -> None:
    runtime = (ROOT / "requirements.txt").read_text().lower()
    pinned = dict(
        line.split("==", 1) for line in runtime.splitlines() if line and not line.startswith(("#", "-"))
    )
    for tool in ("pytest", "mypy", "ruff", "playwright", "hypothesis", "websockets", "py-spy"):
        assert not any(name.startswith(tool) for name in pinned), tool
    assert all(version.strip() for version in pinned.values())  # every one pinned
    assert "orjson" in pinned and "django" in pinned
    dev = (ROOT / "requirements-dev.txt").read_text().lower()
    assert "-r requirements.txt" in dev and "pytest==" in dev and "pyinstrument==" in dev
    # The served image is the Dockerfile's last stage: no development tools in it (the
    # stage before, which compiles the solver with mypyc, is thrown away).
    served = (ROOT / "Dockerfile").read_text().rsplit("\nFROM ", 1)[1]
    assert "requirements-dev" not in served and "pip install -r requirements.txt" in served
    assert "mypy" not in served and "gcc" not in served


# ---------------------------------------------------------------- headers


@pytest.mark.django_db
def test_pages_send_a_strict_content_security_policy_and_no_framing() -> None:
    response = Client().get("/")
    policy = response["Content-Security-Policy"]
    directives = {part.split()[0]: part.split()[1:] for part in policy.split("; ")}
    assert directives["script-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_hsts_is_sent_over_https(settings: Any) -> None:
    settings.SECURE_HSTS_SECONDS = 31536000
    assert "Strict-Transport-Security" in Client().get("/", secure=True)
    assert "Strict-Transport-Security" not in Client().get("/")


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)


def test_no_template_has_an_inline_script() -> None:
    """The policy allows no inline script, so none may be written: only <script src>
    and JSON data blocks (json_script)."""
    offenders = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text()
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER, re.compile(r"javascript:", re.I)):
            offenders += [f"{template.relative_to(ROOT)}: {m.group(0)}" for m in pattern.finditer(text)]
    assert offenders == []


# ---------------------------------------------------------------- JSON errors


@pytest.mark.django_db
def test_api_errors_are_json_everywhere() -> None:
    client = Client()
    missing = client.get("/api/no-such-thing")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    wrong_method = client.delete("/api/stats")
    assert wrong_method.status_code == 405 and wrong_method.json()["code"] == "method_not_allowed"
    assert "GET" in wrong_method["Allow"]
    page = client.get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


@pytest.mark.django_db
@pytest.mark.urls("explode_urls")
def test_a_500_is_json_under_the_api_and_never_a_debug_page(settings: Any) -> None:
    """Reproduction: with DEBUG on by default, a 500 showed Django's debug page, whose
    frame locals printed engine states in full."""
    client = Client(raise_request_exception=False)
    for url in ("/api/test-explode", "/api/test-explode-async"):
        response = client.get(url)
        assert response.status_code == 500
        assert response.json() == {
            "error": "the server failed to answer this request; the game is unharmed",
            "code": "server_error",
            "data": {},
        }
    # A page's 500 is the site's plain page: DEBUG is off in a served process.
    settings.DEBUG = False
    page = client.get("/test-explode")
    assert page.status_code == 500
    for response in (page, client.get("/api/test-explode")):
        assert b"7S" not in response.content and b"Traceback" not in response.content


# ---------------------------------------------------------------- sessions and logins


@pytest.mark.django_db
def test_no_session_row_for_cookie_less_or_refused_requests() -> None:
    """Reproduction: 200 cookie-less requests made 200 session rows, each kept a year."""
    for _ in range(5):
        for url in ("/", "/races/", "/api/games", "/api/stats", "/api/races", "/how-to-play/klondike/"):
            assert Client().get(url).status_code == 200
        refused = Client().post("/api/games", {"game": "no-such-game"}, content_type="application/json")
        assert refused.status_code == 400
        Client().post("/api/races/999/join", {"token": "x", "name": "Eve"}, content_type="application/json")
        Client().get("/races/999/join/not-a-token/")
    assert Session.objects.count() == 0
    created = Client().post("/api/games", {"game": "klondike"}, content_type="application/json")
    assert created.status_code == 201 and Session.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.usefixtures("limits_on")
def test_logins_are_throttled() -> None:
    """Reproduction: 40 wrong passwords, then the right one, succeeded."""
    User.objects.create_user("ana", password="the-right-password-7")
    client = Client()
    answers = [
        client.post("/accounts/login/", {"username": "ana", "password": f"wrong-{n}"}).status_code
        for n in range(40)
    ]
    assert answers[0] == 200 and answers[-1] == 429
    right = client.post("/accounts/login/", {"username": "ana", "password": "the-right-password-7"})
    assert right.status_code == 429 and int(right["Retry-After"]) >= 1
    assert "_auth_user_id" not in client.session
