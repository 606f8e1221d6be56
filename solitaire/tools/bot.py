"""The hint bot: play seeded deals by following ``solitaire.hint`` alone, and count wins.

    python -m solitaire.bot klondike draw=3 --games 200
    python -m solitaire.bot klondike draw=3 --games 200 --json new.json --compare old.json

Each step builds the player's view with ``state.view()`` and the player's ``Memory``
(built move by move from the states, as the web app does), and asks
``hints.advise(view, memory, seen=..., budget=...)`` for a move, where ``seen`` holds
the ``position_key`` of every earlier position. It plays the move, until the game is
won, the hint says the game is lost, ``is_over`` says so, a position comes round a third
time (a loop), or a step cap is reached. The hint never sees a face-down card it has not
seen, so this is play with hidden information, unlike ``python -m solitaire.winnability``.

It reports the win rate with a 95% Wilson interval and the CPU seconds the hint spent
per move (``time.process_time``). ``--compare`` reads another run's ``--json`` file
(an older hint, say) and compares the two on the seeds both played with McNemar's exact
test, which looks only at the deals one won and the other lost.

This module knows nothing of the web app; it only drives the engine and the hint.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import replace
from typing import Any

from ..base import State
from ..cards import face_text
from ..hints import DEFAULT_BUDGET, advise, position_key_of
from ..memory import Memory
from ..registry import new_game
from .winnability import each_result, game_arguments, options_from, percentile, wilson

# Stopping reasons.
WON, LOST, OVER, NO_HINT, LOOP, CAP = "won", "lost", "over", "no hint", "loop", "step cap"
# A position may come round this often (the hint may have to repeat one when nothing
# else is possible) before the game counts as a loop.
LOOP_VISITS = 3


def play(
    game: str,
    options: dict[str, Any],
    seed: int,
    max_steps: int,
    budget: float = DEFAULT_BUDGET,
    remember: bool = True,
    knows_stock: bool = False,
) -> dict[str, Any]:
    """Play one deal by the hint; return how it ended, the steps and the hint's CPU time.

    ``knows_stock``: the player is told the stock's order at the start (the setting of
    lonelybot's player, which shuffles only the face-down tableau cards); the face-down
    tableau cards stay hidden.
    """
    state = new_game(game, seed=seed, **options)
    memory = Memory.start(state)
    if knows_stock:
        memory = told_stock(state, memory)
    visits: dict[str, int] = {position_key_of(state): 1}
    steps = 0
    move_seconds: list[float] = []
    cut_short = 0
    ending = CAP
    while steps < max_steps:
        if state.is_won:
            ending = WON
            break
        started = time.process_time()
        advice = advise(state.view(), memory if remember else None, seen=visits.keys(), budget=budget)
        move_seconds.append(time.process_time() - started)
        cut_short += advice.cut_short
        if advice.move is None:
            ending = LOST if advice.lost else NO_HINT
            break
        state = state.apply(advice.move)
        memory = memory.after(state)
        steps += 1
        key = position_key_of(state)
        visits[key] = visits.get(key, 0) + 1
        if visits[key] >= LOOP_VISITS and not state.is_won:
            ending = LOOP
            break
        if not state.is_won and state.is_over:
            ending = OVER
            break
    if state.is_won:
        ending = WON
    return {
        "seed": seed,
        "ending": ending,
        "steps": steps,
        "won": ending == WON,
        "cpu_seconds": round(sum(move_seconds), 4),
        "slowest_move_seconds": round(max(move_seconds, default=0.0), 4),
        "move_seconds": [round(spent, 4) for spent in move_seconds],
        "cut_short": cut_short,
    }


def told_stock(state: State, memory: Memory) -> Memory:
    """``memory`` with every card of the stock known in place, as if the player had been
    shown the stock in order before the first move (the bot alone does this)."""
    stock = state.rules.index["stock"]
    told = tuple(("stock", index, face_text(card)) for index, card in enumerate(state.piles[stock]))
    return replace(memory, known=memory.known + told)


def play_job(job: tuple[str, dict[str, Any], int, int, float, bool, bool]) -> dict[str, Any]:
    """``play`` for one seed, as a top-level function so worker processes can run it."""
    game, options, seed, max_steps, budget, remember, knows_stock = job
    return play(game, options, seed, max_steps, budget, remember=remember, knows_stock=knows_stock)


def mcnemar(wins_a: dict[int, bool], wins_b: dict[int, bool]) -> dict[str, Any]:
    """McNemar's exact test on the seeds both runs played: ``only_a`` deals A won and B
    lost, ``only_b`` the reverse, and the two-sided binomial p-value."""
    common = sorted(set(wins_a) & set(wins_b))
    only_a = sum(1 for s in common if wins_a[s] and not wins_b[s])
    only_b = sum(1 for s in common if wins_b[s] and not wins_a[s])
    n = only_a + only_b
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2**n if n else 1.0
    return {"seeds": len(common), "only_a": only_a, "only_b": only_b, "p_value": min(1.0, 2 * tail)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire.bot", description=(__doc__ or "").split("\n")[0]
    )
    game_arguments(parser)
    parser.add_argument("--games", type=int, default=100, help="how many seeded deals to play (default 100)")
    parser.add_argument("--steps", type=int, default=2000, help="step cap per game (default 2000)")
    parser.add_argument(
        "--budget", type=float, default=DEFAULT_BUDGET, help=f"hint budget, CPU s (default {DEFAULT_BUDGET})"
    )
    parser.add_argument("--forget", action="store_true", help="give the hint no memory, the view alone")
    parser.add_argument(
        "--knows-stock",
        action="store_true",
        help="tell the hint the stock's order at the start (lonelybot's setting)",
    )
    parser.add_argument("--json", metavar="PATH", help="write every game's result and the summary here")
    parser.add_argument(
        "--compare", metavar="PATH", help="another run's --json file: McNemar on common seeds"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="worker processes (default 1; the results do not change)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    try:
        options = options_from(args)
    except ValueError as error:
        parser.error(str(error))
    if args.compare and not os.path.isfile(args.compare):
        # Said before any game is played: found missing afterwards, it cost the run.
        parser.error(f"--compare: no such file: {args.compare}")
    if args.games < 1 or args.steps < 1 or args.budget <= 0 or args.processes < 1:
        parser.error("--games, --steps, --budget and --processes must be positive")
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    jobs = [
        (args.game, options, seed, args.steps, args.budget, not args.forget, args.knows_stock)
        for seed in range(args.first, args.first + args.games)
    ]
    # Each game is a function of its seed alone (the hint's budget is a node count and
    # its time limit is CPU time), so spreading games over processes changes no result.
    for result in each_result(play_job, jobs, args.processes):
        results.append(result)
        if not args.quiet:
            wins = sum(r["won"] for r in results)
            print(
                f"[{len(results):>5}/{args.games}] seed {result['seed']}: {result['ending']} after "
                f"{result['steps']} steps, {result['cpu_seconds']:.1f} CPU s  won {wins}",
                file=sys.stderr,
                flush=True,
            )
    wins = sum(r["won"] for r in results)
    n = len(results)
    low, high = wilson(wins, n)
    endings: dict[str, int] = {}
    for result in results:
        endings[result["ending"]] = endings.get(result["ending"], 0) + 1
    steps = sum(r["steps"] for r in results)
    # Every call of the hint counts, the last one (which may return no move) included.
    calls = [spent for r in results for spent in r["move_seconds"]]
    cpu = sum(calls)
    per_move = cpu / len(calls) if calls else 0.0
    p95 = percentile(calls, 0.95)
    slowest = max(calls, default=0.0)
    label = (
        "hint bot"
        + (" (no memory)" if args.forget else "")
        + (" (told the stock)" if args.knows_stock else "")
        + f", budget {args.budget:g} s"
    )
    print(f"{args.game} {options or ''} seeds {args.first}..{args.first + n - 1}, {label}".replace("  ", " "))
    print(f"  won {wins} of {n}: {100 * wins / n:.2f}% (95% Wilson {100 * low:.2f}% to {100 * high:.2f}%)")
    print("  endings: " + ", ".join(f"{name} {count}" for name, count in sorted(endings.items())))
    print(
        f"  hint CPU per move (per call of the hint): mean {per_move:.3f} s, p95 {p95:.3f} s, "
        f"slowest {slowest:.2f} s "
        f"({len(calls)} calls, {steps} moves played, {cpu:.1f} s in all)"
    )
    cut_games = sum(1 for r in results if r["cut_short"])
    print(
        f"  the CPU limit cut a search short in {sum(r['cut_short'] for r in results)} moves "
        f"of {cut_games} games"
    )
    print(f"  {time.perf_counter() - started:.1f} s wall-clock in all")
    summary: dict[str, Any] = {
        "games": n,
        "wins": wins,
        "lower": low,
        "upper": high,
        "endings": endings,
        "cpu_seconds_per_move": per_move,
        "p95_move_seconds": p95,
        "slowest_move_seconds": slowest,
        "cut_short_games": cut_games,
        "budget": args.budget,
        "memory": not args.forget,
        "knows_stock": args.knows_stock,
    }
    if args.compare:
        with open(args.compare, encoding="utf-8") as handle:
            other = json.load(handle)
        theirs = {int(g["seed"]): bool(g["won"]) for g in other["games"]}
        ours = {int(r["seed"]): bool(r["won"]) for r in results}
        test = mcnemar(ours, theirs)
        summary["mcnemar"] = test
        won_theirs = sum(theirs[s] for s in ours if s in theirs)
        print(
            f"  against {args.compare} on {test['seeds']} common seeds: this run won "
            f"{sum(ours[s] for s in ours if s in theirs)}, the other {won_theirs}; "
            f"only this {test['only_a']}, only the other {test['only_b']}, "
            f"McNemar exact p = {test['p_value']:.4f}"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(
                {"game": args.game, "options": options, "summary": summary, "games": results}, out, indent=1
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
