"""The summary of a ``simulate`` run: counts common to every game, per-bot seats, wins and
average score, and each game's own figures (Apokalypse: how games ended and wins by ethos;
Apokerlypse: rounds per game and how games ended)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .safe import printable

FIRST_ERRORS = 5  # errors the summary shows


class Finished(Protocol):
    """What the summary needs of a finished game (:class:`~.simulate.Outcome`)."""

    index: int
    seed: int
    bots: tuple[str, ...]
    decisions: int
    result: dict[str, Any] | None
    error: str | None


class GameStats:
    """A game's own figures. ``score`` names the per-seat number averaged per bot."""

    score = "score"
    score_title = "average score"

    def seat_score(self, result: dict[str, Any], seat: int) -> int:
        return 0

    def add(self, result: dict[str, Any], bots: tuple[str, ...]) -> None:
        return None

    def to_json(self) -> dict[str, Any]:
        return {}

    def print(self, console: Console, data: dict[str, Any]) -> None:
        return None


def _count_table(title: str, head: str, counts: dict[str, int]) -> Table:
    table = Table(title=title)
    table.add_column(head)
    table.add_column("games", justify="right")
    for name, count in counts.items():
        table.add_row(name, str(count))
    return table


class ApokalypseStats(GameStats):
    score = "avg_total"
    score_title = "average total"

    def __init__(self) -> None:
        self.cases: dict[str, int] = {}
        self.ethos: dict[str, list[int]] = {}  # ethos -> [seats, wins]

    def seat_score(self, result: dict[str, Any], seat: int) -> int:
        return int(result["totals"][seat])

    def add(self, result: dict[str, Any], bots: tuple[str, ...]) -> None:
        self.cases[result["case"]] = self.cases.get(result["case"], 0) + 1
        for q in range(len(bots)):
            e = self.ethos.setdefault(result["ethos"][q], [0, 0])
            e[0] += 1
            e[1] += 1 if q in result["winners"] else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "cases": dict(sorted(self.cases.items())),
            "ethos": {
                name: {"seats": s, "wins": w, "win_rate": round(w / s, 4)}
                for name, (s, w) in sorted(self.ethos.items())
            },
        }

    def print(self, console: Console, data: dict[str, Any]) -> None:
        ethos = Table(title="Wins by ethos")
        for col in ("ethos", "seats", "wins", "win rate"):
            ethos.add_column(col, justify="left" if col == "ethos" else "right")
        for name, e in data["ethos"].items():
            ethos.add_row(name, str(e["seats"]), str(e["wins"]), f"{e['win_rate']:.1%}")
        console.print(ethos)
        console.print(_count_table("How games ended", "case", data["cases"]))


class ApokerlypseStats(GameStats):
    score = "avg_chips"
    score_title = "average chips"

    def __init__(self) -> None:
        self.rounds: list[int] = []
        self.endings: dict[str, int] = {}

    def seat_score(self, result: dict[str, Any], seat: int) -> int:
        return int(result["chips"][seat])

    def add(self, result: dict[str, Any], bots: tuple[str, ...]) -> None:
        self.rounds.append(result["rounds"])
        self.endings[result["reason"]] = self.endings.get(result["reason"], 0) + 1

    def to_json(self) -> dict[str, Any]:
        r = self.rounds
        return {
            "rounds": {
                "average": round(sum(r) / len(r), 3) if r else None,
                "min": min(r, default=None),
                "max": max(r, default=None),
            },
            "endings": dict(sorted(self.endings.items())),
        }

    def print(self, console: Console, data: dict[str, Any]) -> None:
        r = data["rounds"]
        if r["average"] is not None:
            console.print(f"rounds per game: {r['average']:.2f} on average, {r['min']}–{r['max']}")
        console.print(_count_table("How games ended", "ending", data["endings"]))


STATS: dict[str, type[GameStats]] = {
    "apokalypse": ApokalypseStats,
    "apokerlypse": ApokerlypseStats,
}


@dataclass
class Summary:
    game: str
    games: int = 0
    errors: int = 0
    decisions: int = 0
    bots: dict[str, list[int]] = field(default_factory=dict)  # name -> [seats, score, wins]
    stats: GameStats = field(init=False)
    # (game index, line) of the errors of the lowest game indices, at most FIRST_ERRORS
    _errors: list[tuple[int, str]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.stats = STATS.get(self.game, GameStats)()

    def add(self, o: Finished) -> None:
        self.games += 1
        self.decisions += o.decisions
        if o.error is not None or o.result is None:
            self.errors += 1
            self._note_error(o.index, f"game {o.index} (seed {o.seed}): {o.error}")
            return
        r = o.result
        self.stats.add(r, o.bots)
        for q, name in enumerate(o.bots):
            b = self.bots.setdefault(name, [0, 0, 0])
            b[0] += 1
            b[1] += self.stats.seat_score(r, q)
            b[2] += 1 if q in r["winners"] else 0

    def _note_error(self, index: int, line: str) -> None:
        """Keep the errors of the first games by index, not by arrival: games come back from
        worker processes in any order, and the summary must not depend on it."""
        self._errors.append((index, line))
        self._errors.sort()
        del self._errors[FIRST_ERRORS:]

    @property
    def first_errors(self) -> list[str]:
        return [line for _, line in self._errors]

    def to_json(self, seconds: float, args: dict[str, Any]) -> dict[str, Any]:
        key = self.stats.score
        return {
            **args,
            "games": self.games,
            "errors": self.errors,
            "decisions": self.decisions,
            "seconds": round(seconds, 3),
            "decisions_per_sec": round(self.decisions / seconds, 1) if seconds > 0 else None,
            **self.stats.to_json(),
            "bots": {
                name: {"seats": s, key: round(t / s, 3), "wins": w, "win_rate": round(w / s, 4)}
                for name, (s, t, w) in sorted(self.bots.items())
            },
            "first_errors": self.first_errors,
        }

    def print(self, data: dict[str, Any]) -> None:
        console = Console()
        head = (
            f"{data['games']} games, {data['errors']} errors, {data['decisions']} decisions in"
            f" {data['seconds']:.2f} s ({data['decisions_per_sec'] or 0:,.0f}/s)"
        )
        console.print(head)
        key = self.stats.score
        bots = Table(title="Computer players")
        for col in ("bot", "seats", self.stats.score_title, "wins", "win rate"):
            bots.add_column(col, justify="left" if col == "bot" else "right")
        for name, b in data["bots"].items():
            bots.add_row(name, str(b["seats"]), f"{b[key]:.2f}", str(b["wins"]),
                         f"{b['win_rate']:.1%}")  # fmt: skip
        console.print(bots)
        self.stats.print(console, data)
        for line in data["first_errors"]:
            console.print(Text("error", style="red") + Text(f" {printable(line)}"))
