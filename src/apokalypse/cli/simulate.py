"""``apokalypse simulate``: many seeded games between computer players, summarised.

Game ``i`` uses seed ``seed + i`` and the ``i``-th player count of the cycle (``2-6`` gives
2, 3, 4, 5, 6, 2, …); seat ``q`` gets the ``q``-th bot of the list, cycling. So a run is fully
determined by its arguments, whatever the number of worker processes. Any registered game: the
game is reached only through the engine protocol (``get_game``), the bots through ``make_bot``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apokalypse.bots import bots_for, make_bot
from apokalypse.bots.runner import Playout, play_out
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.protocol import Game, GameConfig
from apokalypse.engine.record import GameRecord
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng

from .sim_stats import Summary


@dataclass(frozen=True)
class Task:
    index: int
    seed: int
    players: int
    bots: tuple[str, ...]  # one per seat
    variants: tuple[str, ...]
    keep_actions: bool
    game: str = "apokalypse"
    cards: str | None = None  # a deck / content file's text (None: the game's default)


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


def parse_players(text: str, game: Game | None = None) -> list[int]:
    """``"4"`` → [4]; ``"2-6"`` → [2, 3, 4, 5, 6]. With ``game``, every count must be one
    the game is for; the error is the game's own, naming the rule (R-SETUP-1, K-SETUP-1)."""
    parts = text.strip().split("-")
    if len(parts) not in (1, 2) or not all(p.strip().isdigit() for p in parts):
        raise ConfigError(f"--players must be a number or a range like 2-6, not {text!r}")
    low, high = int(parts[0]), int(parts[-1])
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
    known = bots_for(game)
    for name in names:
        if name not in known:
            raise ConfigError(
                f"unknown bot {name!r} for {game} (known: {', '.join(sorted(known))})"
            )
    return names


def bot_seed(game_seed: int, seat: int) -> int:
    """Each bot's own stream, derived from the game's seed so runs repeat exactly."""
    return Rng(game_seed * 8 + seat).next64()


def run_game(task: Task) -> Outcome:
    """One game. Any exception is caught and reported: one broken game must not end a run of
    thousands (the record written keeps the actions up to the failure, for the bug report)."""
    game = get_game(task.game)
    config = game.config_from_options(task.players, task.variants, task.cards)
    bots = [make_bot(name, bot_seed(task.seed, q), task.game) for q, name in enumerate(task.bots)]
    out = Playout()
    result: dict[str, Any] | None = None
    error: str | None = None
    try:
        state = game.new_game(config, task.seed)
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
            game=game.name,
            version=game.version,
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
           keep: bool, game: str, cards: str | None) -> Iterator[Task]:  # fmt: skip
    for i in range(games):
        n = counts[i % len(counts)]
        seats = tuple(bots[q % len(bots)] for q in range(n))
        yield Task(i, seed + i, n, seats, tuple(variants), keep, game, cards)


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


def _variant_names(config: GameConfig, given: list[str]) -> list[str]:
    """The variants as the run reports and passes them: a game's canonical ids where its
    config keeps them (Apokalypse's V-…), else the names given, once each."""
    canonical = getattr(config, "variants", None)
    if isinstance(canonical, frozenset):
        return sorted(str(v) for v in canonical)
    return sorted({v.strip() for v in given})


def _read_cards(deck: Path | None) -> str | None:
    if deck is None:
        return None
    try:
        return deck.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise ConfigError(f"--deck {str(deck)!r}: cannot read it ({why})") from None


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
) -> None:
    rules = get_game(game)
    if games < 1:
        raise ConfigError(f"--games must be at least 1, not {games}")
    if jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, not {jobs}")
    counts = parse_players(players, rules)
    names = parse_bots(bots, rules.name)
    cards = _read_cards(deck)
    # Every check before the first game or file: a bad variant or deck fails here, in one line.
    config = rules.config_from_options(counts[0], variants, cards)
    variants = _variant_names(config, variants)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    keep = records is not None
    tasks = list(_tasks(games, counts, seed, names, variants, keep, rules.name, cards))
    summary = Summary(rules.name)
    start = time.perf_counter()
    for outcome in _outcomes(tasks, min(jobs, games)):
        summary.add(outcome)
        if records is not None and outcome.record is not None:
            outcome.record.save(records / f"game-{outcome.index:06d}-seed-{outcome.seed}.json")
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
    if json_out:
        print(json.dumps(data, indent=1))
    else:
        summary.print(data)
