"""Where the computer players think: a few threads of their own, one decision at a time.

A computer player's decision can take a second of CPU (``hard``, ``expert``). Thinking on the
threads that serve people's actions and the database would let a handful of all-computer games
starve everybody else, so every decision is one job on this pool's own threads (``threads``, one
by default: the GIL lets pure-Python players use one core however many threads they get), and a
game queues again for each next decision, so games take turns. Games where a person waits for the
computers go before games that only computers play (``URGENT`` before ``IDLE``).

The coach (the expert asked "what would you do?") thinks on a pool of this kind of its own
(``Services.coach``), in a process of its own: its questions take seconds, must never queue ahead of
a computer's move, and a compiled search holds the interpreter's lock for long stretches (only
interpreted code gives it up at the switch interval), so a thread of this process would keep
the computers' thread and the event loop from running while it thinks.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TypeVar, cast

T = TypeVar("T")

URGENT = 0  # a person is connected to the game and waits for the computers
IDLE = 1  # nobody watches, or only spectators: it can wait

Job = tuple[int, int, Callable[[], object], asyncio.Future[object]]


class ComputerPool:
    """A bounded pool of threads for the computer players' decisions, by priority."""

    def __init__(self, threads: int = 1, name: str = "computer", processes: bool = False) -> None:
        """``threads`` workers: threads of this process, or with ``processes`` processes of
        their own (started fresh, not forked from a server with threads and sockets; the work
        and its result then travel pickled: a module-level function and its arguments)."""
        self.threads = max(1, threads)
        self._executor: Executor = (
            ProcessPoolExecutor(self.threads, mp_context=multiprocessing.get_context("spawn"))
            if processes
            else ThreadPoolExecutor(self.threads, thread_name_prefix=name)
        )
        self._queue: asyncio.PriorityQueue[Job] | None = None
        self._workers: list[asyncio.Task[None]] = []
        self._order = itertools.count()  # first come, first served within a priority

    async def run(self, priority: int, work: Callable[[], T]) -> T:
        """Run ``work`` on the pool when its turn comes; its result (or its exception)."""
        if self._queue is None:  # made on first use: it belongs to the running event loop
            self._queue = asyncio.PriorityQueue()
            self._workers = [asyncio.create_task(self._work()) for _ in range(self.threads)]
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        await self._queue.put((priority, next(self._order), work, future))
        return cast(T, await future)  # the future holds what work returned

    async def _work(self) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        while True:
            _, _, work, future = await self._queue.get()
            if future.cancelled():  # its game was dropped meanwhile
                continue
            try:
                result = await loop.run_in_executor(self._executor, work)
            except Exception as exc:
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)

    async def close(self) -> None:
        """Stop taking work; the decision under way finishes (its game's write with it)."""
        for worker in self._workers:
            worker.cancel()
        for worker in self._workers:
            with contextlib.suppress(asyncio.CancelledError):
                await worker
        await asyncio.to_thread(self._executor.shutdown, True)
