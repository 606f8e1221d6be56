"""The bot's moves go through the same service and the same refusals as a person's:
no move before the start, a foundation spot taken first, cards no longer on top."""

from __future__ import annotations

from datetime import timedelta

import pytest

import solitaire
from games.core.actors import Actor
from games.core.errors import Refused
from games.models import Race, RaceBot, RaceMove
from games.races import bot, lobby, play, records
from solitaire.racer import Decision

pytestmark = pytest.mark.django_db

# One clubs spot for a Jack, and both seats hold a JC ready for it; a 2H each keeps
# the race going after that.
ONE_SPOT = {
    "f1": [f"{rank}C:1" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")],
    "f2": ["AH:1"],
    "p1.t1": ["JC"],
    "p1.t2": ["5H"],
    "p1.t3": ["2H"],
    "p2.t1": ["JC"],
    "p2.t2": ["5H"],
    "p2.t3": ["2H"],
}


def bot_decision(source: str, target: str, cards: tuple[str, ...]) -> Decision:
    return Decision(solitaire.Move(source, target), cards, 0.0)


def started_bot_race(ana: Actor) -> bot.BotSeat:
    snapshot = bot.create_bot_race(ana, {}, "Ana", "steady")
    race_id = snapshot.race.pk
    lobby.use_start_position(race_id, ONE_SPOT)
    seated = bot.bot_seat_of(race_id)
    assert seated is not None
    with pytest.raises(Refused) as early:
        bot.send_move(seated, bot_decision("p2.t1", "f1", ("JC",)), 1)
    assert early.value.code == "not_started"
    lobby.set_ready(ana, race_id)
    Race.objects.filter(pk=race_id).update(starts_at=records.now() - timedelta(seconds=1))
    lobby.begin(race_id)
    return seated


def test_a_computer_race_has_the_bot_joined_and_ready_in_seat_2(ana: Actor) -> None:
    snapshot = bot.create_bot_race(ana, {"same_deal": True}, "Ana", "sharp")
    seats = snapshot.seats
    assert seats[1].name == "Ana" and not seats[1].ready
    assert seats[2].name == "Computer (Sharp)" and seats[2].ready
    assert seats[2].player_key.startswith("bot-") and seats[2].player_key != ana.token
    assert RaceBot.objects.get(race=snapshot.race).level == "sharp"
    assert snapshot.race.status == Race.Status.WAITING
    # Once the player is ready, the countdown starts: the bot is ready already.
    after = lobby.set_ready(ana, snapshot.race.pk)
    assert after.race.status == Race.Status.COUNTDOWN


def test_an_unknown_level_is_refused(ana: Actor) -> None:
    with pytest.raises(Exception) as refused:
        bot.create_bot_race(ana, {}, "Ana", "grandmaster")
    assert getattr(refused.value, "code", None) == "bad_level"
    assert not Race.objects.exists()


def test_the_bot_loses_a_collision_like_a_person(ana: Actor) -> None:
    seated = started_bot_race(ana)
    play.play_move(ana, seated.race_id, solitaire.Move("p1.t1", "f1", cards=("JC",)), "a1")
    with pytest.raises(Refused) as taken:
        bot.send_move(seated, bot_decision("p2.t1", "f1", ("JC",)), 5)
    assert taken.value.code == "foundation_taken"
    assert taken.value.data["by_seat"] == 1


def test_a_stale_bot_move_is_refused_and_not_logged(ana: Actor) -> None:
    seated = started_bot_race(ana)
    with pytest.raises(Refused) as stale:
        bot.send_move(seated, bot_decision("p2.t2", "p2.t1", ("4H",)), 5)
    assert stale.value.code == "stale"
    assert not RaceMove.objects.filter(seat=2).exists()
    # A move that is still right goes through, logged as the bot's seat with its id.
    bot.send_move(seated, bot_decision("p2.t1", "f1", ("JC",)), 5)
    logged = RaceMove.objects.get(seat=2)
    assert logged.client_id == "bot-5"


def test_the_bot_cannot_touch_the_other_seat(ana: Actor) -> None:
    seated = started_bot_race(ana)
    with pytest.raises(Refused) as refused:
        bot.send_move(seated, bot_decision("p1.t1", "f1", ("JC",)), 5)
    assert refused.value.code == "not_your_pile"


def test_a_rematch_against_the_computer_gets_the_computer_again(ana: Actor) -> None:
    seated = started_bot_race(ana)
    play.resign(ana, seated.race_id)
    again = lobby.rematch(ana, seated.race_id)
    found = bot.bot_seat_of(again.race.pk)
    assert found is not None and found.level == "steady" and found.seat == 2
    assert RaceBot.objects.get(race=again.race).level == "steady"
    after = lobby.set_ready(ana, again.race.pk)
    assert after.race.status == Race.Status.COUNTDOWN  # the computer was ready already
