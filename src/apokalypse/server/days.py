"""Games played over days: in a turn-based game each decision of a person has hours or days
(instead of the live timer's seconds), and when it runs out a computer player takes the seat
over until its person reclaims it. :class:`Days` is the same deadline policy as the live timer
(:class:`.clock.Deadline`), and its room treats both alike: one timer, one takeover.

The deadline of the deciding person's decision is kept in the game's log (a ``deadline`` entry,
UTC, written in the same transaction as the change that started the decision, and kept as
``games.deadline`` beside it), so that a game nobody has open holds no memory: the hub's sweep
(:meth:`apokalypse.server.hub.Hub.sweep`) finds the games whose deadline passed, loads them and
lets the computer take over. Who is timed is
internal: a viewer is shown the deciding seat's time left only where its own observation shows
that seat deciding (:func:`apokalypse.wire.seat.clock_view`), so in a window only the seat asked.

Time comes from one source, the hub's ``now`` (:data:`Now`), which a test may move forward.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from apokalypse.wire.seat import ClockReading

from .clock import At

HOUR = 3600.0
SHORTEST = HOUR  # the least a turn-based game gives each decision …
LONGEST = 14 * 24 * HOUR  # … and the most: two weeks

Now = Callable[[], datetime]  # the time, in UTC


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Days:
    """A turn-based game's deadline (a :class:`.clock.Deadline`): the person deciding, at which
    move, and until when (a date: kept in the store with the change that set it)."""

    limit: float  # seconds for each decision
    seat: int | None = None  # the person deciding now (None: nobody timed)
    move: int = -1
    due: datetime | None = None
    hidden: bool = False  # a window's decision (answered for them when it runs out)

    def follow(self, seat: int | None, move: int, at: At, hidden: bool) -> None:
        """The decision is now ``seat``'s at ``move`` (None: nobody's to time): a new decision
        gets the whole limit."""
        if (seat, move) == (self.seat, self.move):
            return
        self.seat, self.move, self.hidden = seat, move, hidden
        self.due = None if seat is None else at.now + timedelta(seconds=self.limit)

    def adopt(self, seat: int | None, move: int, due: datetime | None) -> None:
        """The decision and its deadline as the store has them (a rebuilt game, or a change
        another server process made)."""
        self.seat, self.move, self.due = seat, move, due if seat is not None else None

    def left(self, at: At) -> float | None:
        if self.seat is None or self.due is None:
            return None
        return max(0.0, (self.due - at.now).total_seconds())

    def reading(self, at: At, players: int) -> ClockReading:
        """The deadline at ``at`` as a clock without banks (the seat views show it)."""
        left = self.left(at) or 0.0
        return ClockReading(
            turn=self.limit,
            banks=(0.0,) * players,
            seat=self.seat,
            turn_left=left,
            remaining=left,
        )
