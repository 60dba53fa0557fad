"""The games in memory and their connections: who is sent what, when, and who may change a game.

A :class:`Room` is one game in memory (:class:`LiveGame`), its lock and its connections; the
:class:`Hub` holds the rooms by id, rebuilds a game from the store when it is asked for, runs every
change under the game's lock and pushes each connection its own view afterwards (only when that
view changed: see :mod:`apokalypse.wire.seat`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from fastapi import WebSocket
from pydantic import TypeAdapter, ValidationError

from apokalypse.engine.errors import EngineError
from apokalypse.wire import ActionMessage, SeatMessage, read_client_message
from apokalypse.wire.seat import Stable, WireState, stable

from .fanout import Fanout
from .games import LiveGame, Refused, message, rebuild
from .store import Store

CLOSE_RESTART = 1012  # the game must be rebuilt from the store: reconnect
CLOSE_ABUSE = 1008  # a connection that keeps flooding the server after being told to stop

MAX_MESSAGE = 4096  # bytes: the longest action text is a few dozen
MAX_FRAME = 65_536  # uvicorn closes a connection sending more (1009) before reading it at all
# The rate limit counts refused messages only: accepted actions are paced by the game itself (each
# must name the move it answers, so a client gets one in per change it has been sent).
RATE = 5.0  # refused messages per second a connection may send on average …
BURST = 20.0  # … and at once; beyond, its messages are dropped unread
MAX_DROPPED = 200  # dropped messages before the connection is closed
STAND_BY = 2.0  # seconds a process that did not make a game's last change waits to time it out


log = logging.getLogger(__name__)


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    seat: int | None
    sent: int  # how many of the game's events this connection has been sent
    said: Stable | None = None  # what its last message said (seat.stable): none sent yet
    shown: int | None = None  # the move of the observation it was last sent
    allowance: float = BURST  # a token bucket: messages it may send now
    checked: float = field(default_factory=time.monotonic)
    dropped: int = 0

    def blocked(self) -> bool:
        """Whether this connection's messages are dropped now (it sent too many refused)."""
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            self.dropped += 1
            return True
        return False

    def charge(self) -> None:
        """One more refused message."""
        self.allowance -= 1


# A connection's seat, how many events it was sent, and whether it was sent nothing yet.
Viewer = tuple[int | None, int, bool]


class Made:
    """A state message made for one push, and what it says (:func:`stable`)."""

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
class Room:
    """A live game, its lock and its connections."""

    live: LiveGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    closed: bool = False
    timer: asyncio.Task[None] | None = None  # runs out the deciding person's clock

    def connected(self) -> frozenset[int]:
        return frozenset(c.seat for c in self.connections if c.seat is not None)


class Hub:
    """The games in memory, by id; a game not there is rebuilt from the store."""

    def __init__(self, store: Store, fanout: Fanout | None = None) -> None:
        self.store = store
        self.fanout = fanout  # None: one process alone
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()

    async def room(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        async with self._loading:  # one rebuild per game, however many connect at once
            room = self.rooms.get(game_id)
            if room is None:
                live = await asyncio.to_thread(rebuild, self.store, game_id)
                room = self.rooms[game_id] = Room(live)
            return room

    async def send(self, room: Room, connection: Connection, made: dict[Viewer, Made]) -> None:
        """Send ``connection`` its view if it changed. ``made``: this push's views so far, by
        viewer and first event (spectators and a person's second tab share one)."""
        live = room.live
        first = connection.said is None  # its first message: the card facts too
        key = (connection.seat, connection.sent, first)
        view = made.get(key)
        if view is None:
            message = live.view(connection.seat, connection.sent, room.connected(), first)
            view = made[key] = Made(message, live.wire)
        # Only news is sent: a message whose view did not change would itself be news (in a
        # window, that somebody not shown answered).
        if not view.message["events"] and view.said == connection.said:
            return
        connection.said, connection.shown = view.said, view.shown
        connection.sent = len(live.log)
        try:
            await connection.websocket.send_text(view.text)
        except Exception:  # a connection gone away: it is dropped, the game goes on
            if connection in room.connections:
                room.connections.remove(connection)

    async def push(self, room: Room) -> None:
        """Send every connection whose view changed the news, and set the clock of whoever
        decides now."""
        made: dict[Viewer, Made] = {}
        for connection in list(room.connections):
            await self.send(room, connection, made)
        self.wind(room)

    def wind(self, room: Room) -> None:
        """(Re)start the timer that hands the deciding person's seat to a computer player when
        their time runs out."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        deadline = room.live.deadline()
        if deadline is not None and self.fanout is not None and room.live.heard:
            # Several processes serve this game, and another one made the last change: that
            # one hands the seat over at the deadline; this one only later, in case it is gone,
            # and asks the store first (LiveGame.time_out). Never two at once.
            deadline += STAND_BY
        if deadline is not None and not room.closed:
            room.timer = asyncio.create_task(self._ring(room, room.live.state.move, deadline))

    async def _ring(self, room: Room, move: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        room.timer = None  # this task ends here: push may wind a new one
        await self.change(room, lambda live: live.time_out(self.store, move))

    async def change(self, room: Room, work: Callable[[LiveGame], bool]) -> bool:
        """Run ``work(live)`` (blocking, in a thread) under the game's lock; when it changed the
        game, tell every connection and the other processes. Refusals propagate."""
        async with room.lock:
            if room.closed:
                return False
            live = room.live
            before = live.state.move
            try:
                changed = bool(await asyncio.to_thread(work, live))
            except Refused:
                raise
            except EngineError:  # StaleAction, a record that no longer replays …
                # The memory and the database disagree (another process took the move): the
                # stored game is the truth. Drop ours; the players reconnect to the rebuilt one.
                await self.evict(room)
                return False
            if changed:
                await self.push(room)
                if self.fanout is not None:
                    moved = live.state.move != before
                    await self.fanout.publish(live.id, live.state.move if moved else None)
            elif room.timer is None:  # a timer woken a moment early: wound again
                self.wind(room)
            return changed

    async def act(self, room: Room, connection: Connection, data: object) -> None:
        """A message from a connection: do what it asks, or tell that connection why not."""
        live = room.live
        try:
            request = read_client_message(data)
        except ValidationError:
            await self.refuse(connection, Refused(message("message", live.lang)))
            return
        try:
            await self.change(room, lambda live: self.perform(live, connection, request))
        except Refused as exc:
            await self.refuse(connection, exc)

    def perform(
        self, live: LiveGame, connection: Connection, request: ActionMessage | SeatMessage
    ) -> bool:
        """What a message asks of the game (blocking; under its lock); whether it changed."""
        seat = connection.seat
        if isinstance(request, ActionMessage):  # checked against what this connection was shown
            live.play(self.store, live.check(seat, request, connection.shown))
            return True
        if seat is None:
            raise Refused(message("spectator", live.lang))
        if request.type == "rematch":
            if not live.state.is_over:
                raise Refused(message("not-over", live.lang))
            rematch = live.make_rematch(self.store)
            if rematch is not None:
                self.rooms[rematch.id] = Room(rematch)
            return True  # every connection learns of it
        return live.set_away(self.store, seat, request.type == "leave")

    async def refuse(self, connection: Connection, refused: Refused) -> None:
        connection.charge()
        with contextlib.suppress(Exception):  # gone meanwhile
            await connection.websocket.send_json(refused.to_json())

    async def catch_up(self, game_id: str, move: int | None) -> None:
        """Another process advanced ``game_id`` to ``move`` (None: perhaps, look): bring this
        process's copy up to the store and push it to its connections. The computer players
        only catch up here: the process that applied the person's action let them act."""
        room = self.rooms.get(game_id)
        if room is None:  # not in memory: rebuilt from the store when asked for
            return
        async with room.lock:
            if room.closed or (move is not None and room.live.state.move >= move):
                return
            try:
                applied = await asyncio.to_thread(room.live.catch_up_from, self.store)
            except Exception:  # memory and store disagree, or the store failed: rebuild
                log.warning("game %s: catching up failed, rebuilt from the store", game_id)
                await self.evict(room)
                return
            if applied:
                await self.push(room)

    async def catch_up_all(self) -> None:
        """Catch up every game in memory (after messages may have been missed)."""
        for game_id in list(self.rooms):
            await self.catch_up(game_id, None)

    def release(self, room: Room) -> None:
        """Drop a game nobody is connected to from memory (under its lock): the store keeps
        it, and the next connection rebuilds it. A server's memory holds the games being
        watched, not every game it ever served."""
        room.closed = True
        if room.timer is not None:
            room.timer.cancel()
        if self.rooms.get(room.live.id) is room:
            del self.rooms[room.live.id]

    async def evict(self, room: Room) -> None:
        room.closed = True
        if room.timer is not None:
            room.timer.cancel()
        if self.rooms.get(room.live.id) is room:
            del self.rooms[room.live.id]
        for connection in list(room.connections):
            with contextlib.suppress(Exception):  # already gone
                await connection.websocket.close(CLOSE_RESTART)
        room.connections.clear()
