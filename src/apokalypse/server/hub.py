"""The games in memory and their connections: who is sent what, when, and who may change a game.

A :class:`Room` is one game in memory (:class:`LiveGame`), its lock and its connections; the
:class:`Hub` holds the rooms by id, rebuilds a game from the store when it is asked for, runs every
change under the game's lock and pushes each connection its own view afterwards (only when that
view changed: see :mod:`apokalypse.wire.seat`).

What a client can make the hub do is bounded: games in memory (``Settings.max_games``; a game
nobody is connected to is dropped after ``Settings.idle_seconds``, the store keeps it), games
created per client address, connections per game and per seat, messages per connection (a token
bucket for every message, accepted or not), and the computer players think on a pool of their own
(:mod:`.computers`), one decision at a time, never on the threads that answer people.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cached_property

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError
from starlette.websockets import WebSocketDisconnected

from apokalypse.engine.errors import EngineError
from apokalypse.wire import (
    ActionMessage,
    AdviseMessage,
    AutoMessage,
    CoachMessage,
    NameMessage,
    SayMessage,
    SeatMessage,
    WhyMessage,
    read_client_message,
)
from apokalypse.wire.coach import coach_refusal
from apokalypse.wire.seat import Stable, Summary, WireState, stable
from apokalypse.wire.talk import talk_message

from .coach import Budgets, Question, answer_apart
from .computers import IDLE, URGENT, ComputerPool
from .conversation import hear
from .days import META as DAYS_META
from .days import Now, utc_now
from .fanout import Fanout
from .games import LiveGame, Refused, message, rebuild, shown_move_of, stored_summary
from .limits import Allowance, Bucket, client_host
from .memory import TRIM
from .metrics import Metrics
from .outbox import deliver
from .settings import Settings
from .store import Store, StoreError
from .talk import Listener

CLOSE_FORBIDDEN = 4403  # a token that opens no seat
CLOSE_NOT_FOUND = 4404  # no such game
CLOSE_RESTART = 1012  # the game must be rebuilt from the store: reconnect
CLOSE_ABUSE = 1008  # a connection that keeps flooding the server after being told to stop
CLOSE_TRY_LATER = 1013  # too many connections to the game, or games on the server

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
MAX_TABS = 4  # connections one seat may hold at once (a phone, a laptop, a reload or two)
STAND_BY = 2.0  # seconds a process that did not make a game's last change waits to take it on
REAP_EVERY = 5.0  # seconds between looks for games nobody needs in memory
SWEEP_EVERY = 3.0  # seconds between looks for turn-based games whose deadline passed …
SWEEP_GAMES = 8  # … and how many of them one look takes over at most
CLOSE_REASON = 123  # bytes: the longest close reason a WebSocket frame may carry

log = logging.getLogger(__name__)


class Full(Exception):
    """No room for one more game in memory: every game held has somebody connected."""


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

    def __post_init__(self) -> None:
        self.bucket = Bucket(RATE, BURST, self.clock)
        self.whys = Bucket(WHY_RATE, WHY_BURST, self.clock)
        self.talk = Listener(clock=self.clock)

    def blocked(self) -> bool:
        """Whether this message is dropped unread (the connection sent too many)."""
        if self.bucket.empty():
            self.dropped += 1
            return True
        return False


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
    computing: asyncio.Task[None] | None = None  # the computer players' turns (Hub.kick)
    answering: asyncio.Task[None] | None = None  # a forced answer given for a person (Hub.wind)
    answers: int = -1  # the move that answer is for
    advising: dict[int, asyncio.Task[None]] = field(default_factory=dict)  # the coach, by seat
    idle_since: float | None = None  # Hub.clock() since nobody is here; None: somebody is

    def connected(self) -> frozenset[int]:
        return frozenset(c.seat for c in self.connections if c.seat is not None)

    def busy(self) -> bool:
        """Whether the game goes on without anybody connected, and is kept in memory until it
        waits again: an answer is on its way for a person, or the computers play a turn-based
        game (nobody need open it for it to go on; a game without deadlines waits in the
        store, and goes on when somebody opens it)."""
        if self.answering is not None:
            return True
        return self.live.days is not None and self.live.computer_to_act()

    def live_step(self, store: Store) -> Callable[[], bool]:
        """One computer decision of this game, as a job for the computer players' pool."""
        live = self.live
        return lambda: live.computer_step(store)

    def stop(self) -> None:
        """No more timers nor computer turns: the room is dropped."""
        self.closed = True
        for task in (self.timer, self.computing, self.answering, *self.advising.values()):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self.timer = self.computing = self.answering = None
        self.advising.clear()


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


class Hub:
    """The games in memory, by id; a game not there is rebuilt from the store."""

    def __init__(
        self,
        store: Store,
        fanout: Fanout | None = None,
        settings: Settings | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.fanout = fanout  # None: one process alone
        self.settings = settings if settings is not None else Settings()
        self.metrics = metrics if metrics is not None else Metrics()
        self.rooms: dict[str, Room] = {}
        self.computers = ComputerPool(self.settings.computer_threads)
        # The coach thinks in a process of its own, never on the computers' pool (computers.py)
        self.coach = ComputerPool(self.settings.coach_threads, "coach", processes=True)
        self._coached: Counter[str] = Counter()  # coach questions in flight, by client address
        self._loading: dict[str, asyncio.Future[Room]] = {}  # games being rebuilt now
        self._missed: set[str] = set()  # … and told meanwhile that they advanced elsewhere
        self._creators = Allowance(self.settings.create_per_minute, self.settings.create_burst)
        self._reaper: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.draining = False
        self.now: Now = utc_now  # the time turn-based deadlines are kept in (a test moves it)
        # The seconds idle games, turn timers, automatic answers and a connection's paces are
        # timed in (Room.idle_since, LiveGame.ticks, Hub._answer, its Buckets): a test moves a
        # clock of its own instead of waiting them out or racing them. Their waits sleep real
        # seconds, and look at it again.
        self.clock: Callable[[], float] = time.monotonic

    # -- games in memory ------------------------------------------------------------------

    async def room(self, game_id: str) -> Room:
        """The game's room, rebuilt from the store when it is not in memory (a
        :class:`StoreError` for an unknown game, :class:`Full` when memory is full)."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        loading = self._loading.get(game_id)
        if loading is not None:  # one rebuild per game, however many connect at once
            return await asyncio.shield(loading)
        future: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            live = await asyncio.to_thread(rebuild, self.store, game_id, self.now, self.clock)
            # Another process may have moved the game on after the rebuild read the store: its
            # notice found no room here (catch_up), so it was noted; read the store again.
            while game_id in self._missed:
                self._missed.discard(game_id)
                await asyncio.to_thread(live.catch_up_from, self.store)
            room = self.install(live)
            future.set_result(room)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting for it
            raise
        finally:
            del self._loading[game_id]
            self._missed.discard(game_id)
        async with room.lock:  # the clock, and an automatic answer owed (Hub._answer_later)
            if not room.closed:
                self.wind(room)
        self.kick(room)
        return room

    def make_space(self, lang: str = "en") -> None:
        """Room for one more game in memory: the longest idle games are dropped when memory is
        full; :class:`Full` (in ``lang``) when every game held has somebody connected."""
        if len(self.rooms) < self.settings.max_games:
            return
        idle = sorted(
            (r for r in self.rooms.values() if r.idle_since is not None and not r.connections),
            key=lambda r: r.idle_since or 0.0,
        )
        for room in idle[: len(self.rooms) - self.settings.max_games + 1]:
            self.release(room)
        if len(self.rooms) >= self.settings.max_games:
            raise Full(message("full", lang))

    def install(self, live: LiveGame, made_here: bool = False) -> Room:
        """Hold a game in memory (:meth:`make_space` first; a game ``made_here`` has had its
        space made before it was stored, and is held even if others took it meanwhile)."""
        try:
            self.make_space(live.lang)
        except Full:
            if not made_here:
                raise
        live.now, live.ticks = self.now, self.clock
        room = self.rooms[live.id] = Room(live, idle_since=self.clock())
        if self._reaper is None and not self.draining:
            self._reaper = asyncio.create_task(self._reap())
        return room

    async def add(self, live: LiveGame) -> Room | None:
        """A game just made here. Held in memory only when its computer players are to act
        (they play it here); one that waits for a person stays in the store until somebody
        opens it: a game made and never opened costs no memory, and its clock starts when it
        is first opened."""
        if not live.computer_to_act():
            return None
        room = self.install(live, made_here=True)
        async with room.lock:
            self.wind(room)
        self.kick(room)
        return room

    def may_create(self, client: str) -> float:
        """Whether ``client`` (an address) may create a game now: 0, or the seconds to wait."""
        return self._creators.take(client)

    async def summaries(self, game_ids: list[str]) -> list[Summary]:
        """What anybody may know of those of ``game_ids`` that exist, in their order: from
        memory when a game is there, else from the store (a look at a game never loads it:
        looking is not playing)."""
        found = await asyncio.to_thread(self.store.summaries, game_ids)
        games: list[Summary] = []
        for game_id in game_ids:
            room = self.rooms.get(game_id)
            if room is not None:
                async with room.lock:
                    games.append(room.live.summary())
            elif game_id in found:
                record, move, names = found[game_id]
                if move is None:  # stored before the shown move was kept: replay to know it
                    move = await asyncio.to_thread(shown_move_of, self.store, game_id)
                games.append(stored_summary(game_id, record, move, names))
        return games

    async def summary(self, game_id: str) -> Summary:
        """One game's summary (:meth:`summaries`); a :class:`StoreError` when there is none."""
        games = await self.summaries([game_id])
        if not games:
            raise StoreError(f"there is no game {game_id!r}")
        return games[0]

    async def _reap(self) -> None:
        """Look for games nobody needs in memory every few seconds (:meth:`release_idle`)
        while any game is held."""
        while self.rooms:
            await asyncio.sleep(min(REAP_EVERY, self.settings.idle_seconds / 2))
            await self.release_idle()
        self._reaper = None

    async def release_idle(self) -> int:
        """Drop the games nobody has been connected to for ``idle_seconds`` by :attr:`clock`
        (the store keeps them; the next connection rebuilds one), and hand their memory back;
        how many were dropped."""
        now = self.clock()
        dropped = 0
        for room in list(self.rooms.values()):
            if room.idle_since is not None and now - room.idle_since >= self.settings.idle_seconds:
                async with room.lock:
                    if not room.connections and not room.closed and not room.busy():
                        self.release(room)
                        dropped += 1
        if dropped and TRIM is not None:
            await asyncio.to_thread(TRIM)
        return dropped

    def release(self, room: Room) -> None:
        """Drop a game from memory (under its lock, or before anybody could take it)."""
        room.stop()
        if self.rooms.get(room.live.id) is room:
            del self.rooms[room.live.id]

    async def evict(self, room: Room) -> None:
        """Drop a game whose memory and store disagree; its players reconnect to the stored
        one (close code 1012)."""
        self.release(room)
        for connection in list(room.connections):
            with contextlib.suppress(Exception):  # already gone
                await connection.websocket.close(CLOSE_RESTART)
        room.connections.clear()

    # -- views ------------------------------------------------------------------------------

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
        delivered = await deliver(connection.websocket, view)
        if not delivered and connection in room.connections:  # gone: dropped, the game goes on
            room.connections.remove(connection)
            if not room.connections:
                room.idle_since = self.clock()

    async def push(self, room: Room) -> None:
        """Send every connection whose view changed the news, and set the clock of whoever
        decides now."""
        made: dict[Viewer, Made] = {}
        for connection in list(room.connections):
            await self.send(room, connection, made)
            await self.send_talk(room, connection)
        self.wind(room)

    async def send_talk(self, room: Room, connection: Connection) -> None:
        """Send ``connection`` the lines of table talk it may read and was not sent yet."""
        live = room.live
        lines = connection.talk.news(live.talk, connection.seat, live.state.is_over)
        if lines:  # gone: send() drops it at the next push
            await deliver(connection.websocket, talk_message(lines))

    # -- clocks and computer players ------------------------------------------------------

    def standing_by(self, room: Room) -> bool:
        """Whether another process made the game's last change (several serve it): that one
        runs its clock, its automatic answers and its computer players; this one only
        ``STAND_BY`` later, in case it is gone, and asks the store first. Never two at once."""
        return self.fanout is not None and room.live.heard

    def wind(self, room: Room) -> None:
        """(Re)start the timer that hands the deciding person's seat to a computer player when
        their time runs out."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        deadline = room.live.deadline()
        if deadline is not None and self.standing_by(room):  # see LiveGame.time_out
            deadline += STAND_BY
        if deadline is not None and not room.closed:
            room.timer = asyncio.create_task(self._ring(room, room.live.state.move, deadline))
        self._answer_later(room)

    async def _ring(self, room: Room, move: int, deadline: float) -> None:
        # The deadline is by the game's clock (the hub's): woken early by it, the timer is wound
        # again (Hub.change).
        await asyncio.sleep(max(0.0, deadline - room.live.ticks()))
        room.timer = None  # this task ends here: push may wind a new one
        await self.change(room, lambda live: live.time_out(self.store, move))

    def _answer_later(self, room: Room) -> None:
        """Give the forced answer of a person's window question for them (LiveGame.forced_answer)
        after a short random delay, like a quick person's; whether or not they have the game
        open. As with the clock, where another process made the game's last change, that one
        answers, and this one only ``STAND_BY`` later, asking the store first."""
        live = room.live
        forced = live.forced_answer() is not None
        move = live.state.move
        if room.answering is not None:
            if forced and room.answers == move:  # already on its way (a push changed nothing)
                return
            room.answering.cancel()
            room.answering = None
        if not forced or room.closed:
            return
        delay = self.settings.answer_after()
        if self.standing_by(room):
            delay += STAND_BY
        room.answers = move
        room.answering = asyncio.create_task(self._answer(room, move, delay))

    async def _answer(self, room: Room, move: int, delay: float) -> None:
        due = self.clock() + delay
        while (left := due - self.clock()) > 0:  # by the hub's clock (a test's may stand still)
            await asyncio.sleep(left)
        if room.answering is asyncio.current_task():
            room.answering = None  # this task ends here: the push may start the next one
        # Under the game's lock, and only if it is still the same question (answer_for).
        if await self.change(room, lambda live: live.answer_for(self.store, move)):
            self.metrics.actions.labels(by="auto").inc()

    def start(self) -> None:
        """Start looking for turn-based games whose deadline passed (the app's start)."""
        if self._sweeper is None and not self.draining:
            self._sweeper = asyncio.create_task(self._sweep())

    async def resume(self) -> int:
        """Load the running turn-based games once (up to half of ``max_games``), so that what
        the server owes them goes on after a start: the computer players' moves and the
        automatic answers of a window's question, which nobody else would ask for while their
        people are away for days. Those that need nothing leave memory again when idle."""
        limit = max(1, self.settings.max_games // 2)
        resumed = 0
        for game_id in await asyncio.to_thread(self.store.running_with, DAYS_META, limit):
            try:
                await self.room(game_id)
            except (StoreError, Full):  # gone, or memory full: opened later by its people
                continue
            except EngineError:  # a record that no longer replays: it says so when opened
                log.warning("game %s: could not be resumed", game_id)
                continue
            resumed += 1
        return resumed

    async def _sweep(self) -> None:
        with contextlib.suppress(Exception):  # the store away at the start: opened when asked
            await self.resume()
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.sweep()
            except Exception:  # the store away for a moment: the next look tries again
                self.metrics.errors.labels(where="sweep").inc()
                log.exception("the sweep for overdue games failed")

    async def sweep(self) -> int:
        """Take over the decisions of up to ``SWEEP_GAMES`` turn-based games whose deadline
        passed (loading those not in memory), as the live timer does; how many changed."""
        now = self.now()
        changed = 0
        for game_id in await asyncio.to_thread(self.store.overdue, now, SWEEP_GAMES):
            try:
                room = await self.room(game_id)
            except (StoreError, Full):  # gone, or no room now: the next look tries again
                continue
            late = self.standing_by(room)  # it takes over; this one later
            when = now - timedelta(seconds=STAND_BY) if late else now
            if await self.change(
                room, functools.partial(LiveGame.overdue, store=self.store, now=when)
            ):
                changed += 1
        return changed

    def kick(self, room: Room) -> None:
        """Let the computer players act when the decision is theirs (in a task of the room's
        own; nothing waits for it). Where another process made the game's last change, that
        process lets them; this one takes over only if the game stands still ``STAND_BY``
        seconds (that process is gone): two processes playing the same decision would meet at
        the store's key, and one would have to rebuild."""
        if room.closed or room.computing is not None or not room.live.computer_to_act():
            return
        if self.standing_by(room):
            room.computing = asyncio.create_task(self._stand_by(room))
        else:
            room.computing = asyncio.create_task(self._computers(room))

    async def _stand_by(self, room: Room) -> None:
        """Watch a game another process plays the computers of; take them on if it stops."""
        live = room.live
        move = live.state.move
        take_on = False
        try:
            while not take_on:
                await asyncio.sleep(STAND_BY)
                if room.closed or not live.computer_to_act():
                    return
                if live.state.move != move:  # the other process played on: watch again
                    move = live.state.move
                    continue
                async with room.lock:
                    if room.closed:
                        return
                    try:
                        applied = await asyncio.to_thread(live.catch_up_from, self.store)
                    except EngineError:
                        await self.evict(room)
                        return
                    if applied:
                        await self.push(room)
                    if live.state.move == move:  # nobody played on: this process does
                        live.heard = False
                        take_on = True
                    move = live.state.move
        finally:
            if room.computing is asyncio.current_task():
                room.computing = None
        self.kick(room)

    async def _computers(self, room: Room) -> None:
        """The computer players' decisions, one at a time on their own pool, each pushed;
        until a person decides. A game nobody waits for (no seat connected) waits its turn
        behind those somebody waits for, and ``computer_pace`` between its decisions."""
        pause = self.settings.computer_delay
        try:
            while True:
                if pause > 0 and room.connected() and room.live.computer_to_act():
                    # People follow the computers' play: a pause before each decision, every
                    # one alike (shown or in a window: the pause tells nothing), off the lock.
                    await asyncio.sleep(pause)
                async with room.lock:
                    live = room.live
                    if room.closed or not live.computer_to_act():
                        return
                    waited = bool(room.connected())
                    before = live.state.move
                    started = time.monotonic()
                    try:
                        await self.computers.run(
                            URGENT if waited else IDLE, room.live_step(self.store)
                        )
                    except EngineError:  # another process took the move: the store is the truth
                        log.warning("game %s: a computer's move was taken already", live.id)
                        await self.evict(room)
                        return
                    self.metrics.think_seconds.observe(time.monotonic() - started)
                    self.metrics.actions.labels(by="computer").inc()
                    await self.push(room)
                    if self.fanout is not None:
                        moved = live.state.move != before
                        await self.fanout.publish(live.id, live.state.move if moved else None)
                if not waited and self.settings.computer_pace > 0:
                    await asyncio.sleep(self.settings.computer_pace)
        except Exception:
            self.metrics.errors.labels(where="computer").inc()
            log.exception("game %s: the computer players stopped", room.live.id)
        finally:
            if room.computing is asyncio.current_task():
                room.computing = None

    # -- changes --------------------------------------------------------------------------

    async def change(self, room: Room, work: Callable[[LiveGame], bool]) -> bool:
        """Run ``work(live)`` (blocking, in a thread) under the game's lock; when it changed the
        game, tell every connection and the other processes, and let the computer players on
        when the decision is theirs now. Refusals propagate."""
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
        if changed:
            self.kick(room)
        return changed

    async def act(self, room: Room, connection: Connection, data: object) -> None:
        """A message from a connection: do what it asks, or tell that connection why not."""
        live = room.live
        started = time.monotonic()
        try:
            request = read_client_message(data)
        except ValidationError:
            await self.refuse(connection, Refused(message("message", live.lang)))
            return
        try:
            if isinstance(request, NameMessage | SayMessage):
                await self.converse(room, connection, request)
                changed = False
            elif isinstance(request, WhyMessage):
                await self.explain(room, connection, request)
            elif isinstance(request, AdviseMessage):
                await self.advise(room, connection)
                changed = False
            else:
                changed = await self.change(
                    room, lambda live: self.perform(live, connection, request)
                )
        except Refused as exc:
            await self.refuse(connection, exc)
            return
        if isinstance(request, ActionMessage):  # paced by the game (see RATE)
            if changed:
                self.metrics.actions.labels(by="person").inc()
                self.metrics.answer_seconds.observe(time.monotonic() - started)
        else:
            connection.bucket.spend()

    async def converse(
        self, room: Room, connection: Connection, request: NameMessage | SayMessage
    ) -> None:
        """A name chosen or a line said (:mod:`.talk` decides; a :class:`Refused` says why
        not): whoever may read it is sent it, here and, through the store, on the other
        processes."""
        async with room.lock:
            if room.closed:
                return
            live, seat = room.live, connection.seat
            changed = await asyncio.to_thread(
                hear, self.store, live, seat, connection.talk, request
            )
            if changed:
                await self.push(room)
                if self.fanout is not None:
                    await self.fanout.publish(live.id, None)

    async def explain(self, room: Room, connection: Connection, request: WhyMessage) -> None:
        """Answer a "why" to the asking connection only (:meth:`LiveGame.why`): nothing
        changes, nobody else is sent anything."""
        if connection.whys.take() > 0:
            raise Refused(message("why-pace", room.live.lang))
        async with room.lock:
            if room.closed:
                return
            live, seat, shown = room.live, connection.seat, connection.shown
            answer = await asyncio.to_thread(live.why, seat, request, shown)
        await deliver(connection.websocket, answer)  # unless gone meanwhile

    def perform(
        self,
        live: LiveGame,
        connection: Connection,
        request: ActionMessage | SeatMessage | AutoMessage | CoachMessage,
    ) -> bool:
        """What a message asks of the game (blocking; under its lock); whether it changed."""
        seat = connection.seat
        if isinstance(request, ActionMessage):  # checked against what this connection was shown
            live.play(self.store, live.check(seat, request, connection.shown))
            return True
        if seat is None:
            raise Refused(message("spectator", live.lang))
        if isinstance(request, AutoMessage):  # the seat's own setting: only its view changes
            return live.set_manual(self.store, seat, not request.on)
        if isinstance(request, CoachMessage):  # every person's view may change (who may ask)
            return live.set_coach(self.store, seat, request.agree)
        if request.type == "rematch":
            if not live.state.is_over:
                raise Refused(message("not-over", live.lang))
            live.make_rematch(self.store)  # opened by whoever follows the link (Hub.room)
            return True  # every connection learns of it
        return live.set_away(self.store, seat, request.type == "leave")

    async def advise(self, room: Room, connection: Connection) -> None:
        """A seat asks the coach (:mod:`.coach`): its question is taken under the game's lock,
        the expert thinks on the coach's own pool (never the computer players': the game goes
        on meanwhile), and the answer goes to this connection only, unless the decision moved
        on meanwhile. One question per seat at a time, a pace per connection, and a bound on
        the questions in flight, in all and per client address; a :class:`Refused` says why
        not."""
        settings = self.settings
        async with room.lock:
            live, seat = room.live, connection.seat
            lang = live.lang
            refusal = coach_refusal(live.kinds, seat, live.coach_offered, live.coached)
            if refusal is not None:
                raise Refused(message(refusal, lang))
            assert seat is not None  # a spectator is refused above
            state = live.state
            if state.is_over or state.to_act != seat:
                raise Refused(message("coach-not-deciding", lang))
            if seat in room.advising:
                raise Refused(message("coach-busy", lang))
            address = client_host(connection.websocket)
            if (
                sum(self._coached.values()) >= settings.coach_in_flight
                or self._coached[address] >= settings.coach_per_address
            ):
                raise Refused(message("coach-full", lang))
            if connection.coach is None:
                per_second = settings.coach_per_minute / 60
                connection.coach = Bucket(per_second, settings.coach_burst, connection.clock)
            wait = connection.coach.take()
            if wait > 0:
                raise Refused(message("coach-pace", lang, seconds=max(1, round(wait))))
            question = Question(
                live.record,
                tuple(live.match.actions),
                seat,
                state.move,
                tuple(live.names),
                tuple(live.kinds),
            )
            self._coached[address] += 1
            advising = self._advise(room, connection, question, address)
            room.advising[seat] = asyncio.create_task(advising)

    async def _advise(
        self, room: Room, connection: Connection, question: Question, address: str
    ) -> None:
        live = room.live
        budgets = Budgets(self.settings.coach_iterations, self.settings.coach_seconds)
        lang = live.lang
        try:
            made = await self.coach.run(
                URGENT, functools.partial(answer_apart, question, budgets, lang)
            )
            async with room.lock:
                moved_on = room.closed or len(live.match.actions) != len(question.actions)
                allowed = coach_refusal(live.kinds, question.seat, live.coach_offered, live.coached)
                if moved_on or allowed is not None or connection not in room.connections:
                    return  # the decision moved on (or the coach was turned off): dropped
                await deliver(connection.websocket, made)  # unless gone meanwhile
        except Exception:
            self.metrics.errors.labels(where="coach").inc()
            log.exception("game %s: the coach failed", live.id)
        finally:
            self._coached[address] -= 1
            if self._coached[address] <= 0:
                del self._coached[address]
            if room.advising.get(question.seat) is asyncio.current_task():
                del room.advising[question.seat]

    async def refuse(self, connection: Connection, refused: Refused) -> None:
        connection.bucket.spend()
        self.metrics.refusals.inc()
        await deliver(connection.websocket, refused.to_json())  # unless gone meanwhile

    # -- other processes ------------------------------------------------------------------

    async def catch_up(self, game_id: str, move: int | None) -> None:
        """Another process advanced ``game_id`` to ``move`` (None: perhaps, look): bring this
        process's copy up to the store and push it to its connections. The computer players
        only catch up here: the process that applied the person's action lets them act."""
        room = self.rooms.get(game_id)
        if room is None:
            if game_id in self._loading:  # being rebuilt from a read that may predate this
                self._missed.add(game_id)
            return  # not in memory: rebuilt from the store when asked for
        async with room.lock:
            if room.closed or (move is not None and room.live.state.move >= move):
                return
            try:
                applied = await asyncio.to_thread(room.live.catch_up_from, self.store)
            except Exception:  # memory and store disagree, or the store failed: rebuild
                self.metrics.errors.labels(where="catch-up").inc()
                log.warning("game %s: catching up failed, rebuilt from the store", game_id)
                await self.evict(room)
                return
            if applied:
                await self.push(room)
        self.kick(room)

    async def catch_up_all(self) -> None:
        """Catch up every game in memory (after messages may have been missed)."""
        for game_id in list(self.rooms):
            await self.catch_up(game_id, None)

    # -- connections ----------------------------------------------------------------------

    async def serve(self, websocket: WebSocket, game_id: str, token: str | None) -> None:
        """One WebSocket connection to a game, from its opening to its end."""
        await websocket.accept()
        try:
            room = await self.room(game_id)
        except StoreError:
            await shut(websocket, CLOSE_NOT_FOUND, "there is no such game")
            return
        except Full as exc:
            await shut(websocket, CLOSE_TRY_LATER, str(exc))
            return
        seat = room.live.seat_of(token) if token is not None else None
        if token is not None and seat is None:
            await shut(websocket, CLOSE_FORBIDDEN, "this token opens no seat of this game")
            return
        # The whole log so far, in its own view.
        connection = Connection(websocket, seat, 0, clock=self.clock)
        while not await self.join(room, connection):
            # Released or evicted meanwhile: the game rebuilt from the store is the one to join.
            try:
                room = await self.room(game_id)
            except (StoreError, Full):
                await shut(websocket, CLOSE_TRY_LATER, "try again")
                return
        if connection not in room.connections:  # turned away: too many connections
            return
        try:
            await self.listen(room, connection)
        except (WebSocketDisconnect, WebSocketDisconnected):  # gone: a send to it failed
            pass
        finally:
            await self.leave(room, connection)

    async def join(self, room: Room, connection: Connection) -> bool:
        """Add a connection to a room and send it its view; False when the room was dropped
        meanwhile. A connection over the game's bounds is closed (1013) instead."""
        async with room.lock:
            if room.closed:
                return False
            same = [c for c in room.connections if c.seat == connection.seat]
            spectators = connection.seat is None
            if len(same) >= (self.settings.max_connections if spectators else MAX_TABS):
                await shut(
                    connection.websocket, CLOSE_TRY_LATER, message("crowded", room.live.lang)
                )
                return True
            room.connections.append(connection)
            room.idle_since = None
            if connection.seat is not None and not same:
                await self.push(room)  # the newcomer its view, the others its seat's status
            else:  # a spectator or a second tab: nobody else's view changes
                await self.send(room, connection, {})
                await self.send_talk(room, connection)
            return True

    async def listen(self, room: Room, connection: Connection) -> None:
        """Read a connection's messages until it goes away or its game is dropped."""
        websocket = connection.websocket
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            if connection.blocked():
                if connection.dropped == 1:
                    await self.refuse(connection, Refused(message("flood", room.live.lang)))
                elif connection.dropped >= MAX_DROPPED:
                    await websocket.close(CLOSE_ABUSE, "too many messages")
                    return
                continue
            text = frame.get("text")
            if not isinstance(text, str):  # a binary frame
                await self.refuse(connection, Refused(message("binary", room.live.lang)))
                continue
            await self.act(room, connection, parse_text(text))
            if room.closed:
                return

    async def leave(self, room: Room, connection: Connection) -> None:
        """A connection ended: the others learn when its seat has nobody left; a game with no
        connection left waits ``idle_seconds`` in memory (a reload comes back to it)."""
        async with room.lock:
            if connection not in room.connections:
                return
            room.connections.remove(connection)
            if not room.connections:
                room.idle_since = self.clock()
            elif connection.seat is not None and connection.seat not in room.connected():
                await self.push(room)  # the others: this seat's person is gone

    async def drain(self) -> None:
        """Shutting down: let every change under way finish (its write included), then stop
        the clocks and the computer players. Connections are closed by the server (1012:
        reconnect, to another process or to this one restarted)."""
        self.draining = True
        for task in (self._reaper, self._sweeper):
            if task is not None:
                task.cancel()
        for room in list(self.rooms.values()):  # computers waiting for their pool: no more
            if room.computing is not None:
                room.computing.cancel()
        for room in list(self.rooms.values()):
            async with room.lock:  # waits for the change under way
                room.stop()
        await self.computers.close()
        await self.coach.close()

    def connection_count(self) -> int:
        return sum(len(room.connections) for room in self.rooms.values())


async def shut(websocket: WebSocket, code: int, text: str) -> None:
    """Close a connection with ``code`` and a reason cut to fit its frame (123 bytes, at a
    character); a client already gone is no error."""
    reason = text.encode()[:CLOSE_REASON].decode(errors="ignore")
    with contextlib.suppress(Exception):
        await websocket.close(code, reason)
