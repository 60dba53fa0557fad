"""The server tests' own fixture: a server process of a test's own, for a test that kills or
restarts it (the session's shared one, ``server`` in ``tests/conftest.py``, must go on serving
the other tests)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .served import APOKALYPSE, Server, started


@pytest.fixture
def fresh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``apokalypse serve`` over a database of its own, killed after the test."""
    assert APOKALYPSE.exists(), APOKALYPSE
    with started(Server(tmp_path_factory.mktemp("fresh") / "db.sqlite3")) as running:
        yield running
    assert "Traceback" not in running.errors(), running.errors()
