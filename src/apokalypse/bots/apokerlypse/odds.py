"""Chances and prices before the reveal: how likely a total wins the pot, what the pot will be,
and what taking part is worth.

Win chance is a product over the others still in the round: against a hand this seat knows (a
peek) the comparison is exact; otherwise it is the share of :func:`.hands.field` the total beats.
The pot estimates count this seat's own payment and a likely share of the others' payments still
to come (K-ROUND-3/4), so that "pay c to win p with chance w" is simply ``w × p > c``.
"""

from __future__ import annotations

from .hands import Table, beat_chance, field
from .view import View

# Share of the others still to decide who are expected to pay: they take part in phase 3 more
# often than not, and draw in phase 2 about half the time.
PART_RATE = 0.8
DRAW_RATE = 0.5


class Odds:
    """Win chance of a total against the others still in the round, cached per total."""

    def __init__(self, view: View) -> None:
        self.exact: list[int] = []
        self.fields: list[tuple[int, ...]] = []
        table: Table = view.table
        for q in view.others():
            hand = view.hand_of(q)
            if hand is not None:
                self.exact.append(view.scorer(q)(hand))
            else:
                self.fields.append(field(table, view.stage(q)))
        self._cache: dict[int, float] = {}

    def win(self, points: int) -> float:
        w = self._cache.get(points)
        if w is None:
            w = 1.0
            for other in self.exact:
                w *= 1.0 if points > other else 0.5 if points == other else 0.0
            for dist in self.fields:
                w *= beat_chance(points, dist)
            self._cache[points] = w
        return w


def stake_pot(view: View) -> float:
    """The pot at the showdown, seen before phase 2: this seat's phase-3 payment, the phase-3
    payments of the others, and the phase-2 payments of those still to decide on it."""
    c = view.cost
    pot = float(view.pot + c)
    for q in view.others():
        if view.chips[q] >= c:
            pot += PART_RATE * c
            if view.stage(q) == 8:
                pot += DRAW_RATE * c
    return pot


def participation_pot(view: View, everyone: bool = False) -> float:
    """The pot at the showdown, seen in phase 3: this seat's payment and those still to come
    (``everyone``: all the others, before phase 3 begins)."""
    c = view.cost
    pot = float(view.pot + c)
    for q in view.others() if everyone else view.after_me():
        if view.chips[q] >= c:
            pot += PART_RATE * c
    return pot


def showdown(win: float, pot: float, cost: int, free: bool) -> float:
    """What reaching phase 3 with chance ``win`` is worth: take part if it pays (free when the
    seat cannot pay the cost, KD-ROUND-1), otherwise drop out and lose nothing more."""
    return win * pot if free else max(0.0, win * pot - cost)


def ending(view: View) -> bool:
    """The game ends after this round (K-END-1: somebody has no chips; or nobody can pay)."""
    return bool(view.obs["last_round"]) or 0 in view.chips


def safe_lead(view: View) -> bool:
    """In the last round, this seat stays the chip leader whoever takes the pot: no reason to
    risk another chip in it."""
    if not ending(view):
        return False
    me = view.seat
    c = view.cost
    prize = view.pot + sum(min(view.chips[q], 2 * c) for q in view.others())
    return all(view.chips[me] > view.chips[q] + prize for q in range(view.n) if q != me)
