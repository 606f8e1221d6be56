"""How the table feels: how soon a dropped card comes to rest, and whether quick
clicks on the stock all count.

Drop-to-rest is a benchmark, not an assertion on time: it prints the median of a few
drags (mouse-up to the card lying still in its new pile) for the integrator's report.
The machine is shared, so only the printout carries a number; the asserts check
behaviour (the card ends in the right pile, every click is a draw).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    SCREENS,
    drag,
    new_game,
    open_game,
    screen_context,
    shown_version,
    shown_view,
    wait_for_version,
    wait_until_answered,
)
from playwright.sync_api import Browser, Page

OPEN_KLONDIKE = {"draw": 1, "face_up": True}
DRAGS = 12

# Resolves with the milliseconds from the next pointer-up to the first frame in which
# the card lies in `target` with no animation running on it.
WATCH_REST = """([code, target]) => {
  window.restTime = new Promise((resolve) => {
    let upAt = null;
    let rest = null;
    const tick = () => {
      const el = document.querySelector(`.tbl-cards .card[data-card="${code}"]`);
      const still = el && el.dataset.pile === target && !el.classList.contains("dragging") &&
          el.getAnimations().length === 0;
      if (still && rest === null) rest = performance.now() - upAt;
      // Then the server's word: the card is no longer marked as waiting for it.
      if (still && !el.classList.contains("pending")) {
        resolve([rest, performance.now() - upAt]);
        return;
      }
      requestAnimationFrame(tick);
    };
    window.addEventListener("pointerup", () => { upAt = performance.now(); tick(); },
                            { capture: true, once: true });
  });
}"""


@pytest.fixture(params=sorted(SCREENS))
def moving_page(request: pytest.FixtureRequest, browser: Browser, live_server_url: str) -> Iterator[Page]:
    """A page with animations on, as a player has them, on a desktop window and a phone."""
    context = screen_context(browser, live_server_url, request.param, reduced_motion="no-preference")
    try:
        yield context.new_page()
    finally:
        context.close()


def a_card_move(view: dict[str, Any]) -> dict[str, Any] | None:
    for move in view["moves"]:
        if move["from"].startswith("t") and move.get("count", 1) == 1 and "stock" not in move["to"]:
            return move
    return None


def test_drop_to_rest_benchmark(moving_page: Page) -> None:
    page = moving_page
    for deal in range(100, 160):
        created = new_game(page, "klondike", OPEN_KLONDIKE, deal=deal)
        move = a_card_move(created["state"])
        if move:
            break
    else:
        pytest.fail("no deal with a card move at the start")
    open_game(page, created["url"])
    view = shown_view(page)
    index = len(view["piles"][move["from"]]) - 1
    code = view["piles"][move["from"]][index]
    times = []
    confirmed = []
    for _ in range(DRAGS):
        version = shown_version(page)
        page.evaluate(WATCH_REST, [code, move["to"]])
        drag(page, move["from"], index, move["to"])
        rest, settled = page.evaluate("window.restTime")
        times.append(rest)
        confirmed.append(settled)
        wait_for_version(page, version + 1)
        assert code in shown_view(page)["piles"][move["to"]]
        page.evaluate("window.patience.socket.send({type: 'undo'})")
        wait_for_version(page, version + 2)
        page.wait_for_function(
            "([c, p]) => document.querySelector(`.tbl-cards .card[data-card='${c}']`).dataset.pile === p"
            " && document.getAnimations().length === 0",
            arg=[code, move["from"]],
        )
    print(
        f"\nDROP-TO-REST ms over {len(times)} drags: median {statistics.median(times):.0f}, "
        f"min {min(times):.0f}, max {max(times):.0f}; "
        f"to the server's confirmation: median {statistics.median(confirmed):.0f}"
    )


def test_twelve_quick_stock_clicks_give_twelve_draws(moving_page: Page) -> None:
    page = moving_page
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=4400)
    open_game(page, created["url"])
    stock = shown_view(page)["piles"]["stock"]
    box = page.locator('.pile[data-pile="stock"]').bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"], box["width"] * 1.4) / 2
    for _ in range(12):
        page.mouse.click(x, y)
        page.wait_for_timeout(30)
    wait_for_version(page, 12)
    # Every change the page sent has its answer, and there were twelve of them.
    wait_until_answered(page)
    assert page.evaluate("window.patience.socket.serial") == 12
    assert shown_version(page) == 12
    assert shown_view(page)["piles"]["stock"] == stock - 12
