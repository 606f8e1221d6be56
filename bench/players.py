"""The load: WebSocket players speaking the documented protocol, and what they measure.

A player keeps the latest ``state`` its socket received and picks its next move from
that state's ``moves`` (the engine's legal moves for it), so it never needs the rules.
One round trip is: send ``{"type": "move", "id", "move"}``, then wait until both the
``ack`` for that id and a ``state`` at the acknowledged version (or later) have come
back; a refusal (``error`` with that id) ends the round trip too. The same code plays
the site and the baseline, which answers in the same shape.

Players run in one asyncio loop; a Phase lines them up (all connected, and for races
all started) before the timed window opens, so connecting is never timed as play.
This module knows the protocol (docs/api.md), nothing of the server's insides.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

ANSWER_SECONDS = 10.0  # a round trip slower than this counts as an error
START_SECONDS = 30.0  # the race countdown and opening play


class BenchError(Exception):
    """Something a player did not expect: counted as an error of the phase."""


@dataclass
class Window:
    """The timed part of a phase: round trips completed in [start, end] count."""

    start: float = 0.0
    end: float = 0.0

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def holds(self, began: float, ended: float) -> bool:
        return began >= self.start and ended <= self.end


@dataclass
class Tally:
    """What all the players of one phase saw."""

    round_trips: list[float] = field(default_factory=list)  # seconds, in the window
    applied: int = 0  # acknowledged moves in the window
    refused: Counter[str] = field(default_factory=Counter)  # refusal codes, in the window
    errors: list[str] = field(default_factory=list)  # anything unexpected, any time
    state_bytes: list[int] = field(default_factory=list)
    finished_games: int = 0

    def error(self, text: str) -> None:
        self.errors.append(text)


class Phase:
    """Lines players up: each ``arrive()``s when ready, then all wait for ``go``."""

    def __init__(self, players: int, warmup: float, seconds: float) -> None:
        self.players = players
        self.warmup = warmup
        self.seconds = seconds
        self.window = Window()
        self.tally = Tally()
        self.arrived = 0
        self.all_here = asyncio.Event()
        self.go = asyncio.Event()
        # Players connect a few dozen at a time: a connect storm would overflow the
        # listen backlog, and connecting is not what is measured.
        self.connecting = asyncio.Semaphore(32)

    async def arrive(self) -> None:
        self.leave_early()
        await self.go.wait()

    def leave_early(self) -> None:
        """Count a player in without waiting: one that failed before arriving still
        counts, so that the others are not kept waiting for it."""
        self.arrived += 1
        if self.arrived >= self.players:
            self.all_here.set()

    def open(self) -> None:
        now = time.perf_counter()
        self.window = Window(now + self.warmup, now + self.warmup + self.seconds)
        self.go.set()


class Socket:
    """One connected player: the latest state, and a reader of the next message."""

    def __init__(self, ws: ClientConnection, tally: Tally) -> None:
        self.ws = ws
        self.tally = tally
        self.latest: dict[str, Any] = {}
        self.seen: Counter[str] = Counter()

    @property
    def version(self) -> int:
        return int(self.latest.get("version", -1))

    async def message(self, timeout: float = ANSWER_SECONDS) -> dict[str, Any]:
        try:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
        except TimeoutError:
            raise BenchError(f"no message within {timeout}s") from None
        if not isinstance(raw, str):
            raise BenchError("a binary message")
        message: dict[str, Any] = json.loads(raw)
        kind = message.get("type", "?")
        self.seen[kind] += 1
        if kind == "state":
            self.tally.state_bytes.append(len(raw.encode()))
            if message["version"] < self.version:
                raise BenchError(f"versions went back: {self.version} then {message['version']}")
            self.latest = message
        return message

    async def first_state(self) -> dict[str, Any]:
        while not self.latest:
            await self.message()
        return self.latest

    async def next_state(self, timeout: float = ANSWER_SECONDS) -> dict[str, Any]:
        """Read on until a state message comes (any version)."""
        while True:
            message = await self.message(timeout)
            if message.get("type") == "state":
                return message

    async def newer_state(self, than: int, timeout: float) -> bool:
        """Wait for a state past version ``than``; False if none came in time."""
        deadline = time.perf_counter() + timeout
        while self.version <= than:
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            try:
                await self.message(left)
            except BenchError:
                return False
        return True

    async def round_trip(self, move: dict[str, Any], message_id: str) -> tuple[bool, dict[str, Any]]:
        """Send a move; (True, ack) once the state shows it, or (False, error) if refused."""
        await self.ws.send(json.dumps({"type": "move", "id": message_id, "move": move}))
        ack: dict[str, Any] | None = None
        while True:
            message = await self.message()
            kind = message.get("type")
            if kind == "ack" and message.get("id") == message_id:
                ack = message
            elif kind == "error" and message.get("id") == message_id:
                return False, message
            elif kind == "error":
                raise BenchError(f"an error for another message: {message}")
            if ack is not None and self.version >= ack["version"]:
                return True, ack


def open_socket(url: str, origin: str, cookie: str | None = None) -> Any:
    """Connect like a browser: its Origin and its cookies; no compression, no pings."""
    headers = {"Cookie": cookie} if cookie else None
    return connect(
        url,
        origin=Origin(origin),
        additional_headers=headers,
        compression=None,
        ping_interval=None,
        open_timeout=30,
        max_size=2**20,
    )


def choose(moves: list[dict[str, Any]], chooser: random.Random, *, foundation_first: bool) -> dict[str, Any]:
    """A legal move: foundation moves first in a race, else card moves more often than
    draws and recycles (``from`` or ``to`` the stock)."""
    if foundation_first:
        up = [m for m in moves if m["to"].startswith("f")]
        if up:
            return chooser.choice(up)
    cards = [m for m in moves if not m["from"].endswith("stock") and not m["to"].endswith("stock")]
    if cards and chooser.random() < 0.6:
        return chooser.choice(cards)
    return chooser.choice(moves)


# ---------------------------------------------------------------- single player


@dataclass
class GameRecord:
    """One single-player socket's own account: the moves it saw acknowledged."""

    game_id: int
    acked: list[dict[str, Any]] = field(default_factory=list)
    last_version: int = -1


async def play_game(
    phase: Phase,
    url_for: Callable[[int], str],
    origin: str,
    cookie: str | None,
    record: GameRecord,
    *,
    seed: int,
    max_moves: int | None = None,
    pace: float | None = None,
    deal: Callable[[], int] | None = None,
) -> list[GameRecord]:
    """Play until the window closes (or ``max_moves``), one move at a time: each as soon
    as the last is answered, or, with ``pace``, one every ``pace`` seconds (from a random
    phase, so the players do not move in step). When a game ends and ``deal`` is given,
    it deals the next game (over HTTP, blocking, so in a thread) and plays on there, as a
    player would; the time that takes is in the window but in no round trip.
    Returns the record of every game played."""
    tally = phase.tally
    chooser = random.Random(seed)
    records = [record]
    next_move = 0.0
    arrived = False
    try:
        while True:
            async with phase.connecting:
                ws = await open_socket(url_for(record.game_id), origin, cookie)
            async with ws:
                sock = Socket(ws, tally)
                await sock.first_state()
                if not arrived:
                    arrived = True
                    await phase.arrive()
                    if pace is not None:
                        next_move = time.perf_counter() + chooser.uniform(0, pace)
                finished = await _play_on(phase, sock, record, chooser, max_moves, pace, next_move)
            if finished is None or deal is None:
                break
            next_move = finished
            record = GameRecord(await asyncio.to_thread(deal))
            records.append(record)
    except (BenchError, WebSocketException, OSError) as error:
        tally.error(f"game {record.game_id}: {type(error).__name__}: {error}")
    finally:
        if not arrived:
            phase.leave_early()
    return records


async def _play_on(
    phase: Phase,
    sock: Socket,
    record: GameRecord,
    chooser: random.Random,
    max_moves: int | None,
    pace: float | None,
    next_move: float,
) -> float | None:
    """Move on one socket; returns when the next move was due if the game ended, else None."""
    tally = phase.tally
    while time.perf_counter() < phase.window.end and (max_moves is None or len(record.acked) < max_moves):
        if pace is not None:
            await asyncio.sleep(max(0.0, next_move - time.perf_counter()))
            next_move = max(next_move + pace, time.perf_counter())
            if time.perf_counter() >= phase.window.end:
                break
        latest = sock.latest
        moves = latest["state"]["moves"]
        if latest["status"] != "playing" or not moves:
            tally.finished_games += 1
            return next_move
        move = choose(moves, chooser, foundation_first=False)
        began = time.perf_counter()
        ok, answer = await sock.round_trip(move, f"m{len(record.acked) + 1}")
        ended = time.perf_counter()
        if not ok:
            if answer.get("code") == "game_over":
                # The game ended under this move: the exact ending of an earlier move,
                # settled off the loop after its ack, was recorded first. A player
                # sees the end and deals again, as after any loss.
                tally.finished_games += 1
                return next_move
            tally.error(f"game {record.game_id}: move refused: {answer.get('code')}")
            break
        record.acked.append(move)
        record.last_version = answer["version"]
        if phase.window.holds(began, ended):
            tally.round_trips.append(ended - began)
            tally.applied += 1
    return None


# ---------------------------------------------------------------- races


@dataclass
class SeatRecord:
    """One race socket's own account: its seat and the moves it saw acknowledged."""

    race_id: int
    seat: int | None = None
    acked: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False


async def race_player(
    phase: Phase,
    url: str,
    origin: str,
    cookie: str | None,
    record: SeatRecord,
    *,
    seed: int,
    real: bool,
) -> SeatRecord:
    """Ready, wait for the start, then move as fast as answers allow until the window
    closes; then offer to stop, so that the race finishes and its log can be read."""
    tally = phase.tally
    chooser = random.Random(seed)
    arrived = False
    try:
        async with phase.connecting:
            ws = await open_socket(url, origin, cookie)
        async with ws:
            sock = Socket(ws, tally)
            await sock.first_state()
            record.seat = sock.latest.get("seat")
            if real:
                await ws.send(json.dumps({"type": "ready", "id": "ready"}))
                deadline = time.perf_counter() + START_SECONDS
                # A deal can be blocked from the start (same_deal makes the two seats
                # alike, and the server may call blockage at once): then it ends here.
                while sock.latest.get("status") not in ("playing", "finished"):
                    if time.perf_counter() > deadline:
                        raise BenchError(f"race {record.race_id} did not start")
                    message = await sock.message(START_SECONDS)
                    if message.get("type") == "error":
                        raise BenchError(f"race {record.race_id}: {message}")
            arrived = True
            await phase.arrive()
            count = 0
            while time.perf_counter() < phase.window.end:
                latest = sock.latest
                if latest.get("status") == "finished":
                    record.finished = True
                    break
                moves = latest["state"]["moves"]
                if not moves:
                    # Nothing to do until the other player changes something.
                    await sock.newer_state(sock.version, 0.2)
                    continue
                move = choose(moves, chooser, foundation_first=True)
                count += 1
                seen = sock.version
                began = time.perf_counter()
                ok, answer = await sock.round_trip(move, f"s{record.seat}m{count}")
                ended = time.perf_counter()
                counted = phase.window.holds(began, ended)
                if counted:
                    tally.round_trips.append(ended - began)
                if ok:
                    record.acked.append(move)
                    tally.applied += counted
                    continue
                code = str(answer.get("code"))
                if code == "race_over":
                    record.finished = True
                    break
                if counted:
                    tally.refused[code] += 1
                # The refusal means the other seat's change is committed; its state is on
                # the way. Wait for it rather than resend from the same old picture.
                if not await sock.newer_state(seen, 1.0):
                    await ws.send(json.dumps({"type": "sync"}))
                    await sock.next_state()
            if real:
                await _finish_race(sock, record)
    except (BenchError, WebSocketException, OSError) as error:
        tally.error(f"race {record.race_id} seat {record.seat}: {type(error).__name__}: {error}")
    finally:
        if not arrived:
            phase.leave_early()
    return record


async def _finish_race(sock: Socket, record: SeatRecord) -> None:
    """Offer to stop and wait for ``finished`` (the other seat offers too)."""
    if not record.finished:
        await sock.ws.send(json.dumps({"type": "offer_end", "id": "end"}))
    deadline = time.perf_counter() + ANSWER_SECONDS * 3
    last: list[dict[str, Any]] = []
    while sock.seen["finished"] == 0:
        if time.perf_counter() > deadline:
            raise BenchError(
                f"race {record.race_id} did not finish: status {sock.latest.get('status')}, "
                f"seen {dict(sock.seen)}, last {[_brief(m) for m in last]}"
            )
        with contextlib.suppress(BenchError):
            last = [*last[-4:], await sock.message(1.0)]
    record.finished = True


def _brief(message: dict[str, Any]) -> str:
    """A message in a few words, for error reports."""
    words = [str(message.get("type"))]
    for key in ("id", "version", "status", "code", "seat", "connected"):
        if message.get(key) is not None:
            words.append(f"{key}={message[key]}")
    return " ".join(words)


# ---------------------------------------------------------------- races against the computer


@dataclass
class BotRaceSeat:
    """The person's seat of a race against the computer: what its socket saw of the race."""

    race_id: int
    version: int = -1  # the race's latest version this socket has seen
    moves: int = 0  # the person's own moves acknowledged
    status: str = ""


async def bot_race_seat(
    phase: Phase,
    url: str,
    origin: str,
    cookie: str | None,
    record: BotRaceSeat,
    stop: asyncio.Event,
    *,
    seed: int,
    pace: float | None,
) -> BotRaceSeat:
    """Seat 1 of a race against the computer: ready, wait for the start, then stay on the
    socket until ``stop``, reading every state the bot's moves cause; with ``pace``, make
    a move (foundation moves first) every ``pace`` seconds or so, as a slow person would.
    Nothing here is timed: this is the load, not the measurement."""
    tally = phase.tally
    chooser = random.Random(seed)
    arrived = False
    try:
        async with phase.connecting:
            ws = await open_socket(url, origin, cookie)
        async with ws:
            sock = Socket(ws, tally)
            await sock.first_state()
            await ws.send(json.dumps({"type": "ready", "id": "ready"}))
            deadline = time.perf_counter() + START_SECONDS
            while sock.latest.get("status") not in ("playing", "finished"):
                if time.perf_counter() > deadline:
                    raise BenchError(f"race {record.race_id} did not start")
                message = await sock.message(START_SECONDS)
                if message.get("type") == "error":
                    raise BenchError(f"race {record.race_id}: {message}")
            arrived = True
            await phase.arrive()
            next_move = time.perf_counter() + (chooser.uniform(0, pace) if pace else 0.0)
            while not stop.is_set():
                record.version, record.status = sock.version, str(sock.latest.get("status"))
                if record.status == "finished":
                    break
                wait = 0.5 if not pace else max(0.0, min(0.5, next_move - time.perf_counter()))
                if pace and wait <= 0.0:
                    next_move = time.perf_counter() + chooser.uniform(0.5 * pace, 1.5 * pace)
                    moves = sock.latest["state"]["moves"]
                    if moves:
                        move = choose(moves, chooser, foundation_first=True)
                        record.moves += 1
                        ok, _ = await sock.round_trip(move, f"p{record.moves}")
                        record.moves -= not ok
                    continue
                # Read what the bot's moves send (a state per move), without blocking.
                with contextlib.suppress(BenchError):
                    await sock.message(max(wait, 0.01))
            record.version, record.status = sock.version, str(sock.latest.get("status"))
    except (BenchError, WebSocketException, OSError) as error:
        tally.error(f"bot race {record.race_id}: {type(error).__name__}: {error}")
    finally:
        if not arrived:
            phase.leave_early()
    return record
