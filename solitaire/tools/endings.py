"""Check the exact ending on a random-play corpus against the plain uncapped search.

    python -m solitaire.tools.endings --games 300

For each option set it plays ``--games`` seeded games at random (leaning to moves off
the stock, so games get stuck), takes every 25th position and the last, and compares
``endings.is_over_exact`` (probes first, then the search) with the plain exhaustive
search without probes, and with ``State.is_over`` (``quick_over``, then the exact search).
It prints how many positions each calls over, the disagreements, the exact check's CPU
time (p99 and slowest), and the hot path's: ``quick_over``, the only ending check a move
makes before it is acknowledged, with how many positions it leaves undecided (those are
settled by the exact check off the hot path). Any disagreement with the plain search, or
a ``quick_over`` answer the exact check contradicts, is a bug and makes the exit status 1.

This module knows nothing of the web app; it only drives the engine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from ..base import State
from ..endings import is_over_exact, is_stuck_exact
from ..registry import new_game
from .winnability import percentile

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("klondike", {"draw": 1}),
    ("klondike", {"draw": 3}),
    ("klondike", {"draw": 1, "passes": 2}),
    ("klondike", {"draw": 3, "foundation_to_tableau": False}),
    ("josephine", {}),
    ("casket", {}),
    ("double", {}),
]


def corpus(game: str, options: dict[str, Any], games: int, steps: int, chooser: random.Random) -> list[State]:
    positions: list[State] = []
    for seed in range(1, games + 1):
        state = new_game(game, seed=seed, **options)
        for step in range(steps):
            moves = state.legal_moves()
            if not moves:
                break
            off_stock = [m for m in moves if m.source != "stock" and m.target != "stock"]
            state = state.apply(chooser.choice(off_stock if off_stock and chooser.random() < 0.7 else moves))
            if step % 25 == 24:
                positions.append(state)
        positions.append(state)
    return positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire.tools.endings", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=300, help="random games per option set (default 300)")
    parser.add_argument("--steps", type=int, default=300, help="random moves per game (default 300)")
    args = parser.parse_args(argv)
    chooser = random.Random(11)
    bad = 0
    for game, options in OPTION_SETS:
        positions = corpus(game, options, args.games, args.steps, chooser)
        times: list[float] = []
        quick_times: list[float] = []
        over = capped_over = wrong = capped_differs = undecided = 0
        for state in positions:
            # The rules' own check, not State.quick_over, which would cache the answer.
            started = time.process_time()
            quick = state.rules.quick_over(state)
            quick_times.append(time.process_time() - started)
            started = time.process_time()
            exact = is_over_exact(state)
            times.append(time.process_time() - started)
            plain = state.is_won or all(
                is_stuck_exact(state, seat, probes=False) for seat in state.rules.seats()
            )
            over += exact
            capped_over += state.is_over
            wrong += exact != plain
            capped_differs += exact != state.is_over
            undecided += quick is None
            wrong += quick is not None and quick != exact
        bad += wrong
        print(
            f"{game} {options or ''}: {len(positions)} positions, exact over {over}, is_over "
            f"{capped_over}, exact vs plain search disagree {wrong}, exact vs is_over differ "
            f"{capped_differs}; exact CPU p99 {1000 * percentile(times, 0.99):.1f} ms, "
            f"slowest {1000 * max(times):.1f} ms; hot path quick_over p99 "
            f"{1000 * percentile(quick_times, 0.99):.2f} ms, slowest {1000 * max(quick_times):.2f} ms, "
            f"undecided {undecided}".replace("  ", " ")
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
