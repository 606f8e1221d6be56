"""The site's hint plays as the player: it gets the view, the player's memory (the cards
the player saw face up, the stock order among them) and the keys of the game's earlier
positions, and nothing else; when it finds the game lost, the game ends as lost.

Hand-made positions are given to a real game through the position cache
(``history.keep``), which the hint reads as it reads any cached line; the hint itself
runs in the real worker pool."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

import solitaire
from games.core.actors import Actor
from games.models import Deal, Game, Move
from games.solo import history, verdicts
from solitaire.hints import advise
from tests.support.solo import apply_action, klondike

pytestmark = pytest.mark.django_db

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DRAW: dict[str, Any] = {"from": "stock", "to": "waste", "count": 1}
TURN_OVER: dict[str, Any] = {"from": "waste", "to": "stock", "count": 1}


def run(suit: str, low: str, high: str) -> list[str]:
    return [rank + suit for rank in RANKS[RANKS.index(low) : RANKS.index(high) + 1]]


def one_pass(start: solitaire.State) -> list[dict[str, Any]]:
    """Draw until the stock is empty, then turn the waste over: the player has now
    seen every stock card, in order."""
    moves, state = [], start
    while state.view()["piles"]["stock"]:
        moves.append(DRAW)
        state = state.apply(DRAW)
    return [*moves, TURN_OVER]


def give_line(game_id: int, start: solitaire.State, moves: list[dict[str, Any]]) -> history.Line:
    """Make ``start`` played through ``moves`` the game's current line (at its version)."""
    line = history.Line(start)
    for move in moves:
        line = line.then(line.state.apply(move), solitaire.Move.from_dict(move))
    history.keep(Game.objects.get(pk=game_id), line)
    return line


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def new_game(client: Client, **options: Any) -> dict[str, Any]:
    body = {"game": "klondike", "options": {"draw": 1, **options}, "deal": 7}
    response = post(client, "/api/games", body)
    assert response.status_code == 201, response.content
    answer: dict[str, Any] = response.json()
    return answer


# Nothing face down on the table; the two nines lie in the stock. Once the player has
# drawn through it, the stock and its order are known, so the hint can solve exactly.
KNOWN_AFTER_ONE_PASS: dict[str, Any] = {
    "f1": run("C", "A", "K"),
    "f2": run("D", "A", "K"),
    "f3": run("H", "A", "8"),
    "f4": run("S", "A", "8"),
    "t1": ["KS", "QH", "JS", "10H"],
    "t2": ["KH", "QS", "JH", "10S"],
    "stock": ["9s", "9h"],
}


def test_after_a_full_pass_the_hint_uses_the_remembered_stock(client: Client) -> None:
    game = new_game(client)
    start = solitaire.load("klondike", KNOWN_AFTER_ONE_PASS, draw=1)
    line = give_line(game["id"], start, one_pass(start))
    view = line.state.view()
    assert view["piles"]["stock"] == 2  # the view shows a count, nothing more

    job = verdicts.hint_job(game["id"], game["version"], line)
    assert job.memory["known"] == [["stock", 0, "9S"], ["stock", 1, "9H"]]
    assert len(job.seen) == 3  # the deal and the positions after the two draws

    answer = client.get(f"/api/games/{game['id']}/hint").json()
    assert answer == {"move": DRAW, "lost": False, "reason": "exact"}
    assert solitaire.solve(line.state.apply(DRAW), timeout=30).status == "solved"
    # The control: from the view alone the stock is a guess, and the hint plays otherwise.
    alone = advise(view)
    assert alone.reason != "exact" and alone.move != DRAW
    assert Game.objects.get(pk=game["id"]).status == Game.Status.PLAYING


# Two cards lie face down under kings; nobody ever sees them in these moves.
WITH_HIDDEN: dict[str, Any] = {
    "f1": run("C", "A", "K"),
    "f2": run("D", "A", "K"),
    "f3": run("H", "A", "6"),
    "f4": run("S", "A", "6"),
    "t1": ["8h", "KS", "QH", "JS", "10H"],
    "t2": ["8s", "KH", "QS", "JH", "10S"],
    "stock": ["7h", "9s", "7s", "9h"],
}


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(k) | strings_in(v) for k, v in value.items())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def test_the_worker_gets_no_card_the_player_never_saw(ana: Actor) -> None:
    # The same position with the two never-seen cards exchanged.
    scrambled = dict(WITH_HIDDEN, t1=["8s", *WITH_HIDDEN["t1"][1:]], t2=["8h", *WITH_HIDDEN["t2"][1:]])
    jobs, answers = [], []
    for position in (WITH_HIDDEN, scrambled):
        game_id = klondike(ana).game.pk
        start = solitaire.load("klondike", position, draw=1)
        line = give_line(game_id, start, one_pass(start))
        jobs.append(verdicts.hint_job(game_id, 0, line))
        answers.append(verdicts.hint_answer_for(ana, game_id))
    first, second = jobs
    # The two games differ only in cards nobody saw: the worker gets the same arguments...
    assert first.arguments() == second.arguments()
    # ... with neither of those cards in them (the stock cards it does remember).
    sent = strings_in(json.loads(json.dumps(first.arguments())))
    assert not {"8H", "8S", "8h", "8s"} & sent
    assert {"7H", "9S", "7S", "9H"} <= sent
    assert answers[0] == answers[1] and answers[0]["move"] in first.view["moves"]


def test_the_memory_keeps_a_card_an_undo_turned_back_down(ana: Actor) -> None:
    # A deal with a move that takes a pile's only face-up card, turning the card under it up.
    for deal in range(1, 40):
        snapshot = klondike(ana, deal=deal, draw=1)
        game_id, view = snapshot.game.pk, snapshot.state.view()
        turning = [
            m
            for m in view["moves"]
            if m["from"].startswith("t") and len(view["piles"][m["from"]]) == m.get("count", 1) + 1
        ]
        if turning:
            move = turning[0]
            break
    else:
        raise AssertionError("no deal turns a card up with its first move")
    source, below = move["from"], len(view["piles"][move["from"]]) - 2
    turned = apply_action(game_id, ana, {"type": "move", "move": move}).state.view()["piles"][source][below]
    assert turned is not None
    snapshot = apply_action(game_id, ana, {"type": "undo"})
    job = verdicts.hint_job(game_id, snapshot.game.version, snapshot.line)
    assert job.view["piles"][source][below] is None
    assert [source, below, turned] in job.memory["known"] and turned in job.memory["seen"]


def test_a_lost_answer_ends_the_game(client: Client) -> None:
    # Draw three, engine seed 2: after one pass the 24 stock cards come up only every
    # third card and none of them ever goes anywhere (tests/engine/test_hints.py).
    game = new_game(client, draw=3)
    game_id = game["id"]
    Deal.objects.filter(games__pk=game_id).update(seed=2)
    history.positions.clear()
    for _ in range(8):
        assert post(client, f"/api/games/{game_id}/moves", {"move": DRAW}).status_code == 200
    # A game recorded before endings were exact stayed "playing" here.
    Game.objects.filter(pk=game_id).update(status=Game.Status.PLAYING, finished=None)
    history.positions.clear()
    version = Game.objects.get(pk=game_id).version

    answer = client.get(f"/api/games/{game_id}/hint").json()
    assert answer == {"move": None, "lost": True, "reason": "no useful move: the game is lost"}
    game_row = Game.objects.get(pk=game_id)
    assert game_row.status == Game.Status.LOST and game_row.finished is not None
    assert game_row.version == version + 1
    assert Move.objects.get(game_id=game_id, seq=version + 1).move == {"lost": True}
    assert Move.objects.filter(game_id=game_id).count() == game_row.version
    # The log still replays to the same position, and the game is over for the hint.
    history.positions.clear()
    assert client.get(f"/api/games/{game_id}").json()["status"] == "lost"
    assert client.get(f"/api/games/{game_id}/hint").json() == {
        "move": None,
        "lost": False,
        "reason": "the game is over",
    }
    # Like any lost game it may be undone back into play.
    assert post(client, f"/api/games/{game_id}/undo").status_code == 200
    assert Game.objects.get(pk=game_id).status == Game.Status.PLAYING


def test_the_services_hint_ends_a_lost_game_too(ana: Actor) -> None:
    snapshot = klondike(ana, draw=3)
    game_id = snapshot.game.pk
    Deal.objects.filter(pk=snapshot.game.deal_id).update(seed=2)
    history.positions.clear()
    for _ in range(8):
        apply_action(game_id, ana, {"type": "move", "move": DRAW})
    Game.objects.filter(pk=game_id).update(status=Game.Status.PLAYING, finished=None)
    history.positions.clear()
    assert verdicts.hint_for(ana, game_id) is None
    assert Game.objects.get(pk=game_id).status == Game.Status.LOST


def test_bad_ids_and_other_peoples_games_are_404(client: Client) -> None:
    game = new_game(client)
    stranger = Client()
    assert stranger.get(f"/api/games/{game['id']}/hint").status_code == 404
    assert client.get("/api/games/999999/hint").status_code == 404
    assert client.get("/api/games/99999999999999999999999/hint").status_code == 404
    assert Game.objects.get(pk=game["id"]).status == Game.Status.PLAYING
    assert not Move.objects.exists()
