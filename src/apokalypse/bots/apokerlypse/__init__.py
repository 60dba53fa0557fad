"""Apokerlypse's own computer players, by name (the random player is shared by every game)."""

from __future__ import annotations

from typing import Any

from apokalypse.engine.match import Player

from ..base import PlayerFactory


def _heuristic(seed: int) -> Player[Any, Any]:
    # Imported on first use: listing the players' names (``--help``) must not load the rules.
    from .heuristic import HeuristicBot

    return HeuristicBot(seed)


# The searching player (``bots/ismcts.py``) with its default budget: 300 iterations per decision
# (about 0.1–0.3 s on the 2-core development machine), a fixed number rather than seconds so that
# a game played again from its seed (a simulation, a server rebuilding a game) makes the same
# choices. No random rollouts (depth 0): random players drop out of a third of the rounds, so
# random rollouts make staying in look cheap (against the heuristic: 1.7 chips a game with
# rollouts of 10 decisions, 8.1 without); the evaluation scores the hands instead.
ISMCTS_ITERATIONS = 300
ISMCTS_ROLLOUT_DEPTH = 0


def _ismcts(seed: int) -> Player[Any, Any]:
    from ..ismcts import ISMCTSPlayer
    from .evaluate import evaluate

    return ISMCTSPlayer(
        seed,
        iterations=ISMCTS_ITERATIONS,
        rollout_depth=ISMCTS_ROLLOUT_DEPTH,
        evaluate=evaluate,
        fallback=_heuristic,  # answers when asked without a sampler (a game being caught up)
    )


BOTS: dict[str, PlayerFactory] = {"heuristic": _heuristic, "ismcts": _ismcts}
