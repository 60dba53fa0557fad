"""What an operator measures of a running server, for Prometheus (``GET /metrics``).

One :class:`Metrics` per app, on a registry of its own, so that several apps in one process (the
tests) count apart. The hub counts as it goes; the gauges are read when scraped.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

# An answer is a few milliseconds when all is well; the upper buckets catch a starved server.
ANSWER_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """The server's counters, histograms and gauges."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        on = self.registry
        self.actions = Counter(
            "apokalypse_actions", "Actions applied, by who chose them", ["by"], registry=on
        )
        self.refusals = Counter(
            "apokalypse_refusals",
            "Client messages refused (illegal, stale, malformed)",
            registry=on,
        )
        self.answer_seconds = Histogram(
            "apokalypse_answer_seconds",
            "From a person's message arriving to every connection's view of the change queued",
            buckets=ANSWER_BUCKETS,
            registry=on,
        )
        self.think_seconds = Histogram(
            "apokalypse_computer_think_seconds",
            "One computer player's decision",
            buckets=THINK_BUCKETS,
            registry=on,
        )
        self.errors = Counter(
            "apokalypse_errors",
            "Unexpected failures, by where they happened",
            ["where"],
            registry=on,
        )
        self.rebuilds = Counter(
            "apokalypse_rebuilds",
            "Games rebuilt from the store in place (another process made the same move first)",
            registry=on,
        )
        self.games = Gauge("apokalypse_games_in_memory", "Games held in memory", registry=on)
        self.connections = Gauge(
            "apokalypse_connections", "Open WebSocket connections", registry=on
        )

    def watch(self, games: Callable[[], float], connections: Callable[[], float]) -> None:
        """Read the gauges from the hub when scraped (never stale, nothing to keep in step)."""
        self.games.set_function(games)
        self.connections.set_function(connections)
