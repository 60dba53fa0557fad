"""``apokalypse bench``: how fast the engine plays, for search and simulation budgets.

Two figures per player count (2, 4, 6): random-play decisions per second (legal actions, one
uniform choice, apply — the inner loop of any playout) and the cost of ``state.clone()`` on
mid-game states (the price of every search node).
"""

from __future__ import annotations

import json
import platform
import time
from typing import Any

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Config, State

PLAYER_COUNTS = (2, 4, 6)
CLONE_SAMPLES = 40
CHECK_EVERY = 64  # reading the clock is not free; look at it every so many decisions


def decisions_per_sec(players: int, seconds: float) -> tuple[float, int, int]:
    """Random play over seeded games for about ``seconds``: (rate, decisions, games started)."""
    config = Config(players=players)
    rng = Rng(players)
    decisions = 0
    games = 0
    state = GAME.new_game(config, games)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if state.is_over:
            games += 1
            state = GAME.new_game(config, games)
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
        if decisions % CHECK_EVERY == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return decisions / elapsed, decisions, games + 1


def mid_game_states(players: int, count: int) -> list[State]:
    """States from the middle half of seeded random games (early states are nearly empty)."""
    config = Config(players=players)
    rng = Rng(1000 + players)
    states: list[State] = []
    seed = 0
    while len(states) < count:
        state = GAME.new_game(config, 1000 + seed)
        seed += 1
        history: list[State] = []
        while not state.is_over:
            history.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        middle = history[len(history) // 4 : 3 * len(history) // 4]
        step = max(1, len(middle) // 10)
        states += middle[::step][: count - len(states)]
    return states


def clone_us(players: int, seconds: float) -> float:
    """Average µs per ``clone()`` over mid-game states, repeated for about ``seconds``."""
    states = mid_game_states(players, CLONE_SAMPLES)
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


def measure(seconds: float) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for players in PLAYER_COUNTS:
        rate, decisions, games = decisions_per_sec(players, seconds)
        figures[str(players)] = {
            "decisions_per_sec": round(rate, 1),
            "clone_us": round(clone_us(players, max(0.05, seconds / 4)), 2),
            "decisions": decisions,
            "games": games,
        }
    return {
        "players": figures,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "seconds": seconds,
    }


def run_bench(json_out: bool, seconds: float) -> None:
    if not seconds > 0:
        raise ConfigError(f"--seconds must be more than 0, not {seconds}")
    data = measure(seconds)
    if json_out:
        print(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Apokalypse engine, {data['implementation']} {data['python']}")
    for col in ("players", "decisions/s (random play)", "clone (µs)", "games"):
        table.add_column(col, justify="right")
    for players, f in data["players"].items():
        table.add_row(
            players, f"{f['decisions_per_sec']:,.0f}", f"{f['clone_us']:.1f}", str(f["games"])
        )
    Console().print(table)
