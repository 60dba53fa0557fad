"""What an operator asks of a running server: is it alive, is it ready, and its metrics.

- ``GET /healthz``: the process answers HTTP (``{"status": "ok"}``, no I/O): for a liveness probe
  that restarts a hung process.
- ``GET /readyz``: the database answers ``SELECT 1`` and, with a fan-out, Redis answers PING, each
  within :data:`CHECK_SECONDS`; 503 naming what failed otherwise: for a load balancer that sends
  no players to a process that cannot keep their games. The reason a check failed is logged, not
  sent (it may name internal hosts).
- The Prometheus metrics (:mod:`.metrics`) are served on a listener of their own bound to
  127.0.0.1 (:func:`serve_metrics`), never on the public one: the counters move when a hidden
  defence window is answered, so a player polling them would learn that somebody was asked.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable
from typing import Literal
from wsgiref.simple_server import WSGIServer

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from prometheus_client import start_http_server
from sqlalchemy import text

from .fanout import Fanout
from .metrics import Metrics
from .store import Store

CHECK_SECONDS = 2.0  # each readiness check; a healthy database or Redis answers in milliseconds
METRICS_HOST = "127.0.0.1"

log = logging.getLogger(__name__)

Check = Literal["ok", "failed", "timed out"]


class Readiness:
    """The readiness checks of one app. A database check still running (a database that hangs)
    is awaited by the next probe instead of starting another: probes every second against a
    hung database must not fill the worker threads the games need. A check's failure is logged
    when it begins and its recovery when it ends, not at every probe."""

    def __init__(self, store: Store, fanout: Fanout | None) -> None:
        self.store = store
        self.fanout = fanout
        self._database: asyncio.Future[None] | None = None
        self._last: dict[str, Check] = {}

    def _select_one(self) -> None:
        with self.store.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    async def database(self) -> Check:
        if self._database is None or self._database.done():
            self._database = asyncio.ensure_future(asyncio.to_thread(self._select_one))
            # A check that outlives its probe ends unawaited: its error was the probe's to
            # report, not asyncio's ("exception was never retrieved").
            self._database.add_done_callback(_retrieved)
        return await self._bounded("database", asyncio.shield(self._database))

    async def redis(self) -> Check | None:
        fanout = self.fanout
        if fanout is None:
            return None

        async def ping() -> None:
            await fanout.redis.ping()

        return await self._bounded("redis", ping())

    async def checks(self) -> dict[str, Check]:
        database, redis = await asyncio.gather(self.database(), self.redis())
        found: dict[str, Check] = {"database": database}
        if redis is not None:
            found["redis"] = redis
        return found

    async def _bounded(self, name: str, work: Awaitable[None]) -> Check:
        reason = ""
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                await work
            check: Check = "ok"
        except TimeoutError:
            check, reason = "timed out", f"no answer within {CHECK_SECONDS:g} s"
        except Exception as exc:
            first = str(exc).splitlines()[0] if str(exc) else ""
            check, reason = "failed", f"{type(exc).__name__} {first}".strip()
        before = self._last.get(name, "ok")
        self._last[name] = check
        if check != "ok" and before == "ok":
            log.warning("readiness: %s %s: %s", name, check, reason)
        elif check == "ok" and before != "ok":
            log.warning("readiness: %s answers again", name)
        return check


def _retrieved(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()


def add_ops(app: FastAPI, store: Store, fanout: Fanout | None) -> None:
    """``/healthz`` and ``/readyz`` on ``app``."""
    readiness = Readiness(store, fanout)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        checks = await readiness.checks()
        failed = [name for name, check in checks.items() if check != "ok"]
        if not failed:
            return JSONResponse({"status": "ready", "checks": checks})
        detail = "; ".join(f"{name} {checks[name]}" for name in failed)
        body = {"status": "unavailable", "detail": f"not ready: {detail}", "checks": checks}
        return JSONResponse(body, status_code=503, headers={"Cache-Control": "no-store"})


class MetricsListener:
    """The metrics' own HTTP listener (a thread), on 127.0.0.1 only."""

    def __init__(self, server: WSGIServer, thread: threading.Thread) -> None:
        self.server, self.thread = server, thread

    @property
    def port(self) -> int:
        port: int = self.server.server_address[1]
        return port

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def serve_metrics(metrics: Metrics, port: int) -> MetricsListener:
    """Serve ``metrics`` in Prometheus' text format at ``http://127.0.0.1:<port>/metrics``
    (any path answers the same). Raises OSError when the port cannot be bound."""
    server, thread = start_http_server(port, addr=METRICS_HOST, registry=metrics.registry)
    return MetricsListener(server, thread)
