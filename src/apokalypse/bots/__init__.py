"""Computer players for every game. ``make_bot("heuristic", seed, "apokerlypse")`` builds one.

The random player plays any game the engine knows; the heuristic players are per game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.registry import game_names

from .base import BaseBot, Bot, Observation
from .heuristic import HeuristicBot
from .random_bot import RandomBot

__all__ = [
    "BOTS",
    "GAME_BOTS",
    "BaseBot",
    "Bot",
    "HeuristicBot",
    "Observation",
    "RandomBot",
    "bot_names",
    "bots_for",
    "make_bot",
]

BotFactory = Callable[[int], Bot[Any]]

# Apokalypse's players; kept under its old name (the simulate tests patch it).
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}


def _apokerlypse_heuristic(seed: int) -> Bot[Any]:
    # Imported on first use: it loads the Apokerlypse rules (and builds the poker tables),
    # which an Apokalypse game or simulation never needs.
    from .apokerlypse import HeuristicBot as ApokerlypseHeuristicBot

    return ApokerlypseHeuristicBot(seed)


GAME_BOTS: dict[str, dict[str, BotFactory]] = {
    "apokalypse": BOTS,
    "apokerlypse": {"random": RandomBot, "heuristic": _apokerlypse_heuristic},
}


def bots_for(game: str) -> dict[str, BotFactory]:
    """The players of ``game`` by name; a registered game without its own has the random one."""
    if game not in game_names():
        raise ConfigError(f"unknown game {game!r} (known: {', '.join(game_names())})")
    return GAME_BOTS.get(game, {"random": RandomBot})


def bot_names(game: str = "apokalypse") -> list[str]:
    return sorted(bots_for(game))


def make_bot(name: str, seed: int, game: str = "apokalypse") -> Bot[Any]:
    """A fresh bot for ``game`` (bots may remember things within one game: build one per seat
    per game)."""
    known = bots_for(game)
    factory = known.get(name.strip().lower())
    if factory is None:
        raise ConfigError(f"unknown bot {name!r} for {game} (known: {', '.join(sorted(known))})")
    return factory(seed)
