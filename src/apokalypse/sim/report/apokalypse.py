"""The Apokalypse sections of a report: good against evil, victory points, rounds and horsemen,
deaths, the start player's advantage, and the cards played (:mod:`.cards`).

Every rate comes with Wilson's 95 % interval; every mean with its normal interval. The seats of
one game are not independent (the good players win or lose together), so the tests on seats are
approximate: their p-values are somewhat too small.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from apokalypse.sim import plots
from apokalypse.sim.plots import EVIL, GOOD, NOBODY, Mean, Rate
from apokalypse.sim.stats import chi_square_equal, mean_interval, two_proportions

from .cards import cards
from .model import (
    GameReport,
    Plot,
    Run,
    Section,
    Table,
    mean_cell,
    p_cell,
    points_cell,
    rate,
    rate_cell,
)

HORSEMEN = (1, 2, 3, 4)


def mixed(run: Run, row: int) -> bool:
    """Whether both ethos sat at the table at the end (else R-END-6: one shared ethos)."""
    good, evil = run.games["good_seats"][row], run.games["evil_seats"][row]
    return bool(good) and bool(evil)


def sections(run: Run) -> list[Section | None]:
    return [
        good_against_evil(run),
        victory_points(run),
        rounds_and_horsemen(run),
        deaths(run),
        seats(run),
        cards(run),
    ]


# --- the rates ``--compare`` tests ----------------------------------------------------------------


def good_side(run: Run, n: int) -> Rate:
    """The share of games won by the good side, among the games with both ethos (R-END-4)."""
    both = [i for i in run.games_of(n) if mixed(run, i)]
    return rate(run.games["case"][i] == "good" for i in both)


def shared(run: Run, n: int) -> Rate:
    """The share of all games in which everybody shares one ethos at the end (R-END-6)."""
    return rate(not mixed(run, i) for i in run.games_of(n))


def nobody(run: Run, n: int) -> Rate:
    """The share of all games that nobody wins (R-END-4, R-END-6)."""
    return rate(run.games["case"][i] == "nobody" for i in run.games_of(n))


REPORT = GameReport(
    sections,
    [
        ("good side wins (games with both ethos)", good_side),
        ("one shared ethos (R-END-6)", shared),
        ("nobody wins", nobody),
    ],
)


# --- good against evil --------------------------------------------------------------------------


def good_against_evil(run: Run) -> Section:
    games, players = run.games, run.players
    case = games["case"]
    counts = run.counts
    side: dict[int, tuple[Rate, Rate, Rate]] = {}
    rows, shared_rows, seat_rows = [], [], []
    seat_good: dict[int, Rate] = {}
    seat_evil: dict[int, Rate] = {}
    game_row = run.game_row
    for n in counts:
        rows_n = run.games_of(n)
        both = [i for i in rows_n if mixed(run, i)]
        alone = [i for i in rows_n if not mixed(run, i)]
        good, evil, nobody = (rate(case[i] == c for i in both) for c in ("good", "evil", "nobody"))
        side[n] = (good, evil, nobody)
        rows.append(
            [
                str(n),
                str(len(rows_n)),
                str(len(both)),
                rate_cell(good),
                rate_cell(evil),
                rate_cell(nobody),
                rate_cell(rate(case[i] == "nobody" for i in rows_n)),
            ]
        )
        if alone:
            all_good = sum(1 for i in alone if not games["evil_seats"][i])
            shared_rows.append(
                [
                    str(n),
                    f"{len(alone)} of {len(rows_n)}",
                    rate_cell(Rate(len(alone), len(rows_n))),
                    f"{all_good} / {len(alone) - all_good}",
                    rate_cell(rate(case[i] == "shared-ethos" for i in alone)),
                    rate_cell(rate(case[i] == "nobody" for i in alone)),
                ]
            )
        # the seat's view: a good or an evil seat's chance to win, in games of both ethos
        seated = [q for q in run.player_rows.get(n, []) if mixed(run, game_row[q])]
        by_ethos = {
            (column, ethos): rate(players["won"][q] for q in seated if players[column][q] == ethos)
            for column in ("ethos", "ethos_dealt")
            for ethos in ("good", "evil")
        }
        seat_good[n], seat_evil[n] = by_ethos["ethos", "good"], by_ethos["ethos", "evil"]
        seat_rows.append(
            [
                str(n),
                f"{seat_good[n].n} / {seat_evil[n].n}",
                rate_cell(seat_good[n]),
                rate_cell(seat_evil[n]),
                rate_cell(by_ethos["ethos_dealt", "good"]),
                rate_cell(by_ethos["ethos_dealt", "evil"]),
            ]
        )
    # the dealt ethos is worth its columns only where a seat's ethos changed in some game
    changed = players["ethos"] != players["ethos_dealt"]
    if not changed:
        seat_rows = [row[:4] for row in seat_rows]
    groups = [f"{n} players" for n in counts]
    section = Section(
        "good-evil",
        "Good against evil",
        [
            "Games with both ethos at the table at the end: good wins together when the good "
            "populaces are the majority and the good totals add up to more than the evil ones "
            "(R-END-4); otherwise evil rules and the best evil total wins (R-END-5), or nobody "
            "wins. Rates are shares of games with 95 % Wilson intervals.",
            "A seat's view: the chance that a seat of a given ethos is among the winners. "
            "Several good seats win together, so a good seat's chance can exceed the good "
            "side's share of games divided by the number of good seats.",
        ],
    )
    section.plots.append(
        Plot(
            "good_evil",
            plots.rate_bars(
                "Who wins the game (games with both ethos)",
                "player count",
                groups,
                [
                    ("good side wins", GOOD, [side[n][0] for n in counts]),
                    ("evil wins", EVIL, [side[n][1] for n in counts]),
                    ("nobody wins", NOBODY, [side[n][2] for n in counts]),
                ],
                ylabel="share of games (%)",
            ),
            "Share of games won by the good side, by evil, and by nobody, per player count "
            "(games with both ethos at the end), with 95 % intervals.",
        )
    )
    section.plots.append(
        Plot(
            "seat_ethos",
            plots.rate_bars(
                "A seat's chance to win, by its final ethos",
                "player count",
                groups,
                [
                    ("good seat", GOOD, [seat_good[n] for n in counts]),
                    ("evil seat", EVIL, [seat_evil[n] for n in counts]),
                ],
                ylabel="seats that win (%)",
            ),
            "Win rate of a seat by its final ethos, per player count (games with both ethos), "
            "with 95 % intervals.",
        )
    )
    section.tables.append(
        Table(
            "Games won by each side (games with both ethos at the end; the last column counts "
            "all games)",
            [
                "players",
                "games",
                "both ethos",
                "good side wins",
                "evil wins",
                "nobody wins",
                "nobody wins, all games",
            ],
            rows,
        )
    )
    section.tables.append(
        Table(
            "A seat's chance to win, by its ethos (games with both ethos at the end)",
            [
                "players",
                "good / evil seats",
                "good seat wins",
                "evil seat wins",
                "dealt good, wins",
                "dealt evil, wins",
            ][: len(seat_rows[0]) if seat_rows else 4],
            seat_rows,
        )
    )
    section.tables.append(split_table(run))
    if shared_rows:
        section.tables.append(
            Table(
                "Games with one shared ethos (R-END-6)",
                [
                    "players",
                    "games",
                    "share of games",
                    "all good / all evil",
                    "someone wins",
                    "nobody wins",
                ],
                shared_rows,
                "Games in which everybody shares one ethos at the end (possible with 2 or 3 "
                "players, R-END-6) are shown apart: the best total wins if its ethos has the "
                "majority of the populaces, else nobody wins.",
            )
        )
    return section


def split_table(run: Run) -> Table:
    """Who wins by the ethos split at the table: whether a side's numbers decide the game."""
    case, good_seats = run.games["case"], run.games["good_seats"]
    rows = []
    for n in run.counts:
        both = [i for i in run.games_of(n) if mixed(run, i)]
        for good in sorted({good_seats[i] for i in both}):
            split = [i for i in both if good_seats[i] == good]
            rows.append(
                [
                    str(n),
                    f"{good} good / {n - good} evil",
                    str(len(split)),
                    rate_cell(rate(case[i] == "good" for i in split)),
                    rate_cell(rate(case[i] == "evil" for i in split)),
                ]
            )
    return Table(
        "Games won by each side, by the ethos split (games with both ethos at the end)",
        ["players", "seats", "games", "good side wins", "evil wins"],
        rows,
        "The same games split by how many seats each side has: whether the side with more "
        "players wins more often.",
    )


# --- victory points -----------------------------------------------------------------------------


def victory_points(run: Run) -> Section:
    players = run.players
    counts = run.counts
    panels = []
    rows = []
    for n in counts:
        by_ethos = {
            ethos: [
                float(t)
                for t, p, e in zip(
                    players["total"], players["players"], players["ethos"], strict=True
                )
                if p == n and e == ethos and t is not None
            ]
            for ethos in ("good", "evil")
        }
        panels.append(
            (f"{n} players", [("good", GOOD, by_ethos["good"]), ("evil", EVIL, by_ethos["evil"])])
        )
        for ethos, values in by_ethos.items():
            if values:
                ordered = sorted(values)
                rows.append(
                    [
                        str(n),
                        ethos,
                        str(len(values)),
                        mean_cell(mean_interval(values)),
                        f"{ordered[len(ordered) // 2]:.0f}",
                        f"{ordered[0]:.0f} … {ordered[-1]:.0f}",
                    ]
                )
    return Section(
        "victory-points",
        "Victory points",
        [
            "Each seat's total at the end (R-END-2: its reckoning scores and its horseman cards), "
            "by its final ethos; every finished game."
        ],
        [
            Plot(
                "totals",
                plots.histograms("Victory points (total) by ethos", "total (points)", panels),
                "Distribution of the seats' totals, good and evil seats apart, per player count "
                "(share of that ethos's seats).",
            )
        ],
        [
            Table(
                "Totals by final ethos",
                ["players", "ethos", "seats", "mean (95 % CI)", "median", "range"],
                rows,
            )
        ],
    )


# --- rounds and horsemen ------------------------------------------------------------------------


def _values(column: Sequence[int | None], rows: Sequence[int]) -> list[float]:
    return [float(column[i]) for i in rows if column[i] is not None]  # type: ignore[arg-type]


def rounds_and_horsemen(run: Run) -> Section:
    games = run.games
    counts = run.counts
    rounds = {n: _values(games["rounds"], run.games_of(n)) for n in counts}
    arrivals: dict[int, list[Mean]] = {}
    rows = []
    for n in counts:
        rows_n = run.games_of(n)
        arrivals[n] = []
        cells = []
        for k in HORSEMEN:
            values = _values(games[f"horseman{k}_round"], rows_n)
            arrivals[n].append(mean_interval(values))
            never = len(rows_n) - len(values)
            cells.append(mean_cell(arrivals[n][-1], 1) + (f", {never} never" if never else ""))
        ordered = sorted(rounds[n])
        rows.append(
            [
                str(n),
                str(len(rows_n)),
                mean_cell(mean_interval(rounds[n]), 1),
                f"{ordered[len(ordered) // 2]:.0f}" if ordered else "–",
                f"{ordered[0]:.0f}–{ordered[-1]:.0f}" if ordered else "–",
                *cells,
            ]
        )
    return Section(
        "rounds",
        "Rounds and horsemen",
        [
            "Rounds per game (a round starts with a round-start event), and the round in which "
            "each horseman rode (R-HORSE), as means with 95 % intervals."
        ],
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
            ),
            Plot(
                "horsemen",
                plots.mean_lines(
                    "When the horsemen ride",
                    "horseman",
                    "round (mean, 95 % CI)",
                    [f"horseman {k}" for k in HORSEMEN],
                    [(f"{n} players", arrivals[n]) for n in counts],
                ),
                "The mean round in which each horseman rode, per player count, with 95 % "
                "intervals.",
            ),
        ],
        [
            Table(
                "Rounds per game and the round each horseman arrives (mean, 95 % CI)",
                [
                    "players",
                    "games",
                    "rounds",
                    "median",
                    "range",
                    *(f"horseman {k}" for k in HORSEMEN),
                ],
                rows,
            )
        ],
    )


# --- deaths -------------------------------------------------------------------------------------


def deaths(run: Run) -> Section:
    games = run.games
    counts = run.counts
    means = {
        n: [mean_interval(_values(games[f"deaths{k}"], run.games_of(n))) for k in HORSEMEN]
        for n in counts
    }
    rows = [[str(n), *(mean_cell(m) for m in means[n])] for n in counts]
    return Section(
        "deaths",
        "Deaths per horseman",
        [
            "Populaces killed by each horseman in a game, all displays together (means with "
            "95 % intervals)."
        ],
        [
            Plot(
                "deaths",
                plots.mean_bars(
                    "Populaces killed per horseman",
                    "horseman",
                    "populaces killed per game (mean)",
                    [f"horseman {k}" for k in HORSEMEN],
                    [(f"{n} players", [means[n][k - 1] for k in HORSEMEN]) for n in counts],
                ),
                "Mean number of populaces each horseman killed per game, per player count, "
                "with 95 % intervals.",
            )
        ],
        [
            Table(
                "Populaces killed per game (mean, 95 % CI)",
                ["players", *(f"horseman {k}" for k in HORSEMEN)],
                rows,
            )
        ],
    )


# --- seats and the start player -----------------------------------------------------------------


def seats(run: Run) -> Section:
    games, players = run.games, run.players
    game_row = run.game_row
    counts = run.counts
    series = []
    rows = []
    for n in counts:
        wins, seats_n = [0] * n, [0] * n
        for q in run.player_rows.get(n, []):
            g = game_row[q]
            if games["startup"][g] is None:
                continue
            position = (players["seat"][q] - games["startup"][g]) % n  # R-SETUP-6, R-TURN-1
            seats_n[position] += 1
            wins[position] += bool(players["won"][q])
        rates = [Rate(w, s) for w, s in zip(wins, seats_n, strict=True)]
        equal = chi_square_equal(wins, seats_n)
        first = two_proportions(wins[0], seats_n[0], sum(wins[1:]), sum(seats_n[1:]))
        overall = Rate(sum(wins), sum(seats_n))
        series.append((f"{n} players", list(range(n)), rates, overall.value))
        rows.append(
            [
                str(n),
                *(rate_cell(r) for r in rates),
                *([""] * (max(counts) - n)),
                points_cell(first),
                p_cell(first.p),
                f"{equal.statistic:.2f} ({equal.df:.0f})" if not math.isnan(equal.p) else "–",
                p_cell(equal.p),
            ]
        )
    return Section(
        "seats",
        "Seat and start-player advantage",
        [
            "A seat's win rate by its position after the first startup player (0 = the startup "
            "player, R-SETUP-6; then clockwise, R-TURN-1). The dashed lines are each player "
            "count's rate over all seats: a fair game keeps every position on its line.",
            "Tests: the startup seat against the others (two-proportion z-test), and all "
            "positions against one common rate (Pearson's chi-square). The seats of a game are "
            "not independent (a good side wins together), so the p-values are approximate.",
        ],
        [
            Plot(
                "seats",
                plots.rate_lines(
                    "Win rate by position after the startup player",
                    "position after the first startup player (0 = startup)",
                    "seats that win (%)",
                    series,
                ),
                "Win rate per position after the first startup player, per player count, with "
                "95 % intervals; dashed: the player count's rate over all seats.",
            )
        ],
        [
            Table(
                "Win rate by position after the startup player (95 % CI)",
                [
                    "players",
                    *(f"position {k}" for k in range(max(counts, default=0))),
                    "startup − others (points)",
                    "p",
                    "chi² (df)",
                    "p (all equal)",
                ],
                rows,
            )
        ],
    )
