"""The sections every game's report has: the run itself, the computer players, each seat's win
rate, the score's distribution and the rounds per game. A game without its own sections gets
these alone (:data:`GENERIC`); a game's own are named by its registry entry (:func:`report_for`)
and may include these (Apokerlypse's do)."""

from __future__ import annotations

import math

from apokalypse.engine.registry import ENTRIES, load
from apokalypse.sim import plots
from apokalypse.sim.collect import figures_for
from apokalypse.sim.plots import Rate
from apokalypse.sim.stats import chi_square_equal, mean_interval
from apokalypse.sim.tables import show_argument

from .model import (
    GameReport,
    Plot,
    Run,
    Section,
    Table,
    mean_cell,
    p_cell,
    rate,
    rate_cell,
)

SHOWN_ERRORS = 5


def score_column(run: Run) -> str | None:
    """The player column that holds the game's score (its run summary's, :mod:`..collect`)."""
    column = figures_for(run.game).score
    return column if column is not None and column in run.players else None


def run_section(run: Run) -> Section:
    manifest = run.manifest
    rows = [[str(key), show_argument(value)] for key, value in manifest.items()]
    rows += [
        ["games in the folder", str(run.played)],
        ["finished games", str(len(run.games))],
        ["failed games", str(len(run.errors))],
    ]
    section = Section(
        "run",
        "The run",
        [
            f"{run.game}: {len(run.games)} finished games of {run.played} in {run.folder.name}"
            f" ({len(run.errors)} failed), computer players: "
            + ", ".join(str(b) for b in manifest.get("lineup") or ["?"])
            + ". The arguments below (run.json) reproduce it."
        ],
        tables=[Table("The run's arguments (run.json) and its games", ["", "value"], rows)],
    )
    if run.errors:
        section.tables.append(
            Table(
                f"Failed games (the first {min(SHOWN_ERRORS, len(run.errors))} of "
                f"{len(run.errors)}); they are left out of every figure",
                ["game", "error"],
                [[str(g), e] for g, e in sorted(run.errors)[:SHOWN_ERRORS]],
            )
        )
    return section


def bots_section(run: Run) -> Section | None:
    """Each computer player's win rate, when the lineup mixes them (else there is nothing to
    compare)."""
    players = run.players
    bots = sorted(set(players["bot"]))
    if len(bots) < 2:
        return None
    counts = run.counts
    score = score_column(run)
    rows = []
    for bot in bots:
        mine = [q for q, b in enumerate(players["bot"]) if b == bot]
        cells = [rate_cell(rate(players["won"][q] for q in mine))]
        for n in counts:
            cells.append(
                rate_cell(rate(players["won"][q] for q in mine if players["players"][q] == n))
            )
        if score:
            values = [float(players[score][q]) for q in mine if players[score][q] is not None]
            cells.append(mean_cell(mean_interval(values)))
        rows.append([bot, str(len(mine)), *cells])
    return Section(
        "bots",
        "Computer players",
        [
            "Each computer player's win rate over the seats it played (seat q gets the q-th "
            "player of the lineup, cycling), with 95 % intervals."
        ],
        tables=[
            Table(
                "Win rate per computer player",
                [
                    "player",
                    "seats",
                    "win rate",
                    *(f"{n} players" for n in counts),
                    *([f"mean {score}"] if score else []),
                ],
                rows,
            )
        ],
    )


def seats_section(run: Run) -> Section:
    """Each seat's win rate per player count, and a test that all seats win equally often."""
    players = run.players
    series = []
    rows = []
    counts = run.counts
    for n in counts:
        wins, seats = [0] * n, [0] * n
        for q in run.player_rows.get(n, []):
            seats[players["seat"][q]] += 1
            wins[players["seat"][q]] += bool(players["won"][q])
        rates = [Rate(w, s) for w, s in zip(wins, seats, strict=True)]
        equal = chi_square_equal(wins, seats)
        series.append((f"{n} players", list(range(n)), rates, Rate(sum(wins), sum(seats)).value))
        rows.append(
            [
                str(n),
                *(rate_cell(r) for r in rates),
                *([""] * (max(counts) - n)),
                f"{equal.statistic:.2f} ({equal.df:.0f})" if not math.isnan(equal.p) else "–",
                p_cell(equal.p),
            ]
        )
    return Section(
        "seats",
        "Win rate per seat",
        [
            "Each seat's win rate per player count with 95 % intervals, and Pearson's "
            "chi-square test that every seat wins equally often (dashed: the rate over all "
            "seats)."
        ],
        [
            Plot(
                "seats",
                plots.rate_lines("Win rate per seat", "seat", "seats that win (%)", series),
                "Win rate of each seat per player count, with 95 % intervals.",
            )
        ],
        [
            Table(
                "Win rate per seat (95 % CI)",
                [
                    "players",
                    *(f"seat {k}" for k in range(max(counts, default=0))),
                    "chi² (df)",
                    "p (all equal)",
                ],
                rows,
            )
        ],
    )


def score_section(run: Run) -> Section | None:
    score = score_column(run)
    if score is None:
        return None
    players = run.players
    panels = []
    rows = []
    for n in run.counts:
        values = [
            float(players[score][q])
            for q in run.player_rows.get(n, [])
            if players[score][q] is not None
        ]
        panels.append((f"{n} players", [("all seats", plots.GOOD, values)]))
        won = [
            float(players[score][q])
            for q in run.player_rows.get(n, [])
            if players[score][q] is not None and players["won"][q]
        ]
        rows.append(
            [
                str(n),
                str(len(values)),
                mean_cell(mean_interval(values)),
                mean_cell(mean_interval(won)),
            ]
        )
    return Section(
        "score",
        f"Distribution of {score}",
        [f"Each seat's {score} at the end of the game, per player count."],
        [
            Plot(
                "score",
                plots.histograms(f"{score} at the end", score, panels),
                f"Distribution of the seats' {score} per player count (share of seats).",
            )
        ],
        [
            Table(
                f"{score} per seat (mean, 95 % CI)",
                ["players", "seats", "all seats", "winning seats"],
                rows,
            )
        ],
    )


def rounds_section(run: Run) -> Section | None:
    if "rounds" not in run.games:
        return None
    counts = run.counts
    rounds = {
        n: [float(r) for r in (run.games["rounds"][i] for i in run.games_of(n)) if r is not None]
        for n in counts
    }
    rows = [[str(n), str(len(rounds[n])), mean_cell(mean_interval(rounds[n]), 1)] for n in counts]
    return Section(
        "rounds",
        "Rounds per game",
        ["Rounds played per game, per player count."],
        [
            Plot(
                "rounds",
                plots.boxes(
                    "Rounds per game",
                    "player count",
                    "rounds",
                    [f"{n} players" for n in counts],
                    [rounds[n] for n in counts],
                ),
                "Rounds per game per player count: box from the lower to the upper quartile, "
                "line at the median, diamond at the mean.",
            )
        ],
        [Table("Rounds per game (mean, 95 % CI)", ["players", "games", "rounds"], rows)],
    )


def generic_sections(run: Run) -> list[Section | None]:
    return [seats_section(run), score_section(run), rounds_section(run)]


GENERIC = GameReport(generic_sections)


def report_for(game: str) -> GameReport:
    """The game's own part of the report (its registry entry's), or the generic one (also for
    a results folder of a game this version does not know)."""
    known = ENTRIES.get(game)
    path = known.report if known is not None else None
    found = GENERIC if path is None else load(path)
    if not isinstance(found, GameReport):
        raise TypeError(f"{game}'s report {path} is not a GameReport")
    return found
