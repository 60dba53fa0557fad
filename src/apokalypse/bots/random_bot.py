"""The baseline: a uniform choice over the legal actions, from the bot's own seeded stream."""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import Action

from .base import BaseBot, Observation


class RandomBot(BaseBot):
    name = "random"
    blind = True

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))
