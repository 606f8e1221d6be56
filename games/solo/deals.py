"""Deals: public deal numbers, the secret seeds behind them, and the daily deal.

A deal number is public and shareable; the engine seed is an HMAC of it under
DEAL_SECRET, so the number reveals no card. Knows the engine and the Deal model.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import secrets
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings

import solitaire
from games.core import workers
from games.core.errors import BadRequest
from games.core.options import validated_options
from games.models import Deal
from games.solo import winnable

# Games played alone on the site; "double" is the races'.
SINGLE_PLAYER_GAMES = ("klondike", "josephine", "casket")
# Deal numbers travel through JavaScript, so they stay within its exact integers.
MAX_DEAL_NUMBER = 2**53 - 1
RANDOM_DEAL_NUMBERS = 1_000_000_000


def check_game_name(game_name: object) -> str:
    """``game_name`` if it is a single-player game.

    :raises BadRequest: ``unknown_game`` otherwise.
    """
    if not isinstance(game_name, str) or game_name not in SINGLE_PLAYER_GAMES:
        raise BadRequest(
            f"there is no game called {game_name!r}; choose one of " + ", ".join(SINGLE_PLAYER_GAMES),
            "unknown_game",
        )
    return game_name


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def deal_seed(game_name: str, options_key: str, number: int) -> int:
    """The engine seed of a public deal number: HMAC-SHA256 under DEAL_SECRET.

    63 bits, so it fits a signed 64-bit database column.
    """
    message = f"{game_name}:{options_key}:{number}".encode()
    digest = hmac.new(settings.DEAL_SECRET.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def check_deal_number(number: object) -> int | None:
    """A deal number as asked for (None: any).

    :raises BadRequest: ``bad_deal`` for anything but a whole number in range.
    """
    if number is None:
        return None
    if isinstance(number, bool) or not isinstance(number, int):
        raise BadRequest("the deal number must be a whole number", "bad_deal")
    if not 0 <= number <= MAX_DEAL_NUMBER:
        raise BadRequest(f"the deal number must be between 0 and {MAX_DEAL_NUMBER}", "bad_deal")
    return number


def get_or_create_deal(game_name: str, options: object, number: object = None) -> Deal:
    """The deal of ``number`` (a random one when None) for this game and options.

    :raises BadRequest: for an unknown game or option, or a number out of range.
    """
    clean = validated_options(check_game_name(game_name), options)
    wanted = check_deal_number(number)
    if wanted is None:
        wanted = 1 + secrets.randbelow(RANDOM_DEAL_NUMBERS - 1)
    key = canonical_json(clean)
    deal: Deal
    deal, _ = Deal.objects.get_or_create(
        game=game_name,
        options_key=key,
        number=wanted,
        defaults={"options": clean, "seed": deal_seed(game_name, key, wanted)},
    )
    return deal


def dealt_state(deal: Deal) -> solitaire.State:
    """The engine state of a fresh deal, before any move."""
    return solitaire.new_game(deal.game, seed=deal.seed, **deal.options)


def keep_verdict_now(deal: Deal, verdict: winnable.Verdict) -> None:
    """Keep what the solver proved about a deal, inside the caller's transaction."""
    deal.winnable = verdict.status == "solved"
    deal.verdict = verdict.to_dict()
    deal.save(update_fields=["winnable", "verdict"])


# ---------------------------------------------------------------- the daily deal


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """Today's deal of one game and option set: the same number for everyone."""

    game: str
    options: dict[str, Any]
    day: date
    number: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "date": self.day.isoformat(),
            "deal": self.number,
        }


def daily_deal(game_name: object, options: object, day: date) -> DailyDeal:
    """The deal number of ``day`` for this game and options (UTC days).

    An HMAC of the day, game and options under DEAL_SECRET, so the number cannot be
    told in advance by anyone without the secret, and is the same for every player
    and every server process.

    :raises BadRequest: for an unknown game or option.
    """
    name = check_game_name(game_name)
    clean = validated_options(name, options)
    message = f"daily:{name}:{canonical_json(clean)}:{day.isoformat()}".encode()
    digest = hmac.new(settings.DEAL_SECRET.encode(), message, hashlib.sha256).digest()
    number = 1 + int.from_bytes(digest[:8], "big") % (RANDOM_DEAL_NUMBERS - 1)
    return DailyDeal(name, clean, day, number)


# ---------------------------------------------------------------- winnable deals


@dataclass(frozen=True, slots=True)
class FoundDeal:
    """A deal number the solver proved winnable, with its game, options and proof."""

    game: str
    options: dict[str, Any]
    number: int
    verdict: winnable.Verdict


def find_winnable_deal(game_name: object, options: object = None) -> FoundDeal:
    """Try random deals of the game until the solver proves one winnable.

    The search runs in the worker pool; callers on an event loop wait in a thread of
    their own. No database.
    Budgets are in games.solo.winnable.

    :raises BadRequest: for an unknown game or option.
    :raises Unavailable: ``no_winnable_deal`` when none was proved in time,
        ``solver_busy`` when the process's solver slots are all taken.
    """
    name = check_game_name(game_name)
    clean = validated_options(name, options)
    key = canonical_json(clean)

    # The search runs in the worker pool (games.core.workers); the seeds are made here,
    # where the deal secret is.
    numbers = itertools.islice(winnable.random_numbers(), winnable.HUNT_CANDIDATES)
    candidates = [(number, deal_seed(name, key, number)) for number in numbers]
    with winnable.solver_slot():
        found = workers.run_sync(
            winnable.hunt,
            name,
            clean,
            candidates,
            winnable.DEAL_BUDGET,
            winnable.DEAL_HUNT_SECONDS,
            cpu_seconds=winnable.cpu_seconds_for(winnable.DEAL_HUNT_SECONDS + winnable.DEAL_BUDGET.timeout),
        )
    if found is None:
        raise winnable.no_winnable_deal()
    return FoundDeal(name, clean, found[0], found[1])
