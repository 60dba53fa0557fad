"""The server's HTTP edge against the real ``apokalypse serve`` process, over raw sockets where a
well-behaved client library would not misbehave: a request body over the limit (announced or
chunked) is refused before it is read, a body or a head that trickles in is answered 408 by its
deadline, an over-long request line or head is answered 414/431 (a WebSocket upgrade too, which
uvicorn alone never answers), every response carries the security headers, an unhandled error
is a counted 500, and the built pages run under the Content-Security-Policy in Chromium without
a single violation."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from apokalypse.server import edge, serving
from apokalypse.server.app import create_app
from apokalypse.server.store import Store
from tests.browser.playing import WAIT_MS
from tests.helpers import create

from .served import TIMEOUT, Server, started

SECURITY = {
    "content-security-policy": edge.CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
# Only where the browser obeys it: HTTPS or a loopback host (these tests' 127.0.0.1).
OPENER = ("cross-origin-opener-policy", "same-origin")
GAME = {"game": "apokalypse", "players": 2, "seats": ["human", "heuristic"]}


class Served(Server):
    """``apokalypse serve`` with ``options``; its standard output kept too (the banner)."""

    def games(self) -> int:
        """How many games the store holds (read from the database itself)."""
        return len(Store.open(self.database_url).game_ids())


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with started(Served(tmp_path_factory.mktemp("edge") / "db.sqlite3")) as running:
        yield running
    assert "Traceback" not in running.errors(), running.errors()


# -- raw HTTP ------------------------------------------------------------------------------


class Raw:
    """One TCP connection to the server, written and read byte by byte as a test says."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.opened = time.monotonic()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def until_closed(self, within: float) -> tuple[bytes, float]:
        """Everything the server sends until it closes the connection, and the seconds from the
        opening to the close; fails when it is still open after ``within`` seconds."""
        received = b""
        deadline = time.monotonic() + within
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"still open after {within} s; received {received[:200]!r}")
            self.sock.settimeout(left)
            try:
                part = self.sock.recv(65536)
            except TimeoutError:
                continue
            except ConnectionResetError:
                part = b""
            if not part:
                self.sock.close()
                return received, time.monotonic() - self.opened
            received += part

    def until(self, done: Callable[[bytes], bool], within: float) -> bytes:
        """What the server sent once ``done`` says it is enough; fails after ``within`` s."""
        received = b""
        deadline = time.monotonic() + within
        while not done(received):
            left = deadline - time.monotonic()
            assert left > 0, f"not within {within} s; received {received[:200]!r}"
            self.sock.settimeout(left)
            with contextlib.suppress(TimeoutError):
                part = self.sock.recv(65536)
                assert part, f"closed; received {received[:200]!r}"
                received += part
        return received


def status(response: bytes) -> int:
    line = response.split(b"\r\n", 1)[0]
    assert line.startswith(b"HTTP/1.1 "), response[:200]
    return int(line.split()[1])


def headers(response: bytes) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    head = response.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    for line in head.split("\r\n")[1:]:
        name, _, value = line.partition(":")
        found.setdefault(name.strip().lower(), []).append(value.strip())
    return found


def detail(response: bytes) -> str:
    body = response.split(b"\r\n\r\n", 1)[1]
    text: str = json.loads(body)["detail"]
    return text


def request(path: str, *lines: str, body: bytes = b"", method: str = "GET") -> bytes:
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *lines]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def upgrade(path: str, *lines: str) -> bytes:
    return request(
        path,
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        *lines,
    )


# -- the body ------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_before_it_is_read(served: Served) -> None:
    before = served.games()

    # Announced: refused on the headers alone, nothing of the body sent at all.
    announced = Raw(served.port)
    length = 10_000_000
    announced.send(
        request(
            "/api/games",
            "Content-Type: application/json",
            f"Content-Length: {length}",
            method="POST",
        )
    )
    response, _ = announced.until_closed(TIMEOUT)
    assert status(response) == 413, response[:300]
    assert str(edge.MAX_BODY) in detail(response), detail(response)
    assert headers(response)["connection"] == ["close"]

    # Chunked: counted as it arrives, refused once past the limit (the body never ends here).
    chunked = Raw(served.port)
    chunked.send(
        request(
            "/api/games",
            "Content-Type: application/json",
            "Transfer-Encoding: chunked",
            method="POST",
        )
    )
    chunk = b" " * 4096
    for _ in range(edge.MAX_BODY // len(chunk) + 1):
        chunked.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    response, _ = chunked.until_closed(TIMEOUT)
    assert status(response) == 413 and str(edge.MAX_BODY) in detail(response), response[:300]

    # Just under the limit a creation is served as ever (JSON padded with spaces).
    body = json.dumps(GAME).encode()
    padded = body + b" " * (edge.MAX_BODY - len(body))
    answer = httpx.post(
        f"{served.http}/api/games",
        content=padded,
        headers={"Content-Type": "application/json"},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 200, answer.text
    assert served.games() == before + 1, "only the game within the limit was made"


def test_slow_requests_are_answered_by_their_deadlines(served: Served) -> None:
    """Four slow clients at once (one deadline's wait for all): half a head, a head sent a
    byte a second, nothing at all, a body that stops. Each is answered or closed by its
    deadline (the one its answer names, not before it), and no game is made. The wait for them
    all is a hang guard: on a busy machine an answer comes late, never early."""
    before = served.games()
    half_head = Raw(served.port)
    half_head.send(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    dripping = Raw(served.port)
    silent = Raw(served.port)
    trickle = Raw(served.port)
    body = json.dumps(GAME).encode()
    trickle.send(
        request(
            "/api/games",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
            body=body[:10],
            method="POST",
        )
    )

    stop = threading.Event()

    def drip() -> None:  # a byte a second: never idle, never done (a slowloris)
        for byte in b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 60:
            if stop.wait(1.0):
                return
            try:
                dripping.sock.sendall(bytes([byte]))
            except OSError:
                return

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    deadline = time.monotonic() + max(serving.HEAD_SECONDS, edge.BODY_SECONDS) + TIMEOUT
    clients = {"half head": half_head, "dripping head": dripping, "trickling body": trickle}
    answers: dict[str, tuple[bytes, float] | None] = {}
    try:
        # Each waited for in turn, all within the one deadline; every outcome is gathered
        # before any is judged, so that a failure names every slow client left hanging.
        for name, raw in [*clients.items(), ("silent", silent)]:
            try:
                answers[name] = raw.until_closed(max(0.1, deadline - time.monotonic()))
            except AssertionError:
                answers[name] = None
    finally:
        stop.set()
        dripper.join(timeout=TIMEOUT)
    outcomes = {
        name: "still open" if got is None else (status(got[0]) if got[0] else "closed")
        for name, got in answers.items()
    }
    assert outcomes == {
        "half head": 408,
        "dripping head": 408,
        "trickling body": 408,
        "silent": "closed",  # nothing asked, nothing answered
    }
    for name, word, limit in (
        ("half head", "headers", serving.HEAD_SECONDS),
        ("dripping head", "headers", serving.HEAD_SECONDS),
        ("trickling body", "body", edge.BODY_SECONDS),
    ):
        answer = answers[name]
        assert answer is not None
        response, seconds = answer
        said = detail(response)  # the deadline that ran out: its own
        assert word in said and f"did not arrive within {limit:g} seconds" in said, said
        assert headers(response)["connection"] == ["close"]
        # By the deadline, not before: a slow but honest client is given its time.
        assert seconds >= min(serving.HEAD_SECONDS, edge.BODY_SECONDS) - 1, (name, seconds)
    assert served.games() == before


def test_over_long_requests_are_answered_and_closed(served: Served) -> None:
    long_url = "/api/catalog?pad=" + "a" * serving.MAX_URL
    long_line = f"X-Pad: {'a' * serving.MAX_HEADER_LINE}"
    many = [f"X-Many-{n}: 1" for n in range(serving.MAX_HEADERS + 1)]
    big = [f"X-Big-{n}: {'a' * 4000}" for n in range(serving.MAX_HEAD // 4000 + 1)]
    cases = [
        (request(long_url), 414, "URL"),
        (request("/api/catalog", long_line), 431, "header"),
        (request("/api/catalog", *many), 431, "headers"),
        (request("/api/catalog", *big), 431, "headers"),
    ]
    for data, expected, word in cases:
        refused(served, data, expected, word)

    # A head that never ends is cut off once past the limit, not buffered on and on.
    endless = Raw(served.port)
    endless.send(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Endless: ")
    try:
        for _ in range(serving.MAX_HEAD // 1024 + 2):
            endless.send(b"a" * 1024)
    except (BrokenPipeError, ConnectionResetError):
        pass  # closed already, having answered
    response, _ = endless.until_closed(TIMEOUT)
    assert status(response) == 431, response[:300]


def test_a_websocket_upgrade_with_an_over_long_line_is_answered(served: Served) -> None:
    """The WebSocket handshake parser gives up on a line over 8 KiB without a word (uvicorn
    never answers, never closes): such an upgrade is answered before it is reached."""
    refused(served, upgrade("/ws/games/none?pad=" + "a" * 9000), 414, "URL")
    refused(served, upgrade("/ws/games/none", f"X-Pad: {'a' * 8200}"), 431, "header")

    # Within the limits, an upgrade is answered as ever: a URL at the limit is upgraded.
    raw = Raw(served.port)
    path = "/ws/games/none?pad="
    raw.send(upgrade(path + "a" * (serving.MAX_URL - len(path))))
    # Upgraded, then a close frame (opcode 8): there is no such game.
    response = raw.until(lambda got: b"\r\n\r\n\x88" in got, TIMEOUT)
    assert response.startswith(b"HTTP/1.1 101 "), response[:300]
    raw.sock.close()


def refused(served: Served, data: bytes, expected: int, word: str) -> None:
    """``data`` sent on a connection of its own is answered ``expected``, with a detail that
    names ``word`` and the security headers, and the connection closed."""
    raw = Raw(served.port)
    raw.send(data)
    response, _ = raw.until_closed(TIMEOUT)
    assert status(response) == expected, (data[:80], response[:300])
    assert word in detail(response), detail(response)
    assert headers(response)["content-security-policy"] == [edge.CONTENT_SECURITY_POLICY]


# -- the headers ---------------------------------------------------------------------------


def test_every_response_carries_the_security_headers(served: Served) -> None:
    lobby = httpx.get(f"{served.http}/", timeout=TIMEOUT)
    asset = re.search(r'src="(/static/[^"]+\.js)"', lobby.text)
    assert asset is not None, lobby.text
    responses = [
        lobby,
        httpx.get(f"{served.http}/games/some-game?token=x", timeout=TIMEOUT),
        httpx.get(f"{served.http}{asset[1]}", timeout=TIMEOUT),
        httpx.get(f"{served.http}/api/catalog", timeout=TIMEOUT),
        httpx.get(f"{served.http}/api/games/nothing", timeout=TIMEOUT),  # 404
        httpx.get(f"{served.http}/static/nothing.js", timeout=TIMEOUT),  # 404
        httpx.post(f"{served.http}/api/games", json={"game": 1}, timeout=TIMEOUT),  # 422
        httpx.delete(f"{served.http}/api/catalog", timeout=TIMEOUT),  # 405
        httpx.get(f"{served.http}/healthz", timeout=TIMEOUT),
    ]
    assert [r.status_code for r in responses] == [200, 200, 200, 200, 404, 404, 422, 405, 200]
    for response in responses:
        for name, value in (*SECURITY.items(), OPENER):
            assert response.headers.get_list(name) == [value], (response.url, name)
    # The limits' own answers too (the edge's and the HTTP protocol's).
    raw = Raw(served.port)
    raw.send(request("/api/games", "Content-Length: 99999999", method="POST"))
    refused = headers(raw.until_closed(TIMEOUT)[0])
    raw = Raw(served.port)
    raw.send(b"NOT HTTP AT ALL\r\n\r\n")
    garbled = headers(raw.until_closed(TIMEOUT)[0])
    for found in (refused, garbled):
        for name, value in SECURITY.items():
            assert found.get(name) == [value], (name, found)
    assert refused.get(OPENER[0]) == [OPENER[1]]
    # A request the HTTP protocol could not read names no origin: no opener policy to set.
    assert OPENER[0] not in garbled


def test_the_opener_policy_only_where_the_browser_obeys_it(served: Served) -> None:
    """Plain HTTP on a network address is not a trustworthy origin: a browser ignores a
    Cross-Origin-Opener-Policy there and logs an error for it on every page load. Loopback
    hosts are trustworthy over plain HTTP (HTTPS behind a proxy: tests/server/test_ops.py)."""
    for host, sent in (
        ("192.0.2.5:8000", False),
        ("games.example.org", False),
        ("localhost:8000", True),
        ("127.0.0.1", True),
        ("[::1]:8000", True),
    ):
        for path in ("/", "/api/catalog"):
            response = httpx.get(f"{served.http}{path}", headers={"Host": host}, timeout=TIMEOUT)
            assert response.status_code == 200, (host, path)
            found = response.headers.get_list(OPENER[0])
            assert found == ([OPENER[1]] if sent else []), (host, path, found)
            for name, value in SECURITY.items():
                assert response.headers.get_list(name) == [value], (host, path, name)


def test_no_schema_no_server_name_and_pages_answer_head(served: Served) -> None:
    """The server does not describe itself: no generated schema or API pages, no ``server``
    header naming what serves; and a page answers HEAD as it answers GET, without the body."""
    for path in ("/openapi.json", "/docs", "/redoc"):
        assert httpx.get(f"{served.http}{path}", timeout=TIMEOUT).status_code == 404, path
    for path in ("/", "/games/some-game", "/games/some-game/replay", "/replay"):
        got = httpx.get(f"{served.http}{path}", timeout=TIMEOUT)
        head = httpx.head(f"{served.http}{path}", timeout=TIMEOUT)
        assert got.status_code == head.status_code == 200, (path, head.status_code)
        assert head.content == b"" and got.content, path
        assert head.headers["content-type"] == got.headers["content-type"], path
        for response in (got, head):
            assert "server" not in response.headers, (path, response.headers)
    assert "server" not in httpx.get(f"{served.http}/api/catalog", timeout=TIMEOUT).headers


def test_an_unhandled_error_is_a_counted_500_with_the_headers(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}")

    @app.get("/api/broken")
    async def broken() -> None:
        raise RuntimeError("a bug")

    errors = app.state.metrics.errors
    with TestClient(app) as client:
        response = client.get("/api/broken?token=secret")
        assert response.status_code == 500, response.text
        assert response.json() == {"detail": "internal server error"}
        assert response.headers["content-security-policy"] == edge.CONTENT_SECURITY_POLICY
        assert errors.labels(where="http")._value.get() == 1
        assert client.get("/api/catalog").status_code == 200
        assert errors.labels(where="http")._value.get() == 1, "only failures count"


# -- the pages under the policy, in Chromium -----------------------------------------------

# Every violation the page reports, kept before any of its scripts runs.
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


# The page asks this seat to decide, or the game is over (test_pages' READY, as a selector).
READY = "body[data-deciding='yes'], body[data-over='yes']"


def violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def until(page: Page, expression: str) -> None:
    """Poll ``expression`` until it is true. Not ``wait_for_function``: Playwright evaluates
    its predicate with ``eval`` inside the page, which this policy forbids (``evaluate`` goes
    through the DevTools protocol, which no page policy covers)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"not within {WAIT_MS} ms: {expression}"
        page.wait_for_timeout(20)


def test_the_pages_run_under_the_policy_in_chromium(served: Served, browser: Browser) -> None:
    context = browser.new_context()
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(WATCH_VIOLATIONS)
    console: list[str] = []
    page = context.new_page()

    def heard(message: ConsoleMessage) -> None:
        console.append(message.text)

    page.on("console", heard)
    page.on("pageerror", lambda error: console.append(f"page error: {error}"))
    try:
        response = page.goto(f"{served.http}/")
        assert response is not None
        assert response.headers["content-security-policy"] == edge.CONTENT_SECURITY_POLICY
        page.locator("label.game-option", has_text="Apokalypse").click()
        page.select_option("#players", "2")
        page.select_option("#seats select[data-seat='0']", "human")
        page.select_option("#seats select[data-seat='1']", "heuristic")
        page.click("#create-button")
        expect(page.locator("a.seat-link")).to_have_count(1)
        # Whatever the lobby draws as data: images (its invite links' QR codes) is drawn.
        until(page, "[...document.images].every((image) => image.complete)")
        drawn = page.evaluate(
            "[...document.querySelectorAll('img[src^=\"data:\"]')].map((i) => i.naturalWidth)"
        )
        assert all(width > 0 for width in drawn), drawn
        assert violations(page) == [], violations(page)

        page.click("#open-seat")  # the game page: its script, its styles, its WebSocket
        page.wait_for_selector(READY)
        expect(page.locator(".display")).to_have_count(2)
        page.locator("#hand .hand-card").first.hover()  # the card's help, styled
        assert violations(page) == [], violations(page)
        assert not [m for m in console if "Content Security Policy" in m or "page error" in m]

        # The watch works: an inline script, which the policy forbids, is reported and not run.
        with pytest.raises(Exception):  # noqa: B017 (Playwright's error for the blocked tag)
            page.add_script_tag(content="window.__ran = true")
        until(page, "window.__violations.length > 0")
        assert page.evaluate("window.__ran") is None
        assert any(v.startswith("script-src") for v in violations(page)), violations(page)
    finally:
        context.close()


def test_a_game_created_by_the_api_is_shown_under_the_policy(
    served: Served, browser: Browser
) -> None:
    """A seat's invite link opened in a fresh browser: the game page alone, from its link."""
    created = create(served)
    context = browser.new_context()
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(WATCH_VIOLATIONS)
    page = context.new_page()
    try:
        token = created["seats"][0]["token"]
        response = page.goto(f"{served.http}/games/{created['id']}?token={token}")
        assert response is not None
        assert response.headers["content-security-policy"] == edge.CONTENT_SECURITY_POLICY
        page.wait_for_selector(READY)
        assert violations(page) == [], violations(page)
    finally:
        context.close()
