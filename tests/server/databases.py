"""The real PostgreSQL server of the development machines, for the server's tests: each caller
gets a schema of its own in the ``test`` database, dropped afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from apokalypse.server import tables
from tests.services import reachable

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextmanager
def fresh_schema() -> Iterator[str]:
    """The URL of a new, empty schema of the ``test`` database; dropped on leaving."""
    reachable("127.0.0.1", 5432, "PostgreSQL")
    with tables.fresh_schema(POSTGRES, "test") as url:
        yield url


__all__ = ["POSTGRES", "fresh_schema", "reachable"]
