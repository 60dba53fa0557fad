"""Computer players for every game. ``make_bot("heuristic", seed, "apokerlypse")`` builds one.

The random player (:mod:`.random_bot`) plays any game the engine knows; a game's own players live
in its folder here, ``bots/<game>/``, and its registry entry names their mapping (``bots``: name →
factory). A game whose entry names none has the random player only. A game with a heuristic also
has the difficulty levels easy, medium, hard and expert (:mod:`.levels`); a searching player
takes an explicit budget after a colon,
``ismcts:500`` (iterations per decision) or ``ismcts:0.1s`` (seconds per decision).
"""

from __future__ import annotations

from typing import cast

from apokalypse.engine.match import Player
from apokalypse.engine.registry import part
from apokalypse.engine.rng import Rng

from .base import BaseBot, PlayerFactory
from .levels import budgeted, level_factories, parse_spec
from .random_bot import RandomBot

__all__ = [
    "BaseBot",
    "Player",
    "PlayerFactory",
    "RandomBot",
    "bot_names",
    "bots_for",
    "check_bot",
    "make_bot",
    "seat_seed",
]


def bots_for(game: str) -> dict[str, PlayerFactory]:
    """The players of ``game`` by name: the random player and the game's own (an unknown game
    is a :class:`ConfigError` naming the known ones)."""
    found = part(game, "bots")
    if found is None:
        own: dict[str, PlayerFactory] = {}
    elif isinstance(found, dict) and all(callable(make) for make in found.values()):
        own = cast(dict[str, PlayerFactory], found)
    else:
        raise TypeError(f"{game}'s players are not a mapping of names to factories: {found!r}")
    return {"random": RandomBot, **own, **level_factories(game, own)}


def seat_seed(game_seed: int, seat: int) -> int:
    """A computer player's own random stream, derived from the game's seed and its seat: a game
    played again from its seed (a simulation rerun, a server rebuilding a game after a restart)
    seats exactly the same players."""
    return Rng(game_seed * 8 + seat).next64()


def bot_names(game: str) -> list[str]:
    return sorted(bots_for(game))


def check_bot(name: str, game: str) -> str:
    """A player spec (``heuristic``, ``expert``, ``ismcts:0.1s``) checked for ``game`` and
    written the one way (lower case, no spaces); a one-line :class:`ConfigError` naming what is
    wrong otherwise."""
    return str(parse_spec(name, list(bots_for(game)), game))


def make_bot(name: str, seed: int, game: str) -> Player:
    """A fresh player for ``game`` (players may remember things within one game: build one per
    seat per game). ``name`` may carry a budget: ``ismcts:500``, ``expert:0.5s``."""
    known = bots_for(game)
    spec = parse_spec(name, list(known), game)
    if spec.budget is not None:
        return budgeted(game, spec, seed)
    return known[spec.name](seed)
