"""The seek pool over HTTP: pairing, waiting, cancelling, the computer offer, and pairing
exactly once when many try at the same moment (threads on this database; the scale
suite does it with two processes on PostgreSQL)."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import close_old_connections
from django.test import Client

from games.core.actors import Actor
from games.models import Race, Seek
from games.races import seeks

pytestmark = pytest.mark.django_db(transaction=True)


def post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def test_two_seekers_with_the_same_options_get_one_race() -> None:
    ana, ben = Client(), Client()
    first = post(ana, "/api/seeks", {"name": "Ana", "options": {"same_deal": True}})
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "waiting"
    second = post(ben, "/api/seeks", {"name": "Ben", "options": {"same_deal": True}})
    assert second.json()["status"] == "matched"
    race = second.json()["race"]
    assert race["seat"] == 2 and [p["name"] for p in race["players"]] == ["Ana", "Ben"]
    assert race["status"] == "waiting"  # both press Ready, as in an invited race
    polled = ana.get(f"/api/seeks/{first.json()['id']}").json()
    assert polled["status"] == "matched" and polled["race"]["id"] == race["id"]
    assert polled["race"]["seat"] == 1
    assert "p2.t7" in polled["race"]["state"]["piles"]


def test_different_options_do_not_pair_and_a_seek_is_its_owners_alone() -> None:
    ana, ben = Client(), Client()
    mine = post(ana, "/api/seeks", {"name": "Ana", "options": {"same_deal": True}}).json()
    theirs = post(ben, "/api/seeks", {"name": "Ben", "options": {"same_deal": False}}).json()
    assert mine["status"] == theirs["status"] == "waiting"
    assert ben.get(f"/api/seeks/{mine['id']}").status_code == 404
    assert ben.delete(f"/api/seeks/{mine['id']}").status_code == 404


def test_cancelled_seeks_do_not_pair() -> None:
    ana, ben = Client(), Client()
    mine = post(ana, "/api/seeks", {"name": "Ana", "options": {}}).json()
    assert ana.delete(f"/api/seeks/{mine['id']}").json()["status"] == "cancelled"
    theirs = post(ben, "/api/seeks", {"name": "Ben", "options": {}}).json()
    assert theirs["status"] == "waiting"
    assert not Race.objects.exists()


def test_the_computer_is_offered_after_twenty_seconds_and_stale_seeks_do_not_pair() -> None:
    ana, ben = Client(), Client()
    mine = post(ana, "/api/seeks", {"name": "Ana", "options": {}}).json()
    assert mine["offer_computer"] is False
    long_ago = seeks.records.now() - timedelta(seconds=25)
    Seek.objects.filter(pk=mine["id"]).update(created=long_ago)
    assert ana.get(f"/api/seeks/{mine['id']}").json()["offer_computer"] is True
    # Ana left without a word: her seek goes stale and Ben is not paired with it.
    Seek.objects.filter(pk=mine["id"]).update(seen=seeks.records.now() - timedelta(seconds=60))
    theirs = post(ben, "/api/seeks", {"name": "Ben", "options": {}}).json()
    assert theirs["status"] == "waiting"


def test_a_bad_seek_is_refused() -> None:
    ana = Client()
    assert post(ana, "/api/seeks", {"name": "", "options": {}}).status_code == 400
    assert post(ana, "/api/seeks", {"name": "Ana", "options": {"draw": 1}}).status_code == 400


def test_seekers_arriving_together_are_each_paired_exactly_once() -> None:
    # Eight seekers are inserted at once, as if each arrived before seeing the others;
    # then every one of them polls from its own thread at the same moment, repeatedly.
    actors = [Actor(token=f"seeker-{k}") for k in range(8)]
    made = [
        Seek.objects.create(
            options={"same_deal": False},
            options_key=seeks.options_key({"same_deal": False}),
            name=f"P{k}",
            player_key=actor.token or "",
            seen=seeks.records.now(),
        )
        for k, actor in enumerate(actors)
    ]
    barrier = threading.Barrier(len(made))
    errors: list[BaseException] = []

    def poll(actor: Actor, seek_id: int) -> None:
        try:
            barrier.wait()
            for _ in range(3):
                seeks.seek_status(actor, seek_id)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=poll, args=(a, s.pk)) for a, s in zip(actors, made, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    rows = list(Seek.objects.filter(pk__in=[s.pk for s in made]))
    assert all(row.status == "matched" for row in rows)
    by_race: dict[int, list[str]] = {}
    for row in rows:
        assert row.race_id is not None
        by_race.setdefault(row.race_id, []).append(row.player_key)
    assert len(by_race) == 4 and all(len(keys) == 2 for keys in by_race.values())
    assert Race.objects.count() == 4


def test_only_races_listed_by_their_creator_appear_live() -> None:
    ana, ben, cy = Client(), Client(), Client()
    public = post(ana, "/api/races", {"name": "Ana", "opponent": "computer", "level": "easy", "public": True})
    private = post(ben, "/api/races", {"name": "Ben", "opponent": "computer", "level": "easy"})
    assert public.status_code == private.status_code == 201
    assert cy.get("/api/races/live").json() == {"races": []}  # not started yet
    for race in (public.json(), private.json()):
        Race.objects.filter(pk=race["id"]).update(status=Race.Status.PLAYING)
    live = cy.get("/api/races/live").json()["races"]
    assert [race["id"] for race in live] == [public.json()["id"]]
    assert live[0]["players"] == ["Ana", "Computer (Easy)"]
    watched = cy.get(live[0]["watch_url"])
    assert watched.status_code == 200
