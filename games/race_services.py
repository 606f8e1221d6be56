"""Every change to a Double Solitaire race goes through here.

Create, join, ready and the countdown, moves, resigning, offering to stop, the end,
rematches, and the sockets' presence. Each change runs in one database transaction
that first locks the race row (``select_for_update``; SQLite's IMMEDIATE transactions
serialise writers the same way), so the moves of both players are applied one at a
time, each checked by the rules engine against the race as it is now, not as the
player last saw it. Once the transaction commits, ONE message goes to the race's
channel-layer group with the new version; each socket then renders its own view.

Who may do what is decided here from the caller's Actor (user or anonymous token):
the seat is never taken from the client's word. What leaves this module about cards
is the engine's ``view(seat)``; the seed and the full position stay here until the
race is finished.

This module knows the engine, the models and the channel layer; it knows nothing of
HTTP or WebSocket messages. Callers turn ServiceError into answers.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

import solitaire
from games.actors import Actor
from games.race_models import Race, RaceConnection, RaceMove, RaceSeat, race_group
from games.services import BadRequest, NotFound, Refused, clean_client_id, send_to_group, writing

GAME = "double"
SEATS = (1, 2)
MAX_NAME_LENGTH = 40
SEED_BITS = 63  # fits a signed 64-bit column
# A socket refreshes its presence row this often; a row not refreshed for
# PRESENCE_STALE counts as gone (its process died without saying so).
PRESENCE_REFRESH = timedelta(seconds=30)
PRESENCE_STALE = timedelta(seconds=90)


def countdown_ticks() -> int:
    """How many ticks the start signal counts down (3-2-1)."""
    return int(getattr(settings, "RACE_COUNTDOWN_TICKS", 3))


def tick_seconds() -> float:
    """The length of one countdown tick. Tests may shorten it; players get one second."""
    return float(getattr(settings, "RACE_TICK_SECONDS", 1.0))


# ---------------------------------------------------------------- snapshots


@dataclass(frozen=True, slots=True)
class RaceSnapshot:
    """A race row, its seats and its engine state at ``race.version``.

    ``applied`` is False when the change was a repeat of one already applied.
    """

    race: Race
    seats: dict[int, RaceSeat]
    state: Any
    applied: bool = True

    def seat_of(self, actor: Actor) -> int | None:
        """The seat ``actor`` holds in this race, or None."""
        for number, seat in self.seats.items():
            if holds(seat, actor):
                return number
        return None

    def name_of(self, number: int) -> str:
        seat = self.seats.get(number)
        return seat.name if seat else f"player {number}"


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


# ---------------------------------------------------------------- replay and its cache


def initial_state(race: Race) -> Any:
    """The race before any move: its starting position, or its deal."""
    if race.start_position is not None:
        return solitaire.load(GAME, race.start_position, **race.options)
    return solitaire.new_game(GAME, seed=race.seed, **race.options)


def replay(race: Race, moves: Iterable[Mapping[str, Any]]) -> Any:
    state = initial_state(race)
    for move in moves:
        state = state.apply(move)
    return state


@dataclass
class StateCache:
    """Replayed states by race, each tagged with the race version it belongs to.

    Only an optimisation: a state is returned only for the exact version the database
    says the race is at, and stored only after its transaction committed. Races are
    keyed by id and seed, so a database that reuses ids (tests) cannot mix them up.
    """

    size: int = 256
    _states: OrderedDict[tuple[int, int], tuple[int, Any]] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self, key: tuple[int, int], version: int) -> Any | None:
        with self._lock:
            hit = self._states.get(key)
            if hit is None or hit[0] != version:
                return None
            self._states.move_to_end(key)
            return hit[1]

    def put(self, key: tuple[int, int], version: int, state: Any) -> None:
        with self._lock:
            held = self._states.get(key)
            if held is not None and held[0] > version:
                return  # a newer version is already here; keep it
            self._states[key] = (version, state)
            self._states.move_to_end(key)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


state_cache = StateCache()


def current_state(race: Race) -> Any:
    """The race's engine state at ``race.version``: from the cache, or replayed."""
    state = state_cache.get((race.pk, race.seed), race.version)
    if state is None:
        moves = race.log.filter(seq__lte=race.moves_made).order_by("seq").values_list("move", flat=True)
        state = replay(race, moves)
        state_cache.put((race.pk, race.seed), race.version, state)
    return state


# ---------------------------------------------------------------- loading


def _race_id(race_id: object) -> int:
    if isinstance(race_id, bool) or not isinstance(race_id, int) or not 0 < race_id < 2**63:
        raise NotFound("there is no such race")
    return race_id


def _load(race_id: object, *, lock: bool) -> tuple[Race, dict[int, RaceSeat]]:
    races = Race.objects.all()
    if lock:
        races = races.select_for_update()
    try:
        race = races.get(pk=_race_id(race_id))
    except Race.DoesNotExist:
        raise NotFound("there is no such race") from None
    return race, {seat.number: seat for seat in race.seats.all()}


def _snapshot(race: Race, seats: dict[int, RaceSeat], *, applied: bool = True) -> RaceSnapshot:
    return RaceSnapshot(race, seats, current_state(race), applied)


def _token_matches(race: Race, token: object) -> bool:
    return same_token(race.invite_token, token) or same_token(race.watch_token, token)


def get_race_for(actor: Actor, race_id: object, token: object = None) -> tuple[RaceSnapshot, int | None]:
    """The race and the seat ``actor`` holds in it (None for a spectator).

    A player of the race may always see it; anyone else needs its invite or watch token.

    :raises NotFound: when there is no such race, or the caller may not see it.
    """
    race, seats = _load(race_id, lock=False)
    snapshot = _snapshot(race, seats)
    seat = snapshot.seat_of(actor)
    if seat is None and not _token_matches(race, token):
        raise NotFound("there is no such race")
    return snapshot, seat


def _seated(snapshot: RaceSnapshot, actor: Actor) -> int:
    seat = snapshot.seat_of(actor)
    if seat is None:
        raise Refused("only the two players of a race can do that; you are watching", "not_a_player")
    return seat


# ---------------------------------------------------------------- creating and joining


def clean_name(actor: Actor, name: object) -> str:
    """The name a player races under: their account's, or the one they typed.

    :raises BadRequest: for an anonymous player without a usable name.
    """
    if actor.user_id is not None:
        user = get_user_model().objects.filter(pk=actor.user_id).first()
        if user is not None:
            return user.get_username()[:MAX_NAME_LENGTH]
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("choose a display name for the race", "name_required")
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_NAME_LENGTH:
        raise BadRequest(f"a display name may be at most {MAX_NAME_LENGTH} characters", "name_too_long")
    return cleaned


def validated_options(options: object) -> dict[str, Any]:
    """Double's options as the engine reads them, defaults filled in.

    :raises BadRequest: for an unknown option or a bad value.
    """
    if options is None:
        options = {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise BadRequest('options must be an object such as {"same_deal": true}', "bad_options")
    try:
        probe = solitaire.new_game(GAME, seed=0, **options)
    except (ValueError, TypeError) as error:
        raise BadRequest(str(error), "bad_options") from None
    return dict(probe.options)


def _seat_for(actor: Actor, race: Race, number: int, name: str) -> RaceSeat:
    return RaceSeat(
        race=race,
        number=number,
        user_id=actor.user_id,
        player_key=actor.token or "",
        name=name,
    )


def create_race(actor: Actor, options: object = None, name: object = None) -> RaceSnapshot:
    """A new race with ``actor`` in seat 1, waiting for a second player.

    :raises BadRequest: for bad options, a missing name, or no session to hold the seat.
    """
    if actor.is_nobody:
        raise BadRequest("there is no session to keep your seat in", "no_session")
    clean_options = validated_options(options)
    player_name = clean_name(actor, name)
    with writing():
        race = Race.objects.create(
            options=clean_options,
            seed=secrets.randbits(SEED_BITS),
            invite_token=secrets.token_urlsafe(18),
            watch_token=secrets.token_urlsafe(18),
            version=1,
        )
        seat = _seat_for(actor, race, 1, player_name)
        seat.save()
    return _snapshot(race, {1: seat})


def use_start_position(race_id: object, position: Mapping[str, Any]) -> RaceSnapshot:
    """Start a race that has not begun from ``position`` instead of its deal.

    The site never calls this: it is for puzzles and tests, which need a race that can
    end in a few moves. Play still goes through play_move like any other race.

    :raises BadRequest: for a position the engine cannot read.
    :raises Refused: once the race has begun.
    """
    with writing():
        race, seats = _load(race_id, lock=True)
        if race.status not in (Race.Status.WAITING, Race.Status.COUNTDOWN) or race.moves_made:
            raise Refused("the race has begun: its position can no longer be set", "race_started")
        try:
            state = solitaire.load(GAME, position, **race.options)
        except ValueError as error:
            raise BadRequest(str(error), "bad_position") from None
        race.start_position = dict(position)
        _changed(race, state)
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
        race, seats = _load(race_id, lock=True)
        if not same_token(race.invite_token, token):
            raise NotFound("there is no such race, or the invite link is not right")
        snapshot = _snapshot(race, seats)
        mine = snapshot.seat_of(actor)
        if mine == 2:
            return RaceSnapshot(race, seats, snapshot.state, applied=False)
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
        player_name = clean_name(actor, name)
        seat = _seat_for(actor, race, 2, player_name)
        seat.save()
        seats[2] = seat
        _changed(race, snapshot.state)
    return _snapshot(race, seats)


# ---------------------------------------------------------------- ready, countdown, start


def _now() -> datetime:
    return timezone.now()


def set_ready(actor: Actor, race_id: object) -> RaceSnapshot:
    """Mark the caller ready. When both players are, the countdown starts.

    :raises Refused: for a spectator, or once the race has started.
    """
    with writing():
        race, seats = _load(race_id, lock=True)
        snapshot = _snapshot(race, seats)
        number = _seated(snapshot, actor)
        seat = seats[number]
        if race.status != Race.Status.WAITING:
            if seat.ready:
                return RaceSnapshot(race, seats, snapshot.state, applied=False)
            raise Refused(f"the race is {race.status}", "not_waiting")
        if seat.ready:
            return RaceSnapshot(race, seats, snapshot.state, applied=False)
        seat.ready = True
        seat.save(update_fields=["ready"])
        if len(seats) == 2 and all(s.ready for s in seats.values()):
            race.status = Race.Status.COUNTDOWN
            race.starts_at = _now() + timedelta(seconds=countdown_ticks() * tick_seconds())
        _changed(race, snapshot.state)
    return snapshot


def begin(race_id: object) -> RaceSnapshot:
    """Open play once the countdown has run out. Any socket may call it; it acts once."""
    with writing():
        race, seats = _load(race_id, lock=True)
        if race.status == Race.Status.COUNTDOWN and race.starts_at and race.starts_at <= _now():
            state = current_state(race)
            _open_play(race, seats, state)
            _changed(race, state)
            return RaceSnapshot(race, seats, state)
        return RaceSnapshot(race, seats, current_state(race), applied=False)


def _open_play(race: Race, seats: dict[int, RaceSeat], state: Any) -> None:
    race.status = Race.Status.PLAYING
    outcome = state.rules.result(state)
    if outcome is not None:  # a starting position can already be blocked
        _finish(race, outcome)


def _check_playing(race: Race, seats: dict[int, RaceSeat], state: Any) -> None:
    """Refuse unless play is open; a countdown that has run out opens it here."""
    if race.status == Race.Status.COUNTDOWN and race.starts_at and race.starts_at <= _now():
        _open_play(race, seats, state)
    if race.status == Race.Status.PLAYING:
        return
    if race.status == Race.Status.FINISHED:
        raise Refused("the race is over", "race_over")
    if race.status == Race.Status.COUNTDOWN:
        raise Refused("wait for the start signal", "not_started")
    if len(seats) < 2:
        raise Refused("the race starts when your friend has joined and both are ready", "not_started")
    raise Refused("the race starts when both players are ready", "not_started")


# ---------------------------------------------------------------- moves


def play_move(actor: Actor, race_id: object, move: object, client_id: object = None) -> RaceSnapshot:
    """Apply one move of the caller's seat to the race as it is now.

    ``client_id`` makes the move idempotent per seat: a move whose id is already in the
    log is not applied again, and the current snapshot comes back with ``applied=False``.

    :raises BadRequest: for a malformed move or id, or an unknown pile.
    :raises NotFound: when there is no such race.
    :raises Refused: for a spectator, a move on the other seat's piles, a move before
        the start or after the end, or an illegal move (with the engine's reason; a
        foundation spot just taken says by whom).
    """
    client_id = clean_client_id(client_id)
    try:
        parsed = solitaire.Move.from_dict(move)
    except ValueError as error:
        raise BadRequest(str(error), "bad_move") from None
    with writing():
        race, seats = _load(race_id, lock=True)
        snapshot = _snapshot(race, seats)
        number = _seated(snapshot, actor)
        if client_id is not None and race.log.filter(seat=number, client_id=client_id).exists():
            return RaceSnapshot(race, seats, snapshot.state, applied=False)
        state = snapshot.state
        rules = state.rules
        try:
            owner = rules.seat_of(parsed)
        except solitaire.IllegalMove as error:
            raise Refused(str(error), error.code) from None
        except ValueError as error:
            if str(error).startswith("unknown pile"):
                raise BadRequest(str(error), "unknown_pile") from None
            raise Refused(str(error), "not_your_pile") from None
        if owner != number:
            raise Refused(
                f"those are {snapshot.name_of(owner)}'s cards: you can only move your own "
                f"(your piles are p{number}.stock, p{number}.waste and p{number}.t1 to p{number}.t7)",
                "not_your_pile",
            )
        _check_playing(race, seats, state)
        if race.status == Race.Status.FINISHED:
            # Opening play found the starting position blocked: that ends the race,
            # and the move is refused once the end is saved.
            _changed(race, state)
            after = None
        else:
            after = _apply_move(race, snapshot, number, parsed, client_id)
    if after is None:
        raise Refused("the race is over", "race_over")
    return RaceSnapshot(race, seats, after)


def _apply_move(
    race: Race,
    snapshot: RaceSnapshot,
    number: int,
    move: solitaire.Move,
    client_id: str | None,
) -> Any:
    """Let the engine apply ``move`` to the current state, log it and save the race."""
    try:
        after = snapshot.state.apply(move)
    except solitaire.IllegalMove as error:
        raise _refusal(error, snapshot, number) from None
    except ValueError as error:
        raise BadRequest(str(error), "bad_move") from None
    race.moves_made += 1
    RaceMove.objects.create(
        race=race,
        seq=race.moves_made,
        seat=number,
        move=move.to_dict(),
        client_id=client_id,
        version=race.version + 1,
        created=_now(),
    )
    outcome = after.rules.result(after)
    if outcome is not None:
        _finish(race, outcome)
    _changed(race, after)
    return after


def _refusal(error: solitaire.IllegalMove, snapshot: RaceSnapshot, mover: int) -> Refused:
    """The engine's refusal in the players' words: a taken spot says who took it."""
    if error.code == "foundation_taken":
        owner = error.data.get("owner")
        who = "you" if owner == mover else snapshot.name_of(owner) if owner in SEATS else "your opponent"
        card = error.data.get("card", "that")
        return Refused(
            f"the {card} foundation was just taken by {who}",
            "foundation_taken",
            card=card,
            pile=error.data.get("pile"),
            by=who,
            by_seat=owner,
        )
    return Refused(str(error), error.code)


# ---------------------------------------------------------------- ending


def resign(actor: Actor, race_id: object) -> RaceSnapshot:
    """The caller gives up; the other player wins.

    :raises Refused: for a spectator, before both players are there, or after the end.
    """
    with writing():
        race, seats = _load(race_id, lock=True)
        snapshot = _snapshot(race, seats)
        number = _seated(snapshot, actor)
        if race.status == Race.Status.FINISHED:
            raise Refused("the race is over", "race_over")
        if len(seats) < 2:
            raise Refused("nobody has joined yet: there is nobody to resign to", "not_started")
        contributions = snapshot.state.rules.contributions(snapshot.state)
        _finish(
            race,
            {"winner": 3 - number, "reason": "resigned", "resigned": number, "contributions": contributions},
        )
        _changed(race, snapshot.state)
    return snapshot


def offer_end(actor: Actor, race_id: object) -> RaceSnapshot:
    """The caller offers to stop and be scored; when both have offered, the race ends.

    An offer stands until the race ends. The higher contribution wins; equal ones draw.

    :raises Refused: for a spectator, or unless play is open.
    """
    with writing():
        race, seats = _load(race_id, lock=True)
        snapshot = _snapshot(race, seats)
        number = _seated(snapshot, actor)
        _check_playing(race, seats, snapshot.state)
        seat = seats[number]
        if seat.offered_end:
            return RaceSnapshot(race, seats, snapshot.state, applied=False)
        seat.offered_end = True
        seat.save(update_fields=["offered_end"])
        if all(s.offered_end for s in seats.values()):
            contributions = snapshot.state.rules.contributions(snapshot.state)
            one, two = contributions["1"], contributions["2"]
            winner = 1 if one > two else 2 if two > one else None
            _finish(race, {"winner": winner, "reason": "agreed", "contributions": contributions})
        _changed(race, snapshot.state)
    return snapshot


def _finish(race: Race, outcome: Mapping[str, Any]) -> None:
    race.status = Race.Status.FINISHED
    race.result = dict(outcome)
    race.finished = _now()


# ---------------------------------------------------------------- rematch


def rematch(actor: Actor, race_id: object) -> RaceSnapshot:
    """A new race for the same two players and options, after this one has ended.

    Either player may ask; the second asking gets the same new race. Both press Ready
    again in it.

    :raises Refused: for a spectator, or before the end.
    """
    with writing():
        race, seats = _load(race_id, lock=True)
        snapshot = _snapshot(race, seats)
        _seated(snapshot, actor)
        if race.status != Race.Status.FINISHED:
            raise Refused("a rematch can start once this race is over", "not_finished")
        if race.rematch_id is not None:
            new_race, new_seats = _load(race.rematch_id, lock=False)
            return RaceSnapshot(new_race, new_seats, current_state(new_race), applied=False)
        new_race = Race.objects.create(
            options=race.options,
            seed=secrets.randbits(SEED_BITS),
            start_position=race.start_position,
            invite_token=secrets.token_urlsafe(18),
            watch_token=secrets.token_urlsafe(18),
            version=1,
        )
        new_seats = {}
        for number, seat in seats.items():
            new_seats[number] = RaceSeat.objects.create(
                race=new_race,
                number=number,
                user_id=seat.user_id,
                player_key=seat.player_key,
                name=seat.name,
            )
        race.rematch = new_race
        _changed(race, snapshot.state)
    return _snapshot(new_race, new_seats)


# ---------------------------------------------------------------- presence


def connected_seats(race_id: int) -> dict[int, bool]:
    """Which seats have at least one live socket."""
    fresh = _now() - PRESENCE_STALE
    live = set(RaceConnection.objects.filter(race_id=race_id, seen__gte=fresh).values_list("seat", flat=True))
    return {number: number in live for number in SEATS}


def socket_opened(actor: Actor, race_id: int, channel_name: str) -> int | None:
    """Record a player's socket; returns its seat (None for a spectator, not recorded).

    A player who logged in since taking a seat anonymously gets the seat on the account,
    so the account finds the race from any browser.
    """
    with writing():
        race, seats = _load(race_id, lock=True)
        number = next((n for n, seat in seats.items() if holds(seat, actor)), None)
        if number is None:
            return None
        seat = seats[number]
        if actor.user_id is not None and seat.user_id is None:
            seat.user_id = actor.user_id
            seat.save(update_fields=["user"])
        was = connected_seats(race.pk)[number]
        RaceConnection.objects.update_or_create(
            channel_name=channel_name, defaults={"race": race, "seat": number, "seen": _now()}
        )
        if not was:
            _announce_presence(race.pk, number, True)
    return number


def socket_seen(channel_name: str) -> None:
    """A live socket says it is still there (see PRESENCE_STALE)."""
    with writing():
        RaceConnection.objects.filter(channel_name=channel_name).update(seen=_now())


def socket_closed(race_id: int, channel_name: str) -> None:
    with writing():
        race, _ = _load(race_id, lock=True)
        row = RaceConnection.objects.filter(channel_name=channel_name).first()
        if row is None:
            return
        row.delete()
        # Stale rows of dead processes go too, so they cannot keep a seat "connected".
        RaceConnection.objects.filter(race=race, seen__lt=_now() - PRESENCE_STALE).delete()
        if not connected_seats(race.pk)[row.seat]:
            _announce_presence(race.pk, row.seat, False)


# ---------------------------------------------------------------- announcing


def _changed(race: Race, state: Any) -> None:
    """Save a change of the race (whose engine state is now ``state``) and announce its
    new version once it commits."""
    race.version += 1
    race.save()
    race_id, version, key = race.pk, race.version, (race.pk, race.seed)
    transaction.on_commit(lambda: state_cache.put(key, version, state))
    transaction.on_commit(lambda: _send(race_id, {"type": "race.changed", "version": version}), robust=True)


def _announce_presence(race_id: int, seat: int, connected: bool) -> None:
    transaction.on_commit(
        lambda: _send(race_id, {"type": "race.presence", "seat": seat, "connected": connected}),
        robust=True,
    )


def _send(race_id: int, message: dict[str, Any]) -> None:
    send_to_group(race_group(race_id), {**message, "race": race_id})


# ---------------------------------------------------------------- what players see


def race_payload(snapshot: RaceSnapshot, seat: int | None, *, token: object = None) -> dict[str, Any]:
    """The race as ``seat`` (None: a spectator) may see it.

    Card data is only the engine's ``view(seat)``. The seed appears once the race is
    finished; the invite link only for the players and for whoever already holds it.
    """
    race = snapshot.race
    state = snapshot.state
    contributions = state.rules.contributions(state)
    presence = connected_seats(race.pk)
    players = [
        {
            "seat": number,
            "name": s.name,
            "ready": s.ready,
            "offered_end": s.offered_end,
            "connected": presence[number],
            "contribution": contributions[str(number)],
        }
        for number, s in sorted(snapshot.seats.items())
    ]
    payload: dict[str, Any] = {
        "id": race.pk,
        "url": f"/races/{race.pk}/",
        "seat": seat,
        "status": race.status,
        "version": race.version,
        "options": race.options,
        "players": players,
        "starts_at": race.starts_at.isoformat() if race.starts_at else None,
        "moves_made": race.moves_made,
        "result": race.result,
        "rematch": race.rematch_id,
        "watch_url": f"/races/{race.pk}/watch/{race.watch_token}/",
        "replay_url": f"/races/{race.pk}/replay/" if race.status == Race.Status.FINISHED else None,
        "created": race.created.isoformat(),
        "finished": race.finished.isoformat() if race.finished else None,
        "state": state.view(seat),
    }
    invited = same_token(race.invite_token, token)
    if seat is not None or invited:
        payload["token"] = race.invite_token
        payload["invite_url"] = f"/races/{race.pk}/join/{race.invite_token}/"
    if race.status == Race.Status.FINISHED:
        payload["seed"] = race.seed
    return payload


def replay_for(actor: Actor, race_id: object, token: object = None) -> dict[str, Any]:
    """A finished race move by move: the seed, and the table as everyone saw it after each
    move (face-down cards stay face down, as they lay).

    :raises NotFound: when the caller may not see the race.
    :raises Refused: while the race goes on.
    """
    snapshot, _ = get_race_for(actor, race_id, token)
    race = snapshot.race
    if race.status != Race.Status.FINISHED:
        raise Refused("a race can be replayed once it is over", "not_finished")
    state = initial_state(race)
    frames = [_frame(state)]
    log = list(race.log.order_by("seq").values("seq", "seat", "move", "created"))
    for entry in log:
        state = state.apply(entry["move"])
        frames.append(_frame(state))
    return {
        "id": race.pk,
        "seed": race.seed,
        "start_position": race.start_position,
        "options": race.options,
        "players": [{"seat": n, "name": s.name} for n, s in sorted(snapshot.seats.items())],
        "result": race.result,
        "moves": [
            {"seq": e["seq"], "seat": e["seat"], "move": e["move"], "at": e["created"].isoformat()}
            for e in log
        ],
        "frames": frames,
    }


def _frame(state: Any) -> dict[str, Any]:
    view = state.view(None)
    return {"piles": view["piles"], "contributions": view["contributions"]}


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
    listed = []
    for race in races:
        listed.append(
            {
                "id": race.pk,
                "url": f"/races/{race.pk}/",
                "status": race.status,
                "players": [{"seat": s.number, "name": s.name} for s in race.seats.all()],
                "my_seats": [s.number for s in race.seats.all() if holds(s, actor)],
                "result": race.result,
                "created": race.created.isoformat(),
            }
        )
    return listed
