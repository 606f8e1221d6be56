"""Race the computer levels against each other and against the hint bot; report who wins.

    python -m solitaire.tools.racebench --races 200
    python -m solitaire.tools.racebench --pairs sharp:steady --races 40 --pace equal

Each race is a seeded Double Solitaire deal played in simulated time, as the web app
plays it: each side looks at its own view, decides a move (``solitaire.racer.decide``,
or ``solitaire.hint`` for the hint bot), thinks for its level's think time and then
sends the move, which the engine checks against the race as it is *then*. A move whose
cards are no longer on top, or whose foundation spot the other side took meanwhile, is
refused and the side looks again. A side with nothing useful to do waits until the other
changes something. A race ends when one side has sent every card up, when the engine
finds both blocked, when both sides wait, or at a cap of moves; the larger contribution
then wins and equal ones draw.

``--pace level`` (default) gives each side its own level's think times, as players meet
them; ``--pace equal`` gives both sides the same pace (Steady's), so the figures measure
the policies alone. Seats alternate between the two sides, and every pairing plays the
same seeds. Win rates carry 95% Wilson intervals; the CPU cost of a decision is measured
with ``time.process_time``.

Not part of ``make test``: it is a measurement, like ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..hints import hint
from ..klondike_like import KlondikeLike
from ..moves import IllegalMove, Move
from ..racer import LEVELS, Decision, Level, RacerMemory, decide, moved_cards, think_seconds
from ..registry import new_game, rules_for
from .winnability import wilson

HINT = "hint"
MAX_MOVES = 2500
DEFAULT_PAIRS = ("sharp:steady", "steady:easy", "sharp:easy", "sharp:hint", "steady:hint", "easy:hint")


@dataclass
class Side:
    """One side of a simulated race: who plays, its memory, and its pending move."""

    who: str
    seat: int
    level: Level  # how it plays
    pace: Level  # how fast: its own level's, or Steady's for both with --pace equal
    rng: random.Random
    memory: RacerMemory | None = None
    pending: Decision | None = None
    due: float = 0.0
    waiting: bool = False
    cpu: list[float] = field(default_factory=list)
    refused: int = 0
    moves: int = 0

    def look(self, view: Mapping[str, Any], now: float) -> None:
        """Look at the table and decide what to do next."""
        self.memory = RacerMemory.start(view, self.seat) if self.memory is None else self.memory.after(view)
        started = time.process_time()
        decision = self._hint(view) if self.who == HINT else decide(view, self.memory, self.level, self.rng)
        self.cpu.append(time.process_time() - started)
        if decision is not None and self.pace is not self.level:
            rules = rules_for("double", **view.get("options", {}))
            assert isinstance(rules, KlondikeLike) and self.memory is not None
            seconds = think_seconds(self.pace, self.memory, decision.move, self.rng, rules, self.seat)
            decision = Decision(decision.move, decision.cards, seconds)
        self.pending = decision
        self.waiting = decision is None
        if decision is not None:
            self.due = now + decision.think_seconds

    def _hint(self, view: Mapping[str, Any]) -> Decision | None:
        assert self.memory is not None
        suggested = hint(dict(view))
        if suggested is None:
            return None
        move = Move.from_dict(suggested)
        cycling = move.source.endswith(("stock", "waste")) and move.target.endswith(("waste", "stock"))
        if cycling and self.memory.idle_cycles >= 2:
            return None
        rules = rules_for("double", **view.get("options", {}))
        assert isinstance(rules, KlondikeLike)
        seconds = think_seconds(self.pace, self.memory, move, self.rng, rules, self.seat)
        return Decision(move, moved_cards(view, move), seconds)


def _level_for(who: str) -> Level:
    """The level whose policy a side plays (the hint bot plays at Steady's pace)."""
    return LEVELS["steady"] if who == HINT else LEVELS[who]


def _pace_for(who: str, pace: str) -> Level:
    """The level whose think times a side takes."""
    return LEVELS["steady"] if pace == "equal" else _level_for(who)


def _still_there(view: Mapping[str, Any], decision: Decision) -> bool:
    """Are the cards the side meant to move still on top of its source pile?"""
    if not decision.cards:
        return True
    pile = view["piles"].get(decision.move.source)
    if not isinstance(pile, list) or len(pile) < len(decision.cards):
        return False
    top = [None if c is None else str(c).split(":")[0] for c in pile[-len(decision.cards) :]]
    return top == list(decision.cards)


def play_race(
    seed: int, first: str, second: str, *, pace: str = "level", same_deal: bool = False
) -> dict[str, Any]:
    """One race: ``first`` in seat 1, ``second`` in seat 2. Returns the result and costs."""
    state = new_game("double", seed=seed, same_deal=same_deal)
    sides = {
        1: Side(first, 1, _level_for(first), _pace_for(first, pace), random.Random(seed * 2 + 1)),
        2: Side(second, 2, _level_for(second), _pace_for(second, pace), random.Random(seed * 2 + 2)),
    }
    now = 0.0
    for side in sides.values():
        side.look(state.view(side.seat), now)
    moves = 0
    collisions = 0
    ending = "cap"
    while moves < MAX_MOVES:
        result = state.rules.result(state)  # type: ignore[attr-defined]
        if result is not None:
            ending = result["reason"]
            break
        ready = [s for s in sides.values() if s.pending is not None]
        if not ready:
            ending = "both waiting"
            break
        side = min(ready, key=lambda s: (s.due, s.seat))
        now = side.due
        decision = side.pending
        assert decision is not None
        view = state.view(side.seat)
        try:
            if not _still_there(view, decision):
                raise IllegalMove("stale", "stale")
            state = state.apply(decision.move)
        except IllegalMove as error:
            side.refused += 1
            if error.code == "foundation_taken":
                collisions += 1
            side.look(view, now)
            continue
        moves += 1
        side.moves += 1
        side.look(state.view(side.seat), now)
        other = sides[3 - side.seat]
        if other.waiting:
            other.look(state.view(other.seat), now)
    contributions = state.rules.contributions(state)  # type: ignore[attr-defined]
    one, two = contributions["1"], contributions["2"]
    result = state.rules.result(state)  # type: ignore[attr-defined]
    winner = result["winner"] if result is not None else (1 if one > two else 2 if two > one else None)
    return {
        "seed": seed,
        "seats": {"1": first, "2": second},
        "winner": None if winner is None else sides[winner].who,
        "winner_seat": winner,
        "ending": ending,
        "moves": moves,
        "collisions": collisions,
        "simulated_seconds": round(now, 1),
        "contributions": contributions,
        "cpu": {str(s.seat): s.cpu for s in sides.values()},
        "refused": {str(s.seat): s.refused for s in sides.values()},
    }


def run_pair(a: str, b: str, races: int, first_seed: int, pace: str, quiet: bool) -> dict[str, Any]:
    """``races`` races of a against b on seeds first_seed.., seats alternating."""
    wins = {a: 0, b: 0}
    draws = 0
    cpu: dict[str, list[float]] = {a: [], b: []}
    endings: dict[str, int] = {}
    collisions = 0
    started = time.perf_counter()
    for k in range(races):
        seed = first_seed + k // 2
        first, second = (a, b) if k % 2 == 0 else (b, a)
        race = play_race(seed, first, second, pace=pace)
        if race["winner"] is None:
            draws += 1
        else:
            wins[race["winner"]] += 1
        cpu[first] += race["cpu"]["1"]
        cpu[second] += race["cpu"]["2"]
        endings[race["ending"]] = endings.get(race["ending"], 0) + 1
        collisions += race["collisions"]
        if not quiet:
            print(
                f"[{a} v {b} {k + 1}/{races}] seed {seed}: {race['winner']} ({race['ending']}, "
                f"{race['moves']} moves, {race['contributions']})",
                file=sys.stderr,
                flush=True,
            )
    low, high = wilson(wins[a], races)
    return {
        "a": a,
        "b": b,
        "races": races,
        "wins": wins,
        "draws": draws,
        "a_rate": wins[a] / races,
        "a_low": low,
        "a_high": high,
        "endings": endings,
        "collisions": collisions,
        "cpu_ms": {
            who: {
                "mean": 1000 * statistics.fmean(times) if times else 0.0,
                "p95": 1000 * sorted(times)[int(0.95 * (len(times) - 1))] if times else 0.0,
                "decisions": len(times),
            }
            for who, times in cpu.items()
        },
        "seconds": time.perf_counter() - started,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire.tools.racebench", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--races", type=int, default=200, help="races per pairing (default 200)")
    parser.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    parser.add_argument(
        "--pairs",
        default=",".join(DEFAULT_PAIRS),
        help="comma-separated a:b pairings of easy, steady, sharp and hint",
    )
    parser.add_argument("--pace", choices=("level", "equal"), default="level")
    parser.add_argument("--json", metavar="PATH", help="write the summaries here")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",") if p]
    for pair in pairs:
        if len(pair) != 2 or any(who not in (*LEVELS, HINT) for who in pair):
            parser.error(f"bad pairing {':'.join(pair)!r}")
    summaries = []
    for a, b in pairs:
        summary = run_pair(a, b, args.races, args.first, args.pace, args.quiet)
        summaries.append(summary)
        cpu_a, cpu_b = summary["cpu_ms"][a], summary["cpu_ms"][b]
        print(
            f"{a} v {b} ({args.pace} pace): {a} won {summary['wins'][a]}, {b} won {summary['wins'][b]}, "
            f"drawn {summary['draws']} of {summary['races']}: {a} {100 * summary['a_rate']:.1f}% "
            f"(95% Wilson {100 * summary['a_low']:.1f}% to {100 * summary['a_high']:.1f}%); "
            f"CPU per decision {a} {cpu_a['mean']:.1f} ms (p95 {cpu_a['p95']:.1f}), "
            f"{b} {cpu_b['mean']:.1f} ms (p95 {cpu_b['p95']:.1f}); "
            f"endings {summary['endings']}; collisions {summary['collisions']}; {summary['seconds']:.0f} s",
            flush=True,
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"pace": args.pace, "first": args.first, "summaries": summaries}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
