"""What every game's action notation shares: a verb, then its arguments, separated by spaces.

A game's ``parse_action`` splits the text here, and reads its own arguments. The refusals here
are the shared catalog's (``notation.empty``, ``notation.verb``, ``notation.arguments``).

>>> takes = {"pass": 0, "to": 1}
>>> split_action(" Pass ", takes.__contains__, takes)
('pass', [])
>>> split_action("to", takes.__contains__, takes)
Traceback (most recent call last):
...
apokalypse.engine.errors.NotationError: 'to': 'to' takes 1 argument(s), got 0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeGuard, TypeVar

from .errors import NotationError
from .text import ascii_number, shown

V = TypeVar("V", bound=str)
# A seat is p1 … p6: a few digits are plenty, and more would let int() refuse (4,300 digits) or a
# typo name seat 10**100.
SEAT_DIGITS = 3


def split_action(
    text: str,
    is_verb: Callable[[str], TypeGuard[V]],
    arguments: Mapping[V, int],
) -> tuple[V, list[str]]:
    """The verb (lower-cased) and the arguments (as typed) of ``text``. ``arguments`` says how
    many each verb takes, in the order the refusal lists them. Raises :class:`NotationError`
    for an empty text, an unknown verb or a wrong number of arguments."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty action", key="empty")
    verb, args = words[0].lower(), words[1:]
    if not is_verb(verb):
        verbs = list(arguments)
        raise NotationError(
            f"{shown(text)}: unknown verb {shown(verb)} (one of {', '.join(verbs)})",
            key="verb",
            params={"text": shown(text), "verb": shown(verb), "verbs": ", ".join(verbs)},
        )
    want = arguments[verb]
    if len(args) != want:
        raise NotationError(
            f"{shown(text)}: {verb!r} takes {want} argument(s), got {len(args)}",
            key="arguments",
            params={"text": shown(text), "verb": repr(verb), "want": want, "got": len(args)},
        )
    return verb, args


def parse_seat(arg: str, text: str) -> int:
    """``p1`` (or ``P1``) … as a seat index; ``text`` is the whole action, for the refusal.
    ASCII digits only (:func:`~.text.ascii_number`)."""
    number = ascii_number(arg[1:], SEAT_DIGITS) if arg[:1] in ("p", "P") else None
    if number is None or number < 1:
        raise NotationError(
            f"{shown(text)}: {shown(arg)} is not a seat (p1, p2, …)",
            key="seat",
            params={"text": shown(text), "arg": shown(arg)},
        )
    return number - 1
