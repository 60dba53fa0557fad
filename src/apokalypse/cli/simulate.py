"""``apokalypse simulate``: many seeded games between computer players, summarised.

Game ``i`` uses seed ``seed + i`` and the ``i``-th player count of the cycle (``2-6`` gives
2, 3, 4, 5, 6, 2, …); seat ``q`` gets the ``q``-th bot of the list, cycling. So a run is fully
determined by its arguments, whatever the number of worker processes. Any registered game: the
game is reached only through the engine protocol (``get_game``), the bots through ``make_bot``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from types import ModuleType

from apokalypse.bots import check_bot
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.protocol import Game, GameConfig
from apokalypse.engine.record import remove_stale_temporaries
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import SEED_LIMIT, check_seed
from apokalypse.sim.collect import figures_for
from apokalypse.sim.runner import Outcome, Stop, Task, chunk_size, outcomes
from apokalypse.sim.tables import Writer, deck_name

from .bars import progress_bars
from .cards import read_cards
from .safe import whole_number
from .sim_stats import Summary

MAX_GAMES = 1_000_000
MAX_JOBS = 64


def parse_players(text: str, game: Game | None = None) -> list[int]:
    """``"4"`` → [4]; ``"2-6"`` → [2, 3, 4, 5, 6]. With ``game``, every count must be one
    the game is for; the error is the game's own, naming the rule (R-SETUP-1, K-SETUP-1)."""
    bounds: list[int] = []
    for part in text.strip().split("-"):
        number = whole_number(part.strip())  # ASCII digits only: '2-²' is no range
        if number is None or len(bounds) == 2:
            raise ConfigError(f"--players must be a number or a range like 2-6, not {text!r}")
        bounds.append(number)
    low, high = bounds[0], bounds[-1]
    if low > high:
        raise ConfigError(f"--players range {text!r} runs backwards")
    if game is not None:
        fewest, most = game.players
        for count in (low, high):
            if not fewest <= count <= most:
                try:
                    game.config_from_options(count, [], None)
                except ConfigError as exc:
                    raise ConfigError(f"--players {text}: {exc}") from None
                raise ConfigError(f"--players {text}: {game.name} is for {fewest}–{most} players")
    return list(range(low, high + 1))


def parse_bots(text: str, game: str = "apokalypse") -> list[str]:
    names = [name.strip().lower() for name in text.split(",")]
    if not names or any(not name for name in names):
        raise ConfigError(f"--bots must be a comma-separated list of names, not {text!r}")
    # a level (easy … expert) or a budget (ismcts:500, ismcts:0.1s) is checked here too: a bad
    # one is refused in one line before the first game
    return [check_bot(name, game) for name in names]


def _tasks(games: int, counts: list[int], seed: int, bots: list[str], variants: list[str],
           keep: bool, game: str, cards: str | None,
           writer: Writer | None) -> Iterator[Task]:  # fmt: skip
    # the results tables' rows, and the summary's where the game's figures count them
    collect = writer is not None or figures_for(game).rows
    run = writer.manifest["run"] if writer is not None else ""
    deck = deck_name(cards)
    for i in range(games):
        if writer is not None and i in writer.done:  # resumed: already in the results folder
            continue
        n = counts[i % len(counts)]
        seats = tuple(bots[q % len(bots)] for q in range(n))
        yield Task(i, seed + i, n, seats, tuple(variants), keep, game, cards, collect, run, deck)


def _variant_names(config: GameConfig, given: list[str]) -> list[str]:
    """The variants as the run reports and passes them: a game's canonical ids where its
    config keeps them (Apokalypse's V-…), else the names given, once each."""
    canonical = getattr(config, "variants", None)
    if isinstance(canonical, frozenset):
        return sorted(str(v) for v in canonical)
    return sorted({v.strip() for v in given})


def check_jobs(jobs: int) -> None:
    if not 1 <= jobs <= MAX_JOBS:
        raise ConfigError(f"--jobs must be 1–{MAX_JOBS}, not {jobs}")


def check_run(games: int, jobs: int, seed: int) -> None:
    """The run's size and seeds, before the first game: every game's seed must be one."""
    if not 1 <= games <= MAX_GAMES:
        raise ConfigError(f"--games must be 1–{MAX_GAMES:,}, not {games}")
    check_jobs(jobs)
    try:
        check_seed(seed)
    except ConfigError as exc:
        raise ConfigError(f"--seed: {exc}") from None
    if seed + games - 1 >= SEED_LIMIT:
        raise ConfigError(
            f"--seed {seed} with --games {games}: the last game's seed would pass 2**64 - 1"
        )


def run_simulate(
    game: str,
    games: int,
    players: str,
    seed: int,
    bots: str,
    jobs: int,
    records: Path | None,
    json_out: bool,
    variants: list[str],
    deck: Path | None = None,
    out: Path | None = None,
    ray: str | None = None,
) -> int:
    """Play and summarise the run; returns the exit status: 0, 1 when any game failed, 130
    (Ctrl-C) or 143 (SIGTERM) when interrupted (the summary then covers the games that
    finished). ``out``: the results folder (Parquet tables); games already in it are not played
    again. ``ray``: None plays the games in ``jobs`` local processes; "local" starts a Ray
    instance here, anything else joins that cluster (:mod:`apokalypse.sim.ray_pool`)."""
    rules = get_game(game)
    check_run(games, jobs, seed)
    counts = parse_players(players, rules)
    names = parse_bots(bots, rules.name)
    if len(names) > max(counts):  # a name that would never sit at a table is a mistake
        raise ConfigError(
            f"--bots names {len(names)} players, but the largest game of --players {players}"
            f" has {max(counts)} seats"
        )
    cards = read_cards(rules.name, deck)
    # Every check before the first game or file: a bad variant or deck fails here, in one line.
    config = rules.config_from_options(counts[0], variants, cards)
    variants = _variant_names(config, variants)
    writer = None
    if out is not None:
        manifest = {
            "game": rules.name,
            "game_version": rules.version,
            "players": counts,
            "lineup": names,
            "seed": seed,
            "variants": variants,
            "deck": deck_name(cards),
            "games": games,
            # how --deck / --content named it (a packaged name or a path): for people, the
            # deck's identity is its content (``deck``), so a resumed run may name it otherwise
            "cards": None if deck is None else str(deck),
        }
        writer = Writer.open(out, manifest)
    # Ray is joined (or started) before any folder is made: joining may fail
    with _on_ray(ray, jobs) as cluster:
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)
            remove_stale_temporaries(records)  # left by an earlier run killed mid-save
        if writer is not None:
            writer.start()
        keep = records is not None
        tasks = _tasks(games, counts, seed, names, variants, keep, rules.name, cards, writer)
        done = sum(1 for i in writer.done if i < games) if writer is not None else 0
        to_play = games - done
        summary = Summary(rules.name)
        start = time.perf_counter()
        try:
            with Stop().catching() as stop, _progress(to_play) as advance:
                played = _played(tasks, cluster, min(jobs, max(1, to_play)), stop,
                                 chunk_size(names))  # fmt: skip
                for outcome in played:
                    if records is not None and outcome.record is not None:
                        name = f"game-{outcome.index:06d}-seed-{outcome.seed}.json"
                        outcome.record.save(records / name)
                    if writer is not None and outcome.rows is not None:
                        writer.add(outcome.rows)
                    summary.add(outcome)
                    advance()
        finally:  # whatever ends the run (a second Ctrl-C too), the finished games are kept
            if writer is not None:
                writer.flush()
        seconds = time.perf_counter() - start
    args = {
        "game": rules.name,
        "players": counts,
        "lineup": names,
        "seed": seed,
        "jobs": jobs,
        "variants": variants,
        "deck": None if deck is None else str(deck),
    }
    data = summary.to_json(seconds, args)
    if out is not None:
        data["out"] = str(out)
        data["already_done"] = done
    if json_out:
        print(json.dumps(data, indent=1))
    else:
        summary.print(data)
        if done:
            print(f"resumed: {done} of {games} games were already in {out}")
    if stop.requested:
        print(f"interrupted after {summary.games} of {to_play} games", file=sys.stderr)
        return stop.status
    return 1 if summary.errors else 0


def _on_ray(ray: str | None, jobs: int) -> AbstractContextManager[ModuleType | None]:
    if ray is None:
        return nullcontext()
    from apokalypse.sim.ray_pool import connected

    return connected(None if ray == "local" else ray, jobs)


def _played(tasks: Iterator[Task], ray: ModuleType | None, jobs: int, stop: Stop,
            chunk: int) -> Iterator[Outcome]:  # fmt: skip
    if ray is None:
        return outcomes(tasks, jobs, stop, chunk)
    from apokalypse.sim.ray_pool import ray_outcomes

    return ray_outcomes(ray, tasks, jobs, stop, chunk)


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None]]:
    """A progress bar with the time left on standard error (when it is a terminal), while the
    games are played."""
    if not sys.stderr.isatty():
        yield lambda: None
        return
    with progress_bars("games", left=True) as bar:
        task = bar.add_task("games", total=total)
        yield lambda: bar.advance(task)
