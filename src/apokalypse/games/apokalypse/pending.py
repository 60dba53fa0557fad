"""Who must decide what next: one small immutable value per kind of decision.

The state holds exactly one of these (TAG's extended sequences, flattened): a turn, or a step of a
multi-step play, a defence window, a seal placement. Being immutable, a clone shares them.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .roles import Use


class Turn(NamedTuple):
    """R-TURN-1: play one card or pass."""

    player: int


class ChooseTarget(NamedTuple):
    """Second step of a play: where the chosen card goes."""

    player: int
    code: str
    use: Use


class ChooseGift(NamedTuple):
    """R-PLAY-4 good deed, first step: which card to give."""

    player: int


class ChooseRecipient(NamedTuple):
    """R-PLAY-4 good deed, second step: to whom."""

    player: int
    code: str


class ChooseVictim(NamedTuple):
    """R-PLAY-5 evil deed: from whose hand to steal."""

    player: int


class Defence(NamedTuple):
    """R-ATTACK-4: ``player`` may defend; ``waiting`` are the players asked after them."""

    player: int
    attacker: int
    card: int  # the attack card, on the table
    seat: int
    side: int
    waiting: tuple[int, ...]


class ChooseDestination(NamedTuple):
    """R-ATTACK-3: where the converted populace goes (the opposite side of any display)."""

    player: int
    seat: int
    side: int


class PlaceSeal(NamedTuple):
    """R-REWARD-3: ``player`` places a seal now; ``waiting`` receive one after them."""

    player: int
    waiting: tuple[int, ...]


class GameOver(NamedTuple):
    player: int = -1


# Shared values for the decisions made at every turn: pending decisions are immutable, so one
# value per seat (and per chosen card) serves every state; the hot paths ask these for them.
_SEATS = 8  # more than any game seats (config.MAX_PLAYERS); a larger seat is built anew
_TURNS = tuple(Turn(q) for q in range(_SEATS))
_GIFTS = tuple(ChooseGift(q) for q in range(_SEATS))
_VICTIMS = tuple(ChooseVictim(q) for q in range(_SEATS))
_TARGETS: dict[tuple[int, str, Use], ChooseTarget] = {}


def turn(player: int) -> Turn:
    return _TURNS[player] if 0 <= player < _SEATS else Turn(player)


def choose_gift(player: int) -> ChooseGift:
    return _GIFTS[player] if 0 <= player < _SEATS else ChooseGift(player)


def choose_victim(player: int) -> ChooseVictim:
    return _VICTIMS[player] if 0 <= player < _SEATS else ChooseVictim(player)


def choose_target(player: int, code: str, use: Use) -> ChooseTarget:
    key = (player, code, use)
    pending = _TARGETS.get(key)
    if pending is None:
        if len(_TARGETS) >= 20_000:  # only a process that loads very many deck files
            _TARGETS.clear()
        pending = _TARGETS[key] = ChooseTarget(player, code, use)
    return pending


# The observation's ``decision``: which decision is pending, in kebab-case (the wire format's
# names; a defence window is "defence" for everyone, asked or not).
Decision = Literal[
    "turn",
    "choose-target",
    "choose-gift",
    "choose-recipient",
    "choose-victim",
    "defence",
    "choose-destination",
    "place-seal",
    "game-over",
]

Pending = (
    Turn
    | ChooseTarget
    | ChooseGift
    | ChooseRecipient
    | ChooseVictim
    | Defence
    | ChooseDestination
    | PlaceSeal
    | GameOver
)

# The name of each kind of pending decision (a test checks every kind has one).
DECISION: dict[type, Decision] = {
    Turn: "turn",
    ChooseTarget: "choose-target",
    ChooseGift: "choose-gift",
    ChooseRecipient: "choose-recipient",
    ChooseVictim: "choose-victim",
    Defence: "defence",
    ChooseDestination: "choose-destination",
    PlaceSeal: "place-seal",
    GameOver: "game-over",
}
