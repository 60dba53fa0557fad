"""What a room's inbox takes (:mod:`.room`): one type per input, each with the future its
sender waits on where it waits for an answer.

The inbox is bounded by what may post to it: a connection posts one message and waits for it
to be answered before reading its next, each timer and each computer's decision is one task at
a time, the coach one question per seat, and the hub's looks are its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from apokalypse.engine.protocol import ActionValue
from apokalypse.wire import Request as ClientRequest
from apokalypse.wire.coach import AdviceMessage

from .connection import Connection
from .entries import Logged
from .games import LiveGame


class Closed(Exception):
    """The room closed before it could answer (its game left memory): ask the store."""


@dataclass(frozen=True, eq=False)
class Request:
    """A client's message: its request, or None with the refusal's key (``sign``) when it was
    not read (flooding, a binary frame, not a valid message)."""

    connection: Connection
    request: ClientRequest | None
    sign: str | None
    started: float  # time.monotonic() when it arrived (the answer's latency)
    done: asyncio.Future[None]


@dataclass(frozen=True, eq=False)
class Join:
    connection: Connection
    done: asyncio.Future[bool]  # False: the room closed meanwhile


@dataclass(frozen=True, eq=False)
class Leave:
    connection: Connection


@dataclass(frozen=True)
class Start:
    """A game just held in memory: wind its clock, let its computers on."""


@dataclass(frozen=True)
class Ring:
    """The deciding person's time ran out at ``move`` (by the game's clock)."""

    move: int


@dataclass(frozen=True)
class AnswerDue:
    """The forced answer of the question asked at ``move`` is due."""

    move: int


@dataclass(frozen=True)
class Think:
    """The pause before the computer's decision at ``move`` is over: ask the pool."""

    move: int


@dataclass(frozen=True, eq=False)
class Thought:
    """The computers' pool decided at ``move`` (or failed with ``error``)."""

    move: int
    action: ActionValue | None
    error: BaseException | None
    seconds: float  # how long it thought, queue included
    waited: bool  # somebody was connected (it was asked first)


@dataclass(frozen=True)
class StandBy:
    """Another process plays this game's computers; ``move`` was the decision when this one
    began to wait: take over if it still is."""

    move: int


@dataclass(frozen=True)
class Heard:
    """Another process moved the game on to ``move`` (None: perhaps; look), writing
    ``entries`` (none: they are in the store)."""

    move: int | None
    entries: tuple[Logged, ...] = ()


@dataclass(frozen=True, eq=False)
class Advised:
    """The coach's answer for ``seat``'s decision after ``actions`` actions."""

    connection: Connection
    seat: int
    actions: int
    made: AdviceMessage


@dataclass(frozen=True, eq=False)
class Overdue:
    """A turn-based game's deadline passed by ``now`` (the hub's sweep)."""

    now: datetime
    done: asyncio.Future[bool]


@dataclass(frozen=True, eq=False)
class Look:
    """Read the game between changes (the lobby, the seats' news): ``run`` reads it and
    answers its sender, ``closed`` tells them the room closed first."""

    run: Callable[[LiveGame], None]
    closed: Callable[[], None]


@dataclass(frozen=True, eq=False)
class Release:
    """Close the room if nobody needs it in memory (the hub's reaper)."""

    done: asyncio.Future[bool]


@dataclass(frozen=True, eq=False)
class Stop:
    """Close the room after the input under way."""

    done: asyncio.Future[None]


Input = (
    Request
    | Join
    | Leave
    | Start
    | Ring
    | AnswerDue
    | Think
    | Thought
    | StandBy
    | Heard
    | Advised
    | Overdue
    | Look
    | Release
    | Stop
)


def changes_game(item: Input) -> bool:
    """Whether ``item`` may apply an action to the game's state: held while a computer thinks
    (its pool reads the state meanwhile). A seat left or taken back, a name, talk, the coach's
    consent change the table, not the state: a person who takes their seat back while its
    stand-in thinks has it back at once (the stand-in's decision is then dropped)."""
    if isinstance(item, Request):
        return item.request is not None and item.request.type == "action"
    return isinstance(item, Ring | AnswerDue | Heard | StandBy | Overdue)


def settle(item: Input) -> None:
    """Answer an input nobody answered (its room closed, or it failed): a waiting sender goes
    on (a join is told to find the game again; a look, to ask the store)."""
    match item:
        case Join(_, done) | Overdue(_, done) | Release(done):
            if not done.done():
                done.set_result(False)
        case Request(done=done) | Stop(done):
            if not done.done():
                done.set_result(None)
        case Look(_, closed):
            closed()
        case _:
            pass
