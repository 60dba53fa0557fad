"""Apokerlypse's own figures in ``apokalypse bench`` (:mod:`.engine`): poker-hand evaluations
per second, the final scoring's inner loop."""

from __future__ import annotations

from apokalypse.engine.rng import Rng
from apokalypse.games.apokerlypse.cards import DECK_SIZE
from apokalypse.games.apokerlypse.poker import evaluate

from .engine import Figure, clock

FIGURES: tuple[Figure, ...] = (("evaluations_per_sec", "poker-hand evaluations/s", True),)


def measure(seconds: float) -> dict[str, object]:
    # the figures come from the plain game (no content file): the JSON says so
    return {"content": "plain", "evaluations_per_sec": round(evaluator_benchmark(seconds), 1)}


def evaluator_benchmark(seconds: float = 1.0, hands: int = 20_000) -> float:
    """Apokerlypse five-card evaluations per second (card ints in, strength out: the path the
    final scoring takes) over seeded random hands."""
    rng = Rng(52)
    deck = list(range(DECK_SIZE))
    pool: list[list[int]] = []
    for _ in range(hands):
        rng.shuffle(deck)
        pool.append(deck[:5])
    done = 0
    start = clock()
    deadline = start + seconds
    while True:
        for hand in pool:
            evaluate(hand)
        done += len(pool)
        if clock() >= deadline:
            break
    return done / (clock() - start)
