"""The Apokerlypse computer player (see :mod:`.heuristic`)."""

from .heuristic import HeuristicBot

__all__ = ["HeuristicBot"]
