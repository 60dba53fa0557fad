"""What Apokalypse adds to a seat's features for the learned evaluation (``bots/learned.py``):
the ethos of every other seat as the world has it, nearest to the left first (1 good, 0 evil),
and the hand-made evaluation's value for the seat (:mod:`.evaluate`), which the network corrects
rather than relearns.

The ethos inputs are the one secret the value reads, and it reads them from the *world*: in a
search, a world sampled for the player, whose other ethos were drawn from its beliefs (or
uniformly from the ethos cards left), so the searched values average over what the player
believes; in training, the true deal's, the outcome they led to. The seat's own observation
(its features) never holds another seat's ethos.
"""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.engine.protocol import GameConfig, GameState
from apokalypse.games.apokalypse import State
from apokalypse.games.apokalypse.cards import GOOD

from .evaluate import evaluate


def extra_names(config: GameConfig) -> list[str]:
    others = config.players - 1
    return [f"good_{k}" for k in range(1, others + 1)] + ["evaluation"]


def extra(world: GameState, seat: int, base: Sequence[float]) -> list[float]:
    assert isinstance(world, State)
    n = world.n
    ethos = world.ethos
    return [1.0 if ethos[(seat + k) % n] == GOOD else 0.0 for k in range(1, n)] + [base[seat]]


def base(world: GameState) -> Sequence[float]:
    return evaluate(world)
