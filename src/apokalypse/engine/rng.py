"""The engine's own seeded generator.

A game's chance must be reproducible bit for bit on every machine and every Python version, and a
clone must cost next to nothing. ``random.Random`` keeps 2.5 KB of state and its algorithms are an
implementation detail, so the engine carries a 64-bit SplitMix generator whose state is one int.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import MutableSequence, Sequence
from hashlib import shake_128
from typing import TypeVar

from .errors import ConfigError

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment and its two mixing multipliers
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
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
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in [0, n), without modulo bias (rejection of the short tail)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _SPAN - _SPAN % n
        while True:
            # next64, written out: this is the engine's most frequent call
            self.state = s = (self.state + _GAMMA) & _MASK
            z = ((s ^ (s >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place: ``j = below(i + 1)`` for i from the top down, written out."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                state = (state + _GAMMA) & _MASK
                z = ((state ^ (state >> 30)) * _MIX1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def sort_keys(self, count: int) -> Sequence[int]:
        """``count`` random 64-bit keys from one draw: sorting ids ``0 … count - 1`` by
        ``keys[id]`` puts them in a uniformly random order, whatever order they came in.

        For sampling (a search's worlds), where a long list is put in random order many times:
        SHAKE-128 makes the keys in one call, where :meth:`shuffle` draws once per item. The
        game's own chance keeps :meth:`shuffle`, whose draws the records replay."""
        keys = array("Q", shake_128(self.next64().to_bytes(8, "little")).digest(8 * count))
        if sys.byteorder == "big":  # the same keys on every machine
            keys.byteswap()
        return keys

    def fork(self) -> Rng:
        """An independent stream derived from this one (advances this one by one step)."""
        return Rng(self.next64())

    def clone(self) -> Rng:
        # Not Rng.__new__(Rng): compiled by mypyc, __new__ runs __init__ and asks for the seed.
        # The state is already masked, so this copies it unchanged.
        return Rng(self.state)
