"""The one collector: a game's events turned into the rows of the results tables (:mod:`..schema`).

One :class:`Collector` per game, in the worker that plays it. It is told every event in order,
the opening included, and at the end it hands back the game's own columns: one row for the game,
one per seat. Nothing else in the lab computes statistics, so the tables, the report, the
``simulate`` and ``tournament`` summaries and the published figures all count the same way: the
summaries read the columns a collector takes from a result (:meth:`Collector.outcome`), and
each game's :class:`Figures` count those.

It sees whole events, secret parts too (the front of a populace laid face down): it is the
analysis after the fact, like a replay's omniscient view, and nothing of it reaches a player
during a game. From the states it reads only what is settled before the first decision (the
dealt ethos, the first startup player, the deck) and, at the end, what the result states.

It must be cheap, a small fraction of a random playout: ``add`` dispatches on ``event.kind``
through one dict of small functions, skips the kinds it does not need (deal, shelter, refill …)
and only bumps counters; everything derived (by role, by side, sums) waits for ``finish``.

Each game's collector and figures live in a module of their own here (``apokalypse.py``,
``apokerlypse.py``), named by the game's registry entry (``engine/registry.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import pyarrow as pa
from rich.console import Console
from rich.table import Table

from apokalypse.engine.events import Event
from apokalypse.engine.protocol import GameState
from apokalypse.engine.registry import ENTRIES, Entry, load

Row = dict[str, Any]


def _schema(columns: list[pa.Field[Any]]) -> pa.Schema:
    """``pa.schema`` of fields of mixed types (typed ``Field[Any]`` for the type checker)."""
    return pa.schema(columns)


def _int16s(*names: str) -> list[pa.Field[Any]]:
    return [pa.field(name, pa.int16()) for name in names]


class Collector:
    """The collector of a game without statistics of its own: no columns; every game's common
    columns are the runner's. Subclasses keep this interface (the runner knows nothing else)."""

    game_schema: ClassVar[pa.Schema] = pa.schema([])  # the game's own game columns, in order
    player_schema: ClassVar[pa.Schema] = pa.schema([])  # the game's own player columns
    # what ``add`` does with each kind of event (a subclass's own table, filled below it)
    _handlers: ClassVar[Mapping[str, Callable[[Any, Event], None]]] = {}

    def __init__(self, state: GameState) -> None:
        """``state``: the new game, before its opening. Every registered game's state carries
        its config, whose ``players`` (GameConfig) is the number of seats."""
        self.players: int = getattr(getattr(state, "config", None), "players", 0)

    @staticmethod
    def outcome(result: Mapping[str, Any], players: int) -> tuple[Row, list[Row]]:
        """The columns that come from the result alone (its JSON, ``GameResult.to_json``, as
        records and the runner keep it): a part of the game row and of each seat's row. The
        ``simulate`` and ``tournament`` summaries count these, ``finish`` writes them."""
        return {}, [{} for _ in range(players)]

    def add(self, events: Sequence[Event]) -> None:
        """Every event of the game, in order, the opening included: each kind that counts goes
        to its small function in ``_handlers``; the others are skipped."""
        handler_of = self._handlers.get
        for event in events:
            handler = handler_of(event.kind)
            if handler is not None:
                handler(self, event)

    def finish(self, state: GameState) -> tuple[Row, list[Row]]:
        """The game's own game columns, and its own player columns per seat (seat order)."""
        return {}, [{} for _ in range(self.players)]


class Figures:
    """A game's own figures in the ``simulate`` summary, counted from the columns of
    :meth:`Collector.outcome`, and the score a tournament compares. This base counts nothing.

    ``score`` names the per-seat column averaged per bot (``None``: no score), ``score_key``
    and ``score_title`` how the summary shows it; ``points`` is the column a tournament
    averages and ``points_title`` its name there."""

    score: ClassVar[str | None] = None
    # True: ``add`` counts the collector's whole rows (:meth:`Collector.finish`, the result's
    # columns among them), so ``simulate`` collects them for every game, --out or not
    rows: ClassVar[bool] = False
    score_key: ClassVar[str] = "score"
    score_title: ClassVar[str] = "average score"
    points: ClassVar[str | None] = None
    points_title: ClassVar[str] = "score"

    @classmethod
    def seat_score(cls, seat: Row) -> int:
        return 0 if cls.score is None else int(seat[cls.score])

    @classmethod
    def seat_points(cls, seat: Row) -> float:
        return 0.0 if cls.points is None else float(seat[cls.points])

    def add(self, game: Row, seats: Sequence[Row]) -> None:
        """One finished game's columns from :meth:`Collector.outcome` (with ``rows``, the
        collector's rows where the run has them)."""
        return None

    def to_json(self) -> dict[str, object]:
        return {}

    def print(self, console: Console, data: Mapping[str, Any]) -> None:
        return None


def count_table(title: str, head: str, counts: Mapping[str, int]) -> Table:
    """A table of how many games each value counts (how games ended …)."""
    table = Table(title=title)
    table.add_column(head)
    table.add_column("games", justify="right")
    for name, count in counts.items():
        table.add_row(name, str(count))
    return table


P = TypeVar("P")  # a game's own part: a subclass of the base one


def _own_or(base: type[P], game: str, path: Callable[[Entry], str | None]) -> type[P]:
    """A registered game's own subclass of ``base`` where its entry names one (``path``), else
    ``base`` (also for a name the registry does not know)."""
    known = ENTRIES.get(game)
    named = path(known) if known is not None else None
    found = base if named is None else load(named)
    if not (isinstance(found, type) and issubclass(found, base)):
        raise TypeError(f"{game}'s {named} is not a {base.__name__}")
    return found


def collector_for(game: str) -> type[Collector]:
    """The collector of a registered game: its own, or the base one (no columns of its own)."""
    return _own_or(Collector, game, lambda entry: entry.collector)


def figures_for(game: str) -> type[Figures]:
    """The figures of a registered game's run summary: its own, or the base ones."""
    return _own_or(Figures, game, lambda entry: entry.summary)
