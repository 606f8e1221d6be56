"""The pages work under a strict Content-Security-Policy: no inline script, no inline
style attribute, nothing from another origin.

The test server sends the site's own policy (settings.CONTENT_SECURITY_POLICY); this
profile does not bypass it, unlike the other browser tests, and the browser reports any
violation. The test plays a little so that the table, dialogs and sockets all run under it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_support import ANSWER_MS, api, new_game
from playwright.sync_api import Browser, Page, expect


@pytest.fixture
def strict_page(browser: Browser, live_server_url: str) -> Iterator[Page]:
    """A page in a profile that keeps the server's policy (no bypass)."""
    context = browser.new_context(base_url=live_server_url, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(ANSWER_MS)
    yield context.new_page()
    context.close()


def test_the_pages_run_under_a_strict_policy(strict_page: Page) -> None:
    page = strict_page
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    created = new_game(page, "klondike", {"draw": 1, "face_up": True}, deal=909)
    home = page.goto("/")
    assert home is not None and "script-src 'self'" in home.headers["content-security-policy"]
    expect(page.locator('[data-play="klondike"]')).to_be_visible()
    # (Playwright's own waiting helpers evaluate strings, which the policy forbids, so
    # this test waits on what the page shows.)
    page.goto(created["url"])
    expect(page.locator("#table .card").first).to_be_visible()
    stock = page.locator('.pile[data-pile="stock"]')
    page.wait_for_timeout(500)  # the socket opens
    box = stock.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["width"] * 0.7)
    expect(page.locator('.badge[data-pile="stock"]')).to_have_text("23")
    page.locator(".more summary").click()
    page.get_by_role("button", name="Settings").click()
    expect(page.locator("dialog#settings")).to_be_visible()
    page.get_by_role("button", name="Done").click()
    status, race = api(page, "POST", "/api/races", {"name": "Ana", "options": {}})
    assert status == 201
    page.goto(race["url"])
    expect(page.locator("#waiting")).to_be_visible()
    expect(page.locator("#table .card").first).to_be_visible()
    page.goto("/how-to-play/casket/")
    page.wait_for_selector("#example-table .card")
    assert not violations, violations
