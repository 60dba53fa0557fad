"""What Apokerlypse adds to a seat's features for the learned evaluation (``bots/learned.py``):
the hand-made evaluation's value for the seat (:mod:`.evaluate`, its share of the chips in play
and of the pot), which the network corrects rather than relearns. Apokerlypse has no hidden role:
nothing else is added."""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.engine.protocol import GameConfig, GameState

from .evaluate import evaluate


def extra_names(config: GameConfig) -> list[str]:
    return ["evaluation"]


def extra(world: GameState, seat: int, base: Sequence[float]) -> list[float]:
    return [base[seat]]


def base(world: GameState) -> Sequence[float]:
    return evaluate(world)
