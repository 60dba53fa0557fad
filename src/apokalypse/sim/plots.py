"""The report's plots (:mod:`.report`): each function takes plain figures and returns a PNG.

matplotlib's object API on the Agg canvas, never pyplot: no global figure registry to leak
into, nothing to close, and no window even where a display exists. The PNGs carry no software
name or date, so the same data gives the same bytes. Labels taken from the data are drawn as
plain text (no ``$…$`` mathematics: a bot or card name with a dollar sign stays as written).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib

matplotlib.use("Agg")  # before anything draws: a report is written on machines without display

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.typing import RcKeyType

from .stats import wilson

GOOD, EVIL, NOBODY = "#2f6db5", "#b8322a", "#8a8a8a"
RUN_COLOURS = ("#2f6db5", "#e08a1e")  # run A, run B of a comparison
STYLE: dict[RcKeyType, Any] = {
    "text.parse_math": False,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.grid.axis": "y",
    "grid.alpha": 0.3,
    "legend.frameon": False,
}
DPI = 100


@dataclass(frozen=True)
class Rate:
    """A proportion: ``wins`` of ``n``, with Wilson's 95 % interval."""

    wins: int
    n: int

    @property
    def value(self) -> float:
        return self.wins / self.n if self.n else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.n) if self.n else (math.nan, math.nan)


# A mean with its 95 % interval: (mean, low, high); NaN where there is none.
Mean = tuple[float, float, float]


def _colours(count: int) -> list[str]:
    """Distinct colours for the player counts (or any ordered groups)."""
    palette = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d")
    return [palette[i % len(palette)] for i in range(count)]


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()


def _errors(
    values: Sequence[float], lows: Sequence[float], highs: Sequence[float]
) -> list[list[float]]:
    """matplotlib's error bars: the distances below and above each value (0 where none)."""
    below = [0.0 if math.isnan(lo) else v - lo for v, lo in zip(values, lows, strict=True)]
    above = [0.0 if math.isnan(hi) else hi - v for v, hi in zip(values, highs, strict=True)]
    return [below, above]


def _titles(fig: Figure, ax: Axes, title: str, xlabel: str, ylabel: str, legend: int) -> None:
    """The labels, and the legend (of ``legend`` entries, none for 0) under the plot, outside
    the axes: a legend inside would hide bars or points."""
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend:
        fig.legend(loc="outside lower center", ncols=min(6, legend))


def _bars(
    ax: Axes,
    groups: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[Mean]]],
) -> None:
    """Grouped bars with error bars: ``series`` is (label, colour, one mean per group)."""
    width = 0.8 / max(1, len(series))
    for k, (label, colour, means) in enumerate(series):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(groups))]
        values = [0.0 if math.isnan(m[0]) else m[0] for m in means]
        ax.bar(xs, values, width * 0.92, label=label, color=colour)
        ax.errorbar(
            xs,
            values,
            yerr=_errors(values, [m[1] for m in means], [m[2] for m in means]),
            fmt="none",
            ecolor="#222222",
            elinewidth=1,
            capsize=3,
        )
    ax.set_xticks(range(len(groups)), list(groups))


def as_means(rates: Sequence[Rate], scale: float = 100.0) -> list[Mean]:
    return [(scale * r.value, scale * r.interval[0], scale * r.interval[1]) for r in rates]


def rate_bars(
    title: str,
    xlabel: str,
    groups: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[Rate]]],
    ylabel: str = "share (%)",
    size: tuple[float, float] = (8.0, 4.5),
    references: Sequence[float] | None = None,
) -> bytes:
    """Rates in %, grouped bars, with Wilson intervals as error bars; ``references``: a rate
    per group drawn as a dashed line across its bars (a fair share)."""
    with rc_context(STYLE):
        fig = Figure(figsize=size, layout="constrained")
        ax = fig.add_subplot()
        _bars(ax, groups, [(label, c, as_means(rates)) for label, c, rates in series])
        for i, reference in enumerate(references or ()):
            ax.hlines(100 * reference, i - 0.45, i + 0.45, colors="#222222", linestyles="--")
        _titles(fig, ax, title, xlabel, ylabel, len(series))
        ax.set_ylim(0, 100)
        return _png(fig)


def mean_bars(
    title: str,
    xlabel: str,
    ylabel: str,
    groups: Sequence[str],
    series: Sequence[tuple[str, Sequence[Mean]]],
    colours: Sequence[str] | None = None,
    size: tuple[float, float] = (8.0, 4.5),
) -> bytes:
    """Means, grouped bars, with their 95 % intervals as error bars."""
    with rc_context(STYLE):
        fig = Figure(figsize=size, layout="constrained")
        ax = fig.add_subplot()
        chosen = list(colours) if colours else _colours(len(series))
        _bars(ax, groups, [(s[0], c, s[1]) for s, c in zip(series, chosen, strict=True)])
        _titles(fig, ax, title, xlabel, ylabel, len(series) if len(series) > 1 else 0)
        return _png(fig)


def rate_lines(
    title: str,
    xlabel: str,
    ylabel: str,
    series: Sequence[tuple[str, Sequence[int], Sequence[Rate], float]],
    size: tuple[float, float] = (8.0, 4.5),
) -> bytes:
    """Rates in % over a whole-number axis, one line per series with interval error bars and a
    dashed line at the series' reference rate (``series``: label, xs, rates, reference)."""
    with rc_context(STYLE):
        fig = Figure(figsize=size, layout="constrained")
        ax = fig.add_subplot()
        for k, ((label, xs, rates, reference), colour) in enumerate(
            zip(series, _colours(len(series)), strict=True)
        ):
            shift = 0.05 * (k - (len(series) - 1) / 2)  # apart, so the error bars stay visible
            means = as_means(rates)
            values = [m[0] for m in means]
            ax.errorbar(
                [x + shift for x in xs],
                values,
                yerr=_errors(values, [m[1] for m in means], [m[2] for m in means]),
                marker="o",
                capsize=3,
                color=colour,
                label=label,
            )
            if not math.isnan(reference):
                ax.axhline(100 * reference, color=colour, linestyle="--", linewidth=0.8)
        _titles(fig, ax, title, xlabel, ylabel, len(series))
        ax.set_xticks(sorted({x for s in series for x in s[1]}))
        ax.set_ylim(bottom=0)
        return _png(fig)


def mean_lines(
    title: str,
    xlabel: str,
    ylabel: str,
    xs: Sequence[str],
    series: Sequence[tuple[str, Sequence[Mean]]],
    size: tuple[float, float] = (8.0, 4.5),
) -> bytes:
    """Means over ordered categories, one line per series, intervals as error bars."""
    with rc_context(STYLE):
        fig = Figure(figsize=size, layout="constrained")
        ax = fig.add_subplot()
        for k, ((label, means), colour) in enumerate(
            zip(series, _colours(len(series)), strict=True)
        ):
            shift = 0.05 * (k - (len(series) - 1) / 2)  # apart, so the error bars stay visible
            values = [m[0] for m in means]
            ax.errorbar(
                [i + shift for i in range(len(xs))],
                values,
                yerr=_errors(values, [m[1] for m in means], [m[2] for m in means]),
                marker="o",
                capsize=3,
                color=colour,
                label=label,
            )
        ax.set_xticks(range(len(xs)), list(xs))
        _titles(fig, ax, title, xlabel, ylabel, len(series))
        return _png(fig)


def histograms(
    title: str,
    xlabel: str,
    panels: Sequence[tuple[str, Sequence[tuple[str, str, Sequence[float]]]]],
    columns: int = 3,
) -> bytes:
    """Small multiples of distributions: each panel (title, series of label, colour, values)
    shows each series as a step histogram in % of its own values, so groups of different sizes
    compare; whole-number data gets one bin per value."""
    rows = max(1, math.ceil(len(panels) / columns))
    cols = min(columns, max(1, len(panels)))
    with rc_context(STYLE):
        fig = Figure(figsize=(3.6 * cols, 2.9 * rows + 0.5), layout="constrained")
        axes = fig.subplots(rows, cols, squeeze=False)
        everything = [v for _, series in panels for _, _, values in series for v in values]
        low = math.floor(min(everything, default=0))
        high = math.ceil(max(everything, default=1))
        step = max(1, math.ceil((high - low + 1) / 40))  # at most ~40 bins
        edges = [low - 0.5 + step * i for i in range((high - low) // step + 2)]
        for i, (name, series) in enumerate(panels):
            ax = axes[i // cols][i % cols]
            for label, colour, values in series:
                if not values:
                    continue
                ax.hist(
                    values,
                    bins=edges,
                    weights=[100 / len(values)] * len(values),
                    histtype="step",
                    linewidth=1.5,
                    color=colour,
                    label=f"{label} (n={len(values)})",
                )
            ax.set_title(name)
            ax.set_xlabel(xlabel)
            ax.set_ylabel("share (%)")
            ax.legend(fontsize=8)
        for j in range(len(panels), rows * cols):
            axes[j // cols][j % cols].set_visible(False)
        fig.suptitle(title)
        return _png(fig)


def boxes(
    title: str, xlabel: str, ylabel: str, groups: Sequence[str], values: Sequence[Sequence[float]]
) -> bytes:
    """Box plots (quartiles, whiskers at 1.5 IQR, outliers as dots) with the mean as a
    diamond."""
    with rc_context(STYLE):
        fig = Figure(figsize=(8.0, 4.5), layout="constrained")
        ax = fig.add_subplot()
        kept = [list(v) if v else [math.nan] for v in values]
        ax.boxplot(kept, tick_labels=list(groups), showmeans=True, meanprops={"marker": "D"})
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        return _png(fig)


def differences(
    title: str,
    xlabel: str,
    labels: Sequence[str],
    values: Sequence[Mean],
) -> bytes:
    """Horizontal bars of differences (in percentage points) with their intervals; positive to
    the right in the good colour, negative to the left in the evil one."""
    with rc_context({**STYLE, "axes.grid.axis": "x"}):
        fig = Figure(figsize=(8.0, 1.2 + 0.32 * len(labels)), layout="constrained")
        ax = fig.add_subplot()
        ys = list(range(len(labels)))[::-1]  # the first label on top
        shown = [0.0 if math.isnan(v[0]) else v[0] for v in values]
        ax.barh(ys, shown, color=[GOOD if v >= 0 else EVIL for v in shown], height=0.7)
        ax.errorbar(
            shown,
            ys,
            xerr=_errors(shown, [v[1] for v in values], [v[2] for v in values]),
            fmt="none",
            ecolor="#222222",
            capsize=3,
        )
        ax.axvline(0, color="#222222", linewidth=0.8)
        for y, v in zip(ys, values, strict=True):
            if math.isnan(v[0]):  # say so, rather than draw a difference of 0
                ax.text(0, y, "  no comparison (played by all or none)", va="center", fontsize=8)
        ax.set_yticks(ys, list(labels))
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        return _png(fig)


def panel_bars(
    title: str,
    xlabel: str,
    groups: Sequence[str],
    panels: Sequence[tuple[str, str, Sequence[tuple[str, str, Sequence[Mean]]]]],
) -> bytes:
    """Side-by-side panels of grouped bars with error bars; each panel is (title, y label,
    series of label, colour, one mean per group)."""
    with rc_context(STYLE):
        fig = Figure(figsize=(5.0 * len(panels), 4.5), layout="constrained")
        axes = fig.subplots(1, len(panels), squeeze=False)[0]
        for ax, (name, ylabel, series) in zip(axes, panels, strict=True):
            _bars(ax, groups, series)
            ax.set_title(name)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
        fig.suptitle(title)
        handles, labels = axes[0].get_legend_handles_labels()  # the same runs in every panel
        fig.legend(handles, labels, loc="outside lower center", ncols=len(labels))
        return _png(fig)
