"""Actions: small immutable values with a text notation that parses back (like chess's UCI).

A turn is split into short decisions so that every list of choices stays small and a UI can guide a
player step by step::

    play m/hp heaven        choose a card from hand and how to use it
    target p2.good.heaven   …then where (add at the outermost free position)
    target p2.good.heaven.1 …or which card to replace / neutralise (position 0, 1, … outward)
    give job/drugs          good deed (R-PLAY-4): which card to give …
    to p3                   …and to whom; also where a converted populace goes (R-ATTACK-3)
    steal p3                evil deed (R-PLAY-5): whose hand to draw from
    defend violence         out-of-turn defence (R-ATTACK-4) …
    decline                 …or let the attack through
    back                    undo an unfinished choice (the card or the gift picked in step one)
    pass

``back`` is accepted wherever a second step is pending but never listed among the legal actions:
it is a person's way out of a mistaken first step, and a player that enumerates moves (a search)
must not go round in circles.

>>> a = parse_action("target p2.good.heaven.1")
>>> (a.seat, a.side, a.plane, a.pos), str(a)
((1, 0, 0, 1), 'target p2.good.heaven.1')
"""

from __future__ import annotations

from typing import Literal, NamedTuple, TypeGuard, get_args

from apokalypse.engine.errors import NotationError
from apokalypse.engine.notation import parse_seat, split_action
from apokalypse.engine.text import ascii_number, shown

from .cards import MAX_CODE_LENGTH, PLANE_NAMES, SIDE_NAMES, is_code
from .roles import Use, is_use

USES: tuple[Use, ...] = get_args(Use)  # what a card is played as (roles.ROLES[role].uses)
Verb = Literal["pass", "play", "target", "give", "to", "steal", "defend", "decline", "back"]
VERBS: tuple[Verb, ...] = get_args(Verb)
_NO_ARG: frozenset[Verb] = frozenset({"pass", "decline", "back"})
_CODE_ARG: frozenset[Verb] = frozenset({"give", "defend"})
_SEAT_ARG: frozenset[Verb] = frozenset({"to", "steal"})
# A position counts a row's cards: a few digits are plenty, and more would let int() refuse
# (4,300 digits). Seats are read by engine.notation.parse_seat.
MAX_DIGITS = 3


class Action(NamedTuple):
    verb: Verb
    code: str = ""
    use: Use | Literal[""] = ""
    seat: int = -1
    side: int = -1
    plane: int = -1
    pos: int = -1

    def __str__(self) -> str:
        verb = self.verb
        if verb in _NO_ARG:
            return verb
        if verb == "play":
            return f"play {self.code} {self.use}"
        if verb in _CODE_ARG:
            return f"{verb} {self.code}"
        if verb in _SEAT_ARG:
            return f"{verb} p{self.seat + 1}"
        return f"target {format_place(self.seat, self.side, self.plane, self.pos)}"


def format_place(seat: int, side: int, plane: int = -1, pos: int = -1) -> str:
    text = f"p{seat + 1}.{SIDE_NAMES[side]}"
    if plane >= 0:
        text += f".{PLANE_NAMES[plane]}"
        if pos >= 0:
            text += f".{pos}"
    return text


PASS = Action("pass")
DECLINE = Action("decline")
BACK = Action("back")

# Shared values for the legal lists, which are rebuilt at every decision: an Action is an
# immutable tuple, so one value per distinct action serves every state and every turn (and
# spares the allocations). Built on first use; a process that loads very many deck files
# starts over at the bound.
_BY_CODE: dict[tuple[str, str], Action] = {}
_BY_SEAT: dict[tuple[str, int], Action] = {}
_BY_PLACE: dict[tuple[int, int, int, int], Action] = {}
_MAX_SHARED = 20_000
_new_tuple = tuple.__new__


def code_action(verb: Verb, code: str) -> Action:
    """``give CODE`` or ``defend CODE``, shared."""
    key = (verb, code)
    action = _BY_CODE.get(key)
    if action is None:
        if len(_BY_CODE) >= _MAX_SHARED:
            _BY_CODE.clear()
        action = _BY_CODE[key] = Action(verb, code)
    return action


def seat_action(verb: Verb, seat: int) -> Action:
    """``to pN`` or ``steal pN``, shared."""
    key = (verb, seat)
    action = _BY_SEAT.get(key)
    if action is None:
        action = _BY_SEAT[key] = Action(verb, seat=seat)
    return action


def target_action(seat: int, side: int, plane: int = -1, pos: int = -1) -> Action:
    """``target pN.SIDE[.PLANE[.POS]]``, shared."""
    key = (seat, side, plane, pos)
    action = _BY_PLACE.get(key)
    if action is None:
        if len(_BY_PLACE) >= _MAX_SHARED:
            _BY_PLACE.clear()
        action = _BY_PLACE[key] = _new_tuple(Action, ("target", "", "", seat, side, plane, pos))
    return action


def _code(text: str, whole: str) -> str:
    """A card code as deck files write it (cards.py, D-COMP-1): nothing else can name a card."""
    if not is_code(text):
        raise NotationError(
            f"{shown(whole)}: {shown(text)} is not a card code (up to {MAX_CODE_LENGTH} letters,"
            " digits and / - _ + .)",
            key="code",
            params={"text": shown(whole), "arg": shown(text), "max": MAX_CODE_LENGTH},
        )
    return text


# How many arguments each verb takes, in the order a refusal lists the verbs.
ARGUMENTS: dict[Verb, int] = {
    verb: 0 if verb in _NO_ARG else 2 if verb == "play" else 1 for verb in VERBS
}


def is_verb(word: str) -> TypeGuard[Verb]:
    return word in VERBS


def parse_action(text: str) -> Action:
    """Parse the notation above; raises :class:`NotationError` naming what is wrong."""
    verb, typed = split_action(text, is_verb, ARGUMENTS)
    args = [arg.lower() for arg in typed]  # codes and places are lower case (cards.py)
    if verb in _NO_ARG:
        return Action(verb)
    if verb == "play":
        use = args[1]
        if not is_use(use):
            raise NotationError(
                f"{shown(text)}: unknown use {shown(args[1])} (one of {', '.join(USES)})",
                key="use",
                params={"text": shown(text), "use": shown(args[1]), "uses": ", ".join(USES)},
            )
        return Action("play", _code(args[0], text), use)
    if verb in _CODE_ARG:
        return Action(verb, _code(args[0], text))
    if verb in _SEAT_ARG:
        return Action(verb, seat=parse_seat(args[0], text))
    return _target(args[0], text)


def _target(place: str, text: str) -> Action:
    parts = place.split(".")
    if not 2 <= len(parts) <= 4:
        raise NotationError(
            f"{shown(text)}: a place is p<seat>.<side>[.<plane>[.<position>]]",
            key="place",
            params={"text": shown(text)},
        )
    seat = parse_seat(parts[0], text)
    if parts[1] not in SIDE_NAMES:
        raise NotationError(
            f"{shown(text)}: side must be good or evil, not {shown(parts[1])}",
            key="side",
            params={"text": shown(text), "side": shown(parts[1])},
        )
    plane = pos = -1
    if len(parts) >= 3:
        if parts[2] not in PLANE_NAMES:
            raise NotationError(
                f"{shown(text)}: plane must be heaven, earth or nether",
                key="plane",
                params={"text": shown(text)},
            )
        plane = PLANE_NAMES.index(parts[2])
    if len(parts) == 4:
        number = ascii_number(parts[3], MAX_DIGITS)
        if number is None:
            raise NotationError(
                f"{shown(text)}: position must be a number 0, 1, …",
                key="position",
                params={"text": shown(text)},
            )
        pos = number
    return Action("target", seat=seat, side=SIDE_NAMES.index(parts[1]), plane=plane, pos=pos)
