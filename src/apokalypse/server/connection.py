"""One WebSocket connection to a game: its socket, its paces and its outbox.

A connection reads its client's frames (:meth:`Connection.frames`, bounded by a token bucket and
a size) and hands each message to its game's room (:mod:`.room`), one at a time; what the room
sends it is queued in the connection's own outbox and written by the connection's writer, in
order, through the one way out (:func:`.outbox.deliver`). A room never waits for a slow client:
a connection whose outbox overflows is closed (1013) and leaves its game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from functools import cached_property

from fastapi import WebSocket
from pydantic import TypeAdapter

from apokalypse.wire import Reply
from apokalypse.wire.seat import Stable, WireState, stable

from .limits import Bucket
from .outbox import Written, deliver
from .talk import Listener

CLOSE_FORBIDDEN = 4403  # a token that opens no seat
CLOSE_NOT_FOUND = 4404  # no such game
CLOSE_RESTART = 1012  # the server restarts: reconnect
CLOSE_ABUSE = 1008  # a connection that keeps flooding the server after being told to stop
CLOSE_TRY_LATER = 1013  # too many connections to the game, or games on the server; too slow

MAX_MESSAGE = 4096  # bytes: the longest action text is a few dozen
MAX_FRAME = 65_536  # uvicorn closes a connection sending more (1009) before reading it at all
# Every message counts but an accepted action: refused ones, and accepted seat messages, which
# cost a push to every connection of the game (a seat left and taken back a thousand times would
# be a thousand pushes to each). An accepted action is paced by the game itself: it must name the
# move it answers, so a client gets one in per change it was sent (a program may play fast).
RATE = 5.0  # messages per second a connection may send on average …
BURST = 20.0  # … and at once; beyond, its messages are dropped unread
# A "why" (would this action be refused, and why?) costs a clone of the game and a trial of the
# action: besides counting as a message, a connection may ask only so many.
WHY_RATE = 2.0  # questions per second a connection may ask on average …
WHY_BURST = 8.0  # … and at once; beyond, it is told to slow down
MAX_DROPPED = 200  # dropped messages before the connection is closed
# Messages waiting in a connection's outbox: a client that reads nothing while its game plays
# on is closed at this many, not held in memory without end (a push is one message per change).
MAX_OUTBOX = 512
CLOSE_REASON = 123  # bytes: the longest close reason a WebSocket frame may carry


class Made:
    """A state message made for one push, and what it says (:func:`stable`); written once, for
    every connection it goes to."""

    def __init__(self, message: WireState, adapter: TypeAdapter[WireState]) -> None:
        self.message, self.adapter = message, adapter
        self.said = stable(message)
        move = message["observation"].get("move")
        self.shown = move if isinstance(move, int) else None  # the move the viewer is shown

    @cached_property
    def text(self) -> str:
        # The game's own message type serialises it (the forecast is a dataclass), and knowing
        # the type it is faster than guessing each value's.
        return self.adapter.dump_json(self.message).decode()


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    seat: int | None
    sent: int  # how many of the game's events this connection has been sent
    said: Stable | None = None  # what its last message said (seat.stable): none sent yet
    shown: int | None = None  # the move of the observation it was last sent
    # What its paces count by: the hub's clock (a test's may stand still).
    clock: Callable[[], float] = time.monotonic
    bucket: Bucket = field(init=False)  # its messages
    whys: Bucket = field(init=False)  # its questions why not
    dropped: int = 0
    talk: Listener = field(init=False)  # its name, pace and talk sent (talk.py)
    coach: Bucket | None = None  # its pace of questions to the coach (made on the first)
    gone: bool = False  # its client went away, or it was closed
    _outbox: asyncio.Queue[Written | Reply] = field(init=False)
    _writer: asyncio.Task[None] | None = field(init=False, default=None)
    _closing: asyncio.Task[None] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.bucket = Bucket(RATE, BURST, self.clock)
        self.whys = Bucket(WHY_RATE, WHY_BURST, self.clock)
        self.talk = Listener(clock=self.clock)
        self._outbox = asyncio.Queue(MAX_OUTBOX)

    def blocked(self) -> bool:
        """Whether this message is dropped unread (the connection sent too many)."""
        if self.bucket.empty():
            self.dropped += 1
            return True
        return False

    def post(self, message: Written | Reply) -> None:
        """Send ``message`` to this connection, never waiting for its client: at once when the
        socket takes it (the usual case: no task switch on the room's step), else queued for
        the connection's writer, behind what waits already. A client too slow to read what its
        game sends is closed (1013) rather than waited for."""
        if self.gone:
            return
        if self._writer is None:
            step = deliver(self.websocket, message)
            try:
                waiting = step.send(None)
            except StopIteration as done:
                self.gone = self.gone or done.value is False
                return
            # The socket's buffer is full (its client reads slowly): the writer finishes this
            # send when it drains, and sends what is posted meanwhile after it.
            self._writer = asyncio.create_task(self._write(step, waiting))
            return
        try:
            self._outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.close(CLOSE_TRY_LATER, "too slow to read")

    async def _write(self, step: Coroutine[object, None, bool], waiting: object) -> None:
        sent = await _finish(step, waiting)
        while sent and not self._outbox.empty():
            sent = await deliver(self.websocket, self._outbox.get_nowait())
        if not sent:
            self.gone = True  # its reader ends at the socket's close and leaves the room
        self._writer = None  # the queue is empty: the next post sends at once again

    def close(self, code: int | None = None, reason: str = "") -> None:
        """Stop writing: the connection ended, or is closed now with ``code`` (its reader
        then ends, and it leaves its room)."""
        self.gone = True
        if self._writer is not None:
            self._writer.cancel()
        if code is not None and self._closing is None:
            self._closing = asyncio.create_task(shut(self.websocket, code, reason))

    async def frames(self) -> AsyncIterator[object]:
        """Its client's messages, parsed (None for one that is not JSON or too long), until the
        client goes away; flooding is told once, then dropped unread, then closed (1008)."""
        websocket = self.websocket
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            if self.blocked():
                if self.dropped == 1:
                    yield FLOODED
                elif self.dropped >= MAX_DROPPED:
                    await websocket.close(CLOSE_ABUSE, "too many messages")
                    return
                continue
            text = frame.get("text")
            yield parse_text(text) if isinstance(text, str) else BINARY


class _Sign:
    """A message the reader stands in for what it could not read."""

    def __init__(self, key: str) -> None:
        self.key = key  # its refusal's key (refusals.message)


FLOODED = _Sign("flood")  # the first message dropped for flooding
BINARY = _Sign("binary")  # a binary frame


def is_sign(data: object) -> str | None:
    """The refusal's key when ``data`` stands for a frame not read (:data:`FLOODED`,
    :data:`BINARY`); None for a message."""
    return data.key if isinstance(data, _Sign) else None


async def _finish(step: Coroutine[object, None, bool], waiting: object) -> bool:
    """Run a send begun on the room's step (:meth:`Connection.post`) to its end: ``step``
    stopped at ``waiting``, what it awaits (a future, or None for a bare yield), as a task's
    step would have; its result."""
    while True:
        try:
            if isinstance(waiting, asyncio.Future):
                await waiting
            else:
                await asyncio.sleep(0)
        except BaseException as exc:  # cancelled (the connection closed): into the send
            try:
                waiting = step.throw(exc)
            except StopIteration as done:
                return bool(done.value)
            continue
        try:
            waiting = step.send(None)
        except StopIteration as done:
            return bool(done.value)


def parse_text(raw: str) -> object:
    """A text frame's JSON; None (refused like any malformed message) when it is too long, not
    JSON, or nested deeper than Python's parser goes."""
    if len(raw) > MAX_MESSAGE:
        return None
    try:
        data: object = json.loads(raw)
    except (ValueError, RecursionError):  # "[[[[…" a thousand deep: refused, not a traceback
        return None
    return data


async def shut(websocket: WebSocket, code: int, text: str) -> None:
    """Close a connection with ``code`` and a reason cut to fit its frame (123 bytes, at a
    character); a client already gone is no error."""
    reason = text.encode()[:CLOSE_REASON].decode(errors="ignore")
    with contextlib.suppress(Exception):
        await websocket.close(code, reason)
