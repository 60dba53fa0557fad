"""One deadline policy (``apokalypse.server.clock.Deadline``): the live turn timer and turn-based
days are followed, read and run out the same way, and one takeover acts for both
(``LiveGame.run_out``), against a real store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from apokalypse.server import making
from apokalypse.server.clock import Clock
from apokalypse.server.days import Days
from apokalypse.server.store import Store

LIMITS = {"clock": 90.0, "days": 3600.0}  # the whole time of a first decision of each kind


class Time:
    """The game's two time sources, moved by the test: the timer's seconds and the date."""

    def __init__(self) -> None:
        self.seconds = 1000.0
        self.date = datetime(2030, 1, 1, tzinfo=UTC)

    def ticks(self) -> float:
        return self.seconds

    def now(self) -> datetime:
        return self.date

    def forward(self, seconds: float) -> None:
        self.seconds += seconds
        self.date += timedelta(seconds=seconds)


@pytest.mark.parametrize("kind", ["clock", "days"])
def test_a_person_whose_time_runs_out_is_taken_over_alike_by_either_deadline(
    kind: str, tmp_path: Path
) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    timer = (30.0, 60.0) if kind == "clock" else None  # a turn of 30 s and a bank of 60 s
    days = LIMITS["days"] if kind == "days" else None
    new = making.new_game("apokalypse", 2, ["human", "human"], [], "en", timer, days)
    time = Time()
    live = making.create(store, new, now=time.now, ticks=time.ticks)
    assert isinstance(live.timer, Clock if kind == "clock" else Days)
    seat, move = live.state.to_act, live.state.move
    assert live.timer.seat == seat and not live.timer.hidden
    assert live.deadline() == time.seconds + LIMITS[kind]

    time.forward(LIMITS[kind] - 1)
    assert not live.run_out(store, move), "a second left: nothing happens"
    assert live.timer.left(live.at()) == 1.0 and seat not in live.away
    reading = live.table(frozenset()).clock
    assert reading is not None and reading.seat == seat and reading.remaining == 1.0

    time.forward(1)
    assert not live.run_out(store, move + 1), "a timer of another move changes nothing"
    assert live.run_out(store, move), "the time is out: the one takeover"
    assert seat in live.away and live.computer_to_act()
    assert store.table(live.id).away == {seat}, "kept in the game's log"
    assert live.timer.seat is None and live.deadline() is None, "a stand-in is not timed"
    if kind == "days":  # the sweep's index follows the log: nobody is timed now
        assert store.table(live.id).due is None and store.overdue(time.now(), 10) == []
