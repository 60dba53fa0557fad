"""Games by name. Games register lazily so that importing the engine stays cheap."""

from __future__ import annotations

from importlib import import_module

from .errors import ConfigError
from .protocol import Game

_MODULES = {
    "apokalypse": "apokalypse.games.apokalypse",
    "apokerlypse": "apokalypse.games.apokerlypse",
}


def game_names() -> list[str]:
    return sorted(_MODULES)


def get_game(name: str) -> Game:
    if name not in _MODULES:
        raise ConfigError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    game: Game = import_module(_MODULES[name]).GAME
    return game
