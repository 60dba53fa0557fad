"""Token buckets: how often a client may ask the server for something (messages on a
connection, lines of talk, games and replays made and "my games" asked per address)."""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.requests import HTTPConnection


class Bucket:
    """A token bucket: ``burst`` at once, ``rate`` per second after that, by ``clock`` (the
    hub's for a connection's paces: a test moves it, so that how many messages pass is a count,
    not a race between the bucket filling and a busy machine reading them)."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.clock = clock
        self.checked = clock()

    def _fill(self) -> None:
        now = self.clock()
        passed = max(0.0, now - self.checked)  # never back (a test's clock put in meanwhile)
        self.tokens = min(self.burst, self.tokens + passed * self.rate)
        self.checked = now

    def take(self) -> float:
        """Take one token: 0 when there was one, else the seconds until there is."""
        self._fill()
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate if self.rate > 0 else float("inf")

    def empty(self) -> bool:
        self._fill()
        return self.tokens < 1

    def spend(self) -> None:
        self.tokens -= 1

    def full(self) -> bool:
        return self.tokens + max(0.0, self.clock() - self.checked) * self.rate >= self.burst


class Allowance:
    """Requests per client address: ``burst`` at once, ``per_minute`` after that (games made,
    replays made, "my games" asked)."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self.per_minute, self.burst = per_minute, burst
        self.buckets: dict[str, Bucket] = {}

    def take(self, client: str) -> float:
        """0 when ``client`` may ask now, else the seconds to wait."""
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) > 10_000:  # forget the addresses that are back to full
                self.buckets = {k: b for k, b in self.buckets.items() if not b.full()}
            bucket = self.buckets[client] = Bucket(self.per_minute / 60, self.burst)
        return bucket.take()


def client_host(connection: HTTPConnection) -> str:
    """The address a request or a WebSocket came from, as every per-address bound counts it
    (behind a trusted proxy, the one the proxy names); "?" where the server was not told."""
    client = connection.client
    return client.host if client is not None else "?"
