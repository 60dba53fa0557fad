"""Who must decide what next: one small immutable value per kind of decision.

The state holds a *flow* value (where the round stands: a phase step for one seat) and a stack of
*effect* frames on top of it (an effect's target or card choice, a block window), in the manner of
TAG's extended sequences. An effect interrupts the flow; when its frames are gone the flow
carries on where it stood. Being immutable, all of them are shared by clones.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, get_args

from .content import Effect

# Steps of a dealer round, in order (K-ROUND-2 … K-ROUND-4, K-SCORE).
DRAW_1, DISCARD_1, STAKE_2, DISCARD_2, PARTICIPATE, SCORING = range(6)
StepName = Literal["draw-1", "discard-1", "draw-2", "discard-2", "participate", "scoring"]
STEP_NAMES: tuple[StepName, ...] = get_args(StepName)

# The observation's ``decision``: what the seat to act decides. The flow's: discard (both discard
# steps), stake (phase 2), participate (phase 3), scoring; ``""`` stands for draw-1, which nobody
# decides. An effect's frames: block-window, choose-target, choose-card.
Decision = Literal[
    "",
    "discard",
    "stake",
    "participate",
    "scoring",
    "block-window",
    "choose-target",
    "choose-card",
    "over",
]


class Flow(NamedTuple):
    """The round's progress: ``step`` for the seat at ``pos`` in the step's order (from the
    dealer's left; in the scoring, the evaluation order). ``draws`` counts the cards still to
    draw after paying; -1 before the seat has paid or decided."""

    step: int
    pos: int
    draws: int = -1


class Call(NamedTuple):
    """An announced effect: ``card`` is the source card, or -1 for the owner's faction ability."""

    owner: int
    card: int
    effect: Effect


class Window(NamedTuple):
    """K-SCORE-6 block window: ``player`` may block ``call``; ``waiting`` are asked after."""

    player: int
    waiting: tuple[int, ...]
    call: Call


class ChooseTarget(NamedTuple):
    """The player an effect aims at (``targets`` are the legal ones, fixed when asked)."""

    player: int
    call: Call
    targets: tuple[int, ...]


class ChooseCard(NamedTuple):
    """A give or swap effect: which own card goes to ``target``; ``left`` cards still to give."""

    player: int
    call: Call
    target: int
    left: int


class GameOver(NamedTuple):
    player: int = -1


Frame = Window | ChooseTarget | ChooseCard
