"""Quick match: a pool of players waiting for a stranger, paired exactly once.

A seek is a row (games.models.Seek), so every server process sees the same pool.
Pairing two seeks claims both with guarded updates, ``UPDATE ... SET status='matched'
WHERE id=? AND status='waiting'``, in id order, in one transaction that also creates
their race. Only one transaction can turn a given seek from waiting to matched: on
PostgreSQL a second one waits on the row lock, then finds the status changed and
updates nothing, and rolls back; on SQLite writers take turns. Taking the two seeks in
id order means two pairings never wait on each other crosswise. A seek is tried
against the pool when it is created and again each time its player asks about it, so
two seekers who arrived at the same instant (each inserted before seeing the other)
are still paired by the next poll.

A seek whose player has stopped asking (``SEEK_STALE``) is not paired: leaving the page
stops the polling (and the page sends DELETE as it goes). After ``OFFER_COMPUTER_AFTER``
the answer says so, and the page offers a race against the computer.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django.db.models import Q

from games.core.actors import Actor
from games.core.errors import BadRequest, NotFound
from games.core.options import validated_options
from games.core.transactions import writing
from games.models import Race, RaceListing, RaceSeat, Seek
from games.races import lobby, records
from games.races.payloads import race_payload
from games.races.records import GAME

SEEK_STALE = timedelta(seconds=30)
OFFER_COMPUTER_AFTER = timedelta(seconds=20)
CANDIDATES = 5  # how many waiting seeks one attempt tries, oldest first


class _Lost(Exception):
    """The other seek (or ours) was taken by another pairing meanwhile."""


def options_key(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def _mine(actor: Actor) -> Q:
    if actor.user_id is not None:
        return Q(user_id=actor.user_id)
    return Q(user__isnull=True, player_key=actor.token or "\0")


def create_seek(actor: Actor, options: object, name: object) -> Seek:
    """Put the caller in the pool (replacing a seek of theirs still waiting), and pair
    them at once if a compatible stranger waits.

    :raises BadRequest: for bad options, a missing name, or no session.
    """
    if actor.is_nobody:
        raise BadRequest("there is no session to keep your seat in", "no_session")
    clean = validated_options(GAME, options)
    player_name = lobby.clean_name(actor, name)
    with writing():
        Seek.objects.filter(_mine(actor), status=Seek.Status.WAITING).update(status=Seek.Status.CANCELLED)
        seek: Seek = Seek.objects.create(
            options=clean,
            options_key=options_key(clean),
            name=player_name,
            user_id=actor.user_id,
            player_key=actor.token or "",
            seen=records.now(),
        )
    try_pair(seek.pk)
    seek.refresh_from_db()
    return seek


def try_pair(seek_id: int) -> bool:
    """Pair seek ``seek_id`` with the oldest compatible waiting stranger, if any.
    Returns True when this call made the pair."""
    seek = Seek.objects.filter(pk=seek_id, status=Seek.Status.WAITING).first()
    if seek is None:
        return False
    fresh = records.now() - SEEK_STALE
    others = (
        Seek.objects.filter(status=Seek.Status.WAITING, options_key=seek.options_key, seen__gte=fresh)
        .exclude(pk=seek.pk)
        .exclude(_same_player(seek))
        .order_by("created", "pk")[:CANDIDATES]
    )
    for other in list(others):
        try:
            with writing():
                for pk in sorted((seek.pk, other.pk)):
                    if (
                        Seek.objects.filter(pk=pk, status=Seek.Status.WAITING).update(
                            status=Seek.Status.MATCHED
                        )
                        != 1
                    ):
                        raise _Lost
                first, second = sorted((seek, other), key=lambda s: (s.created, s.pk))
                _race_for(first, second)
        except _Lost:
            if not Seek.objects.filter(pk=seek.pk, status=Seek.Status.WAITING).exists():
                return False  # ours was taken by another pairing: it is matched, or gone
            continue
        return True
    return False


def _same_player(seek: Seek) -> Q:
    if seek.user_id is not None:
        return Q(user_id=seek.user_id)
    return Q(player_key=seek.player_key) & ~Q(player_key="")


def _race_for(first: Seek, second: Seek) -> None:
    """The race of two paired seeks: the one who waited longer in seat 1. Both press
    Ready in it, as in an invited race."""
    snapshot = lobby.create_race(Actor(first.user_id, first.player_key or None), first.options, first.name)
    race = snapshot.race
    RaceSeat.objects.create(
        race=race, number=2, user_id=second.user_id, player_key=second.player_key, name=second.name
    )
    Seek.objects.filter(pk__in=(first.pk, second.pk)).update(race=race)


def _load(actor: Actor, seek_id: object) -> Seek:
    if isinstance(seek_id, bool) or not isinstance(seek_id, int) or not 0 < seek_id < 2**63:
        raise NotFound("there is no such seek")
    seek: Seek | None = Seek.objects.filter(_mine(actor), pk=seek_id).first()
    if seek is None:
        raise NotFound("there is no such seek")
    return seek


def seek_status(actor: Actor, seek_id: object) -> dict[str, Any]:
    """The caller's seek: still waiting (tried against the pool again), matched with its
    race, or cancelled.

    :raises NotFound: for a seek that is not the caller's.
    """
    seek = _load(actor, seek_id)
    if seek.status == Seek.Status.WAITING:
        Seek.objects.filter(pk=seek.pk).update(seen=records.now())
        try_pair(seek.pk)
        seek.refresh_from_db()
    return seek_payload(actor, seek)


def cancel_seek(actor: Actor, seek_id: object) -> dict[str, Any]:
    """Leave the pool. A seek already matched stays matched (its race is there).

    :raises NotFound: for a seek that is not the caller's.
    """
    seek = _load(actor, seek_id)
    Seek.objects.filter(pk=seek.pk, status=Seek.Status.WAITING).update(status=Seek.Status.CANCELLED)
    seek.refresh_from_db()
    return seek_payload(actor, seek)


def seek_payload(actor: Actor, seek: Seek) -> dict[str, Any]:
    waited = records.now() - seek.created
    payload: dict[str, Any] = {
        "id": seek.pk,
        "status": seek.status,
        "options": seek.options,
        "waited_seconds": int(waited.total_seconds()),
        "offer_computer": seek.status == Seek.Status.WAITING and waited >= OFFER_COMPUTER_AFTER,
    }
    if seek.status == Seek.Status.MATCHED and seek.race_id is not None:
        snapshot = records.load_snapshot(seek.race_id, lock=False)
        payload["race"] = race_payload(snapshot, snapshot.seat_of(actor))
    return payload


# ---------------------------------------------------------------- spectating

LIVE_LIMIT = 10


def list_publicly(race_id: int) -> None:
    """Show the race on the home page for anyone to watch (its creator opted in)."""
    RaceListing.objects.get_or_create(race_id=race_id)


def live_races(limit: int = LIVE_LIMIT) -> list[dict[str, Any]]:
    """Listed races under way or about to start, newest first, with a watch link.
    Only races whose creator opted in are here; invites stay private."""
    listed = (
        Race.objects.filter(listing__isnull=False, status__in=(Race.Status.COUNTDOWN, Race.Status.PLAYING))
        .order_by("-created", "-pk")
        .prefetch_related("seats")[:limit]
    )
    return [
        {
            "id": race.pk,
            "status": race.status,
            "players": [seat.name for seat in sorted(race.seats.all(), key=lambda s: s.number)],
            "moves_made": race.moves_made,
            "watch_url": f"/races/{race.pk}/watch/{race.watch_token}/",
        }
        for race in listed
    ]
