"""A Double Solitaire race between two real browsers (two Chromium contexts, so two
sessions) on a real Daphne server: create, invite, join, ready, the 3-2-1, moves made
by drag, double-click, click and keyboard seen live on the other screen, resign, and
the result on both screens.

The race starts from a small known position so the moves are known in advance. The
position is set through games.races.lobby.use_start_position before anyone is ready, in
the server's own database; every move then goes through the page, the socket and the
server like any other.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

ROOT = Path(__file__).resolve().parents[2]
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

pytestmark = pytest.mark.timeout(180)


def run(suit: str, top: str, owner: int) -> list[str]:
    return [f"{rank}{suit}:{owner}" for rank in RANKS[: RANKS.index(top) + 1]]


# Both seats alike, seven cards from home: QD over a face-down KC, QC, JC, and KD, KH,
# KS in the stock. Clubs stand at 10 on f1 and f2.
POSITION: dict[str, Any] = {
    "f1": run("C", "10", 1),
    "f2": run("C", "10", 2),
    "f3": run("D", "J", 1),
    "f4": run("D", "J", 2),
    "f5": run("H", "Q", 1),
    "f6": run("H", "Q", 2),
    "f7": run("S", "Q", 1),
    "f8": run("S", "Q", 2),
    **{
        pile: cards
        for seat in (1, 2)
        for pile, cards in {
            f"p{seat}.t1": ["kc", "QD"],
            f"p{seat}.t2": ["QC"],
            f"p{seat}.t3": ["JC"],
            f"p{seat}.stock": ["kd", "kh", "ks"],
        }.items()
    },
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A real Daphne on a fresh database of its own: the race tests set a starting
    position in the server's database, so they need to know where it is. (The browser
    is conftest.py's.)"""
    env = {
        **os.environ,
        "VAR_DIR": str(tmp_path_factory.mktemp("race-var")),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    daphne = Path(python).with_name("daphne")
    process = subprocess.Popen(
        [str(daphne), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("Daphne did not start") from None
            time.sleep(0.1)
    yield {"url": f"http://127.0.0.1:{port}", "env": env}
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def set_start_position(server: dict[str, Any], race_id: int) -> None:
    code = (
        "import django, json, sys; django.setup(); "
        "from games.races import lobby; "
        "lobby.use_start_position(int(sys.argv[1]), json.loads(sys.argv[2]))"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(race_id), json.dumps(POSITION)],
        cwd=ROOT,
        env=server["env"],
        check=True,
    )


def card(page: Page, pile: str, text: str) -> Any:
    """The card element showing ``text`` on ``pile``."""
    return page.locator(f'.card[data-pile="{pile}"][data-card="{text}"]')


def drag(page: Page, source: Any, target: Any) -> None:
    start = source.bounding_box()
    end = target.bounding_box()
    assert start and end
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + 12)
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2 + 10, start["y"] + 30, steps=4)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
    page.mouse.up()


def test_two_friends_race_from_the_home_page_to_the_result(server: dict[str, Any], browser: Browser) -> None:
    base = server["url"]
    ana_context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    ben_context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    ana, ben = ana_context.new_page(), ben_context.new_page()
    errors: list[str] = []
    for page in (ana, ben):
        page.on("pageerror", lambda error: errors.append(str(error)))

    # Create: Ana names herself on the home page and gets an invite link.
    ana.goto(base + "/")
    ana.fill("#race-name", "Ana")
    ana.click("#race-create button[type=submit]")
    ana.wait_for_url("**/races/*/")
    expect(ana.locator("#waiting")).to_be_visible()
    invite = ana.input_value("#invite-link")
    assert "/join/" in invite
    race_id = int(ana.evaluate("window.patience.race.id"))

    # Join: Ben opens the link, sees Ana waiting, and takes the second seat.
    ben.goto(invite)
    expect(ben.locator('#waiting .seat[data-seat="1"] .name')).to_have_text("Ana")
    ben.fill("#join-name", "Ben")
    ben.click("#join button[type=submit]")
    expect(ben.locator('#waiting .seat[data-seat="2"] .name')).to_have_text("Ben (you)")
    expect(ana.locator('#waiting .seat[data-seat="2"] .name')).to_have_text("Ben")
    set_start_position(server, race_id)

    # Ready, and the 3-2-1 on both screens.
    ana.click("#ready")
    expect(ben.locator('#waiting .seat[data-seat="1"] .state')).to_have_text("Ready")
    ben.click("#ready")
    for page in (ana, ben):
        expect(page.locator("#countdown")).to_be_visible()
        expect(page.locator("#countdown span")).to_have_text(re.compile(r"^(3|2|1|Go!)$"))
    for page in (ana, ben):
        expect(page.locator("#race")).to_have_attribute("data-status", "playing", timeout=10_000)
    expect(card(ana, "p1.t3", "JC")).to_have_count(1)

    # Ana drags her JC onto her QD; Ben sees it arrive on Ana's (small) layout.
    drag(ana, card(ana, "p1.t3", "JC"), card(ana, "p1.t1", "QD"))
    expect(card(ben, "p1.t1", "JC")).to_have_count(1)
    expect(ben.locator('.card[data-pile="p1.t3"]')).to_have_count(0)

    # A double-click sends it on to the clubs foundation; Ana's count goes up on Ben's screen.
    card(ana, "p1.t1", "JC").dblclick()
    expect(ben.locator('.card[data-pile^="f"][data-card="JC:1"]')).to_have_count(1)
    expect(ben.locator("#player-them .count")).to_have_text("46")
    expect(ana.locator("#player-me .count")).to_have_text("46")

    # A click on her stock draws three; Ben's keyboard draws his.
    ana.locator('.card[data-pile="p1.stock"]').last.click()
    expect(ben.locator('.card[data-pile="p1.waste"]')).to_have_count(3)
    ben.locator('.pile[data-pile="p2.t1"]').focus()
    ben.keyboard.press("d")
    expect(ana.locator('.card[data-pile="p2.waste"]')).to_have_count(3)

    # A card of the other player cannot be picked up: Ben's JC stays where it is.
    drag(ana, card(ana, "p2.t3", "JC"), ana.locator('.pile[data-pile="f2"]'))
    ana.wait_for_timeout(500)
    expect(card(ben, "p2.t3", "JC")).to_have_count(1)

    # Ana resigns (a dialog asks first); both see the result with both counts.
    ana.click("#resign")
    ana.locator("dialog.confirm-dialog").get_by_role("button", name="Resign").click()
    expect(ana.locator("#result")).to_be_visible()
    expect(ben.locator("#result")).to_be_visible()
    expect(ben.locator("#result-title")).to_have_text("You won!")
    expect(ana.locator("#result-title")).to_have_text("Ben won")
    expect(ana.locator("#result .result-text")).to_have_text("You resigned.")
    expect(ben.locator("#result .score-1 dd")).to_have_text("46")
    expect(ben.locator("#result .score-2 dd")).to_have_text("45")
    expect(ben.locator("#result .seed-line")).to_contain_text("Deal seed")
    expect(ben.locator("#rematch")).to_be_visible()
    # The replay page draws the race with the same table code.
    ben.goto(base + (ben.locator("#replay-link").get_attribute("href") or ""))
    expect(ben.locator("#replay-table .card").first).to_be_visible()
    assert errors == []
    ana_context.close()
    ben_context.close()


def card_width(page: Page, pile_prefix: str) -> float:
    return float(
        page.evaluate(
            "(p) => Math.max(...[...document.querySelectorAll(`.card[data-pile^='${p}']`)]"
            ".map(c => c.getBoundingClientRect().width))",
            pile_prefix,
        )
    )


def start_a_race(base: str, ana: Page, ben: Page) -> None:
    """Ana creates a race from the home page, Ben joins from the invite, both are ready."""
    ana.goto(base + "/")
    ana.fill("#race-name", "Ana")
    ana.click("#race-create button[type=submit]")
    ana.wait_for_url("**/races/*/")
    ben.goto(ana.input_value("#invite-link"))
    ben.fill("#join-name", "Ben")
    ben.click("#join button[type=submit]")
    expect(ben.locator("#ready")).to_be_visible()
    ana.click("#ready")
    ben.click("#ready")
    for page in (ana, ben):
        expect(page.locator("#race")).to_have_attribute("data-status", "playing", timeout=15_000)


def no_page_scroll(page: Page) -> None:
    scroll = page.evaluate(
        "[document.documentElement.scrollWidth - innerWidth,"
        " document.documentElement.scrollHeight - innerHeight]"
    )
    assert scroll[0] <= 0 and scroll[1] <= 0, f"the race page scrolls by {scroll}"


def test_a_race_on_a_desktop_fits_the_window(server: dict[str, Any], browser: Browser) -> None:
    desk = {"viewport": {"width": 1360, "height": 900}}
    ana_context, ben_context = browser.new_context(**desk), browser.new_context(bypass_csp=True, **desk)
    try:
        ana, ben = ana_context.new_page(), ben_context.new_page()
        start_a_race(server["url"], ana, ben)
        expect(ana.locator(".site-header")).to_be_visible()
        expect(ana.locator("#opponent-summary")).to_be_hidden()
        ana.wait_for_timeout(1200)  # the "Go!" fades
        no_page_scroll(ana)
        if os.environ.get("WRITE_SCREENSHOTS") == "1":
            ana.screenshot(path=str(ROOT / "docs" / "screenshots" / "race.png"))
    finally:
        ana_context.close()
        ben_context.close()


def test_a_race_on_phones_gives_your_own_layout_the_screen(server: dict[str, Any], browser: Browser) -> None:
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    ana_context = browser.new_context(bypass_csp=True, **phone)
    ben_context = browser.new_context(bypass_csp=True, **phone)
    try:
        ana, ben = ana_context.new_page(), ben_context.new_page()
        start_a_race(server["url"], ana, ben)
        page = ana
        page.wait_for_timeout(300)
        # The header folds away during play; the opponent is a line of figures and a strip.
        expect(page.locator(".site-header")).to_be_hidden()
        expect(page.locator("#opponent-summary")).to_be_visible()
        expect(page.locator("#opponent-summary .summary-text")).to_contain_text("Ben")
        own, theirs = card_width(page, "p1."), card_width(page, "p2.")
        assert own > 2.5 * theirs, f"own cards {own}px, the opponent's {theirs}px"
        no_page_scroll(page)
        if os.environ.get("SHOTS"):
            page.screenshot(path=str(Path(os.environ["SHOTS"]) / "race-390x844.png"))
        # Their whole layout is one tap away.
        page.locator("#opponent-summary").get_by_role("button", name="Show their cards").click()
        page.wait_for_timeout(300)
        assert card_width(page, "p2.") > theirs
        if os.environ.get("SHOTS"):
            page.screenshot(path=str(Path(os.environ["SHOTS"]) / "race-390x844-expanded.png"))
    finally:
        ana_context.close()
        ben_context.close()
