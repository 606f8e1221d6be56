"""Winnable deals and "was this winnable?" (issue 7), through the HTTP API.

Every answer is checked against the engine itself: a deal said to be winnable is solved
again here and its line replayed to a win. The solver's budgets are counted in
positions (with clocks far out of reach), so each answer is the same on any machine.
The deal numbers below were chosen, under the tests' DEAL_SECRET, by solving them:
Klondike draw 1, one pass, deal 42 cannot be won (and only drawing loses it) and deal 1
can be won; Josephine deal 50 can be won, but not by only drawing through the stock.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

import solitaire
from games.core.actors import Actor
from games.models import Deal, Game
from games.solo import play as solo_play
from games.solo import winnable
from tests.support.solo import apply_action

pytestmark = pytest.mark.django_db

ONE_PASS = {"draw": 1, "passes": 1}
UNWINNABLE, WINNABLE = 42, 1  # Klondike, ONE_PASS
JOSEPHINE_WINNABLE = 1  # under the engine's options {"whole_sequences": false}


@pytest.fixture(autouse=True)
def node_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets in positions, never in seconds, so the answers do not depend on the machine."""
    monkeypatch.setattr(winnable, "DEAL_BUDGET", winnable.Budget(timeout=600, max_nodes=50_000))
    monkeypatch.setattr(winnable, "DEAL_HUNT_SECONDS", 600.0)
    monkeypatch.setattr(winnable, "VERDICT_BUDGET", winnable.Budget(timeout=600, max_nodes=100_000))


def deal_numbers(monkeypatch: pytest.MonkeyPatch, *numbers: int) -> None:
    """The "random" deal numbers the winnable hunt will try, in order."""
    monkeypatch.setattr(winnable, "random_numbers", lambda: iter(numbers))


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def engine_deal(game: dict[str, Any]) -> solitaire.State:
    deal = Deal.objects.get(game=game["game"], number=game["deal"], options=game["options"])
    return solitaire.new_game(deal.game, seed=deal.seed, **deal.options)


def assert_wins(state: solitaire.State, moves: list[dict[str, Any]]) -> None:
    for move in moves:
        state = state.apply(move)
    assert state.is_won


def session_actor(client: Client) -> Actor:
    return Actor(token=client.session["player_token"])


def draw_until_lost(actor: Actor, game_id: int) -> None:
    """Only draw from the stock (and turn the waste over) until the engine calls it lost;
    a game that drawing alone cannot lose (a card on the waste could still go up) is
    abandoned once the stock is spent. Either way the game is over."""
    for _ in range(300):
        snapshot = solo_play.get_game_for(actor, game_id)
        if snapshot.game.status != Game.Status.PLAYING:
            break
        move = next(
            (
                m
                for m in snapshot.state.legal_moves()
                if m.source == "stock" or (m.source, m.target) == ("waste", "stock")
            ),
            None,
        )
        if move is None:
            solo_play.abandon(actor, game_id)
            break
        apply_action(game_id, actor, {"type": "move", "move": move.to_dict()})
    status = solo_play.get_game_for(actor, game_id).game.status
    assert status in (Game.Status.LOST, Game.Status.ABANDONED)


def lost_game(client: Client, game_name: str, options: dict[str, Any], deal: int) -> dict[str, Any]:
    response = post(client, "/api/games", {"game": game_name, "options": options, "deal": deal})
    assert response.status_code == 201
    game = response.json()
    draw_until_lost(session_actor(client), game["id"])
    return game


# ---------------------------------------------------------------- dealing winnable deals


def test_a_winnable_deal_is_one_the_solver_proves_winnable(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_numbers(monkeypatch, UNWINNABLE, WINNABLE)
    response = post(client, "/api/games", {"game": "klondike", "options": ONE_PASS, "winnable": True})
    assert response.status_code == 201, response.content
    game = response.json()
    assert (game["deal"], game["winnable"], game["status"], game["version"]) == (WINNABLE, True, "playing", 0)
    assert game["options"]["passes"] == 1
    assert response["Location"] == f"/api/games/{game['id']}"
    result = solitaire.solve(engine_deal(game), timeout=600, max_nodes=50_000)
    assert result.solved
    assert_wins(engine_deal(game), [m.to_dict() for m in result.moves])
    # Nothing of the proof reaches the player while the game is on.
    assert "verdict" not in json.dumps(game)
    assert client.get(f"/api/games/{game['id']}").json()["winnable"] is True


@pytest.mark.slow
@pytest.mark.parametrize("game_name", ["klondike", "josephine", "casket"])
def test_every_game_deals_winnable_deals_from_random_numbers(
    client: Client, monkeypatch: pytest.MonkeyPatch, game_name: str
) -> None:
    budget = winnable.Budget(timeout=600, max_nodes=20_000)
    monkeypatch.setattr(winnable, "DEAL_BUDGET", budget)
    response = post(client, "/api/games", {"game": game_name, "winnable": True})
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["winnable"] is True
    # The search is deterministic: the same budget proves the same deal again.
    assert solitaire.solve(engine_deal(game), timeout=budget.timeout, max_nodes=budget.max_nodes).solved


def test_an_ordinary_deal_is_not_said_to_be_winnable(client: Client) -> None:
    response = post(client, "/api/games", {"game": "klondike", "options": ONE_PASS, "deal": WINNABLE})
    assert response.json()["winnable"] is False


def test_no_winnable_deal_in_time_is_503_and_deals_nothing(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_numbers(monkeypatch, UNWINNABLE)
    response = post(client, "/api/games", {"game": "klondike", "options": ONE_PASS, "winnable": True})
    assert response.status_code == 503
    assert response.json() == {
        "error": "no winnable deal was found in time; try again, or deal any game",
        "code": "no_winnable_deal",
        "data": {},
    }
    assert not Game.objects.exists()


def test_a_busy_solver_is_503(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_numbers(monkeypatch, WINNABLE)
    with winnable.solver_slot(), winnable.solver_slot():
        response = post(client, "/api/games", {"game": "klondike", "options": ONE_PASS, "winnable": True})
    assert (response.status_code, response.json()["code"]) == (503, "solver_busy")
    assert (
        post(client, "/api/games", {"game": "klondike", "options": ONE_PASS, "winnable": True}).status_code
        == 201
    )


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "klondike", "winnable": "yes"}, "bad_request"),
        ({"game": "klondike", "winnable": True, "deal": 5}, "bad_deal"),
        ({"game": "spider", "winnable": True}, "unknown_game"),
        ({"game": "double", "winnable": True}, "unknown_game"),
        ({"game": "klondike", "options": {"draw": 2}, "winnable": True}, "bad_options"),
    ],
)
def test_bad_winnable_requests_get_400(client: Client, body: dict[str, Any], code: str) -> None:
    response = post(client, "/api/games", body)
    assert (response.status_code, response.json()["code"]) == (400, code)
    assert not Game.objects.exists()


# ---------------------------------------------------------------- was this winnable?


def test_a_game_in_play_is_not_judged(client: Client) -> None:
    response = post(client, "/api/games", {"game": "klondike", "options": ONE_PASS, "deal": WINNABLE})
    answer = client.get(f"/api/games/{response.json()['id']}/winnable")
    assert answer.status_code == 409
    assert answer.json()["code"] == "not_finished"
    assert Deal.objects.get().verdict is None


def test_someone_elses_game_is_404(client: Client) -> None:
    game = lost_game(client, "klondike", ONE_PASS, UNWINNABLE)
    assert Client().get(f"/api/games/{game['id']}/winnable").status_code == 404
    assert client.get("/api/games/999999/winnable").status_code == 404
    assert client.post(f"/api/games/{game['id']}/winnable").status_code == 405


def test_a_lost_winnable_game_gets_the_winning_line_from_its_deal(client: Client) -> None:
    game = lost_game(client, "josephine", {}, JOSEPHINE_WINNABLE)
    response = client.get(f"/api/games/{game['id']}/winnable")
    assert response.status_code == 200
    answer = response.json()
    assert set(answer) == {"status", "moves", "nodes", "seconds"}
    assert answer["status"] == "solved"
    assert answer["nodes"] > 0
    assert_wins(engine_deal(game), answer["moves"])
    # The proof is kept with the deal: asked again, the same line comes at once, and
    # a new game of the deal is known to be winnable.
    assert client.get(f"/api/games/{game['id']}/winnable").json() == answer
    again = post(client, "/api/games", {"game": "josephine", "deal": JOSEPHINE_WINNABLE}).json()
    assert again["winnable"] is True


def test_the_winning_line_comes_with_a_view_after_each_move(client: Client) -> None:
    game = lost_game(client, "josephine", {}, JOSEPHINE_WINNABLE)
    answer = client.get(f"/api/games/{game['id']}/winnable?views=1").json()
    views = answer["views"]
    assert len(views) == len(answer["moves"]) + 1
    state = engine_deal(game)
    assert views[0] == {**state.view(), "moves": []}
    assert views[0]["piles"] == game["state"]["piles"]
    for move, view in zip(answer["moves"], views[1:], strict=True):
        state = state.apply(move)
        assert view == {**state.view(), "moves": []}
    assert views[-1]["is_won"]


def test_an_unwinnable_lost_game_is_told_so_without_moves(client: Client) -> None:
    game = lost_game(client, "klondike", ONE_PASS, UNWINNABLE)
    answer = client.get(f"/api/games/{game['id']}/winnable?views=1").json()
    assert (answer["status"], answer["moves"], answer["views"]) == ("unsolvable", [], [])
    deal = Deal.objects.get()
    assert deal.winnable is False
    # A proof that a deal cannot be won is not told to the players of new games.
    assert (
        post(client, "/api/games", {"game": "klondike", "options": ONE_PASS, "deal": UNWINNABLE}).json()[
            "winnable"
        ]
        is False
    )


def test_an_undecided_search_is_unknown_and_not_kept(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    game = lost_game(client, "josephine", {}, JOSEPHINE_WINNABLE)
    monkeypatch.setattr(winnable, "VERDICT_BUDGET", winnable.Budget(timeout=600, max_nodes=10))
    answer = client.get(f"/api/games/{game['id']}/winnable").json()
    assert (answer["status"], answer["moves"]) == ("unknown", [])
    assert Deal.objects.get().verdict is None


def test_a_won_game_may_ask_too(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_numbers(monkeypatch, WINNABLE)
    game = post(client, "/api/games", {"game": "klondike", "options": ONE_PASS, "winnable": True}).json()
    line = Deal.objects.get().verdict["moves"]
    actor = session_actor(client)
    for move in line:
        apply_action(game["id"], actor, {"type": "move", "move": move})
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "won"
    answer = client.get(f"/api/games/{game['id']}/winnable").json()
    assert (answer["status"], answer["moves"]) == ("solved", line)


def test_a_lost_game_that_saw_its_winning_line_cannot_be_undone_into_play(client: Client) -> None:
    """Lose on purpose, ask for the winning line, undo back to the deal and play the
    line: asking settles the lost game, so the undo is refused and no win is counted."""
    game = lost_game(client, "klondike", ONE_PASS, UNWINNABLE)
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "lost"
    assert post(client, f"/api/games/{game['id']}/undo", {}).status_code == 200  # still allowed
    draw_until_lost(session_actor(client), game["id"])
    answer = client.get(f"/api/games/{game['id']}/winnable").json()
    assert answer["status"] in ("solved", "unsolvable")
    settled = client.get(f"/api/games/{game['id']}").json()
    assert (settled["status"], settled["can_undo"]) == ("abandoned", False)
    refused = post(client, f"/api/games/{game['id']}/undo", {})
    assert (refused.status_code, refused.json()["code"]) == (409, "game_over")
    assert client.get("/api/stats").json()["overall"]["won"] == 0
