"""How friends reach this server: the address its links name, and what it says when it starts.

A game's invite links are made by the server, not the browser: the person creating a game may
have opened the lobby at an address nobody else can use (``http://127.0.0.1:8000``). The base of
every link (:func:`link_base`) is

- the operator's public address (``--public-url``, :attr:`.Settings.public_url`) when set: behind
  a reverse proxy it is the only one that is right for everybody;
- else the address the request came to: its scheme (``https`` when a trusted proxy says so in
  ``X-Forwarded-Proto``: uvicorn's proxy headers) and its ``Host`` header;
- except when that host is this machine's loopback address while the server listens on all
  interfaces: then the machine's address on its network (:func:`lan_address`), which friends on
  that network can open.

Finding the network address sends nothing anywhere: a UDP socket's ``connect`` only asks the
kernel which route, and so which source address, a datagram would take. Whether the server
listens on all interfaces is asked of the kernel too (:func:`listening_on`), since whatever
started the app (``apokalypse serve``, uvicorn, a test) did not have to tell it.
"""

from __future__ import annotations

import errno
import fcntl
import ipaddress
import re
import socket
import struct
from collections.abc import Callable
from urllib.parse import quote

from starlette.requests import Request

from .settings import Settings

# Addresses in the documentation ranges (RFC 5737, RFC 3849): a route to them is the default
# route, whose source address is the one the machine's network knows it by. Nothing is sent.
ROUTE_PROBES = ((socket.AF_INET, "203.0.113.1"), (socket.AF_INET6, "2001:db8::1"))
WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})
SIOCGIFADDR = 0x8915  # Linux's ioctl for an interface's IPv4 address (netdevice(7))
# A Host header as browsers send it: a name, an IPv4 address or a bracketed IPv6 address, and an
# optional port. Anything else (a client's own invention) is not echoed into links.
HOST = re.compile(
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
    r"(?::(?P<port>[0-9]{1,5}))?"
)

Probe = Callable[[str, int], bool]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 bracketed or not) means this machine only."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):  # RFC 6761: always loopback
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether listening on ``host`` means listening on every interface."""
    return host in WILDCARDS


def lan_address() -> str | None:
    """This machine's address on its network (IPv4 first), or None without one."""
    for family, probe in ROUTE_PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))  # picks the route; a UDP connect sends no packet
                address = str(sock.getsockname()[0])
        except OSError:  # no route in this family
            continue
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local):
            return address
    return None


def listening_on(address: str, port: int) -> bool:
    """Whether a socket already listens on ``port`` of ``address`` (one of this machine's own):
    binding a fresh socket there fails while a server holds it, as one listening on all
    interfaces does. The fresh socket is closed at once and never listens or connects."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((address, port))
        except OSError as exc:
            return exc.errno == errno.EADDRINUSE
    return False


def netloc(host: str, port: int | str | None) -> str:
    """``host:port`` as a URL writes it (an IPv6 address in brackets)."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return shown if port in (None, "") else f"{shown}:{port}"


def link_base(
    scheme: str,
    host_header: str | None,
    server: tuple[str, int] | None,
    public_url: str | None,
    lan: Callable[[], str | None] = lan_address,
    listening: Probe = listening_on,
) -> str:
    """The base of a request's links (``scheme://host[:port]``, or the public URL), as the module
    says. ``server``: the local address and port the request's connection came in on."""
    if public_url:
        return public_url.rstrip("/")
    found = HOST.fullmatch(host_header.strip()) if host_header else None
    if found is None:  # no usable Host header (HTTP/1.0): the address the connection came to
        if server is None:
            raise ValueError("a request with neither a Host header nor a server address")
        host, port = server[0], str(server[1])
    else:
        host, port = found["host"], found["port"] or ""
    if is_loopback(host) and server is not None:
        address = lan()
        if address is not None and listening(address, server[1]):
            # Straight to the server: its own port, whatever the loopback address was reached by.
            host, port = address, str(server[1])
    return f"{scheme}://{netloc(host, port)}"


def network_addresses() -> list[str]:
    """Every IPv4 address of this machine's network interfaces but loopback and link-local
    (Linux: the interface's address as the kernel reports it, ``SIOCGIFADDR``); none where the
    kernel does not answer. A machine on two networks has two: friends on each need their own."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, request)
            except OSError:  # no IPv4 address on this interface (or not Linux)
                continue
            ip = ipaddress.ip_address(socket.inet_ntoa(answer[20:24]))
            if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified):
                found.append(str(ip))
    return list(dict.fromkeys(found))


def other_bases(
    base: str,
    scheme: str,
    host_header: str | None,
    server: tuple[str, int] | None,
    public_url: str | None,
    addresses: Callable[[], list[str]] = network_addresses,
    listening: Probe = listening_on,
) -> list[str]:
    """The bases a host may choose for the links instead of ``base`` (as :func:`link_base`
    chose it): this machine's other network addresses that the server listens on, and the
    address the page was opened at. None where the operator set the public address: that one
    is right for everybody."""
    if public_url:
        return []
    offered: list[str] = []
    if server is not None:
        for address in addresses():
            if listening(address, server[1]):
                offered.append(f"{scheme}://{netloc(address, server[1])}")
    found = HOST.fullmatch(host_header.strip()) if host_header else None
    if found is not None:
        offered.append(f"{scheme}://{netloc(found['host'], found['port'] or '')}")
    return [other for other in dict.fromkeys(offered) if other != base]


def base_of(request: Request) -> str:
    """The base of the links in the answer to ``request`` (the app's settings say whether a
    public URL is set)."""
    settings: Settings = request.app.state.settings
    server = request.scope.get("server")
    local = (str(server[0]), int(server[1])) if server else None
    return link_base(request.url.scheme, request.headers.get("host"), local, settings.public_url)


def others_of(request: Request, base: str) -> list[str]:
    """The other bases the host of ``request`` may choose for its links (:func:`other_bases`)."""
    settings: Settings = request.app.state.settings
    server = request.scope.get("server")
    local = (str(server[0]), int(server[1])) if server else None
    host = request.headers.get("host")
    return other_bases(base, request.url.scheme, host, local, settings.public_url)


def game_link(base: str, game_id: str, token: str | None = None) -> str:
    """A game's page under ``base``: with ``token`` a seat's invite link (secret: it opens that
    seat), without one the spectator link. The same form as the browser's ``gameLink``."""
    link = f"{base}/games/{quote(game_id, safe='')}"
    return f"{link}?token={quote(token, safe='')}" if token else link


def listening_banner(host: str, port: int, public_url: str | None) -> str:
    """What the server prints when it starts: the address friends should open, and when only
    this machine can join, how to let others in."""
    here = f"http://{netloc('127.0.0.1' if is_wildcard(host) else host, port)}/"
    if public_url:
        public = public_url.rstrip("/") + "/"
        return (
            f"Apokalypse is listening on {here}\n"
            f"Friends open {public} (--public-url): every invite link names that address."
        )
    if is_loopback(host):
        return (
            f"Apokalypse on {here}: only this machine can join.\n"
            "To let friends on your network in, start it with --host 0.0.0.0"
            " (docs/hosting.md says how to host games)."
        )
    if is_wildcard(host):
        address = lan_address()
        if address is None:
            return (
                f"Apokalypse on {here} and on every network address of this machine, but it has"
                " none now: only this machine can join until it is on a network."
            )
        return (
            f"Apokalypse on {here} (this machine)\n"
            f"Friends on your network open http://{netloc(address, port)}/ and their invite links"
            " name that address.\n"
            f"If they cannot connect, let TCP port {port} through this machine's firewall."
        )
    return (
        f"Apokalypse on {here}\n"
        f"Friends who can reach {host} open that address; their invite links name it."
    )
