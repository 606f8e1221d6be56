"""Winnable deals and "Was this winnable?" in a real browser against a real server.

The server runs the solver with its real budgets. The deal below was chosen, under the
e2e DEAL_SECRET, by solving it: Josephine deal 8 is lost by only drawing through the
stock, and the solver wins it from the deal in under two thousand positions.
"""

from __future__ import annotations

from typing import Any

from browser_support import (
    api,
    new_game,
    open_game,
    open_home,
    shown_view,
    wait_until_connected,
    wait_until_settled,
)
from playwright.sync_api import Page, expect

JOSEPHINE_LOST_BUT_WINNABLE = 8
# The solver's budgets are CPU time (games.solo.winnable: at most about 5.5 s for a
# hunt); on a machine other test runs keep busy, that much CPU can take a minute to get.
SOLVER_MS = 60_000


def lose_by_drawing(page: Page, game: dict[str, Any]) -> dict[str, Any]:
    for _ in range(200):
        if game["status"] != "playing":
            break
        move = next(m for m in game["state"]["moves"] if m["from"] == "stock")
        status, game = api(page, "POST", f"/api/games/{game['id']}/moves", {"move": move})
        assert status == 200, game
    assert game["status"] == "lost"
    return game


def test_dealing_a_winnable_deal_from_the_home_page(page: Page) -> None:
    open_home(page)
    page.locator("label[for=game-casket]").click()
    page.get_by_label("Winnable deals only").check()
    expect(page.locator("#deal-number")).to_be_disabled()
    page.get_by_role("button", name="Deal", exact=True).click()
    page.wait_for_url("**/play/*/", wait_until="commit", timeout=SOLVER_MS)
    wait_until_connected(page)
    expect(page.locator("#winnable-box")).to_be_visible()
    expect(page.locator("#winnable-box")).to_contain_text("Winnable deal")
    assert page.evaluate("window.patience.game.winnable") is True


def test_a_lost_game_asks_whether_it_was_winnable_and_watches_the_line(page: Page) -> None:
    game = lose_by_drawing(page, new_game(page, "josephine", {}, JOSEPHINE_LOST_BUT_WINNABLE))
    open_game(page, game["url"])
    dialog = page.locator("dialog#result")
    expect(dialog).to_be_visible()
    expect(page.locator("#winnable-box")).to_be_hidden()
    dialog.get_by_role("button", name="Was this winnable?").click()
    expect(dialog.locator(".r-answer")).to_contain_text("Yes", timeout=SOLVER_MS)
    status, answer = api(page, "GET", f"/api/games/{game['id']}/winnable?views=1")
    assert status == 200 and answer["status"] == "solved"

    dialog.get_by_role("button", name="Watch the winning line").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#line-bar")).to_be_visible()
    page.wait_for_function("window.patience.watching && window.patience.watching.step >= 2")
    page.locator("#line-play").click()  # pause
    wait_until_settled(page)
    step = page.evaluate("window.patience.watching.step")
    assert shown_view(page) == answer["views"][step]
    expect(page.locator("#line-step")).to_contain_text(f"move {step} of {len(answer['moves'])}")

    page.locator("#line-back").click()
    expect(page.locator("#line-bar")).to_be_hidden()
    wait_until_settled(page)
    assert shown_view(page)["piles"] == game["state"]["piles"]
    expect(dialog).to_be_visible()
    expect(dialog.locator(".r-answer")).to_contain_text("Yes")
