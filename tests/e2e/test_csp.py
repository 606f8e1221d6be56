"""The pages work under a strict Content-Security-Policy: no inline script, no inline
style attribute, nothing from another origin.

The policy is added here to every page the test server sends (the real one is the
settings' job), and the browser reports any violation; the test plays a little so that
the table, dialogs and sockets all run under it.
"""

from __future__ import annotations

from browser_support import api, new_game
from playwright.sync_api import Page, Route, expect

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'; manifest-src 'self'"
)


def with_policy(route: Route) -> None:
    response = route.fetch()
    headers = {**response.headers, "content-security-policy": POLICY}
    route.fulfill(response=response, headers=headers)


def test_the_pages_run_under_a_strict_policy(page: Page) -> None:
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.route(lambda url: "/static/" not in url and "/api/" not in url, with_policy)
    created = new_game(page, "klondike", {"draw": 1, "face_up": True}, deal=909)
    page.goto("/")
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
