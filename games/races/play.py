"""Play in a race: moves, resigning, offering to stop, and the end.

Each change runs in one transaction that first locks the race row
(``select_for_update``; SQLite's writers are serialised the same way), so the moves of
both players are applied one at a time, each checked by the rules engine against the
race as it is now, not as the player last saw it. The engine decides who owns a pile,
whether a move is legal, and when and how the race ends; this module records it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings

import solitaire
from games.core.actors import Actor
from games.core.client_ids import clean_client_id
from games.core.errors import BadRequest, Refused, ServiceError, from_engine
from games.core.transactions import writing
from games.models import Race, RaceMove
from games.races import ratings, records
from games.races.records import SEATS, RaceSnapshot


def race_result(outcome: solitaire.Outcome) -> dict[str, Any]:
    """The engine's outcome as a race stores and shows it: ``winner``, ``reason``
    ("finished" when a seat played all its cards, "blocked" when neither can progress,
    a draw being "blocked" with no winner; "agreed" and "resigned" as the engine says
    them) and ``contributions``."""
    if outcome.reason == solitaire.ALL_HOME:
        reason = "finished"
    elif outcome.reason in (solitaire.AGREED, solitaire.RESIGNED):
        reason = outcome.reason
    else:
        reason = "blocked"
    return {"winner": outcome.winner, "reason": reason, "contributions": outcome.scores}


def _decided(state: solitaire.State) -> solitaire.Outcome | None:
    """The engine's verdict on the race, settled exactly (this runs off the event loop)."""
    return state.outcome(exact=True)


def open_play(race: Race, state: solitaire.State) -> None:
    """Play opens; a starting position can already be blocked, which ends the race."""
    race.status = Race.Status.PLAYING
    outcome = _decided(state)
    if outcome is not None:
        finish(race, race_result(outcome))


def _check_playing(snapshot: RaceSnapshot) -> None:
    """Refuse unless play is open; a countdown that has run out opens it here."""
    race, seats = snapshot.race, snapshot.seats
    if race.status == Race.Status.COUNTDOWN and race.starts_at and race.starts_at <= records.now():
        open_play(race, snapshot.state)
    if race.status == Race.Status.PLAYING:
        return
    if race.status == Race.Status.FINISHED:
        raise Refused("the race is over", "race_over")
    if race.status == Race.Status.COUNTDOWN:
        raise Refused("wait for the start signal", "not_started")
    if len(seats) < 2:
        raise Refused("the race starts when your friend has joined and both are ready", "not_started")
    raise Refused("the race starts when both players are ready", "not_started")


def parse_move(move: object) -> solitaire.Move:
    """The move a seat sends, as the engine's Move.

    :raises BadRequest: ``bad_move`` when it is malformed.
    """
    if not isinstance(move, dict):
        raise BadRequest('a move must be an object such as {"from": "p1.t3", "to": "f1"}', "bad_move")
    try:
        return solitaire.Move.from_dict(move)
    except ValueError as error:  # MalformedMove
        raise from_engine(error) from None


def play_move(actor: Actor, race_id: object, move: solitaire.Move, client_id: object = None) -> RaceSnapshot:
    """Apply one move of the caller's seat to the race as it is now.

    ``client_id`` makes the move idempotent per seat: a move whose id is already in the
    log is not applied again, and the current snapshot comes back with ``applied=False``.

    :raises BadRequest: for a malformed id, or an unknown pile.
    :raises NotFound: when there is no such race.
    :raises Refused: for a spectator, a move on the other seat's piles, a move before
        the start or after the end, or an illegal move (with the engine's reason; a
        foundation spot just taken says by whom).
    """
    clean_id = clean_client_id(client_id)
    with writing():
        snapshot = records.load_snapshot(race_id, lock=True)
        race = snapshot.race
        number = records.seated(snapshot, actor)
        if clean_id is not None and race.log.filter(seat=number, client_id=clean_id).exists():
            return snapshot.again()
        _check_own_piles(snapshot, number, move)
        _check_playing(snapshot)
        if race.moves_made >= settings.MAX_RACE_MOVES:
            raise Refused(
                f"the race has reached its longest length ({settings.MAX_RACE_MOVES} moves); "
                "resign or offer to stop",
                "race_too_long",
            )
        if race.status == Race.Status.FINISHED:
            # Opening play found the starting position blocked: that ends the race,
            # and the move is refused once the end is saved.
            records.save_change(race, snapshot.state)
            after = None
        else:
            after = _apply_move(snapshot, number, move, clean_id)
    if after is None:
        raise Refused("the race is over", "race_over")
    return RaceSnapshot(race, snapshot.seats, after)


def _check_own_piles(snapshot: RaceSnapshot, number: int, move: solitaire.Move) -> None:
    """The engine says whose piles the move names: only the mover's and shared ones may be.

    :raises BadRequest: ``unknown_pile``.
    :raises Refused: ``not_your_pile``, naming the other player.
    """
    try:
        snapshot.state.rules.check_seat(move, number)
    except solitaire.NotYourPile as error:
        other = error.data.get("other_seat")
        raise Refused(
            f"those are {snapshot.name_of(other)}'s cards: you can only move your own",
            error.code,
            **error.data,
        ) from None
    except ValueError as error:  # UnknownPile
        raise from_engine(error) from None


def _apply_move(
    snapshot: RaceSnapshot, number: int, move: solitaire.Move, client_id: str | None
) -> solitaire.State:
    """Let the engine apply ``move`` to the current state, log it and save the race."""
    race = snapshot.race
    try:
        after = snapshot.state.apply(move, seat=number)
    except solitaire.IllegalMove as error:
        raise _refusal(error, snapshot, number) from None
    except ValueError as error:
        raise from_engine(error) from None
    race.moves_made += 1
    RaceMove.objects.create(
        race=race,
        seq=race.moves_made,
        seat=number,
        # Stored without the cards it named: they were checked now, replay need not.
        move=solitaire.Move(move.source, move.target, move.count).to_dict(),
        client_id=client_id,
        version=race.version + 1,
        created=records.now(),
    )
    outcome = _decided(after)
    if outcome is not None:
        finish(race, race_result(outcome))
    records.save_change(race, after)
    return after


def _refusal(error: solitaire.IllegalMove, snapshot: RaceSnapshot, mover: int) -> ServiceError:
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
    return from_engine(error)


def resign(actor: Actor, race_id: object) -> RaceSnapshot:
    """The caller gives up; the other player wins.

    :raises Refused: for a spectator, before both players are there, or after the end.
    """
    with writing():
        snapshot = records.load_snapshot(race_id, lock=True)
        race = snapshot.race
        number = records.seated(snapshot, actor)
        if race.status == Race.Status.FINISHED:
            raise Refused("the race is over", "race_over")
        if len(snapshot.seats) < 2:
            raise Refused("nobody has joined yet: there is nobody to resign to", "not_started")
        finish(race, {**race_result(snapshot.state.outcome_if_resigned(number)), "resigned": number})
        records.save_change(race, snapshot.state)
    return snapshot


def offer_end(actor: Actor, race_id: object) -> RaceSnapshot:
    """The caller offers to stop and be scored; when both have offered, the race ends.

    An offer stands until the race ends. The higher contribution wins; equal ones draw.

    :raises Refused: for a spectator, or unless play is open.
    """
    with writing():
        snapshot = records.load_snapshot(race_id, lock=True)
        race, seats = snapshot.race, snapshot.seats
        seat = seats[records.seated(snapshot, actor)]
        _check_playing(snapshot)
        if seat.offered_end:
            return snapshot.again()
        seat.offered_end = True
        seat.save(update_fields=["offered_end"])
        if all(s.offered_end for s in seats.values()):
            # The engine scores the stop: the larger contribution wins, equal ones draw.
            finish(race, race_result(snapshot.state.outcome_if_stopped()))
        records.save_change(race, snapshot.state)
    return snapshot


def finish(race: Race, outcome: Mapping[str, Any]) -> None:
    race.status = Race.Status.FINISHED
    race.result = dict(outcome)
    race.finished = records.now()
    # Ratings move once, in the same transaction as the end (games.races.ratings).
    ratings.rate_race(race)
