"""``apokalypse simulate``: many seeded games between computer players, summarised.

Game ``i`` uses seed ``seed + i`` and the ``i``-th player count of the cycle (``2-6`` gives
2, 3, 4, 5, 6, 2, …); seat ``q`` gets the ``q``-th bot of the list, cycling. So a run is fully
determined by its arguments, whatever the number of worker processes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apokalypse.bots import BOTS, make_bot
from apokalypse.bots.runner import Playout, play_out
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.record import GameRecord
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Config
from apokalypse.games.apokalypse.config import MAX_PLAYERS, MIN_PLAYERS


@dataclass(frozen=True)
class Task:
    index: int
    seed: int
    players: int
    bots: tuple[str, ...]  # one per seat
    variants: tuple[str, ...]
    keep_actions: bool


@dataclass
class Outcome:
    index: int
    seed: int
    players: int
    bots: tuple[str, ...]
    decisions: int
    result: dict[str, Any] | None
    error: str | None = None
    record: GameRecord | None = None  # when records are wanted


def parse_players(text: str) -> list[int]:
    """``"4"`` → [4]; ``"2-6"`` → [2, 3, 4, 5, 6]."""
    parts = text.strip().split("-")
    if len(parts) not in (1, 2) or not all(p.strip().isdigit() for p in parts):
        raise ConfigError(f"--players must be a number or a range like 2-6, not {text!r}")
    low, high = int(parts[0]), int(parts[-1])
    if low > high:
        raise ConfigError(f"--players range {text!r} runs backwards")
    if low < MIN_PLAYERS or high > MAX_PLAYERS:
        raise ConfigError(f"--players must lie within {MIN_PLAYERS}–{MAX_PLAYERS}, not {text!r}")
    return list(range(low, high + 1))


def parse_bots(text: str) -> list[str]:
    names = [name.strip().lower() for name in text.split(",")]
    if not names or any(not name for name in names):
        raise ConfigError(f"--bots must be a comma-separated list of names, not {text!r}")
    for name in names:
        if name not in BOTS:
            raise ConfigError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")
    return names


def bot_seed(game_seed: int, seat: int) -> int:
    """Each bot's own stream, derived from the game's seed so runs repeat exactly."""
    return Rng(game_seed * 8 + seat).next64()


def run_game(task: Task) -> Outcome:
    """One game. Any exception is caught and reported: one broken game must not end a run of
    thousands (the record written keeps the actions up to the failure, for the bug report)."""
    config = Config(players=task.players, variants=frozenset(task.variants))
    bots = [make_bot(name, bot_seed(task.seed, q)) for q, name in enumerate(task.bots)]
    out = Playout()
    result: dict[str, Any] | None = None
    error: str | None = None
    try:
        state = GAME.new_game(config, task.seed)
        play_out(state, bots, out)
        res = state.result
        result = res.to_json() if res is not None else None
    except Exception as exc:  # counted as an error, see the docstring
        error = f"{type(exc).__name__}: {exc}"
    record = None
    if task.keep_actions:
        # ``meta`` is the record's free-form part (replay ignores it): who played, and why the
        # game stopped early if it did.
        meta: dict[str, Any] = {"bots": list(task.bots), "index": task.index}
        if error is not None:
            meta["error"] = error
        record = GameRecord(
            game=GAME.name,
            version=GAME.version,
            config=config.to_json(),
            seed=task.seed,
            actions=out.actions,
            events_sha256=out.digest.hexdigest(),
            result=result,
            meta=meta,
        )
    return Outcome(
        task.index, task.seed, task.players, task.bots, len(out.actions), result, error, record
    )


def _tasks(games: int, counts: list[int], seed: int, bots: list[str], variants: list[str],
           keep: bool) -> Iterator[Task]:  # fmt: skip
    for i in range(games):
        n = counts[i % len(counts)]
        seats = tuple(bots[q % len(bots)] for q in range(n))
        yield Task(i, seed + i, n, seats, tuple(variants), keep)


@dataclass
class Summary:
    games: int = 0
    errors: int = 0
    decisions: int = 0
    cases: dict[str, int] = field(default_factory=dict)
    ethos: dict[str, list[int]] = field(default_factory=dict)  # ethos -> [seats, wins]
    bots: dict[str, list[int]] = field(default_factory=dict)  # name -> [seats, total, wins]
    first_errors: list[str] = field(default_factory=list)

    def add(self, o: Outcome) -> None:
        self.games += 1
        self.decisions += o.decisions
        if o.error is not None or o.result is None:
            self.errors += 1
            if len(self.first_errors) < 5:
                self.first_errors.append(f"game {o.index} (seed {o.seed}): {o.error}")
            return
        r = o.result
        self.cases[r["case"]] = self.cases.get(r["case"], 0) + 1
        for q, name in enumerate(o.bots):
            won = 1 if q in r["winners"] else 0
            e = self.ethos.setdefault(r["ethos"][q], [0, 0])
            e[0] += 1
            e[1] += won
            b = self.bots.setdefault(name, [0, 0, 0])
            b[0] += 1
            b[1] += r["totals"][q]
            b[2] += won

    def to_json(self, seconds: float, args: dict[str, Any]) -> dict[str, Any]:
        return {
            **args,
            "games": self.games,
            "errors": self.errors,
            "decisions": self.decisions,
            "seconds": round(seconds, 3),
            "decisions_per_sec": round(self.decisions / seconds, 1) if seconds > 0 else None,
            "cases": dict(sorted(self.cases.items())),
            "ethos": {
                name: {"seats": s, "wins": w, "win_rate": round(w / s, 4)}
                for name, (s, w) in sorted(self.ethos.items())
            },
            "bots": {
                name: {
                    "seats": s,
                    "avg_total": round(t / s, 3),
                    "wins": w,
                    "win_rate": round(w / s, 4),
                }
                for name, (s, t, w) in sorted(self.bots.items())
            },
            "first_errors": self.first_errors,
        }


def _outcomes(tasks: list[Task], jobs: int) -> Iterator[Outcome]:
    if jobs == 1:
        yield from map(run_game, tasks)
        return
    # Chunks amortise the pickling; four per worker keep the load balanced at the end.
    chunk = max(1, len(tasks) // (jobs * 4))
    done = 0
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for outcome in pool.map(run_game, tasks, chunksize=chunk):
                done += 1
                yield outcome
    except BrokenProcessPool as exc:
        # A worker died outright (killed, out of memory): its games and those after it are
        # counted as errors instead of losing the whole run's summary.
        for task in tasks[done:]:
            yield Outcome(task.index, task.seed, task.players, task.bots, 0, None,
                          f"worker process died ({exc})")  # fmt: skip


def run_simulate(
    games: int,
    players: str,
    seed: int,
    bots: str,
    jobs: int,
    records: Path | None,
    json_out: bool,
    variants: list[str],
) -> None:
    if games < 1:
        raise ConfigError(f"--games must be at least 1, not {games}")
    if jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, not {jobs}")
    counts = parse_players(players)
    names = parse_bots(bots)
    variants = sorted(Config(players=counts[0], variants=frozenset(variants)).variants)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    tasks = list(_tasks(games, counts, seed, names, variants, records is not None))
    summary = Summary()
    start = time.perf_counter()
    for outcome in _outcomes(tasks, min(jobs, games)):
        summary.add(outcome)
        if records is not None and outcome.record is not None:
            outcome.record.save(records / f"game-{outcome.index:06d}-seed-{outcome.seed}.json")
    seconds = time.perf_counter() - start
    args = {"players": counts, "lineup": names, "seed": seed, "jobs": jobs, "variants": variants}
    data = summary.to_json(seconds, args)
    if json_out:
        print(json.dumps(data, indent=1))
    else:
        _print_table(data)


def _print_table(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    head = (
        f"{data['games']} games, {data['errors']} errors, {data['decisions']} decisions in"
        f" {data['seconds']:.2f} s ({data['decisions_per_sec'] or 0:,.0f}/s)"
    )
    console.print(head)
    bots = Table(title="Computer players")
    for col in ("bot", "seats", "average total", "wins", "win rate"):
        bots.add_column(col, justify="left" if col == "bot" else "right")
    for name, b in data["bots"].items():
        bots.add_row(name, str(b["seats"]), f"{b['avg_total']:.2f}", str(b["wins"]),
                     f"{b['win_rate']:.1%}")  # fmt: skip
    console.print(bots)
    ethos = Table(title="Wins by ethos")
    for col in ("ethos", "seats", "wins", "win rate"):
        ethos.add_column(col, justify="left" if col == "ethos" else "right")
    for name, e in data["ethos"].items():
        ethos.add_row(name, str(e["seats"]), str(e["wins"]), f"{e['win_rate']:.1%}")
    console.print(ethos)
    cases = Table(title="How games ended")
    cases.add_column("case")
    cases.add_column("games", justify="right")
    for name, count in data["cases"].items():
        cases.add_row(name, str(count))
    console.print(cases)
    for line in data["first_errors"]:
        console.print(f"[red]error[/red] {line}", highlight=False)
