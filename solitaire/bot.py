"""The hint bot: play seeded deals by following ``solitaire.hint`` alone, and count wins.

    python -m solitaire.bot klondike draw=3 --games 200

Each step builds the player's view with ``state.view()``, asks ``hint(view)`` for a
move and plays it, until the game is won or over, the hint has nothing to offer, the
same layout comes round again (the hint is deterministic, so it would go round for
ever), or a step cap is reached. The win rate, with a 95% Wilson interval, measures how
good the hint is; the hint never sees a face-down card, so this is play with hidden
information, unlike ``solitaire.winnability``.

This module knows nothing of the web app; it only drives the engine and the hint.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from .hints import hint
from .registry import new_game
from .winnability import game_arguments, options_from, wilson

# Stopping reasons.
WON, OVER, NO_HINT, LOOP, CAP = "won", "over", "no hint", "loop", "step cap"


def play(game: str, options: dict[str, Any], seed: int, max_steps: int) -> dict[str, Any]:
    """Play one deal by the hint; return how it ended and after how many steps."""
    state = new_game(game, seed=seed, **options)
    seen: set[tuple[tuple[int, ...], ...]] = {state.piles}
    steps = 0
    ending = CAP
    while steps < max_steps:
        if state.is_won:
            ending = WON
            break
        if state.is_over:
            ending = OVER
            break
        move = hint(state.view())
        if move is None:
            ending = NO_HINT
            break
        state = state.apply(move)
        steps += 1
        if state.piles in seen and not state.is_won:
            ending = LOOP
            break
        seen.add(state.piles)
    if state.is_won:
        ending = WON
    return {"seed": seed, "ending": ending, "steps": steps, "won": ending == WON}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solitaire.bot", description=__doc__.split("\n")[0])
    game_arguments(parser)
    parser.add_argument("--games", type=int, default=100, help="how many seeded deals to play (default 100)")
    parser.add_argument("--steps", type=int, default=2000, help="step cap per game (default 2000)")
    parser.add_argument("--json", metavar="PATH", help="write every game's result and the summary here")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    try:
        options = options_from(args)
    except ValueError as error:
        parser.error(str(error))
    if args.games < 1 or args.steps < 1:
        parser.error("--games and --steps must be positive")
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    for seed in range(args.first, args.first + args.games):
        result = play(args.game, options, seed, args.steps)
        results.append(result)
        if not args.quiet:
            wins = sum(r["won"] for r in results)
            print(
                f"[{len(results):>5}/{args.games}] seed {seed}: {result['ending']} "
                f"after {result['steps']} steps  won {wins}",
                file=sys.stderr,
                flush=True,
            )
    wins = sum(r["won"] for r in results)
    n = len(results)
    low, high = wilson(wins, n)
    endings: dict[str, int] = {}
    for result in results:
        endings[result["ending"]] = endings.get(result["ending"], 0) + 1
    elapsed = time.perf_counter() - started
    print(
        f"{args.game} {options or ''} seeds {args.first}..{args.first + n - 1}, hint bot".replace("  ", " ")
    )
    print(f"  won {wins} of {n}: {100 * wins / n:.2f}% (95% Wilson {100 * low:.2f}% to {100 * high:.2f}%)")
    print("  endings: " + ", ".join(f"{name} {count}" for name, count in sorted(endings.items())))
    print(f"  {elapsed:.1f} s in all")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            summary = {"games": n, "wins": wins, "lower": low, "upper": high, "endings": endings}
            json.dump(
                {"game": args.game, "options": options, "summary": summary, "games": results}, out, indent=1
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
