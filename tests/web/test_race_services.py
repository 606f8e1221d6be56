"""The race services on their own, without sockets: seats, readiness, the start, moves,
refusals, the end and rematches, against the real database and rules engine."""

from __future__ import annotations

from typing import Any

import pytest

import solitaire
from games.core import errors
from games.core.actors import Actor
from games.models import Race, RaceMove
from games.races import lobby, play, records
from games.races.payloads import race_payload
from tests.support.positions import almost_blocked, near_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_countdown(settings: Any) -> None:
    """The countdown runs out at once, so play can open without waiting."""
    settings.RACE_TICK_SECONDS = 0.0


def move(source: str, target: str) -> solitaire.Move:
    return solitaire.Move(source, target)


def seated_race(ana: Actor, ben: Actor, position: dict[str, Any] | None = None) -> int:
    race = lobby.create_race(ana, {}, "Ana").race
    lobby.join_race(ben, race.pk, race.invite_token, "Ben")
    if position is not None:
        lobby.use_start_position(race.pk, position)
    return race.pk


def started_race(ana: Actor, ben: Actor, position: dict[str, Any] | None = None) -> int:
    race_id = seated_race(ana, ben, position)
    lobby.set_ready(ana, race_id)
    lobby.set_ready(ben, race_id)
    assert lobby.begin(race_id).race.status == Race.Status.PLAYING
    return race_id


def refusal(call: Any, *args: Any) -> str:
    with pytest.raises(errors.ServiceError) as refused:
        call(*args)
    return refused.value.code


def test_both_players_ready_starts_the_countdown_and_begin_opens_play_once(ana: Actor, ben: Actor) -> None:
    race_id = seated_race(ana, ben)
    assert lobby.set_ready(ana, race_id).race.status == Race.Status.WAITING
    assert not lobby.set_ready(ana, race_id).applied  # again: nothing changes
    assert lobby.set_ready(ben, race_id).race.status == Race.Status.COUNTDOWN
    assert lobby.begin(race_id).applied
    assert not lobby.begin(race_id).applied


def test_no_move_before_the_start(ana: Actor, ben: Actor) -> None:
    race_id = seated_race(ana, ben)
    assert refusal(play.play_move, ana, race_id, move("p1.stock", "p1.waste")) == "not_started"
    assert not RaceMove.objects.exists()


def test_a_move_is_logged_once_per_id_and_seat(ana: Actor, ben: Actor) -> None:
    race_id = started_race(ana, ben)
    first = play.play_move(ana, race_id, move("p1.stock", "p1.waste"), "m1")
    again = play.play_move(ana, race_id, move("p1.stock", "p1.waste"), "m1")
    assert first.applied and not again.applied
    assert play.play_move(ben, race_id, move("p2.stock", "p2.waste"), "m1").applied  # ids are per seat
    assert RaceMove.objects.filter(race_id=race_id).count() == 2


def test_the_other_seats_piles_and_unknown_piles_are_refused(ana: Actor, ben: Actor) -> None:
    race_id = started_race(ana, ben)
    assert refusal(play.play_move, ana, race_id, move("p2.stock", "p2.waste")) == "not_your_pile"
    assert refusal(play.play_move, ana, race_id, move("p1.t9", "f1")) == "unknown_pile"
    assert refusal(play.play_move, Actor(token="spectator"), race_id, move("p1.stock", "p1.waste")) == (
        "not_a_player"
    )
    assert not RaceMove.objects.exists()


def test_playing_home_first_wins_and_the_result_is_the_engines(ana: Actor, ben: Actor) -> None:
    race_id = started_race(ana, ben, near_the_end())
    line = [("p1.t3", "f1"), ("p1.t2", "f1"), ("p1.t1", "f3"), ("p1.t1", "f1")]
    line += [("p1.stock", "p1.waste"), ("p1.waste", "f3"), ("p1.waste", "f5"), ("p1.waste", "f7")]
    for number, (source, target) in enumerate(line):
        last = play.play_move(ana, race_id, move(source, target), f"m{number}")
    race = last.race
    assert race.status == Race.Status.FINISHED
    assert race.result == last.state.rules.result(last.state)
    assert race.result["winner"] == 1
    assert refusal(play.play_move, ben, race_id, move("p2.t3", "f2")) == "race_over"
    assert race_payload(records.load_snapshot(race_id, lock=False), 2)["seed"] == race.seed


def test_a_race_ends_blocked_on_the_move_after_which_nobody_can_progress(ana: Actor, ben: Actor) -> None:
    race_id = started_race(ana, ben, almost_blocked())
    finished = play.play_move(ben, race_id, move("p2.t1", "f2"))
    assert finished.race.status == Race.Status.FINISHED
    assert finished.race.result["winner"] == 1


def test_resigning_gives_the_race_to_the_other_seat(ana: Actor, ben: Actor) -> None:
    race_id = started_race(ana, ben)
    race = play.resign(ben, race_id).race
    assert (race.status, race.result["winner"], race.result["reason"]) == (
        Race.Status.FINISHED,
        1,
        "resigned",
    )
    assert refusal(play.resign, ana, race_id) == "race_over"


def test_both_offering_to_stop_ends_the_race_on_contributions(ana: Actor, ben: Actor) -> None:
    race_id = started_race(ana, ben, almost_blocked())
    assert play.offer_end(ana, race_id).race.status == Race.Status.PLAYING
    assert not play.offer_end(ana, race_id).applied
    race = play.offer_end(ben, race_id).race
    assert (race.status, race.result["reason"], race.result["winner"]) == (Race.Status.FINISHED, "agreed", 1)


def test_a_rematch_is_one_new_race_for_both(ana: Actor, ben: Actor) -> None:
    race_id = started_race(ana, ben)
    assert refusal(lobby.rematch, ana, race_id) == "not_finished"
    play.resign(ana, race_id)
    first = lobby.rematch(ana, race_id)
    second = lobby.rematch(ben, race_id)
    assert first.race.pk == second.race.pk != race_id
    assert not second.applied
    assert {n: s.name for n, s in second.seats.items()} == {1: "Ana", 2: "Ben"}


def test_joining_is_refused_to_the_creator_a_third_player_and_a_wrong_token(ana: Actor, ben: Actor) -> None:
    race = lobby.create_race(ana, {}, "Ana").race
    assert refusal(lobby.join_race, ana, race.pk, race.invite_token, "Ana") == "own_race"
    assert refusal(lobby.join_race, ben, race.pk, "wrong", "Ben") == "not_found"
    lobby.join_race(ben, race.pk, race.invite_token, "Ben")
    assert not lobby.join_race(ben, race.pk, race.invite_token, "Ben").applied
    assert refusal(lobby.join_race, Actor(token="carla"), race.pk, race.invite_token, "Carla") == "race_full"


def test_a_move_naming_cards_no_longer_there_is_stale(ana: Actor, ben: Actor) -> None:
    race_id = started_race(ana, ben, near_the_end())
    stale = solitaire.Move("p1.t3", "f1", 1, ("QC",))
    assert refusal(play.play_move, ana, race_id, stale) == "stale"
    named = solitaire.Move("p1.t3", "f1", 1, ("JC",))
    assert play.play_move(ana, race_id, named).applied
    assert RaceMove.objects.get(race_id=race_id).move == {"from": "p1.t3", "to": "f1", "count": 1}
