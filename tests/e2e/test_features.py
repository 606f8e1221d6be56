"""What players expect beyond moving cards: redo, pause (kept over a reload), settings
that persist, giving up (with a question first), deleting a finished game, the daily
deal, one-tap play, auto-play of safe cards, and a tab whose game moved to an account.

Each test drives the page as a player would and checks the server's record, once on a
desktop window and once on a phone (a 390x844 touch screen). They wait for what the
page says it is doing (its socket open, the answers in, its lists loaded), never for
a fixed time (but to see a stopped clock stay stopped): the machine may be busy.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    ANSWER_MS,
    SCREENS,
    api,
    click_pile,
    new_game,
    open_game,
    open_home,
    screen_context,
    shown_version,
    shown_view,
    wait_for_play_page,
    wait_for_version,
    wait_until_answered,
    wait_until_connected,
    wait_until_settled,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect

OPEN_KLONDIKE = {"draw": 1, "face_up": True}
# How long the home page waits before it deletes a game for good (home.js UNDO_MS).
UNDO_MS = 5000


@pytest.fixture(params=sorted(SCREENS))
def screen(request: pytest.FixtureRequest) -> str:
    """Each test runs on a desktop window, then on a phone."""
    return str(request.param)


@pytest.fixture
def context(screen: str, browser: Browser, live_server_url: str) -> Iterator[BrowserContext]:
    """A new anonymous player on the test's screen."""
    made = screen_context(browser, live_server_url, screen)
    yield made
    made.close()


def more(page: Page, item: str) -> None:
    """Open the toolbar's "More" menu and choose an item."""
    page.locator(".more summary").click()
    page.locator(".more .menu").get_by_role("button", name=item).click()


def game_record(page: Page, game_id: int) -> dict[str, Any]:
    """The game as the server keeps it."""
    status, game = api(page, "GET", f"/api/games/{game_id}")
    assert status == 200, game
    return dict(game)


def confirm_dialog(page: Page) -> Any:
    dialog = page.locator("dialog.confirm-dialog")
    expect(dialog).to_be_visible()
    return dialog


def test_redo_plays_the_undone_move_again(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=501)
    open_game(page, created["url"])
    click_pile(page, "stock")
    wait_for_version(page, 1)
    drawn = shown_view(page)
    page.get_by_role("button", name="Undo").click()
    wait_for_version(page, 2)
    assert shown_view(page)["piles"] != drawn["piles"]
    redo = page.get_by_role("button", name="Redo")
    expect(redo).to_be_enabled()
    redo.click()
    wait_for_version(page, 3)
    assert shown_view(page)["piles"] == drawn["piles"]
    expect(redo).to_be_disabled()
    # R does the same from the keyboard.
    page.keyboard.press("u")
    wait_for_version(page, 4)
    page.keyboard.press("r")
    wait_for_version(page, 5)
    assert shown_view(page)["piles"] == drawn["piles"]


def test_pause_stops_the_clock_and_hides_the_table(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=502)
    sent: list[dict[str, Any]] = []
    page.on(
        "websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
    )
    open_game(page, created["url"])
    page.get_by_role("button", name="Pause").click()
    expect(page.locator("#paused")).to_be_visible()
    expect(page.locator("#table")).to_have_css("visibility", "hidden")
    shown = page.locator("#timer").inner_text()
    # The clock would show a new second by now, were it running.
    page.wait_for_timeout(2200)
    assert page.locator("#timer").inner_text() == shown
    wait_until_answered(page)
    assert game_record(page, created["id"])["paused"] is True
    page.get_by_role("button", name="Resume").click()
    expect(page.locator("#paused")).to_be_hidden()
    expect(page.locator("#table")).to_have_css("visibility", "visible")
    # The server's clock was told too, and answered each (issue 14).
    wait_until_answered(page)
    assert [m["type"] for m in sent if m.get("type") in ("pause", "resume")] == ["pause", "resume"]
    assert game_record(page, created["id"])["paused"] is False


def test_a_paused_game_is_still_paused_after_a_reload(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=508)
    open_game(page, created["url"])
    page.get_by_role("button", name="Pause").click()
    wait_until_answered(page)
    page.reload()
    wait_until_connected(page)
    expect(page.locator("#paused")).to_be_visible()
    expect(page.locator("#table")).to_have_css("visibility", "hidden")
    expect(page.get_by_role("button", name="Pause")).to_have_attribute("aria-pressed", "true")
    # Resumed, it runs after a reload as well.
    page.get_by_role("button", name="Resume").click()
    expect(page.locator("#table")).to_have_css("visibility", "visible")
    wait_until_answered(page)
    page.reload()
    wait_until_connected(page)
    expect(page.locator("#table")).to_have_css("visibility", "visible")
    expect(page.locator("#paused")).to_be_hidden()
    assert game_record(page, created["id"])["paused"] is False


def test_settings_are_kept_in_this_browser(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=503)
    open_game(page, created["url"])
    stock_x = page.locator('.pile[data-pile="stock"]').bounding_box()["x"]
    more(page, "Settings")
    dialog = page.locator("dialog#settings")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Left-handed").check()
    dialog.get_by_label("Four-colour suits").check()
    dialog.get_by_text("Large", exact=True).click()
    dialog.get_by_role("button", name="Done").click()
    page.reload()
    wait_until_connected(page)
    wait_until_settled(page)
    # Left-handed: the stock is on the right now.
    assert page.locator('.pile[data-pile="stock"]').bounding_box()["x"] > stock_x
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    saved = page.evaluate("JSON.parse(localStorage.getItem('patience-settings'))")
    assert saved["leftHanded"] is True and saved["cardSize"] == "large" and saved["sound"] is False


def test_giving_up_asks_first_and_counts_as_lost(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=504)
    open_game(page, created["url"])
    more(page, "Give up this game")
    confirm_dialog(page).get_by_role("button", name="Cancel").click()
    status, game = api(page, "GET", f"/api/games/{created['id']}")
    assert game["status"] == "playing"

    more(page, "Give up this game")
    confirm_dialog(page).get_by_role("button", name="Give up").click()
    expect(page.locator("dialog#result h2")).to_have_text("Game given up")
    status, game = api(page, "GET", f"/api/games/{created['id']}")
    assert status == 200 and game["status"] == "abandoned"
    status, stats = api(page, "GET", "/api/stats")
    assert stats["overall"]["played"] == 1 and stats["overall"]["won"] == 0


def test_a_new_deal_in_the_middle_of_a_game_asks_first(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=505)
    open_game(page, created["url"])
    click_pile(page, "stock")
    wait_for_version(page, 1)
    more(page, "New deal")
    confirm_dialog(page).get_by_role("button", name="Cancel").click()
    assert f"/play/{created['id']}/" in page.url
    more(page, "New deal")
    confirm_dialog(page).get_by_role("button", name="Deal").click()
    wait_for_play_page(page, lambda url: "/play/" in url and f"/play/{created['id']}/" not in url)


def test_the_list_and_statistics_name_options_in_the_servers_words(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=507)
    api(page, "POST", f"/api/games/{created['id']}/abandon")
    words = created["describe"]["options_text"]
    assert "Thoughtful" in words  # the engine's words, not the option's name ("face_up")
    open_home(page)
    expect(page.locator(".games-list li", has_text="#507")).to_contain_text(f"Klondike · {words}")
    stats = page.locator(".stats-table")
    expect(stats).to_contain_text(f"Klondike · {words}")
    expect(stats).not_to_contain_text("draw 1 · face up")  # the page spelling option names


def test_a_finished_game_can_be_deleted_from_the_list(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=506)
    api(page, "POST", f"/api/games/{created['id']}/abandon")
    open_home(page)
    row = page.locator(".games-list li", has_text="#506")
    expect(row).to_have_count(1)
    row.get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()
    expect(row).to_be_hidden()
    # Right after, the toast offers to undo it: the game comes back, still on the server.
    page.locator(".toast").get_by_role("button", name="Undo").click()
    expect(row).to_be_visible()
    status, _ = api(page, "GET", f"/api/games/{created['id']}")
    assert status == 200
    # Deleted for good once the toast has gone.
    row.get_by_role("button", name="Delete").click()
    # The page tells the server once the undo time is over: wait for that request.
    with page.expect_response(
        lambda response: (
            response.request.method == "DELETE" and f"/api/games/{created['id']}" in response.url
        ),
        timeout=UNDO_MS + ANSWER_MS,
    ) as deleted:
        confirm_dialog(page).get_by_role("button", name="Delete").click()
        expect(row).to_be_hidden()
    assert deleted.value.ok
    status, _ = api(page, "GET", f"/api/games/{created['id']}")
    assert status == 404


def test_the_daily_deal_is_the_same_for_everyone(
    page: Page, browser: Browser, live_server_url: str, screen: str
) -> None:
    def todays_klondike(player: Page) -> dict[str, Any]:
        open_home(player)
        player.get_by_role("button", name="Today's Klondike").click()
        wait_for_play_page(player)
        return dict(player.evaluate("window.patience.game"))

    mine = todays_klondike(page)
    stranger = screen_context(browser, live_server_url, screen)
    try:
        theirs = todays_klondike(stranger.new_page())
    finally:
        stranger.close()
    assert theirs["deal"] == mine["deal"]
    assert theirs["state"]["piles"] == mine["state"]["piles"]


def test_one_tap_plays_with_the_last_options_and_continue_leads(page: Page) -> None:
    open_home(page)
    page.locator('label[for="game-klondike"]').click()
    page.get_by_text("1 card", exact=True).click()
    page.get_by_role("button", name="Deal", exact=True).click()
    wait_for_play_page(page)
    open_home(page)
    expect(page.locator("#continue")).to_be_visible()
    page.locator('[data-play="klondike"]').click()
    wait_for_play_page(page)
    assert page.evaluate("window.patience.game.options.draw") == 1


def safe_moves_in_payload(page: Page) -> bool:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=1)
    return "safe_moves" in created


def test_auto_play_sends_the_safe_cards_as_moves(page: Page) -> None:
    assert safe_moves_in_payload(page), "the game payload must carry the engine's safe_moves"
    open_home(page)
    page.evaluate("localStorage.setItem('patience-settings', JSON.stringify({autoplay: true}))")
    for deal in range(600, 700):
        created = new_game(page, "klondike", OPEN_KLONDIKE, deal=deal)
        if created["safe_moves"]:
            break
    else:
        pytest.fail("no deal with a safe move at the start")
    open_game(page, created["url"])
    wait_for_version(page, 1)
    status, game = api(page, "GET", f"/api/games/{created['id']}")
    first = created["safe_moves"][0]
    assert status == 200 and game["version"] >= 1
    card = created["state"]["piles"][first["from"]][-1]
    assert card in game["state"]["piles"][first["to"]]


def test_a_tab_whose_game_moved_to_an_account_offers_a_reload(page: Page, context: BrowserContext) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=507)
    open_game(page, created["url"])
    other = context.new_page()
    other.goto("/accounts/signup/")
    # A name of this game's own: the server is shared by every test (and both screens),
    # and a taken name would leave the game where it was.
    other.fill("#id_username", f"mover{created['id']}")
    other.fill("#id_password1", "a-long-Passphrase-507")
    other.fill("#id_password2", "a-long-Passphrase-507")
    other.get_by_role("button", name="Sign up").click()
    other.wait_for_url(lambda url: "/accounts/signup/" not in url)
    # The old tab is told, rather than bouncing every move.
    click_pile(page, "stock")
    message = page.locator("#game-message")
    expect(message).to_contain_text("moved to your account")
    expect(message.get_by_role("button", name="Reload")).to_be_visible()
    assert shown_version(page) == 0


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_win_cascade_respects_reduced_motion(
    page: Page, context: BrowserContext, browser: Browser, live_server_url: str, screen: str, motion: str
) -> None:
    for deal in range(600, 700):
        created = new_game(page, "klondike", OPEN_KLONDIKE, deal=deal)
        if created["safe_moves"]:
            break
    # Cards on the foundations, for the cascade to throw.
    for move in created["safe_moves"]:
        status, _ = api(page, "POST", f"/api/games/{created['id']}/moves", {"move": move})
        assert status == 200
    # The same player (its cookies), with the motion setting under test.
    moving = screen_context(
        browser, live_server_url, screen, reduced_motion=motion, storage_state=context.storage_state()
    )
    try:
        other = moving.new_page()
        open_game(other, created["url"])
        other.evaluate("window.patience.table.celebrate()")
        running = other.evaluate("document.getAnimations().length")
    finally:
        moving.close()
    if motion == "reduce":
        assert running == 0
    else:
        assert running > 0


def test_a_deal_is_shared_with_the_share_sheet_or_copied(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=509)
    open_game(page, created["url"])
    # With a share sheet (a phone): the link goes to it.
    page.evaluate("navigator.share = (data) => { window.shared = data; return Promise.resolve(); }")
    page.locator("#deal").click()
    page.wait_for_function("window.shared")
    shared = page.evaluate("window.shared")
    assert "deal=509" in shared["url"] and shared["url"].startswith("http")
    # Without one: the link is copied, or shown when copying is not allowed.
    page.evaluate("delete navigator.share; navigator.share = undefined")
    page.locator("#deal").click()
    expect(page.locator(".toast").last).to_contain_text("deal #509")


def test_the_home_form_takes_every_deal_number_the_server_does(page: Page) -> None:
    open_home(page)
    # The largest deal number (2**53 - 1, sixteen digits) is dealt ...
    page.fill("#deal-number", "9007199254740991")
    page.get_by_role("button", name="Deal", exact=True).click()
    wait_for_play_page(page)
    assert page.evaluate("window.patience.game.deal") == 9007199254740991
    # ... and one past it is refused with the range in the words.
    open_home(page)
    page.fill("#deal-number", "9007199254740992")
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.locator("#deal-error")).to_contain_text("from 0 to 9007199254740991")
