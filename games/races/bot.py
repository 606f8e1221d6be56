"""The computer as a race opponent: a bot seat, and the task that plays it.

A race against the computer is an ordinary race whose seat 2 is held by a player
token only the server knows (``RaceSeat.player_key``), already joined and ready, and
marked by a ``RaceBot`` row with its level. The bot plays through ``play.play_move``
with that token, exactly like a person: the same checks (its own piles only, not
before the start, the cards it means must still be on top, a foundation spot may be
taken first), the same log, the same broadcasts.

What the bot knows is its seat's view, ``state.view(seat)``, and its own memory
(``solitaire.racer.RacerMemory``), both built here from the race as stored. Its
thinking (``solitaire.racer.decide_job``) runs in the bounded worker pool
(games.core.workers), never on the event loop; database reads and writes run in a
thread. Between moves it waits its level's think time.

The task is started by the first player socket that opens on the race in a process
(``ensure_driving``), and lives while the race goes on. After a server restart, the
player's socket reconnects and starts it again: the bot's memory is rebuilt from the
race's log (the views its seat had after each move), so it resumes as a person
reconnecting does. If two processes drive the same bot (a player with two tabs on two
processes), each decision is seeded by the race and its version and sent with the
client id ``bot-<version>``, so the same move is applied once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

import solitaire
from games.core import workers
from games.core.actors import Actor
from games.core.errors import BadRequest, ServiceError
from games.core.transactions import writing
from games.models import Race, RaceBot, RaceMove, RaceSeat, race_group
from games.races import fastmove, lobby, play, presence, records
from games.races.records import RaceSnapshot
from solitaire import racer

logger = logging.getLogger(__name__)

BOT_SEAT = 2
# How long the task waits for news before looking again on its own (seconds).
LOOK_AGAIN = 15.0
# A race whose player has left before the start is let go after this long (the task
# ends; the player's socket starts it again when it opens).
GIVE_UP_WAITING = 600.0
# After a busy worker pool, try again after this pause (seconds).
BUSY_PAUSE = 1.0


def bot_name(level: str) -> str:
    return f"Computer ({racer.level_named(level).title})"


def think_scale() -> float:
    """Think times are multiplied by this: the ``BOT_THINK_SCALE`` setting, from the
    environment (1, the levels' human pace, unless a test server shortens them)."""
    return max(float(getattr(settings, "BOT_THINK_SCALE", 1.0)), 0.0)


def create_bot_race(actor: Actor, options: object, name: object, level: object) -> RaceSnapshot:
    """A new race: ``actor`` in seat 1, the computer at ``level`` in seat 2, joined and
    ready. The countdown starts when the player sends ``ready``.

    :raises BadRequest: for an unknown level, bad options, a missing name or no session.
    """
    try:
        chosen = racer.level_named(level)
    except ValueError as error:
        raise BadRequest(str(error), "bad_level") from None
    with writing():
        snapshot = lobby.create_race(actor, options, name)
        race = snapshot.race
        seat = RaceSeat.objects.create(
            race=race,
            number=BOT_SEAT,
            user=None,
            player_key="bot-" + secrets.token_urlsafe(24),
            name=bot_name(chosen.name),
            ready=True,
        )
        RaceBot.objects.create(race=race, seat=BOT_SEAT, level=chosen.name)
        seats = {**snapshot.seats, BOT_SEAT: seat}
        records.save_change(race, snapshot.state)
    return records.snapshot_of(race, seats)


def is_bot_seat(race_id: int, seat: int) -> bool:
    found: bool = RaceBot.objects.filter(race_id=race_id, seat=seat).exists()
    return found


# ---------------------------------------------------------------- what the bot reads and sends


@dataclass(frozen=True, slots=True)
class BotSeat:
    race_id: int
    seat: int
    level: str
    actor: Actor
    seed: int


@dataclass(frozen=True, slots=True)
class Look:
    """The race as the bot's seat sees it now."""

    status: str
    version: int
    starts_at: float | None  # seconds from now until play opens
    view: dict[str, Any]
    offered_end: bool
    opponent_here: bool  # the other seat has a live socket (asked only while waiting)


def bot_seat_of(race_id: int) -> BotSeat | None:
    """The race's computer seat, if it has one. A rematch of a race against the computer
    gets the computer again, at the same level, ready at once."""
    bot = RaceBot.objects.filter(race_id=race_id).select_related("race").first()
    if bot is None:
        bot = _bot_for_rematch(race_id)
    if bot is None:
        return None
    seat = RaceSeat.objects.get(race_id=race_id, number=bot.seat)
    return BotSeat(race_id, bot.seat, bot.level, Actor(token=seat.player_key), bot.race.seed)


def _bot_for_rematch(race_id: int) -> RaceBot | None:
    earlier = RaceBot.objects.filter(race__rematch_id=race_id).first()
    if earlier is None:
        return None
    with writing():
        bot, _ = RaceBot.objects.get_or_create(
            race_id=race_id, defaults={"seat": earlier.seat, "level": earlier.level}
        )
    seat = RaceSeat.objects.get(race_id=race_id, number=bot.seat)
    if not seat.ready:
        with contextlib.suppress(ServiceError):
            lobby.set_ready(Actor(token=seat.player_key), race_id)
    resumed: RaceBot = RaceBot.objects.select_related("race").get(pk=bot.pk)
    return resumed


def look(bot: BotSeat) -> Look:
    snapshot = records.load_snapshot(bot.race_id, lock=False)
    race = snapshot.race
    starts = None
    if race.status == Race.Status.COUNTDOWN and race.starts_at is not None:
        starts = (race.starts_at - records.now()).total_seconds()
    return Look(
        race.status,
        race.version,
        starts,
        snapshot.state.view(bot.seat),
        snapshot.seats[bot.seat].offered_end,
        # Only waiting asks who is here (a query a look saved in play).
        race.status == Race.Status.WAITING and presence.connected_seats(bot.race_id)[3 - bot.seat],
    )


def views_so_far(bot: BotSeat) -> list[dict[str, Any]]:
    """The views the bot's seat had after each move of the log (to rebuild its memory)."""
    race, _ = records.load(bot.race_id, lock=False)
    state = records.initial_state(race)
    views = [state.view(bot.seat)]
    log = RaceMove.objects.filter(race=race, seq__lte=race.moves_made).order_by("seq")
    for move in log.values_list("move", flat=True):
        state = state.apply(solitaire.Move.from_dict(dict(move)))
        views.append(state.view(bot.seat))
    return views


def send_move(bot: BotSeat, decision: racer.Decision, version: int) -> RaceSnapshot:
    """Send the bot's move through the same service as a person's.

    :raises ServiceError: exactly as for a person (stale, foundation_taken, not_started ...).
    """
    cards = decision.cards or None
    move = solitaire.Move(decision.move.source, decision.move.target, decision.move.count, cards=cards)
    return play.play_move(bot.actor, bot.race_id, move, f"bot-{version}")


def offer_to_stop(bot: BotSeat) -> None:
    play.offer_end(bot.actor, bot.race_id)


# ---------------------------------------------------------------- the task


_driving: dict[int, asyncio.Task[None]] = {}


async def ensure_driving(race_id: int) -> None:
    """Start this process's task for the race's bot seat, if it has one and no task runs."""
    task = _driving.get(race_id)
    if task is not None and not task.done():
        return
    bot = await sync_to_async(bot_seat_of, thread_sensitive=False)(race_id)
    if bot is None:
        return
    _driving[race_id] = asyncio.ensure_future(drive(bot))


async def stop_all() -> None:
    """Cancel every bot task of this process (tests, shutdown)."""
    tasks = list(_driving.values())
    _driving.clear()
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


# The bots' database work (reading the race, sending a move the locked way, presence)
# runs in threads of their own, never in the loop's default executor, where people's
# locked-way moves and reads queue: a hundred bots there put every person's fallback
# behind them (seen in `make bench`'s bots phase). A few threads: bots only wait longer.
BOT_THREADS = 2
_bot_threads = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="patience-bot")


def _in_thread(function: Any) -> Any:
    return sync_to_async(function, thread_sensitive=False, executor=_bot_threads)


async def _send(bot: BotSeat, decision: racer.Decision, version: int) -> None:
    """The bot's move, as a person's socket sends it: first the fast way on the loop
    (games.races.fastmove: the same checks and log, no lock), then, when that declines,
    the locked service (which gives the refusals).

    :raises ServiceError: exactly as for a person.
    """
    cards = decision.cards or None
    move = solitaire.Move(decision.move.source, decision.move.target, decision.move.count, cards=cards)
    snapshot = await fastmove.try_move(bot.actor, bot.race_id, move, f"bot-{version}")
    if snapshot is None:
        await _in_thread(send_move)(bot, decision, version)
        return
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(
        race_group(bot.race_id),
        {"type": "race.changed", "version": snapshot.race.version, "race": bot.race_id},
    )


async def drive(bot: BotSeat) -> None:
    """Play the bot's seat until the race ends."""
    layer = get_channel_layer()
    assert layer is not None, "a bot needs a channel layer to hear of changes"
    channel = await layer.new_channel()
    await layer.group_add(race_group(bot.race_id), channel)
    loop = asyncio.get_running_loop()
    last_seen = loop.time()

    async def news(after: int, timeout: float) -> None:
        """Wait until the race moves past version ``after`` (or ``timeout`` seconds);
        older announcements still queued (the bot's own moves among them) are skipped."""
        deadline = loop.time() + timeout
        while (remaining := deadline - loop.time()) > 0:
            try:
                message = await asyncio.wait_for(layer.receive(channel), remaining)
            except TimeoutError:
                return
            if message.get("type") == "race.changed" and int(message.get("version", 0)) > after:
                return

    memory: racer.RacerMemory | None = None
    waited = 0.0
    try:
        # The bot's task is its socket: it shows as connected while it plays.
        await _in_thread(presence.socket_opened)(bot.actor, bot.race_id, channel)
        while True:
            if loop.time() - last_seen > presence.PRESENCE_REFRESH.total_seconds():
                await _in_thread(presence.socket_seen)(channel)
                last_seen = loop.time()
            seen = await _in_thread(look)(bot)
            if seen.status == Race.Status.FINISHED:
                return
            if seen.status == Race.Status.WAITING:
                if waited > GIVE_UP_WAITING and not seen.opponent_here:
                    return  # nobody there: a socket that opens again restarts the bot
                await news(seen.version, LOOK_AGAIN)
                waited += LOOK_AGAIN
                continue
            if seen.status == Race.Status.COUNTDOWN:
                await asyncio.sleep(max(seen.starts_at or 0.0, 0.0))
                await _in_thread(lobby.begin)(bot.race_id)
                continue
            if memory is None:
                views = await _in_thread(views_so_far)(bot)
                memory = await workers.run(racer.memory_from_views, views[:-1], bot.seat)
            try:
                memory, decision = await workers.run(
                    racer.decide_job, seen.view, memory, bot.level, bot.seed ^ seen.version, bot.seat
                )
            except workers.WorkerError:
                await asyncio.sleep(BUSY_PAUSE)
                continue
            if decision is None:
                # Nothing useful to do: offer to stop, and wait for the opponent.
                if not seen.offered_end:
                    with contextlib.suppress(ServiceError):
                        await _in_thread(offer_to_stop)(bot)
                await news(seen.version, LOOK_AGAIN)
                continue
            await asyncio.sleep(decision.think_seconds * think_scale())
            try:
                await _send(bot, decision, seen.version)
            except ServiceError as error:
                # Refused as a person would be: the spot was taken, the cards moved on...
                logger.debug("race %s bot move refused: %s", bot.race_id, error.code)
            await news(2**62, 0.002)  # forget the announcements queued meanwhile
    except asyncio.CancelledError:
        raise
    except Exception:
        logger.exception("race %s: the bot stopped", bot.race_id)
    finally:
        await layer.group_discard(race_group(bot.race_id), channel)
        with contextlib.suppress(Exception):
            await _in_thread(presence.socket_closed)(bot.race_id, channel)
        if _driving.get(bot.race_id) is asyncio.current_task():
            _driving.pop(bot.race_id, None)
