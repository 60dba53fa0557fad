"""Running the server process: uvicorn with explicit limits, the logs, and a clean stop.

uvicorn (with httptools, which ``uvicorn[standard]`` installs and uvicorn then picks) bounds
neither the time a client may take to send a request's headers nor their size: a connection that
sends half a request line is held forever, a megabyte of headers is read, and a WebSocket
upgrade whose request line passes the 8 KiB that the ``websockets`` handshake parser reads is
never answered at all (that parser gives up silently). :class:`GuardedHttp` is uvicorn's
httptools protocol with those bounds:

- the headers of each request must be complete within :data:`HEAD_SECONDS` of its first byte
  (of the connection's opening, for its first request): otherwise 408 and closed (a connection
  that sent nothing at all is closed without a word);
- a request line (its URL) over :data:`MAX_URL` bytes is answered 414, a header line over
  :data:`MAX_HEADER_LINE`, more than :data:`MAX_HEADERS` headers or a head over :data:`MAX_HEAD`
  bytes in all 431, and closed. :data:`MAX_URL` and :data:`MAX_HEADER_LINE` keep every line
  under what the WebSocket handshake parser reads, so an upgrade is always answered.

The request body is bounded by the app's edge (:mod:`.edge`). Logs (:func:`logging_config`)
are plain text or one JSON object per line, and never hold a URL's query (a seat's token is in
its link's query) or a token. SIGTERM stops the server as Ctrl-C does, gracefully: no new
connections, every WebSocket closed with 1012 (come back: uvicorn does it), the requests under
way finished, then the app's shutdown lets the games' changes under way be written; the process
then exits 0 (uvicorn would re-raise the signal and end with it: see :func:`serve`).
"""

from __future__ import annotations

import asyncio
import json
import signal
from types import FrameType

import uvicorn
from fastapi import FastAPI
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

from .connection import MAX_FRAME
from .edge import with_security_headers
from .logs import log_level, logging_config
from .memory import limit_arenas, tune_collector
from .ops import MetricsListener, serve_metrics
from .options import Listen

HEAD_SECONDS = 10.0  # from a request's first byte (or its connection's opening) to its last header
MAX_HEAD = 16 * 1024  # bytes of request line and headers, all told
# The WebSocket handshake parser (websockets' http11) reads lines of at most 8192 bytes and 128
# headers; uvicorn hands it the request again, line by line. Under those, it always answers.
MAX_URL = 8000
MAX_HEADER_LINE = 8000  # name, ": ", value, CRLF
MAX_HEADERS = 100
KEEP_ALIVE_SECONDS = 5  # an idle keep-alive connection is closed after this
WS_PING_SECONDS = 20.0  # a WebSocket is pinged this often (proxies close silent connections) …
WS_PING_TIMEOUT = 20.0  # … and closed when a ping goes unanswered this long (a vanished phone)
GRACEFUL_SECONDS = 10  # at a stop, the longest wait for the requests under way
# uvicorn's WebSocket implementation, the one it picks here; its stop closes with 1012. The
# in-process test servers run it too, with GuardedHttp.
WS_PROTOCOL = "websockets-sansio"


class _Refused(Exception):
    """Raised in a parser callback to stop reading a request that passes a bound; httptools
    turns it into an HttpParserError, which uvicorn answers through ``send_400_response``."""


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline and size bounds on each request's head."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, object],  # uvicorn's, passed on
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._head_timer: asyncio.TimerHandle | None = None
        self._in_head = True  # between requests or reading one's head (not its body)
        self._raw = 0  # bytes received since this head began (counted before parsing)
        self._url = 0
        self._head = 0  # bytes of the request line and the headers parsed so far
        self._headers = 0
        self._refusal: tuple[int, str] | None = None

    # -- the deadline ---------------------------------------------------------------------

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(HEAD_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self._raw == 0:  # nothing sent: a browser's spare connection, or a scanner
            self.transport.close()
            return
        self._answer(408, f"the request's headers did not arrive within {HEAD_SECONDS:g} seconds")

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    # -- the bounds -----------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._raw += len(data)
        super().data_received(data)
        # A head still incomplete after this many bytes is too long whatever follows (httptools
        # buffers a header's value until it ends, unseen by the callbacks below).
        if self._in_head and self._raw > MAX_HEAD and not self.transport.is_closing():
            self._answer(431, self._head_too_large())

    def _refuse(self, status: int, reason: str) -> None:
        self._refusal = (status, reason)
        raise _Refused(reason)

    def _head_too_large(self) -> str:
        return f"the request's line and headers are larger than {MAX_HEAD} bytes"

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._url = self._head = self._headers = 0
        self._arm()  # the next request of a kept-alive connection

    def on_url(self, url: bytes) -> None:
        self._url += len(url)
        if self._url > MAX_URL:
            self._refuse(414, f"the request's URL is longer than {MAX_URL} bytes")
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        line = len(name) + len(value) + 4
        self._headers += 1
        self._head += line
        if line > MAX_HEADER_LINE:
            self._refuse(431, f"a request header is longer than {MAX_HEADER_LINE} bytes")
        if self._headers > MAX_HEADERS:
            self._refuse(431, f"the request has more than {MAX_HEADERS} headers")
        if self._url + self._head > MAX_HEAD:
            self._refuse(431, self._head_too_large())
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm()
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_head = True
        self._raw = 0
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # From here the connection belongs to the WebSocket protocol, and this one never hears
        # of it again (no connection_lost). Its parser calls back into it: left, the two are a
        # cycle that holds the transport, and through it the closed WebSocket and all it kept
        # (about 80 KB a connection), until a full collection; with the collector run in
        # generations of time, until its ten-minute sweep (server/memory.py). uvicorn drops the
        # parser the same way when a plain connection ends.
        self.parser = None  # type: ignore[assignment]

    # -- the answers ----------------------------------------------------------------------

    def send_400_response(self, msg: str) -> None:
        # uvicorn's answer to any request httptools could not parse, ours among them.
        status, reason = self._refusal if self._refusal is not None else (400, msg)
        self._refusal = None
        self._answer(status, reason)

    def _answer(self, status: int, reason: str) -> None:
        """Answer ``status`` with a JSON ``detail`` (the API's form) and close the connection:
        what is left of this request is never read."""
        self._disarm()
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            # An earlier request of this connection (pipelined) is still being answered: a
            # response now would cut into that one. It is the last: the connection closes after.
            cycle.keep_alive = False
            self.flow.pause_reading()
            return
        body = json.dumps({"detail": reason}).encode()
        headers = with_security_headers(
            [
                *self.server_state.default_headers,
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
        )
        content = [STATUS_LINE[status]]
        for name, value in headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend([b"\r\n", body])
        self.transport.write(b"".join(content))
        self.transport.close()


# -- the server ---------------------------------------------------------------------------


def uvicorn_config(app: FastAPI, listen: Listen) -> Config:
    """uvicorn's configuration of ``app`` (it configures the logging as it is made)."""
    trusted = list(listen.forwarded_allow_ips)
    return Config(
        app,
        host=listen.host,
        port=listen.port,
        http=GuardedHttp,
        ws=WS_PROTOCOL,
        lifespan="on",  # a failing start (Redis gone) stops the process, never ignored
        log_config=logging_config(listen.log_format),
        log_level=log_level(listen.log_format),
        access_log=False,  # a player's link carries their seat's token in its query string
        server_header=False,  # what serves the answers is nobody's business
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or None,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        ws_max_size=MAX_FRAME,
        ws_ping_interval=WS_PING_SECONDS,
        ws_ping_timeout=WS_PING_TIMEOUT,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )


def serve(app: FastAPI, listen: Listen, metrics_listener: MetricsListener | None = None) -> None:
    """Serve ``app`` until SIGINT or SIGTERM, then stop gracefully (see the module)."""
    limit_arenas()  # before the worker threads start (memory.py)
    tune_collector()  # the app is made: what lives now lives as long as the process
    config = uvicorn_config(app, listen)
    server = uvicorn.Server(config)

    def terminated(signum: int, frame: FrameType | None) -> None:
        # Outside uvicorn's own handler: before it is installed, a stop once it can; after the
        # stop, nothing (this is the handler uvicorn raises the signal again for).
        server.should_exit = True

    # uvicorn handles SIGTERM while it serves, and on leaving raises it again for the handler it
    # found: the default one would kill the process (status -15) after a clean stop. A stop
    # asked for is a success: with this handler serve() returns, and the process exits 0.
    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        server.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
        if metrics_listener is not None:
            metrics_listener.close()


def start_metrics(app: FastAPI, port: int) -> MetricsListener:
    """The app's metrics on ``127.0.0.1:<port>`` (OSError when that port cannot be bound)."""
    return serve_metrics(app.state.metrics, port)
