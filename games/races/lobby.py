"""Before and between races: create, join, set a starting position, ready, the start,
rematch, and the list of a player's races.

Each change locks the race row (``records.load(lock=True)``) in one transaction and is
announced after commit. Who may do what is decided from the caller's Actor; the seat
is never taken from the client's word.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q

import solitaire
from games.core.actors import Actor
from games.core.errors import BadRequest, NotFound, Refused
from games.core.options import validated_options
from games.core.transactions import writing
from games.models import Race, RaceSeat
from games.races import records
from games.races.play import open_play
from games.races.records import GAME, RaceSnapshot

MAX_NAME_LENGTH = 40
SEED_BITS = 63  # fits a signed 64-bit column


def clean_name(actor: Actor, name: object) -> str:
    """The name a player races under: their account's, or the one they typed.

    :raises BadRequest: for an anonymous player without a usable name.
    """
    if actor.user_id is not None:
        user = get_user_model().objects.filter(pk=actor.user_id).first()
        if user is not None:
            username: str = user.get_username()
            return username[:MAX_NAME_LENGTH]
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("choose a display name for the race", "name_required")
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_NAME_LENGTH:
        raise BadRequest(f"a display name may be at most {MAX_NAME_LENGTH} characters", "name_too_long")
    return cleaned


def _seat_for(actor: Actor, race: Race, number: int, name: str) -> RaceSeat:
    return RaceSeat(race=race, number=number, user_id=actor.user_id, player_key=actor.token or "", name=name)


def _new_race(options: dict[str, Any], start_position: dict[str, Any] | None = None) -> Race:
    race: Race = Race.objects.create(
        options=options,
        seed=secrets.randbits(SEED_BITS),
        start_position=start_position,
        invite_token=secrets.token_urlsafe(18),
        watch_token=secrets.token_urlsafe(18),
        version=1,
    )
    return race


def create_race(actor: Actor, options: object = None, name: object = None) -> RaceSnapshot:
    """A new race with ``actor`` in seat 1, waiting for a second player.

    :raises BadRequest: for bad options, a missing name, or no session to hold the seat.
    """
    if actor.is_nobody:
        raise BadRequest("there is no session to keep your seat in", "no_session")
    clean_options = validated_options(GAME, options)
    player_name = clean_name(actor, name)
    with writing():
        race = _new_race(clean_options)
        seat = _seat_for(actor, race, 1, player_name)
        seat.save()
    return records.snapshot_of(race, {1: seat})


def use_start_position(race_id: object, position: Mapping[str, Any]) -> RaceSnapshot:
    """Start a race that has not begun from ``position`` instead of its deal.

    The site never calls this: it is for puzzles and tests, which need a race that can
    end in a few moves. Play still goes through play_move like any other race.

    :raises BadRequest: for a position the engine cannot read.
    :raises Refused: once the race has begun.
    """
    with writing():
        race, seats = records.load(race_id, lock=True)
        if race.status not in (Race.Status.WAITING, Race.Status.COUNTDOWN) or race.moves_made:
            raise Refused("the race has begun: its position can no longer be set", "race_started")
        try:
            state = solitaire.load(GAME, position, **race.options)
        except ValueError as error:
            raise BadRequest(str(error), "bad_position") from None
        race.start_position = dict(position)
        records.save_change(race, state)
    return RaceSnapshot(race, seats, state)


def join_race(actor: Actor, race_id: object, token: object, name: object = None) -> RaceSnapshot:
    """Take seat 2 with the invite token. Joining again is harmless.

    :raises NotFound: when there is no such race or the token is wrong.
    :raises Refused: when the race already has two players, or the caller created it.
    :raises BadRequest: for a missing name or no session.
    """
    if actor.is_nobody:
        raise BadRequest("there is no session to keep your seat in", "no_session")
    with writing():
        race, seats = records.load(race_id, lock=True)
        if not records.same_token(race.invite_token, token):
            raise NotFound("there is no such race, or the invite link is not right")
        snapshot = records.snapshot_of(race, seats)
        mine = snapshot.seat_of(actor)
        if mine == 2:
            return snapshot.again()
        if mine == 1:
            raise Refused(
                "you created this race: send the invite link to a friend, who joins from there",
                "own_race",
            )
        if 2 in seats:
            raise Refused(
                f"this race already has two players: {seats[1].name} and {seats[2].name}",
                "race_full",
            )
        seat = _seat_for(actor, race, 2, clean_name(actor, name))
        seat.save()
        seats[2] = seat
        records.save_change(race, snapshot.state)
    return records.snapshot_of(race, seats)


def set_ready(actor: Actor, race_id: object) -> RaceSnapshot:
    """Mark the caller ready. When both players are, the countdown starts.

    :raises Refused: for a spectator, or once the race has started.
    """
    with writing():
        snapshot = records.load_snapshot(race_id, lock=True)
        race, seats = snapshot.race, snapshot.seats
        seat = seats[records.seated(snapshot, actor)]
        if seat.ready:
            return snapshot.again()
        if race.status != Race.Status.WAITING:
            raise Refused(f"the race is {race.status}", "not_waiting")
        seat.ready = True
        seat.save(update_fields=["ready"])
        if len(seats) == 2 and all(s.ready for s in seats.values()):
            race.status = Race.Status.COUNTDOWN
            ticks = records.countdown_ticks() * records.tick_seconds()
            race.starts_at = records.now() + timedelta(seconds=ticks)
        records.save_change(race, snapshot.state)
    return snapshot


def begin(race_id: object) -> RaceSnapshot:
    """Open play once the countdown has run out. Any socket may call it; it acts once."""
    with writing():
        snapshot = records.load_snapshot(race_id, lock=True)
        race = snapshot.race
        if race.status == Race.Status.COUNTDOWN and race.starts_at and race.starts_at <= records.now():
            open_play(race, snapshot.state)
            records.save_change(race, snapshot.state)
            return snapshot
        return snapshot.again()


def rematch(actor: Actor, race_id: object) -> RaceSnapshot:
    """A new race for the same two players and options, after this one has ended.

    Either player may ask; the second asking gets the same new race. Both press Ready
    again in it.

    :raises NotFound: for anyone but the two players (a missing race looks the same).
    :raises Refused: before the end.
    """
    with writing():
        snapshot = records.load_snapshot(race_id, lock=True)
        race = snapshot.race
        if snapshot.seat_of(actor) is None:
            # Outsiders cannot tell a race that exists from one that does not.
            raise NotFound("there is no such race")
        if race.status != Race.Status.FINISHED:
            raise Refused("a rematch can start once this race is over", "not_finished")
        if race.rematch_id is not None:
            return records.load_snapshot(race.rematch_id, lock=False).again()
        new_race = _new_race(race.options, race.start_position)
        new_seats = {
            number: RaceSeat.objects.create(
                race=new_race, number=number, user_id=seat.user_id, player_key=seat.player_key, name=seat.name
            )
            for number, seat in snapshot.seats.items()
        }
        race.rematch = new_race
        records.save_change(race, snapshot.state)
    return records.snapshot_of(new_race, new_seats)


def races_for(actor: Actor, limit: int = 20) -> list[dict[str, Any]]:
    """The actor's recent races, newest first, for the home page."""
    if actor.user_id is not None:
        mine = Q(seats__user_id=actor.user_id)
        if actor.token:
            mine |= Q(seats__player_key=actor.token)
    elif actor.token:
        mine = Q(seats__player_key=actor.token)
    else:
        return []
    races = Race.objects.filter(mine).distinct().order_by("-created", "-pk").prefetch_related("seats")[:limit]
    return [
        {
            "id": race.pk,
            "url": f"/races/{race.pk}/",
            "status": race.status,
            "players": [{"seat": s.number, "name": s.name} for s in race.seats.all()],
            "my_seats": [s.number for s in race.seats.all() if records.holds(s, actor)],
            "result": race.result,
            "created": race.created.isoformat(),
        }
        for race in races
    ]
