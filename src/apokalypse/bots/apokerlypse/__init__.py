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
# Where the search may overrule the heuristic, and by how much higher a value (a share of the
# 48 chips: 0.02 is about one chip). Only in the final scoring, where every hand in the round is
# face up and the search sees what is: before it, the sampled worlds give the others uniformly
# drawn hands (not the best of what they saw) and the tree lets them see every hand, so the
# search pays too often and drops too late (alone, it lost 1.9 chips a game to the heuristic),
# and its discards are within noise of each other. There the heuristic's odds decide.
SEARCHED: dict[str, float] = {"scoring": 0.0}  # by the round's step
ANCHORED = 1.0  # any other step: the heuristic's choice stands


def anchor_margin(observation: Observation) -> float:
    """How much better than the heuristic's choice the search's must look to be played."""
    return SEARCHED.get(observation["step"], ANCHORED)


def ismcts(
    seed: int,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    beliefs: bool = False,
    learned: bool = False,
) -> Player[Action, Observation]:
    """The searching player: ``iterations`` or ``seconds`` per decision (neither: the default
    :data:`ISMCTS_ITERATIONS`), anchored to the heuristic (:func:`anchor_margin`: it decides in
    the final scoring, the heuristic before). Apokerlypse has no ethos to believe in:
    ``beliefs`` is accepted for the same signature as Apokalypse's factory and must stay
    False. ``learned``: positions are scored by the learned evaluation (``bots/learned.py``,
    the ``master`` level's weights; a missing or broken file is a one-line error)."""
    from apokalypse.engine.errors import ConfigError

    from ..ismcts import Evaluation, ISMCTSPlayer
    from .evaluate import evaluate

    scoring: Evaluation = evaluate
    if learned:
        from apokalypse.games.apokerlypse import GAME

        from ..learned import Learned, weights_for

        scoring = Learned(GAME, weights_for(GAME.name))

    if beliefs:
        raise ConfigError("Apokerlypse has no ethos: its searching player has no beliefs")
    if iterations is None and seconds is None:
        iterations = ISMCTS_ITERATIONS
    return ISMCTSPlayer(
        seed,
        iterations=iterations,
        seconds=seconds,
        rollout_depth=ISMCTS_ROLLOUT_DEPTH,
        evaluate=scoring,
        # answers when asked without a sampler (a game being caught up), and is the anchor
        fallback=_heuristic,
        anchor_margin=anchor_margin,
    )


def _ismcts(seed: int) -> Player[Action, Observation]:
    return ismcts(seed)


BOTS: dict[str, PlayerFactory] = {"heuristic": _heuristic, "ismcts": _ismcts}
