"""``apokalypse simulate``: many seeded games between computer players, summarised.

Game ``i`` uses seed ``seed + i`` and the ``i``-th player count of the cycle (``2-6`` gives
2, 3, 4, 5, 6, 2, …); seat ``q`` gets the ``q``-th bot of the list, cycling. So a run is fully
determined by its arguments, whatever the number of worker processes. Any registered game: the
game is reached only through the engine protocol (``get_game``), the bots through ``make_bot``.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from apokalypse.bots import check_bot, make_bot, seat_seed
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.match import Match
from apokalypse.engine.protocol import Game, GameConfig
from apokalypse.engine.record import GameRecord, remove_stale_temporaries
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import SEED_LIMIT, check_seed

from .safe import whole_number
from .sim_stats import Summary

MAX_GAMES = 1_000_000
MAX_JOBS = 64
IN_FLIGHT_PER_JOB = 4  # games handed out per worker: enough to keep it busy, few to lose
POLL_SECONDS = 0.2  # how soon a stop request is noticed while workers play
PARENT_CHECK_SECONDS = 1.0
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


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


def run_game(task: Task) -> Outcome:
    """One game. Any exception is caught and reported: one broken game must not end a run of
    thousands (the record written keeps the actions up to the failure, for the bug report)."""
    game = get_game(task.game)
    config = game.config_from_options(task.players, task.variants, task.cards)
    bots = [make_bot(name, seat_seed(task.seed, q), task.game) for q, name in enumerate(task.bots)]
    # ``meta`` is the record's free-form part (replay ignores it): who played, and why the game
    # stopped early if it did.
    record = GameRecord(game.name, game.version, config.to_json(), task.seed)
    record.meta = {"bots": list(task.bots), "index": task.index}
    result: dict[str, Any] | None = None
    error: str | None = None
    match: Match[Any, Any] | None = None
    try:
        state = game.new_game(config, task.seed)
        match = Match(state, dict(enumerate(bots)), record.start_digest(state.opening))
        match.start()
        match.play_out()
        res = match.state.result
        result = res.to_json() if res is not None else None
    except Exception as exc:  # counted as an error, see the docstring
        error = f"{type(exc).__name__}: {exc}"
        record.meta["error"] = error
    if match is not None:  # the actions up to a failure: the record replays to it
        record.actions, record.events_sha256 = match.actions, match.digest.hexdigest()
    else:
        record.events_sha256 = record.start_digest(()).hexdigest()
    record.result = result
    kept = record if task.keep_actions else None
    return Outcome(
        task.index, task.seed, task.players, task.bots, len(record.actions), result, error, kept
    )


def _tasks(games: int, counts: list[int], seed: int, bots: list[str], variants: list[str],
           keep: bool, game: str, cards: str | None) -> Iterator[Task]:  # fmt: skip
    for i in range(games):
        n = counts[i % len(counts)]
        seats = tuple(bots[q % len(bots)] for q in range(n))
        yield Task(i, seed + i, n, seats, tuple(variants), keep, game, cards)


class Stop:
    """A graceful stop, asked for with Ctrl-C or SIGTERM: no new game starts, and every game
    that finishes is still recorded and counted. A second Ctrl-C interrupts at once."""

    def __init__(self) -> None:
        self.requested = False
        self.signal = 0

    def request(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        self.signal = self.signal or signum
        signal.signal(signal.SIGINT, signal.default_int_handler)

    @property
    def status(self) -> int:
        """The shell's exit status for a run ended by this signal: 130 Ctrl-C, 143 SIGTERM."""
        return 128 + (self.signal or signal.SIGINT)

    @contextmanager
    def catching(self) -> Iterator[Stop]:
        """Catch Ctrl-C and SIGTERM while the run lasts (signals reach the main thread only)."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        signals = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.request) for sig in signals}
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, signal.SIG_DFL if handler is None else handler)


def _worker_start(parent: int) -> None:
    """Each worker process, before its first game: the parent alone answers Ctrl-C (the
    terminal sends it to the whole process group), and a worker never outlives its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's graceful-stop handler
    if not _kill_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before this worker could ask to follow it
        os._exit(1)


def _kill_with_parent() -> bool:
    """Linux: let the kernel SIGKILL this process when its parent dies (kill -9 included)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """Elsewhere: notice that the parent is gone (this process was handed to another)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def _lost(task: Task, why: str) -> Outcome:
    return Outcome(task.index, task.seed, task.players, task.bots, 0, None, why)


def _outcomes(tasks: Iterator[Task], jobs: int, stop: Stop) -> Iterator[Outcome]:
    """Every game's outcome as soon as it is finished (from workers: in any order), until the
    tasks run out or a stop is requested."""
    if jobs == 1:
        for task in tasks:
            if stop.requested:
                return
            yield run_game(task)
        return
    pool = ProcessPoolExecutor(jobs, initializer=_worker_start, initargs=(os.getpid(),))
    try:
        yield from _pooled(pool, tasks, jobs * IN_FLIGHT_PER_JOB, stop)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _pooled(pool: ProcessPoolExecutor, tasks: Iterator[Task], in_flight: int,
            stop: Stop) -> Iterator[Outcome]:  # fmt: skip
    # Games go out one by one, a bounded number at a time: the task stream stays lazy, and a
    # finished game comes back at once instead of waiting in a chunk with unfinished ones.
    pending: dict[Future[Outcome], Task] = {}
    broken: str | None = None
    while True:
        while broken is None and not stop.requested and len(pending) < in_flight:
            task = next(tasks, None)
            if task is None:
                break
            try:
                pending[pool.submit(run_game, task)] = task
            except BrokenProcessPool as exc:
                broken = f"worker process died ({exc})"
                yield _lost(task, broken)
        if stop.requested:  # games not yet handed to a worker are dropped; the others finish
            pending = {f: t for f, t in pending.items() if not f.cancel()}
        if not pending:
            break
        done, _ = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
        for future in done:
            task = pending.pop(future)
            try:
                yield future.result()
            except BrokenProcessPool as exc:
                # A worker died outright (killed, out of memory): its games and those after it
                # are counted as errors instead of losing the whole run's summary.
                broken = f"worker process died ({exc})"
                yield _lost(task, broken)
    if broken is not None and not stop.requested:
        for task in tasks:
            yield _lost(task, broken)


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


def check_run(games: int, jobs: int, seed: int) -> None:
    """The run's size and seeds, before the first game: every game's seed must be one."""
    if not 1 <= games <= MAX_GAMES:
        raise ConfigError(f"--games must be 1–{MAX_GAMES:,}, not {games}")
    if not 1 <= jobs <= MAX_JOBS:
        raise ConfigError(f"--jobs must be 1–{MAX_JOBS}, not {jobs}")
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
) -> int:
    """Play and summarise the run; returns the exit status: 0, 1 when any game failed, 130
    (Ctrl-C) or 143 (SIGTERM) when interrupted (the summary then covers the games that
    finished)."""
    rules = get_game(game)
    check_run(games, jobs, seed)
    counts = parse_players(players, rules)
    names = parse_bots(bots, rules.name)
    cards = _read_cards(deck)
    # Every check before the first game or file: a bad variant or deck fails here, in one line.
    config = rules.config_from_options(counts[0], variants, cards)
    variants = _variant_names(config, variants)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(records)  # left by an earlier run killed mid-save
    keep = records is not None
    tasks = _tasks(games, counts, seed, names, variants, keep, rules.name, cards)
    summary = Summary(rules.name)
    start = time.perf_counter()
    with Stop().catching() as stop:
        for outcome in _outcomes(tasks, min(jobs, games), stop):
            if records is not None and outcome.record is not None:
                outcome.record.save(records / f"game-{outcome.index:06d}-seed-{outcome.seed}.json")
            summary.add(outcome)
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
    if stop.requested:
        print(f"interrupted after {summary.games} of {games} games", file=sys.stderr)
        return stop.status
    return 1 if summary.errors else 0
