"""A round's tally, as data: the scoring effects each player resolved (:class:`Mods`), each
player's final score (:class:`ScoreLine`) and the game's result (:class:`Result`).

Data only, as :mod:`.table` is: the rules that make them (:mod:`.scoring`, :mod:`.effects`)
import this module, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import codes
from .content import StructureKind
from .observation import EndReason, ResultView, ScoreView
from .poker import CATEGORIES


class Mods(NamedTuple):
    """Resolved scoring effects of one player this round (K-SCORE-4/6): they never change again.
    ``structure`` is (kind, card, value): category-up (-1, steps), set-suit/set-rank (card, to)."""

    structure: tuple[StructureKind, int, int] | None = None
    multiplier: int = 1
    doubled: frozenset[int] = frozenset()
    extra: int = 0  # hand-limit effects: cards kept above five
    shielded: bool = False  # KD-EFFECT-2: others' card effects pass this player by


NO_MODS = Mods()


class ScoreLine(NamedTuple):
    """One player's final score of a round: (base + bonus) × multiplier (K-SCORE-2/3/6)."""

    seat: int
    category: int
    base: int
    bonus: int
    multiplier: int
    total: int
    best: tuple[int, ...]  # the five cards that make the hand

    def view(self) -> ScoreView:
        """The form in the observation and in ``score`` events."""
        return {
            "seat": self.seat,
            "category": CATEGORIES[self.category],
            "base": self.base,
            "bonus": self.bonus,
            "multiplier": self.multiplier,
            "total": self.total,
            "best": codes(self.best),
        }


@dataclass(frozen=True)
class Result:
    """K-END-1: the most chips win; KD-END-1: ties share the win. ``reason`` is "no-chips"
    (somebody ran out, K-END-1) or "nobody-can-pay" (the cost outgrew every stack)."""

    winners: tuple[int, ...]
    chips: tuple[int, ...]
    rounds: int
    reason: EndReason

    def to_json(self) -> dict[str, object]:
        return dict(self.view())

    def view(self) -> ResultView:
        """The form in the observation and in the ``game-over`` event."""
        return {
            "winners": list(self.winners),
            "chips": list(self.chips),
            "rounds": self.rounds,
            "reason": self.reason,
        }
