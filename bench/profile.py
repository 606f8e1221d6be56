"""Where a server's CPU goes per move: py-spy samples sorted into parts of the move path.

``python -m bench --profile DIR`` runs ``py-spy record`` on each site server for the
timed window (raw, collapsed stacks: one line per distinct stack with its sample count)
and writes ``DIR/<phase>.txt``. ``breakdown`` sorts each sample into one part by the
first rule its stack matches (leaf first), and scales the shares to the server CPU per
move that /proc measured in the same window, giving microseconds per move.

py-spy samples only threads that are on a CPU (threads sleeping, waiting on a lock or
on the GIL are left out), so shares are shares of CPU. ``python -m bench.profile FILE
MS_PER_MOVE`` prints the table for a saved file. py-spy is a development tool, not a
requirement of the site: without it, ``--profile`` says so and the bench runs on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

# (part, substrings of a frame): a sample belongs to the first part any of its frames
# (searched from the leaf up, rules in this order per frame) matches.
RULES: list[tuple[str, tuple[str, ...]]] = [
    ("is_over", ("is_over", "quick_over", "endings.py", "_stuck", "outcome (solitaire")),
    (
        "SQLite / psycopg own SQL",
        ("sqlite3/base.py", "sqlite3.py", "psycopg/", "store_sqlite.py", "store_pg.py"),
    ),
    ("engine validate and apply", ("(solitaire/",)),
    ("ORM, query building, transactions", ("django/db/",)),
    ("JSON encode and decode", ("json/", "orjson")),
    (
        "thread hops (asgiref, executor, loop wake-ups)",
        (
            "asgiref/",
            "concurrent/futures",
            "threading.py",
            "channels/db.py",
            "_write_to_self",
            "_read_from_self",
        ),
    ),
    ("channel layer", ("channels/layers.py", "channels_redis/")),
    ("WebSocket framing, Daphne, Twisted", ("autobahn/", "twisted/", "daphne/", "txaio/")),
    ("asyncio loop", ("asyncio/",)),
    ("consumer and service code", ("games/", "channels/")),
]
OTHER = "other"
# Leaf frames that wait rather than compute (py-spy in --nonblocking mode may still count
# a thread there as active): the event loop's idle select, a lock queued on. Left out.
WAITS = ("EpollSelector.select", "writing (games/", "Condition.wait", "_worker (concurrent/futures")
WAITING = "waiting (left out)"


def parts_of(text: str) -> Counter[str]:
    """Samples per part, from py-spy's raw (collapsed) output."""
    counts: Counter[str] = Counter()
    for line in text.splitlines():
        stack, _, number = line.rpartition(" ")
        if not stack or not number.isdigit():
            continue
        counts[part_of(stack)] += int(number)
    return counts


def part_of(stack: str) -> str:
    frames = stack.split(";")
    if any(wait in frames[-1] for wait in WAITS):
        return WAITING
    for frame in reversed(frames):
        for part, needles in RULES:
            if any(needle in frame for needle in needles):
                return part
    return OTHER


def breakdown(text: str, ms_per_move: float) -> list[tuple[str, float, float]]:
    """(part, share, µs per move), largest first."""
    counts = parts_of(text)
    counts.pop(WAITING, None)
    total = sum(counts.values())
    if not total:
        return []
    rows = [(part, count / total, count / total * ms_per_move * 1000) for part, count in counts.items()]
    return sorted(rows, key=lambda row: -row[1])


def table(text: str, ms_per_move: float) -> str:
    lines = [f"{'part':<40} {'share':>6} {'µs/move':>8}"]
    for part, share, micros in breakdown(text, ms_per_move):
        lines.append(f"{part:<40} {share:>6.1%} {micros:>8.0f}")
    lines.append(f"{'total (server CPU per move, /proc)':<40} {'':>6} {ms_per_move * 1000:>8.0f}")
    return "\n".join(lines)


class Recorder:
    """``py-spy record`` on one process for ``seconds``, raw output to ``out``."""

    def __init__(self, pid: int, seconds: float, out: Path, rate: int = 200) -> None:
        self.out = out
        self.process: subprocess.Popen[bytes] | None = None
        spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        if not Path(spy).exists():
            print("bench: py-spy is not installed; no profile", file=sys.stderr)
            return
        out.parent.mkdir(parents=True, exist_ok=True)
        # BENCH_PYSPY_IDLE=1: sleeping threads too, by thread, to see where a loop waits.
        extra = ["--idle", "--threads"] if os.environ.get("BENCH_PYSPY_IDLE") else []
        self.process = subprocess.Popen(
            [
                spy,
                "record",
                "--pid",
                str(pid),
                "--duration",
                str(max(1, round(seconds))),
                "--rate",
                str(rate),
                "--format",
                "raw",
                "--nonblocking",
                *extra,
                "-o",
                str(out),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def finish(self) -> str | None:
        if self.process is None:
            return None
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.out.read_text() if self.out.exists() else None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m bench.profile RAW_FILE MS_PER_MOVE", file=sys.stderr)
        return 2
    print(table(Path(args[0]).read_text(), float(args[1])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
