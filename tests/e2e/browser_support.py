"""Helpers for the browser tests: the JSON API as a player's browser calls it, waiting
for the server's answers, and pointer input on cards and piles.

They find cards through the page's own markup (data-pile, data-index, data-card) and
read what the table draws through ``window.patience``, which the play page exposes.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

# The deal secret the test server runs with; tests derive seeds from deal numbers with it.
DEAL_SECRET = "e2e-deal-secret-not-for-production"
# How long to wait for the server to answer a move: generous, because on a loaded
# machine a disk stalled by other work can hold a SQLite commit for seconds. These
# tests check what happens, not how fast (the benchmarks measure that).
ANSWER_MS = 20_000
# How long a page may take to load until its script runs. A fresh profile fetches every
# module and style sheet again, and the test server serves them one at a time (Django's
# one thread for synchronous work) on a machine other test runs keep busy.
LOAD_MS = 30_000

# The two screens the feature tests run on: a desktop window and a phone held upright.
SCREENS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


def screen_context(browser: Browser, base_url: str, screen: str, **extra: Any) -> BrowserContext:
    """A new browser profile (a new anonymous player) on one of SCREENS.

    Motion is reduced unless ``extra`` says otherwise, and the server's strict
    Content-Security-Policy is bypassed: Playwright's waiting helpers evaluate strings,
    which it forbids (test_csp.py runs the pages under it).
    """
    settings: dict[str, Any] = {"reduced_motion": "reduce", **SCREENS[screen], **extra}
    made = browser.new_context(base_url=base_url, bypass_csp=True, **settings)
    made.set_default_timeout(ANSWER_MS)
    made.set_default_navigation_timeout(LOAD_MS)
    return made


# --- talking to the site ----------------------------------------------------------------


def api(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """Call the JSON API as the page's player (its cookies, its CSRF token)."""
    if not any(c["name"] == "csrftoken" for c in page.context.cookies()):
        page.goto("/")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    # The context's request helper shares the browser's cookies and its base URL.
    response = page.context.request.fetch(
        path,
        method=method,
        headers={"X-CSRFToken": token, "Content-Type": "application/json"},
        data=json.dumps(body) if body is not None else None,
    )
    return response.status, response.json()


def new_game(page: Page, game: str, options: dict[str, Any], deal: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "options": options}
    if deal is not None:
        body["deal"] = deal
    status, created = api(page, "POST", "/api/games", body)
    assert status == 201, created
    return created


def open_game(page: Page, url: str) -> None:
    """Load a play page and wait until its socket is connected."""
    page.goto(url)
    wait_until_connected(page)


def open_home(page: Page, path: str = "/") -> None:
    """Load the home page and wait until it has filled in its lists (games, statistics,
    the day's results): what fills in moves the buttons, so a click made before may land
    where a button was."""
    page.goto(path)
    # A locator, not a script to evaluate, so it works under the site's CSP too (no
    # 'unsafe-eval'); the page is served with each region marked busy.
    busy = page.locator("#saved-games[aria-busy], #stats[aria-busy], #daily-results[aria-busy]")
    expect(busy).to_have_count(0, timeout=LOAD_MS)


def wait_for_play_page(page: Page, url: Any = "**/play/*/") -> None:
    """After a click that deals: wait for the play page it leads to, in play (its socket
    open), rather than for every file it loads."""
    page.wait_for_url(url, wait_until="commit")
    wait_until_connected(page)


def wait_until_connected(page: Page) -> None:
    """Wait for the play page's socket to be open: the page's script has run, and what a
    test does next reaches the server."""
    page.wait_for_function("window.patience && window.patience.socket.isOpen", timeout=LOAD_MS)


def wait_until_answered(page: Page) -> None:
    """Wait until the server has answered every change the page sent (ack or refusal)."""
    page.wait_for_function("window.patience.socket.pending === 0", timeout=ANSWER_MS)


def shown_view(page: Page) -> dict[str, Any]:
    """The view the page's table is drawing."""
    return page.evaluate("window.patience.table.view")


def shown_version(page: Page) -> int:
    return int(page.evaluate("window.patience.game.version"))


def wait_for_version(page: Page, version: int) -> None:
    page.wait_for_function(f"window.patience.game.version >= {version}", timeout=ANSWER_MS)


def wait_until_settled(page: Page) -> None:
    """Wait until no card is moving (animations are off with reduced motion, but the
    next frame still has to be drawn)."""
    page.wait_for_function(
        "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"
    )


def card_locator(page: Page, pile: str, index: int) -> Any:
    return page.locator(f'.card[data-pile="{pile}"][data-index="{index}"]')


def drop_box(page: Page, pile: str) -> dict[str, float]:
    """Where to drop on a pile: its top card, or its empty slot."""
    view = shown_view(page)
    cards = view["piles"][pile]
    count = cards if isinstance(cards, int) else len(cards)
    box = None
    if count and not isinstance(cards, int):
        box = card_locator(page, pile, count - 1).bounding_box()
    if box is None:
        box = page.locator(f'.pile[data-pile="{pile}"]').bounding_box()
        assert box is not None, f"no pile {pile} on screen"
        box = {**box, "height": min(box["height"], box["width"] * 1.4)}
    return box


def drag(page: Page, source: str, index: int, target: str) -> None:
    """Drag the card at ``index`` of ``source`` (and what lies on it) onto ``target``
    with the mouse: press, move in steps, release."""
    grab_x, grab_y = _grip(page, source, index)
    goal = drop_box(page, target)
    page.mouse.move(grab_x, grab_y)
    page.mouse.down()
    page.mouse.move(grab_x + 12, grab_y + 12, steps=2)
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 3, steps=6)
    page.mouse.up()


def _grip(page: Page, pile: str, index: int) -> tuple[float, float]:
    """A point on the visible strip of a card (cards above it cover the rest)."""
    box = card_locator(page, pile, index).bounding_box()
    assert box is not None, f"no card {pile}[{index}] on screen"
    return box["x"] + box["width"] / 2, box["y"] + min(10, box["height"] / 5)


def click_card(page: Page, pile: str, index: int) -> None:
    page.mouse.click(*_grip(page, pile, index))


def double_click_card(page: Page, pile: str, index: int) -> None:
    page.mouse.dblclick(*_grip(page, pile, index))


def click_pile(page: Page, pile: str) -> None:
    """Click a pile where a player would: on its top card, or on its empty place."""
    box = drop_box(page, pile)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 3)
