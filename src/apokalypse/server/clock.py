"""A game's turn timer (:class:`Clock`): each decision of a person gets its turn's seconds, then
draws on that person's time bank."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from apokalypse.wire.seat import ClockReading

# The seconds a game's turn timer counts in: ``time.monotonic`` unless the hub was given another
# (``Hub.clock``: a test moves its own instead of waiting a turn out).
Ticks = Callable[[], float]


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

    def follow(self, seat: int | None, move: int, now: float, hidden: bool) -> None:
        """The decision is now ``seat``'s at ``move`` (None: nobody's to time): charge the
        decision that ended to its person's bank and start the new one's clock."""
        if (seat, move) == (self.seat, self.move):
            return
        if self.seat is not None and not self.hidden:
            over = now - self.started - self.turn
            self.banks[self.seat] = max(0.0, self.banks[self.seat] - max(0.0, over))
        self.seat, self.move, self.started, self.hidden = seat, move, now, hidden

    def deadline(self) -> float | None:
        """When (by LiveGame.ticks) the deciding person's time runs out."""
        if self.seat is None:
            return None
        return self.started + self.turn + (0.0 if self.hidden else self.banks[self.seat])

    def reading(self, now: float) -> ClockReading:
        """The clock at ``now``, for the seat views (:func:`apokalypse.wire.seat.clock_view`)."""
        deadline = self.deadline()
        return ClockReading(
            turn=self.turn,
            banks=tuple(self.banks),
            seat=self.seat,
            turn_left=max(0.0, self.started + self.turn - now) if self.seat is not None else 0.0,
            remaining=max(0.0, deadline - now) if deadline is not None else 0.0,
        )
