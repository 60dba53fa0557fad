"""Apokalypse's own computer players, by name (the random player is shared by every game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apokalypse.engine.match import Player

if TYPE_CHECKING:  # the rules are imported on first use (below)
    from apokalypse.games.apokalypse import Action, Observation

from ..base import PlayerFactory


def _heuristic(seed: int) -> Player[Action, Observation]:
    # Imported on first use: listing the players' names (``--help``) must not load the rules.
    from .heuristic import HeuristicBot

    return HeuristicBot(seed)


# The searching player (``bots/ismcts.py``) with its default budget: 300 iterations per decision
# (about 0.1–0.3 s on the 2-core development machine), a fixed number rather than seconds so that
# a game played again from its seed (a simulation, a server rebuilding a game) makes the same
# choices. No random rollouts (depth 0): the evaluation scores the position the tree reaches,
# every player's move in the tree chosen for that player's own value; against random rollouts
# of 10 decisions (24 games each against the heuristic) no difference showed, at twice the speed.
# The registered player has ethos beliefs (``beliefs.py``); ``ismcts(seed, beliefs=False)`` is
# the player without them. Against three heuristic players (40 seeded 4-player games, its seat
# turning, the same seeds for both) they won as often (19 of 40 each) and scored a little more
# (mean total −1.9 against −2.75, paired difference +0.85 ± 4.4 at 95 %): no difference this
# few games can show.
ISMCTS_ITERATIONS = 300
ISMCTS_ROLLOUT_DEPTH = 0
# Anchored to the heuristic: the search's choice replaces the heuristic's only where its mean
# value (a chance of winning, 0 … 1) is higher by more than this. The search's opponents see
# every sampled hand, so alone it misjudges how people and rules of thumb play; anchored, it
# adds what it sees clearly. Measured (4 players, 200 games on 100 duplicate deals, seed
# 300000, `hard` against `medium`): +21.0 points of win rate (95 % CI +15.2 … +26.8) anchored,
# +4.7 (−2.0 … +11.4, the first 80 of those deals) without the anchor (docs/players.md, the ladder).
ANCHOR_MARGIN = 0.05


def ismcts(
    seed: int,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    beliefs: bool = True,
    learned: bool = False,
    anchored: bool = True,
) -> Player[Action, Observation]:
    """The searching player: ``iterations`` or ``seconds`` per decision (neither: the default
    :data:`ISMCTS_ITERATIONS`); with ``beliefs`` its worlds draw the others' ethos from what they
    did and it avoids showing its own early (``beliefs.py``), without them uniformly from the
    ethos cards left. ``learned``: positions are scored by the learned evaluation
    (``bots/learned.py``, the ``master`` level's weights; a missing or broken file is a one-line
    error) instead of the hand-made one. ``anchored``: the heuristic's choice stands unless the
    search finds one better by :data:`ANCHOR_MARGIN`."""
    from ..ismcts import Evaluation, ISMCTSPlayer
    from .beliefs import BeliefSearch
    from .evaluate import evaluate

    scoring: Evaluation = evaluate
    if learned:
        from apokalypse.games.apokalypse import GAME

        from ..learned import Learned, weights_for

        scoring = Learned(GAME, weights_for(GAME.name))
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
        anchor_margin=ANCHOR_MARGIN if anchored else None,
        beliefs=BeliefSearch() if beliefs else None,
    )


def _ismcts(seed: int) -> Player[Action, Observation]:
    return ismcts(seed)


BOTS: dict[str, PlayerFactory] = {"heuristic": _heuristic, "ismcts": _ismcts}
