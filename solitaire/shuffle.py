"""The deterministic shuffle every deal is made with.

Deals must be the same on every machine and in every future version, so they do not
use Python's ``random``: a SplitMix64 generator feeds a Fisher-Yates shuffle with
rejection sampling (no modulo bias). ``docs/rules.md`` writes the method down.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class SplitMix64:
    """Sebastiano Vigna's SplitMix64: tiny, fast, and well specified."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``range(bound)``."""
        limit = _MASK + 1 - ((_MASK + 1) % bound)
        while True:
            value = self.next64()
            if value < limit:
                return value % bound


def shuffled(items: list[T], seed: int) -> list[T]:
    """A new list: ``items`` shuffled by Fisher-Yates, swapping from the last place down."""
    result = list(items)
    rng = SplitMix64(seed)
    for i in range(len(result) - 1, 0, -1):
        j = rng.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def sub_seed(seed: int, stream: int) -> int:
    """An independent seed for a second shuffle of the same deal (Double's second seat)."""
    return SplitMix64(seed ^ (stream * 0xD1B54A32D192ED03)).next64()
