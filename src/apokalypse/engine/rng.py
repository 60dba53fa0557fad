"""The engine's own seeded generator.

A game's chance must be reproducible bit for bit on every machine and every Python version, and a
clone must cost next to nothing. ``random.Random`` keeps 2.5 KB of state and its algorithms are an
implementation detail, so the engine carries a 64-bit SplitMix generator whose state is one int.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from .errors import ConfigError

_MASK = (1 << 64) - 1
SEED_LIMIT = 1 << 64
T = TypeVar("T")


def check_seed(seed: object) -> int:
    """A game seed is a whole number 0 … 2**64 - 1: every one gives a different game."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise ConfigError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed!r}")
    return seed


class Rng:
    """SplitMix64. ``Rng(seed)`` for any int seed; ``clone()`` is a copy of one int."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in [0, n), without modulo bias (rejection of the short tail)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """An independent stream derived from this one (advances this one by one step)."""
        return Rng(self.next64())

    def clone(self) -> Rng:
        r = Rng.__new__(Rng)
        r.state = self.state
        return r
