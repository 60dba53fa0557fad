"""Actions: small immutable values with a text notation that parses back.

Every decision is short; an effect that needs choices asks for them one at a time::

    pay              pay the round's cost: draw in phase 2, take part in the final scoring
    stand            stay in without paying (phase 2: draw nothing; phase 3: KD-ROUND-1)
    drop             drop out of the round (K-ROUND-3, K-ROUND-4)
    discard 7h       discard a card down to the hand limit (K-ROUND-2)
    use 7h           resolve a card's effect (timing any, or final in your scoring turn)
    ability          use your faction's ability (K-SCORE-5)
    done             end your scoring turn (only optional uses left)
    target p2        the player an effect aims at
    give 7h          the card to give (give effect) …
    swap 7h          … or to swap away (swap effect)
    block 7s         answer another player's card effect with a block card (K-SCORE-6) …
    allow            … or let it resolve

>>> a = parse_action("discard 10H")
>>> str(a), a == parse_action(str(a))
('discard Th', True)
"""

from __future__ import annotations

from typing import Literal, NamedTuple, TypeGuard, get_args

from apokalypse.engine.errors import NotationError
from apokalypse.engine.notation import parse_seat, split_action
from apokalypse.engine.text import shown

from .cards import CODES, parse_card

NoArgVerb = Literal["pay", "stand", "drop", "ability", "done", "allow"]
CardVerb = Literal["discard", "use", "give", "swap", "block"]
SeatVerb = Literal["target"]
Verb = Literal[NoArgVerb, CardVerb, SeatVerb]
_NO_ARG: tuple[NoArgVerb, ...] = get_args(NoArgVerb)
_CARD_ARG: tuple[CardVerb, ...] = get_args(CardVerb)
_SEAT_ARG: tuple[SeatVerb, ...] = get_args(SeatVerb)
VERBS: tuple[Verb, ...] = _NO_ARG + _CARD_ARG + _SEAT_ARG


class Action(NamedTuple):
    verb: Verb
    card: int = -1
    seat: int = -1

    def __str__(self) -> str:
        if self.verb in _CARD_ARG:
            return f"{self.verb} {CODES[self.card]}"
        if self.verb in _SEAT_ARG:
            return f"{self.verb} p{self.seat + 1}"
        return self.verb


PAY, STAND, DROP = Action("pay"), Action("stand"), Action("drop")
ABILITY, DONE, ALLOW = Action("ability"), Action("done"), Action("allow")


# How many arguments each verb takes, in the order a refusal lists the verbs.
ARGUMENTS: dict[Verb, int] = {verb: 0 if verb in _NO_ARG else 1 for verb in VERBS}


def is_verb(word: str) -> TypeGuard[Verb]:
    return word in VERBS


def parse_action(text: str) -> Action:
    """Parse the notation above; raises :class:`NotationError` naming what is wrong."""
    verb, args = split_action(text, is_verb, ARGUMENTS)  # cards keep their case: "Th"
    if verb in _NO_ARG:
        return Action(verb)
    arg = args[0]
    if verb in _CARD_ARG:
        try:
            return Action(verb, card=parse_card(arg))
        except ValueError as exc:
            raise NotationError(
                f"{shown(text)}: {exc}", key="card", params={"text": shown(text), "arg": shown(arg)}
            ) from None
    return Action(verb, seat=parse_seat(arg, text))
