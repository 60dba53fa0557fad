"""The real PostgreSQL server of the development machines, for the server's tests: each caller
gets a schema of its own in the ``test`` database, dropped afterwards."""

from __future__ import annotations

import secrets
import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def reachable(host: str, port: int, name: str) -> None:
    """Fail (never skip) with a clear line when a service the tests need is down."""
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError as exc:
        pytest.fail(f"{name} at {host}:{port} is unreachable ({exc}): these tests need it running")


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
