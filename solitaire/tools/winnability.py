"""How often can a game be won? Solve seeded deals 1..N and report the shares.

    python -m solitaire.winnability klondike draw=1 --deals 200 --timeout 5
    python -m solitaire.winnability casket hard=true --deals 100 --timeout 3 --processes 2

Options after the game name are the game's own, written ``key=value`` (``true``,
``false``, ``none`` and numbers are read as such); ``--draw`` and ``--passes`` are
shortcuts. Each deal is solved by ``solitaire.solve`` with the face-down cards known
("thoughtful" play, as in the published studies). The share that can be won lies
between two 95% Wilson intervals, taken the way those studies take them: the lower
bound is the interval's low end on the deals solved, the upper bound its high end on
the deals solved or left unknown (not decided before the timeout).

The timeout is CPU time by default (``--wall`` for wall-clock time), so a busy shared
machine does not turn wins into unknowns. Progress goes to stderr, the table to stdout,
and ``--json`` writes every deal's result for later study.

This module knows nothing of the web app; it only drives the engine and the solver.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..registry import GAMES, new_game
from ..solver import SOLVED, UNKNOWN, UNSOLVABLE, solve

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def parse_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if lowered in ("none", "null", "unlimited"):
        return None
    try:
        return int(text)
    except ValueError:
        return text


def parse_options(pairs: Iterable[str]) -> dict[str, Any]:
    """Game options from ``key=value`` words. :raises ValueError: for a word without '='."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"options are written key=value, not {pair!r}")
        options[key.replace("-", "_")] = parse_value(value)
    return options


def game_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments naming a game and its options, shared with the hint bot."""
    parser.add_argument("game", choices=sorted(GAMES), help="the game to play")
    parser.add_argument("options", nargs="*", help="game options as key=value, e.g. draw=1 passes=3")
    parser.add_argument("--draw", type=int, help="Klondike: cards per draw (1 or 3)")
    parser.add_argument("--passes", type=parse_value, help="Klondike: passes through the stock (or none)")
    parser.add_argument("--first", type=int, default=1, help="the first seed (default 1)")


def options_from(args: argparse.Namespace) -> dict[str, Any]:
    options = parse_options(args.options)
    if args.draw is not None:
        options["draw"] = args.draw
    if args.passes is not None:
        options["passes"] = args.passes
    new_game(args.game, seed=1, **options)  # fails early, with the engine's message
    return options


def solve_deal(job: tuple[str, dict[str, Any], int, float, bool]) -> dict[str, Any]:
    """Solve one seeded deal (a top-level function, so worker processes can run it)."""
    game, options, seed, timeout, wall = job
    state = new_game(game, seed=seed, **options)
    clock = time.perf_counter if wall else time.process_time
    result = solve(state, timeout=timeout, clock=clock)
    return {
        "seed": seed,
        "status": result.status,
        "seconds": round(result.seconds, 4),
        "nodes": result.nodes,
        "moves": len(result.moves),
    }


def each_result(
    work: Callable[[Any], dict[str, Any]], jobs: Sequence[Any], processes: int
) -> Iterator[dict[str, Any]]:
    """``work`` over ``jobs``, results in the jobs' order: in worker processes when
    ``processes`` > 1 (``work`` must then be a top-level function), else here."""
    pool = multiprocessing.Pool(processes) if processes > 1 else None
    try:
        yield from (pool.imap(work, jobs) if pool is not None else map(work, jobs))
    finally:
        if pool is not None:
            pool.close()
            pool.join()


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of the values lie (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(results)
    counts = {
        status: sum(1 for r in results if r["status"] == status) for status in (SOLVED, UNSOLVABLE, UNKNOWN)
    }
    low = wilson(counts[SOLVED], n)[0]
    high = wilson(counts[SOLVED] + counts[UNKNOWN], n)[1]
    seconds = [r["seconds"] for r in results]
    decided = [r["seconds"] for r in results if r["status"] != UNKNOWN]
    return {
        "deals": n,
        "counts": counts,
        "lower": low,
        "upper": high,
        "median_seconds": statistics.median(seconds) if seconds else 0.0,
        "p95_seconds": percentile(seconds, 0.95),
        "mean_seconds": statistics.fmean(seconds) if seconds else 0.0,
        "decided_within_timeout": len(decided) / n if n else 0.0,
        "decided_within_1s": sum(1 for s in decided if s <= 1.0) / n if n else 0.0,
    }


def format_summary(
    game: str, options: dict[str, Any], args: argparse.Namespace, table: dict[str, Any]
) -> str:
    n = table["deals"]
    counts = table["counts"]
    last = args.first + n - 1
    clock = "wall-clock" if args.wall else "CPU"
    lines = [
        f"{game} {options or ''} seeds {args.first}..{last}, timeout {args.timeout:g} s ({clock})".replace(
            "  ", " "
        ),
    ]
    for status in (SOLVED, UNSOLVABLE, UNKNOWN):
        share = counts[status] / n if n else 0.0
        lines.append(f"  {status:<11}{counts[status]:>6}  {100 * share:6.2f}%")
    lines.append(
        f"  winnable: {100 * table['lower']:.2f}% to {100 * table['upper']:.2f}% "
        "(95% Wilson: low end on solved, high end on solved + unknown)"
    )
    lines.append(
        f"  seconds per deal: median {table['median_seconds']:.3f}, p95 {table['p95_seconds']:.3f}, "
        f"mean {table['mean_seconds']:.3f}; decided within the timeout: "
        f"{100 * table['decided_within_timeout']:.1f}%, within 1 s: {100 * table['decided_within_1s']:.1f}%"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire.winnability", description=__doc__.split("\n")[0]
    )
    game_arguments(parser)
    parser.add_argument("--deals", type=int, default=100, help="how many seeds to solve (default 100)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per deal (default 10)")
    parser.add_argument("--processes", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--wall", action="store_true", help="time deals by the wall clock, not CPU time")
    parser.add_argument("--json", metavar="PATH", help="write every deal's result and the summary here")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    try:
        options = options_from(args)
    except ValueError as error:
        parser.error(str(error))
    if args.deals < 1 or args.timeout <= 0 or args.processes < 1:
        parser.error("--deals, --timeout and --processes must be positive")
    jobs = [
        (args.game, options, seed, args.timeout, args.wall)
        for seed in range(args.first, args.first + args.deals)
    ]
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    for result in each_result(solve_deal, jobs, args.processes):
        results.append(result)
        if not args.quiet:
            counts = {s: sum(1 for r in results if r["status"] == s) for s in (SOLVED, UNSOLVABLE, UNKNOWN)}
            print(
                f"[{len(results):>5}/{args.deals}] seed {result['seed']}: {result['status']} in "
                f"{result['seconds']:.2f} s ({result['nodes']} positions)  "
                f"solved {counts[SOLVED]}, unsolvable {counts[UNSOLVABLE]}, unknown {counts[UNKNOWN]}",
                file=sys.stderr,
                flush=True,
            )
    table = summary(results)
    print(format_summary(args.game, options, args, table))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(
                {
                    "game": args.game,
                    "options": options,
                    "timeout": args.timeout,
                    "clock": "wall" if args.wall else "cpu",
                    "elapsed_seconds": round(time.perf_counter() - started, 1),
                    "summary": table,
                    "deals": results,
                },
                out,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
