"""``--compare``: two runs side by side (two variants, two decks, two lineups), per player count,
with a significance test for each difference: the two-proportion z-test for rates (the game's own,
named by its report: :class:`~.model.GameReport`), Welch's t-test for means. Differences are run B
minus run A."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from apokalypse.sim import plots
from apokalypse.sim.plots import RUN_COLOURS, Mean
from apokalypse.sim.stats import Test, mean_interval, two_proportions, welch

from .generic import report_for, score_column
from .model import Plot, RateOf, Run, Section, Table, mean_cell, p_cell, points_cell, rate_cell

ValuesOf = Callable[[Run, int], list[float]]  # a run's values at a player count


def score_values(run: Run, n: int) -> list[float]:
    column = score_column(run)
    if column is None:
        return []
    values = run.players[column]
    return [float(values[q]) for q in run.player_rows.get(n, []) if values[q] is not None]


def round_values(run: Run, n: int) -> list[float]:
    if "rounds" not in run.games:
        return []
    rounds = run.games["rounds"]
    return [float(rounds[i]) for i in run.games_of(n) if rounds[i] is not None]


def _identity(a: Run, b: Run) -> list[list[str]]:
    """The arguments in which the two runs differ."""
    keys = [k for k in {**a.manifest, **b.manifest} if k not in ("run",)]
    return [
        [k, _show(a.manifest.get(k)), _show(b.manifest.get(k))]
        for k in keys
        if a.manifest.get(k) != b.manifest.get(k)
    ]


def _show(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return "–" if value is None else str(value)


def compare_section(a: Run, b: Run) -> Section:
    counts = [n for n in a.counts if n in b.counts]
    own = report_for(a.game)
    rates: Sequence[tuple[str, RateOf]] = own.rates
    score = score_column(a)
    means: list[tuple[str, ValuesOf]] = [("rounds per game", round_values)]
    if score:
        means.insert(0, (f"mean {score} per seat", score_values))
    rows: list[list[str]] = []
    plotted: dict[str, tuple[list[Mean], list[Mean]]] = {}
    for n in counts:
        for name, of in rates:
            ra, rb = of(a, n), of(b, n)
            test = two_proportions(rb.wins, rb.n, ra.wins, ra.n)
            rows.append(
                [str(n), name, rate_cell(ra), rate_cell(rb), points_cell(test), p_cell(test.p)]
            )
            pair = plotted.setdefault(name, ([], []))
            pair[0].append(plots.as_means([ra])[0])
            pair[1].append(plots.as_means([rb])[0])
        for name, values_of in means:
            va, vb = values_of(a, n), values_of(b, n)
            if not va or not vb:
                continue
            t = welch(vb, va)
            ma, mb = mean_interval(va), mean_interval(vb)
            rows.append(
                [str(n), name, mean_cell(ma), mean_cell(mb), _mean_difference(t), p_cell(t.p)]
            )
            pair = plotted.setdefault(name, ([], []))
            pair[0].append(ma)
            pair[1].append(mb)
    section = Section(
        "compare",
        "Comparison of two runs",
        [
            f"Run A: {a.label}, {len(a.games)} finished games. Run B: {b.label}, "
            f"{len(b.games)} finished games. Differences are B − A with 95 % intervals; rates are "
            "compared with the two-proportion z-test, means with Welch's t-test (two-sided p). "
            "With many rows, some p below 0.05 are expected by chance alone (about 1 in 20).",
            "The sections after this one describe run A alone; run B has its own report.",
        ],
    )
    differing = _identity(a, b)
    if differing:
        section.tables.append(Table("Where the runs differ", ["argument", "A", "B"], differing))
    section.tables.append(
        Table(
            "Run A against run B per player count",
            ["players", "measure", "A", "B", "B − A", "p"],
            rows,
        )
    )
    names = [name for name in plotted if all(len(v) == len(counts) for v in plotted[name])][:2]
    if names and counts:
        section.plots.append(
            Plot(
                "compare",
                plots.panel_bars(
                    "Run A against run B",
                    "player count",
                    [str(n) for n in counts],
                    [
                        (
                            name,
                            "share of games (%)" if name in dict(rates) else name,
                            [
                                (f"A: {a.label}", RUN_COLOURS[0], plotted[name][0]),
                                (f"B: {b.label}", RUN_COLOURS[1], plotted[name][1]),
                            ],
                        )
                        for name in names
                    ],
                ),
                "The two runs side by side per player count, with 95 % intervals: "
                + " and ".join(names)
                + ".",
            )
        )
    if own.compared is not None:
        section.plots += own.compared(a, b)
    return section


def _mean_difference(test: Test) -> str:
    if math.isnan(test.difference):
        return "–"
    return f"{test.difference:+.2f} ({test.low:+.2f} … {test.high:+.2f})"
