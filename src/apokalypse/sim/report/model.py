"""What a report is made of (sections of text, plots and tables) and what it reads (a run's
finished games and their players, column by column), with the number formats of its tables."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from apokalypse.sim.plots import Mean, Rate
from apokalypse.sim.stats import Test


@dataclass(frozen=True)
class Table:
    caption: str
    head: Sequence[str]
    rows: Sequence[Sequence[str]]
    note: str = ""  # a paragraph shown before the table


@dataclass(frozen=True)
class Plot:
    name: str  # the PNG's file name, without ".png"
    png: bytes
    caption: str  # also the image's alternative text


@dataclass
class Section:
    anchor: str
    title: str
    text: list[str] = field(default_factory=list)  # paragraphs, plain text
    plots: list[Plot] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


@dataclass
class Report:
    title: str
    sections: list[Section]

    @property
    def plots(self) -> list[Plot]:
        return [p for s in self.sections for p in s.plots]


class Columns:
    """A table's columns as Python lists, each converted once, when first asked for."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table
        self._read: dict[str, list[Any]] = {}

    def __len__(self) -> int:
        return int(self.table.num_rows)

    def __contains__(self, name: str) -> bool:
        return name in self.table.column_names

    def __getitem__(self, name: str) -> list[Any]:
        if name not in self._read:
            self._read[name] = self.table.column(name).to_pylist()
        return self._read[name]

    @property
    def names(self) -> list[str]:
        return list(self.table.column_names)


@dataclass
class Run:
    """One results folder, as the report reads it: the finished games (a failed game has no
    statistics, only its error) and their players."""

    folder: Path
    manifest: dict[str, Any]
    games: Columns
    players: Columns
    errors: list[tuple[int, str]]  # (game index, error) of the failed games
    played: int  # games in the folder, failed ones included

    @classmethod
    def of(cls, folder: Path, manifest: dict[str, Any], games: pa.Table, players: pa.Table) -> Run:
        failed = games.filter(pc.invert(pc.is_null(games.column("error"))))
        finished = games.filter(pc.is_null(games.column("error")))
        kept = players.filter(pc.is_in(players.column("game"), value_set=finished.column("game")))
        errors = [
            (int(g or 0), str(e))  # a game row always has its index
            for g, e in zip(
                failed.column("game").to_pylist(), failed.column("error").to_pylist(), strict=True
            )
        ]
        return cls(folder, manifest, Columns(finished), Columns(kept), errors, games.num_rows)

    @property
    def game(self) -> str:
        return str(self.manifest.get("game", "?"))

    @property
    def label(self) -> str:
        """How the report names the run: its folder and its variants."""
        variants = self.manifest.get("variants") or []
        shown = ", ".join(str(v) for v in variants) if variants else "no variant"
        return f"{self.folder.name} ({shown})"

    @property
    def counts(self) -> list[int]:
        """The player counts the run's finished games have, in order."""
        return sorted(set(self.games["players"]))

    def games_of(self, players: int) -> list[int]:
        """The rows of the finished games with this many players."""
        return [i for i, p in enumerate(self.games["players"]) if p == players]

    @cached_property
    def player_rows(self) -> dict[int, list[int]]:
        """The player rows of the finished games, by player count."""
        rows: dict[int, list[int]] = {}
        for q, n in enumerate(self.players["players"]):
            rows.setdefault(n, []).append(q)
        return rows

    @cached_property
    def game_row(self) -> list[int]:
        """For each player row, the row of its game."""
        where = {g: i for i, g in enumerate(self.games["game"])}
        return [where[g] for g in self.players["game"]]


# --- number formats -----------------------------------------------------------------------------


RateOf = Callable[[Run, int], Rate]  # a run's rate at a player count


@dataclass(frozen=True)
class GameReport:
    """A game's own part of the report, which its registry entry names: its sections (after
    the run's and the comparison's, before the computer players'), and the rates ``--compare``
    tests between two runs besides the mean score and rounds."""

    sections: Callable[[Run], Sequence[Section | None]]
    rates: Sequence[tuple[str, RateOf]] = ()
    # the game's own plots of ``--compare`` (run A, run B), after the generic one
    compared: Callable[[Run, Run], Sequence[Plot]] | None = None


def pct(value: float, digits: int = 1) -> str:
    return "–" if math.isnan(value) else f"{100 * value:.{digits}f} %"


def rate_cell(rate: Rate) -> str:
    """ "52.3 % (49.1–55.4)": the rate with its 95 % interval."""
    if rate.n == 0:
        return "–"
    low, high = rate.interval
    return f"{100 * rate.value:.1f} % ({100 * low:.1f}–{100 * high:.1f})"


def mean_cell(mean: Mean, digits: int = 2) -> str:
    value, low, high = mean
    if math.isnan(value):
        return "–"
    if math.isnan(low):
        return f"{value:.{digits}f}"
    # "…", not "–": an interval from -4.70 to -3.26 stays readable
    return f"{value:.{digits}f} ({low:.{digits}f} … {high:.{digits}f})"


def points_cell(test: Test) -> str:
    """A difference of rates in percentage points, with its interval where it has one."""
    if math.isnan(test.difference):
        return "–"
    shown = f"{100 * test.difference:+.1f}"
    if not math.isnan(test.low):
        shown += f" ({100 * test.low:+.1f} … {100 * test.high:+.1f})"
    return shown


def p_cell(p: float) -> str:
    if math.isnan(p):
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def rate(flags: Iterable[bool | None]) -> Rate:
    """The share of true flags among the known ones (null: not counted)."""
    known = [f for f in flags if f is not None]
    return Rate(sum(1 for f in known if f), len(known))
