"""Ratings move once when a race ends: against the computer (fixed level ratings) and
against a person; anonymous ratings move to the account on login."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.core.actors import PLAYER_TOKEN_KEY, Actor
from games.models import PlayerRating, Race, RaceRating
from games.races import bot, lobby, payloads, play, ratings, records
from solitaire.racer import LEVELS

pytestmark = pytest.mark.django_db


def started(race_id: int, *players: Actor) -> None:
    for player in players:
        lobby.set_ready(player, race_id)
    Race.objects.filter(pk=race_id).update(starts_at=records.now() - timedelta(seconds=1))
    lobby.begin(race_id)


def test_beating_the_computer_raises_the_rating_and_the_level_stays(ana: Actor) -> None:
    snapshot = bot.create_bot_race(ana, {}, "Ana", "sharp")
    race_id = snapshot.race.pk
    started(race_id, ana)
    seated = bot.bot_seat_of(race_id)
    assert seated is not None
    play.resign(seated.actor, race_id)  # the computer gives up: Ana wins
    mine = ratings.rating_for(ana)
    assert mine["rating"] > 1500 and mine["races"] == 1 and mine["provisional"]
    assert mine["recent"][0]["opponent"] == "Computer (Sharp)"
    assert mine["recent"][0]["replay_url"] == f"/races/{race_id}/replay/"
    assert PlayerRating.objects.count() == 1  # the computer has no row: its rating is fixed
    assert LEVELS["sharp"].rating == mine["levels"]["sharp"]
    # Rating the same race again changes nothing.
    ratings.rate_race(Race.objects.get(pk=race_id))
    assert RaceRating.objects.filter(race_id=race_id).count() == 1
    assert ratings.rating_for(ana)["rating"] == mine["rating"]


def test_a_race_between_people_moves_both_ratings(ana: Actor, ben: Actor) -> None:
    snapshot = lobby.create_race(ana, {}, "Ana")
    race_id = snapshot.race.pk
    lobby.join_race(ben, race_id, snapshot.race.invite_token, "Ben")
    started(race_id, ana, ben)
    play.resign(ben, race_id)
    assert ratings.rating_for(ana)["rating"] > 1500 > ratings.rating_for(ben)["rating"]
    assert ratings.rating_for(ben)["recent"][0]["score"] == 0.0


def test_a_race_that_never_started_is_not_rated(ana: Actor, ben: Actor) -> None:
    snapshot = lobby.create_race(ana, {}, "Ana")
    lobby.join_race(ben, snapshot.race.pk, snapshot.race.invite_token, "Ben")
    play.resign(ben, snapshot.race.pk)
    assert not RaceRating.objects.exists()


def test_the_anonymous_rating_moves_to_the_account_on_login() -> None:
    browser = Client()
    created = browser.post(
        "/api/races",
        json.dumps({"name": "Ana", "opponent": "computer", "level": "easy"}),
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    race_id = created.json()["id"]
    token = browser.session[PLAYER_TOKEN_KEY]
    ana = Actor(token=token)
    started(race_id, ana)
    play.resign(ana, race_id)
    assert browser.get("/api/ratings/me").json()["rating"] < 1500
    user = get_user_model().objects.create_user("ana", password="a long password 123")
    browser.force_login(user)
    after = browser.get("/api/ratings/me").json()
    assert after["rating"] < 1500 and after["races"] == 1
    assert PlayerRating.objects.get().user_id == user.pk


def test_the_finished_race_payload_carries_each_seats_rating_change(ana: Actor) -> None:
    snapshot = bot.create_bot_race(ana, {}, "Ana", "steady")
    race_id = snapshot.race.pk
    started(race_id, ana)
    assert payloads.race_payload(records.load_snapshot(race_id, lock=False), 1).get("ratings") is None
    ended = play.resign(ana, race_id)
    # The snapshot of the change that ended the race carries the changes: no read needed,
    # so a socket rendering it on the loop (presence given) has them too.
    told = payloads.race_payload(ended, 1, presence={1: True, 2: True})["ratings"]
    mine = ratings.rating_for(ana)
    assert told["1"] == {
        "before": 1500,
        "after": mine["rating"],
        "change": mine["rating"] - 1500,
        "fixed": False,
        "provisional": True,
    }
    assert told["1"]["change"] < 0
    assert told["2"]["fixed"] and told["2"]["before"] == told["2"]["after"] == LEVELS["steady"].rating
    # Read later from the database (HTTP, a socket reading the race): the same.
    read = payloads.race_payload(records.load_snapshot(race_id, lock=False), 1)["ratings"]
    assert read == told
    # On the loop without the changes at hand, nothing is read (and nothing is made up).
    fresh = records.load_snapshot(race_id, lock=False)
    assert payloads.race_payload(fresh, 1, presence={1: True, 2: True})["ratings"] is None


def test_the_results_page_shows_the_rating_and_recent_races_with_replays() -> None:
    browser = Client()
    empty = browser.get("/races/results/")
    assert empty.status_code == 200 and b"No rated races yet" in empty.content
    created = browser.post(
        "/api/races",
        json.dumps({"name": "Ana", "opponent": "computer", "level": "sharp"}),
        content_type="application/json",
    )
    race_id = created.json()["id"]
    ana = Actor(token=browser.session[PLAYER_TOKEN_KEY])
    started(race_id, ana)
    seated = bot.bot_seat_of(race_id)
    assert seated is not None
    play.resign(seated.actor, race_id)  # Ana wins
    mine = browser.get("/api/ratings/me").json()
    page = browser.get("/races/results/")
    text = page.content.decode()
    assert f'<strong class="rating-value">{mine["rating"]}</strong>' in text
    assert "Computer (Sharp)" in text and ">won<" in text
    assert f'href="/races/{race_id}/replay/"' in text
    assert f'1500 → {mine["rating"]} <span class="rating-change">(+{mine["rating"] - 1500})' in text
    # The strict CSP: the page has no inline script or style.
    assert "<script>" not in text and "style=" not in text
