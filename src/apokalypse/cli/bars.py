"""The command line's progress bars (Rich), one look for every long command: on standard error,
so that output on standard output (``--json``) stays clean."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def progress_bars(title: str, *, left: bool = False, transient: bool = True) -> Progress:
    """Bars titled ``title`` (a Rich format: ``"{task.description}"`` names each task), counting
    done of all and the time spent; with ``left``, the time left too."""
    columns: list[ProgressColumn] = [
        TextColumn(title),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ]
    if left:
        columns += [TextColumn("left"), TimeRemainingColumn()]
    return Progress(*columns, console=Console(stderr=True), transient=transient)
