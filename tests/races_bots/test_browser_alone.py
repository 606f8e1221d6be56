"""A visitor alone races from the home page: against the computer (to the result and the
rating change), and against a stranger found through the seek pool (a second browser
context). Real Daphne on a fresh SQLite database, Debian's Chromium via Playwright."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.e2e.browser_support import open_home

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
        # The computer thinks a hundred times faster than its human pace (docs/bots.md).
        "BOT_THINK_SCALE": "0.01",
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


LEVELS = [("easy", "Easy"), ("steady", "Steady"), ("sharp", "Sharp")]
# A whole race of the computer's moves, at a hundredth of its pace, on a loaded machine:
# generous, since the test waits on the race's state and never sleeps.
RACE_END_MS = 300_000


def shown_rating(page: Page) -> int:
    """The rating the results page shows, reached from the home page's link."""
    open_home(page)
    page.click("#race-results-link")
    page.wait_for_url("**/races/results/")
    return int(page.locator("#my-rating .rating-value").inner_text())


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("level", "title"), LEVELS, ids=[level for level, _ in LEVELS])
def test_a_visitor_races_each_computer_level_to_the_end_and_sees_the_rating_change(
    site: str, browser: Browser, level: str, title: str
) -> None:
    computer = f"Computer ({title})"
    context = browser.new_context(base_url=site, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A new visitor starts at the provisional 1500.
    assert shown_rating(page) == 1500
    open_home(page)
    page.fill("#race-name", "Ana")
    page.select_option("#race-level", level)
    page.click("#race-create button[value=computer]")
    page.wait_for_url("**/races/*/")
    expect(page.locator('#waiting .seat[data-seat="2"] .name')).to_contain_text(computer)
    page.click("#ready")
    expect(page.locator("#race")).to_have_attribute("data-status", "playing", timeout=RACE_END_MS)
    # The visitor draws from the stock once; after that the computer plays on alone.
    page.locator('.card[data-pile="p1.stock"]').last.click()
    expect(page.locator('.card[data-pile="p1.waste"]')).not_to_have_count(0)
    # The race ends by its rules: the computer sends every card up (it wins), or it runs
    # out of useful moves and offers to stop, and the visitor agrees (scored by cards on
    # the foundations).
    agree = page.locator("#agree-end")
    result = page.locator("#result")
    expect(agree.or_(result).filter(visible=True).first).to_be_visible(timeout=RACE_END_MS)
    if agree.is_visible():
        expect(page.locator("#race-banner")).to_contain_text(f"{computer} offers to stop")
        agree.click()
    expect(result).to_be_visible(timeout=RACE_END_MS)
    race = page.evaluate("window.patience.race")
    outcome = race["result"]
    assert outcome["reason"] in ("agreed", "finished"), outcome
    headline = {None: "A draw!", 1: "You won!", 2: f"{computer} won"}[outcome["winner"]]
    expect(page.locator("#result-title")).to_have_text(headline)
    expect(page.locator("#result .score-2 dd")).to_have_text(str(outcome["contributions"]["2"]))
    # The result counts: the dialog shows the rating change, as the server keeps it.
    mine = race["ratings"]["1"]
    assert mine["before"] == 1500 and mine["change"] == mine["after"] - mine["before"], mine
    # It moves, unless the race was drawn against a level rated like a new player (Steady,
    # 1500: Glicko-2 leaves an expected result where it is). With the visitor idle a draw
    # means the computer sent no card up: Easy, which overlooks most moves, sometimes does.
    level_rating = race["ratings"]["2"]["after"]
    if outcome["winner"] is not None or level_rating != 1500:
        assert mine["after"] != 1500, mine
    sign = "+" if mine["change"] > 0 else "\N{MINUS SIGN}" if mine["change"] < 0 else "±"
    expect(page.locator("#rating-line")).to_have_text(
        f"Your rating: 1500 → {mine['after']} ({sign}{abs(mine['change'])}), provisional."
    )
    race_url = page.url
    # The results page, linked from the dialog: the new rating and the race, with its replay.
    page.click("#results-link")
    page.wait_for_url("**/races/results/")
    expect(page.locator("#my-rating .rating-value")).to_have_text(str(mine["after"]))
    row = page.locator(".race-result-row").first
    expect(row).to_contain_text(computer)
    expect(row).to_contain_text({None: "drawn", 1: "won", 2: "lost"}[outcome["winner"]])
    expect(row).to_contain_text(f"1500 → {mine['after']}")
    row.get_by_role("link", name="Replay").click()
    page.wait_for_url(race_url + "replay/")
    expect(page.locator("#replay-p2 .name")).to_contain_text(computer)
    # And the home page's link now leads to the rating after the race.
    assert shown_rating(page) == mine["after"]
    assert not errors, errors
    context.close()


def test_two_strangers_find_each_other_and_start_the_same_race(site: str, browser: Browser) -> None:
    pages = []
    contexts = []
    for name in ("Ana", "Ben"):
        context = browser.new_context(base_url=site, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        open_home(page)
        page.fill("#race-name", name)
        page.click("#race-create button[value=seek]")
        pages.append(page)
    for page in pages:
        page.wait_for_url("**/races/*/")
    assert pages[0].url == pages[1].url
    for page in pages:
        expect(page.locator('#waiting .seat[data-seat="1"] .name')).to_contain_text("Ana")
        expect(page.locator('#waiting .seat[data-seat="2"] .name')).to_contain_text("Ben")
    # A matched race starts like an invited one: both press Ready, and both see the
    # countdown of the same race (or, on a slow machine, its start).
    for page in pages:
        page.click("#ready")
    for page, seat in zip(pages, (1, 2), strict=True):
        expect(page.locator("#race")).to_have_attribute("data-status", re.compile("^(countdown|playing)$"))
        assert page.evaluate("window.patience.race.seat") == seat
    race_ids = [page.evaluate("window.patience.race.id") for page in pages]
    assert race_ids[0] == race_ids[1]
    for page in pages:
        expect(page.locator("#race")).to_have_attribute("data-status", "playing")
    for context in contexts:
        context.close()
