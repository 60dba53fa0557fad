"""The server tests' own fixtures: a server process of a test's own, for a test that kills or
restarts it (the session's shared one, ``server`` in ``tests/conftest.py``, must go on serving
the other tests); a database of each kind the store keeps games in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .databases import fresh_schema
from .served import APOKALYPSE, Server, started


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each kind: an SQLite file, and a schema of its own in the
    development machines' PostgreSQL (127.0.0.1:5432, database ``test``), dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    with fresh_schema() as postgres:
        yield postgres


@pytest.fixture
def fresh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``apokalypse serve`` over a database of its own, killed after the test."""
    assert APOKALYPSE.exists(), APOKALYPSE
    with started(Server(tmp_path_factory.mktemp("fresh") / "db.sqlite3")) as running:
        yield running
    assert "Traceback" not in running.errors(), running.errors()
