"""The served process tunes the cyclic garbage collector at start (``server/memory.py``): what
exists once the app is made is frozen out of the collector's walks, so that its pauses hold up
the games less; its thresholds stay Python's (``docs/benchmarks.md``)."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import gc
from apokalypse.server.memory import tune_collector
objects = [[] for _ in range(1000)]  # what the app holds from its start
thresholds = gc.get_threshold()
assert gc.get_freeze_count() == 0
tune_collector()
assert gc.get_freeze_count() >= len(objects), gc.get_freeze_count()
assert gc.get_threshold() == thresholds, gc.get_threshold()  # Python's: memory stays flat
print("tuned")
"""


def test_the_collector_is_tuned_at_start() -> None:
    # In a process of its own: freezing is for the rest of a process's life.
    run = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0 and run.stdout.strip() == "tuned", run.stderr[-2000:]
