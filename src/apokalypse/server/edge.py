"""The server's HTTP edge: what every request passes before the app sees it, and every response
gets on its way out. A pure ASGI middleware (Starlette's ``BaseHTTPMiddleware`` would buffer
responses and break WebSockets), installed once by ``create_app``.

- A request body is read here, whole, before the app runs: at most :data:`MAX_BODY` bytes (the
  biggest body the API takes is a game creation, well under a kilobyte; a record file opened for
  its replay may be up to :data:`LARGER_BODIES`'s bound for its path) within
  :data:`BODY_SECONDS`. A ``Content-Length`` over the limit is answered 413 before a byte of the
  body is read; a chunked body is counted as it arrives and cut off with 413 as soon as it passes
  the limit; a body that trickles in is answered 408. Each of these closes the connection: the
  rest of that body is never read, so the connection can serve no further request.
- Every HTTP response (pages, API, static files, errors) carries :data:`SECURITY_HEADERS`: a
  Content-Security-Policy that allows the built pages and nothing else, no framing, no MIME
  sniffing, no referrer (a game page's address holds its seat's token). A response to a request
  from a potentially trustworthy origin (:func:`trustworthy`: HTTPS, or a loopback host) carries
  :data:`OPENER_POLICY` too: browsers ignore a Cross-Origin-Opener-Policy from any other origin
  (plain HTTP on a network address) and log an error on every page load for it.
- An exception the app does not handle is answered 500 (with those headers, which Starlette's own
  error page would lack) and counted, as is every other 5xx, into ``metrics.errors``.

The request line and headers are bounded before this runs, by the HTTP protocol of
:mod:`.serving` (uvicorn has no such limit of its own).
"""

from __future__ import annotations

import asyncio
import json
import logging

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .metrics import Metrics
from .reach import HOST, is_loopback

MAX_BODY = 16 * 1024  # bytes
# The paths that take a bigger body, and how big: a record file opened in the replay page.
LARGER_BODIES = {"/api/replays": 1 << 20}
BODY_SECONDS = 10.0  # from the request's headers to the last byte of its body

# Every source is this server: the pages are built with their scripts and styles in files under
# /static/ (no inline script or style attribute), the game page's WebSocket is same-origin, and
# the lobby's invite QR codes are data: images.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
OPENER_POLICY = (b"cross-origin-opener-policy", b"same-origin")
_SECURITY_NAMES = frozenset(name for name, _ in (*SECURITY_HEADERS, OPENER_POLICY))

log = logging.getLogger(__name__)


class _TooLarge(Exception):
    """The body passed :data:`MAX_BODY` as it was read."""


class _Gone(Exception):
    """The client went away before its body was complete."""


def trustworthy(scope: Scope) -> bool:
    """Whether the browser that sent this request sees a potentially trustworthy origin (the
    only kind whose Cross-Origin-Opener-Policy it obeys): HTTPS (behind a trusted proxy uvicorn
    has set the scheme from its ``X-Forwarded-Proto``), or a loopback host in the Host header
    the browser sent (``localhost``, ``127.0.0.1``, ``[::1]``)."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    host = Headers(scope=scope).get("host")
    found = HOST.fullmatch(host.strip()) if host else None
    return found is not None and is_loopback(found["host"])


def with_security_headers(
    headers: list[tuple[bytes, bytes]], opener_policy: bool = False
) -> list[tuple[bytes, bytes]]:
    """``headers`` with :data:`SECURITY_HEADERS` (and :data:`OPENER_POLICY` where the request's
    origin is :func:`trustworthy`), replacing any of the same names (a page may set one of them
    itself: it is sent once, as here)."""
    kept = [(name, value) for name, value in headers if name.lower() not in _SECURITY_NAMES]
    return kept + list(SECURITY_HEADERS) + ([OPENER_POLICY] if opener_policy else [])


class Edge:
    """The middleware: ``app.add_middleware(Edge, metrics=…)``."""

    def __init__(
        self,
        app: ASGIApp,
        metrics: Metrics | None = None,
        max_body: int = MAX_BODY,
        body_seconds: float = BODY_SECONDS,
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body = max_body
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            try:
                await self.app(scope, receive, send)
            except Exception:
                self._count("websocket")
                raise  # uvicorn logs it and closes the connection
        else:
            await self.app(scope, receive, send)

    def _count(self, where: str) -> None:
        if self.metrics is not None:
            self.metrics.errors.labels(where=where).inc()

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False
        opener_policy = trustworthy(scope)

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = with_security_headers(
                    list(message.get("headers", [])), opener_policy
                )
                if message["status"] >= 500:
                    self._count("http")
            await send(message)

        length: int | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = -1
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
        if length is not None and length < 0:
            # httptools refuses these before us; kept so that the rule does not depend on it
            await _refuse(guarded_send, 400, "Content-Length is not a number of bytes")
            return
        limit = LARGER_BODIES.get(scope["path"], self.max_body)
        if length is not None and length > limit:
            await _refuse(guarded_send, 413, self._too_large(limit))
            return

        if chunked or (length is not None and length > 0):
            try:
                async with asyncio.timeout(self.body_seconds):
                    body = await self._read(receive, limit)
            except TimeoutError:
                await _refuse(
                    guarded_send,
                    408,
                    f"the request body did not arrive within {self.body_seconds:g} seconds",
                )
                return
            except _TooLarge:
                await _refuse(guarded_send, 413, self._too_large(limit))
                return
            except _Gone:
                return
            receive = _replay(body, receive)

        try:
            await self.app(scope, receive, guarded_send)
        except Exception:
            if started:  # too late to answer: uvicorn logs it and closes the connection
                self._count("http")
                raise
            # No query string: a game page's address holds its seat's token.
            log.exception("unhandled error answering %s %s", scope["method"], scope["path"])
            await _answer(guarded_send, 500, "internal server error", close=False)

    def _too_large(self, limit: int) -> str:
        return f"the request body is larger than {limit} bytes, the most this server takes"

    async def _read(self, receive: Receive, limit: int) -> bytes:
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Gone
            part: bytes = message.get("body", b"")
            size += len(part)
            if size > limit:
                raise _TooLarge
            parts.append(part)
            if not message.get("more_body", False):
                return b"".join(parts)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the app the body read already, then whatever comes next (the
    disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _refuse(send: Send, status: int, detail: str) -> None:
    """Answer without reading the rest of the request, and close the connection (that rest
    would otherwise be read as the next request)."""
    await _answer(send, status, detail, close=True)


async def _answer(send: Send, status: int, detail: str, close: bool) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})
