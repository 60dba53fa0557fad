"""The figures of ``apokalypse tournament`` (:mod:`.tournament`): per spec the win rate with
Wilson's interval and the mean points or chips with a normal interval, the paired differences
(win rate, and points or chips) of each spec to the first over complete duplicate deals, the
belief measurement's ratio; the table printed from them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.table import Table

from apokalypse.sim.collect import figures_for
from apokalypse.sim.stats import mean_interval, wilson

if TYPE_CHECKING:
    from .tournament import Played

LABELS = "abcdefgh"


# --- the summary --------------------------------------------------------------------------------


def summarise(
    game: str, specs: Sequence[str], players: int, played: Sequence[Played]
) -> dict[str, Any]:
    """The figures per spec, the seats each spec sat in, and the paired difference of each spec
    to the first (spec ``a``) over the complete duplicate deals."""
    k = len(specs)
    ok = [p for p in played if p.error is None]
    per: list[dict[str, Any]] = []
    for i, spec in enumerate(specs):
        seats = wins = moves = 0
        seconds = 0.0
        scores: list[float] = []
        by_seat = [0] * players
        for p in ok:
            for q, who in enumerate(p.pairing.lineup):
                if who != i:
                    continue
                seats += 1
                by_seat[q] += 1
                wins += q in p.winners
                scores.append(p.scores[q])
                seconds += p.seconds[q]
                moves += p.moves[q]
        low, high = wilson(wins, seats)
        mean, mean_low, mean_high = mean_interval(scores)
        per.append(
            {
                "label": LABELS[i],
                "spec": spec,
                "games": sum(1 for p in ok if i in p.pairing.lineup),
                "seats": seats,
                "wins": wins,
                "win_rate": _r(wins / seats if seats else math.nan),
                "win_rate_ci95": [_r(low), _r(high)],
                "mean_score": _r(mean),
                "mean_score_ci95": [_r(mean_low), _r(mean_high)],
                "moves": moves,
                "seconds_per_move": _r(seconds / moves if moves else math.nan, 6),
                "seats_by_position": by_seat,
            }
        )
    deals: dict[int, list[Played]] = {}
    for p in played:
        deals.setdefault(p.pairing.deal, []).append(p)
    complete = [
        games for games in deals.values() if len(games) == k and all(g.error is None for g in games)
    ]
    differences = []
    for i in range(1, k):
        diffs = [_deal_rate(games, 0) - _deal_rate(games, i) for games in complete]
        mean, low, high = mean_interval(diffs)
        # the same pairing for the points or chips: Apokerlypse's measure of strength
        gains = [_deal_score(games, 0) - _deal_score(games, i) for games in complete]
        gain, gain_low, gain_high = mean_interval(gains)
        differences.append(
            {
                "a": specs[0],
                "b": specs[i],
                "labels": f"{LABELS[0]}-{LABELS[i]}",
                "win_rate_difference": _r(mean),
                "ci95": [_r(low), _r(high)],
                "score_difference": _r(gain),
                "score_ci95": [_r(gain_low), _r(gain_high)],
                "deals": len(diffs),
                "method": "normal approximation on per-deal differences (duplicate deals)",
                # each deal's seed and difference: runs over neighbouring seed ranges (one
                # machine after another) add up to the run over all of them
                "per_deal": [
                    [games[0].pairing.seed, _r(d)] for games, d in zip(complete, diffs, strict=True)
                ],
                "per_deal_score": [
                    [games[0].pairing.seed, _r(d)] for games, d in zip(complete, gains, strict=True)
                ],
            }
        )
    errors = [p for p in played if p.error is not None]
    return {
        "game": game,
        "players": players,
        "score": figures_for(game).points_title,
        "games": len(ok),
        "deals": len(deals),
        "errors": len(errors),
        "first_errors": [f"game {p.pairing.index}: {p.error}" for p in errors[:5]],
        "specs": per,
        "differences": differences,
    }


def _deal_rate(games: Sequence[Played], spec: int) -> float:
    """Spec ``spec``'s win rate over its seats in one deal's games."""
    seats = wins = 0
    for p in games:
        for q, who in enumerate(p.pairing.lineup):
            if who == spec:
                seats += 1
                wins += q in p.winners
    return wins / seats if seats else 0.0


def _deal_score(games: Sequence[Played], spec: int) -> float:
    """Spec ``spec``'s mean points or chips over its seats in one deal's games."""
    scores = [p.scores[q] for p in games for q, who in enumerate(p.pairing.lineup) if who == spec]
    return sum(scores) / len(scores) if scores else 0.0


def _r(value: float, digits: int = 4) -> float | None:
    return None if math.isnan(value) else round(value, digits)


def print_summary(data: dict[str, Any], console: Console) -> None:
    console.print(
        f"{data['game']}, {data['players']} players: {data['games']} games in {data['deals']}"
        f" duplicate deals, {data['errors']} errors, {data['seconds']:.1f} s"
    )
    table = Table(title="Per seat: win rate and mean, with 95 % intervals", box=box.SIMPLE)
    table.add_column("player", no_wrap=True)
    for head in ("seats", "win %", "95 % CI", data["score"], "95 % CI", "ms/move"):
        table.add_column(head, justify="right", no_wrap=True)
    for s in data["specs"]:
        low, high = s["win_rate_ci95"]
        mlow, mhigh = s["mean_score_ci95"]
        table.add_row(
            f"{s['label']}: {s['spec']}",
            str(s["seats"]),
            "–" if s["win_rate"] is None else f"{100 * s['win_rate']:.1f}",
            "–" if low is None else f"{100 * low:.1f}–{100 * high:.1f}",
            "–" if s["mean_score"] is None else f"{s['mean_score']:.2f}",
            "–" if mlow is None else f"{mlow:.2f}…{mhigh:.2f}",
            "–" if s["seconds_per_move"] is None else f"{1000 * s['seconds_per_move']:.2f}",
        )
    console.print(table)
    for d in data["differences"]:
        low, high = d["ci95"]
        value = d["win_rate_difference"]
        shown = (
            "–"
            if value is None or low is None
            else (f"{100 * value:+.1f} points (95 % CI {100 * low:+.1f} … {100 * high:+.1f})")
        )
        console.print(
            f"win rate {d['a']} − {d['b']}: {shown}, paired over {d['deals']} duplicate deals"
        )
        gain, (gain_low, gain_high) = d["score_difference"], d["score_ci95"]
        if gain is not None and gain_low is not None:
            console.print(
                f"{data['score']} {d['a']} − {d['b']}: {gain:+.2f} a seat"
                f" (95 % CI {gain_low:+.2f} … {gain_high:+.2f}), paired the same way"
            )
    for line in data["first_errors"]:
        console.print(f"[red]{line}[/red]", highlight=False)


def print_ladder(data: dict[str, Any], console: Console) -> None:
    """One line per step of the ladder: the upper level's win rate against the lower one's, at
    the same table, with the paired difference and the think time of each."""
    table = Table(
        title=f"{data['game']}, {data['players']} players: each level against the one below",
        box=box.SIMPLE,
    )
    for head in ("step", "games", "win % upper", "win % lower", "difference (points)",
                 "95 % CI", "ms/move upper", "ms/move lower"):  # fmt: skip
        table.add_column(head, justify="right", no_wrap=True)
    for step in data["ladder"]:
        upper, lower = step["specs"]
        (d,) = step["differences"]
        low, high = d["ci95"]
        value = d["win_rate_difference"]

        def rate(s: dict[str, Any]) -> str:
            return "–" if s["win_rate"] is None else f"{100 * s['win_rate']:.1f}"

        def ms(s: dict[str, Any]) -> str:
            seconds = s["seconds_per_move"]
            return "–" if seconds is None else f"{1000 * seconds:.1f}"

        table.add_row(
            f"{upper['spec']} − {lower['spec']}",
            str(step["games"]),
            rate(upper),
            rate(lower),
            "–" if value is None else f"{100 * value:+.1f}",
            "–" if low is None else f"{100 * low:+.1f} … {100 * high:+.1f}",
            ms(upper),
            ms(lower),
        )
    console.print(table)
    for step in data["ladder"]:
        for line in step["first_errors"]:
            console.print(f"[red]{line}[/red]", highlight=False)


def summarise_beliefs(
    game: str, players: int, measured: Sequence[tuple[int, float, float] | None]
) -> dict[str, Any]:
    kept = [m for m in measured if m is not None]
    ratios = [belief / prior for _, prior, belief in kept if prior > 0]
    mean, low, high = mean_interval(ratios)
    return {
        "game": game,
        "players": players,
        "bots": "heuristic",
        "games": len(measured),
        "measured": len(kept),
        "skipped": len(measured) - len(kept),
        "mean_prior": _r(sum(p for _, p, _ in kept) / len(kept) if kept else math.nan),
        "mean_belief": _r(sum(b for _, _, b in kept) / len(kept) if kept else math.nan),
        "mean_ratio": _r(mean),
        "ratio_ci95": [_r(low), _r(high)],
    }
