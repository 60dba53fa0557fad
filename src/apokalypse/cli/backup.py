"""``apokalypse backup`` and ``apokalypse restore``: a SQLite games database copied to a file
and back with SQLite's online backup API.

The backup API copies a consistent snapshot while the server goes on playing: in the database's
write-ahead-log mode a reader never waits for the writer nor the writer for it, and the copy is
made in one step, so it holds every action committed before it began and none half-written. The
backup is a single file (rollback-journal mode, no ``-wal`` beside it), written beside its name
and renamed into place, so an interrupted backup never leaves half a file under that name.

A restore copies such a file into a database with the same API: one write transaction of the
target, so the target is either the whole backup or what it was. It refuses a target that
holds games unless told to replace them, and a backup made by a newer version of the program
(its schema is one this version does not know). An older backup is brought up to date by the
server's migrations when it next starts.

PostgreSQL is backed up with its own tools (``pg_dump -Fc``, ``pg_restore``), which
``docs/hosting.md`` describes; these commands say so when given a PostgreSQL URL.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy import make_url
from sqlalchemy.exc import ArgumentError

from apokalypse.engine.errors import ConfigError
from apokalypse.server.tables import MIGRATIONS

from .safe import printable

TABLES = ("games", "alembic_version")  # what every games database has …
LOGS = ("entries", "actions")  # … and its actions: in the one log (0006 on), or apart before


@dataclass(frozen=True)
class Copied:
    """What a backup or restore copied."""

    games: int
    actions: int
    schema: str  # the migration the database is at


def sqlite_file(database_url: str) -> Path:
    """The file of a ``sqlite:///…`` URL; any other database is refused with what to use."""
    try:
        url = make_url(database_url)
    except ArgumentError:
        raise ConfigError(f"--database-url {database_url!r} is not a database URL") from None
    if url.get_backend_name() != "sqlite":
        raise ConfigError(
            f"--database-url {url.render_as_string(hide_password=True)!r} is not SQLite: back up"
            " PostgreSQL with pg_dump -Fc and restore it with pg_restore (docs/hosting.md)"
        )
    if not url.database or url.database == ":memory:":
        raise ConfigError(f"--database-url {database_url!r} names no database file")
    return Path(url.database)


@contextlib.contextmanager
def _connected(path: Path) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(path, timeout=10)  # the server's writers take turns with us
    try:
        yield connection
    finally:
        connection.close()


def _contents(connection: sqlite3.Connection, where: str) -> Copied:
    """The games database in ``connection`` (``where``: its name, for errors), checked."""
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        if not set(TABLES) <= tables or not tables & set(LOGS):
            raise ConfigError(f"{where} is no Apokalypse games database (no games table)")
        games = connection.execute("SELECT count(*) FROM games").fetchone()[0]
        counted = (
            "SELECT count(*) FROM entries WHERE kind = 'action'"
            if "entries" in tables
            else "SELECT count(*) FROM actions"
        )
        actions = connection.execute(counted).fetchone()[0]
        schema = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError as exc:  # not SQLite at all, or damaged
        raise ConfigError(f"{where} is no readable SQLite database ({exc})") from None
    return Copied(int(games), int(actions), str(schema[0]) if schema else "")


def _check_integrity(connection: sqlite3.Connection, where: str) -> None:
    verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
    if verdict != "ok":
        raise ConfigError(f"{where} is damaged: {verdict}")


def backup(database_url: str, file: Path) -> Copied:
    """Copy the SQLite database at ``database_url`` (a server may be using it) into ``file``."""
    source_path = sqlite_file(database_url)
    if not source_path.is_file():
        raise ConfigError(f"--database-url {database_url!r}: there is no file {source_path}")
    file.parent.mkdir(parents=True, exist_ok=True)
    # The temporary's name is the one a killed save leaves (engine.record.atomic_write), so that
    # the same clean-up recognises it.
    fd, name = tempfile.mkstemp(dir=file.parent, prefix=f".{file.name}.", suffix=".tmp")
    os.close(fd)
    temporary = Path(name)
    try:
        with _connected(source_path) as source, _connected(temporary) as target:
            _contents(source, str(source_path))  # a games database, before anything is copied
            source.backup(target)  # all pages in one step: one consistent snapshot
            # One self-contained file: no write-ahead log to keep beside it.
            target.execute("PRAGMA journal_mode=DELETE")
            _check_integrity(target, f"the backup of {source_path}")
            copied = _contents(target, "the backup")
        with temporary.open("rb") as written:
            os.fsync(written.fileno())  # on disk before it takes the name
        os.replace(temporary, file)
    except sqlite3.Error as exc:  # locked past the timeout, a full disk …
        raise ConfigError(f"backing up {source_path} failed: {exc}") from None
    finally:
        temporary.unlink(missing_ok=True)
    return copied


def _known_schemas() -> set[str]:
    config_dir = ScriptDirectory(str(MIGRATIONS))
    return {revision.revision for revision in config_dir.walk_revisions()}


def restore(file: Path, database_url: str, replace: bool) -> Copied:
    """Copy the backup ``file`` into the SQLite database at ``database_url`` (made if it is
    missing): refused when that database holds games, unless ``replace``."""
    target_path = sqlite_file(database_url)
    if not file.is_file():
        raise ConfigError(f"{file}: there is no such backup file")
    with _connected(file) as source:
        copied = _contents(source, str(file))
        _check_integrity(source, str(file))
    if copied.schema not in _known_schemas():
        raise ConfigError(
            f"{file} was made by a newer version of Apokalypse (database schema"
            f" {copied.schema!r}): restore it with that version"
        )
    existed = target_path.exists()
    if existed:
        with _connected(target_path) as target:
            present = _contents(target, str(target_path)) if _has_tables(target) else None
        if present is not None and present.games and not replace:
            raise ConfigError(
                f"{target_path} holds {counted(present.games, 'game')}: restore into a new file,"
                " or add --replace to overwrite them (stop the server first)"
            )
    target_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with _connected(file) as source, _connected(target_path) as target:
            source.backup(target)  # one write transaction of the target: all of it or nothing
            _check_integrity(target, str(target_path))
            return _contents(target, str(target_path))
    except BaseException as exc:
        if not existed:  # nothing half-made left behind under the name asked for
            for leftover in (target_path, *_companions(target_path)):
                leftover.unlink(missing_ok=True)
        if isinstance(exc, sqlite3.Error):  # the target locked past the timeout, a full disk …
            raise ConfigError(f"restoring into {target_path} failed: {exc}") from None
        raise


def _has_tables(connection: sqlite3.Connection) -> bool:
    try:
        return int(connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]) > 0
    except sqlite3.DatabaseError:
        return True  # not a database: _contents says so


def _companions(path: Path) -> tuple[Path, Path]:
    return path.with_name(f"{path.name}-wal"), path.with_name(f"{path.name}-shm")


def run_backup(database_url: str, file: Path) -> None:
    """``apokalypse backup``: back up and say what was copied."""
    copied = backup(database_url, file)
    print(
        f"backed up {counted(copied.games, 'game')} ({counted(copied.actions, 'action')},"
        f" schema {copied.schema})"
        f" from {printable(str(sqlite_file(database_url)))} into {printable(str(file))}"
    )


def run_restore(file: Path, database_url: str, replace: bool) -> None:
    """``apokalypse restore``: restore and say what was copied."""
    copied = restore(file, database_url, replace)
    print(
        f"restored {counted(copied.games, 'game')} ({counted(copied.actions, 'action')},"
        f" schema {copied.schema})"
        f" from {printable(str(file))} into {printable(str(sqlite_file(database_url)))}"
    )


def counted(n: int, thing: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"
