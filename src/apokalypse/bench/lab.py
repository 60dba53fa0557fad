"""``apokalypse bench-lab``: how fast the lab plays, printed as a table: games per hour for
random, heuristic and searching players, in one process (with and without the collector), in
local worker processes and on Ray, each with the results tables written as ``simulate --out``
writes them.

The figures answer the lab's questions: what the collector costs (one process, with against
without), how the games scale from one worker to ``jobs`` (the rate per worker against one
process's), and what Ray costs against local processes (Ray's start is timed apart: it is paid
once per run). Times are wall-clock seconds: the workers run in parallel.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.table import Table

from apokalypse.bench import printed_as_json
from apokalypse.engine.errors import ConfigError
from apokalypse.sim.runner import (
    Outcome,
    Stop,
    Task,
    chunk_size,
    outcomes,
    run_chunk,
    run_game,
    worker_pool,
)
from apokalypse.sim.tables import Writer, deck_name

clock = time.perf_counter


@dataclass(frozen=True)
class Lineup:
    name: str
    bots: tuple[str, ...]
    games: int  # per measurement, at the default --scale 1


WARM_UP = Lineup("warm-up", ("random",) * 4, 1)
LINEUPS = (
    Lineup("random", ("random",) * 4, 2_000),
    Lineup("heuristic", ("medium",) * 4, 160),
    Lineup("ISMCTS", ("hard", "medium", "medium", "medium"), 4),
)


def _tasks(lineup: Lineup, games: int, collect: bool, run: str = "bench") -> list[Task]:
    return [
        Task(i, 10_000 + i, 4, lineup.bots, (), False, "apokalypse", None, collect, run, "default")
        for i in range(games)
    ]


def _timed(play: Callable[[], Iterable[Outcome]], keep: Writer | None) -> tuple[float, int]:
    """Seconds to play every game (and write its rows, with ``keep``), and the errors."""
    errors = 0
    start = clock()
    for outcome in play():
        errors += outcome.error is not None
        if keep is not None and outcome.rows is not None:
            keep.add(outcome.rows)
    if keep is not None:
        keep.flush()
    return clock() - start, errors


def _writer(folder: Path, lineup: Lineup, label: str) -> Writer:
    manifest = {
        "game": "apokalypse",
        "game_version": "bench",
        "players": [4],
        "lineup": list(lineup.bots),
        "seed": 10_000,
        "variants": [label],  # one folder per measurement
        "deck": deck_name(None),
        "games": lineup.games,
    }
    writer = Writer.open(folder / label, manifest)
    writer.start()
    return writer


def measure(lineup: Lineup, games: int, jobs: int, ray: Any | None, folder: Path) -> dict[str, Any]:
    """The figures of one lineup; ``ray``: the connected Ray module, or None to leave Ray out."""
    plain = _tasks(lineup, games, collect=False)
    collected = _tasks(lineup, games, collect=True)
    chunk = chunk_size(lineup.bots)
    rows: dict[str, Any] = {"lineup": lineup.name, "bots": list(lineup.bots), "games": games}

    def one(tasks: list[Task]) -> Callable[[], Iterator[Outcome]]:
        return lambda: (run_game(t) for t in tasks)

    seconds: dict[str, float] = {}
    errors = 0
    # Workers are started and warmed up (their first game imports the rules) before the clock
    # runs, like Ray's: a start is paid once per run, and the figures are the steady rate.
    pool = worker_pool(jobs)
    list(pool.map(run_chunk, [_tasks(WARM_UP, 1, True)] * (2 * jobs)))
    runs: list[tuple[str, Callable[[], Iterable[Outcome]], Writer | None]] = [
        ("one process", one(plain), None),
        ("one process, collector", one(collected), None),
        ("one process, tables", one(collected), _writer(folder, lineup, "one")),
        (
            f"{jobs} processes, tables",
            lambda: outcomes(iter(collected), jobs, Stop(), chunk, pool),
            _writer(folder, lineup, "jobs"),
        ),
    ]
    if ray is not None:
        from apokalypse.sim.ray_pool import ray_outcomes

        runs.append(
            (
                f"Ray {jobs} CPUs, tables",
                lambda: ray_outcomes(ray, iter(collected), jobs, Stop(), chunk),
                _writer(folder, lineup, "ray"),
            )
        )
    try:
        for label, play, keep in runs:
            seconds[label], failed = _timed(play, keep)
            errors += failed
    finally:
        pool.shutdown()
    rows["seconds"] = {k: round(v, 3) for k, v in seconds.items()}
    rows["games_per_hour"] = {k: round(games / v * 3600) for k, v in seconds.items()}
    rows["errors"] = errors
    single = seconds["one process, tables"]
    rows["collector_cost"] = round(
        seconds["one process, collector"] / seconds["one process"] - 1, 4
    )
    rows["per_worker"] = round(single / seconds[f"{jobs} processes, tables"] / jobs, 4)
    if ray is not None:
        ray_s = seconds[f"Ray {jobs} CPUs, tables"]
        rows["ray_per_worker"] = round(single / ray_s / jobs, 4)
        rows["ray_vs_processes"] = round(seconds[f"{jobs} processes, tables"] / ray_s, 4)
    return rows


def run_lab_bench(jobs: int, scale: float, use_ray: bool, lineups: Iterable[str]) -> dict[str, Any]:
    """Every figure; the lineups by name (random, heuristic, ISMCTS)."""
    wanted = {name.lower() for name in lineups}
    data: dict[str, Any] = {"jobs": jobs, "scale": scale, "lineups": []}
    on_ray: AbstractContextManager[ModuleType | None] = nullcontext()
    if use_ray:
        from apokalypse.sim.ray_pool import connected

        on_ray = connected(None, jobs)
    start = clock()
    with on_ray as ray:
        if ray is not None:
            # Ray starts its worker processes on demand, and their first game imports the rules:
            # part of the start, not of the rate
            warm = ray.remote(num_cpus=1)(run_chunk)
            ray.get([warm.remote(_tasks(WARM_UP, 1, True)) for _ in range(2 * jobs)])
            data["ray_start_seconds"] = round(clock() - start, 2)
        with tempfile.TemporaryDirectory(prefix="apokalypse-bench-") as tmp:
            for lineup in LINEUPS:
                if lineup.name.lower() in wanted:
                    games = max(2 * jobs, round(lineup.games * scale))
                    folder = Path(tmp) / lineup.name
                    data["lineups"].append(measure(lineup, games, jobs, ray, folder))
    return data


def run_bench_lab(
    jobs: int, scale: float, use_ray: bool, lineups: list[str] | None, json_out: bool
) -> None:
    """The figures as a table per lineup, or as JSON; ``jobs`` is checked by the command."""
    if not 0 < scale <= 100:  # also refuses nan
        raise ConfigError(f"--scale must be more than 0 and at most 100, not {scale}")
    names = [lineup.name for lineup in LINEUPS]
    wanted = lineups or names
    unknown = [n for n in wanted if n.lower() not in {m.lower() for m in names}]
    if unknown:
        raise ConfigError(f"--lineup {unknown[0]!r}: choose from {', '.join(names)}")
    data = run_lab_bench(jobs, scale, use_ray, wanted)
    if printed_as_json(data, json_out):
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
