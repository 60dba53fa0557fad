"""A real deployment, played from another machine: the repository's nginx site file
(``deploy/nginx/apokalypse.conf``, rendered by :mod:`apokalypse.bench.proxy`) with TLS in front
of two ``apokalypse serve`` processes over one PostgreSQL schema and one Redis, and a friend's
computer: a network namespace of its own joined to this machine by a veth pair, where Chromium
runs. Its traffic reaches the servers only through nginx on the veth address (the servers
listen on this machine's loopback, which the namespace cannot reach).

The friend creates a game in the lobby and opens the invite link (the proxy's HTTPS address);
the game then played is the same table on a seeded deal (``tests/server/seeded.py``, written
into the servers' database) a little before Death rides: the friend plays over a WebSocket
through nginx, and when the server process holding that WebSocket is killed outright the page
reconnects through nginx to the other process and the game goes on to its final reveal, in the
same few decisions on every run. From the same namespace: HTTP only redirects to HTTPS, the
security headers come through, ``/metrics`` is denied however it is spelled. nginx's logs hold
no token.

Needs root (``ip netns``), nginx, Chromium, PostgreSQL and Redis: without one of them the test is
skipped with the reason (failed under ``REQUIRE_SERVICES=1``)."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import trustme
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from apokalypse.bench import proxy
from apokalypse.server import pages
from tests.browser.playing import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    READY,
    WAIT_MS,
    choose,
    chromium,
    click_decision,
    close_ride,
    move,
    over,
    screenshot,
)
from tests.server.databases import fresh_schema
from tests.server.seeded import Passes, horseman_near, seeded
from tests.server.served import APOKALYPSE, START, free_port
from tests.services import missing, reachable

REDIS = "redis://127.0.0.1:6379/0"
WAIT = 10.0  # anything else: a healthy deployment answers in milliseconds
DEADLINE = 300.0  # the browser's whole part; it takes well under a minute
# The deal played (the lobby's table: the friend, the easy and the heuristic computer players),
# the friend passing up to where Death is next with at most ``NEAR`` cards above it: then four
# decisions clicked and three passed end it.
SEED, NEAR = 2, 10
# The headers the app sets for the browser's safety; whichever a process sends directly must
# reach the browser unchanged through nginx.
SECURITY_HEADERS = (
    "content-security-policy",
    "referrer-policy",
    "x-content-type-options",
    "x-frame-options",
    "permissions-policy",
    "cross-origin-opener-policy",
    "cache-control",
)


# iproute2's ip: on root's PATH, or where Debian puts it (not on every user's PATH)
IP = shutil.which("ip") or shutil.which("ip", path="/usr/sbin:/sbin") or "ip"


def ip(*args: str) -> str:
    """``ip ARGS…``; raises with its message when it fails."""
    done = subprocess.run([IP, *args], capture_output=True, text=True, timeout=WAIT, check=False)
    if done.returncode != 0:
        raise AssertionError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


@dataclass(frozen=True)
class Namespace:
    """A friend's machine: a network namespace joined to this one by a veth pair on a /30 of
    its own; ``host`` is this machine's end, ``guest`` the namespace's."""

    name: str
    veth: str  # this machine's end of the pair
    host: str
    guest: str


def unused_subnet() -> int:
    """A third octet N whose 10.231.N.0/30 no interface or route of this machine uses (other
    test runs' namespaces included)."""
    used = ip("-4", "-o", "addr", "show") + ip("-4", "route", "show", "table", "all")
    for _ in range(100):
        octet = secrets.randbelow(254) + 1
        if f"10.231.{octet}." not in used:
            return octet
    raise AssertionError("no free 10.231.N.0/30 for the test's namespace")


@contextlib.contextmanager
def namespace() -> Iterator[Namespace]:
    """The namespace with its veth pair and loopback up; afterwards every process still in it
    (all of them started by this test) is killed, and the pair and the namespace are deleted."""
    tag = secrets.token_hex(3)
    octet = unused_subnet()
    made = Namespace(f"apokalypse-{tag}", f"apk{tag}h", f"10.231.{octet}.1", f"10.231.{octet}.2")
    inside = f"apk{tag}n"
    try:
        ip("netns", "add", made.name)
        ip("link", "add", made.veth, "type", "veth", "peer", "name", inside, "netns", made.name)
        ip("addr", "add", f"{made.host}/30", "dev", made.veth)
        ip("link", "set", made.veth, "up")
        ip("-n", made.name, "addr", "add", f"{made.guest}/30", "dev", inside)
        ip("-n", made.name, "link", "set", inside, "up")
        ip("-n", made.name, "link", "set", "lo", "up")
        yield made
    finally:
        with contextlib.suppress(AssertionError):  # never made: nothing in it
            for pid in ip("netns", "pids", made.name).split():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), 9)
        with contextlib.suppress(AssertionError):  # gone with the namespace, or never made
            ip("link", "del", made.veth)
        with contextlib.suppress(AssertionError):
            ip("netns", "del", made.name)
    # Nothing of it is left: no namespace, no veth (checked after the cleanup above, so a
    # failure here names what leaked).
    assert made.name not in ip("netns", "list"), f"namespace {made.name} left behind"
    assert made.veth not in ip("-o", "link", "show"), f"veth {made.veth} left behind"


@contextlib.contextmanager
def watchdog(where: Namespace, seconds: float) -> Iterator[None]:
    """Past ``seconds``, kill every process in the namespace (the browser: all started by this
    test), so that a browser that stops answering (a page's close has no timeout) fails the
    test instead of hanging it; the cleanup then runs as after any failure."""

    def bite() -> None:
        with contextlib.suppress(AssertionError):
            for pid in ip("netns", "pids", where.name).split():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), 9)

    timer = threading.Timer(seconds, bite)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


@dataclass
class Backend:
    """One ``apokalypse serve`` on a loopback port, over the shared database and Redis."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def upstream(self) -> str:
        return f"127.0.0.1:{self.port}"

    def ready(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"a server ended: {self.errors()}")
        try:
            answer = httpx.get(f"http://{self.upstream}/api/games/none", timeout=1)
        except httpx.TransportError:
            return False
        return answer.status_code == 404

    def errors(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()  # kill -9: no goodbye to its WebSockets nor to Redis
        self.process.wait(timeout=WAIT)


@contextlib.contextmanager
def backends(database: str, public_url: str, folder: Path) -> Iterator[list[Backend]]:
    """Two server processes over ``database`` with a Redis channel prefix of their own, each
    told the public address and to believe the forwarded headers of nginx (loopback) only."""
    prefix = f"apokalypse-deploy:{secrets.token_hex(6)}:"
    started: list[Backend] = []
    try:
        for number in (1, 2):
            port = free_port()
            log = folder / f"server{number}.log"
            command = [
                str(APOKALYPSE),
                "serve",
                *("--port", str(port)),
                *("--database-url", database),
                *("--redis-url", REDIS),
                *("--channel-prefix", prefix),
                *("--public-url", public_url),
                *("--forwarded-allow-ips", "127.0.0.1"),
                # Nobody watches the computers here: no pause before their moves, and quick
                # automatic answers (people's pacing is for people, not for tests).
                *("--computer-delay", "0"),
                *("--answer-delay", "0.05", "0.3"),
            ]
            with log.open("wb") as errors:  # a file, never an unread pipe that fills up
                process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
            started.append(Backend(port, process, log))
        deadline = time.monotonic() + START
        while not all([backend.ready() for backend in started]):
            assert time.monotonic() < deadline, f"a server did not answer within {START} s"
            time.sleep(0.1)
        yield started
    finally:
        for backend in started:
            backend.kill()


def certificate(folder: Path, address: str) -> tuple[Path, Path, str]:
    """A certificate for ``address`` from a CA of the test's own: the chain file (leaf, then
    the CA), the key file, and the base64 SHA-256 of the leaf's public key, which is what
    Chromium is told to trust (``--ignore-certificate-errors-spki-list``: exactly this key, not
    any certificate)."""
    leaf = trustme.CA().issue_cert(address)
    chain, key = folder / "chain.pem", folder / "key.pem"
    chain.write_bytes(b"".join(pem.bytes() for pem in leaf.cert_chain_pems))
    leaf.private_key_pem.write_to_path(str(key))
    key.chmod(0o600)
    public = x509.load_pem_x509_certificate(leaf.cert_chain_pems[0].bytes()).public_key()
    spki = public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return chain, key, base64.b64encode(hashlib.sha256(spki).digest()).decode()


@contextlib.contextmanager
def chromium_in(where: Namespace, folder: Path, spki: str) -> Iterator[Browser]:
    """Chromium running inside the namespace: Playwright starts a wrapper that enters it
    (``ip netns exec`` keeps the pipes Playwright talks over), trusting the one certificate."""
    wrapper = folder / "chromium-in-namespace"
    wrapper.write_text(f'#!/bin/sh\nexec {IP} netns exec {where.name} {CHROMIUM} "$@"\n')
    wrapper.chmod(0o755)
    args = [*CHROMIUM_ARGS, f"--ignore-certificate-errors-spki-list={spki}"]
    with chromium(wrapper, args) as browser:
        yield browser


def established(port: int) -> int:
    """How many TCP connections to 127.0.0.1:``port`` are established (nginx's to a server
    process: with no upstream keep-alive, the only lasting one is a WebSocket)."""
    count = 0
    with open("/proc/net/tcp") as table:
        next(table)
        for line in table:
            fields = line.split()
            local_port = int(fields[1].split(":")[1], 16)
            if local_port == port and fields[3] == "01":  # 01: ESTABLISHED
                count += 1
    return count


def holding_the_websocket(servers: list[Backend]) -> Backend:
    """The server process the page's WebSocket is on (polled: nginx may still be closing the
    connections of the page's other requests)."""
    deadline = time.monotonic() + WAIT
    while True:
        counts = [established(server.port) for server in servers]
        if sorted(counts) == [0, 1]:
            return servers[counts.index(1)]
        assert time.monotonic() < deadline, f"connections to the servers: {counts}"
        time.sleep(0.05)


# Records every state the page's connection indicator shows, from now on.
WATCH_CONNECTION = """() => {
  window.connectionStates = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.target.id === "connection") {
        window.connectionStates.push(change.target.getAttribute("data-state"));
      }
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
}"""


def until(page: Page, expression: str) -> None:
    """Poll ``expression`` in the page until it is true (within :data:`WAIT`).

    Not Playwright's ``wait_for_function``: that evaluates its predicate with ``eval`` inside
    the page, which the pages' Content-Security-Policy (``script-src 'self'``) forbids, while
    ``evaluate`` goes through the DevTools protocol, which no page policy covers. The policy
    stays on (no ``bypass_csp``): the friend's browser runs the pages exactly as served."""
    deadline = time.monotonic() + WAIT
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"not within {WAIT} s: {expression}"
        page.wait_for_timeout(20)


def ready(page: Page) -> None:
    """Until the page asks this seat to decide, or the game is over."""
    page.wait_for_selector("body[data-move]")
    until(page, READY)


def decide(page: Page, prefer_pass: bool) -> int | None:
    """One decision of this seat (a horseman's panel closed first), by clicking on the table or
    (``prefer_pass``) passing where it may; then until the game went on and it is asked again.
    The horseman whose panel was closed, if one was open."""
    ready(page)
    ridden = close_ride(page)
    if over(page):
        return ridden
    before = move(page)
    moved = f"Number(document.body.dataset.move) > {before} || document.body.dataset.over === 'yes'"
    for attempt in range(3):
        try:
            if prefer_pass:
                choose(page, prefer_pass=True)
            else:
                click_decision(page)
        except PlaywrightTimeoutError:
            # The choice went away before the click landed: the game moved on without this
            # seat (another seat answered the defence window first).
            if not page.evaluate(moved):
                raise
        # A click in the moment the page settles after a change is dropped by design, so, as a
        # person would, the friend clicks again while the same decision is still asked.
        deadline = time.monotonic() + 5
        while not page.evaluate(moved) and time.monotonic() < deadline:
            page.wait_for_timeout(20)
        if page.evaluate(moved) or attempt == 2:
            break
        ready(page)
    until(page, f"({moved}) && ({READY})")
    return ridden


def create_in_lobby(page: Page, url: str) -> tuple[str, dict[str, Any]]:
    """The friend creates a 3-player Apokalypse game in the lobby (themselves, then the easy
    and the heuristic computer players): the invite link the lobby shows, and the server's
    answer."""
    page.goto(f"{url}/")
    page.locator("label.game-option", has_text="Apokalypse").click()
    page.select_option("#players", "3")
    expect(page.locator("#seats select")).to_have_count(3)
    page.select_option("#seats select[data-seat='0']", "human")
    page.select_option("#seats select[data-seat='1']", "easy")
    page.select_option("#seats select[data-seat='2']", "heuristic")
    with page.expect_response(lambda r: r.url == f"{url}/api/games" and r.ok) as answer:
        page.click("#create-button")
    created: dict[str, Any] = answer.value.json()
    expect(page.locator("a.seat-link")).to_have_count(1)  # one person: one invite link
    return page.locator("a.seat-link").get_attribute("href") or "", created


def connects(where: Namespace, host: str, port: int) -> str:
    """What a TCP connection from inside the namespace to ``host:port`` meets: "connected", or
    the error's name."""
    probe = (
        "import socket, sys\n"
        "try:\n"
        f"    socket.create_connection(({host!r}, {port}), timeout={WAIT}).close()\n"
        "except OSError as exc:\n"
        "    sys.exit(type(exc).__name__)\n"
        "print('connected')\n"
    )
    done = subprocess.run(
        [IP, "netns", "exec", where.name, sys.executable, "-I", "-c", probe],
        capture_output=True,
        text=True,
        timeout=WAIT * 2,
        check=False,
    )
    return (done.stdout + done.stderr).strip()


def check_edges(page: Page, where: Namespace, served: proxy.Proxy, servers: list[Backend]) -> None:
    """From inside the namespace: plain HTTP only redirects, the app's security headers and
    nginx's HSTS arrive, /metrics is denied however it is spelled, and the servers themselves
    are out of reach (they listen on loopback)."""
    # Chromium's error page for a refused address breaks the page's later navigations: a plain
    # TCP connection from a process in the namespace instead.
    for server in servers:
        assert connects(where, where.host, server.port) == "ConnectionRefusedError", server
    assert connects(where, where.host, urlsplit(served.url).port or 443) == "connected"

    response = page.goto(f"{served.http_url}/?from=plain")
    assert response is not None and page.url == f"{served.url}/?from=plain", page.url
    redirect = response.request.redirected_from
    assert redirect is not None and redirect.url.startswith("http://")
    first = redirect.response()
    assert first is not None and first.status == 301, first

    response = page.goto(f"{served.url}/")
    assert response is not None and response.ok
    details = response.security_details()
    assert details is not None and details.get("protocol") in ("TLS 1.3", "TLS 1.2"), details
    headers = response.all_headers()
    direct = httpx.get(f"http://{servers[0].upstream}/", timeout=WAIT).headers
    for name in SECURITY_HEADERS:
        if name in direct:
            assert headers.get(name) == direct[name], (name, headers.get(name), direct[name])
    assert headers.get("referrer-policy") == "no-referrer", headers  # the page's token stays
    assert headers.get("strict-transport-security", "").startswith("max-age="), headers
    assert headers.get("server") == "nginx", headers  # no version, no uvicorn

    for path in ("/metrics", "//metrics", "/%6Detrics", "/metrics/", "/metrics?format=x"):
        denied = page.goto(f"{served.url}{path}")
        assert denied is not None and denied.status == 403, (path, denied and denied.status)


def handshake(host: str, port: int, version: ssl.TLSVersion) -> str:
    """A TLS handshake of exactly ``version`` with nginx: the version agreed, or why not. The
    client allows old versions (security level 0), so a refusal is the server's."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the protocol is checked here, the certificate above
    context.set_ciphers("DEFAULT:@SECLEVEL=0")
    with warnings.catch_warnings():  # Python warns of TLS 1.1 itself: exactly what is tested
        warnings.simplefilter("ignore", DeprecationWarning)
        context.minimum_version = context.maximum_version = version
    with socket.create_connection((host, port), timeout=WAIT) as raw:
        try:
            with context.wrap_socket(raw) as tls:
                return str(tls.version())
        except ssl.SSLError as exc:
            return str(exc.reason)


@pytest.fixture
def prerequisites() -> None:
    if sys.platform != "linux" or os.geteuid() != 0:
        missing("the deployment test makes a network namespace: it needs Linux and root")
    if shutil.which(IP) is None:
        missing("the ip command is missing: apt-get install iproute2 (.ci/run does)")
    try:
        proxy.nginx_program()
    except proxy.ProxyError as exc:
        missing(f"{exc} (.ci/run installs it)")
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    if not (pages.DIST / "game.html").is_file():
        pytest.fail(f"{pages.DIST} is missing: build the pages with `make web`")
    reachable("127.0.0.1", 6379, "Redis")


@pytest.mark.long(48)
def test_a_friend_plays_through_nginx_while_a_server_process_dies(
    prerequisites: None, tmp_path: Path
) -> None:
    with contextlib.ExitStack() as stack:
        friend = stack.enter_context(namespace())
        https_port, http_port = 8443, 8080  # the namespace's address is the test's own
        public = f"https://{friend.host}:{https_port}"
        chain, key, spki = certificate(tmp_path, friend.host)
        database = stack.enter_context(fresh_schema())
        servers = stack.enter_context(backends(database, public, tmp_path))
        logs = tmp_path / "nginx"
        served = stack.enter_context(
            proxy.nginx(
                [server.upstream for server in servers],
                listen=friend.host,
                https_port=https_port,
                http_port=http_port,
                cert=chain,
                key=key,
                keep_logs=logs,
            )
        )
        assert served.url == public
        # Modern TLS only: 1.0 and 1.1 get the server's "protocol version" alert.
        tls = ssl.TLSVersion
        versions = (tls.TLSv1, tls.TLSv1_1, tls.TLSv1_2, tls.TLSv1_3)
        agreed = [handshake(friend.host, https_port, version) for version in versions]
        assert agreed == ["TLSV1_ALERT_PROTOCOL_VERSION"] * 2 + ["TLSv1.2", "TLSv1.3"], agreed
        stack.enter_context(watchdog(friend, DEADLINE))  # armed until the browser closed
        browser = stack.enter_context(chromium_in(friend, tmp_path, spki))
        context = browser.new_context(viewport=DESKTOP)  # trusts the pin alone, no ignoring
        stack.callback(context.close)  # before nginx stops: its WebSocket's log line
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        console: list[str] = []  # script errors, and the pages' policy refusing anything
        page.on("console", lambda message: console.append(message.text))
        page.on("pageerror", lambda error: console.append(f"page error: {error}"))

        check_edges(page, friend, served, servers)
        link, created = create_in_lobby(page, served.url)
        token = created["seats"][0]["token"]
        # The invite link is the proxy's HTTPS address, never a server process's own.
        expected = f"{served.url}/games/{created['id']}?token={token}"
        assert link == expected, link
        assert created["seats"][0]["url"] == expected, created  # what the server answered
        assert created["watch"] == f"{served.url}/games/{created['id']}", created

        page.goto(link)  # the invite link opens the friend's seat, through nginx
        ready(page)
        expect(page.locator("#connection")).to_have_attribute("data-state", "connected")

        # The game played: the same table on a seeded deal, a little before Death rides.
        game = seeded(
            database,
            "apokalypse",
            ["human", "easy", "heuristic"],
            SEED,
            people=Passes(),
            until=horseman_near(4, NEAR),
        )
        played, seat_token = game.id, game.tokens[0]
        page.goto(f"{served.url}/games/{played}?token={seat_token}")
        ready(page)
        expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
        page.evaluate(WATCH_CONNECTION)
        for _ in range(4):  # cards from the hand onto the displays, clicked as a person does
            decide(page, prefer_pass=False)
        shown = move(page)
        assert shown > 0 and not over(page)

        # kill -9 the process the WebSocket is on: the page reconnects through nginx, which
        # skips the dead process, and the other one carries the game on from the database.
        doomed = holding_the_websocket(servers)
        survivor = servers[1 - servers.index(doomed)]
        doomed.kill()
        until(
            page,
            "window.connectionStates.includes('reconnecting')"
            " && document.getElementById('connection').dataset.state === 'connected'",
        )
        assert holding_the_websocket(servers) is survivor
        ready(page)
        assert move(page) >= shown  # nothing lost

        rides: list[int | None] = []
        for _ in range(40):
            if over(page):
                break
            rides.append(decide(page, prefer_pass=True))
        assert over(page), "the game did not end"
        if 4 not in rides:  # Death's ride ends the game: its panel opens over the final reveal
            page.wait_for_selector("#ride-panel[open]")
            rides.append(close_ride(page))
        assert 4 in rides, rides
        reveal = page.locator("#final-reveal")
        expect(reveal).to_be_visible()
        expect(reveal.locator(".reveal")).to_have_count(3)
        expect(reveal.locator(".verdict")).not_to_be_empty()
        screenshot(page, tmp_path, "deploy-final", full_page=False)
        assert not any(
            text.startswith("page error")
            or "Content Security Policy" in text
            or token in text
            or seat_token in text
            for text in console
        ), console
        assert "Traceback" not in survivor.errors(), survivor.errors()

    # After everything stopped: nginx's logs, complete now.
    access = (logs / "apokalypse.access.log").read_text()
    lines = access.splitlines()
    assert lines and all(line.startswith(f"{friend.guest} ") for line in lines), access[:2000]
    websocket = f"/ws/games/{played} "
    upgrades = [line for line in lines if websocket in line and '" 101 ' in line]
    # Which process took each WebSocket: the last of the upstreams nginx tried (a reconnection
    # may have met the dead one first: "upstream=A, B status=502, 101").
    took = [line.split(" upstream=")[1].split(" status=")[0].split(", ")[-1] for line in upgrades]
    assert took == [doomed.upstream, survivor.upstream], upgrades  # before and after the kill
    for path in logs.iterdir():  # not the tokens, nor any query string
        text = path.read_text(errors="replace")
        assert token not in text and seat_token not in text, (path.name, text[:2000])
        assert "token=" not in text, (path.name, text[:2000])
