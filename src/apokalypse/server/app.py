"""The online game server: HTTP to create and look at games, a WebSocket per player to play.

Server-authoritative: a client sends action texts, the engine judges them, computer players act
on the server, and every connection is sent its own view (``state.observation(seat)`` and
``event.view(seat).to_json()``), never a raw event, the seed of a running game or a token.

- ``POST /api/games`` ``{game, players, seats: ["human" | bot name, …], variants, lang}`` →
  ``{id, seats: [{seat, kind, token?}]}``; a token per human seat (its secret invite link's
  key). The database keeps only the tokens' SHA-256.
- ``GET /api/games/{id}`` → the public summary.
- ``GET /api/catalog?lang=`` → the games the lobby offers (title, players, variants) and the
  seat kinds, labelled in ``lang``: the browser keeps no copy of a game's facts.
- ``WebSocket /ws/games/{id}?token=…`` (no token: a spectator; a wrong one: closed with 4403).
  The server sends ``{"type": "state", "wire", "observation", "events", "legal"}`` on connect and
  after every change; the client sends ``{"action": "<notation>", "move": <n>}`` and a refused
  one is answered ``{"type": "refused", "reason", "rule"?}``.

Games live in memory while played, one :class:`asyncio.Lock` each; the engine, the computer
players and the database run in worker threads (``asyncio.to_thread``), so one slow game never
holds up another. After a restart a game is rebuilt from the store on first access.

Scale-out (``redis_url``): several processes over one database tell each other through Redis
(:mod:`.fanout`) that a game advanced, and each catches up its own copy from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from starlette.websockets import WebSocketDisconnected

from apokalypse.engine.errors import ConfigError, EngineError
from apokalypse.engine.registry import get_game
from apokalypse.i18n import check_lang
from apokalypse.i18n.texts import texts_for
from apokalypse.wire import ActionMessage, SeatMessage, read_client_message
from apokalypse.wire.seat import Catalog, Created, SeatLink, Stable, Summary, WireState, stable

from .catalog import catalog
from .fanout import Fanout
from .games import (
    LiveGame,
    Refused,
    create,
    message,
    new_game,
    rebuild,
    shown_move_of,
    stored_summary,
)
from .pages import add_pages
from .store import Store, StoreError

CLOSE_FORBIDDEN = 4403  # a token that opens no seat
CLOSE_NOT_FOUND = 4404  # no such game
CLOSE_RESTART = 1012  # the game must be rebuilt from the store: reconnect
CLOSE_ABUSE = 1008  # a connection that keeps flooding the server after being told to stop

MAX_MESSAGE = 4096  # bytes: the longest action text is a few dozen
MAX_FRAME = 65_536  # uvicorn closes a connection sending more (1009) before reading it at all
# The rate limit counts refused messages only: accepted actions are paced by the game itself (each
# must name the move it answers, so a client gets one in per change it has been sent).
RATE = 5.0  # refused messages per second a connection may send on average …
BURST = 20.0  # … and at once; beyond, its messages are dropped unread
MAX_DROPPED = 200  # dropped messages before the connection is closed
MAX_SUMMARIES = 100  # games one "my games" request may ask about
STAND_BY = 2.0  # seconds a process that did not make a game's last change waits to time it out

log = logging.getLogger(__name__)


class Timer(BaseModel):
    turn: float = Field(gt=0, le=3600, description="seconds for each decision")
    bank: float = Field(ge=0, le=36_000, description="seconds of reserve per person")


class CreateGame(BaseModel):
    game: str = Field(max_length=40)
    players: int
    seats: list[str] = Field(max_length=16)
    variants: list[str] = Field(default_factory=list, max_length=16)
    lang: str = Field(default="en", max_length=8)
    timer: Timer | None = None


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


def create_app(
    database_url: str, redis_url: str | None = None, channel_prefix: str | None = None
) -> FastAPI:
    """The app over the database at ``database_url`` (migrated to the newest schema); with
    ``redis_url``, one of several processes over that database, told of each other's moves
    through Redis on channels ``channel_prefix<game id>`` (:mod:`.fanout`)."""
    store = Store.open(database_url)
    fanout = Fanout(redis_url, channel_prefix) if redis_url is not None else None
    hub = Hub(store, fanout)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if fanout is None:
            yield
            return
        pubsub = await fanout.subscribe()  # subscribed before the first request is served
        listener = asyncio.create_task(fanout.run(hub.catch_up, hub.catch_up_all, pubsub))
        try:
            yield
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
            await fanout.close()

    app = FastAPI(title="Apokalypse", docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.hub = hub

    @app.exception_handler(RequestValidationError)
    async def one_line(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        detail = f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
        return JSONResponse({"detail": detail}, status_code=422)

    @app.post("/api/games")
    async def create_game(body: CreateGame) -> Created:
        timer = (body.timer.turn, body.timer.bank) if body.timer is not None else None
        try:
            new = new_game(body.game, body.players, body.seats, body.variants, body.lang, timer)
        except EngineError as exc:
            raise HTTPException(400, str(exc)) from None
        live = await asyncio.to_thread(create, store, new)
        room = hub.rooms[live.id] = Room(live)
        hub.wind(room)
        seats: list[SeatLink] = []
        for seat, kind in enumerate(live.kinds):
            entry: SeatLink = {"seat": seat, "kind": kind}
            if seat in new.tokens:
                entry["token"] = new.tokens[seat]
            seats.append(entry)
        return {"id": live.id, "seats": seats}

    @app.get("/api/games")
    async def summaries(
        ids: Annotated[str, Query(max_length=2000)] = "",
    ) -> dict[str, list[Summary]]:
        """The public summaries of those of ``ids`` (comma-separated) that exist: the browser
        keeps the links of "my games" and asks how each game stands."""
        wanted = [game_id for game_id in dict.fromkeys(ids.split(",")) if game_id]
        if len(wanted) > MAX_SUMMARIES:
            raise HTTPException(400, f"ids names {len(wanted)} games; at most {MAX_SUMMARIES}")
        found = await asyncio.to_thread(store.summaries, wanted)
        games: list[Summary] = []
        for game_id in wanted:
            room = hub.rooms.get(game_id)
            if room is not None:
                games.append(room.live.summary())
            elif game_id in found:
                record, move = found[game_id]
                if move is None:  # stored before the shown move was kept: replay to know it
                    move = await asyncio.to_thread(shown_move_of, store, game_id)
                games.append(stored_summary(game_id, record, move))
        return {"games": games}

    @app.get("/api/catalog")
    async def lobby_catalog(lang: Annotated[str, Query(max_length=8)] = "en") -> Catalog:
        """The games the lobby offers and who may sit at them, in ``lang`` (no token needed)."""
        try:
            return catalog(lang)
        except ConfigError as exc:  # an unknown language: the message names the known ones
            raise HTTPException(400, str(exc)) from None

    @app.get("/api/rules/{game}")
    async def rules(
        game: str,
        lang: Annotated[str, Query(max_length=8)] = "en",
        card: Annotated[str, Query(max_length=24)] = "",  # a card code (as a deck file spells it)
    ) -> dict[str, str]:
        """The rules in short, or one card's (``card``: its code), as the terminal's ``rules``."""
        try:
            known = get_game(game)
            config = known.config_from_options(2, [], None)  # every game has a 2-player form
            return {"text": texts_for(known.name, config.to_json(), check_lang(lang)).rules(card)}
        except EngineError as exc:
            raise HTTPException(404 if "game" in str(exc) else 400, str(exc)) from None

    @app.get("/api/games/{game_id}")
    async def summary(game_id: str) -> Summary:
        try:
            room = await hub.room(game_id)
        except StoreError:
            raise HTTPException(404, f"there is no game {game_id!r}") from None
        async with room.lock:
            return room.live.summary()

    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        await websocket.accept()
        try:
            room = await hub.room(game_id)
        except StoreError:
            await websocket.close(CLOSE_NOT_FOUND, "there is no such game")
            return
        seat = room.live.seat_of(token) if token is not None else None
        if token is not None and seat is None:
            await websocket.close(CLOSE_FORBIDDEN, "this token opens no seat of this game")
            return
        connection = Connection(websocket, seat, 0)  # the whole log so far, in its own view
        while True:
            async with room.lock:
                if not room.closed:
                    room.connections.append(connection)
                    await hub.push(room)  # the newcomer its view, the others its seat's status
                    break
            # Released or evicted meanwhile: the game rebuilt from the store is the one to join.
            room = await hub.room(game_id)
        try:
            while True:
                raw = await websocket.receive_text()
                if connection.blocked():
                    if connection.dropped == 1:
                        await hub.refuse(connection, Refused(message("flood", room.live.lang)))
                    elif connection.dropped >= MAX_DROPPED:
                        await websocket.close(CLOSE_ABUSE, "too many messages")
                        return
                    continue
                data: object = None  # not JSON, or too long: refused like any malformed one
                if len(raw) <= MAX_MESSAGE:
                    with contextlib.suppress(ValueError):
                        data = json.loads(raw)
                await hub.act(room, connection, data)
                if room.closed:
                    return
        except (WebSocketDisconnect, WebSocketDisconnected):  # gone: a send to it failed
            pass
        finally:
            if connection in room.connections:
                room.connections.remove(connection)
                async with room.lock:
                    if room.closed:
                        pass
                    elif room.connections:
                        await hub.push(room)  # the others: this seat's person is gone
                    else:
                        hub.release(room)

    add_pages(app)
    return app


def run_server(
    host: str,
    port: int,
    database_url: str,
    redis_url: str | None = None,
    channel_prefix: str | None = None,
) -> None:
    """Serve the app with uvicorn until interrupted."""
    import uvicorn
    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

    from .fanout import check

    if redis_url is not None:
        try:
            check(redis_url)
        except Exception as exc:  # a bad URL (ValueError) or Redis not answering
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ConfigError(f"--redis-url {redis_url!r}: {first}") from None
    try:
        app = create_app(database_url, redis_url, channel_prefix)
    except (ArgumentError, NoSuchModuleError, OperationalError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfigError(f"--database-url {database_url!r}: {first}") from None
    shown = make_url(database_url).render_as_string(hide_password=True)
    print(f"Apokalypse on http://{host}:{port}/ (games in {shown}); Ctrl-C stops it", flush=True)
    # No access log: a player's link carries their seat's token in its query string.
    uvicorn.run(
        app, host=host, port=port, log_level="warning", access_log=False, ws_max_size=MAX_FRAME
    )
