"""The race as each seat, or a spectator, may see it; and the replay of a finished race.

Card data is only the engine's ``view(seat)``. The seed appears once the race is
finished; the invite link only for the players and for whoever already holds it.
"""

from __future__ import annotations

from typing import Any

import solitaire
from games.core.actors import Actor
from games.core.errors import Refused
from games.models import Race
from games.races import records
from games.races.presence import connected_seats
from games.races.records import RaceSnapshot


def race_payload(snapshot: RaceSnapshot, seat: int | None, *, token: object = None) -> dict[str, Any]:
    """The race as ``seat`` (None: a spectator) may see it."""
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
    if seat is not None or records.same_token(race.invite_token, token):
        payload["token"] = race.invite_token
        payload["invite_url"] = f"/races/{race.pk}/join/{race.invite_token}/"
    if race.status == Race.Status.FINISHED:
        payload["seed"] = race.seed
    return payload


def state_message(snapshot: RaceSnapshot, seat: int | None, *, token: object = None) -> dict[str, Any]:
    """The socket's ``state`` message."""
    return {"type": "state", **race_payload(snapshot, seat, token=token)}


def replay_for(actor: Actor, race_id: object, token: object = None) -> dict[str, Any]:
    """A finished race move by move: the seed, and the table as everyone saw it after each
    move (face-down cards stay face down, as they lay).

    :raises NotFound: when the caller may not see the race.
    :raises Refused: while the race goes on.
    """
    snapshot, _ = records.get_race_for(actor, race_id, token)
    race = snapshot.race
    if race.status != Race.Status.FINISHED:
        raise Refused("a race can be replayed once it is over", "not_finished")
    state = records.initial_state(race)
    frames = [_frame(state)]
    log = list(race.log.order_by("seq").values("seq", "seat", "move", "created"))
    for entry in log:
        state = state.apply(solitaire.Move.from_dict(entry["move"]))
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


def _frame(state: solitaire.State) -> dict[str, Any]:
    view = state.view(None)
    return {"piles": view["piles"], "contributions": view["contributions"]}
