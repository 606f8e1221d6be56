"""A visitor alone races from the home page: against the computer (to the result and the
rating change), and against a stranger found through the seek pool (a second browser
context). Real Daphne on a fresh SQLite database, Debian's Chromium via Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 20_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("alone")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{home / 'db.sqlite3'}",
        "DEBUG": "1",
        "VAR_DIR": str(home),
        "DEAL_SECRET": "alone-deal-secret-not-for-production-0123456789",
        "SECRET_KEY": "alone-secret-key-not-for-production-0123456789abcdef",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "RATE_LIMITS": "off",
    }
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    log = (home / "daphne.log").open("wb")
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        yield launched
        launched.close()


def test_a_visitor_races_the_computer_from_the_home_page(site: str, browser: Browser) -> None:
    context = browser.new_context(base_url=site, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    page.fill("#race-name", "Ana")
    page.select_option("#race-level", "easy")
    page.click("#race-create button[value=computer]")
    page.wait_for_url("**/races/*/")
    expect(page.locator('#waiting .seat[data-seat="2"] .name')).to_contain_text("Computer (Easy)")
    page.click("#ready")
    expect(page.locator("#race")).to_have_attribute("data-status", "playing")
    # The computer plays: its moves reach this page like any opponent's.
    for _ in range(600):  # the page's CSP forbids eval, so poll from here
        if page.evaluate("window.patience.race.moves_made") >= 3:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.patience.race.moves_made") >= 3
    page.click("#resign")
    page.locator("dialog.confirm-dialog").get_by_role("button", name="Resign").click()
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-title")).to_have_text("Computer (Easy) won")
    # The result counts: the rating went down from the provisional 1500, and the dialog
    # says by how much.
    rating = page.evaluate("fetch('/api/ratings/me').then(r => r.json())")
    assert rating["rating"] < 1500 and rating["recent"][0]["opponent"] == "Computer (Easy)"
    change = rating["recent"][0]["change"]
    assert change < 0
    line = page.locator("#rating-line")
    expect(line).to_be_visible()
    minus = "\N{MINUS SIGN}"
    expect(line).to_have_text(f"Your rating: 1500 → {rating['rating']} ({minus}{-change}), provisional.")
    race_url = page.url
    # The results page, linked from the dialog: the rating and the race, with its replay.
    page.click("#results-link")
    page.wait_for_url("**/races/results/")
    expect(page.locator("#my-rating .rating-value")).to_have_text(str(rating["rating"]))
    row = page.locator(".race-result-row").first
    expect(row).to_contain_text("Computer (Easy)")
    expect(row).to_contain_text("lost")
    expect(row).to_contain_text(f"1500 → {rating['rating']} ({change})")
    row.get_by_role("link", name="Replay").click()
    page.wait_for_url(race_url + "replay/")
    expect(page.locator("#replay-p2 .name")).to_contain_text("Computer (Easy)")
    assert not errors, errors
    context.close()


def test_two_strangers_find_each_other(site: str, browser: Browser) -> None:
    pages = []
    contexts = []
    for name in ("Ana", "Ben"):
        context = browser.new_context(base_url=site, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.goto("/")
        page.fill("#race-name", name)
        page.click("#race-create button[value=seek]")
        pages.append(page)
    for page in pages:
        page.wait_for_url("**/races/*/")
    assert pages[0].url == pages[1].url
    for page in pages:
        expect(page.locator('#waiting .seat[data-seat="1"] .name')).to_contain_text("Ana")
        expect(page.locator('#waiting .seat[data-seat="2"] .name')).to_contain_text("Ben")
    for context in contexts:
        context.close()
