"""Playing a run's games: one game (:func:`run_game`), a chunk of them (:func:`run_chunk`, what a
worker is handed), and every game of a run in worker processes (:func:`outcomes`) with a graceful
stop. Ray's workers run the same chunks (:mod:`.ray_pool`).

Game ``i`` of a run uses seed ``seed + i``; the tasks fix everything else, so a game's outcome
depends on its task alone, whichever worker plays it and in which order.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from types import FrameType
from typing import Any, TypeVar

from apokalypse.bots import make_bot, seat_seed
from apokalypse.bots.levels import SEARCHING
from apokalypse.engine.match import Match
from apokalypse.engine.record import GameRecord
from apokalypse.engine.registry import get_game

from .collect import collector_for
from .schema import Row

IN_FLIGHT_PER_JOB = 3  # chunks handed out per worker: enough to keep it busy, few to lose
POLL_SECONDS = 0.2  # how soon a stop request is noticed while workers play
PARENT_CHECK_SECONDS = 1.0
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

T = TypeVar("T")
R = TypeVar("R")


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
    collect: bool = False  # fill the results tables' rows (``Outcome.rows``)
    run: str = ""  # the run's id, for the rows
    deck: str = "default"  # the deck's name in the rows


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
    rows: tuple[Row, list[Row]] | None = None  # the game's row and its players' rows


def chunk_size(bots: Sequence[str]) -> int:
    """Games per worker hand-out. A random game takes about 2 ms: handing them out one by one
    would spend a tenth of that on the hand-out. A searching player's game takes seconds, and a
    chunk of them would only delay a stop and lose more to a killed worker."""
    if all(name == "random" for name in bots):
        return 32
    if any(name.split(":")[0] in SEARCHING for name in bots):
        return 1
    return 2


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
    match: Match | None = None
    own: tuple[Row, list[Row]] | None = None
    try:
        state = game.new_game(config, task.seed)
        match = Match(state, dict(enumerate(bots)), record.start_digest(state.opening))
        if task.collect:
            collector = collector_for(task.game)(state)
            collector.add(match.start())
            while not match.state.is_over:
                events = match.play_turn()[1]
                if events:  # nearly half the decisions (a declined defence) tell nothing
                    collector.add(events)
            own = collector.finish(match.state)
        else:
            match.start()
            match.play_out()
        res = match.state.result
        result = res.to_json() if res is not None else None
    except Exception as exc:  # counted as an error, see the docstring
        error = f"{type(exc).__name__}: {exc}"
        record.meta["error"] = error
        own = None
    if match is not None:  # the actions up to a failure: the record replays to it
        record.actions, record.events_sha256 = match.actions, match.digest.hexdigest()
    else:
        record.events_sha256 = record.start_digest(()).hexdigest()
    record.result = result
    kept = record if task.keep_actions else None
    outcome = Outcome(
        task.index, task.seed, task.players, task.bots, len(record.actions), result, error, kept
    )
    if task.collect:
        outcome.rows = _rows(task, outcome, own)
    return outcome


def _rows(task: Task, o: Outcome, own: tuple[Row, list[Row]] | None) -> tuple[Row, list[Row]]:
    """The common columns (:mod:`.schema`) joined to the collector's. A failed game keeps its
    identity and its error; its statistics stay empty."""
    variants = ",".join(task.variants)
    winners = set(o.result["winners"]) if o.result is not None else None
    game: Row = {
        "run": task.run,
        "game": task.index,
        "seed": task.seed,
        "players": task.players,
        "variants": variants,
        "deck": task.deck,
        "lineup": ",".join(task.bots),
        "decisions": o.decisions,
        "error": o.error,
        "winners": None if winners is None else len(winners),
    }
    players: list[Row] = []
    for seat, bot in enumerate(task.bots):
        players.append(
            {
                "run": task.run,
                "game": task.index,
                "seed": task.seed,
                "players": task.players,
                "variants": variants,
                "seat": seat,
                "bot": bot,
                "won": None if winners is None else seat in winners,
            }
        )
    if own is not None:
        game.update(own[0])
        for row, extra in zip(players, own[1], strict=True):
            row.update(extra)
    return game, players


def run_chunk(tasks: Sequence[Task]) -> list[Outcome]:
    """A worker's hand-out: its games, in order."""
    return [run_game(task) for task in tasks]


def chunks(tasks: Iterator[Task], size: int) -> Iterator[tuple[Task, ...]]:
    while chunk := tuple(islice(tasks, size)):
        yield chunk


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


def worker_start(parent: int) -> None:
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


def lost(task: Task, why: str) -> Outcome:
    """A game that a dead worker took with it: counted as an error, and left out of the
    results tables (no rows), so that the same command again plays it."""
    return Outcome(task.index, task.seed, task.players, task.bots, 0, None, why)


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(jobs, initializer=worker_start, initargs=(os.getpid(),))


def outcomes(
    tasks: Iterator[Task],
    jobs: int,
    stop: Stop,
    chunk: int = 1,
    pool: ProcessPoolExecutor | None = None,
) -> Iterator[Outcome]:
    """Every game's outcome as soon as it is finished (from workers: in any order), until the
    tasks run out or a stop is requested. ``pool``: workers already started (the benchmark's),
    left running; otherwise ``jobs`` processes are started and stopped here."""
    if jobs == 1 and pool is None:
        for task in tasks:
            if stop.requested:
                return
            yield run_game(task)
        return
    own = pool is None
    workers = worker_pool(jobs) if pool is None else pool
    try:
        yield from _pooled(workers, chunks(tasks, chunk), jobs * IN_FLIGHT_PER_JOB, stop)
    finally:
        if own:
            workers.shutdown(wait=True, cancel_futures=True)


def _pooled(pool: ProcessPoolExecutor, hand_outs: Iterator[tuple[Task, ...]], in_flight: int,
            stop: Stop) -> Iterator[Outcome]:  # fmt: skip
    broken: str | None = None
    for chunk, future in in_workers(pool, run_chunk, hand_outs, in_flight, stop):
        try:
            yield from future.result()
        except BrokenProcessPool as exc:
            # A worker died outright (killed, out of memory): its games and those after it (the
            # broken pool fails each at once) are counted as errors instead of losing the whole
            # run's summary.
            broken = broken or f"worker process died ({exc})"
            yield from (lost(task, broken) for task in chunk)


def in_workers(pool: ProcessPoolExecutor, work: Callable[[T], R], items: Iterator[T],
               in_flight: int, stop: Stop) -> Iterator[tuple[T, Future[R]]]:  # fmt: skip
    """Each item with its finished future, as soon as it is done (in any order), until the items
    run out or a stop is requested; then the items under way finish, the others are dropped.

    Items go out a bounded number at a time: the item stream stays lazy, and a finished item
    comes back at once instead of waiting behind unfinished ones. A pool that broke refuses every
    later item: each comes back at once with its future failed (``BrokenProcessPool``)."""
    pending: dict[Future[R], T] = {}
    while True:
        while not stop.requested and len(pending) < in_flight:
            try:
                item = next(items)
            except StopIteration:
                break
            try:
                pending[pool.submit(work, item)] = item
            except BrokenProcessPool as exc:
                failed: Future[R] = Future()
                failed.set_exception(exc)
                yield item, failed
        if stop.requested:  # items not yet handed to a worker are dropped; the others finish
            pending = {f: item for f, item in pending.items() if not f.cancel()}
        if not pending:
            return
        done, _ = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
        for future in done:
            yield pending.pop(future), future
