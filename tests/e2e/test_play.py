"""Playing in a real browser against a real server: dragging, clicking, the keyboard,
undo, reloading, two tabs on one game, a refused move, and a whole game won.

Every check compares what the page draws with what the server says, so a test fails
if the table shows anything other than the server's state.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import (
    DEAL_SECRET,
    api,
    card_locator,
    click_card,
    click_pile,
    double_click_card,
    drag,
    new_game,
    open_game,
    shown_version,
    shown_view,
    wait_for_version,
    wait_until_settled,
)
from django.test import override_settings
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from winning_line import find_winning_line

import solitaire
from games.core.options import validated_options
from games.solo import deals

# Deal numbers are arbitrary but fixed, so that every run plays the same cards.
KNOWN_DEAL = 1234
OPEN_KLONDIKE = {"draw": 1, "face_up": True, "foundation_to_tableau": False}
AUTO_FINISH_MS = 60_000


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def symbols(card: str) -> str:
    """ "10S" -> "10♠", as the page names cards."""
    rank = card[:-1].replace("T", "10")
    return f"{rank}{SUIT_SYMBOLS[card[-1]]}"


def card_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Legal moves that carry cards (not draws or turning the waste over)."""
    return [m for m in view["moves"] if "stock" not in (m["from"], m["to"])]


def drawn_piles(page: Page) -> dict[str, list[str | None]]:
    """The cards the page has on screen, pile by pile, read from the DOM."""
    found = page.evaluate(
        """() => [...document.querySelectorAll('.tbl-cards .card')].map(el => [
               el.dataset.pile, Number(el.dataset.index), el.dataset.card || null])"""
    )
    piles: dict[str, dict[int, str | None]] = {}
    for pile, index, card in found:
        piles.setdefault(pile, {})[index] = card
    return {pile: [cards[i] for i in sorted(cards)] for pile, cards in piles.items()}


def assert_drawn_as(page: Page, view: dict[str, Any]) -> None:
    """Every card of every pile (but the stock, a count) is on screen where the view says."""
    wait_until_settled(page)
    drawn = drawn_piles(page)
    for pile, cards in view["piles"].items():
        if isinstance(cards, list):
            assert drawn.get(pile, []) == cards, f"{pile} is drawn as {drawn.get(pile)}, not {cards}"


def server_view(page: Page, game_id: int) -> dict[str, Any]:
    status, game = api(page, "GET", f"/api/games/{game_id}")
    assert status == 200
    return game["state"]


def top_index(view: dict[str, Any], pile: str, count: int = 1) -> int:
    return len(view["piles"][pile]) - count


def play_by_drag(page: Page, move: dict[str, Any]) -> None:
    view = shown_view(page)
    version = shown_version(page)
    drag(page, move["from"], top_index(view, move["from"], move.get("count", 1)), move["to"])
    wait_for_version(page, version + 1)


def draw_until_a_card_can_move(page: Page) -> dict[str, Any]:
    """Click the stock until the view offers a move of cards; returns that view."""
    for _ in range(60):
        view = shown_view(page)
        if card_moves(view):
            return view
        version = shown_version(page)
        click_pile(page, "stock")
        wait_for_version(page, version + 1)
    raise AssertionError("sixty draws and still no card could move")


def test_a_deal_number_gives_the_same_cards_and_cards_move_by_dragging(
    page: Page, context: BrowserContext
) -> None:
    page.goto("/")
    page.locator('label[for="game-klondike"]').click()
    page.get_by_text("1 card", exact=True).click()
    page.fill("#deal-number", str(KNOWN_DEAL))
    page.get_by_role("button", name="Deal", exact=True).click()
    page.wait_for_url("**/play/*/")
    page.wait_for_function("window.patience && window.patience.socket.ws.readyState === 1")
    expect(page.locator("#deal")).to_have_text(f"#{KNOWN_DEAL}")
    first = shown_view(page)
    assert first["options"]["draw"] == 1
    assert_drawn_as(page, first)

    # A different player dealing the same number gets the same cards.
    stranger = context.browser.new_context(bypass_csp=True, base_url=page.url.split("/play/")[0])
    try:
        other = stranger.new_page()
        again = new_game(other, "klondike", first["options"], deal=KNOWN_DEAL)
        assert again["state"]["piles"] == first["piles"]
    finally:
        stranger.close()

    game_id = page.evaluate("window.patience.game.id")
    for _ in range(2):
        view = draw_until_a_card_can_move(page)
        move = card_moves(view)[0]
        moving = view["piles"][move["from"]][top_index(view, move["from"], move["count"])]
        play_by_drag(page, move)
        after = shown_view(page)
        assert moving in after["piles"][move["to"]]
        assert after == server_view(page, game_id)
        assert_drawn_as(page, after)


def test_a_reloaded_page_shows_the_game_as_it_was(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=KNOWN_DEAL + 1)
    open_game(page, created["url"])
    view = draw_until_a_card_can_move(page)
    play_by_drag(page, card_moves(view)[0])
    before = shown_view(page)
    version = shown_version(page)

    page.reload()
    page.wait_for_function("window.patience && window.patience.socket.ws.readyState === 1")
    assert shown_version(page) == version
    assert shown_view(page) == before
    assert_drawn_as(page, before)
    expect(page.locator("#moves")).to_have_text(str(version))


def test_undo_puts_the_cards_back(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=KNOWN_DEAL + 2)
    open_game(page, created["url"])
    dealt = shown_view(page)
    click_pile(page, "stock")
    wait_for_version(page, 1)
    drawn = draw_until_a_card_can_move(page)
    version = shown_version(page)
    play_by_drag(page, card_moves(drawn)[0])
    assert shown_view(page)["piles"] != drawn["piles"]

    page.get_by_role("button", name="Undo").click()
    wait_for_version(page, version + 2)
    assert shown_view(page)["piles"] == drawn["piles"]
    assert_drawn_as(page, drawn)

    # U does the same from the keyboard, and undoing every draw brings back the deal.
    for step in range(version):
        page.keyboard.press("u")
        wait_for_version(page, version + 3 + step)
    assert shown_view(page)["piles"] == dealt["piles"]
    assert_drawn_as(page, dealt)


def test_two_tabs_on_one_game_stay_in_step(page: Page, context: BrowserContext) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=KNOWN_DEAL + 3)
    open_game(page, created["url"])
    second = context.new_page()
    open_game(second, created["url"])

    view = draw_until_a_card_can_move(page)
    wait_for_version(second, shown_version(page))
    play_by_drag(page, card_moves(view)[0])
    wait_for_version(second, shown_version(page))
    assert shown_view(second) == shown_view(page)
    assert_drawn_as(second, shown_view(page))

    # And back the other way: a draw in the second tab shows in the first.
    version = shown_version(second)
    click_pile(second, "stock")
    # Both tabs must reach the new version: the push to the first tab can
    # arrive before the second tab has drawn its own answer.
    wait_for_version(second, version + 1)
    wait_for_version(page, version + 1)
    assert shown_view(page) == shown_view(second)


def test_an_illegal_drop_slides_back_and_shows_the_servers_reason(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=KNOWN_DEAL + 4)
    open_game(page, created["url"])
    view = shown_view(page)
    legal = {(m["from"], m["to"]) for m in view["moves"]}
    source, target = next(
        (f"t{a}", f"t{b}")
        for a in range(1, 8)
        for b in range(1, 8)
        if a != b and (f"t{a}", f"t{b}") not in legal and view["piles"][f"t{b}"]
    )
    index = top_index(view, source)
    card = card_locator(page, source, index)
    home = card.bounding_box()

    moving, onto = view["piles"][source][-1], view["piles"][target][-1]
    drag(page, source, index, target)
    toast = page.locator(".toast.error")
    expect(toast).to_be_visible()
    # The engine keeps its code; the page says it in words, naming both cards with
    # their suit symbols and giving the rule's reason.
    status, refusal = api(
        page, "POST", f"/api/games/{created['id']}/moves", {"move": {"from": source, "to": target}}
    )
    assert status == 409
    assert refusal["code"] == "tableau"
    expect(toast).to_have_text(
        f"The {symbols(moving)} can't go on the {symbols(onto)}: build down in alternating colours."
    )
    wait_until_settled(page)
    assert card.bounding_box() == home
    assert shown_version(page) == 0
    assert_drawn_as(page, view)


def test_the_keyboard_alone_can_play(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=KNOWN_DEAL + 5)
    open_game(page, created["url"])
    order = page.evaluate("[...document.querySelectorAll('.tbl-piles .pile')].map(p => p.dataset.pile)")
    focused = lambda: page.evaluate("document.activeElement.dataset.pile || null")  # noqa: E731

    # Tab from the top of the page reaches the table, on its first pile.
    for _ in range(30):
        page.keyboard.press("Tab")
        if focused():
            break
    assert focused() == order[0] == "stock"
    page.keyboard.press("ArrowRight")
    assert focused() == "waste"
    page.keyboard.press("ArrowLeft")

    def go_to(pile: str) -> None:
        steps = order.index(pile) - order.index(focused())
        for _ in range(abs(steps)):
            page.keyboard.press("Tab" if steps > 0 else "Shift+Tab")
        assert focused() == pile

    # D draws; Enter on a pile picks up, Enter on another puts down.
    version = shown_version(page)
    page.keyboard.press("d")
    wait_for_version(page, version + 1)
    moved = 0
    for _ in range(40):
        view = shown_view(page)
        moves = card_moves(view)
        if not moves:
            version = shown_version(page)
            page.keyboard.press("d")
            wait_for_version(page, version + 1)
            continue
        move = moves[0]
        version = shown_version(page)
        go_to(move["from"])
        if move["from"].startswith("t"):
            # A digit says how many cards to take from a column.
            page.keyboard.press(str(move["count"] % 10))
        if move["to"].startswith("f"):
            page.keyboard.press("f")
        else:
            page.keyboard.press("Enter")
            go_to(move["to"])
            page.keyboard.press("Enter")
        wait_for_version(page, version + 1)
        assert shown_view(page)["piles"] != view["piles"]
        moved += 1
        if moved == 3:
            break
    assert moved == 3
    assert_drawn_as(page, shown_view(page))


def a_winnable_deal() -> tuple[int, list[dict[str, Any]], Any]:
    """A deal number of open draw-one Klondike whose winning line a small search finds.

    The seed comes from the server's own derivation under the test server's secret;
    the test checks that the server dealt exactly these cards before playing.
    """
    options = validated_options("klondike", OPEN_KLONDIKE)
    key = deals.canonical_json(options)
    with override_settings(DEAL_SECRET=DEAL_SECRET):
        for number in range(1, 60):
            state = solitaire.new_game("klondike", seed=deals.deal_seed("klondike", key, number), **options)
            line = find_winning_line(state, budget=3000)
            if line:
                return number, line, state
    raise AssertionError("no deal among the first sixty has a line the search finds")


def test_a_game_is_won_by_playing_a_known_line(page: Page) -> None:
    number, line, dealt = a_winnable_deal()
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=number)
    assert created["state"]["piles"] == dealt.view()["piles"], "the server dealt other cards"
    open_game(page, created["url"])

    finish = page.get_by_role("button", name="Auto-finish")
    # The page chooses which empty foundation an ace goes to; the line may have chosen
    # another, so the line's foundations are renamed to the page's as aces land.
    foundation_of: dict[str, str] = {}
    for played, planned in enumerate(line):
        if finish.is_visible():
            break
        move = {**planned, "to": foundation_of.get(planned["to"], planned["to"])}
        version = shown_version(page)
        view = shown_view(page)
        start = top_index(view, move["from"], move.get("count", 1)) if move["from"] != "stock" else 0
        if "stock" in (move["from"], move["to"]):
            click_pile(page, "stock")  # a draw, or turning the waste over
        elif move["to"].startswith("f"):
            double_click_card(page, move["from"], start)
        elif played % 2:
            click_card(page, move["from"], start)
            click_pile(page, move["to"])
        else:
            drag(page, move["from"], start, move["to"])
        try:
            wait_for_version(page, version + 1)
        except PlaywrightTimeout:
            toasts = page.locator(".toast").all_inner_texts()
            page.screenshot(path="/tmp/fe/fail.png")
            pytest.fail(f"move {played} {move} was not played; the page said {toasts}")
        if move["to"].startswith("f"):
            moved = view["piles"][move["from"]][-1]
            landed = next(
                f
                for f, cards in shown_view(page)["piles"].items()
                if f.startswith("f") and cards[-1:] == [moved]
            )
            foundation_of[planned["to"]] = landed
    else:
        pytest.fail("the line ended without the game being won or offering auto-finish")

    expect(finish).to_be_visible()
    finish.click()
    dialog = page.locator("dialog#result")
    # Auto-finish plays every remaining card on the server, one checked move at a time.
    expect(dialog).to_be_visible(timeout=AUTO_FINISH_MS)
    expect(dialog.get_by_role("heading")).to_have_text("You won!")
    status, game = api(page, "GET", f"/api/games/{created['id']}")
    assert status == 200 and game["status"] == "won"
    assert_drawn_as(page, game["state"])
