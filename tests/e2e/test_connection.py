"""The page's socket through network trouble: moves made while it is down are sent when
it comes back, and a move whose answer was lost is sent again and applied once.

The trouble is made inside the page: the browser's WebSocket is swapped for one that
cannot connect, or the next answer from the server is dropped and the connection cut,
which is what a flaky network does to a real player.
"""

from __future__ import annotations

import re

from browser_support import api, click_pile, new_game, open_game, shown_version, shown_view, wait_for_version
from playwright.sync_api import Page, expect

OPEN_KLONDIKE = {"draw": 1, "face_up": True}

CUT_THE_NETWORK = """() => {
  window.realWebSocket = window.WebSocket;
  // Every new connection fails at once, as when the network is down.
  window.WebSocket = class {
    constructor() {
      this.readyState = 3;
      setTimeout(() => this.onclose && this.onclose({ code: 1006 }), 0);
    }
    send() {}
    close() {}
  };
  window.WebSocket.OPEN = 1;
  window.WebSocket.CLOSED = 3;
  window.patience.socket.ws.close();
}"""

RESTORE_THE_NETWORK = """() => {
  window.WebSocket = window.realWebSocket;
  window.dispatchEvent(new Event("online"));
}"""

# Drop the server's next "ack" and cut the connection, as if the network failed just
# after the server applied the change.
LOSE_THE_NEXT_ANSWER = """() => {
  const socket = window.patience.socket;
  const receive = socket.receive.bind(socket);
  window.lostAnswers = 0;
  socket.receive = (message) => {
    if (message.type === "ack" && window.lostAnswers === 0) {
      window.lostAnswers = 1;
      socket.ws.close();
      return;
    }
    receive(message);
  };
}"""


def test_a_move_made_while_the_connection_is_down_is_sent_when_it_returns(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=4321)
    open_game(page, created["url"])
    stock = shown_view(page)["piles"]["stock"]

    page.evaluate(CUT_THE_NETWORK)
    click_pile(page, "stock")
    expect(page.locator("#connection")).to_be_visible()
    assert page.evaluate("window.patience.socket.pending") == 1
    assert shown_version(page) == 0

    page.evaluate(RESTORE_THE_NETWORK)
    wait_for_version(page, 1)
    expect(page.locator("#connection")).to_be_hidden()
    assert page.evaluate("window.patience.socket.pending") == 0
    assert shown_view(page)["piles"]["stock"] == stock - 1


def test_a_move_whose_answer_was_lost_is_sent_again_and_applied_once(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=4322)
    open_game(page, created["url"])
    stock = shown_view(page)["piles"]["stock"]

    page.evaluate(LOSE_THE_NEXT_ANSWER)
    click_pile(page, "stock")
    page.wait_for_function("window.lostAnswers === 1")
    # The socket reconnects by itself, sends the draw again, and gets its answer.
    page.wait_for_function(
        "window.patience.socket.pending === 0 && window.patience.socket.ws?.readyState === 1"
    )
    wait_for_version(page, 1)
    # The server's own record: one draw, not two.
    status, game = api(page, "GET", f"/api/games/{created['id']}")
    assert status == 200
    assert game["version"] == 1
    assert game["state"]["piles"]["stock"] == stock - 1
    assert shown_view(page) == game["state"]


# Swallow the page's next outgoing change (as a lossy network would), once.
DROP_THE_NEXT_CHANGE = """() => {
  const ws = window.patience.socket.ws;
  const send = ws.send.bind(ws);
  window.dropped = 0;
  ws.send = (text) => {
    if (window.dropped === 0 && JSON.parse(text).type === "move") { window.dropped = 1; return; }
    send(text);
  };
}"""

# Nothing reaches the server any more, though the socket looks open.
BLACKHOLE = """() => {
  const ws = window.patience.socket.ws;
  window.realSend = ws.send.bind(ws);
  ws.send = () => {};
}"""


def test_an_unanswered_move_is_sent_again_with_the_same_id(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=4323)
    open_game(page, created["url"])
    stock = shown_view(page)["piles"]["stock"]
    page.evaluate(DROP_THE_NEXT_CHANGE)
    click_pile(page, "stock")
    page.wait_for_function("window.dropped === 1")
    # After about 2.5 s without an answer the socket sends it again, and it is applied once.
    wait_for_version(page, 1)
    assert page.evaluate("window.patience.socket.pending") == 0
    status, game = api(page, "GET", f"/api/games/{created['id']}")
    assert game["version"] == 1 and game["state"]["piles"]["stock"] == stock - 1


def test_a_move_waiting_long_says_reconnecting_and_a_dead_socket_is_replaced(page: Page) -> None:
    created = new_game(page, "klondike", OPEN_KLONDIKE, deal=4324)
    open_game(page, created["url"])
    first = page.evaluate_handle("window.patience.socket.ws")
    page.evaluate(BLACKHOLE)
    click_pile(page, "stock")
    # After about 5 s the player is told.
    expect(page.locator("#connection")).to_have_text(re.compile("Reconnecting"), timeout=9000)
    # The heartbeat finds the socket dead (nothing answers its ping) and opens another;
    # the draw then goes through it.
    page.evaluate("window.patience.socket.heardAt = performance.now() - 60000")
    wait_for_version(page, 1)
    assert page.evaluate("(old) => window.patience.socket.ws !== old", first)
    expect(page.locator("#connection")).to_be_hidden()
