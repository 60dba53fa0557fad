"""The rules on an observation: what anybody can work out from what they see, with the engine's
own code.

Computer players (and the forecast, and a browser) see observations, never a State. A display in
an observation is ``{side: {plane: [codes]}}``; :func:`display_rows` turns it into the six rows
``rows[side * 3 + plane]`` that the rule modules read, and :func:`.cards.code_cards` reads its
codes (a face-down populace, ``"populace"``, or a code the kinds do not know is no music, no
person and no protection). Every function here calls the very function the engine calls on its
State (:func:`.placement.use_targets`, :func:`.attacks.immune_reason`,
:func:`.horsemen.protection`, …), so the two cannot disagree; a property test checks them
decision by decision over random games.

``obs`` is any viewer's observation (:class:`.observation.Observation`; only public fields are
read), ``kinds`` the game's cards by code (:func:`.cards.deck_kinds`).

>>> from apokalypse.games.apokalypse import GAME, Config
>>> from apokalypse.games.apokalypse.cards import deck_kinds
>>> obs = GAME.new_game(Config(players=3), seed=1).observation(0)
>>> kinds = deck_kinds(Config(players=3).deck_text)
>>> place_targets(obs, kinds, "violence", "attack"), [str(a) for a in seal_targets(obs, kinds)]
([], [])
"""

from __future__ import annotations

from collections.abc import Mapping

from . import attacks
from .actions import Action
from .attacks import Bundle, immune_reason, join, remove_outermost
from .cards import PLANE_NAMES, SIDE_NAMES, CardKind, Protection, code_cards
from .horsemen import protection
from .observation import DisplayView, Observation
from .placement import seal_places, use_targets
from .roles import USES, Role, RuleId, is_use

__all__ = [
    "Bundle",
    "Rows",
    "attack_removes",
    "attack_targets",
    "display_rows",
    "displays",
    "immune",
    "join",
    "place_targets",
    "remove_outermost",
    "seal_targets",
    "side_protection",
]

Rows = list[list[str]]  # one display: six rows of codes, rows[side * 3 + plane]


def display_rows(view: DisplayView) -> Rows:
    """The six rows of one display of an observation: the observation's own lists (copy them
    before changing them)."""
    return [view[side][plane] for side in SIDE_NAMES for plane in PLANE_NAMES]


def displays(obs: Observation) -> list[Rows]:
    """Every display of an observation as rows, by seat."""
    return [display_rows(view) for view in obs["displays"]]


def _role(kinds: Mapping[str, CardKind], code: str) -> Role | None:
    kind = kinds.get(code)
    return None if kind is None else kind.role


def place_targets(
    obs: Observation, kinds: Mapping[str, CardKind], code: str, use: str
) -> list[Action]:
    """Every legal place for ``code`` played as ``use`` (the second step of a play), as
    :func:`.placement.targets` lists it; none for a card or use the game does not know."""
    role = _role(kinds, code)
    if role is None or not is_use(use):
        return []
    return use_targets(displays(obs), code_cards(kinds), role, use)


def seal_targets(obs: Observation, kinds: Mapping[str, CardKind]) -> list[Action]:
    """Where a seal may go now (R-REWARD-3), as :func:`.placement.seal_targets` lists it."""
    return seal_places(displays(obs), code_cards(kinds).music)


def attack_targets(
    obs: Observation, kinds: Mapping[str, CardKind], code: str
) -> list[tuple[int, int]]:
    """(seat, side) pairs whose outermost populace an attack with ``code`` may hit
    (R-ATTACK-1); none for a card that is not an attack."""
    role = _attack(kinds, code)
    if role is None:
        return []
    return attacks.attack_targets(displays(obs), code_cards(kinds), role)


def _attack(kinds: Mapping[str, CardKind], code: str) -> Role | None:
    role = _role(kinds, code)
    return role if role is not None and "attack" in USES[role] else None


def immune(
    obs: Observation, kinds: Mapping[str, CardKind], code: str, seat: int, side: int
) -> RuleId | None:
    """Why the outermost populace of ``side`` of ``seat``'s display cannot be attacked with
    ``code`` (R-ATTACK-1: only basic populaces, or ``code`` is no attack; R-PLAY-17: music
    shields it; R-PLAY-6: a person, against Ethos change), or None when it can."""
    role = _attack(kinds, code)
    if role is None:
        return "R-ATTACK-1"
    return immune_reason(display_rows(obs["displays"][seat]), side, code_cards(kinds), role)


def side_protection(rows: Rows, side: int, kinds: Mapping[str, CardKind]) -> Protection:
    """(music, masks, helmets, pigs) on one side of the display ``rows`` (R-HORSE-1, R-HORSE-2):
    what the reckoning counts, with its own :func:`.horsemen.protection`."""
    return protection(rows, side, code_cards(kinds).protection)


def attack_removes(obs: Observation, seat: int, side: int) -> Bundle[str]:
    """The cards an attack on ``side`` of ``seat``'s display takes (R-ATTACK-2/3): its
    outermost populace and the Heaven and Netherworld cards at its position (None: no card)."""
    rows = [row[:] for row in display_rows(obs["displays"][seat])]
    return remove_outermost(rows, side)
