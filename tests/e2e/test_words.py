"""Refusals in words a player understands: the page's own sentences from the engine's
codes and data, with suit symbols, checked against real refusals from the server.

The sentences are made by static/js/words.js, loaded into a page; the refusals are the
server's, asked for through the API, so a change of code or data on either side shows.
"""

from __future__ import annotations

from typing import Any

from browser_support import api, new_game
from playwright.sync_api import Page

OPEN_KLONDIKE = {"draw": 1, "face_up": True}


def sentence(page: Page, refusal: dict[str, Any], context: dict[str, Any]) -> str:
    return str(
        page.evaluate(
            """async ([refusal, context]) => {
                 const words = await import('/static/js/words.js');
                 const error = Object.assign(new Error(refusal.error),
                                             {code: refusal.code, data: refusal.data || {}});
                 return words.refusalSentence(error, context);
               }""",
            [refusal, context],
        )
    )


def refusal_for(page: Page, game_id: int, move: dict[str, Any]) -> dict[str, Any]:
    status, refusal = api(page, "POST", f"/api/games/{game_id}/moves", {"move": move})
    assert status == 409, refusal
    return refusal


def test_refusals_name_cards_with_suit_symbols_and_give_the_reason(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=31)
    piles = created["state"]["piles"]
    page.goto("/")
    legal = {(m["from"], m["to"]) for m in created["state"]["moves"]}

    # A card that does not go on another: both cards named, the build rule given.
    source, target = next(
        (f"t{a}", f"t{b}")
        for a in range(1, 8)
        for b in range(1, 8)
        if a != b and (f"t{a}", f"t{b}") not in legal and piles[f"t{a}"][-1][:-1] != "K"
    )
    refusal = refusal_for(page, created["id"], {"from": source, "to": target})
    said = sentence(page, refusal, {})
    assert said.startswith("The ") and "can't go on the" in said, said
    assert any(symbol in said for symbol in "♠♥♦♣"), said
    assert "build down" in said and not any(code in said for code in (piles[source][-1], piles[target][-1]))

    # A card that cannot start a foundation.
    non_ace = next(f"t{a}" for a in range(1, 8) if piles[f"t{a}"][-1][0] != "A")
    refusal = refusal_for(page, created["id"], {"from": non_ace, "to": "f1"})
    said = sentence(page, refusal, {})
    assert "can't start a foundation" in said and "Ace" in said, said

    # Piles are named by their labels, never by their ids.
    refusal = refusal_for(page, created["id"], {"from": "t1", "to": "stock"})
    said = sentence(page, refusal, {"from": "Pile 1", "to": "Stock", "labelOf": None})
    assert "t1" not in said and "Pile 1".lower() in said.lower(), said


def test_a_stale_move_is_told_plainly(page: Page) -> None:
    page.goto("/")
    said = sentence(page, {"code": "stale", "error": "the cards moved", "data": {}}, {})
    assert said == "The table changed before that move arrived, so it was not made."
