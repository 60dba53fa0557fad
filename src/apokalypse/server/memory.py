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


# The cyclic garbage collector's thresholds for a server: a young collection every 50,000
# allocations instead of 700. Its pauses stop every game on the event loop; measured under load
# (200 games), young and middle collections took up to 55 and 83 ms and the full ones 120–258 ms,
# most of them spent walking the objects made at start, which live as long as the process.
COLLECT_EVERY = (50_000, 20, 20)


def tune_collector() -> None:
    """At start, once the app is made: what exists now lives as long as the process, so the
    collector stops walking it (``gc.freeze``), and it collects young objects less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECT_EVERY)


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
