"""The cards section of an Apokalypse report: how often each role and each card is played from
hand, and the association of playing it with winning, within the same player count and ethos.
An association, not a cause: the text says so."""

from __future__ import annotations

import math
from collections.abc import Sequence

from apokalypse.sim import plots
from apokalypse.sim.plots import Rate
from apokalypse.sim.stats import Test, mean_interval, stratified_proportions

from .model import Plot, Run, Section, Table, p_cell, pct, points_cell, rate, rate_cell


def _association(run: Run, played: Sequence[int | None]) -> tuple[float, float, Rate, Rate, Test]:
    """How often a card kind is played, and winning when played at least once against not:
    (mean played per player-game, share of player-games playing it, win rate when played,
    when not, the difference within each player count and ethos, averaged)."""
    players = run.players
    won, ethos = players["won"], players["ethos"]
    strata = []
    for n in run.counts:
        for side in ("good", "evil"):
            rows = [
                q for q in run.player_rows.get(n, []) if played[q] is not None and ethos[q] == side
            ]
            yes = rate(won[q] for q in rows if played[q])
            no = rate(won[q] for q in rows if not played[q])
            strata.append((yes.wins, yes.n, no.wins, no.n))
    known = [v for v in played if v is not None]
    yes = Rate(sum(s[0] for s in strata), sum(s[1] for s in strata))
    no = Rate(sum(s[2] for s in strata), sum(s[3] for s in strata))
    mean = sum(known) / len(known) if known else math.nan
    share = yes.n / len(known) if known else math.nan
    return mean, share, yes, no, stratified_proportions(strata)


def cards(run: Run) -> Section:
    players = run.players
    roles = [c for c in players.names if c.startswith("played_")]
    role_rows, role_tests = [], []
    for column in roles:
        mean, share, yes, no, test = _association(run, players[column])
        role_tests.append(test)
        role_rows.append(_card_row(_role(column), mean, share, yes, no, test))
    by_code: list[dict[str, int]] = [dict(m) if m is not None else {} for m in players["played"]]
    codes = sorted({c for m in by_code for c in m})
    code_rows = []
    code_tests: list[tuple[str, Test]] = []
    for code in codes:
        mean, share, yes, no, test = _association(run, [m.get(code, 0) for m in by_code])
        code_tests.append((code, test))
        code_rows.append(_card_row(code, mean, share, yes, no, test))
    # the table in the plot's order: the strongest positive association first
    order = sorted(range(len(codes)), key=lambda i: -_sortable(code_tests[i][1].difference))
    code_rows = [code_rows[i] for i in order]
    code_tests = [code_tests[i] for i in order]
    counts = run.counts
    frequency = [
        (
            f"{n} players",
            [
                mean_interval(
                    [
                        float(v)
                        for v, p in zip(players[c], players["players"], strict=True)
                        if p == n and v is not None
                    ]
                )
                for c in roles
            ],
        )
        for n in counts
    ]
    head = [
        "kind",
        "played per player-game",
        "played at least once",
        "win rate when played",
        "win rate when not",
        "difference (points, same count and ethos)",
        "p",
    ]
    section = Section(
        "cards",
        "Cards played and winning",
        [
            "How often a player plays each kind of card from hand in a game, and the "
            "association of playing it at least once with winning: the win rate of player-games "
            "that played it against those that did not. The difference is taken within each "
            "player count and final ethos and then averaged (weighted by player-games): a good "
            "seat wins more often and plays other cards than an evil one, and that alone must "
            "not show as an association of the cards.",
            "This is an association, not a cause: a player who is winning, or of a given ethos, "
            "may simply get to play some cards more often.",
        ],
    )
    if roles:
        section.plots.append(
            Plot(
                "cards_played",
                plots.mean_bars(
                    "Cards played from hand, by role",
                    "card role",
                    "cards played per player-game (mean)",
                    [_role(c) for c in roles],
                    frequency,
                    size=(10.0, 4.5),
                ),
                "Mean number of cards of each role a player plays from hand in a game, per "
                "player count, with 95 % intervals.",
            )
        )
        section.plots.append(
            Plot(
                "cards_roles",
                plots.differences(
                    "Win rate when played at least once minus when not, by role",
                    "difference in win rate (percentage points, 95 % CI)",
                    [_role(c) for c in roles],
                    [(100 * t.difference, 100 * t.low, 100 * t.high) for t in role_tests],
                ),
                "Association of playing a card role at least once with winning, within the same "
                "player count and ethos, with 95 % intervals.",
            )
        )
        section.tables.append(Table("Card roles (played_* columns)", head, role_rows))
    if codes:
        ordered = code_tests
        section.plots.append(
            Plot(
                "cards_codes",
                plots.differences(
                    "Win rate when played at least once minus when not, by card",
                    "difference in win rate (percentage points, 95 % CI)",
                    [c for c, _ in ordered],
                    [(100 * t.difference, 100 * t.low, 100 * t.high) for _, t in ordered],
                ),
                "Association of playing a card (by code) at least once with winning, within the "
                "same player count and ethos, with 95 % intervals; sorted by the difference.",
            )
        )
        section.tables.append(Table("Cards by code (played map)", head, code_rows))
    return section


def _card_row(name: str, mean: float, share: float, yes: Rate, no: Rate, test: Test) -> list[str]:
    return [
        name,
        "–" if math.isnan(mean) else f"{mean:.2f}",
        pct(share),
        rate_cell(yes),
        rate_cell(no),
        points_cell(test),
        p_cell(test.p),
    ]


def _role(column: str) -> str:
    return column.removeprefix("played_").replace("_", " ")


def _sortable(value: float) -> float:
    return -math.inf if math.isnan(value) else value
