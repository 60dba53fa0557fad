"""The baseline: a uniform choice over the legal actions, from the bot's own seeded stream.

It never looks at the observation, so it plays any game the engine knows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from apokalypse.engine.rng import Rng

from .base import BaseBot

A = TypeVar("A")


class RandomBot(BaseBot):
    name = "random"
    blind = True

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, observation: object, legal: Sequence[A]) -> A:
        return self.rng.choice(list(legal))
