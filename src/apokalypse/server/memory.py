"""The process's memory: the cyclic collector run in generations of time (:class:`Collector`),
and memory handed back: glibc's allocator tuned for a server of many threads.

The games' work runs on worker threads (people's actions, the store, the computer players), and
glibc gives each thread that allocates an arena of its own (up to eight per core), from which it
rarely returns memory: over a long run the process's resident memory then creeps up although no
game is kept. Two arenas (:func:`limit_arenas`, at start) and a trim after games are dropped
(:data:`TRIM`) keep it flat. Elsewhere than glibc both do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

M_ARENA_MAX = -8  # mallopt's parameter for the most arenas (malloc.h)
ARENAS = 2


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


LIBC = _libc()


# How often what survived is frozen out of the collector's walks, and how often everything is
# walked once (the sweep), in seconds.
FREEZE_SECONDS = 1.0
SWEEP_SECONDS = 600.0


@dataclass
class Collector:
    """The served process's cyclic garbage collector, run in generations of time.

    Python starts a young collection when allocations outnumber deallocations by 700. A server
    in play frees about as much as it allocates: each move makes new views and states and drops
    the last move's, so young objects pile up uncounted (20,000-75,000 at a collection, pauses
    of 15-80 ms), and whatever lives a second is promoted until a full collection walks every
    game and connection (150,000 objects and more, 130-160 ms, several times a minute). Yet
    moves make almost no cyclic garbage: under 200 games the collections found none in 10 s of
    play; connections closing and games ending make a little.

    So what exists at start is frozen (``gc.freeze``), and then, every :data:`FREEZE_SECONDS`,
    what survived: Python's own collections walk only the objects of the last second, and free
    the short cycles among them as before. Every :data:`SWEEP_SECONDS` everything is thawed and
    walked once (``gc.unfreeze``, ``gc.collect``), which frees the cycles frozen meanwhile: one
    pause of a few hundred milliseconds every ten minutes, instead of several a minute, and
    garbage kept ten minutes at most (docs/benchmarks.md)."""

    freeze_seconds: float = FREEZE_SECONDS
    sweep_seconds: float = SWEEP_SECONDS
    clock: Callable[[], float] = time.monotonic
    sweeps: int = 0  # sweeps done
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> Collector:
        gc.collect()
        gc.freeze()
        self._thread = threading.Thread(target=self._run, name="collector", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        swept = self.clock()
        while not self._stop.wait(self.freeze_seconds):
            if self.clock() - swept >= self.sweep_seconds:
                gc.unfreeze()
                gc.collect()
                swept = self.clock()
                self.sweeps += 1
            gc.freeze()


def tune_collector() -> Collector:
    """At start, once the app is made: the collector in generations of time (:class:`Collector`).
    Python's thresholds stay: collecting young objects every 50,000 allocations instead of 700
    also shortened the pauses, but kept far more garbage alive (the server's memory grew 32-39 MB
    every 10 minutes where it had been flat)."""
    return Collector().start()


def limit_arenas(arenas: int = ARENAS) -> bool:
    """At most ``arenas`` malloc arenas from now on (before the worker threads start); whether
    the allocator took it."""
    mallopt = getattr(LIBC, "mallopt", None)
    return bool(mallopt is not None and mallopt(M_ARENA_MAX, arenas) == 1)


def _trimmer() -> Callable[[], object] | None:
    trim = getattr(LIBC, "malloc_trim", None)
    if trim is None:
        return None
    return lambda: trim(0)


# glibc's ``malloc_trim(0)``: hands the freed pages of every arena back to the system.
TRIM = _trimmer()
