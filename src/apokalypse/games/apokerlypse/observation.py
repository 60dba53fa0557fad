"""The Apokerlypse observation: what one seat (or a spectator) may know, as plain JSON-ready data.

:func:`.secrecy.observation` builds it, the one secrecy boundary; the terminal, the bots and the
wire format read it. Cards are codes (``"7h"``, ``"Td"``), seats are indexes (0 is p1).
"""

from __future__ import annotations

from typing import Literal, NotRequired, final

# typing_extensions: pydantic reads these to make the wire schema, and needs its TypedDict on 3.11
from typing_extensions import TypedDict

from .actions import Action, Verb
from .cards import CODES, FactionName
from .config import TableName
from .content import EffectKind
from .pending import Decision, StepName
from .poker import Category

EndReason = Literal["no-chips", "nobody-can-pay"]  # K-END-1, or the cost outgrew every stack


class CategoryUpView(TypedDict):
    kind: Literal["category-up"]
    card: str | None  # None: a faction ability
    to: int  # categories up


class SetFaceView(TypedDict):
    kind: Literal["set-suit", "set-rank"]
    card: str | None
    to: str  # the suit ("s", "h", "d", "c") or rank ("2" … "A") the card counts as


class ModsView(TypedDict):
    """A player's resolved scoring effects this round (K-SCORE-4/6)."""

    structure: CategoryUpView | SetFaceView | None
    multiplier: int
    doubled: list[str]  # cards whose bonus counts double
    hand_limit: int
    shielded: bool  # KD-EFFECT-2: others' card effects pass this player by


class ScoreView(TypedDict):
    """One player's final score of a round: (base + bonus) × multiplier (K-SCORE-2/3/6)."""

    seat: int
    category: Category
    base: int
    bonus: int
    multiplier: int
    total: int
    best: list[str]  # the five cards that make the hand


class EffectView(TypedDict):
    """The effect being resolved (announced publicly)."""

    seat: int
    card: str | None  # None: the owner's faction ability
    kind: EffectKind


# final: nothing else has these keys, so ``"target" in choice`` tells the two apart
@final
class TargetChoice(TypedDict):
    targets: list[int]  # the seats the effect may aim at


@final
class CardChoice(TypedDict):
    target: int  # the seat that receives the card (give, swap)
    left: int  # cards still to give


class ResultView(TypedDict):
    winners: list[int]
    chips: list[int]
    rounds: int
    reason: EndReason
    # In the observation (not in records): who ran out of chips (K-END-1), as the game-over
    # event names them; they may have won chips back in the round's scoring.
    broke: NotRequired[list[int]]


class Observation(TypedDict):
    game: Literal["apokerlypse"]
    seat: int | None  # None: a spectator
    players: int
    move: int
    content: str  # the content's name
    content_spec: str  # "plain", "example" or a content file's text, as in the config
    table: TableName
    bonus_cap: bool
    round: int
    cost: int
    dealer: int
    last_round: bool
    ends_after_round: bool
    step: StepName | Literal["over"]
    to_act: int | None  # None once over, and in a block window for everyone not asked
    decision: Decision
    chips: list[int]
    pot: int
    bank: int
    factions: list[FactionName]
    action_chips: list[int]
    ability_used: list[bool]
    in_round: list[bool]
    short: list[bool]
    hand_sizes: list[int]
    draw_pile: int
    discards: list[list[str]]  # each seat's own pile
    used: list[str]  # cards whose effect resolved this round
    modifiers: list[ModsView]
    revealed: list[list[str] | None]  # hands shown in the final scoring
    order: list[int]  # the evaluation order of the final scoring
    scores: list[ScoreView | None]
    effect: EffectView | None
    known: dict[str, list[str]]  # cards known to be in another hand: {"p2": [codes]}
    maybe: dict[str, list[int]]  # cards known to be in one of some hands: {code: [seats]}
    hand: NotRequired[list[str]]  # a seat's own
    choice: NotRequired[TargetChoice | CardChoice]  # the seat's own effect decision
    result: NotRequired[ResultView]  # once the game is over


class ActionParts(TypedDict):
    """A legal action as a client receives it: its notation (what the client sends back) and
    its parts, so that a client puts it in place without reading the notation again."""

    text: str
    verb: Verb
    card: NotRequired[str]  # discard, use, give, swap, block: the card's code ("Th")
    seat: NotRequired[int]  # target: the seat (0 for p1)


def action_parts(action: Action) -> ActionParts:
    """The notation and the parts of a legal action (see :class:`ActionParts`)."""
    parts: ActionParts = {"text": str(action), "verb": action.verb}
    if action.card >= 0:
        parts["card"] = CODES[action.card]
    if action.seat >= 0:
        parts["seat"] = action.seat
    return parts
