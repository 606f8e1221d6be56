"""Redo, abandon, delete, the daily deal, pages of games, and version checks: the
services and the HTTP API, with the real engine and database."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.core import errors
from games.core.actors import Actor
from games.models import Game, Move
from games.solo import deals, history, owners, play, stats
from games.solo.payloads import game_payload
from tests.support.solo import apply_action, klondike

pytestmark = pytest.mark.django_db


def first_move(snapshot: Any) -> dict[str, Any]:
    return snapshot.state.view()["moves"][0]


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


# ------------------------------------------------------------------ redo


def test_redo_plays_the_undone_move_again_as_a_new_log_entry(ana: Actor) -> None:
    dealt = klondike(ana)
    game_id = dealt.game.pk
    moved = apply_action(game_id, ana, {"type": "move", "move": first_move(dealt)})
    undone = apply_action(game_id, ana, {"type": "undo"})
    assert undone.state == dealt.state
    assert game_payload(undone)["can_redo"] and not game_payload(undone)["can_undo"]
    redone = apply_action(game_id, ana, {"type": "redo"})
    assert redone.state == moved.state
    assert redone.game.version == 3 and redone.game.moves_made == 1
    assert list(Move.objects.filter(game_id=game_id).values_list("move", flat=True))[1:] == [
        {"undo": True},
        {"redo": True},
    ]
    payload = game_payload(redone)
    assert payload["can_undo"] and not payload["can_redo"]


def test_redo_steps_forward_through_several_undos_in_order(ana: Actor) -> None:
    dealt = klondike(ana)
    game_id = dealt.game.pk
    states = [dealt.state]
    for _ in range(3):
        states.append(
            apply_action(
                game_id, ana, {"type": "move", "move": first_move(play.get_game_for(ana, game_id))}
            ).state
        )
    for _ in range(3):
        apply_action(game_id, ana, {"type": "undo"})
    for expected in states[1:]:
        assert apply_action(game_id, ana, {"type": "redo"}).state == expected
    history.positions.clear()  # the replayed log agrees with what was played
    assert play.get_game_for(ana, game_id).state == states[-1]


def test_a_new_move_leaves_nothing_to_redo(ana: Actor) -> None:
    dealt = klondike(ana)
    game_id = dealt.game.pk
    with pytest.raises(errors.Refused) as nothing:
        apply_action(game_id, ana, {"type": "redo"})
    assert nothing.value.code == "nothing_to_redo"
    apply_action(game_id, ana, {"type": "move", "move": first_move(dealt)})
    apply_action(game_id, ana, {"type": "undo"})
    apply_action(game_id, ana, {"type": "move", "move": {"from": "stock", "to": "waste"}})
    with pytest.raises(errors.Refused) as refused:
        apply_action(game_id, ana, {"type": "redo"})
    assert refused.value.code == "nothing_to_redo"
    history.positions.clear()
    assert not game_payload(play.get_game_for(ana, game_id))["can_redo"]


def test_redo_over_http(client: Client) -> None:
    game = post(client, "/api/games", {"game": "klondike", "options": {"draw": 1}, "deal": 7}).json()
    post(client, f"/api/games/{game['id']}/moves", {"move": game["state"]["moves"][0]})
    assert post(client, f"/api/games/{game['id']}/undo").json()["can_redo"] is True
    redone = post(client, f"/api/games/{game['id']}/redo", {"id": "r1", "version": 2})
    assert redone.status_code == 200
    assert redone.json()["version"] == 3


# ------------------------------------------------------------------ versions


def test_a_stale_version_is_refused_with_the_current_one(ana: Actor) -> None:
    dealt = klondike(ana)
    apply_action(dealt.game.pk, ana, {"type": "move", "move": first_move(dealt)}, expected_version=0)
    with pytest.raises(errors.Refused) as stale:
        apply_action(dealt.game.pk, ana, {"type": "move", "move": first_move(dealt)}, expected_version=0)
    assert (stale.value.code, stale.value.data) == ("stale", {"version": 1})


@pytest.mark.parametrize("version", [-1, "1", 1.0, True])
def test_a_malformed_version_is_a_bad_request(ana: Actor, version: object) -> None:
    dealt = klondike(ana)
    with pytest.raises(errors.BadRequest):
        apply_action(dealt.game.pk, ana, {"type": "undo"}, expected_version=version)


# ------------------------------------------------------------------ abandon and delete


def test_an_abandoned_game_is_settled_and_counts_as_lost(ana: Actor) -> None:
    dealt = klondike(ana)
    game_id = dealt.game.pk
    apply_action(game_id, ana, {"type": "move", "move": first_move(dealt)})
    abandoned = play.abandon(ana, game_id)
    assert abandoned.game.status == Game.Status.ABANDONED and abandoned.game.finished is not None
    assert abandoned.game.version == 2
    payload = game_payload(abandoned)
    assert (payload["status"], payload["can_undo"], payload["can_redo"]) == ("abandoned", False, False)
    for action in ({"type": "undo"}, {"type": "move", "move": {"from": "stock", "to": "waste"}}):
        with pytest.raises(errors.Refused) as refused:
            apply_action(game_id, ana, action)
        assert refused.value.code == "game_over"
    assert not play.abandon(ana, game_id).applied  # again: nothing changes
    history.positions.clear()
    assert play.get_game_for(ana, game_id).state == abandoned.state
    overall = stats.statistics_for(ana)["overall"]
    assert (overall["played"], overall["won"], overall["current_streak"]) == (1, 0, 0)


def test_abandon_and_delete_over_http(client: Client) -> None:
    game = post(client, "/api/games", {"game": "klondike", "deal": 3}).json()
    response = post(client, f"/api/games/{game['id']}/abandon")
    assert (response.status_code, response.json()["status"]) == (200, "abandoned")
    assert Client().delete(f"/api/games/{game['id']}").status_code == 404  # not a stranger's to delete
    assert client.delete(f"/api/games/{game['id']}").status_code == 204
    assert client.get(f"/api/games/{game['id']}").status_code == 404
    assert not Move.objects.filter(game_id=game["id"]).exists()
    assert client.delete(f"/api/games/{game['id']}").status_code == 404


# ------------------------------------------------------------------ pages of games


def test_games_are_listed_a_page_at_a_time(client: Client) -> None:
    ids = [post(client, "/api/games", {"game": "klondike", "deal": n}).json()["id"] for n in range(23)]
    first = client.get("/api/games").json()
    assert [g["id"] for g in first["games"]] == ids[::-1][:20]
    assert (first["page"], first["next"]) == (1, 2)
    second = client.get("/api/games?page=2").json()
    assert [g["id"] for g in second["games"]] == ids[::-1][20:]
    assert second["next"] is None
    for bad in ("0", "x", "-1"):
        assert client.get(f"/api/games?page={bad}").json()["code"] == "bad_page"


# ------------------------------------------------------------------ the daily deal


def test_the_daily_deal_is_one_number_for_everyone_per_day_game_and_options(client: Client) -> None:
    today = client.get("/api/daily?game=klondike&draw=1").json()
    assert today["date"] == timezone.now().date().isoformat()
    assert Client().get("/api/daily?game=klondike&draw=1").json()["deal"] == today["deal"]
    assert client.get('/api/daily?game=klondike&options={"draw": 1}').json()["deal"] == today["deal"]
    assert client.get("/api/daily?game=klondike&draw=3").json()["deal"] != today["deal"]
    assert client.get("/api/daily?game=josephine").json()["deal"] != today["deal"]
    day = timezone.now().date()
    assert deals.daily_deal("klondike", {"draw": 1}, day + timedelta(days=1)).number != today["deal"]
    assert (today["played"], today["best"], today["results"]) == (0, None, [])
    for bad in ("game=chess", "game=klondike&draw=2", "game=klondike&colour=red"):
        assert client.get(f"/api/daily?{bad}").status_code == 400


def test_the_daily_results_rank_todays_wins_by_moves_then_time(
    ana: Actor, ben: Actor, client: Client
) -> None:
    daily = deals.daily_deal("klondike", {"draw": 1}, timezone.now().date())
    carla = User.objects.create_user("carla")
    finishes = [(ana, 90, 300), (ben, 80, 400), (Actor(user_id=carla.pk), 80, 200)]
    for actor, moves, seconds in finishes:
        game = play.create_game(actor, "klondike", {"draw": 1}, daily.number)
        Game.objects.filter(pk=game.game.pk).update(
            status=Game.Status.WON, version=moves, moves_made=moves, elapsed=timedelta(seconds=seconds)
        )
    play.create_game(ana, "klondike", {"draw": 1}, daily.number)  # dealt, not played
    results = stats.daily_results(daily, ana)
    assert (results["played"], results["won"]) == (3, 3)
    assert [(r["player"], r["moves"], r["seconds"], r["you"]) for r in results["results"]] == [
        ("carla", 80, 200, False),
        ("Anonymous", 80, 400, False),
        ("Anonymous", 90, 300, True),
    ]
    assert results["best"] == results["results"][0]


# ------------------------------------------------------------------ ownership


def test_a_game_that_moved_to_an_account_says_so_to_its_old_session(ana: Actor) -> None:
    dealt = klondike(ana)
    user = User.objects.create_user("ana")
    assert owners.give_anonymous_games(ana.token, user.pk) == 1
    with pytest.raises(errors.NotFound) as moved:
        play.get_game_for(ana, dealt.game.pk)
    assert moved.value.code == "ownership_moved"
    with pytest.raises(errors.NotFound) as moving:
        apply_action(dealt.game.pk, ana, {"type": "move", "move": first_move(dealt)})
    assert moving.value.code == "ownership_moved"
    with pytest.raises(errors.NotFound) as stranger:
        play.get_game_for(Actor(token="someone-else"), dealt.game.pk)
    assert stranger.value.code == "not_found"
    assert play.get_game_for(Actor(user_id=user.pk), dealt.game.pk).game.pk == dealt.game.pk


# ------------------------------------------------------------------ the engine's words


def test_a_move_naming_cards_no_longer_on_top_is_stale_and_moves_nothing(client: Client) -> None:
    game = post(client, "/api/games", {"game": "klondike", "options": {"draw": 1}, "deal": 7}).json()
    url = f"/api/games/{game['id']}/moves"
    drawn = post(client, url, {"move": {"from": "stock", "to": "waste"}}).json()
    top = drawn["state"]["piles"]["waste"][-1]
    post(client, url, {"move": {"from": "stock", "to": "waste"}})
    stale = post(client, url, {"move": {"from": "waste", "to": "t1", "cards": [top]}})
    assert (stale.status_code, stale.json()["code"]) == (409, "stale")
    assert stale.json()["data"]["expected"] == [top]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 2


def test_errors_carry_the_engines_code_and_public_data(client: Client) -> None:
    game = post(client, "/api/games", {"game": "klondike", "options": {"draw": 1}, "deal": 7}).json()
    url = f"/api/games/{game['id']}/moves"
    unknown = post(client, url, {"move": {"from": "t9", "to": "f1"}})
    assert (unknown.status_code, unknown.json()["code"], unknown.json()["data"]) == (
        400,
        "unknown_pile",
        {"pile": "t9"},
    )
    malformed = post(client, url, {"move": {"from": "t1", "to": "f1", "count": 1.0}})
    assert (malformed.status_code, malformed.json()["code"]) == (400, "bad_move")


def test_the_game_object_describes_the_game_and_its_safe_moves(client: Client) -> None:
    game = post(client, "/api/games", {"game": "klondike", "options": {"draw": 1}, "deal": 7}).json()
    assert game["describe"]["title"] == "Klondike"
    assert game["describe"]["piles"]["t1"]["fills"] == "king"
    assert set(game["describe"]["piles"]) == set(game["state"]["piles"])
    legal = [(m["from"], m["to"]) for m in game["state"]["moves"]]
    assert all((m["from"], m["to"]) in legal for m in game["safe_moves"])
    race = post(client, "/api/races", {"name": "Ana"}).json()
    assert race["describe"]["players"] == 2
