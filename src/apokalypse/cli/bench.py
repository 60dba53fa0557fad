"""``apokalypse bench``: how fast the engine plays, for search and simulation budgets.

Two figures per player count (Apokalypse 2, 4, 6; Apokerlypse 2, 3, 4): random-play decisions
per second (legal actions, one uniform choice, apply — the inner loop of any playout) and the
cost of ``state.clone()`` on mid-game states (the price of every search node). Apokerlypse adds
poker-hand evaluations per second (the final scoring's inner loop). The clock is read here and
nowhere in ``games/`` (ARCHITECTURE: the rules have no clocks).
"""

from __future__ import annotations

import json
import platform
import time
from typing import Any

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.protocol import GameState
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng

PLAYER_COUNTS = {"apokalypse": (2, 4, 6), "apokerlypse": (2, 3, 4)}
CLONE_SAMPLES = 40
MAX_SECONDS = 3600  # per player count: an hour is already far more than a figure needs
CHECK_EVERY = 64  # reading the clock is not free; look at it every so many decisions


def decisions_per_sec(
    players: int, seconds: float, game: str = "apokalypse"
) -> tuple[float, int, int]:
    """Random play over seeded games for about ``seconds``: (rate, decisions, games started)."""
    rules = get_game(game)
    config = rules.config_from_options(players, [], None)
    rng = Rng(players)
    decisions = 0
    games = 0
    state = rules.new_game(config, games)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if state.is_over:
            games += 1
            state = rules.new_game(config, games)
        state.apply(rng.choice(list(state.legal_actions())))
        decisions += 1
        if decisions % CHECK_EVERY == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return decisions / elapsed, decisions, games + 1


def mid_game_states(players: int, count: int, game: str = "apokalypse") -> list[GameState]:
    """States from the middle half of seeded random games (early states are nearly empty)."""
    rules = get_game(game)
    config = rules.config_from_options(players, [], None)
    rng = Rng(1000 + players)
    states: list[GameState] = []
    seed = 0
    while len(states) < count:
        state = rules.new_game(config, 1000 + seed)
        seed += 1
        history: list[GameState] = []
        while not state.is_over:
            history.append(state.clone())
            state.apply(rng.choice(list(state.legal_actions())))
        middle = history[len(history) // 4 : 3 * len(history) // 4]
        step = max(1, len(middle) // 10)
        states += middle[::step][: count - len(states)]
    return states


def clone_us(players: int, seconds: float, game: str = "apokalypse") -> float:
    """Average µs per ``clone()`` over mid-game states, repeated for about ``seconds``."""
    states = mid_game_states(players, CLONE_SAMPLES, game)
    clones = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for state in states:
            state.clone()
        clones += len(states)
        if time.perf_counter() >= deadline:
            break
    return (time.perf_counter() - start) / clones * 1e6


def evaluator_benchmark(seconds: float = 1.0, hands: int = 20_000) -> float:
    """Apokerlypse five-card evaluations per second (card ints in, strength out: the path the
    final scoring takes) over seeded random hands."""
    from apokalypse.games.apokerlypse.cards import DECK_SIZE
    from apokalypse.games.apokerlypse.poker import evaluate

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


def measure(seconds: float, game: str = "apokalypse") -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for players in PLAYER_COUNTS.get(game, get_game(game).players):
        rate, decisions, games = decisions_per_sec(players, seconds, game)
        figures[str(players)] = {
            "decisions_per_sec": round(rate, 1),
            "clone_us": round(clone_us(players, max(0.05, seconds / 4), game), 2),
            "decisions": decisions,
            "games": games,
        }
    data: dict[str, Any] = {"players": figures}
    if game == "apokerlypse":
        data = {"game": game, "content": "plain", **data}
        data["evaluations_per_sec"] = round(evaluator_benchmark(seconds), 1)
    return {
        **data,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "seconds": seconds,
    }


def run_bench(game: str, json_out: bool, seconds: float) -> None:
    rules = get_game(game)  # an unknown game fails here, in one line
    if not 0 < seconds <= MAX_SECONDS:  # also refuses nan and inf, which would never end
        raise ConfigError(f"--seconds must be more than 0 and at most {MAX_SECONDS}, not {seconds}")
    data = measure(seconds, rules.name)
    if json_out:
        print(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    title = f"{rules.name.capitalize()} engine, {data['implementation']} {data['python']}"
    table = Table(title=title)
    for col in ("players", "decisions/s (random play)", "clone (µs)", "games"):
        table.add_column(col, justify="right")
    for players, f in data["players"].items():
        table.add_row(
            players, f"{f['decisions_per_sec']:,.0f}", f"{f['clone_us']:.1f}", str(f["games"])
        )
    console = Console()
    console.print(table)
    if "evaluations_per_sec" in data:
        console.print(f"poker-hand evaluations: {data['evaluations_per_sec']:,.0f}/s")
