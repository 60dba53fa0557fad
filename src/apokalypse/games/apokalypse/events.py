"""What each kind of Apokalypse event tells, as a player's view of it carries it (its ``args``).

The rules make events as :class:`~apokalypse.engine.events.Event` (a kind, public arguments, and
a secret part only some seats see); this module names, for every kind, the arguments of its
views. A key marked ``NotRequired`` is the secret part: the view of a seat allowed to see it has
it, every other view not. The wire format's event union (``wire/apokalypse.py``), the JSON Schema
and the browser's types are made from these, and a test checks every event of many games, in
every seat's view, against them (``tests/test_events.py``).

Seats are 0-based, sides 0 (good) and 1 (evil), planes 0 (Heaven), 1 (Earth), 2 (Netherworld),
positions 0-based from the display's middle; cards are deck codes (``"m/hp"``).
"""

from __future__ import annotations

from typing import Literal, NotRequired, cast

# typing_extensions: pydantic reads these to make the wire schema, and needs its TypedDict on 3.11
from typing_extensions import TypedDict

from apokalypse.engine.events import EventView
from apokalypse.engine.told import Told

from .observation import Back


class RoundStart(TypedDict):
    round: int
    startup: int  # the seat that begins the round (R-TURN-1)


class RoundEnd(TypedDict):
    round: int
    startup: int


class Deal(TypedDict):
    """A card dealt to ``target`` (R-DEAL): everybody sees its back, the seat itself the card."""

    target: int
    back: Back
    card: NotRequired[str]


class Horseman(TypedDict):
    """A horseman card came up in the ``deck`` (its back) while dealing (R-DEAL-5)."""

    number: int
    deck: Back


class Pass(TypedDict):
    actor: int


class Populace(TypedDict):
    """A B card laid face down as a populace: its player alone sees which (R-PLAY-3, D-INFO-1)."""

    actor: int
    seat: int
    side: int
    card: NotRequired[str]


class Person(TypedDict):
    """A K card laid face up as a populace (R-PLAY-3)."""

    actor: int
    seat: int
    side: int
    card: str


class Place(TypedDict):
    actor: int
    card: str
    seat: int
    side: int
    plane: int
    pos: int


class Replace(Place):
    """A card laid in place of ``old`` (R-PLAY-10, R-PLAY-14; a seal too, R-REWARD-3)."""

    old: str


class Neutralise(TypedDict):
    """Music laid on music: both are discarded (R-PLAY-15)."""

    actor: int
    card: str
    seat: int
    side: int
    plane: int
    old: str


class Gift(TypedDict):
    """A good deed (R-PLAY-4): the giver and the recipient see the card, everybody its back."""

    actor: int
    target: int
    back: Back
    card: NotRequired[str]


class Steal(TypedDict):
    """An evil deed (R-PLAY-5): the thief and the victim see the card, everybody its back."""

    actor: int
    target: int
    back: Back
    card: NotRequired[str]


class NoSteal(TypedDict):
    """An evil deed with no hand to steal from (D-PLAY-1)."""

    actor: int


class Attack(TypedDict):
    actor: int
    card: str
    seat: int
    side: int


class Defend(TypedDict):
    actor: int
    card: str
    attacker: int


class Killed(TypedDict):
    """The outermost populace of a side killed (R-ATTACK-2): ``"populace"`` when it lay face
    down."""

    seat: int
    side: int
    populace: str


class Converted(TypedDict):
    """The outermost populace turned to the other side of the ``dest`` display (R-ATTACK-3);
    ``orphans``: the cards it left without a partner (the ethos-orphans variant)."""

    actor: int
    seat: int
    side: int
    dest: int
    populace: str
    orphans: list[str]


class Ride(TypedDict):
    number: int  # the horseman (1 … 4)


class Shelter(TypedDict):
    """What protected each side of one display in a ride: [populaces, protection, passed from
    the good side, dead]."""

    seat: int
    good: list[int]
    evil: list[int]


class Deaths(TypedDict):
    seat: int
    good: int
    evil: int


class Reckoning(TypedDict):
    number: int
    scores: list[int]  # by seat (R-HORSE-5)


class Refill(TypedDict):
    """The decks refilled above the ``next`` horseman (R-REFILL-1): how many cards lie above it
    in each deck (B, K)."""

    next: int
    above: list[int]


class HorsemanCard(TypedDict):
    """The horseman's card to the best score of its reckoning (R-REWARD-1)."""

    seat: int
    number: int


class SealAward(TypedDict):
    """The seals to the most populaces (R-REWARD-2), in the order they choose."""

    seats: list[int]
    populaces: int


class SealSeat(TypedDict):
    """A seat whose seal cannot be placed (``seal-declined``, R-REWARD-3) or that gets none
    because none are left (``seal-none``)."""

    seat: int


class SealPlace(TypedDict):
    actor: int
    seat: int
    side: int
    plane: int
    pos: int


class SealNeutralise(TypedDict):
    actor: int
    seat: int
    side: int
    plane: int
    old: str


class GameOver(TypedDict):
    """The game ended; the observation's ``result`` says how (R-END)."""


# Every kind, with what its views tell: one union told apart by ``kind``.
Event = (
    Told[Literal["round-start"], RoundStart]
    | Told[Literal["round-end"], RoundEnd]
    | Told[Literal["deal"], Deal]
    | Told[Literal["horseman"], Horseman]
    | Told[Literal["pass"], Pass]
    | Told[Literal["populace"], Populace]
    | Told[Literal["person"], Person]
    | Told[Literal["place"], Place]
    | Told[Literal["replace"], Replace]
    | Told[Literal["neutralise"], Neutralise]
    | Told[Literal["gift"], Gift]
    | Told[Literal["steal"], Steal]
    | Told[Literal["no-steal"], NoSteal]
    | Told[Literal["attack"], Attack]
    | Told[Literal["defend"], Defend]
    | Told[Literal["killed"], Killed]
    | Told[Literal["converted"], Converted]
    | Told[Literal["ride"], Ride]
    | Told[Literal["shelter"], Shelter]
    | Told[Literal["deaths"], Deaths]
    | Told[Literal["reckoning"], Reckoning]
    | Told[Literal["refill"], Refill]
    | Told[Literal["horseman-card"], HorsemanCard]
    | Told[Literal["seal-award"], SealAward]
    | Told[Literal["seal-declined"], SealSeat]
    | Told[Literal["seal-none"], SealSeat]
    | Told[Literal["seal-place"], SealPlace]
    | Told[Literal["seal-neutralise"], SealNeutralise]
    | Told[Literal["game-over"], GameOver]
)


def told(view: EventView) -> Event:
    """A view of an event, typed by its kind. The rules make each kind with the arguments
    :data:`Event` names for it (``tests/test_events.py`` checks every view of many games)."""
    return cast(Event, {"kind": view.kind, "args": view.args, "seen": view.seen})
