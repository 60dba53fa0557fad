"""Games played over days: in a turn-based game each decision of a person has hours or days
(instead of the live timer's seconds), and when it runs out a computer player takes the seat
over until its person reclaims it, as with the live timer (a window's question is answered for
them, the seat kept).

The deadline of the deciding person's decision is kept in the store (``games.deadline``, UTC,
written in the same transaction as the action that started the decision), so that a game nobody
has open holds no memory: the hub's sweep (:meth:`apokalypse.server.hub.Hub.sweep`) finds the
games whose deadline passed, loads them and lets the computer take over. Who is timed is
internal: a viewer is shown the deciding seat's time left only where its own observation shows
that seat deciding (:func:`apokalypse.wire.seat.clock_view`), so in a window only the seat asked.

Time comes from one source, the hub's ``now`` (:data:`Now`), which a test may move forward.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from apokalypse.wire.seat import ClockReading

HOUR = 3600.0
SHORTEST = HOUR  # the least a turn-based game gives each decision …
LONGEST = 14 * 24 * HOUR  # … and the most: two weeks
META = "turn_based"  # the record's meta key: {"seconds": per decision}

Now = Callable[[], datetime]  # the time, in UTC


def utc_now() -> datetime:
    return datetime.now(UTC)


def limit_of(meta: Mapping[str, object]) -> float | None:
    """The seconds each decision has in a turn-based game; None for any other game."""
    turn_based = meta.get(META)
    if isinstance(turn_based, dict) and isinstance(turn_based.get("seconds"), int | float):
        return float(turn_based["seconds"])
    return None


@dataclass
class Days:
    """A turn-based game's deadline: the person deciding, at which move, and until when."""

    limit: float  # seconds for each decision
    seat: int | None = None  # the person deciding now (None: nobody timed)
    move: int = -1
    due: datetime | None = None

    def follow(self, seat: int | None, move: int, now: datetime) -> bool:
        """The decision is now ``seat``'s at ``move`` (None: nobody's to time); whether the
        deadline changed (a new decision gets the whole limit)."""
        if (seat, move) == (self.seat, self.move):
            return False
        self.seat, self.move = seat, move
        due = None if seat is None else now + timedelta(seconds=self.limit)
        changed = due != self.due
        self.due = due
        return changed

    def adopt(self, seat: int | None, move: int, due: datetime | None) -> None:
        """The decision and its deadline as the store has them (a rebuilt game, or a change
        another server process made)."""
        self.seat, self.move, self.due = seat, move, due if seat is not None else None

    def overdue(self, now: datetime) -> bool:
        return self.seat is not None and self.due is not None and self.due <= now

    def reading(self, now: datetime, players: int) -> ClockReading:
        """The deadline at ``now`` as a clock without banks (the seat views show it)."""
        left = 0.0
        if self.seat is not None and self.due is not None:
            left = max(0.0, (self.due - now).total_seconds())
        return ClockReading(
            turn=self.limit,
            banks=(0.0,) * players,
            seat=self.seat,
            turn_left=left,
            remaining=left,
        )
