"""The games in memory, by id: a small registry that loads, finds, reaps and evicts them.

Each game in memory is a :class:`~.room.Room`, an actor that owns its state and reads one inbox;
the hub only finds a game's room (rebuilding it from the store when it is not in memory), hands
each new connection to it (:meth:`Hub.serve`), tells it when another process moved it on, and
drops it when nobody needs it.

What a client can make the hub do is bounded: games in memory (``Settings.max_games``; a game
nobody is connected to is dropped after ``Settings.idle_seconds``, the store keeps it), games
created per client address, connections per game and per seat, messages per connection (a token
bucket for every message, accepted or not: :mod:`.connection`), and the computer players think
on a pool of their own (:mod:`.computers`), one decision at a time, never on the threads that
answer people.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import timedelta

from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected

from apokalypse.engine.errors import EngineError
from apokalypse.wire.seat import Summary

from .actor import Actor
from .computers import ComputerPool
from .connection import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, CLOSE_TRY_LATER, Connection, shut
from .days import Now
from .entries import Logged
from .fanout import Fanout
from .games import LiveGame
from .inputs import Heard, Leave, Start
from .limits import Allowance
from .making import rebuild, shown_move_of, stored_summary, summary_of
from .memory import TRIM
from .metrics import Metrics
from .refusals import message
from .room import STAND_BY, Closed, Room
from .services import Services
from .settings import Settings
from .setup import TURN_BASED
from .store import Store, StoreError

REAP_EVERY = 5.0  # seconds between looks for games nobody needs in memory
SWEEP_EVERY = 3.0  # seconds between looks for turn-based games whose deadline passed …
SWEEP_GAMES = 8  # … and how many of them one look takes over at most

log = logging.getLogger(__name__)


class Full(Exception):
    """No room for one more game in memory: every game held has somebody connected."""


class Hub:
    """The games in memory, by id; a game not there is rebuilt from the store."""

    def __init__(
        self,
        store: Store,
        fanout: Fanout | None = None,
        settings: Settings | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        settings = settings if settings is not None else Settings()
        self.services = Services(
            store,
            fanout,
            settings,
            metrics if metrics is not None else Metrics(),
            ComputerPool(settings.computer_threads),
            # The coach thinks in a process of its own, never on the computers' pool
            ComputerPool(settings.coach_threads, "coach", processes=True),
        )
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}  # games being rebuilt now
        self._missed: set[str] = set()  # … and told meanwhile that they advanced elsewhere
        self._creators = Allowance(settings.create_per_minute, settings.create_burst)
        self._reaper: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.draining = False

    # What every room shares, read from the services (never a second copy).
    @property
    def store(self) -> Store:
        return self.services.store

    @property
    def fanout(self) -> Fanout | None:
        return self.services.fanout

    @property
    def settings(self) -> Settings:
        return self.services.settings

    @settings.setter
    def settings(self, settings: Settings) -> None:  # a test's: every room reads them anew
        self.services.settings = settings

    @property
    def metrics(self) -> Metrics:
        return self.services.metrics

    @property
    def computers(self) -> ComputerPool:
        return self.services.computers

    # The time turn-based deadlines are kept in, and the seconds idle games, turn timers,
    # automatic answers and a connection's paces are timed in (a test moves its own).
    @property
    def now(self) -> Now:
        return self.services.now

    @now.setter
    def now(self, now: Now) -> None:
        self.services.now = now

    @property
    def clock(self) -> Callable[[], float]:
        return self.services.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.services.clock = clock

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
        room.post(Start())  # the clock, an automatic answer owed, the computers
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
            room.close_soon()
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
        room = self.rooms[live.id] = Room(live, self.services, self._closed)
        if self._reaper is None and not self.draining:
            self._reaper = asyncio.create_task(self._reap())
        return room

    def _closed(self, room: Actor) -> None:
        if self.rooms.get(room.live.id) is room:
            del self.rooms[room.live.id]

    async def add(self, live: LiveGame) -> Room | None:
        """A game just made here. Held in memory only when its computer players are to act
        (they play it here); one that waits for a person stays in the store until somebody
        opens it: a game made and never opened costs no memory, and its clock starts when it
        is first opened."""
        if not live.computer_to_act():
            return None
        room = self.install(live, made_here=True)
        room.post(Start())
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
                try:
                    games.append(await room.look(summary_of))
                    continue
                except Closed:  # it left memory meanwhile: the store's
                    pass
            if game_id in found:
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
        dropped = 0
        for room in list(self.rooms.values()):
            if room.idle_since is not None and await room.release_if_idle():
                dropped += 1
        if dropped and TRIM is not None:
            await asyncio.to_thread(TRIM)
        return dropped

    # -- other processes ------------------------------------------------------------------

    async def catch_up(
        self, game_id: str, move: int | None, entries: tuple[Logged, ...] = ()
    ) -> None:
        """Another process advanced ``game_id`` to ``move`` (None: perhaps, look), writing
        ``entries``: its room folds them, or catches up from the store
        (:class:`~.inputs.Heard`)."""
        room = self.rooms.get(game_id)
        if room is None:
            if game_id in self._loading:  # being rebuilt from a read that may predate this
                self._missed.add(game_id)
            return  # not in memory: rebuilt from the store when asked for
        room.post(Heard(move, entries))

    async def catch_up_all(self) -> None:
        """Catch up every game in memory (after messages may have been missed)."""
        for game_id in list(self.rooms):
            await self.catch_up(game_id, None)

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
        for game_id in await asyncio.to_thread(self.store.running_with, TURN_BASED, limit):
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
            late = room.standing_by()  # it takes over; this one later
            when = now - timedelta(seconds=STAND_BY) if late else now
            if await room.overdue(when):
                changed += 1
        return changed

    # -- connections ----------------------------------------------------------------------

    async def serve(self, websocket: WebSocket, game_id: str, token: str | None) -> None:
        """One WebSocket connection to a game, from its opening to its end: the connection
        reads its client's messages and hands each to the game's room."""
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
        while not await room.join(connection):
            # Released or evicted meanwhile: the game rebuilt from the store is the one to join.
            try:
                room = await self.room(game_id)
            except (StoreError, Full):
                await shut(websocket, CLOSE_TRY_LATER, "try again")
                return
        if connection.gone:  # turned away: too many connections
            return
        try:
            async for data in connection.frames():
                await room.request(connection, data)
                if room.closed:
                    return
        except (WebSocketDisconnect, WebSocketDisconnected):  # gone
            pass
        finally:
            room.post(Leave(connection))
            connection.close()

    async def drain(self) -> None:
        """Shutting down: let every change under way finish (its write included), then stop
        the clocks and the computer players. Connections are closed by the server (1012:
        reconnect, to another process or to this one restarted)."""
        self.draining = True
        for task in (self._reaper, self._sweeper):
            if task is not None:
                task.cancel()
        for room in list(self.rooms.values()):
            await room.stop()  # after the change under way
        await self.computers.close()
        await self.services.coach.close()

    def connection_count(self) -> int:
        return sum(len(room.connections) for room in self.rooms.values())
