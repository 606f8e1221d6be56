"""Every game's table fits a phone held upright and a desktop, with every card readable.

Each game is dealt, played a little through the API (following the server's hints, so
the table is not just the deal), then opened at both sizes. The page must not scroll
sideways, every card must lie inside the window, and every card must carry its name.

With WRITE_SCREENSHOTS=1 the pages are also saved to docs/screenshots/ for the README.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from browser_support import api, new_game, open_game, shown_view, wait_until_settled
from playwright.sync_api import Browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
GAMES = {
    "klondike": {"draw": 3},
    "josephine": {},
    "casket": {},
}
HINTED_MOVES = 30


def play_hints(page: Any, game_id: int, moves: int) -> None:
    """Make up to ``moves`` moves, each the one the hint endpoint suggests."""
    for _ in range(moves):
        status, hint = api(page, "GET", f"/api/games/{game_id}/hint")
        assert status == 200
        if not hint["move"]:
            return
        status, _ = api(page, "POST", f"/api/games/{game_id}/moves", {"move": hint["move"]})
        assert status == 200


@pytest.mark.parametrize("game", GAMES)
def test_every_game_fits_a_phone_and_a_desktop(browser: Browser, live_server_url: str, game: str) -> None:
    setup = browser.new_context(bypass_csp=True, base_url=live_server_url)
    storage = None
    try:
        page = setup.new_page()
        created = new_game(page, game, GAMES[game], deal=2024)
        play_hints(page, created["id"], HINTED_MOVES)
        storage = setup.storage_state()
    finally:
        setup.close()

    for size, (width, height) in SIZES.items():
        context = browser.new_context(
            bypass_csp=True,
            base_url=live_server_url,
            viewport={"width": width, "height": height},
            storage_state=storage,
            has_touch=size == "phone",
        )
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            open_game(page, created["url"])
            wait_until_settled(page)
            view = shown_view(page)
            assert view["game"] == game
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{game} on a {size} scrolls sideways by {overflow}px"
            outside = page.evaluate(
                """(width) => [...document.querySelectorAll('.tbl-cards .card')]
                     .filter(c => { const r = c.getBoundingClientRect();
                                    return r.left < 0 || r.right > width; })
                     .map(c => c.getAttribute('aria-label'))""",
                width,
            )
            assert not outside, f"{game} on a {size}: cards outside the window: {outside}"
            unnamed = page.locator(".tbl-cards .card:not([aria-label])").count()
            assert unnamed == 0
            assert page.locator(".tbl-piles .pile[aria-label]").count() == len(view["piles"])
            assert not errors, errors
            if os.environ.get("WRITE_SCREENSHOTS") == "1":
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"{game}-{size}.png"))
        finally:
            context.close()
