"""No page scrolls, from a small phone to a large desktop, held either way.

Each game is dealt and played a little (the server's hints), then opened at every
viewport below, portrait and landscape. The page must not scroll either way, every
card must lie inside the table, and on a touch screen a phone held upright gives
covered face-up cards a strip a finger can hit (at least 44 CSS px).

With SHOTS=<dir> the pages are saved there, to be looked at.
"""

from __future__ import annotations

import os
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from browser_support import api, new_game, open_game, wait_until_settled
from playwright.sync_api import Browser

VIEWPORTS = [
    (360, 640),
    (640, 360),
    (390, 844),
    (844, 390),
    (768, 1024),
    (1024, 768),
    (1280, 720),
    (1440, 900),
    (1440, 2560),
    (2560, 1440),
]
GAMES = {"klondike": {"draw": 3}, "josephine": {}, "casket": {}}
HINTED_MOVES = 25
TOUCH_STRIP = 44

MEASURE = """() => {
  const root = document.documentElement;
  const table = document.getElementById('table').getBoundingClientRect();
  const cards = [...document.querySelectorAll('.tbl-cards .card')].map(c => {
    const r = c.getBoundingClientRect();
    return {pile: c.dataset.pile, index: Number(c.dataset.index), face: !!c.dataset.card,
            top: r.top, left: r.left, right: r.right, bottom: r.bottom, width: r.width};
  });
  return {scrollX: root.scrollWidth - innerWidth, scrollY: root.scrollHeight - innerHeight,
          table: {top: table.top, left: table.left, right: table.right, bottom: table.bottom},
          cards};
}"""


def play_hints(page: Any, game_id: int, moves: int) -> None:
    for _ in range(moves):
        status, hint = api(page, "GET", f"/api/games/{game_id}/hint")
        if status != 200 or not hint["move"]:
            return
        status, _ = api(page, "POST", f"/api/games/{game_id}/moves", {"move": hint["move"]})
        if status != 200:
            return


def face_up_strips(cards: list[dict[str, Any]]) -> list[float]:
    """The visible height of each covered face-up card in the tableau columns."""
    by_pile: dict[str, list[dict[str, Any]]] = {}
    for card in cards:
        if card["pile"].startswith("t"):
            by_pile.setdefault(card["pile"], []).append(card)
    strips = []
    for column in by_pile.values():
        column.sort(key=lambda c: c["index"])
        for lower, upper in pairwise(column):
            if lower["face"]:
                strips.append(upper["top"] - lower["top"])
    return strips


@pytest.mark.parametrize("game", GAMES)
def test_no_page_scrolls_on_any_viewport(browser: Browser, live_server_url: str, game: str) -> None:
    setup = browser.new_context(bypass_csp=True, base_url=live_server_url)
    try:
        page = setup.new_page()
        created = new_game(page, game, GAMES[game], deal=77)
        play_hints(page, created["id"], HINTED_MOVES)
        storage = setup.storage_state()
    finally:
        setup.close()
    shots = os.environ.get("SHOTS")
    problems = []
    for width, height in VIEWPORTS:
        touch = min(width, height) < 600
        context = browser.new_context(
            bypass_csp=True,
            base_url=live_server_url,
            viewport={"width": width, "height": height},
            storage_state=storage,
            has_touch=touch,
            is_mobile=touch,
            reduced_motion="reduce",
        )
        try:
            page = context.new_page()
            open_game(page, created["url"])
            wait_until_settled(page)
            page.wait_for_timeout(150)
            wait_until_settled(page)
            seen = page.evaluate(MEASURE)
            where = f"{game} at {width}x{height}"
            if seen["scrollX"] > 0 or seen["scrollY"] > 0:
                problems.append(f"{where}: the page scrolls by {seen['scrollX']}x{seen['scrollY']}px")
            table = seen["table"]
            outside = [
                c
                for c in seen["cards"]
                if c["left"] < table["left"] - 1
                or c["right"] > table["right"] + 1
                or c["bottom"] > table["bottom"] + 1
            ]
            if outside:
                problems.append(f"{where}: {len(outside)} cards outside the table")
            strips = face_up_strips(seen["cards"])
            if touch and height > width and game == "klondike" and strips and min(strips) < TOUCH_STRIP - 0.5:
                problems.append(f"{where}: a covered face-up card shows only {min(strips):.0f}px")
            print(
                f"\n{where}: card {seen['cards'][0]['width']:.0f}px wide, "
                f"smallest face-up strip {min(strips) if strips else 0:.0f}px"
            )
            if shots:
                Path(shots).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(Path(shots) / f"{game}-{width}x{height}.png"))
        finally:
            context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("width", "height"), [(360, 640), (390, 844), (1280, 720), (2560, 1440)])
def test_the_home_page_does_not_scroll_sideways(
    browser: Browser, live_server_url: str, width: int, height: int
) -> None:
    context = browser.new_context(
        bypass_csp=True, base_url=live_server_url, viewport={"width": width, "height": height}
    )
    try:
        page = context.new_page()
        # A game and statistics, so that the lists and the statistics table are drawn.
        created = new_game(page, "klondike", {"draw": 1}, deal=5)
        api(page, "POST", f"/api/games/{created['id']}/abandon")
        page.goto("/")
        page.wait_for_selector(".games-list")
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"the home page at {width}x{height} is {overflow}px too wide"
        # One tap plays: the buttons are in the first screenful.
        box = page.locator('[data-play="klondike"]').bounding_box()
        assert box is not None and box["y"] + box["height"] <= height
        if os.environ.get("SHOTS"):
            page.screenshot(path=str(Path(os.environ["SHOTS"]) / f"home-{width}x{height}.png"))
    finally:
        context.close()
