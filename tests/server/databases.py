"""The real PostgreSQL server of the development machines, for the server's tests: each caller
gets a schema of its own in the ``test`` database, dropped afterwards."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text

from tests.services import reachable

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextmanager
def fresh_schema() -> Iterator[str]:
    """The URL of a new, empty schema of the ``test`` database; dropped on leaving."""
    reachable("127.0.0.1", 5432, "PostgreSQL")
    schema = f"test_{secrets.token_hex(6)}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


__all__ = ["POSTGRES", "fresh_schema", "reachable"]
