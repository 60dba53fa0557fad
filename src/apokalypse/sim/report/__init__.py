"""``apokalypse report``: a results folder (:mod:`apokalypse.sim.tables`) turned into one
self-contained HTML page with PNG plots, optionally compared with a second run.

Everything is read and computed before anything is written: a folder that cannot be read leaves
no report behind. The same data gives the same bytes (no dates, no software names in the PNGs).

::

    DIR/report.html        the page (the plots inside it as data URIs)
    DIR/report/NAME.png    each plot as a file too, for documents to link to
"""

from __future__ import annotations

from pathlib import Path

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.record import atomic_write
from apokalypse.sim.tables import read_results

from . import generic, html
from .compare import compare_section
from .model import Report, Run, Section

__all__ = ["Report", "Run", "build", "load", "plots_folder", "write", "write_report"]


def load(folder: Path) -> Run:
    """A results folder's finished games; a folder without any is refused (nothing to show)."""
    results = read_results(folder)  # ResultsError (a ConfigError): one line
    run = Run.of(folder, results.manifest, results.games, results.players)
    if len(run.games) == 0:
        failed = f" ({len(run.errors)} games failed)" if run.errors else ""
        raise ConfigError(f"{folder} holds no finished game to report on{failed}")
    return run


def build(run: Run, other: Run | None = None) -> Report:
    """The report of ``run``; with ``other``, compared with it (A = ``run``, B = ``other``)."""
    if other is not None and other.game != run.game:
        raise ConfigError(
            f"cannot compare {run.game} results ({run.folder}) with {other.game} results"
            f" ({other.folder})"
        )
    sections: list[Section | None] = [generic.run_section(run)]
    if other is not None:
        sections.append(compare_section(run, other))
    sections += generic.report_for(run.game).sections(run)
    sections.append(generic.bots_section(run))
    title = f"{run.game.capitalize()} balancing report: {run.folder.name}"
    if other is not None:
        title += f" against {other.folder.name}"
    return Report(title, [s for s in sections if s is not None])


def plots_folder(out: Path) -> Path:
    """Where the PNGs go beside the page: ``report.html`` → ``report/``."""
    return out.with_suffix("") if out.suffix else out.with_name(out.name + "-plots")


def write(report: Report, out: Path) -> list[Path]:
    """The page and its PNGs; PNGs of an earlier report that this one no longer has are
    removed (the folder is the report's own). Returns the files written."""
    folder = plots_folder(out)
    page = html.render(report).encode("utf-8")
    written: list[Path] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        names = {f"{p.name}.png" for p in report.plots}
        for old in folder.glob("*.png"):
            if old.name not in names:
                old.unlink()
        for plot in report.plots:
            written.append(atomic_write(folder / f"{plot.name}.png", plot.png))
        written.append(atomic_write(out, page))
    except OSError as exc:
        raise ConfigError(f"cannot write the report to {out}: {exc.strerror or exc}") from None
    return written


def write_report(folder: Path, compare: Path | None = None, out: Path | None = None) -> Path:
    """Read, compute, then write: ``out`` defaults to ``folder/report.html``. Returns the page."""
    run = load(folder)
    other = load(compare) if compare is not None else None
    report = build(run, other)
    target = out if out is not None else folder / "report.html"
    if target.is_dir():  # a folder given for the page: the page goes inside it
        target = target / "report.html"
    write(report, target)
    return target
