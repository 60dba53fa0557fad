"""Backups and restores as ``docs/hosting.md`` tells an operator to make them, of games played on
a real server that keeps running meanwhile:

- SQLite: ``apokalypse backup`` copies the database while the server plays on (another game
  moving all the while), ``apokalypse restore`` puts it into a fresh file, and a server started
  over that file shows each person exactly the game they saw when the backup was made; every
  game in it replays to the same events as the original.
- PostgreSQL: ``pg_dump -Fc`` while the server runs and ``pg_restore`` into a fresh database,
  the commands the guide prints, and the same checks.
- The commands refuse what would lose or mix up games: a target that holds games (unless
  ``--replace``), a file that is no games database, a PostgreSQL URL (with the tools to use).
"""

from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, make_url, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from apokalypse.cli.backup import backup, restore
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.record import GameRecord, replay
from apokalypse.server.making import create as create_game
from apokalypse.server.making import new_game
from apokalypse.server.store import Store
from tests.helpers import cli, create, one_line_error
from tests.services import missing

from .databases import POSTGRES, reachable
from .served import TIMEOUT, Server, decision, play, receive


def my_turn(server: Server, game_id: str, token: str, actions: int) -> dict[str, Any]:
    """Play ``actions`` of a person's actions in a game against the computer, and stop where the
    person is to decide again: nothing moves until they do, so a backup now holds this state."""
    seen: list[dict[str, Any]] = []
    with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as ws:
        state: dict[str, Any] = play(ws, decision(ws, seen, receive(ws, seen)), actions, seen)
    assert state["legal"], "the game is still on, waiting for this person"
    return state


def shown_to(server: Server, game_id: str, token: str) -> dict[str, Any]:
    """What the seat of ``token`` is shown when it opens its link now."""
    seen: list[dict[str, Any]] = []
    with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as ws:
        state: dict[str, Any] = decision(ws, seen, receive(ws, seen))
    return state


def replays_alike(restored: GameRecord, original: GameRecord) -> None:
    """The restored game is the original as it stood: the same header and seats' keys, the
    same actions so far, and replayed, the same events and the same view for everybody."""
    assert (restored.game, restored.config, restored.seed) == (
        original.game,
        original.config,
        original.seed,
    )
    assert restored.meta == original.meta  # the seats, the hashes of their keys, the language
    assert restored.actions == original.actions[: len(restored.actions)]
    mine = replay(restored)
    truncated = GameRecord.from_json({**original.to_json(), "actions": restored.actions})
    theirs = replay(truncated)
    assert mine.digest == theirs.digest
    for seat in (None, *range(int(mine.state.observation(None)["players"]))):
        assert mine.state.observation(seat) == theirs.state.observation(seat)


def seen_in(record: GameRecord, seat: int) -> Any:
    """What ``seat`` saw of the game after the record's last action, as the wire carries it."""
    return json.loads(json.dumps(replay(record).state.observation(seat)))


class Mover:
    """Another game, a person who answers at once against a computer player, moving in a thread
    of its own while a backup is made: the server writes all the while."""

    def __init__(self, server: Server) -> None:
        created = create(server, seats=["human", "random"])
        self.url = server.ws(created["id"], created["seats"][0]["token"])
        self.stop = threading.Event()
        self.moves = 0
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        with connect(self.url, open_timeout=TIMEOUT) as ws:
            while not self.stop.is_set():
                try:
                    state = json.loads(ws.recv(timeout=TIMEOUT))
                except (TimeoutError, ConnectionClosed):
                    return
                if state["type"] == "state" and state["legal"]:
                    move = state["observation"]["move"]
                    ws.send(json.dumps({"action": state["legal"][0]["text"], "move": move}))
                    self.moves += 1

    def __enter__(self) -> Mover:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=TIMEOUT)
        assert not self.thread.is_alive()


@pytest.mark.long(66)
def test_a_sqlite_backup_made_while_the_server_plays_restores_every_game(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "live.sqlite3")
    server.start()
    try:
        created = create(server, seats=["human", "heuristic"])
        game_id, token = created["id"], created["seats"][0]["token"]
        before = my_turn(server, game_id, token, 8)
        with Mover(server) as mover:
            made = cli(
                "backup", str(tmp_path / "games.backup"), "--database-url", server.database_url
            )
            assert made.returncode == 0, made.stderr
            assert made.stdout.startswith("backed up 2 games "), made.stdout
        assert mover.moves > 0, "the other game moved while the backup was made"
        after = my_turn(server, game_id, token, 4)  # the server plays on after the backup
        assert after["observation"]["move"] > before["observation"]["move"]
        original = Store.open(server.database_url)
    finally:
        server.stop()
    assert "Traceback" not in server.errors(), server.errors()
    assert token not in server.errors()

    fresh = f"sqlite:///{tmp_path / 'restored' / 'games.sqlite3'}"
    restored = cli("restore", str(tmp_path / "games.backup"), "--database-url", fresh)
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith("restored "), restored.stdout

    copy = Store.open(fresh)
    assert set(copy.game_ids()) <= set(original.game_ids()) and game_id in copy.game_ids()
    for stored in copy.game_ids():  # no half-written game: each replays as the original did
        replays_alike(copy.load(stored), original.load(stored))
    assert seen_in(copy.load(game_id), 0) == before["observation"], "what was played before it"
    copy.engine.dispose()
    original.engine.dispose()

    again = Server(tmp_path / "restored" / "games.sqlite3")
    again.start()
    try:  # the person's link opens their seat where the backup left it
        assert shown_to(again, game_id, token)["observation"] == before["observation"]
    finally:
        again.stop()


def test_restore_refuses_what_would_lose_or_mix_up_games(tmp_path: Path) -> None:
    empty = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    Store.open(empty).engine.dispose()
    backup_file = tmp_path / "empty.backup"
    backup(empty, backup_file)
    busy = f"sqlite:///{tmp_path / 'busy.sqlite3'}"
    store = Store.open(busy)
    create_game(store, new_game("apokalypse", 2, ["human", "random"], [], "en", None))
    store.engine.dispose()

    # A database that holds games is not overwritten unasked (the command's one-line error) …
    refused = one_line_error(cli("restore", str(backup_file), "--database-url", busy))
    assert "holds 1 game:" in refused and "--replace" in refused
    assert len(Store.open(busy).game_ids()) == 1
    # … and is, when asked.
    replaced = cli("restore", str(backup_file), "--database-url", busy, "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert Store.open(busy).game_ids() == []

    not_games = tmp_path / "notes.txt"
    not_games.write_text("no database\n")
    target = tmp_path / "never.sqlite3"
    with pytest.raises(ConfigError, match="no readable SQLite database"):
        restore(not_games, f"sqlite:///{target}", replace=False)
    assert not target.exists(), "nothing made for a backup that is none"
    with pytest.raises(ConfigError, match="there is no file"):
        backup(f"sqlite:///{target}", tmp_path / "x")
    assert not target.exists() and not (tmp_path / "x").exists()
    postgres = "postgresql+psycopg://someone:secret@db.example.org/games"
    with pytest.raises(ConfigError, match="pg_dump -Fc") as info:
        backup(postgres, tmp_path / "x")
    assert "secret" not in str(info.value)
    # A backup of a newer version's schema is left for that version to restore.
    newer = tmp_path / "newer.backup"
    shutil.copyfile(backup_file, newer)
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.close()
    with pytest.raises(ConfigError, match="newer version"):
        restore(newer, f"sqlite:///{target}", replace=False)
    assert not target.exists()


@contextmanager
def fresh_database(prefix: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server (its libpq URL); dropped after."""
    reachable("127.0.0.1", 5432, "PostgreSQL")
    name = f"{prefix}_{secrets.token_hex(6)}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(POSTGRES).set(drivername="postgresql", database=name).render_as_string(False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        missing(f"{name} is missing: apt-get install postgresql-client")
    assert found is not None
    return found


@pytest.mark.long(25)
def test_postgresql_dumped_while_the_server_runs_restores_with_pg_restore(
    tmp_path: Path,
) -> None:
    pg_dump, pg_restore = tool("pg_dump"), tool("pg_restore")
    dump = tmp_path / "apokalypse.dump"
    with fresh_database("apok_live") as live, fresh_database("apok_restored") as target:
        server = Server(tmp_path / "pg")  # its log beside; the games in PostgreSQL
        server.database_url = live.replace("postgresql://", "postgresql+psycopg://", 1)
        server.start()
        try:
            created = create(server, seats=["human", "heuristic"])
            game_id, token = created["id"], created["seats"][0]["token"]
            before = my_turn(server, game_id, token, 8)
            with Mover(server):  # the documented commands, while the server writes
                subprocess.run([pg_dump, "-Fc", "--dbname", live, "--file", str(dump)], check=True)
            original = Store.open(server.database_url)
            kept = {g: original.load(g) for g in original.game_ids()}
            original.engine.dispose()
        finally:
            server.stop()
        assert token not in server.errors()
        subprocess.run(
            [pg_restore, "--no-owner", "--exit-on-error", "--dbname", target, str(dump)],
            check=True,
        )
        restored_url = target.replace("postgresql://", "postgresql+psycopg://", 1)
        copy = Store.open(restored_url)
        assert game_id in copy.game_ids() and set(copy.game_ids()) <= set(kept)
        for stored in copy.game_ids():
            replays_alike(copy.load(stored), kept[stored])
        assert seen_in(copy.load(game_id), 0) == before["observation"]
        copy.engine.dispose()
        again = Server(tmp_path / "pg-restored")
        again.database_url = restored_url
        again.start()
        try:
            assert shown_to(again, game_id, token)["observation"] == before["observation"]
        finally:
            again.stop()
