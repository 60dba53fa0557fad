"""``apokalypse bench-lab``: the lab's speed (:mod:`apokalypse.sim.bench`), printed as a table."""

from __future__ import annotations

import json
import platform

from rich.console import Console
from rich.table import Table

from apokalypse import build_info
from apokalypse.engine.errors import ConfigError
from apokalypse.sim.bench import LINEUPS, run_lab_bench

from .simulate import check_jobs


def run_bench_lab(
    jobs: int, scale: float, use_ray: bool, lineups: list[str] | None, json_out: bool
) -> None:
    check_jobs(jobs)
    if not 0 < scale <= 100:  # also refuses nan
        raise ConfigError(f"--scale must be more than 0 and at most 100, not {scale}")
    names = [lineup.name for lineup in LINEUPS]
    wanted = lineups or names
    unknown = [n for n in wanted if n.lower() not in {m.lower() for m in names}]
    if unknown:
        raise ConfigError(f"--lineup {unknown[0]!r}: choose from {', '.join(names)}")
    data = run_lab_bench(jobs, scale, use_ray, wanted)
    data["python"] = platform.python_version()
    data["build"] = build_info()["build"]
    if json_out:
        print(json.dumps(data, indent=2))
        return
    console = Console()
    for row in data["lineups"]:
        title = f"{row['lineup']} players ({', '.join(row['bots'])}), {row['games']} games"
        table = Table(title=title, min_width=len(title) + 4)
        table.add_column("how")
        table.add_column("games per hour", justify="right")
        table.add_column("seconds", justify="right")
        for how, rate in row["games_per_hour"].items():
            table.add_row(how, f"{rate:,}", f"{row['seconds'][how]:.2f}")
        notes = [
            f"collector cost {row['collector_cost']:+.1%}",
            f"{jobs} processes: {row['per_worker']:.0%} of one process per worker",
        ]
        if "ray_per_worker" in row:
            notes.append(
                f"Ray: {row['ray_per_worker']:.0%} per worker,"
                f" {row['ray_vs_processes']:.0%} of local processes' rate"
            )
        table.caption = "; ".join(notes)
        console.print(table)
    if "ray_start_seconds" in data:
        console.print(f"Ray started in {data['ray_start_seconds']:.1f} s (not counted above)")
    console.print(f"build: {data['build']}, Python {data['python']}")
