"""The races' HTTP API: creating, joining, looking, rematches and replays, with real
sessions (one Django test client per browser) against the real database."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.core.actors import Actor
from games.models import Race
from games.races import lobby as race_lobby
from games.races import play as race_play
from games.races import records as race_records

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def create(client: Client, name: str = "Ana", options: dict[str, Any] | None = None) -> dict[str, Any]:
    response = post(client, "/api/races", {"name": name, "options": options or {}})
    assert response.status_code == 201, response.content
    return response.json()


def test_creating_a_race_gives_seat_one_an_invite_and_a_watch_link_but_no_seed() -> None:
    ana = Client()
    race = create(ana, "  Ana  ", {"same_deal": True})
    assert race["seat"] == 1 and race["status"] == "waiting"
    assert race["options"] == {"same_deal": True}
    assert race["invite_url"] == f"/races/{race['id']}/join/{race['token']}/"
    assert race["watch_url"].startswith(f"/races/{race['id']}/watch/")
    assert race["players"] == [
        {
            "seat": 1,
            "name": "Ana",
            "ready": False,
            "offered_end": False,
            "connected": False,
            "contribution": 0,
        }
    ]
    assert "seed" not in race
    seed = Race.objects.get(pk=race["id"]).seed
    assert str(seed) not in json.dumps(race)
    # Own shuffle is the default.
    assert create(Client(), "Bo")["options"] == {"same_deal": False}


def test_same_deal_gives_both_seats_the_same_layout() -> None:
    ana, ben = Client(), Client()
    race = create(ana, options={"same_deal": True})
    post(ben, f"/api/races/{race['id']}/join", {"token": race["token"], "name": "Ben"})
    snapshot, _ = race_records.get_race_for(Actor(), race["id"], race["token"])
    position = snapshot.state.to_position()
    for pile in ("stock", "t1", "t4", "t7"):
        assert position[f"p1.{pile}"] == position[f"p2.{pile}"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"options": {}}, "name_required"),
        ({"name": "   ", "options": {}}, "name_required"),
        ({"name": "x" * 41}, "name_too_long"),
        ({"name": "Ana", "options": {"same_deal": "yes"}}, "bad_options"),
        ({"name": "Ana", "options": {"draw": 1}}, "bad_options"),
        ({"name": "Ana", "options": [1]}, "bad_options"),
    ],
)
def test_bad_create_requests_get_a_clear_400(body: dict[str, Any], code: str) -> None:
    response = post(Client(), "/api/races", body)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert Race.objects.count() == 0


def test_a_logged_in_player_races_under_their_account_name() -> None:
    user = get_user_model().objects.create_user("carla", password="a long enough password")
    client = Client()
    client.force_login(user)
    race = create(client, name="ignored")
    assert race["players"][0]["name"] == "carla"
    # The seat follows the account to another browser.
    elsewhere = Client()
    elsewhere.force_login(user)
    assert elsewhere.get(f"/api/races/{race['id']}").json()["seat"] == 1


def test_the_invite_link_gives_the_second_seat_once() -> None:
    ana, ben, eve = Client(), Client(), Client()
    race = create(ana)
    url = f"/api/races/{race['id']}/join"

    assert post(ben, url, {"token": "wrong", "name": "Ben"}).status_code == 404
    joined = post(ben, url, {"token": race["token"], "name": "Ben"})
    assert joined.status_code == 200 and joined.json()["seat"] == 2
    again = post(ben, url, {"token": race["token"], "name": "Ben"})
    assert again.status_code == 200 and again.json()["seat"] == 2

    full = post(eve, url, {"token": race["token"], "name": "Eve"})
    assert full.status_code == 409 and full.json()["code"] == "race_full"
    assert "Ana and Ben" in full.json()["error"]
    own = post(ana, url, {"token": race["token"], "name": "Ana"})
    assert own.status_code == 409 and own.json()["code"] == "own_race"

    seen_by_ana = ana.get(f"/api/races/{race['id']}").json()
    assert [p["name"] for p in seen_by_ana["players"]] == ["Ana", "Ben"]


def test_only_players_and_holders_of_a_link_may_look() -> None:
    ana, ben = Client(), Client()
    race = create(ana)
    url = f"/api/races/{race['id']}"
    watch_token = race["watch_url"].split("/")[-2]

    assert ben.get(url).status_code == 404
    assert ben.get(url, {"token": "guess"}).status_code == 404
    assert ben.get(url, {"token": "été"}).status_code == 404
    assert post(ben, f"{url}/join", {"token": "\ud800", "name": "Ben"}).status_code == 404
    assert Client().get("/api/races/999999").status_code == 404

    watching = ben.get(url, {"token": watch_token}).json()
    assert watching["seat"] is None
    assert watching["state"]["moves"] == [] and watching["state"]["player"] is None
    assert "invite_url" not in watching and "token" not in watching
    invited = ben.get(url, {"token": race["token"]}).json()
    assert invited["seat"] is None and invited["invite_url"] == race["invite_url"]

    mine = ana.get(url).json()
    assert mine["seat"] == 1 and mine["state"]["player"] == 1 and mine["state"]["moves"]
    assert all(m["from"].startswith("p1.") for m in mine["state"]["moves"])
    assert all(card is None for pile in ("p1.t7", "p2.t7") for card in mine["state"]["piles"][pile][:-1])
    assert isinstance(mine["state"]["piles"]["p2.stock"], int)


def test_a_finished_race_can_be_replayed_with_its_seed_and_rematched() -> None:
    ana, ben = Client(), Client()
    race = create(ana)
    race_id = race["id"]
    post(ben, f"/api/races/{race_id}/join", {"token": race["token"], "name": "Ben"})
    assert ana.get(f"/api/races/{race_id}/replay").status_code == 409
    assert post(ana, f"/api/races/{race_id}/rematch").json()["code"] == "not_finished"

    snapshot, _ = race_records.get_race_for(Actor(), race_id, race["token"])
    ana_actor = Actor(token=ana.session["player_token"])
    ben_actor = Actor(token=ben.session["player_token"])
    race_lobby.set_ready(ana_actor, race_id)
    race_lobby.set_ready(ben_actor, race_id)
    Race.objects.filter(pk=race_id).update(starts_at=Race.objects.get(pk=race_id).created)
    race_play.play_move(
        ana_actor, race_id, race_play.parse_move({"from": "p1.stock", "to": "p1.waste"}), "d1"
    )
    race_play.play_move(
        ben_actor, race_id, race_play.parse_move({"from": "p2.stock", "to": "p2.waste"}), "d1"
    )
    race_play.resign(ben_actor, race_id)

    done = ana.get(f"/api/races/{race_id}").json()
    assert done["status"] == "finished" and done["seed"] == snapshot.race.seed
    assert done["result"]["winner"] == 1 and done["result"]["reason"] == "resigned"

    replay = ana.get(f"/api/races/{race_id}/replay").json()
    assert replay["seed"] == snapshot.race.seed
    assert [m["seat"] for m in replay["moves"]] == [1, 2]
    assert len(replay["frames"]) == 3
    assert replay["frames"][0]["piles"]["p1.stock"] == 24
    assert replay["frames"][1]["piles"]["p1.stock"] == 21
    assert len(replay["frames"][2]["piles"]["p2.waste"]) == 3
    assert Client().get(f"/api/races/{race_id}/replay").status_code == 404
    watch_token = race["watch_url"].split("/")[-2]
    assert Client().get(f"/api/races/{race_id}/replay", {"token": watch_token}).status_code == 200

    rematch = post(ben, f"/api/races/{race_id}/rematch").json()
    assert rematch["seat"] == 2 and rematch["status"] == "waiting" and rematch["id"] != race_id
    assert post(ana, f"/api/races/{race_id}/rematch").json()["id"] == rematch["id"]
    assert ana.get(f"/api/races/{race_id}").json()["rematch"] == rematch["id"]
    listed = ana.get("/api/races").json()["races"]
    assert [r["id"] for r in listed] == [rematch["id"], race_id]


def test_the_race_pages_answer_and_wrong_links_do_not() -> None:
    ana = Client()
    race = create(ana)
    assert ana.get("/races/").status_code == 200
    assert ana.get(f"/races/{race['id']}/").status_code == 200
    assert Client().get(race["invite_url"]).status_code == 200
    assert Client().get(race["watch_url"]).status_code == 200
    assert Client().get(f"/races/{race['id']}/join/nope/").status_code == 404
    assert Client().get(f"/races/{race['id']}/watch/nope/").status_code == 404
    assert Client().get("/races/424242/").status_code == 404
