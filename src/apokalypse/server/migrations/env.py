"""Alembic's environment: migrations run on the connection :func:`..tables.migrate` hands over."""

from __future__ import annotations

from alembic import context

from apokalypse.server.tables import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
