"""How friends reach the server (``server/reach.py``): the invite links ``POST /api/games``
answers name the address friends can open, through real server processes and real sockets, and
the banner at start tells the operator which address that is.

- Links are absolute and open the seat they are for; a computer player's seat has none.
- They follow the request: its Host header, and ``https`` when a proxy named by
  ``--forwarded-allow-ips`` says ``X-Forwarded-Proto: https`` (nobody else is believed).
- A host who opened the lobby at a loopback address while the server listens on all interfaces
  hands out the machine's network address; a server listening on loopback only keeps loopback.
- ``--public-url`` names every link, and the banner names it.
- The tokens in the links are never written to the server's log.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from websockets.sync.client import connect

from apokalypse.server.reach import (
    game_link,
    is_loopback,
    lan_address,
    link_base,
    listening_banner,
    listening_on,
    netloc,
    other_bases,
)

from .served import APOKALYPSE, START, TIMEOUT, Server, free_port, receive

BODY = {"game": "apokalypse", "players": 3, "seats": ["human", "heuristic", "human"]}


def network_address() -> str:
    """This machine's network address (the tests that need one are skipped without)."""
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no network address")
    return address


@contextmanager
def serving(database: Path, *options: str) -> Iterator[Server]:
    """``apokalypse serve OPTIONS`` over ``database`` until the block ends; only ever asked at
    127.0.0.1, whatever else it listens on."""
    running = Server(database)
    running.port = free_port()
    command = [str(APOKALYPSE), "serve", "--port", str(running.port)]
    running.process = subprocess.Popen(
        [*command, "--database-url", running.database_url, *options],
        stdout=database.with_suffix(".out").open("wb"),  # the banner: banner_of()
        stderr=running.log.open("ab"),
    )
    try:
        deadline = time.monotonic() + START
        while True:
            assert running.process.poll() is None, f"the server ended: {running.errors()}"
            try:
                if httpx.get(f"{running.http}/api/games/none", timeout=1).status_code == 404:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"the server did not answer within {START} s"
            time.sleep(0.1)
        yield running
    finally:
        running.stop()


def banner_of(served: Server) -> str:
    """What a server started by :func:`serving` printed when it started."""
    return Path(served.database_url.removeprefix("sqlite:///")).with_suffix(".out").read_text()


def created_at(served: Server, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """A new game's answer, asked at 127.0.0.1 with ``headers`` (a Host header, a proxy's)."""
    response = httpx.post(
        f"{served.http}/api/games", json=BODY, headers=headers or {}, timeout=TIMEOUT
    )
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def links_under(created: dict[str, Any], base: str) -> None:
    """Every person's seat has its invite link under ``base``, with its own token; the
    computer player's seat has none; the spectator link has no token."""
    game_id = created["id"]
    for seat in created["seats"]:
        if seat["kind"] == "human":
            assert seat["url"] == f"{base}/games/{game_id}?token={seat['token']}", seat
        else:
            assert "url" not in seat and "token" not in seat, seat
    assert created["watch"] == f"{base}/games/{game_id}"


def test_links_open_their_seats_at_the_address_asked(server: Server) -> None:
    created = created_at(server)
    links_under(created, server.http)
    for seat in (0, 2):
        url = created["seats"][seat]["url"]
        parts = urlsplit(url)
        page = httpx.get(url, timeout=TIMEOUT)  # the game page, for the browser to read
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        token = parse_qs(parts.query)["token"][0]
        seen: list[dict[str, Any]] = []
        with connect(server.ws(created["id"], token), open_timeout=TIMEOUT) as ws:
            assert receive(ws, seen)["seat"] == seat, "the link opens its own seat"
    assert not any(s["token"] in server.errors() for s in created["seats"] if "token" in s)


def test_links_follow_the_host_and_only_a_trusted_proxy(server: Server, tmp_path: Path) -> None:
    named = created_at(server, {"Host": "games.example.org:8443"})
    links_under(named, "http://games.example.org:8443")
    # A Host header no browser sends is not echoed: the address the connection came to is.
    odd = created_at(server, {"Host": "evil.example/path?x="})
    links_under(odd, server.http)
    # Nobody's X-Forwarded-Proto is believed unless the operator names the proxy …
    proxy = {"Host": "games.example.org", "X-Forwarded-Proto": "https"}
    links_under(created_at(server, proxy), "http://games.example.org")
    # … as behind an nginx on the same machine that terminates TLS.
    with serving(tmp_path / "db.sqlite3", "--forwarded-allow-ips", "127.0.0.1") as proxied:
        links_under(created_at(proxied, proxy), "https://games.example.org")


def test_a_server_on_all_interfaces_hands_out_its_network_address(tmp_path: Path) -> None:
    address = network_address()
    with serving(tmp_path / "db.sqlite3", "--host", "0.0.0.0") as wide:
        lan = f"http://{netloc(address, wide.port)}"
        assert f"Friends on your network open {lan}/" in banner_of(wide)
        links_under(created_at(wide), lan)  # the host opened http://127.0.0.1:PORT
        links_under(created_at(wide, {"Host": f"localhost:{wide.port}"}), lan)
        links_under(created_at(wide, {"Host": f"[::1]:{wide.port}"}), lan)
        # A friend who opened the lobby at the network address gets links to it as they are.
        links_under(created_at(wide, {"Host": f"{address}:{wide.port}"}), lan)
        links_under(created_at(wide, {"Host": "games.example.org"}), "http://games.example.org")


def test_a_server_on_loopback_keeps_loopback_links(server: Server) -> None:
    network_address()  # else there is nothing it could have handed out instead
    local = f"localhost:{server.port}"
    links_under(created_at(server, {"Host": local}), f"http://{local}")


def test_the_public_url_names_every_link(tmp_path: Path) -> None:
    public = "https://games.example.org:8443"
    with serving(tmp_path / "db.sqlite3", "--public-url", f"{public}/") as behind:
        assert f"Friends open {public}/ " in banner_of(behind)
        links_under(created_at(behind), public)
        links_under(created_at(behind, {"Host": "localhost"}), public)


def test_the_network_address_is_this_machines_own() -> None:
    address = network_address()
    assert not is_loopback(address)
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((address, 0))  # only an address of this machine can be bound


def test_listening_on_tells_all_interfaces_from_loopback_only() -> None:
    address = network_address()
    with (
        socket.create_server(("0.0.0.0", 0)) as everywhere,
        socket.create_server(("127.0.0.1", 0)) as loopback,
    ):
        assert listening_on(address, everywhere.getsockname()[1])
        assert not listening_on(address, loopback.getsockname()[1])
        # and the link base follows: the network address only for the server that listens there
        for sock, expected in ((everywhere, address), (loopback, "127.0.0.1")):
            port = sock.getsockname()[1]
            base = link_base("http", f"127.0.0.1:{port}", ("127.0.0.1", port), None)
            assert base == f"http://{netloc(expected, port)}"
        # The loopback address reached through a forwarded port (ssh -L 9000:localhost:PORT):
        # the network address goes straight to the server, at the server's own port.
        port = everywhere.getsockname()[1]
        base = link_base("http", "localhost:9000", ("127.0.0.1", port), None)
        assert base == f"http://{netloc(address, port)}"


def test_link_base_reads_hosts_and_ports_as_urls_write_them() -> None:
    def never(address: str, port: int) -> bool:
        raise AssertionError("a host that is not loopback needs no probe")

    assert link_base("https", "example.org", ("10.0.0.5", 8000), None, listening=never) == (
        "https://example.org"
    )
    assert link_base("http", None, ("192.0.2.7", 8000), None, listening=never) == (
        "http://192.0.2.7:8000"
    )
    assert link_base("http", "[2001:db8::5]:80", None, None) == "http://[2001:db8::5]:80"
    assert game_link("https://x.org", "a/b", "t+k") == "https://x.org/games/a%2Fb?token=t%2Bk"
    assert game_link("https://x.org", "abc") == "https://x.org/games/abc"


def test_the_banner_says_where_friends_connect() -> None:
    alone = listening_banner("127.0.0.1", 8000, None)
    assert "http://127.0.0.1:8000/" in alone and "only this machine" in alone
    assert "--host 0.0.0.0" in alone

    public = listening_banner("127.0.0.1", 8001, "https://games.example.org/")
    assert "Friends open https://games.example.org/ " in public
    assert "only this machine" not in public

    named = listening_banner("192.0.2.50", 8000, None)
    assert "http://192.0.2.50:8000/" in named and "only this machine" not in named

    address = network_address()
    wide = listening_banner("0.0.0.0", 8000, None)
    assert f"Friends on your network open http://{netloc(address, 8000)}/" in wide
    assert "firewall" in wide and "0.0.0.0:" not in wide, "0.0.0.0 is no address to open"


def test_a_host_may_choose_any_address_the_server_is_reached_at() -> None:
    """The other bases offered beside the chosen one: each network address the server listens
    on, then the page's own address; none under a public address."""
    networks = ["10.1.0.5", "10.2.0.5"]

    def listening(address: str, port: int) -> bool:
        return port == 8000

    chosen = "http://10.1.0.5:8000"
    offered = other_bases(
        chosen, "http", "127.0.0.1:8000", ("127.0.0.1", 8000), None, lambda: networks, listening
    )
    assert offered == ["http://10.2.0.5:8000", "http://127.0.0.1:8000"]
    public = "https://games.example.org"
    assert other_bases(public, "https", "x", ("127.0.0.1", 8000), public, lambda: networks) == []
    # A server on loopback alone: no network address reaches it; the page's own is the base.
    alone = other_bases(
        "http://localhost:8000",
        "http",
        "localhost:8000",
        ("127.0.0.1", 8000),
        None,
        lambda: networks,
        lambda address, port: False,
    )
    assert alone == []


def test_a_machine_on_two_networks_has_both_addresses(tmp_path: Path) -> None:
    """Read from the kernel, on a machine with two networks: a network namespace of this
    test's own, with an interface on each (a veth pair's end; removed after)."""
    if subprocess.run(["ip", "netns", "list"], capture_output=True).returncode != 0:
        pytest.skip("needs root and iproute2 (ip netns)")
    name = f"apk-two-{tmp_path.name[-8:]}".replace("_", "-")
    subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        for number, address in ((1, "10.1.0.5/24"), (2, "10.2.0.5/24")):
            device = f"net{number}"
            made = ["link", "add", device, "type", "veth", "peer", "name", f"peer{number}"]
            subprocess.run(["ip", "-n", name, *made], check=True)
            subprocess.run(["ip", "-n", name, "addr", "add", address, "dev", device], check=True)
            subprocess.run(["ip", "-n", name, "link", "set", device, "up"], check=True)
        subprocess.run(["ip", "-n", name, "link", "set", "lo", "up"], check=True)
        read = "from apokalypse.server.reach import network_addresses as n; print(','.join(n()))"
        found = subprocess.run(
            ["ip", "netns", "exec", name, sys.executable, "-c", read],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        assert found.stdout.split() == ["10.1.0.5,10.2.0.5"], found
    finally:
        subprocess.run(["ip", "netns", "del", name], check=False)
