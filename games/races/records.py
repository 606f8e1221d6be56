"""A race as the services hold it: its row, its seats and its engine state at its version.

Loading (with the row lock for a change), who holds which seat, the per-process cache
of replayed states, and announcing a committed change. A race's position is never
stored: it is its deal (or starting position) replayed through its move log.
Knows the engine, the models and the channel layer; nothing of HTTP or sockets.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

import solitaire
from games.core.actors import Actor
from games.core.cache import VersionedCache
from games.core.errors import NotFound, Refused
from games.core.transactions import after_commit, send_after_commit
from games.models import Race, RaceSeat, race_group

GAME = "double"
SEATS = (1, 2)


def now() -> datetime:
    moment: datetime = timezone.now()
    return moment


def countdown_ticks() -> int:
    """How many ticks the start signal counts down (3-2-1)."""
    return int(getattr(settings, "RACE_COUNTDOWN_TICKS", 3))


def tick_seconds() -> float:
    """The length of one countdown tick. Tests may shorten it; players get one second."""
    return float(getattr(settings, "RACE_TICK_SECONDS", 1.0))


@dataclass(frozen=True, slots=True)
class RaceSnapshot:
    """A race row, its seats and its engine state at ``race.version``.

    ``applied`` is False when the change was a repeat of one already applied.
    """

    race: Race
    seats: dict[int, RaceSeat]
    state: solitaire.State
    applied: bool = True

    def seat_of(self, actor: Actor) -> int | None:
        """The seat ``actor`` holds in this race, or None."""
        for number, seat in self.seats.items():
            if holds(seat, actor):
                return number
        return None

    def name_of(self, number: int | None) -> str:
        seat = self.seats.get(number) if number is not None else None
        return seat.name if seat else f"player {number}"

    def again(self) -> RaceSnapshot:
        """The same snapshot, marked as a repeat (nothing was applied)."""
        return RaceSnapshot(self.race, self.seats, self.state, applied=False)


def holds(seat: RaceSeat, actor: Actor) -> bool:
    """Does ``actor`` hold ``seat``? By account, or by the anonymous token that took it."""
    if actor.user_id is not None and seat.user_id == actor.user_id:
        return True
    return bool(seat.player_key) and same_token(seat.player_key, actor.token)


def same_token(secret: str, given: object) -> bool:
    """Does ``given`` equal ``secret``? In constant time, and False for anything odd."""
    if not isinstance(given, str) or not given:
        return False
    return hmac.compare_digest(secret.encode(), given.encode("utf-8", "replace"))


def contributions(state: solitaire.State) -> dict[str, int]:
    """Each seat's cards on the foundations, ``{"1": n, "2": m}``, as the engine counts them."""
    counted: dict[str, int] = state.view(None)["contributions"]
    return counted


# ---------------------------------------------------------------- replay and its cache


def initial_state(race: Race) -> solitaire.State:
    """The race before any move: its starting position, or its deal."""
    if race.start_position is not None:
        return solitaire.load(GAME, race.start_position, **race.options)
    return solitaire.new_game(GAME, seed=race.seed, **race.options)


def replay(race: Race, moves: Iterable[Mapping[str, Any]]) -> solitaire.State:
    state = initial_state(race)
    for move in moves:
        state = state.apply(solitaire.Move.from_dict(dict(move)))
    return state


# Replayed states by (race id, seed), tagged with the race's version. Keyed by seed too,
# so a database that reuses ids (tests) cannot mix two races up.
states: VersionedCache[tuple[int, int], solitaire.State] = VersionedCache("race states", 256)


def current_state(race: Race) -> solitaire.State:
    """The race's engine state at ``race.version``: from the cache, or replayed."""
    state = states.get((race.pk, race.seed), race.version)
    if state is None:
        moves = race.log.filter(seq__lte=race.moves_made).order_by("seq").values_list("move", flat=True)
        state = replay(race, moves)
        states.put((race.pk, race.seed), race.version, state)
    return state


# ---------------------------------------------------------------- loading


def load(race_id: object, *, lock: bool) -> tuple[Race, dict[int, RaceSeat]]:
    """The race and its seats by number; ``lock`` locks the race row until commit.

    :raises NotFound: when there is no such race.
    """
    if isinstance(race_id, bool) or not isinstance(race_id, int) or not 0 < race_id < 2**63:
        raise NotFound("there is no such race")
    races = Race.objects.all()
    if lock:
        races = races.select_for_update()
    try:
        race = races.get(pk=race_id)
    except Race.DoesNotExist:
        raise NotFound("there is no such race") from None
    return race, {seat.number: seat for seat in race.seats.all()}


def snapshot_of(race: Race, seats: dict[int, RaceSeat], *, applied: bool = True) -> RaceSnapshot:
    return RaceSnapshot(race, seats, current_state(race), applied)


def load_snapshot(race_id: object, *, lock: bool) -> RaceSnapshot:
    race, seats = load(race_id, lock=lock)
    return snapshot_of(race, seats)


def get_race_for(actor: Actor, race_id: object, token: object = None) -> tuple[RaceSnapshot, int | None]:
    """The race and the seat ``actor`` holds in it (None for a spectator).

    A player of the race may always see it; anyone else needs its invite or watch token.

    :raises NotFound: when there is no such race, or the caller may not see it.
    """
    snapshot = load_snapshot(race_id, lock=False)
    seat = snapshot.seat_of(actor)
    race = snapshot.race
    if seat is None and not (same_token(race.invite_token, token) or same_token(race.watch_token, token)):
        raise NotFound("there is no such race")
    return snapshot, seat


def seated(snapshot: RaceSnapshot, actor: Actor) -> int:
    """The seat ``actor`` holds.

    :raises Refused: ``not_a_player`` for a spectator.
    """
    seat = snapshot.seat_of(actor)
    if seat is None:
        raise Refused("only the two players of a race can do that; you are watching", "not_a_player")
    return seat


# ---------------------------------------------------------------- saving and announcing


def save_change(race: Race, state: solitaire.State) -> None:
    """Save a change of the race (whose engine state is now ``state``): its version moves
    on, and once the transaction commits the state is cached and the new version is
    announced to every socket of the race."""
    race.version += 1
    race.save()
    race_id, version, key = race.pk, race.version, (race.pk, race.seed)
    after_commit(lambda: states.put(key, version, state))
    announce(race_id, {"type": "race.changed", "version": version})


def announce(race_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` to every socket of the race once the transaction commits."""
    send_after_commit(race_group(race_id), {**message, "race": race_id})
