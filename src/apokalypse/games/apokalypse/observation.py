"""The Apokalypse observation: what one seat (or a spectator) may know, as plain JSON-ready data.

:func:`.secrecy.observation` builds it, the one secrecy boundary (R-INFO); the terminal, the bots
and the wire format read it. Card codes are deck codes (``"m/hp"``); a populace lying face down is
``"populace"`` to everyone but the player who laid it (their ``fronts``).
"""

from __future__ import annotations

from typing import Literal, NotRequired, get_args

# typing_extensions: pydantic reads these to make the wire schema, and needs its TypedDict on 3.11
from typing_extensions import TypedDict

from .actions import Action, Verb
from .pending import Decision
from .roles import PLANE_NAMES, SIDE_NAMES, PlaneName, SideName, Use

Side = Literal["good", "evil"]
Plane = Literal["heaven", "earth", "nether"]
Back = Literal["B", "K"]
# As the names of the card table (cards.SIDE_NAMES, cards.PLANE_NAMES), typed for the keys below.
SIDES: tuple[Side, ...] = get_args(Side)
PLANES: tuple[Plane, ...] = get_args(Plane)
# How the game ended (R-END-4 … R-END-6, see :class:`.ending.Result`).
EndCase = Literal["good", "nobody", "evil", "shared-ethos"]


class DeckView(TypedDict):
    back: Back
    size: int
    above_horseman: int  # cards above the next horseman (R-INFO-1)


class SideView(TypedDict):
    """One side of a display, each plane packed from position 0 outward (R-PLAY-1)."""

    heaven: list[str]
    earth: list[str]  # populaces: a code, or "populace" when it lies face down
    nether: list[str]


class DisplayView(TypedDict):
    good: SideView
    evil: SideView


class AttackView(TypedDict):
    """The attack on the table, waiting for defence or a destination (public, R-ATTACK-1)."""

    attacker: int
    card: str
    seat: int
    side: Side


class ChoiceView(TypedDict):
    """The card chosen in the first step of the seat's own two-step decision."""

    player: int
    code: str
    use: NotRequired[str]  # ChooseTarget: how the card is played


class ResultView(TypedDict):
    winners: list[int]
    totals: list[int]
    case: EndCase
    good_populaces: int
    evil_populaces: int
    ethos: list[Side]


class Observation(TypedDict):
    game: Literal["apokalypse"]
    seat: int | None  # None: a spectator
    players: int
    move: int
    round: int
    horseman: int  # the next horseman to ride, 1–4
    to_act: int | None  # None once over, and in a defence window for everyone not asked
    decision: Decision
    startup: int
    passed: list[bool]
    decks: list[DeckView]  # [population (B), capital (K)]
    discards: list[list[str]]  # [B pile, K pile]
    seal_supply: int
    hand_counts: list[list[int]]  # per seat: [B cards, K cards]
    displays: list[DisplayView]
    scores: list[list[int]]  # one list per reckoning, a score per seat
    horseman_cards: list[list[int]]  # per seat: the numbers of the horseman cards owned
    attack: AttackView | None
    # A seat's own (absent for a spectator):
    hand: NotRequired[list[str]]
    ethos: NotRequired[Side]
    known: NotRequired[dict[str, list[str]]]  # cards known in other hands: {"p2": [codes]}
    fronts: NotRequired[dict[str, str]]  # its face-down populaces: {"p2.good.1": "m/hp"}
    choice: NotRequired[ChoiceView]
    # Once the game is over (R-END-3):
    ethos_all: NotRequired[list[Side]]
    result: NotRequired[ResultView]


class ActionParts(TypedDict):
    """A legal action as a client receives it: its notation (what the client sends back) and
    its parts, so that a client puts it on the table without reading the notation again."""

    text: str
    verb: Verb
    card: NotRequired[str]  # play, give, defend: the card's code
    use: NotRequired[Use]  # play: how the card is played
    seat: NotRequired[int]  # to, steal, target: the seat (0 for p1)
    side: NotRequired[SideName]  # target: the display's side
    plane: NotRequired[PlaneName]  # target: the row (absent: the side itself, or its Earth end)
    pos: NotRequired[int]  # target: the card at that position of the row (absent: its free end)


def action_parts(action: Action) -> ActionParts:
    """The notation and the parts of a legal action (see :class:`ActionParts`)."""
    parts: ActionParts = {"text": str(action), "verb": action.verb}
    if action.code:
        parts["card"] = action.code
    if action.use:
        parts["use"] = action.use
    if action.seat >= 0:
        parts["seat"] = action.seat
    if action.side >= 0:
        parts["side"] = SIDE_NAMES[action.side]
    if action.plane >= 0:
        parts["plane"] = PLANE_NAMES[action.plane]
    if action.pos >= 0:
        parts["pos"] = action.pos
    return parts
