"""The one kind of per-process cache: values tagged with the version they belong to.

Replaying a game's log on every move would cost a replay per move, so each process
keeps the latest replayed position of recent games and races. It is only ever an
optimisation: a value is returned only for the exact version asked for (the database's
version, read under the row lock or by the caller), and stored only after its
transaction committed, so it always matches the log.

Every cache made here is registered, so tests can empty them all at once
(``clear_all``). Knows nothing of games.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_all: list[VersionedCache[object, object]] = []


class VersionedCache(Generic[K, V]):
    """Up to ``size`` values by key, each tagged with its version; least recently used go first."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._values: OrderedDict[K, tuple[int, V]] = OrderedDict()
        self._lock = threading.Lock()
        _all.append(self)  # type: ignore[arg-type]

    def get(self, key: K, version: int) -> V | None:
        """The value stored for ``key`` at exactly ``version``, or None."""
        with self._lock:
            hit = self._values.get(key)
            if hit is None or hit[0] != version:
                return None
            self._values.move_to_end(key)
            return hit[1]

    def latest(self, key: K) -> tuple[int, V] | None:
        """The newest ``(version, value)`` stored for ``key``, whatever its version.

        For a reader that checks the version itself (the fast move path compares it
        with the database in its guarded write)."""
        with self._lock:
            return self._values.get(key)

    def put(self, key: K, version: int, value: V) -> None:
        """Keep ``value`` as ``key`` at ``version``, unless a newer version is already kept."""
        with self._lock:
            held = self._values.get(key)
            if held is not None and held[0] > version:
                return
            self._values[key] = (version, value)
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def discard(self, key: K) -> None:
        with self._lock:
            self._values.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


def clear_all() -> None:
    """Empty every versioned cache of this process (tests, between databases)."""
    for cache in _all:
        cache.clear()
