"""Event-sourced persistence of games: a games table and one ordered log per game.

A game is stored as what defines it (game, version, config, seed: the record's header) and then
its log (the ``entries`` table, :mod:`.entries`): every applied action and every table event
(who is away, names, talk, the rematch, a deadline …), numbered 1, 2, … in the order the store
took them. Neither the state nor the table is stored: both are the fold of the log (the engine
is deterministic), so a server that restarts mid-game loses nothing, and every game resumes
where its last committed entry left it. The keys make the log append-only in effect: (game, n)
takes each place once, and (game, move) refuses a second action for the same move, a stale or
duplicated one, whichever server process sent it. A process that was told of a change, and
was not sent the entries with the notice, reads those after the last one it folded
(:meth:`Store.read`); each write hands back the entries others made since (:class:`Written`).

SQLite (a file) by default; PostgreSQL by URL (``postgresql+psycopg://…``). The schema is made
and upgraded by the Alembic migrations in ``migrations/`` (:func:`migrate`), never by
``create_all``, so a deployed database follows every later change of the schema.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import (
    String,
    cast,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from apokalypse.engine.errors import EngineError
from apokalypse.engine.record import FORMAT, GameRecord

from .entries import (
    Acted,
    Due,
    Entry,
    Logged,
    Named,
    Said,
    TableState,
    dense,
    from_row,
    logged_from,
    to_row,
)
from .setup import Setup
from .tables import EntryRow, GameRow, make_engine, migrate

DEFAULT_URL = "sqlite:///apokalypse.sqlite3"
GAME_ID_BYTES = 12  # 16 URL-safe characters: not guessable, short enough for a link
# An entry's columns as the log's readers take them. The log is read and written on plain
# connections (SQLAlchemy Core): an ORM session cost each action about three times the CPU.
LOGGED = (
    EntryRow.n,
    EntryRow.kind,
    EntryRow.body,
    EntryRow.move,
    EntryRow.channel,
    EntryRow.created,
)
WRITE_TRIES = 20  # writers of two processes that took the same place: each tries again


class StoreError(EngineError):
    """A game that does not exist, or an action that comes too late or twice."""


class StaleAction(StoreError):
    """Another action already took this move (a stale or duplicated action)."""


def new_id() -> str:
    return secrets.token_urlsafe(GAME_ID_BYTES)


def _header(row: GameRow) -> GameRecord:
    """A stored game's record without its actions."""
    return GameRecord(
        row.game,
        row.version,
        dict(row.config),
        row.seed + _SEED_SHIFT,
        [],
        None,
        row.result,
        dict(row.meta),
        row.format,
    )


def _now() -> datetime:
    return datetime.now(UTC)


def _seats(meta: Mapping[str, object]) -> int:
    """How many seats a game has, as its setup says."""
    return Setup.of(meta).players


# Postgres BIGINT is signed: seeds (0 … 2**64 - 1) are stored shifted into its range.
_SEED_SHIFT = 1 << 63


@dataclass(frozen=True)
class Written:
    """What a write to a game's log made: ``news``, the entries others made after the writer's
    last one (to fold first), and ``mine``, the writer's own, in their places."""

    news: list[Logged]
    mine: list[Logged]

    @property
    def last(self) -> int | None:
        """The place of the last entry here; None: neither news nor an entry of the writer."""
        held = self.mine or self.news
        return held[-1].n if held else None


@dataclass
class Store:
    """The games of one database. Every method is one transaction."""

    engine: Engine
    # SQLite lets one writer in at a time and makes the others sleep and retry (with back-offs
    # of up to 100 ms, the tail of the load benchmark's latency); the server's threads take
    # turns here instead, in order. PostgreSQL needs no such lock.
    _write_lock: threading.Lock = field(default_factory=threading.Lock)

    def _writing(self) -> AbstractContextManager[object]:
        if self.engine.dialect.name == "sqlite":
            return self._write_lock
        return nullcontext()

    @classmethod
    def open(cls, url: str = DEFAULT_URL) -> Store:
        store = cls(make_engine(url))
        migrate(store.engine)
        return store

    def create(self, record: GameRecord, game_id: str | None = None) -> str:
        """Store a new game (its record's header and meta); its id, for links (a new one
        unless given: a rematch's id is claimed before its game is stored)."""
        game_id = new_id() if game_id is None else game_id
        with self._writing(), Session(self.engine) as session, session.begin():
            session.add(
                GameRow(
                    id=game_id,
                    game=record.game,
                    version=record.version,
                    format=record.format,
                    config=record.config,
                    seed=record.seed - _SEED_SHIFT,
                    meta=record.meta,
                    result=record.result,
                    created=_now(),
                )
            )
        return game_id

    def write(
        self, game_id: str, after: int | None, entries: Sequence[Entry], most: int | None = None
    ) -> Written:
        """Append ``entries`` to the game's log, in one transaction, after whatever it holds;
        with them, the entries after ``after`` (the last one the caller folded; None: not
        wanted) that others made. An action for a move already taken raises
        :class:`StaleAction` and writes nothing. ``most``: the lines of talk each channel may
        hold; a line beyond is not written (:attr:`Written.mine` is empty).

        Optimistic: the entries are written in the places after ``after`` at once, one INSERT
        as a rule. The log's places are dense (1, 2, … with no gap), so others wrote since
        exactly when the first of those places is taken: then, and only then, what they wrote
        is read (the news) and the entries go after it, this time with the game's row locked
        (PostgreSQL), so that writers who met take turns instead of meeting again."""
        known, news = after, list[Logged]()
        for attempt in range(WRITE_TRIES):
            try:
                with self._writing(), self.engine.begin() as connection:
                    if attempt and self.engine.dialect.name == "postgresql":
                        # FOR NO KEY UPDATE: writers that met take turns, while an INSERT's
                        # foreign-key check (FOR KEY SHARE) is never held up by it.
                        game = select(GameRow.id).where(GameRow.id == game_id)
                        connection.execute(game.with_for_update(key_share=True))
                    if known is None:
                        last = connection.scalar(
                            select(func.max(EntryRow.n)).where(EntryRow.game_id == game_id)
                        )
                        known = last or 0
                    elif attempt:  # our place was taken: what took it, and any after, is news
                        later = self._read(connection, game_id, known)
                        news += later
                        known = later[-1].n if later else known
                    if most is not None and self._full(connection, game_id, entries, most):
                        return Written(news, [])
                    mine = self._append(connection, game_id, known, entries)
                return Written(news, mine)
            except IntegrityError:
                taken = self._taken(game_id, entries)
                if taken is not None:
                    raise StaleAction(taken) from None
                if self.engine.dialect.name == "sqlite":
                    # An SQLite file written by several processes has no row locks: a short,
                    # growing, random pause lets the other writer finish.
                    time.sleep(random.uniform(0, 0.002) * (attempt + 1))
        raise StoreError(f"game {game_id!r}: its log is too busy to take an entry")

    def _append(
        self, connection: Connection, game_id: str, last: int, entries: Sequence[Entry]
    ) -> list[Logged]:
        now, mine, rows = _now(), list[Logged](), list[dict[str, object]]()
        for n, entry in enumerate(entries, last + 1):
            row = to_row(entry)
            columns = {"kind": row.kind, "move": row.move, "channel": row.channel}
            rows.append({"game_id": game_id, "n": n, **columns, "body": row.body, "created": now})
            mine.append(Logged(n, entry, now))
            if isinstance(entry, Due):  # the sweep's index, in the same transaction
                connection.execute(
                    update(GameRow).where(GameRow.id == game_id).values(deadline=entry.deadline)
                )
        connection.execute(insert(EntryRow), rows)
        return mine

    def _full(
        self, connection: Connection, game_id: str, entries: Sequence[Entry], most: int
    ) -> bool:
        for channel in {entry.channel for entry in entries if isinstance(entry, Said)}:
            held = connection.scalar(
                select(func.count())
                .select_from(EntryRow)
                .where(EntryRow.game_id == game_id, EntryRow.channel == channel)
            )
            if (held or 0) >= most:
                return True
        return False

    def _taken(self, game_id: str, entries: Sequence[Entry]) -> str | None:
        """Why a write that broke a key cannot be tried again (None: it can): the game does
        not exist, or an action's move is taken."""
        moves = [entry.move for entry in entries if isinstance(entry, Acted)]
        with Session(self.engine) as session:
            if session.get(GameRow, game_id) is None:
                raise StoreError(f"there is no game {game_id!r}")
            taken = session.scalars(
                select(EntryRow.move).where(EntryRow.game_id == game_id, EntryRow.move.in_(moves))
            ).first()
        return None if taken is None else f"move {taken} of game {game_id!r} is already taken"

    def finish(self, game_id: str, result: dict[str, object]) -> None:
        with self._writing(), Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            row.result = result

    def _read(self, connection: Connection, game_id: str, after: int) -> list[Logged]:
        rows = connection.execute(
            select(*LOGGED)
            .where(EntryRow.game_id == game_id, EntryRow.n > after)
            .order_by(EntryRow.n)
        ).all()
        if not dense([row.n for row in rows], after):
            raise StoreError(f"game {game_id!r} has a gap in its log")
        return [
            logged_from(row.n, row.kind, row.body, row.move, row.channel, row.created)
            for row in rows
        ]

    def read(self, game_id: str, after: int = 0) -> list[Logged]:
        """The game's log after its entry ``after`` (0: all of it), in order (a
        :class:`StoreError` when there is no such game)."""
        with self.engine.connect() as connection:
            logged = self._read(connection, game_id, after)
            game = select(GameRow.id).where(GameRow.id == game_id)
            if not logged and connection.scalar(game) is None:  # asked only when nothing's new
                raise StoreError(f"there is no game {game_id!r}")
            return logged

    def load(self, game_id: str) -> GameRecord:
        """The game's record: its header and every stored action, in move order. Replaying it
        (``engine.record.replay``) rebuilds the game exactly where it stood."""
        return self.load_log(game_id)[0]

    def load_log(self, game_id: str) -> tuple[GameRecord, list[Logged]]:
        """The game's record (as :meth:`load`) and its whole log, read in one transaction."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            logged = self._read(session.connection(), game_id, 0)
        actions = [item.entry for item in logged if isinstance(item.entry, Acted)]
        if not dense([action.move for action in actions], 0):
            raise StoreError(f"game {game_id!r} has a gap in its actions")
        record = _header(row)
        record.actions = [action.text for action in actions]
        return record, logged

    def table(self, game_id: str) -> TableState:
        """The table of a stored game as its log has it (who is away, the names, the rematch,
        the deadline …)."""
        record, logged = self.load_log(game_id)
        return TableState(_seats(record.meta)).fold_all(logged)

    def running_with(self, meta_key: str, limit: int) -> list[str]:
        """Up to ``limit`` games not over whose meta holds ``meta_key`` (turn-based games), the
        most recently made first. The meta is JSON, read here rather than queried in SQL (each
        database spells JSON paths its own way); the result column narrows the rows first."""
        with Session(self.engine) as session:
            # A game not over has a JSON null for its result, which is SQL NULL in no database.
            running = or_(GameRow.result.is_(None), cast(GameRow.result, String) == "null")
            rows = session.execute(
                select(GameRow.id, GameRow.meta).where(running).order_by(GameRow.created.desc())
            )
            found: list[str] = []
            for game_id, meta in rows:
                if isinstance(meta, dict) and meta_key in meta:
                    found.append(game_id)
                    if len(found) >= limit:
                        break
            return found

    def overdue(self, now: datetime, limit: int) -> list[str]:
        """Up to ``limit`` games whose deadline passed by ``now``, the longest overdue first."""
        with Session(self.engine) as session:
            return list(
                session.scalars(
                    select(GameRow.id)
                    .where(GameRow.deadline.is_not(None), GameRow.deadline <= now)
                    .order_by(GameRow.deadline)
                    .limit(limit)
                )
            )

    def seat_records(
        self, game_ids: list[str]
    ) -> dict[str, tuple[GameRecord, datetime | None, frozenset[int]]]:
        """Those of ``game_ids`` that exist: each one's whole record, deadline and away seats
        (what a seat's own view of a stored game is made from)."""
        found: dict[str, tuple[GameRecord, datetime | None, frozenset[int]]] = {}
        for game_id in game_ids:
            try:
                record, logged = self.load_log(game_id)
            except StoreError:
                continue
            table = TableState(_seats(record.meta)).fold_all(logged)
            found[game_id] = (record, table.due, table.away)
        return found

    def summaries(
        self, game_ids: list[str]
    ) -> dict[str, tuple[GameRecord, int | None, list[str | None]]]:
        """Those of ``game_ids`` that exist: each one's record header, the move everybody
        is shown after its last action (0 before the first; None for an action stored before
        that was kept: replay the game to know) and the seats' chosen names."""
        with Session(self.engine) as session:
            rows = session.scalars(select(GameRow).where(GameRow.id.in_(game_ids))).all()
            last = (
                select(EntryRow.game_id, func.max(EntryRow.move).label("move"))
                .where(EntryRow.game_id.in_(game_ids), EntryRow.kind == "action")
                .group_by(EntryRow.game_id)
                .subquery()
            )
            shown = session.execute(
                select(EntryRow.game_id, EntryRow.body).join(
                    last, (EntryRow.game_id == last.c.game_id) & (EntryRow.move == last.c.move)
                )
            ).all()
            moves: dict[str, int | None] = {}
            for game_id, body in shown:
                move = body.get("shown") if isinstance(body, dict) else None
                moves[game_id] = move if isinstance(move, int) else None
            named = session.execute(
                select(EntryRow.game_id, EntryRow.body)
                .where(EntryRow.game_id.in_(game_ids), EntryRow.kind == "name")
                .order_by(EntryRow.game_id, EntryRow.n)
            ).all()
            tables = {row.id: TableState(_seats(row.meta)) for row in rows}
            for game_id, body in named:
                entry = from_row("name", body, None, None)
                if isinstance(entry, Named):
                    tables[game_id].fold(entry)
            return {
                row.id: (_header(row), moves.get(row.id, 0), tables[row.id].names) for row in rows
            }

    def game_ids(self) -> list[str]:
        """Every stored game, oldest first."""
        with Session(self.engine) as session:
            return list(session.scalars(select(GameRow.id).order_by(GameRow.created, GameRow.id)))


__all__ = ["FORMAT", "StaleAction", "Store", "StoreError", "migrate"]
