"""The online game server: HTTP to create and look at games, a WebSocket per player to play.

Server-authoritative: a client sends action texts, the engine judges them, computer players act
on the server, and every connection is sent its own view (``state.observation(seat)`` and
``event.view(seat).to_json()``), never a raw event, the seed of a running game or a token.

- ``POST /api/games`` ``{game, players, seats: ["human" | bot name, …], variants, lang}`` →
  ``{id, seats: [{seat, kind, token?, url?}], watch, address, addresses}``; a token per human
  seat (its secret invite link's key) and that link, and the spectator link, at the address
  friends can open (:mod:`.reach`: ``address``), with the other addresses the host may choose
  instead (``addresses``: this machine's other networks, the page's own). The database keeps
  only the tokens' SHA-256.
- ``POST /api/tutorial`` ``{game, lang}`` → the same as ``POST /api/games``: the guided first
  game ("Learn to play", :mod:`.tutorial`), its summary marked ``tutorial``.
- ``GET /api/games/{id}`` → the public summary.
- ``GET /api/games/{id}/record``, ``GET /api/games/{id}/replay?viewer=``, ``POST
  /api/replays``: a finished game's record file and its replay, frame by frame (:mod:`.replays`).
- ``POST /api/seats`` ``[{id, token}, …]`` (at most 30) → ``{seats: [{id, seat, awaited,
  left_ms, move, over} | {id, error}]}``: where each seat's own view says it is awaited ("my
  games"; :mod:`.awaited`).
- ``POST /api/transfers`` ``{games: [{id, game, seat, token}, …]}`` → ``{code, expires_s}``, and
  ``POST /api/transfers/take`` ``{code}`` → ``{games}`` once: "my games" moved to another device
  (:mod:`.transfers`).
- ``GET /api/catalog?lang=`` → the games the lobby offers (title, players, variants) and the
  seat kinds, labelled in ``lang``: the browser keeps no copy of a game's facts.
- ``WebSocket /ws/games/{id}?token=…`` (no token: a spectator; a wrong one: closed with 4403).
  The server sends ``{"type": "state", "wire", "observation", "events", "legal"}`` on connect and
  after every change; the client sends ``{"action": "<notation>", "move": <n>}`` and a refused
  one is answered ``{"type": "refused", "reason", "rule"?}``.

Games live in memory while played, each an actor (:mod:`.actor`): one task reads its inbox, so no
lock guards a game; the engine and the database run in worker threads (``asyncio.to_thread``) and
the computer players and the coach in pools of their own, so one slow game never holds up
another. After a restart a game is rebuilt from the store on first access.

Scale-out (``redis_url``): several processes over one database tell each other through Redis
(:mod:`.fanout`) that a game advanced, and each catches up its own copy from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Body, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from apokalypse.engine.errors import ConfigError, EngineError
from apokalypse.engine.registry import get_game
from apokalypse.i18n import check_lang
from apokalypse.i18n.rulebook import Rulebook
from apokalypse.i18n.texts import texts_for
from apokalypse.wire.seat import Catalog, Created, SeatLink, Summary

from . import reach
from .awaited import MAX_SEATS, SeatKey, SeatNews, seats_news
from .catalog import catalog
from .days import HOUR, LONGEST, SHORTEST
from .edge import Edge
from .fanout import Fanout
from .hub import Full, Hub
from .limits import Allowance, client_host
from .making import NewGame, create, new_game
from .metrics import Metrics
from .ops import add_ops
from .options import Listen
from .pages import add_pages
from .push_api import add_push
from .push_store import application_key, vapid_key
from .pushes import Pushes
from .refusals import message
from .replays import add_replays
from .serving import serve, start_metrics
from .settings import Settings
from .store import Store, StoreError
from .transfers import add_transfers
from .tutorial import tutorial_game

CLOSE_FORBIDDEN = 4403  # a token that opens no seat
CLOSE_NOT_FOUND = 4404  # no such game
MAX_SUMMARIES = 100  # games one "my games" request may ask about

log = logging.getLogger(__name__)


class Timer(BaseModel):
    turn: float = Field(gt=0, le=3600, description="seconds for each decision")
    bank: float = Field(ge=0, le=36_000, description="seconds of reserve per person")


class TurnBased(BaseModel):
    hours: float = Field(
        ge=SHORTEST / HOUR, le=LONGEST / HOUR, description="hours for each decision (1 to 336)"
    )


class CreateGame(BaseModel):
    game: str = Field(max_length=40)
    players: int
    seats: list[str] = Field(max_length=16)
    variants: list[str] = Field(default_factory=list, max_length=16)
    lang: str = Field(default="en", max_length=8)
    timer: Timer | None = None
    turn_based: TurnBased | None = None  # instead of a timer: hours or days per decision
    coach: bool = False  # the coach for every person at the table (each agrees at their seat)


class CreateTutorial(BaseModel):
    game: str = Field(max_length=40)
    lang: str = Field(default="en", max_length=8)


def create_app(
    database_url: str,
    redis_url: str | None = None,
    channel_prefix: str | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """The app over the database at ``database_url`` (migrated to the newest schema); with
    ``redis_url``, one of several processes over that database, told of each other's moves
    through Redis on channels ``channel_prefix<game id>`` (:mod:`.fanout`)."""
    settings = settings if settings is not None else Settings()
    store = Store.open(database_url)
    fanout = Fanout(redis_url, channel_prefix) if redis_url is not None else None
    metrics = Metrics()  # served on a listener of its own (serving.py), never by this app
    hub = Hub(store, fanout, settings, metrics)
    key = vapid_key(store.engine)  # made on first start, kept with the games
    pushes = Pushes(
        store, key, settings.push_contact, settings.push_grace, hub.rooms, lambda: hub.now()
    )
    hub.services.pushes = pushes
    askers = Allowance(settings.seats_per_minute, settings.seats_burst)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.start()  # the sweep for turn-based games whose deadline passed
        pushes.start()  # … and the one for the pushes due
        if fanout is None:
            try:
                yield
            finally:
                await hub.drain()
                await pushes.close()
            return
        pubsub = await fanout.subscribe()  # subscribed before the first request is served
        listener = asyncio.create_task(fanout.run(hub.catch_up, hub.catch_up_all, pubsub))
        try:
            yield
        finally:
            await hub.drain()  # its changes under way publish through the fan-out: drained first
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
            await fanout.close()
            await pushes.close()

    # No generated API pages and no schema: the protocol is documented in docs/protocol.md, and
    # a schema served to anybody would only describe the attack surface.
    app = FastAPI(
        title="Apokalypse", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.state.hub = hub
    app.state.settings = settings
    # Operations (edge.py, ops.py): the metrics are served on a listener of their own, never here.
    app.state.metrics = metrics
    metrics.watch(lambda: len(hub.rooms), hub.connection_count)
    app.add_middleware(Edge, metrics=metrics)
    add_ops(app, store, fanout)

    @app.exception_handler(RequestValidationError)
    async def one_line(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        detail = f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
        return JSONResponse({"detail": detail}, status_code=422)

    @app.post("/api/games")
    async def create_game(body: CreateGame, request: Request) -> Created:
        timer = (body.timer.turn, body.timer.bank) if body.timer is not None else None
        days = body.turn_based.hours * HOUR if body.turn_based is not None else None
        try:
            new = new_game(
                body.game,
                body.players,
                body.seats,
                body.variants,
                body.lang,
                timer,
                days,
                body.coach,
            )
        except EngineError as exc:
            raise HTTPException(400, str(exc)) from None
        return await start(new, request)

    @app.post("/api/tutorial")
    async def create_tutorial(body: CreateTutorial, request: Request) -> Created:
        """The guided first game of ``game`` (:mod:`.tutorial`): created like any game, drawing
        on the same per-address allowance."""
        try:
            new = tutorial_game(body.game, body.lang)
        except EngineError as exc:
            raise HTTPException(400, str(exc)) from None
        return await start(new, request)

    async def start(new: NewGame, request: Request) -> Created:
        """Store a game made for ``request`` and hand it to the hub; its seats' links."""
        base = reach.base_of(request)  # the address friends can open (reach.py says which)
        lang = str(new.record.meta["lang"])
        client = client_host(request)
        wait = hub.may_create(client)  # per address: behind a trusted proxy, the real one's
        if wait > 0:
            seconds = max(1, round(wait))
            detail = message("creations", lang, seconds=seconds)
            raise HTTPException(429, detail, headers={"Retry-After": str(seconds)})
        try:
            hub.make_space(lang)  # before it is stored: a game made is a game served
        except Full as exc:
            raise HTTPException(503, str(exc), headers={"Retry-After": "60"}) from None
        live = await asyncio.to_thread(create, store, new, None, hub.now, hub.clock)
        await hub.add(live)  # its computers play on their own threads, not in this request
        seats: list[SeatLink] = []
        for seat, kind in enumerate(live.kinds):
            entry: SeatLink = {"seat": seat, "kind": kind}
            if seat in new.tokens:
                entry["token"] = new.tokens[seat]
                entry["url"] = reach.game_link(base, live.id, new.tokens[seat])
            seats.append(entry)
        return {
            "id": live.id,
            "seats": seats,
            "watch": reach.game_link(base, live.id),
            "address": base,
            "addresses": reach.others_of(request, base),
        }

    @app.get("/api/games")
    async def summaries(
        ids: Annotated[str, Query(max_length=2000)] = "",
    ) -> dict[str, list[Summary]]:
        """The public summaries of those of ``ids`` (comma-separated) that exist: the browser
        keeps the links of "my games" and asks how each game stands."""
        wanted = [game_id for game_id in dict.fromkeys(ids.split(",")) if game_id]
        if len(wanted) > MAX_SUMMARIES:
            raise HTTPException(400, f"ids names {len(wanted)} games; at most {MAX_SUMMARIES}")
        games = await hub.summaries(wanted)
        return {"games": games}

    @app.post("/api/seats")
    async def seats(
        body: Annotated[list[SeatKey], Body(max_length=MAX_SEATS)], request: Request
    ) -> dict[str, list[SeatNews]]:
        """Where each of these seats (its game and key, as "my games" keeps them) is awaited,
        as that seat's own view shows it (:mod:`.awaited`); an error per entry for a key that
        opens no seat."""
        client = client_host(request)
        wait = askers.take(client)
        if wait > 0:
            seconds = max(1, round(wait))
            detail = f"too many requests: try again in {seconds} s"
            raise HTTPException(429, detail, headers={"Retry-After": str(seconds)})
        asks = list(dict.fromkeys((key.id, key.token) for key in body))
        return {"seats": await seats_news(hub.rooms, store, asks, hub.now())}

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
    ) -> Rulebook:
        """The rules in short as sections, every card of the game, and with ``card`` (its code)
        that card's help: one source with the terminal's ``rules`` (``text`` is what it prints,
        without its hint about commands)."""
        try:
            known = get_game(game)
            config = known.config_from_options(2, [], None)  # every game has a 2-player form
            book = texts_for(known.name, config.to_json(), check_lang(lang)).rulebook(card)
        except EngineError as exc:
            raise HTTPException(404 if "game" in str(exc) else 400, str(exc)) from None
        if card and book["card"] is None:
            raise HTTPException(404, f"there is no card {card!r} in {known.name}")
        return book

    @app.get("/api/games/{game_id}")
    async def summary(game_id: str) -> Summary:
        try:
            return await hub.summary(game_id)
        except StoreError:
            raise HTTPException(404, f"there is no game {game_id!r}") from None

    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        await hub.serve(websocket, game_id, token)

    add_replays(app, hub)  # a finished game's record and replay (replays.py)
    add_transfers(app, store.engine, lambda: hub.now())  # "my games" to another device
    add_push(app, store, pushes, application_key(key), settings.push_services, lambda: hub.now())
    add_pages(app)
    return app


def run_server(
    host: str,
    port: int,
    database_url: str,
    redis_url: str | None = None,
    channel_prefix: str | None = None,
    *,
    settings: Settings | None = None,
    listen: Listen | None = None,
) -> None:
    """Serve the app with uvicorn (:mod:`.serving`: its limits, logs, metrics listener and
    graceful stop) until SIGINT or SIGTERM. ``listen``'s host and port are ``host``/``port``."""
    from dataclasses import replace

    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

    from .fanout import check

    listen = replace(listen if listen is not None else Listen(), host=host, port=port)
    settings = settings if settings is not None else Settings()
    if redis_url is not None:
        try:
            check(redis_url)
        except Exception as exc:  # a bad URL (ValueError) or Redis not answering
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ConfigError(f"--redis-url {redis_url!r}: {first}") from None
    try:
        app = create_app(database_url, redis_url, channel_prefix, settings=settings)
    except (ArgumentError, NoSuchModuleError, OperationalError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfigError(f"--database-url {database_url!r}: {first}") from None
    metrics = None
    if listen.metrics_port is not None:
        try:
            metrics = start_metrics(app, listen.metrics_port)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise ConfigError(f"--metrics-port {listen.metrics_port}: {reason}") from None
    shown = make_url(database_url).render_as_string(hide_password=True)
    print(reach.listening_banner(host, port, settings.public_url), flush=True)
    print(f"Games are kept in {shown}; Ctrl-C stops the server.", flush=True)
    if metrics is not None:
        print(f"Metrics for Prometheus: http://127.0.0.1:{metrics.port}/metrics", flush=True)
    serve(app, listen, metrics)
