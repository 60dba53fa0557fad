"""Names and table talk on the wire: what a person may call themselves, what they may say, and
who reads it (the seat view's rule for talk, beside :mod:`.seat`).

A game's talk has two channels. ``players``: the players write, and the players and spectators
read. ``spectators``: the spectators write, and only spectators read while the game runs (a
watcher who sees every hand must not be able to whisper one to a player); once the game is over
everybody reads it. A connection's channel follows from who it is: a seat's writes to
``players``, a spectator's to ``spectators``. :func:`may_read` is the one place that decides who
is sent a line; each channel's lines are numbered apart (``n``), so that the numbers a player
reads tell nothing of how much the spectators said.

Names and lines are people's text: checked here (:func:`check_name`: Unicode NFKC, every
character drawn, nothing the page writes itself; :func:`check_text`: NFC, trimmed, bounded, no
control characters) and never read as markup by any client.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from apokalypse.i18n import alike

from .seat import WIRE_VERSION

Channel = Literal["players", "spectators"]
CHANNELS: tuple[Channel, ...] = ("players", "spectators")

NAME_LENGTH = 24  # characters of a name, after trimming
TEXT_LENGTH = 300  # characters of a line of talk, after trimming
HISTORY = 200  # lines of each channel a connection is sent when it joins
# A person could otherwise hide what a line says, or pretend to be somebody else, with
# characters that are not drawn: bidirectional overrides and isolates, line separators.
_INVISIBLE = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# In a name, besides: every formatting character (Unicode category Cf: zero-width spaces and
# joiners, word joiner, byte order mark, soft hyphen, Arabic letter mark, Mongolian vowel
# separator, tag characters), private and unassigned code points, and the characters Unicode
# marks default-ignorable or that draw as blanks although they are letters or symbols: a name
# with one draws as another ("p2" and a zero-width space look like "p2").
_NOT_IN_NAMES = frozenset(("Cf", "Co", "Cs", "Cn"))
_BLANKS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0"
)
_MARKS = 2  # combining marks in a row at most (more stack over the names beside it)
# What the page itself writes beside or instead of a name: a person's name holds no
# parenthesis ("p2 (you)", "Expert (computer)", "Ann (p3)") and is none of these words, nor a
# seat's own name (p1, p2, …), in any case or width.
RESERVED_NAMES = frozenset(
    ("system", "server", "admin", "spectator", "zuschauer", "you", "du", "computer")
)


class NameMessage(BaseModel):
    """``name``: the name this connection's person is shown by (a seat's is kept with the game
    and shown to everybody; a spectator's only with their own lines, for this connection)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["name"]
    name: str = Field(max_length=200)  # checked further by check_name


class SayMessage(BaseModel):
    """``say``: a line of table talk, in this connection's channel."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["say"]
    text: str = Field(max_length=2000)  # checked further by check_text


class TalkLine(TypedDict):
    n: int  # the line's number in its channel: 1, 2, …
    channel: Channel
    seat: int | None  # the speaker's seat; None: a spectator
    name: str  # the speaker's name when they spoke
    text: str
    at: int  # when it was said, ms since 1970


class TalkMessage(TypedDict):
    """Lines of table talk this connection may read: the history when it joins (the last
    ``HISTORY`` of each channel it reads), then each new line; the spectators' lines reach the
    players when the game is over."""

    type: Literal["talk"]
    wire: int
    lines: list[TalkLine]


class BadText(ValueError):
    """A name or a line that cannot be taken; ``key`` names the server's message for it."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


def channel_of(seat: int | None) -> Channel:
    """The channel a connection writes to: a seat's the players', a spectator's their own."""
    return "players" if seat is not None else "spectators"


def may_read(viewer: int | None, channel: Channel, over: bool) -> bool:
    """Whether ``viewer`` (a seat; None: a spectator) is sent a line of ``channel``: the
    spectators' lines reach a player only once the game is over."""
    return channel == "players" or viewer is None or over


def talk_message(lines: list[TalkLine]) -> TalkMessage:
    return {"type": "talk", "wire": WIRE_VERSION, "lines": lines}


def _clean(raw: str, longest: int, kind: str) -> str:
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise BadText(f"{kind}-empty")
    if len(text) > longest:
        raise BadText(f"{kind}-long", most=longest)
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in _INVISIBLE for c in text):
        raise BadText(f"{kind}-control")
    return text


def check_name(raw: str) -> str:
    """A person's name as shown: NFKC (so that a name has one spelling: full-width and
    compatibility forms become plain ones), its spaces one between words, 1 to ``NAME_LENGTH``
    characters, each of them drawn and none a control character, and nothing the page writes
    itself (:data:`RESERVED_NAMES`, a seat's own name, a parenthesis); :class:`BadText`
    otherwise."""
    name = _clean(unicodedata.normalize("NFKC", raw), NAME_LENGTH, "name")
    name = " ".join(word for word in name.split(" ") if word)
    if any(_undrawn(c) for c in name):
        raise BadText("name-invisible")
    run = 0
    for i, c in enumerate(name):
        run = run + 1 if unicodedata.combining(c) else 0
        if run > _MARKS or run > i:  # too many in a row, or a mark on no letter
            raise BadText("name-invisible")
    folded = alike(name)
    if "(" in name or ")" in name or folded in RESERVED_NAMES or _seat_like(folded):
        raise BadText("name-reserved", name=name)
    return name


def _seat_like(folded: str) -> bool:
    return len(folded) > 1 and folded[0] == "p" and folded[1:].isascii() and folded[1:].isdigit()


def _undrawn(c: str) -> bool:
    category = unicodedata.category(c)
    selector = "\ufe00" <= c <= "\ufe0f" or "\U000e0100" <= c <= "\U000e01ef"  # variation
    return category in _NOT_IN_NAMES or c in _BLANKS or c in _INVISIBLE or selector


def check_text(raw: str) -> str:
    """A line of talk as shown: NFC, trimmed, 1 to ``TEXT_LENGTH`` characters, no control
    character (a line is one line); :class:`BadText` otherwise."""
    return _clean(raw, TEXT_LENGTH, "say")
