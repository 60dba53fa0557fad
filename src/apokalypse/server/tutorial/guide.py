"""What a guided game needs of its game: the lessons' topics in the coach's order, when each
comes due, the coach's preference among the legal moves, the moves' parts, and what its prepared
deal must show (:mod:`.apokalypse`, :mod:`.apokerlypse`; one :class:`Guide` each)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from apokalypse.engine.erased import Erased

# An action's parts and the learner's observation, as the wire sends them: JSON whose shape is
# the game's (each guide reads its own game's; the coach reads them for any game).
Parts = Mapping[str, Erased]
Observation = Mapping[str, Erased]


@dataclass
class Walk:
    """What the learner meets following the coach's suggestions: the lessons' topics in the
    order they first come up, the round of the first ride, the learner's decisions, the end."""

    topics: list[str] = field(default_factory=list)
    decisions: int = 0
    first_ride_round: int | None = None
    ethos: str | None = None
    won: bool = False
    points: int | None = None  # the learner's total at the end (where the result has totals)
    case: str | None = None  # how the game ended (Apokalypse: good, nobody, evil, shared-ethos)
    hand: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Guide:
    """One game's part of the guided game (the server's coach, :mod:`.tutor`, runs it for the
    learner; the page, ``web/src/tutorial/``, shows what it is sent)."""

    topics: tuple[str, ...]
    # the topics that matter now: (observation, the learner's legal parts, event kinds, seen)
    due: Callable[[Observation, Sequence[Parts], set[str], list[str]], list[str]]
    # the coach's preference for one legal move: (observation, its parts, the lesson shown)
    rank: Callable[[Observation, Parts, str | None], int]
    parts: Callable[[Erased], Parts]  # an action's parts, as the wire sends them
    checks: Callable[[Walk], list[str]]  # what this game's deal lacks (none: a good deal)
