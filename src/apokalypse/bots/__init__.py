"""Computer players for every game. ``make_bot("heuristic", seed, "apokerlypse")`` builds one.

The random player (:mod:`.random_bot`) plays any game the engine knows; a game's own players live
in its folder here, ``bots/<game>/``, whose ``BOTS`` names them. A game without a folder has the
random player only.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.match import Player
from apokalypse.engine.registry import game_names
from apokalypse.engine.rng import Rng

from .base import BaseBot, PlayerFactory
from .random_bot import RandomBot

__all__ = [
    "BaseBot",
    "Player",
    "PlayerFactory",
    "RandomBot",
    "bot_names",
    "bots_for",
    "make_bot",
    "seat_seed",
]


def bots_for(game: str) -> dict[str, PlayerFactory]:
    """The players of ``game`` by name: the random player and the game's own."""
    if game not in game_names():
        raise ConfigError(f"unknown game {game!r} (known: {', '.join(game_names())})")
    try:
        own: dict[str, PlayerFactory] = import_module(f"{__name__}.{game}").BOTS
    except ModuleNotFoundError:
        own = {}
    return {"random": RandomBot, **own}


def seat_seed(game_seed: int, seat: int) -> int:
    """A computer player's own random stream, derived from the game's seed and its seat: a game
    played again from its seed (a simulation rerun, a server rebuilding a game after a restart)
    seats exactly the same players."""
    return Rng(game_seed * 8 + seat).next64()


def bot_names(game: str) -> list[str]:
    return sorted(bots_for(game))


def make_bot(name: str, seed: int, game: str) -> Player[Any, Any]:
    """A fresh player for ``game`` (players may remember things within one game: build one per
    seat per game)."""
    known = bots_for(game)
    factory = known.get(name.strip().lower())
    if factory is None:
        raise ConfigError(f"unknown bot {name!r} for {game} (known: {', '.join(sorted(known))})")
    return factory(seed)
