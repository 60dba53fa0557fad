"""The Apokerlypse sections of a report, after the generic ones (seats, chips, rounds): each
faction's win rate against its fair share, the cards held at a final scoring and winning, and
how long games last; and what ``--compare`` tests between two contents.

A designer balancing a content reads them for three questions: does a faction (its ability and
action chips, K-SETUP-2, K-SCORE-5) win more than its share; does a card (its effect) go with
winning more than the others; do games last a sensible number of dealer rounds (4–12)?

Every rate comes with Wilson's 95 % interval. The seats of one game are not independent (one
wins, the others lose), so the tests on seats are approximate: their p-values are somewhat too
small. Ties share a win (KD-END-1): each tied seat counts as a winner, so the rates at a player
count add up to a little more than 100 %.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from apokalypse.games.apokerlypse.cards import CODES, FACTIONS
from apokalypse.sim import plots
from apokalypse.sim.collect.apokerlypse import LONGEST, SHORTEST
from apokalypse.sim.plots import Rate
from apokalypse.sim.stats import (
    Test,
    chi_square_equal,
    mean_interval,
    stratified_proportions,
    two_proportions,
)

from .generic import generic_sections
from .model import GameReport, Plot, Run, Section, Table, p_cell, pct, points_cell, rate, rate_cell

FAIR_MARGIN = 0.04  # a faction further than 4 points from its fair share is marked
CARD_MARGIN = 0.10  # a card whose holders win 10 points more is marked
# the suits' colours: ♠ military, ♥ civilians, ♦ plunderers, ♣ zombies (K-SETUP-1)
FACTION_COLOURS = {
    "military": "#3b3b3b",
    "civilians": "#c0392b",
    "plunderers": "#e08a1e",
    "zombies": "#2e8b57",
}
SUIT_SIGNS = dict(zip(FACTIONS, "♠♥♦♣", strict=True))


def sections(run: Run) -> list[Section | None]:
    return [*generic_sections(run), factions(run), cards_held(run), length(run)]


# --- the rates ``--compare`` tests ----------------------------------------------------------------


class RateOfFaction:
    """A faction's win rate at a player count: the share of its seats that won."""

    def __init__(self, faction: str) -> None:
        self.faction = faction

    def __call__(self, run: Run, n: int) -> Rate:
        if "faction" not in run.players:
            return Rate(0, 0)
        players = run.players
        faction, won = players["faction"], players["won"]
        return rate(won[q] for q in run.player_rows.get(n, []) if faction[q] == self.faction)


def in_length(run: Run, n: int) -> Rate:
    """The share of games that end within 4–12 dealer rounds."""
    if "rounds" not in run.games:
        return Rate(0, 0)
    rounds = run.games["rounds"]
    return rate(
        None if rounds[i] is None else SHORTEST <= rounds[i] <= LONGEST for i in run.games_of(n)
    )


def compared(a: Run, b: Run) -> list[Plot]:
    """Each faction's win rate in run B minus run A, per player count."""
    if "faction" not in a.players or "faction" not in b.players:
        return []
    labels, values = [], []
    for n in [n for n in a.counts if n in b.counts]:
        for faction in FACTIONS:
            of = RateOfFaction(faction)
            ra, rb = of(a, n), of(b, n)
            test = two_proportions(rb.wins, rb.n, ra.wins, ra.n)
            labels.append(f"{SUIT_SIGNS[faction]} {faction}, {n} players")
            values.append((100 * test.difference, 100 * test.low, 100 * test.high))
    if not labels:
        return []
    return [
        Plot(
            "compare_factions",
            plots.differences(
                "Faction win rate, run B minus run A",
                "difference in win rate (percentage points, 95 % CI)",
                labels,
                values,
            ),
            "Each faction's win rate in run B minus run A per player count, with 95 % intervals.",
        )
    ]


REPORT = GameReport(
    sections,
    [
        *((f"{faction}: its seats that win", RateOfFaction(faction)) for faction in FACTIONS),
        (f"games of {SHORTEST}–{LONGEST} rounds", in_length),
    ],
    compared,
)


# --- the factions -------------------------------------------------------------------------------


def factions(run: Run) -> Section | None:
    players = run.players
    if "faction" not in players or not any(f is not None for f in players["faction"]):
        return None
    counts = run.counts
    won, faction = players["won"], players["faction"]
    abilities: list[int | None] = (
        players["abilities"] if "abilities" in players else [None] * len(players)
    )
    rates: dict[str, list[Rate]] = {f: [] for f in FACTIONS}
    rows, marked, equal_rows = [], [], []
    for n in counts:
        fair = 1 / n
        by_faction = []
        for f in FACTIONS:
            seats = [q for q in run.player_rows.get(n, []) if faction[q] == f]
            r = rate(won[q] for q in seats)
            rates[f].append(r)
            by_faction.append(r)
            used = [float(a) for q in seats if (a := abilities[q]) is not None]
            off = r.n > 0 and abs(r.value - fair) > FAIR_MARGIN
            if off:
                marked.append(f"{f} at {n} players ({pct(r.value)})")
            rows.append(
                [
                    str(n),
                    f"{SUIT_SIGNS[f]} {f}",
                    str(r.n),
                    rate_cell(r),
                    pct(fair),
                    _off_cell(r, fair) if r.n else "–",
                    f"{mean_interval(used)[0]:.2f}" if used else "–",
                ]
            )
        equal = chi_square_equal([r.wins for r in by_faction], [r.n for r in by_faction])
        equal_rows.append(
            [
                str(n),
                f"{equal.statistic:.2f} ({equal.df:.0f})" if not math.isnan(equal.p) else "–",
                p_cell(equal.p),
            ]
        )
    text = [
        "Each faction's win rate per player count: the share of the seats it held that won, "
        "with 95 % intervals, against its fair share (1 / players). A faction further than "
        f"{100 * FAIR_MARGIN:.0f} points from its fair share is marked; the chi² test asks "
        "whether the factions at a player count win equally often. Tied seats each count as a "
        "winner (KD-END-1), so the rates add up to a little more than 100 %.",
        "Marked: " + "; ".join(marked) + "."
        if marked
        else f"No faction is further than {100 * FAIR_MARGIN:.0f} points from its fair share.",
    ]
    plot = Plot(
        "factions",
        plots.rate_bars(
            "Win rate per faction",
            "player count (dashed: the fair share, 1 / players)",
            [f"{n} players" for n in counts],
            [(f"{SUIT_SIGNS[f]} {f}", FACTION_COLOURS[f], rates[f]) for f in FACTIONS],
            ylabel="seats of the faction that win (%)",
            references=[1 / n for n in counts],
        ),
        "Win rate of each faction per player count with 95 % intervals; the dashed line is "
        "the fair share.",
    )
    table = Table(
        "Win rate per faction and player count (95 % CI)",
        [
            "players",
            "faction",
            "seats",
            "win rate",
            "fair share",
            "from fair share (points)",
            "abilities used per game",
        ],
        rows,
    )
    same = Table("Do the factions win equally often?", ["players", "chi² (df)", "p"], equal_rows)
    return Section("factions", "Factions", text, [plot], [table, same])


def _off_cell(r: Rate, fair: float) -> str:
    off = r.value - fair
    mark = ""
    if off > FAIR_MARGIN:
        mark = " ▲ above"
    elif off < -FAIR_MARGIN:
        mark = " ▼ below"
    return f"{100 * off:+.1f}{mark}"


# --- the cards held -----------------------------------------------------------------------------


def cards_held(run: Run) -> Section | None:
    """For each card, winning when it was in the seat's hand at a final scoring at least once
    in the game, against when it never was: the difference within each player count, pooled."""
    players = run.players
    if "held" not in players:
        return None
    won, held_lists = players["won"], players["held"]
    known = {
        n: [q for q in rows if held_lists[q] is not None] for n, rows in run.player_rows.items()
    }
    if not any(known.values()):
        return None  # a results folder from before the column: nothing to say
    held = [set(h) if h is not None else set() for h in held_lists]
    found: list[tuple[str, float, Rate, Rate, Test]] = []
    for code in CODES:
        strata = []
        for n in run.counts:
            rows = known.get(n, [])
            yes = rate(won[q] for q in rows if code in held[q])
            no = rate(won[q] for q in rows if code not in held[q])
            strata.append((yes.wins, yes.n, no.wins, no.n))
        yes = Rate(sum(s[0] for s in strata), sum(s[1] for s in strata))
        no = Rate(sum(s[2] for s in strata), sum(s[3] for s in strata))
        share = yes.n / (yes.n + no.n) if yes.n + no.n else math.nan
        found.append((code, share, yes, no, stratified_proportions(strata)))
    found.sort(key=lambda f: -_sortable(f[4].difference))
    strong = [f[0] for f in found if f[4].difference > CARD_MARGIN]
    table_rows = [
        [
            code,
            pct(share),
            rate_cell(yes),
            rate_cell(no),
            points_cell(test) + (" ▲" if test.difference > CARD_MARGIN else ""),
            p_cell(test.p),
        ]
        for code, share, yes, no, test in found
    ]
    shown = [len(h) for h, q in zip(held, held_lists, strict=True) if q is not None]
    text = [
        "For each of the 52 cards, the win rate of a player who held it at a final scoring "
        "(K-SCORE-1) at least once in the game against one who never did, compared within the "
        "same player count and pooled (weighted by player-games). Sorted by the difference; a "
        f"card above +{100 * CARD_MARGIN:.0f} points is marked ▲.",
        "This is an association, not a cause: a player who reaches many final scorings holds "
        "many cards, and strong cards (aces, the card bonus of K-SCORE-3) go with winning "
        "whatever their effect. Compare a card with the cards of its rank, and a content with "
        "the plain one (--compare), to see its effect. On average a seat held "
        f"{sum(shown) / len(shown):.1f} different cards at its final scorings in a game."
        if shown
        else "",
        "Marked (above +10 points): " + ", ".join(strong) + "."
        if strong
        else f"No card is above +{100 * CARD_MARGIN:.0f} points.",
    ]
    plot = Plot(
        "cards_held",
        plots.differences(
            "Win rate when held at a final scoring minus when not, by card",
            "difference in win rate (percentage points, 95 % CI)",
            [f[0] for f in found],
            [(100 * f[4].difference, 100 * f[4].low, 100 * f[4].high) for f in found],
        ),
        "Association of holding a card at a final scoring at least once in a game with "
        "winning, within the same player count, with 95 % intervals; sorted by the difference.",
    )
    table = Table(
        "Cards held at a final scoring and winning",
        [
            "card",
            "held in (share of player-games)",
            "win rate when held",
            "win rate when not",
            "difference (points, same count)",
            "p",
        ],
        table_rows,
    )
    return Section("cards", "Cards held and winning", [t for t in text if t], [plot], [table])


def _sortable(value: float) -> float:
    return -math.inf if math.isnan(value) else value


# --- how long games last ------------------------------------------------------------------------


def length(run: Run) -> Section | None:
    if "rounds" not in run.games:
        return None
    rows, panels = [], []
    for n in run.counts:
        values = sorted(
            int(r) for r in (run.games["rounds"][i] for i in run.games_of(n)) if r is not None
        )
        if not values:
            continue
        q1, median, q3 = quartiles(values)
        within = in_length(run, n)
        rows.append(
            [
                str(n),
                str(len(values)),
                f"{sum(values) / len(values):.1f}",
                f"{q1:g}",
                f"{median:g}",
                f"{q3:g}",
                f"{values[0]}–{values[-1]}",
                rate_cell(within),
            ]
        )
        panels.append((f"{n} players", [("games", plots.GOOD, [float(v) for v in values])]))
    return Section(
        "length",
        "Game length",
        [
            "Dealer rounds per game per player count: mean, quartiles, the range, and the share "
            f"of games ending within {SHORTEST}–{LONGEST} rounds (95 % interval)."
        ],
        [
            Plot(
                "length",
                plots.histograms("Dealer rounds per game", "rounds", panels),
                "Distribution of the dealer rounds per game per player count (share of games).",
            )
        ],
        [
            Table(
                "Dealer rounds per game",
                [
                    "players",
                    "games",
                    "mean",
                    "lower quartile",
                    "median",
                    "upper quartile",
                    "range",
                    f"{SHORTEST}–{LONGEST} rounds",
                ],
                rows,
            )
        ],
    )


def quartiles(values: Sequence[int]) -> tuple[float, float, float]:
    """The quartiles of sorted values, interpolated between ranks (as NumPy's default)."""

    def at(share: float) -> float:
        position = share * (len(values) - 1)
        low = math.floor(position)
        high = min(low + 1, len(values) - 1)
        return values[low] + (values[high] - values[low]) * (position - low)

    return at(0.25), at(0.5), at(0.75)
