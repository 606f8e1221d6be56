"""Engine speed: random-playout steps, ``apply`` calls, log replays and ``is_over`` per game.

Run ``python -m solitaire.tools.bench``. It prints a table and, with ``--json PATH``, writes
the same figures as JSON. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from ..base import State
from ..registry import new_game

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("klondike", {"draw": 3}),
    ("klondike", {"draw": 1}),
    ("klondike", {"draw": 1, "passes": 3, "scoring": "vegas"}),
    ("josephine", {}),
    ("casket", {}),
    ("casket", {"hard": True}),
    ("double", {}),
    ("double", {"same_deal": True}),
]


def playout_steps_per_second(name: str, options: dict[str, Any], seconds: float) -> float:
    """One ``legal_moves`` and one ``apply`` per step, random legal play, fresh deals."""
    chooser = random.Random(1)
    steps = 0
    seed = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        seed += 1
        state = new_game(name, seed=seed, **options)
        for _ in range(200):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.apply(chooser.choice(moves))
            steps += 1
    return steps / (time.perf_counter() - started)


def sample_log(name: str, options: dict[str, Any], length: int) -> tuple[State, list[Any]]:
    """A deal and a log of ``length`` random legal moves from it."""
    chooser = random.Random(2)
    seed = 0
    while True:
        seed += 1
        start = new_game(name, seed=seed, **options)
        state = start
        log: list[Any] = []
        while len(log) < length:
            moves = state.legal_moves()
            if not moves:
                break
            move = chooser.choice(moves)
            state = state.apply(move)
            log.append(move)
        if len(log) == length:
            return start, log


def applies_per_second(name: str, options: dict[str, Any], seconds: float) -> float:
    """``apply`` of one given legal move (a tableau or foundation move where there is one)."""
    start, log = sample_log(name, options, 40)
    state = start
    for move in log[:20]:
        state = state.apply(move)
    moves = state.legal_moves()
    card_moves = [m for m in moves if "stock" not in m.source]
    move = (card_moves or moves)[0]
    calls = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for _ in range(1000):
            state.apply(move)
        calls += 1000
    return calls / (time.perf_counter() - started)


def replay_ms(name: str, options: dict[str, Any], length: int = 300, repeats: int = 5) -> float:
    """Milliseconds to replay a ``length``-move log from the deal, best of ``repeats``."""
    start, log = sample_log(name, options, length)
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        state = start
        for move in log:
            state = state.apply(move)
        best = min(best, time.perf_counter() - began)
    return best * 1000


def is_over_ms(name: str, options: dict[str, Any], length: int = 300) -> tuple[float, float]:
    """``is_over`` on each fresh state along a ``length``-move random log: mean and max ms.

    The web app asks it after every move (a game that is over is settled as lost) and
    every view shows it, so its cost is paid once per move on the server.
    """
    start, log = sample_log(name, options, length)
    state = start
    spent: list[float] = []
    for move in log:
        state = state.apply(move)
        began = time.perf_counter()
        if state.is_over:
            pass  # only the time matters here
        spent.append(time.perf_counter() - began)
    return sum(spent) / len(spent) * 1000, max(spent) * 1000


def run(seconds: float) -> list[dict[str, Any]]:
    rows = []
    for name, options in OPTION_SETS:
        over_mean, over_max = is_over_ms(name, options)
        rows.append(
            {
                "game": name,
                "options": options,
                "playout_steps_per_s": round(playout_steps_per_second(name, options, seconds)),
                "apply_per_s": round(applies_per_second(name, options, seconds)),
                "replay_300_ms": round(replay_ms(name, options), 2),
                "is_over_mean_ms": round(over_mean, 3),
                "is_over_max_ms": round(over_max, 2),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--json", help="also write the rows as JSON to this file")
    args = parser.parse_args(argv)
    rows = run(args.seconds)
    print(
        f"{'game':<10} {'options':<46} {'steps/s':>9} {'apply/s':>9} {'replay300 ms':>13} "
        f"{'is_over ms mean':>16} {'max':>7}"
    )
    for row in rows:
        options = json.dumps(row["options"], separators=(",", ":"))
        print(
            f"{row['game']:<10} {options:<46} {row['playout_steps_per_s']:>9} "
            f"{row['apply_per_s']:>9} {row['replay_300_ms']:>13} "
            f"{row['is_over_mean_ms']:>16} {row['is_over_max_ms']:>7}"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"python": sys.version.split()[0], "engine": rows}, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
