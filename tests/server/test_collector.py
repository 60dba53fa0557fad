"""The served process runs the cyclic garbage collector in generations of time
(``server/memory.py``): what exists once the app is made is frozen out of the collector's walks,
then every second what survived; every so often everything is thawed and walked once, freeing
the cycles frozen meanwhile (``docs/benchmarks.md``). Each check runs in a process of its own:
freezing is for the rest of a process's life."""

from __future__ import annotations

import subprocess
import sys

AT_START = """
import gc
from apokalypse.server.memory import tune_collector
objects = [[] for _ in range(1000)]  # what the app holds from its start
thresholds = gc.get_threshold()
assert gc.get_freeze_count() == 0
collector = tune_collector()
assert gc.get_freeze_count() >= len(objects), gc.get_freeze_count()
assert gc.get_threshold() == thresholds, gc.get_threshold()  # Python's: memory stays flat
assert not any(o is objects for o in gc.get_objects())  # frozen: never walked
collector.stop()
print("tuned")
"""

GENERATIONS = """
import gc, time, weakref
from apokalypse.server.memory import Collector

class Node:
    pass

def deadline(what, seconds=30.0):
    end = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < end, "not within the deadline"
        time.sleep(0.01)

def walked(obj):
    return any(o is obj for o in gc.get_objects())

now = [0.0]  # the sweep's clock, moved by this check alone: no sweep comes before it is due
collector = Collector(freeze_seconds=0.02, sweep_seconds=10.0, clock=lambda: now[0]).start()
a, b = Node(), Node()
a.other, b.other = b, a  # a cycle made after the start, alive for a while
gone = weakref.ref(a)
assert walked(a)  # young: Python's collections walk it
deadline(lambda: not walked(a) and gc.is_tracked(a))  # survived a second's turn: frozen
sweeps = collector.sweeps
del a, b  # garbage now, but frozen: no collection of its own finds it …
time.sleep(0.1)
assert gone() is not None and collector.sweeps == sweeps
now[0] += 10.0  # the sweep is due
# Counted once its walk is done: the count, not the cycle's end, says the walk is over (the
# cycle is freed inside the walk, a moment before the count moves).
deadline(lambda: collector.sweeps > sweeps)
assert gone() is None  # … the sweep thawed everything and walked it
collector.stop()
print("generations")
"""


def run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_the_collector_is_tuned_at_start() -> None:
    assert run(AT_START) == "tuned"


def test_what_survives_is_frozen_and_the_sweep_frees_frozen_cycles() -> None:
    assert run(GENERATIONS) == "generations"
