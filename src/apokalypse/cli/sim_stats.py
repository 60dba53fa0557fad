"""The summary of a ``simulate`` run: counts common to every game, per-bot seats, wins and
average score, and each game's own figures (:class:`~apokalypse.sim.collect.Figures`, named by
the game's registry entry: Apokalypse's how games ended and wins by ethos, Apokerlypse's rounds
per game and how games ended, and its factions' win rates). Every figure counts the columns the
game's collector takes from a result, or its whole rows where the figures ask for them
(``Figures.rows``), so the summary, the results tables and the report count alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.console import Console
from rich.table import Table
from rich.text import Text

from apokalypse.sim.collect import Collector, Figures, collector_for, figures_for

from .safe import printable

FIRST_ERRORS = 5  # errors the summary shows


class Finished(Protocol):
    """What the summary needs of a finished game (:class:`~.simulate.Outcome`)."""

    index: int
    seed: int
    bots: tuple[str, ...]
    decisions: int
    result: dict[str, Any] | None
    rows: tuple[dict[str, Any], list[dict[str, Any]]] | None  # the collector's, where collected
    error: str | None


@dataclass
class Summary:
    game: str
    games: int = 0
    errors: int = 0
    decisions: int = 0
    bots: dict[str, list[int]] = field(default_factory=dict)  # name -> [seats, score, wins]
    stats: Figures = field(init=False)
    collector: type[Collector] = field(init=False)
    # (game index, line) of the errors of the lowest game indices, at most FIRST_ERRORS
    _errors: list[tuple[int, str]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.stats = figures_for(self.game)()
        self.collector = collector_for(self.game)

    def add(self, o: Finished) -> None:
        self.games += 1
        self.decisions += o.decisions
        if o.error is not None or o.result is None:
            self.errors += 1
            self._note_error(o.index, f"game {o.index} (seed {o.seed}): {o.error}")
            return
        winners = o.result["winners"]
        if self.stats.rows and o.rows is not None:  # read, never changed: the tables hold them
            game, seats = o.rows
        else:
            game, seats = self.collector.outcome(o.result, len(o.bots))
            for q, seat in enumerate(seats):  # the runner's common column, as the tables hold it
                seat["won"] = q in winners
        self.stats.add(game, seats)
        for name, seat in zip(o.bots, seats, strict=True):
            b = self.bots.setdefault(name, [0, 0, 0])
            b[0] += 1
            b[1] += self.stats.seat_score(seat)
            b[2] += 1 if seat["won"] else 0

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
        key = self.stats.score_key
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
        key = self.stats.score_key
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
