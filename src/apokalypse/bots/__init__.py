"""Computer players. ``make_bot("heuristic", seed)`` builds one by name."""

from __future__ import annotations

from collections.abc import Callable

from apokalypse.engine.errors import ConfigError

from .base import BaseBot, Bot, Observation
from .heuristic import HeuristicBot
from .random_bot import RandomBot

__all__ = ["BOTS", "BaseBot", "Bot", "HeuristicBot", "Observation", "RandomBot", "make_bot"]

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}


def make_bot(name: str, seed: int) -> Bot:
    """A fresh bot (bots may remember things within one game: build one per seat per game)."""
    factory = BOTS.get(name.strip().lower())
    if factory is None:
        raise ConfigError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")
    return factory(seed)
