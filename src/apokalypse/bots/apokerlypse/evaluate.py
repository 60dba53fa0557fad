"""How good a position is for each player, for a search that stops its rollouts early: chips.

The most chips win (K-END-1), and chips are what a game is measured by, so a position is worth
its chips, as a share of the chips in play (stacks and pot; the bank's are nobody's): a
player's stack plus their chance at the pot. Who takes the pot is decided in the final scoring
(K-SCORE-1/2/3); as things stand that is the best score of the players still in the round, by
the scoring's own :func:`~apokalypse.games.apokerlypse.scoring.score_line` on the sampled
world's hands (which the sampler drew), softened by :data:`SCORE_SPREAD` since cards are still
to be drawn, discarded and used. A finished game scores its final chips the same way, so that
rollouts that end and rollouts that are cut off share one scale.
"""

from __future__ import annotations

import math

from apokalypse.engine.protocol import GameState
from apokalypse.games.apokerlypse import State
from apokalypse.games.apokerlypse.scoring import score_line

SCORE_SPREAD = 8.0  # points of final score: about one poker category at the low end


def evaluate(world: GameState) -> list[float]:
    """The value of ``world`` for every seat, 0 … 1: the share of the chips in play that it
    holds or may take from the pot."""
    assert isinstance(world, State)  # the Apokerlypse evaluation reads an Apokerlypse world
    obs = world.observation(None)
    result = obs.get("result")
    if result is not None:
        final: list[int] = result["chips"]
        return [c / (sum(final) or 1) for c in final]
    chips: list[int] = obs["chips"]
    pot: int = obs["pot"]
    shares = _pot_shares(world, obs["in_round"])
    whole = (sum(chips) + pot) or 1
    return [(c + pot * shares[q]) / whole for q, c in enumerate(chips)]


def _pot_shares(world: State, in_round: list[bool]) -> list[float]:
    """Each seat's chance at the pot: a softmax of the scores of those still in the round."""
    contenders = [q for q, playing in enumerate(in_round) if playing]
    if not contenders:
        return [0.0] * len(in_round)
    scores = {q: score_line(world, q).total for q in contenders}
    top = max(scores.values())
    weights = {q: math.exp((s - top) / SCORE_SPREAD) for q, s in scores.items()}
    whole = sum(weights.values())
    return [weights.get(q, 0.0) / whole for q in range(len(in_round))]
