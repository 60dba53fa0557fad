"""The process's memory, handed back: glibc's allocator tuned for a server of many threads.

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
from collections.abc import Callable

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


def tune_collector() -> None:
    """At start, once the app is made: what exists now lives as long as the process, so the
    cyclic collector stops walking it (``gc.freeze``); its full collections walked those objects
    every time (120-258 ms under 200 games, every game on the event loop waiting). Its thresholds
    stay Python's: collecting young objects every 50,000 allocations instead of 700 halved the
    answer p99, but the server's memory then grew 32-39 MB every 10 minutes where it had been
    flat (docs/benchmarks.md)."""
    gc.collect()
    gc.freeze()


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
