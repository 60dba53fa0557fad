"""``apokalypse bench-rl``: the learning interfaces' speed, printed as a table: decisions per
second of random play through the raw engine, the PettingZoo environment (bare and with
PettingZoo's checking wrappers) and OpenSpiel.

Every loop does what an agent needs at each decision: the acting seat's observation, its legal
actions and the apply. The raw engine hands the observation as the engine's dict and the legal
actions as a list; the environments add the numeric vector, the mask and their own bookkeeping,
which is the overhead measured (``overhead``: time per decision, relative to the raw engine).
The loops take turns, several rounds, and each keeps its best round, so a busy moment of the
machine spoils one round, not the figure.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.table import Table

from apokalypse.bench import printed_as_json
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.registry import entry, game_names, get_game, part
from apokalypse.engine.rng import Rng

TARGET = 0.30  # the PettingZoo wrapper's overhead the project aims at


def setups() -> dict[str, int]:
    """Every game at the seats of its learning defaults (its registry entry)."""
    return {game: entry(game).learning.players for game in game_names()}


def raw_engine(game: str, players: int, seeds: range) -> int:
    engine = get_game(game)
    config = engine.config_from_options(players, [], None)
    rng = Rng(1)
    decisions = 0
    for seed in seeds:
        state = engine.new_game(config, seed)
        while not state.is_over:
            state.observation(state.to_act)
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            decisions += 1
    return decisions


def raw_with_vectors(game: str, players: int, seeds: range) -> int:
    """The raw engine loop plus the observation vector and the mask, as the environments make
    them: the share of the overhead that is the encoding, not PettingZoo's bookkeeping."""
    from apokalypse.engine.codec import Codec

    engine = get_game(game)
    config = engine.config_from_options(players, [], None)
    codec = Codec(engine, config)
    rng = Rng(1)
    decisions = 0
    for seed in seeds:
        state = engine.new_game(config, seed)
        while not state.is_over:
            codec.encode(state.observation(state.to_act))
            legal = state.legal_actions()
            codec.mask(legal)
            state.apply(legal[rng.below(len(legal))])
            decisions += 1
    return decisions


def pettingzoo(game: str, players: int, seeds: range, wrapped: bool) -> int:
    module = part(game, "environment")  # the game's PettingZoo module (apokalypse_v0 …)
    if not isinstance(module, ModuleType):
        raise TypeError(f"{game}'s environment is not a module: {module!r}")
    env = module.env(players=players) if wrapped else module.raw_env(players=players)
    rng = Rng(1)
    decisions = 0
    for seed in seeds:
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.below(len(legal))]))
            decisions += 1
    return decisions


def openspiel(game: str, players: int, seeds: range) -> int:
    import pyspiel

    from apokalypse.rl.openspiel import SHORT_NAMES, register

    register()
    spiel = pyspiel.load_game(SHORT_NAMES[game], {"players": players})
    rng = Rng(1)
    decisions = 0
    for seed in seeds:
        state = spiel.new_initial_state()
        state.apply_action(seed)  # the deal
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
            decisions += 1
    return decisions


def _timed(run: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    decisions = run()
    return decisions, time.perf_counter() - start


def _loops(
    game: str, players: int, seeds: range, with_openspiel: bool
) -> dict[str, Callable[[], int]]:
    loops: dict[str, Callable[[], int]] = {
        "raw engine": lambda: raw_engine(game, players, seeds),
        "raw engine + vectors": lambda: raw_with_vectors(game, players, seeds),
        "PettingZoo raw_env": lambda: pettingzoo(game, players, seeds, False),
        "PettingZoo env": lambda: pettingzoo(game, players, seeds, True),
    }
    if with_openspiel:
        loops["OpenSpiel"] = lambda: openspiel(game, players, seeds)
    return loops


def run_rl_bench(games: int, rounds: int, with_openspiel: bool) -> dict[str, Any]:
    """Decisions per second of ``games`` random games per round and loop, best of ``rounds``."""
    out: list[dict[str, Any]] = []
    for game, players in setups().items():
        loops = _loops(game, players, range(1000, 1000 + games), with_openspiel)
        best: dict[str, float] = {}
        decisions: dict[str, int] = {}
        for _ in range(rounds):
            for name, loop in loops.items():
                count, seconds = _timed(loop)
                decisions[name] = count
                best[name] = max(best.get(name, 0.0), count / seconds)
        raw = best["raw engine"]
        out.append(
            {
                "game": game,
                "players": players,
                "games": games,
                "decisions": decisions,
                "per_second": {name: round(rate) for name, rate in best.items()},
                "overhead": {
                    name: raw / rate - 1 for name, rate in best.items() if name != "raw engine"
                },
            }
        )
    return {"rows": out, "rounds": rounds}


def run_bench_rl(games: int, rounds: int, with_openspiel: bool, json_out: bool) -> None:
    if not 1 <= games <= 100_000:
        raise ConfigError(f"--games must be 1–100,000, not {games}")
    if not 1 <= rounds <= 100:
        raise ConfigError(f"--rounds must be 1–100, not {rounds}")
    data = run_rl_bench(games, rounds, with_openspiel)
    if printed_as_json(data, json_out):
        return
    console = Console()
    for row in data["rows"]:
        title = f"{row['game']}, {row['players']} players, {row['games']} random games"
        table = Table(title=title, min_width=len(title) + 4)
        table.add_column("through")
        table.add_column("decisions per second", justify="right")
        table.add_column("overhead", justify="right")
        for name, rate in row["per_second"].items():
            overhead = row["overhead"].get(name)
            shown = "" if overhead is None else f"{overhead:+.0%}"
            table.add_row(name, f"{rate:,}", shown)
        console.print(table)
    console.print(
        f"overhead: time per decision against the raw engine (target for PettingZoo: at most"
        f" {TARGET:.0%}); best of {data['rounds']} rounds; build: {data['build']},"
        f" Python {data['python']}"
    )
