"""A results folder: the run's arguments and its two tables, written as Parquet parts.

::

    DIR/run.json                    what was run (the arguments that decide every game)
    DIR/games/part-00000.parquet    one row per game        (columns: :mod:`.schema`)
    DIR/players/part-00000.parquet  one row per player in a game

pandas reads a table with ``pd.read_parquet("DIR/games")``, DuckDB with
``SELECT * FROM 'DIR/games/*.parquet'``.

Columns only ever added, last (``FORMAT`` changes when one changes its meaning or type): a part
written before a column was added reads with that column null, so a folder of an earlier version
is still read, reported and resumed.

Finished games are written in parts, each atomically (a temporary file, then a rename), the
players' part before the games' part: a games part is the mark that its games are done. A run
interrupted in any way (Ctrl-C, a kill, a crash) loses at most the games since the last part, and
the same command again plays only the games not yet in the folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.record import atomic_write

from .collect import collector_for
from .schema import FORMAT, GAME_COMMON, PLAYER_COMMON, Row, joined

MANIFEST = "run.json"
TABLES = ("games", "players")
PART = re.compile(r"part-(\d{5,})\.parquet")
FLUSH_GAMES = 2_000  # a part at least this often ...
FLUSH_SECONDS = 15.0  # ... and at least this often: a kill loses no more than this much work
# What names a run: a folder holding another run's games under the same arguments is refused.
IDENTITY = ("format", "game", "game_version", "players", "lineup", "seed", "variants", "deck")


class ResultsError(ConfigError):
    """A results folder that cannot be used: missing, another run's, or damaged. One line."""


def schemas(game: str) -> tuple[pa.Schema, pa.Schema]:
    """The games and players tables' schemas of ``game``."""
    collector = collector_for(game)
    return (
        joined(GAME_COMMON, collector.game_schema),
        joined(PLAYER_COMMON, collector.player_schema),
    )


def run_id(manifest: Mapping[str, object]) -> str:
    """A short id of the run's identity (the rows carry it: two runs' rows never mix unseen)."""
    identity = {key: manifest.get(key) for key in IDENTITY}
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def deck_name(cards: str | None) -> str:
    """How the tables name a deck or content file: by its content, not its file name."""
    if cards is None:
        return "default"
    return "sha256:" + hashlib.sha256(cards.encode()).hexdigest()[:12]


def _read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{folder} is not a results folder (no {MANIFEST})") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not JSON"
        raise ResultsError(f"{path}: cannot read it ({why})") from None
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise ResultsError(f"{path} is not a results manifest")
    if data.get("format") != FORMAT:
        raise ResultsError(
            f"{folder} holds results of format {data.get('format')!r}; this version reads"
            f" format {FORMAT}"
        )
    return data


def _parts(folder: Path, table: str) -> dict[int, Path]:
    found: dict[int, Path] = {}
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(folder / table):
            m = PART.fullmatch(entry.name)
            if m:
                found[int(m.group(1))] = Path(entry.path)
    return found


def _fits(found: pa.Schema, schema: pa.Schema) -> bool:
    """Whether a part holds this version's columns: all of them, or those of a version before
    some were added (a collector adds its new columns last; they read as null there)."""
    return 0 < len(found) <= len(schema) and all(
        found.field(i).equals(schema.field(i)) for i in range(len(found))
    )


def _read_part(path: Path, schema: pa.Schema, columns: list[str] | None = None) -> pa.Table:
    try:
        found = pq.read_schema(path)
        if not _fits(found.remove_metadata(), schema.remove_metadata()):
            raise ResultsError(
                f"{path} has other columns than this version writes; it belongs to another run"
            )
        return pq.read_table(path, columns=columns, schema=schema)
    except (OSError, pa.ArrowException) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ResultsError(
            f"{path} is not a readable Parquet file ({first}); delete it to play its games again"
        ) from None


@dataclass
class Results:
    manifest: dict[str, Any]
    games: pa.Table
    players: pa.Table


def read_results(folder: Path) -> Results:
    """Every finished game of a results folder, checked: its manifest, and each part readable
    with the columns of its game. Rows in game order."""
    if not folder.is_dir():
        raise ResultsError(f"{folder}: no such folder")
    manifest = _read_manifest(folder)
    try:
        game_schema, player_schema = schemas(manifest["game"])
    except ConfigError as exc:
        raise ResultsError(f"{folder}: {exc}") from None
    games = _parts(folder, "games")
    # only the players parts of finished games count (see the module docstring)
    players = {k: p for k, p in _parts(folder, "players").items() if k in games}
    tables: list[pa.Table] = []
    for parts, schema, keys in (
        (games, game_schema, ("game",)),
        (players, player_schema, ("game", "seat")),
    ):
        read = [_read_part(parts[k], schema) for k in sorted(parts)]
        whole = pa.concat_tables(read) if read else schema.empty_table()
        tables.append(whole.sort_by([(key, "ascending") for key in keys]))
    return Results(manifest, tables[0], tables[1])


@dataclass
class Writer:
    """The results folder of a run being played: finished games are buffered and written in
    parts (see the module docstring)."""

    folder: Path
    manifest: dict[str, Any]
    done: set[int] = field(default_factory=set)  # games already in the folder
    _next: int = 0
    _games: list[Row] = field(default_factory=list)
    _players: list[Row] = field(default_factory=list)
    _last: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.game_schema, self.player_schema = schemas(self.manifest["game"])

    @classmethod
    def open(cls, folder: Path, manifest: dict[str, Any]) -> Writer:
        """The folder for this run: a new or empty one, or one holding the same run (resumed).
        Another run's folder, a damaged part or any other folder is refused before a game is
        played."""
        manifest = {"format": FORMAT, **manifest}
        manifest["run"] = run_id(manifest)
        if folder.exists() and not folder.is_dir():
            raise ResultsError(f"--out {folder}: not a folder")
        if (folder / MANIFEST).exists():
            found = _read_manifest(folder)
            for key in IDENTITY:
                there, here = found.get(key), manifest.get(key)
                if there != here:
                    raise ResultsError(
                        f"--out {folder} holds another run ({key} {show_argument(there)} there,"
                        f" {show_argument(here)} here): choose another folder or repeat that"
                        " run's arguments"
                    )
        elif folder.is_dir() and any(folder.iterdir()):
            raise ResultsError(f"--out {folder} is neither empty nor a results folder")
        writer = cls(folder, manifest)
        writer._resume()
        return writer

    def _resume(self) -> None:
        games = _parts(self.folder, "games")
        for table in TABLES:  # what a killed write left: temporaries, a players part alone
            with contextlib.suppress(FileNotFoundError):
                for entry in os.scandir(self.folder / table):
                    if entry.name.startswith(".part-") and entry.name.endswith(".tmp"):
                        os.unlink(entry.path)
        for number, path in _parts(self.folder, "players").items():
            if number not in games:
                path.unlink()
        for path in games.values():
            column = _read_part(path, self.game_schema).column("game")
            self.done.update(int(i) for i in column.to_pylist() if i is not None)
        self._next = max(games, default=-1) + 1

    def start(self) -> None:
        """Create the folder and its manifest (after every check of the run's arguments)."""
        for table in TABLES:
            (self.folder / table).mkdir(parents=True, exist_ok=True)
        path = self.folder / MANIFEST
        atomic_write(path, (json.dumps(self.manifest, indent=1) + "\n").encode())

    def add(self, rows: tuple[Row, list[Row]]) -> None:
        self._games.append(rows[0])
        self._players.extend(rows[1])
        if len(self._games) >= FLUSH_GAMES or time.monotonic() - self._last >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        self._last = time.monotonic()
        if not self._games:
            return
        name = f"part-{self._next:05d}.parquet"
        for table, rows, schema in (
            ("players", self._players, self.player_schema),
            ("games", self._games, self.game_schema),  # last: it marks the games done
        ):
            part = pa.BufferOutputStream()
            pq.write_table(pa.Table.from_pylist(rows, schema=schema), part, compression="zstd")
            atomic_write(self.folder / table / name, part.getvalue().to_pybytes())
        self.done.update(row["game"] for row in self._games)
        self._games, self._players = [], []
        self._next += 1


def show_argument(value: object) -> str:
    """A run argument of the manifest as one line: text as it is, the rest as JSON."""
    return json.dumps(value) if not isinstance(value, str) else value
