"""What each kind of Apokerlypse event tells, as a player's view of it carries it (its ``args``).

The rules make events as :class:`~apokalypse.engine.events.Event` (a kind, public arguments, and
a secret part only some seats see); this module names, for every kind, the arguments of its
views. A key marked ``NotRequired`` is the secret part: the view of a seat allowed to see it has
it, every other view not (cards moving between two hands are public once the hands are
revealed). The wire format's event union (``wire/apokerlypse.py``), the JSON Schema and the
browser's types are made from these, and a test checks every event of many games, in every
seat's view, against them (``tests/test_events.py``).

Seats are 0-based; cards are codes (``"Q♦"`` as ``"Qd"``).
"""

from __future__ import annotations

from typing import Literal, NotRequired, cast

# typing_extensions: pydantic reads these to make the wire schema, and needs its TypedDict on 3.11
from typing_extensions import TypedDict

from apokalypse.engine.events import EventView
from apokalypse.engine.told import Told

from .cards import FactionName
from .content import EffectKind, StructureKind, Timing, Who
from .observation import EndReason, ScoreView
from .pending import StepName


class RoundStart(TypedDict):
    """A dealer round begins (KD-END-2): its dealer, the cost of each phase, whether it is the
    last round (nobody could pay the round after)."""

    round: int
    dealer: int
    cost: int
    last: bool


class Deal(TypedDict):
    """Five cards to a seat: everybody sees how many, the seat itself which."""

    seat: int
    count: int
    cards: NotRequired[list[str]]


class Step(TypedDict):
    step: StepName


class Pay(TypedDict):
    """A seat pays the phase's cost into the pot (K-ROUND)."""

    seat: int
    amount: int
    step: StepName | Literal[""]  # "": paid outside a phase
    pot: int


class Short(TypedDict):
    """A seat that cannot pay the cost (K-SHORT-1)."""

    seat: int
    chips: int
    cost: int


class Draw(TypedDict):
    seat: int
    card: NotRequired[str]  # the drawer's own view only (everybody's once hands are revealed)


class PileEmpty(TypedDict):
    """No card left to draw anywhere (KD-END-2)."""

    seat: int


class Reshuffle(TypedDict):
    """The discard piles shuffled into a new draw pile (KD-END-2)."""

    cards: int


class Discard(TypedDict):
    seat: int
    card: str


class Stand(TypedDict):
    """A seat stays in (``stand``) or drops out of the round (``drop``) at a step."""

    seat: int
    step: StepName


class EffectParams(TypedDict, total=False):
    """An effect's parameters, those of its kind only (the content's ``KINDS``)."""

    steps: int
    to: str
    factor: int
    amount: int
    who: Who
    count: int
    extra: int
    less: int


class Effect(TypedDict):
    """A card's effect or a faction's ability announced (K-SCORE-5/6)."""

    seat: int
    card: str | None  # None: the seat's faction ability
    faction: FactionName | None  # the ability's faction; None for a card
    kind: EffectKind
    timing: Timing
    name: str
    params: EffectParams


class Blocked(TypedDict):
    """A block card stopped another seat's effect (K-SCORE-6)."""

    seat: int
    card: str
    owner: int
    blocked: str
    kind: EffectKind


class Void(TypedDict):
    """An effect that does nothing, and the rule that says why."""

    seat: int
    card: str | None
    kind: EffectKind
    rule: str


class Structure(TypedDict):
    """A change of the hand's structure for the final scoring (K-SCORE-4)."""

    seat: int
    card: str | None
    kind: StructureKind
    steps: NotRequired[int]  # category-up
    to: NotRequired[str]  # set-suit, set-rank


class Multiplier(TypedDict):
    seat: int
    factor: int


class Double(TypedDict):
    """A card whose bonus counts double (K-SCORE-6)."""

    seat: int
    card: str


class Shield(TypedDict):
    """Others' card effects pass this seat by this round (KD-EFFECT-2)."""

    seat: int


class HandLimit(TypedDict):
    seat: int
    limit: int


class Chips(TypedDict):
    """Chips from the bank (``gain``) or to it (``lose``); ``chips``: the seat's stack after."""

    seat: int
    amount: int
    chips: int


class PotChips(TypedDict):
    """Chips from the pot to ``seat`` (``skim``) or from ``seat`` into it (``ante``), by an
    effect (KD-EFFECT-3); ``chips``: the seat's stack after, ``pot``: the pot after."""

    seat: int
    amount: int
    chips: int
    pot: int


class Squeeze(TypedDict):
    """``seat``'s effect lowers the hand limit of ``targets`` by ``less`` for the round
    (KD-EFFECT-4); ``limits``: their hand limits now, in the order of ``targets``."""

    seat: int
    targets: list[int]
    less: int
    limits: list[int]


class Extra(TypedDict):
    """``seat`` drew ``count`` more cards by an effect (KD-EFFECT-5); the draws precede it."""

    seat: int
    count: int


class Target(TypedDict):
    """An effect aimed at another seat."""

    seat: int
    target: int
    kind: EffectKind


class Steal(TypedDict):
    """Chips from ``target`` to ``seat`` (KD-EFFECT-1): ``chips`` the thief's stack after,
    ``left`` the victim's."""

    seat: int
    target: int
    amount: int
    chips: int
    left: int


class Peek(TypedDict):
    """``seat`` looks at ``target``'s hand: only ``seat`` sees the cards."""

    seat: int
    target: int
    cards: NotRequired[list[str]]


class Move(TypedDict):
    """A card taken from (``take``) or given to (``give``) ``target``: the two see which."""

    seat: int
    target: int
    card: NotRequired[str]


class Swap(TypedDict):
    """A card of ``seat``'s (``given``) for one of ``target``'s (``taken``): the two see which."""

    seat: int
    target: int
    given: NotRequired[str]
    taken: NotRequired[str]


class Reveal(TypedDict):
    """The hands still in the round shown (K-SCORE-1), by seat (None: dropped out), and the
    order they are scored in."""

    hands: list[list[str] | None]
    order: list[int]


class Pot(TypedDict):
    """The pot to the highest total (K-SCORE-7); a tie splits it, ``remainder`` stays."""

    winners: list[int]
    total: int
    pot: int
    share: int
    remainder: int


class RoundEnd(TypedDict):
    round: int
    chips: list[int]
    pot: int
    bank: int


class GameOver(TypedDict):
    """The game's end (K-END-1): the winners, every stack, and who ran out of chips."""

    winners: list[int]
    chips: list[int]
    rounds: int
    reason: EndReason
    broke: list[int]


Score = ScoreView  # one seat's final score of a round (K-SCORE-2/3/6)


# Every kind, with what its views tell: one union told apart by ``kind``.
Event = (
    Told[Literal["round-start"], RoundStart]
    | Told[Literal["deal"], Deal]
    | Told[Literal["step"], Step]
    | Told[Literal["pay"], Pay]
    | Told[Literal["short"], Short]
    | Told[Literal["draw"], Draw]
    | Told[Literal["pile-empty"], PileEmpty]
    | Told[Literal["reshuffle"], Reshuffle]
    | Told[Literal["discard"], Discard]
    | Told[Literal["stand"], Stand]
    | Told[Literal["drop"], Stand]
    | Told[Literal["effect"], Effect]
    | Told[Literal["blocked"], Blocked]
    | Told[Literal["void"], Void]
    | Told[Literal["structure"], Structure]
    | Told[Literal["multiplier"], Multiplier]
    | Told[Literal["double"], Double]
    | Told[Literal["shield"], Shield]
    | Told[Literal["hand-limit"], HandLimit]
    | Told[Literal["gain"], Chips]
    | Told[Literal["lose"], Chips]
    | Told[Literal["skim"], PotChips]
    | Told[Literal["ante"], PotChips]
    | Told[Literal["squeeze"], Squeeze]
    | Told[Literal["extra"], Extra]
    | Told[Literal["target"], Target]
    | Told[Literal["steal"], Steal]
    | Told[Literal["peek"], Peek]
    | Told[Literal["take"], Move]
    | Told[Literal["give"], Move]
    | Told[Literal["swap"], Swap]
    | Told[Literal["reveal"], Reveal]
    | Told[Literal["score"], Score]
    | Told[Literal["pot"], Pot]
    | Told[Literal["round-end"], RoundEnd]
    | Told[Literal["game-over"], GameOver]
)


def told(view: EventView) -> Event:
    """A view of an event, typed by its kind. The rules make each kind with the arguments
    :data:`Event` names for it (``tests/test_events.py`` checks every view of many games)."""
    return cast(Event, {"kind": view.kind, "args": view.args, "seen": view.seen})
