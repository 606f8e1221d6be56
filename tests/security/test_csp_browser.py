"""The site works under its own Content-Security-Policy in a real browser: Debian's
Chromium through Playwright, on a real Daphne, with the policy enforced (no bypass).

Any CSP violation (an inline script, an eval, a style attribute, a socket to another
origin) shows as a console message or a page error, and fails the test."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from server import Server, serve

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serve() as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    context = browser.new_context(base_url=server.url)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.on(
        "console",
        lambda message: (
            problems.append(f"console: {message.text}")
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    yield opened
    context.close()
    assert problems == []


def test_every_page_renders_under_the_policy(page: Page) -> None:
    for path in ("/", "/races/", "/how-to-play/klondike/", "/how-to-play/double/", "/accounts/login/"):
        response = page.goto(path)
        assert response is not None and response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("load")


def test_a_game_page_opens_its_socket_under_the_policy(page: Page) -> None:
    page.goto("/")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    answer = page.request.post(
        "/api/games",
        data=json.dumps({"game": "klondike"}),
        headers={"X-CSRFToken": token, "Content-Type": "application/json"},
    )
    assert answer.status == 201
    game = answer.json()
    with page.expect_websocket() as opened:
        page.goto(f"/play/{game['id']}/")
    socket = opened.value
    frame = socket.wait_for_event("framereceived", timeout=30_000)
    assert json.loads(frame)["type"] == "state"
    page.wait_for_load_state("load")
