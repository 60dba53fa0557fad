"""The one deadline policy of a game in play (:class:`Deadline`), and the live turn timer
(:class:`Clock`): each decision of a person gets its turn's seconds, then draws on that
person's time bank. A turn-based game's days are the other kind (:class:`.days.Days`).

Whichever kind a game has, its room treats it alike: the game follows each decision
(:meth:`Deadline.follow`), the room winds one timer for the time :meth:`Deadline.left`, and when
it rings the same takeover acts (``LiveGame.run_out``): a window's question answered for the
person, the seat kept; any other decision to a stand-in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from apokalypse.wire.seat import ClockReading

# The seconds a game's turn timer counts in: ``time.monotonic`` unless the hub was given another
# (``Hub.clock``: a test moves its own instead of waiting a turn out).
Ticks = Callable[[], float]


@dataclass(frozen=True)
class At:
    """A moment as a deadline reads it: by the turn timer's seconds (``ticks``, a live clock
    counts them) and by the calendar (``now``, UTC: a turn-based deadline is a date, kept in the
    store)."""

    ticks: float
    now: datetime


class Deadline(Protocol):
    """A game's deadline policy: whose decision is timed, and when their time runs out."""

    @property
    def seat(self) -> int | None:
        """The person deciding now (None: nobody is timed)."""

    @property
    def hidden(self) -> bool:
        """Whether that decision is a window's (only the seat asked may learn who is asked)."""

    def follow(self, seat: int | None, move: int, at: At, hidden: bool) -> None:
        """The decision is now ``seat``'s at ``move`` (None: nobody's to time), from ``at``."""

    def left(self, at: At) -> float | None:
        """The seconds the deciding person has left at ``at`` (0: run out); None: nobody."""

    def reading(self, at: At, players: int) -> ClockReading:
        """The deadline at ``at`` as the seat views show a clock."""


@dataclass
class Clock:
    """A game's turn timer: each decision of a person gets ``turn`` seconds, then draws on that
    person's time bank; when both are spent a computer player takes the seat over (it is
    away) until its person reclaims it. Kept in the memory of the process serving the game:
    after a restart every bank is full again.

    A decision in a defence or block window (``hidden``: nobody but the seat asked may learn
    who that is) gets the turn's time only and never draws on the bank: a bank that shrank
    would tell everyone later who was asked and how long they thought (R-INFO-3). When that
    time is spent, a computer player answers that one question and the person keeps the seat
    (marking them away would name them too)."""

    turn: float
    banks: list[float]  # seconds left in each seat's bank
    seat: int | None = None  # the person deciding now
    move: int = -1  # the move they are deciding at
    started: float = 0.0  # when that decision began (LiveGame.ticks)
    hidden: bool = False  # a window's decision: no bank

    def follow(self, seat: int | None, move: int, at: At, hidden: bool) -> None:
        """The decision is now ``seat``'s at ``move`` (None: nobody's to time): charge the
        decision that ended to its person's bank and start the new one's clock."""
        if (seat, move) == (self.seat, self.move):
            return
        now = at.ticks
        if self.seat is not None and not self.hidden:
            over = now - self.started - self.turn
            self.banks[self.seat] = max(0.0, self.banks[self.seat] - max(0.0, over))
        self.seat, self.move, self.started, self.hidden = seat, move, now, hidden

    def deadline(self) -> float | None:
        """When (by LiveGame.ticks) the deciding person's time runs out."""
        if self.seat is None:
            return None
        return self.started + self.turn + (0.0 if self.hidden else self.banks[self.seat])

    def left(self, at: At) -> float | None:
        deadline = self.deadline()
        return None if deadline is None else max(0.0, deadline - at.ticks)

    def reading(self, at: At, players: int) -> ClockReading:
        """The clock at ``at``, for the seat views (:func:`apokalypse.wire.seat.clock_view`)."""
        now, deadline = at.ticks, self.deadline()
        return ClockReading(
            turn=self.turn,
            banks=tuple(self.banks),
            seat=self.seat,
            turn_left=max(0.0, self.started + self.turn - now) if self.seat is not None else 0.0,
            remaining=max(0.0, deadline - now) if deadline is not None else 0.0,
        )
