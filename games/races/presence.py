"""Which seats of a race have a live socket, across server processes.

Each player socket has a RaceConnection row, refreshed now and then; a row not
refreshed for PRESENCE_STALE counts as gone (its process died without saying so).
A seat's coming and going is announced to the race after commit.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from games.core.actors import Actor
from games.core.transactions import writing
from games.models import RaceConnection
from games.races import records
from games.races.records import SEATS

# A socket refreshes its presence row this often; a row not refreshed for
# PRESENCE_STALE counts as gone.
PRESENCE_REFRESH = timedelta(seconds=30)
PRESENCE_STALE = timedelta(seconds=90)


def connected_seats(race_id: int) -> dict[int, bool]:
    """Which seats have at least one live socket."""
    fresh = records.now() - PRESENCE_STALE
    live = set(RaceConnection.objects.filter(race_id=race_id, seen__gte=fresh).values_list("seat", flat=True))
    return {number: number in live for number in SEATS}


def socket_opened(actor: Actor, race_id: int, channel_name: str) -> int | None:
    """Record a player's socket; returns its seat (None for a spectator, not recorded).

    A player who logged in since taking a seat anonymously gets the seat on the account,
    so the account finds the race from any browser.
    """
    with writing():
        race, seats = records.load(race_id, lock=True)
        number = next((n for n, seat in seats.items() if records.holds(seat, actor)), None)
        if number is None:
            return None
        seat = seats[number]
        if actor.user_id is not None and seat.user_id is None:
            seat.user_id = actor.user_id
            seat.save(update_fields=["user"])
        was = connected_seats(race.pk)[number]
        _make_room(race.pk)
        RaceConnection.objects.update_or_create(
            channel_name=channel_name, defaults={"race": race, "seat": number, "seen": records.now()}
        )
        if not was:
            _announce(race.pk, number, True)
    return number


def _make_room(race_id: int) -> None:
    """Keep at most MAX_RACE_PRESENCE rows per race: stale rows go first, then the
    longest unrefreshed ones (a live socket among them just stops counting)."""
    rows = RaceConnection.objects.filter(race_id=race_id)
    cap = int(settings.MAX_RACE_PRESENCE)
    if rows.count() < cap:
        return
    rows.filter(seen__lt=records.now() - PRESENCE_STALE).delete()
    extra = rows.count() - cap + 1
    if extra > 0:
        oldest = list(rows.order_by("seen", "pk").values_list("pk", flat=True)[:extra])
        RaceConnection.objects.filter(pk__in=oldest).delete()


def socket_seen(channel_name: str) -> None:
    """A live socket says it is still there (see PRESENCE_STALE)."""
    with writing():
        RaceConnection.objects.filter(channel_name=channel_name).update(seen=records.now())


def socket_closed(race_id: int, channel_name: str) -> None:
    with writing():
        race, _ = records.load(race_id, lock=True)
        row = RaceConnection.objects.filter(channel_name=channel_name).first()
        if row is None:
            return
        row.delete()
        # Stale rows of dead processes go too, so they cannot keep a seat "connected".
        RaceConnection.objects.filter(race=race, seen__lt=records.now() - PRESENCE_STALE).delete()
        if not connected_seats(race.pk)[row.seat]:
            _announce(race.pk, row.seat, False)


def _announce(race_id: int, seat: int, connected: bool) -> None:
    records.announce(race_id, {"type": "race.presence", "seat": seat, "connected": connected})
