"""The options of ``apokalypse serve``, checked before anything starts: the app's settings and
how the process listens (:class:`Listen`). Light on purpose: the command checks its options with
this module alone, and imports the server (which takes seconds) only once they are right."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from apokalypse.engine.errors import ConfigError

from .logs import LogFormat
from .settings import Settings


@dataclass(frozen=True)
class Listen:
    """How the process listens: its address, the proxies it trusts, its logs, its metrics."""

    host: str = "127.0.0.1"
    port: int = 8000
    # Addresses (or networks, or "*") whose X-Forwarded-For/-Proto are believed; none by
    # default, not even 127.0.0.1 (uvicorn's default): a plain TCP forwarder on this machine
    # (ssh -R, socat, a tunnel) connects from 127.0.0.1 and passes a client's own headers on,
    # which would let that client choose its address (the creation limit counts per address)
    # and its scheme (the invite links'). Behind a reverse proxy, name it.
    forwarded_allow_ips: tuple[str, ...] = ()
    log_format: LogFormat = "text"
    metrics_port: int | None = None  # None: no metrics listener


def serve_options(
    *,
    host: str,
    port: int,
    public_url: str | None,
    forwarded_allow_ips: str | None,
    log_format: str,
    metrics_port: int | None,
    max_games: int,
    create_per_minute: float,
    max_connections: int,
    create_burst: int = Settings.create_burst,
    idle_seconds: float = Settings.idle_seconds,
    computer_threads: int = Settings.computer_threads,
    computer_pace: float = Settings.computer_pace,
    computer_delay: float = Settings.computer_delay,
    answer_delay: tuple[float, float] = Settings.answer_delay,
    coach_iterations: int = Settings.coach_iterations,
    coach_seconds: float = Settings.coach_seconds,
    push_services: tuple[str, ...] = (),
    push_contact: str = Settings.push_contact,
    push_grace: float = Settings.push_grace,
) -> tuple[Settings, Listen]:
    """``apokalypse serve``'s options as the app's settings and how it listens; a
    :class:`ConfigError` naming the first option that is wrong (nothing started yet)."""
    if not 0 < port < 65536:
        raise ConfigError(f"--port {port}: a port is 1–65535")
    if log_format not in ("text", "json"):
        raise ConfigError(f"--log-format {log_format!r}: text or json")
    if metrics_port is not None and not 0 < metrics_port < 65536:
        raise ConfigError(f"--metrics-port {metrics_port}: a port is 1–65535")
    if metrics_port is not None and metrics_port == port and host in LOCAL_HOSTS:
        raise ConfigError(f"--metrics-port {metrics_port}: the server's own --port")
    if max_games < 1:
        raise ConfigError(f"--max-games {max_games}: at least 1")
    if not create_per_minute > 0:  # NaN too
        raise ConfigError(f"--create-per-minute {create_per_minute}: more than 0")
    if max_connections < 1:
        raise ConfigError(f"--max-connections {max_connections}: at least 1")
    if create_burst < 1:
        raise ConfigError(f"--create-burst {create_burst}: at least 1")
    if not 0 < idle_seconds <= 86_400:
        raise ConfigError(f"--idle-seconds {idle_seconds}: more than 0, at most a day")
    if not 1 <= computer_threads <= 64:
        raise ConfigError(f"--computer-threads {computer_threads}: 1 to 64")
    if not 0 <= computer_pace <= 60:
        raise ConfigError(f"--computer-pace {computer_pace}: 0 to 60 seconds")
    if not 0 <= computer_delay <= 10:
        raise ConfigError(f"--computer-delay {computer_delay}: 0 to 10 seconds")
    low, high = answer_delay
    if not 0 <= low <= high <= 30:
        raise ConfigError(f"--answer-delay {low:g} {high:g}: from 0 to 30 seconds, the least first")
    if not 1 <= coach_iterations <= 100_000:
        raise ConfigError(f"--coach-iterations {coach_iterations}: 1 to 100,000")
    if not 0 < coach_seconds <= 60:
        raise ConfigError(f"--coach-seconds {coach_seconds}: more than 0, at most 60")
    for service in push_services:
        parts = urlsplit(service)
        if (
            parts.scheme not in ("https", "http")
            or not parts.hostname
            or parts.path not in ("", "/")
        ):
            raise ConfigError(
                f"--push-service {service!r}: an origin, like https://push.example.org"
            )
    if not push_contact.startswith(("mailto:", "https://")):
        raise ConfigError(f"--push-contact {push_contact!r}: a mailto: or https: address")
    if not 0 <= push_grace <= 3600:
        raise ConfigError(f"--push-grace {push_grace}: 0 to 3600 seconds")
    settings = Settings(
        public_url=check_public_url(public_url) if public_url is not None else None,
        max_games=max_games,
        create_burst=create_burst,
        create_per_minute=create_per_minute,
        max_connections=max_connections,
        idle_seconds=idle_seconds,
        computer_threads=computer_threads,
        computer_pace=computer_pace,
        computer_delay=computer_delay,
        answer_delay=(low, high),
        coach_iterations=coach_iterations,
        coach_seconds=coach_seconds,
        push_services=(*Settings.push_services, *push_services),
        push_contact=push_contact,
        push_grace=push_grace,
    )
    listen = Listen(
        host=host,
        port=port,
        forwarded_allow_ips=check_forwarded(forwarded_allow_ips or ""),
        log_format="json" if log_format == "json" else "text",
        metrics_port=metrics_port,
    )
    return settings, listen


LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "0.0.0.0", "::", "::1"})


def check_public_url(url: str) -> str:
    """``url`` as the base of every link (``https://host[:port]``, no trailing slash), or a
    :class:`ConfigError` saying what is wrong with it."""
    where = f"--public-url {url!r}"
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 (raises ValueError for a port that is no number)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            f"{where}: give http:// or https:// and a host (https://games.example.org)"
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        # The pages and the API are served at the root: a path would make every link wrong.
        raise ConfigError(f"{where}: only a scheme, a host and a port (no path, query or user)")
    return f"{parts.scheme}://{parts.netloc}"


def check_forwarded(addresses: str) -> tuple[str, ...]:
    """The proxies of ``--forwarded-allow-ips`` (addresses, networks, or ``*`` for any), or a
    :class:`ConfigError` naming one that is neither."""
    found: list[str] = []
    for item in (part.strip() for part in addresses.split(",")):
        if not item:
            continue
        if item != "*":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ConfigError(
                    f"--forwarded-allow-ips {item!r}: not an IP address or network (or *)"
                ) from None
        found.append(item)
    return tuple(found)
