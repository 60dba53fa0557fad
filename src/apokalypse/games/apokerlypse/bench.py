"""Speed figures for ``apokalypse bench``: poker evaluations and random-play decisions per second.

Not part of the rules: the one module of this game that reads a clock. The rules never import it.
"""

from __future__ import annotations

import time

from apokalypse.engine.rng import Rng

from .cards import DECK_SIZE
from .config import Config
from .poker import evaluate
from .setup import new_game

CHECK_EVERY = 64  # reading the clock is not free; look at it every so many decisions


def evaluator_benchmark(seconds: float = 1.0, hands: int = 20_000) -> float:
    """Five-card evaluations per second of :func:`~.poker.evaluate` over seeded random hands
    (card ints in, strength out: the path the final scoring takes)."""
    rng = Rng(52)
    deck = list(range(DECK_SIZE))
    pool: list[list[int]] = []
    for _ in range(hands):
        rng.shuffle(deck)
        pool.append(deck[:5])
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for hand in pool:
            evaluate(hand)
        done += len(pool)
        if time.perf_counter() >= deadline:
            break
    return done / (time.perf_counter() - start)


def decisions_per_sec(players: int, seconds: float, content: str = "plain") -> tuple[float, int]:
    """Random play over seeded games for about ``seconds``: (decisions per second, games)."""
    config = Config(players=players, content=content)
    rng = Rng(players)
    decisions = games = 0
    state = new_game(config, games)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if state.is_over:
            games += 1
            state = new_game(config, games)
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
        if decisions % CHECK_EVERY == 0 and time.perf_counter() >= deadline:
            break
    return decisions / (time.perf_counter() - start), games + 1
