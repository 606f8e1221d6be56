"""Race ratings: Glicko-2 (games.races.glicko), updated once when a race finishes.

Each finished race that had started is one rating period for each person in it: a win
scores 1, a draw 0.5, a loss 0 (resigning is a loss). Against the computer, the
opponent is the level's fixed rating with a fixed deviation; the level's rating never
moves. Both people's new ratings are computed from their ratings before the race, and
written with a ``RaceRating`` row per seat, unique per race and seat, so a race is
rated once however often ``rate_race`` is called.

A rating belongs to the account, or to the anonymous player token of the session; on
login it moves to the account (``adopt_anonymous_rating``), as games do.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games.core.actors import PLAYER_TOKEN_KEY, Actor
from games.models import PlayerRating, Race, RaceBot, RaceRating, RaceSeat
from games.races.glicko import Rating, rate
from solitaire import racer

# The deviation the computer's fixed ratings are taken with.
BOT_DEVIATION = 60.0
RECENT = 20


def _row_for(seat: RaceSeat) -> PlayerRating | None:
    """The rating row of a seat's holder, created on first use (locked until commit)."""
    if seat.user_id is not None:
        row: PlayerRating = PlayerRating.objects.select_for_update().get_or_create(user_id=seat.user_id)[0]
        return row
    if not seat.player_key:
        return None
    found: PlayerRating | None = (
        PlayerRating.objects.select_for_update().filter(user__isnull=True, player_key=seat.player_key).first()
    )
    if found is None:
        found = PlayerRating.objects.create(player_key=seat.player_key)
    return found


def _as_rating(row: PlayerRating) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility)


def rate_race(race: Race) -> None:
    """Update the ratings of the people in a finished race (once; later calls do nothing).
    Call inside the transaction that finishes the race."""
    if race.status != Race.Status.FINISHED or race.starts_at is None or not race.result:
        return
    if RaceRating.objects.filter(race=race).exists():
        return
    seats = {seat.number: seat for seat in RaceSeat.objects.filter(race=race)}
    if len(seats) != 2:
        return
    bot: RaceBot | None = RaceBot.objects.filter(race=race).first()
    winner = race.result.get("winner")
    before: dict[int, Rating] = {}
    rows: dict[int, PlayerRating] = {}
    changes: dict[str, dict[str, Any]] = {}
    for number, seat in seats.items():
        if bot is not None and bot.seat == number:
            before[number] = Rating(racer.level_named(bot.level).rating, BOT_DEVIATION)
            changes[str(number)] = _change(before[number].rating, before[number].rating, fixed=True)
            continue
        row = _row_for(seat)
        if row is None:
            return
        rows[number] = row
        before[number] = _as_rating(row)
    for number, row in rows.items():
        other = 3 - number
        score = 0.5 if winner is None else 1.0 if winner == number else 0.0
        after = rate(before[number], [(before[other], score)])
        row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
        row.races += 1
        row.save()
        try:
            with transaction.atomic():
                RaceRating.objects.create(
                    race=race,
                    seat=number,
                    opponent=seats[other].name,
                    score=score,
                    before=before[number].rating,
                    after=after.rating,
                    deviation=after.deviation,
                    rating=row,
                )
        except IntegrityError:
            return  # rated meanwhile by another process
        changes[str(number)] = _change(before[number].rating, after.rating, provisional=after.provisional)
    # The payloads of this change read it from the race (its snapshot carries it), so the
    # sockets told of the end need no query (see ``changes_for``).
    setattr(race, STASH, changes)


# The attribute of a Race instance that holds the changes ``rate_race`` just made.
STASH = "rating_changes"


def _change(before: float, after: float, *, fixed: bool = False, provisional: bool = False) -> dict[str, Any]:
    return {
        "before": round(before),
        "after": round(after),
        "change": round(after) - round(before),
        "fixed": fixed,
        "provisional": provisional,
    }


def changes_for(race: Race, *, read: bool) -> dict[str, dict[str, Any]] | None:
    """Each seat's rating before and after a finished race, by seat ("1", "2"):
    ``{"before", "after", "change", "fixed" (the computer's level), "provisional"}``;
    None when the race is not finished or was not rated. Taken from the race instance
    when ``rate_race`` rated it in this change; otherwise read from the database when
    ``read`` (callers on the event loop pass False and get None)."""
    if race.status != Race.Status.FINISHED:
        return None
    stashed: dict[str, dict[str, Any]] | None = getattr(race, STASH, None)
    if stashed is not None or not read:
        return stashed
    rated = list(RaceRating.objects.filter(race=race))
    if not rated:
        return None
    found: dict[str, dict[str, Any]] = {}
    for entry in rated:
        found[str(entry.seat)] = _change(
            entry.before, entry.after, provisional=Rating(entry.after, entry.deviation).provisional
        )
    bot: RaceBot | None = RaceBot.objects.filter(race=race).first()
    if bot is not None:
        fixed = racer.level_named(bot.level).rating
        found[str(bot.seat)] = _change(fixed, fixed, fixed=True)
    return found


def rating_for(actor: Actor) -> dict[str, Any]:
    """The caller's rating and recent rated races, newest first (a new player's
    provisional 1500 if none yet)."""
    row: PlayerRating | None = None
    if actor.user_id is not None:
        row = PlayerRating.objects.filter(user_id=actor.user_id).first()
    elif actor.token:
        row = PlayerRating.objects.filter(user__isnull=True, player_key=actor.token).first()
    current = _as_rating(row) if row is not None else Rating()
    recent = []
    if row is not None:
        for entry in (
            RaceRating.objects.filter(rating=row).select_related("race").order_by("-created", "-pk")[:RECENT]
        ):
            recent.append(
                {
                    "race": entry.race_id,
                    "url": f"/races/{entry.race_id}/",
                    "replay_url": f"/races/{entry.race_id}/replay/",
                    "opponent": entry.opponent,
                    "score": entry.score,
                    "before": round(entry.before),
                    "after": round(entry.after),
                    "change": round(entry.after - entry.before),
                    "finished": entry.race.finished.isoformat() if entry.race.finished else None,
                }
            )
    return {
        "rating": round(current.rating),
        "deviation": round(current.deviation),
        "provisional": current.provisional,
        "races": row.races if row is not None else 0,
        "recent": recent,
        "levels": {name: level.rating for name, level in racer.LEVELS.items()},
    }


def adopt_anonymous_rating(token: object, user_id: int) -> None:
    """On login: the anonymous rating of this browser becomes the account's, unless the
    account has played more rated races already (then the account's stays)."""
    if not isinstance(token, str) or not token:
        return
    with transaction.atomic():
        anonymous = (
            PlayerRating.objects.select_for_update().filter(user__isnull=True, player_key=token).first()
        )
        if anonymous is None:
            return
        mine = PlayerRating.objects.select_for_update().filter(user_id=user_id).first()
        if mine is not None and mine.races >= anonymous.races:
            return
        if mine is not None:
            RaceRating.objects.filter(rating=mine).update(rating=anonymous)
            mine.delete()
        anonymous.user_id = user_id
        anonymous.save(update_fields=["user"])


def adopt_on_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """The ``user_logged_in`` receiver (connected in games.apps)."""
    if request is not None and hasattr(request, "session"):
        adopt_anonymous_rating(request.session.get(PLAYER_TOKEN_KEY), user.pk)
