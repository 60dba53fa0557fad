"""The served process tunes the cyclic garbage collector at start (``server/memory.py``): what
exists once the app is made is frozen out of the collector's walks, and young objects are
collected less often, so that its pauses hold up the games less (``docs/benchmarks.md``)."""

from __future__ import annotations

import subprocess
import sys

from apokalypse.server.memory import COLLECT_EVERY

CHECK = """
import gc
from apokalypse.server.memory import COLLECT_EVERY, tune_collector
objects = [[] for _ in range(1000)]  # what the app holds from its start
assert gc.get_freeze_count() == 0 and gc.get_threshold() != COLLECT_EVERY
tune_collector()
assert gc.get_freeze_count() >= len(objects), gc.get_freeze_count()
assert gc.get_threshold() == COLLECT_EVERY, gc.get_threshold()
print("tuned")
"""


def test_the_collector_is_tuned_at_start() -> None:
    # In a process of its own: freezing is for the rest of a process's life.
    run = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0 and run.stdout.strip() == "tuned", run.stderr[-2000:]
    assert COLLECT_EVERY[0] > 700  # a young collection less often than Python's default
