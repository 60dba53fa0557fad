"""A game in play is an actor: one task owns its state and reads one inbox.

Everything that may change or read a game in memory arrives at its room as an input
(:mod:`.inputs`): a client's message, a connection joining or leaving, a timer running out, a
computer's or the coach's answer, a notice that another process moved the game on, a look from
the lobby. The room's task takes them one at a time, in order; nothing else touches the game, so
no lock guards it. What a room sends goes to each connection's own outbox (:mod:`.connection`):
the room never waits for a client. This module is the actor: its inbox, its connections and
views, its changes; :mod:`.room` adds what each input does.

A change the store refuses (another process made the same move first) rebuilds the game from
the store in place: its connections stay, and the person whose action lost is told so.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from pydantic import ValidationError

from apokalypse.engine.errors import EngineError
from apokalypse.wire import read_client_message
from apokalypse.wire.coach import AdviceMessage
from apokalypse.wire.talk import talk_message

from .clock import At, Clock
from .connection import CLOSE_RESTART, CLOSE_TRY_LATER, Connection, Made, is_sign
from .entries import Logged
from .games import LiveGame
from .inputs import (
    Advised,
    AnswerDue,
    Closed,
    Heard,
    Input,
    Join,
    Leave,
    Look,
    Overdue,
    Release,
    Request,
    Ring,
    StandBy,
    Start,
    Stop,
    Think,
    Thought,
    changes_game,
    settle,
)
from .making import rebuild
from .refusals import Refused, message
from .services import Services
from .store import StoreError
from .tutorial.tutor import Tutoring

MAX_TABS = 4  # connections one seat may hold at once (a phone, a laptop, a reload or two)
STAND_BY = 2.0  # seconds a process that did not make a game's last change waits to take it on

T = TypeVar("T")
log = logging.getLogger(__name__)

# A connection's seat, how many events it was sent, and whether it was sent nothing yet.
Viewer = tuple[int | None, int, bool]
Work = Callable[[LiveGame], bool]


class Actor(ABC):
    """One game in play: its state (:class:`LiveGame`), its connections, and the task that
    reads its inbox."""

    def __init__(
        self, live: LiveGame, services: Services, on_close: Callable[[Actor], None]
    ) -> None:
        self.live = live
        self.services = services
        self.connections: list[Connection] = []
        self.closed = False
        self.idle_since: float | None = services.clock()  # None: somebody is connected
        self.timer: asyncio.Task[None] | None = None  # runs out the deciding person's clock
        self.computing: asyncio.Task[None] | None = None  # the computers' next decision
        self.answering: asyncio.Task[None] | None = None  # a forced answer given for a person
        self.answers = -1  # the move that answer is for
        self.advising: dict[int, asyncio.Task[None]] = {}  # the coach, by seat
        self.thinking: int | None = None  # the move a computer thinks about on its pool now
        self._pace = 0.0  # the wait before the next decision when nobody watches
        self._inbox: asyncio.Queue[Input] = asyncio.Queue()
        self._waiting: deque[Input] = deque()  # changes held while a computer thinks
        self._on_close = on_close
        self.tutoring = Tutoring(live)  # a guided game's coach (its learner's)
        self._task = asyncio.create_task(self._run(), name=f"game {live.id}")

    # -- what others ask of the room (each an input) ---------------------------------------

    def post(self, item: Input) -> None:
        """Hand the room an input; one posted to a closed room is settled as refused."""
        if self.closed:
            settle(item)
        else:
            self._inbox.put_nowait(item)

    async def join(self, connection: Connection) -> bool:
        """Add a connection and send it its view; False when the room closed meanwhile (a
        connection over the game's bounds is closed, 1013, and True)."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.post(Join(connection, done))
        return await done

    async def request(self, connection: Connection, data: object) -> None:
        """A client's message (parsed JSON), answered before the connection's next is read."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        sign = is_sign(data)
        try:
            request = read_client_message(data) if sign is None else None
        except ValidationError:
            sign = "message"
            request = None
        self.post(Request(connection, request, sign, time.monotonic(), done))
        await done

    async def look(self, read: Callable[[LiveGame], T]) -> T:
        """``read(live)`` between the room's changes; :class:`Closed` when it closed."""
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        def run(live: LiveGame) -> None:
            done.set_result(read(live))

        def closed() -> None:
            if not done.done():
                done.set_exception(Closed())

        self.post(Look(run, closed))
        return await done

    async def overdue(self, now: datetime) -> bool:
        """A turn-based deadline passed by ``now`` (:meth:`LiveGame.run_out`); any change?"""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.post(Overdue(now, done))
        return await done

    async def release_if_idle(self) -> bool:
        """Close the room if nobody has been connected for ``idle_seconds`` and the game does
        not go on meanwhile (:meth:`busy`); whether it closed."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.post(Release(done))
        return await done

    async def stop(self) -> None:
        """Close the room once the input under way is done (its write included)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.post(Stop(done))
        await done

    # -- the actor ----------------------------------------------------------------------

    async def _run(self) -> None:
        while not self.closed:
            if self._waiting and self.thinking is None:
                item = self._waiting.popleft()
            else:
                item = await self._inbox.get()
                if self.thinking is not None and changes_game(item):
                    self._waiting.append(item)  # the pool reads the state: after its answer
                    continue
            try:
                await self._handle(item)
            except Exception:
                self.services.metrics.errors.labels(where="game").inc()
                log.exception("game %s: an input failed", self.live.id)
            finally:
                settle(item)  # a future nobody set (an error, a closed room): answered now
        for item in (*self._waiting, *_drained(self._inbox)):
            settle(item)

    async def _handle(self, item: Input) -> None:
        match item:
            case Request():
                await self._request(item)
            case Join(connection, done):
                done.set_result(self._join(connection))
            case Leave(connection):
                self._leave(connection)
            case Think(move):
                self._think(move)
            case Thought():
                await self._thought(item)
            case Ring(move=ring):
                await self._change(lambda live: live.run_out(self.services.store, ring))
            case AnswerDue(move=due):
                if await self._change(lambda live: live.answer_for(self.services.store, due)):
                    self.services.metrics.actions.labels(by="auto").inc()
            case Heard(move, entries):
                await self._catch_up(move, entries)
            case StandBy(move):
                await self._stand_by(move)
            case Advised(connection, seat, actions, made):
                self._advised(connection, seat, actions, made)
            case Overdue(now, done):
                at = At(self.services.clock(), now)
                work = functools.partial(LiveGame.run_out, store=self.services.store, at=at)
                done.set_result(await self._change(work))
            case Look(run):
                run(self.live)
            case Release(done):
                done.set_result(self._release())
            case Stop(done):
                self._close()
                done.set_result(None)
            case Start():
                self._wind()
                self._kick()

    # -- connections ----------------------------------------------------------------------

    def _join(self, connection: Connection) -> bool:
        same = [c for c in self.connections if c.seat == connection.seat]
        bound = self.services.settings.max_connections if connection.seat is None else MAX_TABS
        if len(same) >= bound:
            crowded = message("crowded", self.live.lang)
            connection.close(CLOSE_TRY_LATER, crowded)
            return True
        self.connections.append(connection)
        self.idle_since = None
        if connection.seat is not None and not same:
            self.push()  # the newcomer its view, the others its seat's status
        else:  # a spectator or a second tab: nobody else's view changes
            self.send(connection, {})
            self._send_talk(connection)
        return True

    def _leave(self, connection: Connection) -> None:
        """A connection ended: the others learn when its seat has nobody left; a game with no
        connection left waits ``idle_seconds`` in memory (a reload comes back to it)."""
        if connection not in self.connections:
            return
        self.connections.remove(connection)
        if not self.connections:
            self.idle_since = self.services.clock()
        elif connection.seat is not None and connection.seat not in self.connected():
            self.push()  # the others: this seat's person is gone

    def connected(self) -> frozenset[int]:
        return frozenset(c.seat for c in self.connections if c.seat is not None and not c.gone)

    def send(self, connection: Connection, made: dict[Viewer, Made]) -> None:
        """Send ``connection`` its view if it changed. ``made``: this push's views so far, by
        viewer and first event (spectators and a person's second tab share one)."""
        live = self.live
        first = connection.said is None  # its first message: the card facts too
        key = (connection.seat, connection.sent, first)
        view = made.get(key)
        if view is None:
            tutorial = self.tutoring.view(live, connection.seat)
            state = live.view(connection.seat, connection.sent, self.connected(), first, tutorial)
            view = made[key] = Made(state, live.wire)
        # Only news is sent: a message whose view did not change would itself be news (in a
        # window, that somebody not shown answered).
        if not view.message["events"] and view.said == connection.said:
            return
        connection.said, connection.shown = view.said, view.shown
        connection.sent = len(live.log)
        connection.post(view)

    def push(self) -> None:
        """Send every connection whose view changed the news, and set the clock of whoever
        decides now."""
        made: dict[Viewer, Made] = {}
        for connection in self.connections:
            if not connection.gone:
                self.send(connection, made)
                self._send_talk(connection)
        self._wind()

    def _send_talk(self, connection: Connection) -> None:
        live = self.live
        lines = connection.talk.news(live.talk, connection.seat, live.state.is_over)
        if lines:
            connection.post(talk_message(lines))

    def _refuse(self, connection: Connection, refused: Refused) -> None:
        connection.bucket.spend()
        self.services.metrics.refusals.inc()
        connection.post(refused.to_json())

    # -- changes --------------------------------------------------------------------------

    async def _change(self, work: Work, asking: Connection | None = None) -> bool:
        """Run ``work(live)`` (blocking, in a thread); when it changed the game, tell every
        connection and the other processes, and let the computer players on when the decision
        is theirs now. Refusals propagate. Where the store refuses the change (another process
        made a move first), the game is rebuilt from the store in place and ``asking`` (whose
        action it was) is told that it was not taken."""
        live = self.live
        before = live.state.move
        try:
            changed = bool(await asyncio.to_thread(work, live))
        except Refused:
            raise
        except StoreError as exc:  # StaleAction; the store and memory disagree
            await self._rebuild(str(exc))
            if asking is not None:
                raise Refused(message("moved-on", live.lang)) from None
            return False
        except EngineError:  # a bug of a player or a record that no longer replays
            self.services.metrics.errors.labels(where="change").inc()
            log.exception("game %s: a change failed", live.id)
            return False
        if changed:
            self.push()
            if self.services.pushes is not None:  # this process made it: it may push
                self.services.pushes.changed(live)
            await self._publish(before)
            self._kick()
        elif self.timer is None:  # a timer woken a moment early: wound again
            self._wind()
        return changed

    async def _publish(self, before: int | None = None) -> None:
        """Tell the other processes what this one wrote since it last did, and the move now
        where the game moved since ``before``."""
        fanout, live = self.services.fanout, self.live
        written, live.written = live.written, []
        if fanout is not None:
            moved = before is not None and live.state.move != before
            await fanout.publish(live.id, live.state.move if moved else None, written)

    async def _read_store(self) -> bool:
        """Apply what other processes stored after this copy's last action, and push it; False
        when memory and store disagreed and the game was rebuilt in place instead (the store is
        the truth: :meth:`_rebuild`)."""
        try:
            applied = await asyncio.to_thread(self.live.catch_up_from, self.services.store)
        except StoreError as exc:
            await self._rebuild(str(exc))
            return False
        if applied:
            self.push()
        return True

    async def _rebuild(self, why: str) -> None:
        """Replace the game in memory by the stored one, keeping its connections: each is sent
        what it has not seen (the events it was sent are the same in both; a move made here and
        refused by the store was never sent). Only a record that no longer replays closes them
        (1012)."""
        services, old = self.services, self.live
        services.metrics.rebuilds.inc()
        log.warning("game %s: rebuilt from the store in place (%s)", old.id, why)
        try:
            live = await asyncio.to_thread(
                rebuild, services.store, old.id, services.now, services.clock
            )
        except Exception:
            services.metrics.errors.labels(where="rebuild").inc()
            log.exception("game %s: could not be rebuilt; its connections reconnect", old.id)
            self._evict()
            return
        if isinstance(old.timer, Clock) and isinstance(live.timer, Clock):  # the banks spent
            live.timer.banks = list(old.timer.banks)
            live.follow_clock()
        self.live = live
        self.tutoring = Tutoring(live)
        for connection in list(self.connections):
            if connection.sent > len(live.log):  # cannot be (see above); if it were: reconnect
                connection.close(CLOSE_RESTART, "reconnect")
                self.connections.remove(connection)
        self.push()
        self._kick()

    # -- closing ----------------------------------------------------------------------------

    def _release(self) -> bool:
        idle = self.idle_since
        if idle is None or self.connections or self.busy():
            return False
        if self.services.clock() - idle < self.services.settings.idle_seconds:
            return False
        self._close()
        return True

    def close_soon(self) -> None:
        """Close the room after the input under way (memory is needed for another game)."""
        self.post(Stop(asyncio.get_running_loop().create_future()))
        self._on_close(self)

    def _close(self) -> None:
        """No more inputs, timers nor computer turns: the room is dropped."""
        self.closed = True
        for task in (self.timer, self.computing, self.answering, *self.advising.values()):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self.timer = self.computing = self.answering = None
        self.advising.clear()
        self._on_close(self)

    def _evict(self) -> None:
        """Drop a game that no longer replays; its players reconnect (close code 1012)."""
        self._close()
        for connection in self.connections:
            connection.close(CLOSE_RESTART, "reconnect")
        self.connections.clear()

    # -- what the room does (room.Room) ---------------------------------------------------

    @abstractmethod
    async def _request(self, item: Request) -> None: ...

    @abstractmethod
    def _think(self, move: int) -> None: ...

    @abstractmethod
    async def _thought(self, item: Thought) -> None: ...

    @abstractmethod
    async def _stand_by(self, move: int) -> None: ...

    @abstractmethod
    async def _catch_up(self, move: int | None, entries: tuple[Logged, ...]) -> None: ...

    @abstractmethod
    def _advised(
        self, connection: Connection, seat: int, actions: int, made: AdviceMessage
    ) -> None: ...

    @abstractmethod
    def _wind(self) -> None: ...

    @abstractmethod
    def _kick(self) -> None: ...

    @abstractmethod
    def busy(self) -> bool: ...


def _drained(inbox: asyncio.Queue[Input]) -> list[Input]:
    items = []
    with contextlib.suppress(asyncio.QueueEmpty):
        while True:
            items.append(inbox.get_nowait())
    return items
