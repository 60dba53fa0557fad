"""The store's tables (SQLAlchemy) and its database: the engine, SQLite's settings, the
migrations (Alembic) and a fresh schema for tests and benchmarks. The store itself:
:mod:`.store`."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x41504F4B  # "APOK": the advisory lock that serialises migrations


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    version: Mapped[str] = mapped_column(String(40))
    format: Mapped[int] = mapped_column(Integer)
    config: Mapped[dict[str, object]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # shifted into the signed range (_SEED_SHIFT)
    meta: Mapped[dict[str, object]] = mapped_column(JSON)
    result: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # A turn-based game's deadline, as its log's last ``deadline`` entry says: kept here too, in
    # the same transaction, for the sweep that finds the games overdue (an index, not the truth).
    deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )


class EntryRow(Base):
    """One entry of a game's ordered log: an action or a table event (migration 0006;
    :mod:`.entries` reads and writes its kinds)."""

    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("game_id", "move", name="uq_entries_move"),)

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, … within the game
    kind: Mapped[str] = mapped_column(String(16))
    # An action's move (1 for the first action): the key that refuses a second action for the
    # same move, whichever process sends it. Null for a table event (nulls never collide).
    move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    channel: Mapped[str | None] = mapped_column(String(16), nullable=True)  # a line's channel
    body: Mapped[dict[str, object]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TransferRow(Base):
    """ "My games" on their way to another device (migration 0007; :mod:`.transfers`): kept
    under the SHA-256 of their one-time code, until taken once or expired."""

    __tablename__ = "transfers"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    games: Mapped[list[dict[str, object]]] = mapped_column(JSON)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class ServerKeyRow(Base):
    """A key the server made for itself and keeps with its data (migration 0008): its VAPID
    key pair for Web Push (:mod:`.push_store`), made on first start."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(4096))


class SubscriptionRow(Base):
    """A browser's Web Push subscription for one seat (migration 0008; :mod:`.push_store`)."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (UniqueConstraint("game_id", "seat", "endpoint", name="uq_push_endpoint"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    endpoint: Mapped[str] = mapped_column(String(2048))
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NoticeRow(Base):
    """A push due to a seat at ``due`` unless things change before (migration 0008): that its
    person is awaited at ``move``, that its deadline is near, or that the game is over."""

    __tablename__ = "push_notices"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    move: Mapped[int] = mapped_column(Integer)
    due: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


def make_engine(url: str) -> Engine:
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(connection: DBAPIConnection, _: object) -> None:
    # SQLite checks foreign keys only when asked, per connection.
    connection.execute("PRAGMA foreign_keys=ON")
    # Write-ahead logging: readers never wait for the writer, and with synchronous=NORMAL a
    # commit is a write to the log, not an fsync (the log is synced at checkpoints). A server
    # process that crashes or is killed loses no committed action; only the machine losing
    # power could cost the last moments. Each commit fsynced took ~4 ms, most of the server's
    # time per action under load.
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA busy_timeout=10000")  # writers of several threads take turns


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest migration (a no-op when it is there)."""
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several server processes starting at once on a new database: one migrates, the
            # others wait for it (a lock held until this transaction ends) and find it done.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@contextmanager
def fresh_schema(url: str, prefix: str) -> Iterator[str]:
    """The URL of a new, empty schema ``<prefix>_<random>`` of the PostgreSQL database at
    ``url``, dropped on leaving (tests and the load benchmark, beside whatever else is there)."""
    schema = f"{prefix}_{secrets.token_hex(6)}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
