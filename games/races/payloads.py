"""The race as each seat, or a spectator, may see it; and the replay of a finished race.

Card data is only the engine's ``view(seat)``. The seed appears once the race is
finished; the invite link only for the players and for whoever already holds it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from games.core import workers
from games.core.actors import Actor
from games.core.cache import VersionedCache
from games.core.errors import Refused
from games.core.options import described
from games.models import Race
from games.races import ratings, records
from games.races.presence import connected_seats
from games.races.records import RaceSnapshot


def race_payload(
    snapshot: RaceSnapshot,
    seat: int | None,
    *,
    token: object = None,
    presence: dict[int, bool] | None = None,
) -> dict[str, Any]:
    """The race as ``seat`` (None: a spectator) may see it. ``presence`` (which seats
    have a live socket) is read from the database unless given."""
    race = snapshot.race
    state = snapshot.state
    view = state.view(seat)
    contributions = view["contributions"]
    read_presence = presence is None
    if presence is None:
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
        "state": view,
        "describe": described(state.rules),
    }
    if seat is not None or records.same_token(race.invite_token, token):
        payload["token"] = race.invite_token
        payload["invite_url"] = f"/races/{race.pk}/join/{race.invite_token}/"
    if race.status == Race.Status.FINISHED:
        payload["seed"] = race.seed
        # Each seat's rating before and after (games.races.ratings); read only off the loop.
        payload["ratings"] = ratings.changes_for(race, read=read_presence)
    return payload


def state_message(
    snapshot: RaceSnapshot,
    seat: int | None,
    *,
    token: object = None,
    presence: dict[int, bool] | None = None,
) -> dict[str, Any]:
    """The socket's ``state`` message."""
    return {"type": "state", **race_payload(snapshot, seat, token=token, presence=presence)}


# A finished race's replay never changes: its JSON is kept in the cache (shared by every
# process with Redis) this long, keyed by race, seed and version.
REPLAY_CACHE_SECONDS = 60 * 60


@dataclass(frozen=True, slots=True)
class ReplayJob:
    """A replay to build: everything read from the database, and the line to replay into
    frames (in the worker pool)."""

    key: str
    payload: dict[str, Any]
    moves: list[dict[str, Any]]
    seed: int
    position: Any
    options: dict[str, Any]

    def frames(self) -> Job:
        """The worker job that replays the line: ``(function, args, kwargs)``."""
        return (
            workers.line_views,
            (records.GAME, self.options, self.moves),
            {
                "seed": self.seed,
                "position": self.position,
                "player": None,
                "keep": ("piles", "contributions"),
                "cpu_seconds": workers.REPLAY_CPU_SECONDS,
            },
        )

    def body(self, frames: list[dict[str, Any]] | None) -> bytes:
        """The replay's JSON with its ``frames``, kept in the cache for the next caller."""
        if frames is None:
            raise RuntimeError(f"{self.key}: the race's log does not replay")
        body = json.dumps({**self.payload, "frames": frames}, separators=(",", ":")).encode()
        cache.set(self.key, body, REPLAY_CACHE_SECONDS)
        return body


Job = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]


def replay_request(actor: Actor, race_id: object, token: object = None) -> bytes | ReplayJob:
    """A finished race move by move: the seed, and the table as everyone saw it after each
    move (face-down cards stay face down, as they lay). The JSON from the cache when
    someone asked before (whoever asks is checked every time), else the job to build it.

    :raises NotFound: when the caller may not see the race.
    :raises Refused: while the race goes on.
    """
    snapshot, _ = records.get_race_for(actor, race_id, token)
    race = snapshot.race
    if race.status != Race.Status.FINISHED:
        raise Refused("a race can be replayed once it is over", "not_finished")
    key = f"race-replay:{race.pk}:{race.seed}:{race.version}"
    cached = cache.get(key)
    if isinstance(cached, bytes):
        return cached
    log = list(race.log.order_by("seq").values("seq", "seat", "move", "created"))
    payload = {
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
    }
    moves = [entry["move"] for entry in log]
    return ReplayJob(key, payload, moves, race.seed, race.start_position, race.options)


def replay_for(actor: Actor, race_id: object, token: object = None) -> dict[str, Any]:
    """``replay_request`` as a dict, in this thread (which waits for the worker pool);
    the same dict again for the same race and version (a few kept per process).

    :raises NotFound: when the caller may not see the race.
    :raises Refused: while the race goes on.
    """
    snapshot, _ = records.get_race_for(actor, race_id, token)
    race = snapshot.race
    kept = replays.get((race.pk, race.seed), race.version)
    if kept is not None:
        return kept
    found = replay_request(actor, race_id, token)
    if isinstance(found, ReplayJob):
        function, args, kwargs = found.frames()
        found = found.body(workers.run_sync(function, *args, **kwargs))
    kept = dict(json.loads(found))
    replays.put((race.pk, race.seed), race.version, kept)
    return kept


# Replays as dicts, for replay_for's callers in this process: a few only, one can weigh a
# megabyte. The API serves the cached JSON instead.
replays: VersionedCache[tuple[int, int], dict[str, Any]] = VersionedCache("race replays", 8)
