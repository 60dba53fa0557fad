"""The online game server: HTTP to create and look at games, a WebSocket per player to play.

Server-authoritative: a client sends action texts, the engine judges them, computer players act
on the server, and every connection is sent its own view (``state.observation(seat)`` and
``event.view(seat).to_json()``), never a raw event, the seed of a running game or a token.

- ``POST /api/games`` ``{game, players, seats: ["human" | bot name, …], variants, lang}`` →
  ``{id, seats: [{seat, kind, token?}]}``; a token per human seat (its secret invite link's
  key). The database keeps only the tokens' SHA-256.
- ``GET /api/games/{id}`` → the public summary.
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
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from apokalypse.engine.errors import ConfigError, EngineError
from apokalypse.wire import WIRE_VERSION

from .fanout import Fanout
from .games import LiveGame, Refused, create, new_game, rebuild
from .pages import add_pages
from .store import Store, StoreError

CLOSE_FORBIDDEN = 4403  # a token that opens no seat
CLOSE_NOT_FOUND = 4404  # no such game
CLOSE_RESTART = 1012  # the game must be rebuilt from the store: reconnect

log = logging.getLogger(__name__)


class CreateGame(BaseModel):
    game: str = Field(max_length=40)
    players: int
    seats: list[str] = Field(max_length=16)
    variants: list[str] = Field(default_factory=list, max_length=16)
    lang: str = Field(default="en", max_length=8)


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    seat: int | None
    sent: int  # how many of the game's events this connection has been sent


@dataclass(eq=False)
class Room:
    """A live game, its lock and its connections."""

    live: LiveGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    closed: bool = False


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

    async def send(self, room: Room, connection: Connection) -> None:
        data = {"wire": WIRE_VERSION, **room.live.view(connection.seat, connection.sent)}
        connection.sent = len(room.live.log)
        try:
            await connection.websocket.send_json(data)
        except Exception:  # a connection gone away: it is dropped, the game goes on
            if connection in room.connections:
                room.connections.remove(connection)

    async def push(self, room: Room) -> None:
        for connection in list(room.connections):
            await self.send(room, connection)

    async def act(self, room: Room, connection: Connection, data: object) -> None:
        """A message from a connection: apply it, or tell that connection why not."""
        async with room.lock:
            if room.closed:
                return
            live = room.live
            try:
                action = live.check(connection.seat, data)
                await asyncio.to_thread(live.play, self.store, action)
            except Refused as exc:
                await connection.websocket.send_json(exc.to_json())
                return
            except EngineError:  # StaleAction, a record that no longer replays …
                # The memory and the database disagree (another process took the move): the
                # stored game is the truth. Drop ours; the players reconnect to the rebuilt one.
                await self.evict(room)
                return
            await self.push(room)
            if self.fanout is not None:
                await self.fanout.publish(live.id, live.state.move)

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

    async def evict(self, room: Room) -> None:
        room.closed = True
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
    async def create_game(body: CreateGame) -> dict[str, Any]:
        try:
            new = new_game(body.game, body.players, body.seats, body.variants, body.lang)
        except EngineError as exc:
            raise HTTPException(400, str(exc)) from None
        live = await asyncio.to_thread(create, store, new)
        hub.rooms[live.id] = Room(live)
        seats: list[dict[str, Any]] = []
        for seat, kind in enumerate(live.kinds):
            entry: dict[str, Any] = {"seat": seat, "kind": kind}
            if seat in new.tokens:
                entry["token"] = new.tokens[seat]
            seats.append(entry)
        return {"id": live.id, "seats": seats}

    @app.get("/api/games/{game_id}")
    async def summary(game_id: str) -> dict[str, Any]:
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
        async with room.lock:
            if room.closed:  # evicted meanwhile: the rebuilt game is the one to join
                await websocket.close(CLOSE_RESTART)
                return
            room.connections.append(connection)
            await hub.send(room, connection)
        try:
            while True:
                raw = await websocket.receive_text()
                try:
                    data: object = json.loads(raw)
                except ValueError:  # not JSON: refused like any malformed message
                    data = None
                await hub.act(room, connection, data)
                if room.closed:
                    return
        except WebSocketDisconnect:
            pass
        finally:
            if connection in room.connections:
                room.connections.remove(connection)

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
    # No access log: a player's link carries their seat's token in its query string.
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
