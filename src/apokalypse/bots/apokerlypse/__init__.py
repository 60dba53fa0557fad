"""Apokerlypse's own computer players, by name (the random player is shared by every game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apokalypse.engine.match import Player

if TYPE_CHECKING:  # the rules are imported on first use (below)
    from apokalypse.games.apokerlypse import Action, Observation

from ..base import PlayerFactory


def _heuristic(seed: int) -> Player[Action, Observation]:
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


def ismcts(
    seed: int,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    beliefs: bool = False,
) -> Player[Action, Observation]:
    """The searching player: ``iterations`` or ``seconds`` per decision (neither: the default
    :data:`ISMCTS_ITERATIONS`). Apokerlypse has no ethos to believe in: ``beliefs`` is accepted
    for the same signature as Apokalypse's factory and must stay False."""
    from apokalypse.engine.errors import ConfigError

    from ..ismcts import ISMCTSPlayer
    from .evaluate import evaluate

    if beliefs:
        raise ConfigError("Apokerlypse has no ethos: its searching player has no beliefs")
    if iterations is None and seconds is None:
        iterations = ISMCTS_ITERATIONS
    return ISMCTSPlayer(
        seed,
        iterations=iterations,
        seconds=seconds,
        rollout_depth=ISMCTS_ROLLOUT_DEPTH,
        evaluate=evaluate,
        fallback=_heuristic,  # answers when asked without a sampler (a game being caught up)
    )


def _ismcts(seed: int) -> Player[Action, Observation]:
    return ismcts(seed)


BOTS: dict[str, PlayerFactory] = {"heuristic": _heuristic, "ismcts": _ismcts}
