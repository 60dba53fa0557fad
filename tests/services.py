"""The real services some tests need: PostgreSQL, Redis, Chromium.

Where one is missing, its tests are skipped with a line saying which and why (``make test``
lists skips: ``-rs``), so the rest of the suite still runs on a machine without it. With
``REQUIRE_SERVICES=1`` (``.ci/run`` sets it) a missing service fails those tests instead:
CI must never pass by skipping them.
"""

from __future__ import annotations

import os
import socket

import pytest

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"


def missing(reason: str) -> None:
    """Skip the test (fail it under ``REQUIRE_SERVICES=1``) because ``reason``."""
    if REQUIRED:
        pytest.fail(f"{reason} (REQUIRE_SERVICES=1)")
    pytest.skip(reason)


def reachable(host: str, port: int, name: str) -> None:
    """Go on only when ``name`` answers at ``host:port``."""
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError as exc:
        missing(f"{name} at {host}:{port} is unreachable ({exc})")
