"""Statistics of a player's games, and the results of a daily deal.

Read-only. An abandoned game counts as played and lost. Knows the models; nothing of
the engine.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games.core.actors import Actor
from games.models import Deal, Game
from games.solo.deals import DailyDeal, canonical_json
from games.solo.owners import owned_games

DAILY_RESULTS = 20


def statistics_for(actor: Actor) -> dict[str, Any]:
    """Played, won, win rate, streaks, best time and best score: overall and per variant.

    A game counts as played once it has a log entry or has finished (won, lost or
    abandoned). Streaks run over played games in the order they were dealt: a win
    extends the streak, anything else breaks it, except games still in play dealt after
    the last finished one.
    """
    rows = list(
        owned_games(actor)
        .order_by("created", "pk")
        .values(
            "deal__game",
            "deal__options",
            "deal__options_key",
            "status",
            "version",
            "score",
            "elapsed",
        )
    )
    played = [row for row in rows if row["version"] > 0 or row["status"] != Game.Status.PLAYING]
    variants: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in played:
        variants.setdefault((row["deal__game"], row["deal__options_key"]), []).append(row)
    return {
        "overall": _tally(played),
        "variants": [
            {"game": group[0]["deal__game"], "options": group[0]["deal__options"], **_tally(group)}
            for _, group in sorted(variants.items())
        ],
    }


def _tally(rows: list[dict[str, Any]]) -> dict[str, Any]:
    won = [row for row in rows if row["status"] == Game.Status.WON]
    finished = [i for i, row in enumerate(rows) if row["status"] != Game.Status.PLAYING]
    streak = best_streak = 0
    for row in rows[: finished[-1] + 1] if finished else []:
        streak = streak + 1 if row["status"] == Game.Status.WON else 0
        best_streak = max(best_streak, streak)
    scores = [row["score"] for row in rows if row["score"] is not None]
    return {
        "played": len(rows),
        "won": len(won),
        "win_rate": round(len(won) / len(rows), 4) if rows else None,
        "current_streak": streak,
        "best_streak": best_streak,
        "best_time": min((int(row["elapsed"].total_seconds()) for row in won), default=None),
        "best_score": max(scores, default=None),
    }


def daily_results(daily: DailyDeal, actor: Actor) -> dict[str, Any]:
    """The wins of today's deal so far, fewest moves first, then quickest.

    ``{"played", "won", "best", "results": [{"rank", "player", "moves", "seconds",
    "you"}]}``. A win counts when the game was dealt on the deal's day (UTC). Players
    are named by their account's name, or "Anonymous"; ``you`` marks the asker's own.
    """
    deal = Deal.objects.filter(
        game=daily.game, options_key=canonical_json(daily.options), number=daily.number
    ).first()
    if deal is None:
        return {"played": 0, "won": 0, "best": None, "results": []}
    todays = Game.objects.filter(deal=deal, created__date=daily.day)
    played = todays.exclude(version=0, status=Game.Status.PLAYING).count()
    won = list(
        todays.filter(status=Game.Status.WON)
        .order_by("moves_made", "elapsed", "finished", "pk")
        .values("pk", "owner_id", "owner_key", "moves_made", "elapsed")
    )
    mine = set(owned_games(actor).filter(deal=deal).values_list("pk", flat=True))
    names = dict(
        get_user_model()
        .objects.filter(pk__in={row["owner_id"] for row in won if row["owner_id"]})
        .values_list("pk", "username")
    )
    results = [
        {
            "rank": rank,
            "player": names.get(row["owner_id"], "Anonymous"),
            "moves": row["moves_made"],
            "seconds": int(row["elapsed"].total_seconds()),
            "you": row["pk"] in mine,
        }
        for rank, row in enumerate(won[:DAILY_RESULTS], start=1)
    ]
    return {"played": played, "won": len(won), "best": results[0] if results else None, "results": results}
