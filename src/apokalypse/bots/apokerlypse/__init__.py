"""Apokerlypse's own computer players, by name (the random player is shared by every game)."""

from __future__ import annotations

from typing import Any

from apokalypse.engine.match import Player

from ..base import PlayerFactory


def _heuristic(seed: int) -> Player[Any, Any]:
    # Imported on first use: listing the players' names (``--help``) must not load the rules.
    from .heuristic import HeuristicBot

    return HeuristicBot(seed)


BOTS: dict[str, PlayerFactory] = {"heuristic": _heuristic}
