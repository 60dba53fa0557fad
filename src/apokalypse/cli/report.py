"""``apokalypse report DIR [--compare DIR2] [--out FILE]``: a results folder of ``apokalypse
simulate --out DIR`` as one self-contained HTML page with PNG plots (:mod:`apokalypse.sim.report`),
optionally compared with a second run. Errors are :class:`ConfigError`, one line each."""

from __future__ import annotations

from pathlib import Path

from apokalypse.sim.report import plots_folder, write_report

from .safe import printable


def run_report(folder: Path, compare: Path | None, out: Path | None) -> int:
    """Write the report; the exit status (0). A folder that cannot be read raises
    :class:`~apokalypse.engine.errors.ConfigError` before anything is written."""
    page = write_report(folder, compare, out)
    print(f"wrote {printable(str(page))} (plots in {printable(str(plots_folder(page)))}/)")
    return 0
