"""Operating the server: liveness and readiness (a database or Redis that dies or hangs), the
Prometheus metrics on their own local port and nowhere public, logs as JSON without a token,
the forwarded headers believed only from a named proxy, ``serve``'s options checked, and a
SIGTERM mid-game: the players told to reconnect (1012), every answered action kept, exit 0."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import signal
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import make_url
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from apokalypse.engine.errors import ConfigError
from apokalypse.server import ops, reach
from apokalypse.server.app import create_app
from apokalypse.server.logs import redact
from apokalypse.server.options import serve_options
from apokalypse.server.serving import GRACEFUL_SECONDS
from apokalypse.server.settings import Settings
from apokalypse.server.store import Store
from tests.helpers import cli, create, one_line_error
from tests.services import reachable

from .databases import fresh_schema
from .served import TIMEOUT, decision, play, receive, started
from .test_edge import Served

REDIS = ("127.0.0.1", 6379)
METRICS = (
    "apokalypse_actions",
    "apokalypse_refusals",
    "apokalypse_answer_seconds",
    "apokalypse_computer_think_seconds",
    "apokalypse_errors",
    "apokalypse_games_in_memory",
    "apokalypse_connections",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def poll(check: Any, seconds: float = TIMEOUT, what: str = "") -> Any:
    """``check()``'s first true value, asked until ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.05)


class Proxy:
    """A TCP forwarder between the app and a real service (PostgreSQL, Redis), which a test
    can freeze (the service hangs: nothing passes either way) or cut (the service is gone:
    connections closed, new ones refused)."""

    def __init__(self, port: int) -> None:
        self.target = ("127.0.0.1", port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.frozen = threading.Event()
        self.cut_off = threading.Event()
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.cut_off.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut_off.is_set():
                client.close()
                return
            try:
                upstream = socket.create_connection(self.target, timeout=TIMEOUT)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while (data := source.recv(65536)) and not self.cut_off.is_set():
                while self.frozen.is_set() and not self.cut_off.is_set():
                    self.cut_off.wait(0.05)  # held back, as by a hung service
                if self.cut_off.is_set():
                    return
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)

    def freeze(self) -> None:
        self.frozen.set()

    def cut(self) -> None:
        self.cut_off.set()
        # shutdown() first: on Linux a close() alone neither wakes a blocked accept() nor
        # stops the socket listening.
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        with self.lock:
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()


# -- liveness and readiness ----------------------------------------------------------------


def test_readiness_names_the_database_that_dies_or_hangs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL through a proxy: ready; the database hung: 503 by the check's deadline (and
    /healthz answers meanwhile: the check keeps off the event loop); gone: 503 naming it. The
    deadline is a long one here, so that /healthz answering before it is a matter of the loop
    being free, not of the machine's speed; that it is the deadline that answered, the answer
    and the log say."""
    check = 10.0  # the readiness check's deadline in this test (2 s served)
    monkeypatch.setattr(ops, "CHECK_SECONDS", check)
    caplog.set_level(logging.WARNING, logger=ops.__name__)
    with fresh_schema() as url:
        proxy = Proxy(make_url(url).port or 5432)
        proxied = make_url(url).set(port=proxy.port).render_as_string(hide_password=False)
        app = create_app(proxied)
        # One portal (event loop) for every request: a check hung in a worker thread must not
        # hold up the end of each request's own loop.
        with TestClient(app) as client:
            try:
                assert client.get("/healthz").json() == {"status": "ok"}
                ready = client.get("/readyz")
                assert ready.status_code == 200, ready.text
                assert ready.json() == {"status": "ready", "checks": {"database": "ok"}}

                proxy.freeze()
                with ThreadPoolExecutor(1) as pool:
                    started = time.monotonic()
                    hung = pool.submit(client.get, "/readyz")
                    # While that check waits on the hung database, the server answers.
                    alive = client.get("/healthz")
                    assert alive.status_code == 200 and not hung.done()
                    answer = hung.result(timeout=check + TIMEOUT)
                # Not before the deadline; and by it: the check's own deadline answered (the
                # database still hangs), the one it logs.
                assert time.monotonic() - started >= check
                assert answer.status_code == 503, answer.text
                assert answer.json()["checks"] == {"database": "timed out"}
                assert "database" in answer.json()["detail"]
                logged = [r.getMessage() for r in caplog.records if r.name == ops.__name__]
                assert logged == [f"readiness: database timed out: no answer within {check:g} s"]

                proxy.cut()
                gone = poll(
                    lambda: (
                        (r := client.get("/readyz")).json()["checks"]["database"] == "failed" and r
                    ),
                    what="the database's failure seen",
                )
                assert gone.status_code == 503 and "database failed" in gone.json()["detail"]
                assert client.get("/healthz").status_code == 200
            finally:
                proxy.cut()  # before the loop ends: it waits for the check's thread


def test_readiness_names_redis_when_it_does_not_answer(tmp_path: Path) -> None:
    reachable(*REDIS, "Redis")
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    answer = TestClient(create_app(database, dead, "test-ops:")).get("/readyz")
    assert answer.status_code == 503, answer.text
    assert answer.json()["checks"] == {"database": "ok", "redis": "failed"}
    assert answer.json()["detail"] == "not ready: redis failed"
    assert "127.0.0.1" not in answer.text, "no internal address told to the public"

    proxy = Proxy(REDIS[1])
    app = create_app(database, f"redis://127.0.0.1:{proxy.port}/0", "test-ops:")
    try:
        with TestClient(app) as client:  # its fan-out subscribed through the proxy
            ready = client.get("/readyz")
            assert ready.json()["checks"] == {"database": "ok", "redis": "ok"}, ready.text
            proxy.cut()
            gone = poll(lambda: (r := client.get("/readyz")).status_code == 503 and r)
            assert gone.json()["checks"]["redis"] in ("failed", "timed out")
    finally:
        proxy.cut()


# -- a server process with metrics and JSON logs -------------------------------------------


class Operated(Served):
    """A server with JSON logs and a metrics port."""

    def __init__(self, database: Path) -> None:
        self.metrics_port = free_port()
        super().__init__(database, "--log-format", "json", "--metrics-port", str(self.metrics_port))


@pytest.fixture(scope="module")
def operated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Operated]:
    with started(Operated(tmp_path_factory.mktemp("ops") / "db.sqlite3")) as running:
        yield running


def metrics_of(server: Operated) -> str:
    response = httpx.get(f"http://127.0.0.1:{server.metrics_port}/metrics", timeout=TIMEOUT)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return response.text


def sample(text: str, name: str) -> float:
    """The value of the sample ``name`` (with its labels as written) in Prometheus' text."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    raise AssertionError(f"no sample {name}")


def test_metrics_are_served_on_their_own_local_port_only(operated: Operated) -> None:
    created = create(operated)
    token = created["seats"][0]["token"]
    with connect(operated.ws(created["id"], token), open_timeout=TIMEOUT) as ws:
        receive(ws, [])
        text = poll(
            lambda: (t := metrics_of(operated)) and sample(t, "apokalypse_connections") >= 1 and t,
            what="the connection counted",
        )
    for name in METRICS:  # (a counter's samples are named ``<name>_total``)
        assert re.search(rf"^# TYPE {name}(_total)? ", text, re.MULTILINE), name
    assert sample(text, "apokalypse_games_in_memory") >= 1

    # Never on the public listener, however it is asked for.
    for path in ("/metrics", "/metrics/", "/%6Detrics", "//metrics", "/static/../metrics"):
        response = httpx.get(f"{operated.http}{path}", timeout=TIMEOUT)
        assert response.status_code == 404, (path, response.status_code)
        assert "apokalypse_actions" not in response.text
    # And the metrics listener answers on the loopback address alone.
    port = operated.metrics_port
    address = reach.lan_address()
    if address is not None:
        with pytest.raises(OSError), socket.create_connection((address, port), timeout=2):
            pass


def test_json_logs_hold_no_token_and_no_query(operated: Operated) -> None:
    created = create(operated)
    game_id, token = created["id"], created["seats"][0]["token"]
    seen: list[dict[str, Any]] = []
    with connect(operated.ws(game_id, token), open_timeout=TIMEOUT) as ws:
        play(ws, decision(ws, seen, receive(ws, seen)), 1, seen)
    httpx.get(f"{operated.http}/games/{game_id}?token={token}", timeout=TIMEOUT)
    with socket.create_connection(("127.0.0.1", operated.port), timeout=TIMEOUT) as raw:
        raw.sendall(f"GET /?token={token} HTTP/9\r\n\r\n".encode())  # refused by the parser
        raw.recv(4096)

    # The server logs each WebSocket it accepts, with its address: found, without its query.
    def accepted() -> list[dict[str, Any]]:
        lines = [json.loads(line) for line in operated.errors().splitlines() if line.strip()]
        return [e for e in lines if f"/ws/games/{game_id}" in e["message"]]

    entries = poll(accepted, what="the accepted WebSocket logged")
    assert all("?token" not in e["message"] for e in entries), entries
    everything = operated.errors() + operated.out.read_text()
    assert token not in everything
    for line in operated.errors().splitlines():  # one JSON object a line, each with its fields
        entry = json.loads(line)
        assert {"time", "level", "logger", "message"} <= entry.keys(), entry
        assert entry["level"] in ("debug", "info", "warning", "error", "critical")


def test_redact_removes_queries_and_tokens() -> None:
    assert redact('1.2.3.4:5 - "WebSocket /ws/games/abc?token=s3cr3t" [accepted]') == (
        '1.2.3.4:5 - "WebSocket /ws/games/abc?…" [accepted]'
    )
    assert redact("https://x.org/games/a?token=s3cr3t&b=1 opened") == (
        "https://x.org/games/a?… opened"
    )
    assert "s3cr3t" not in redact("{'token': 's3cr3t'}")
    assert "s3cr3t" not in redact('{"token": "s3cr3t"}')
    assert redact("this token opens no seat") == "this token opens no seat"


# -- forwarded headers ---------------------------------------------------------------------


def links_scheme(server: Served) -> str:
    """The scheme of an invite link made for a request that says it came over https."""
    response = httpx.post(
        f"{server.http}/api/games",
        json={"game": "apokalypse", "players": 2, "seats": ["human", "heuristic"]},
        headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"},
        timeout=TIMEOUT,
    )
    assert response.status_code == 200, response.text
    url: str = response.json()["seats"][0]["url"]
    return url.split("://", 1)[0]


def test_forwarded_headers_are_believed_only_from_named_proxies(tmp_path: Path) -> None:
    # By default nobody's, not even this machine's: a client could name its own scheme.
    alone = Served(tmp_path / "alone.sqlite3")
    behind = Served(tmp_path / "behind.sqlite3", "--forwarded-allow-ips", "127.0.0.1")
    try:
        alone.start()
        assert links_scheme(alone) == "http"
        behind.start()
        assert links_scheme(behind) == "https"
        # So is the page's origin: a browser obeys the opener policy over HTTPS only (and on
        # loopback hosts), so it is sent only where a believed proxy says HTTPS.
        for server, sent in ((alone, []), (behind, ["same-origin"])):
            page = httpx.get(
                f"{server.http}/",
                headers={"Host": "games.example.org", "X-Forwarded-Proto": "https"},
                timeout=TIMEOUT,
            )
            assert page.headers.get_list("cross-origin-opener-policy") == sent
    finally:
        alone.stop()
        behind.stop()


# -- serve's options -----------------------------------------------------------------------


def test_serve_options_are_checked_before_anything_starts(tmp_path: Path) -> None:
    good: dict[str, Any] = {
        "host": "0.0.0.0",
        "port": 8000,
        "public_url": None,
        "forwarded_allow_ips": None,
        "log_format": "text",
        "metrics_port": None,
        "max_games": 2000,
        "create_per_minute": 20.0,
        "max_connections": 64,
    }
    wrong: list[tuple[dict[str, Any], str]] = [
        ({"public_url": "ftp://games.example.org"}, "--public-url 'ftp://games.example.org'"),
        ({"public_url": "https://games.example.org/apok"}, "no path"),
        ({"public_url": "https://x.org:port"}, "--public-url 'https://x.org:port'"),
        ({"public_url": "https://x.org/?a=1"}, "no path, query"),
        ({"forwarded_allow_ips": "10.0.0.1,proxy"}, "--forwarded-allow-ips 'proxy'"),
        ({"log_format": "xml"}, "--log-format 'xml': text or json"),
        ({"metrics_port": 70000}, "--metrics-port 70000"),
        ({"metrics_port": 8000}, "the server's own --port"),
        ({"max_games": 0}, "--max-games 0"),
        ({"create_per_minute": 0.0}, "--create-per-minute 0"),
        ({"create_per_minute": float("nan")}, "--create-per-minute nan"),
        ({"max_connections": 0}, "--max-connections 0"),
    ]
    for change, words in wrong:
        with pytest.raises(ConfigError) as refused:
            serve_options(**(good | change))
        assert words in str(refused.value), (change, refused.value)

    # The command line says the same in one line, before it opens the database.
    database = f"sqlite:///{tmp_path / 'never.sqlite3'}"
    for options, words in (
        (["--public-url", "ftp://games.example.org"], "--public-url 'ftp://games.example.org'"),
        (["--forwarded-allow-ips", "proxy"], "--forwarded-allow-ips 'proxy'"),
        (["--max-games", "0"], "--max-games 0"),
    ):
        run = cli("serve", "--database-url", database, "--port", str(free_port()), *options)
        assert words in one_line_error(run), (options, run.stderr)
    assert not (tmp_path / "never.sqlite3").exists(), "nothing started"

    taken = socket.create_server(("127.0.0.1", 0))  # a metrics port another program holds
    with taken:
        port = taken.getsockname()[1]
        run = cli("serve", "--database-url", database, "--metrics-port", str(port))
        assert f"--metrics-port {port}" in one_line_error(run), run.stderr

    settings, listen = serve_options(
        host="0.0.0.0",
        port=8000,
        public_url="https://games.example.org/",
        forwarded_allow_ips="127.0.0.1, 10.0.0.0/8",
        log_format="json",
        metrics_port=9100,
        max_games=5,
        create_per_minute=2.5,
        max_connections=3,
    )
    assert settings == Settings(
        public_url="https://games.example.org",
        max_games=5,
        create_per_minute=2.5,
        max_connections=3,
    )
    assert listen.forwarded_allow_ips == ("127.0.0.1", "10.0.0.0/8")
    assert (listen.log_format, listen.metrics_port) == ("json", 9100)
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", settings=settings)
    assert app.state.settings is settings and app.state.hub.settings is settings


# -- a graceful stop -----------------------------------------------------------------------


def test_sigterm_stops_gracefully_and_keeps_every_answered_action(tmp_path: Path) -> None:
    server = Served(tmp_path / "db.sqlite3")
    server.start()
    try:
        created = create(server, seats=["human", "heuristic"])
        game_id, token = created["id"], created["seats"][0]["token"]
        seen: list[dict[str, Any]] = []
        with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as ws:
            state = play(ws, decision(ws, seen, receive(ws, seen)), 4, seen)
            assert state["legal"], "still running"
            # One more action, and the stop while it may still be under way.
            move = state["observation"]["move"]
            action = next(a["text"] for a in state["legal"])
            ws.send(json.dumps({"action": action, "move": move}))
            assert server.process is not None
            server.process.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    receive(ws, seen)
            assert closed.value.rcvd is not None, "the server closed it, with a code"
            assert closed.value.rcvd.code == 1012, closed.value.rcvd
        # The server waits GRACEFUL_SECONDS at most for the requests under way: past that, and
        # a busy machine's slack, it hangs.
        code = server.process.wait(timeout=GRACEFUL_SECONDS + TIMEOUT)
        assert code == 0, (code, server.errors())
    finally:
        server.stop()
    assert "Traceback" not in server.errors(), server.errors()

    answered = max(m["observation"]["move"] for m in seen if m["type"] == "state")
    stored = Store.open(server.database_url).load(game_id)
    assert len(stored.actions) >= answered, (len(stored.actions), answered)
