"""Where a measurement or a trained file came from: the source's commit, recorded beside what
the lab and the benchmarks write."""

from __future__ import annotations

import subprocess
from pathlib import Path


def commit() -> str:
    """The source's commit, where this runs from a git checkout, with ``+changes`` when tracked
    files differ from it ("unknown" elsewhere)."""
    here = Path(__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(here), *args], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()  # fmt: skip

    try:
        out = git("rev-parse", "--short=12", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{out}{'+changes' if dirty else ''}" if out else "unknown"
