"""A real uvicorn server running the app in a thread of the test process: the same HTTP and
WebSocket stack as ``apokalypse serve``, with the app's hub at hand, so a test can see what the
server holds in memory (which games, which connections) and not only what it answers."""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import uvicorn
from fastapi import FastAPI
from websockets.sync.client import ClientConnection

from apokalypse.server.app import create_app
from apokalypse.server.connection import MAX_FRAME
from apokalypse.server.hub import Hub
from apokalypse.server.serving import WS_PROTOCOL, GuardedHttp
from apokalypse.server.settings import Settings

from .served import Addressed

START = 120.0  # seconds for the server to answer (migrations included), on a busy machine too
# Seconds a wait on the server (a call on its loop, a poll) may take before it fails: only a hang
# fails it, never a busy machine.
WAIT = 30.0
T = TypeVar("T")


@dataclass
class Running(Addressed):
    app: FastAPI
    port: int
    loop: asyncio.AbstractEventLoop

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    def call(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the server's event loop (the hub is not thread-safe); its result."""

        async def run() -> T:
            return work()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=WAIT)

    def wait(self, work: Callable[[], Awaitable[T]]) -> T:
        """Await ``work()`` on the server's event loop; its result."""

        async def run() -> T:
            return await work()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=WAIT)

    def still_clock(self) -> Clock:
        """The hub's clock replaced by one that moves only when the test moves it: the idle time
        of games, the automatic answers' delays, and the turn timers of the games and the paces
        of the connections that come from now on (call it before those)."""
        clock = Clock()
        self.call(lambda: setattr(self.hub, "clock", clock))
        return clock

    def release_idle(self) -> int:
        """One look for games idle for ``idle_seconds`` by the hub's clock: how many went."""
        return self.wait(self.hub.release_idle)


@dataclass
class Clock:
    """Seconds that pass only when a test says so (:meth:`Running.still_clock`)."""

    seconds: float = 0.0

    def __call__(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds


class AheadClock:
    """The hub's time (``hub.now``): the real time, moved forward at will by ``ahead``."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead


def wait_until(check: Callable[[], Any], what: str, seconds: float = WAIT) -> Any:
    """Poll ``check`` until it returns something true (that value), failing after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.02)


@contextmanager
def serving(
    database_url: str,
    settings: Settings | None = None,
    redis_url: str | None = None,
    prefix: str | None = None,
    before: Callable[[FastAPI], None] | None = None,
    computer_delay: float = 0.0,
) -> Iterator[Running]:
    """The app over ``database_url`` served by uvicorn on a free port; ``before(app)`` runs
    before the server starts (to wrap a hub method the fan-out is handed at start). The
    computers pause ``computer_delay`` before each decision (none: tests wait on nobody)."""
    settings = replace(settings or Settings(), computer_delay=computer_delay)
    app = create_app(database_url, redis_url, prefix, settings)
    if before is not None:
        before(app)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        http=GuardedHttp,  # the protocols `apokalypse serve` runs (server/serving.py)
        ws=WS_PROTOCOL,
        log_level="warning",
        ws_max_size=MAX_FRAME,
    )
    server = uvicorn.Server(config)
    loops: list[asyncio.AbstractEventLoop] = []

    def run() -> None:
        loop = asyncio.new_event_loop()
        loops.append(loop)
        loop.run_until_complete(server.serve())
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    wait_until(lambda: server.started, "the server started", START)
    try:
        yield Running(app, port, loops[0])
    finally:
        server.should_exit = True
        thread.join(timeout=START)


@contextmanager
def two_processes(
    database_url: str, redis_url: str, before: Callable[[FastAPI], None] | None = None
) -> Iterator[tuple[Running, Running]]:
    """Two server processes, A and B, over one database and one Redis channel prefix of their
    own; ``before`` readies B's app (its fan-out listener) before it starts."""
    prefix = f"apokalypse-test:{secrets.token_hex(6)}:"
    settings = Settings(idle_seconds=3600)
    with (
        serving(database_url, settings, redis_url, prefix) as a,
        serving(database_url, settings, redis_url, prefix, before=before) as b,
    ):
        yield a, b


def shown_beyond(ws: ClientConnection, move: int) -> Callable[[], bool]:
    """A check for :func:`wait_until`: whether ``ws`` was sent a state beyond ``move`` (each
    call reads one message, or none within 0.2 s)."""
    seen: list[dict[str, Any]] = []

    def moved() -> bool:
        try:
            seen.append(json.loads(ws.recv(timeout=0.2)))
        except TimeoutError:
            return False
        return seen[-1]["type"] == "state" and bool(seen[-1]["observation"]["move"] > move)

    return moved
