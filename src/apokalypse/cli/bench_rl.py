"""``apokalypse bench-rl``: the learning interfaces' speed (:mod:`apokalypse.rl.bench`)."""

from __future__ import annotations

import json
import platform

from rich.console import Console
from rich.table import Table

from apokalypse import build_info
from apokalypse.engine.errors import ConfigError
from apokalypse.rl.bench import run_rl_bench

TARGET = 0.30  # the PettingZoo wrapper's overhead the project aims at


def run_bench_rl(games: int, rounds: int, with_openspiel: bool, json_out: bool) -> None:
    if not 1 <= games <= 100_000:
        raise ConfigError(f"--games must be 1–100,000, not {games}")
    if not 1 <= rounds <= 100:
        raise ConfigError(f"--rounds must be 1–100, not {rounds}")
    data = run_rl_bench(games, rounds, with_openspiel)
    data["python"] = platform.python_version()
    data["build"] = build_info()["build"]
    if json_out:
        print(json.dumps(data, indent=2))
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
