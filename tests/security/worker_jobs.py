"""Jobs for the worker pool's tests: module-level, so a worker process can load them."""

from __future__ import annotations

import os
import time
from pathlib import Path


def add(a: int, b: int) -> int:
    return a + b


def pid() -> int:
    return os.getpid()


def fail(message: str) -> None:
    raise ValueError(message)


def spin() -> None:
    """Burn CPU for good: only the CPU limit stops it."""
    n = 0
    while True:
        n += 1


def swallow_and_spin() -> str:
    """Burn CPU inside an ``except Exception`` that would swallow an ordinary error."""
    while True:
        try:
            spin()
        except Exception:
            return "swallowed"


def die() -> None:
    os._exit(3)


def wait_for(path: str, then: str = "done") -> str:
    """Wait (sleeping, no CPU) until ``path`` exists; the test's own coroutine or thread
    creates it, which proves the caller was free while the job ran."""
    while not Path(path).exists():
        time.sleep(0.01)
    return then


def unpicklable_result() -> object:
    return lambda: None
