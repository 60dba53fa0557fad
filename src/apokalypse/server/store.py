"""Event-sourced persistence of games: a games table and an append-only actions table.

A game is stored as what defines it (game, version, config, seed: the record's header) and then
one row per applied action, numbered by its move (1, 2, …). The state is never stored: it is
rebuilt by replaying the actions (the engine is deterministic), so a server that restarts
mid-game loses nothing, and every game resumes where its last committed action left it. The
primary key (game, move) makes the actions table append-only in effect: a second action for the
same move, a stale or duplicated one, is refused by the database itself, whichever server
process sent it.

SQLite (a file) by default; PostgreSQL by URL (``postgresql+psycopg://…``). The schema is made
and upgraded by the Alembic migrations in ``migrations/`` (:func:`migrate`), never by
``create_all``, so a deployed database follows every later change of the schema.
"""

from __future__ import annotations

import secrets
import threading
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum

from sqlalchemy import (
    String,
    cast,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from apokalypse.engine.errors import EngineError
from apokalypse.engine.record import FORMAT, GameRecord

from .tables import ActionRow, GameRow, TalkRow, make_engine, migrate

DEFAULT_URL = "sqlite:///apokalypse.sqlite3"
GAME_ID_BYTES = 12  # 16 URL-safe characters: not guessable, short enough for a link


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


class Keep(Enum):
    """A stored value left as it is (a turn-based game's deadline, where the game has none)."""

    KEEP = "keep"


KEEP = Keep.KEEP
Deadline = datetime | None | Keep  # a turn-based game's new deadline (None: nobody's timed)


def _utc(moment: datetime | None) -> datetime | None:
    """A stored moment as UTC (SQLite gives it back without its zone)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


# Postgres BIGINT is signed: seeds (0 … 2**64 - 1) are stored shifted into its range.
_SEED_SHIFT = 1 << 63


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

    def append(
        self, game_id: str, move: int, text: str, shown: int, deadline: Deadline = KEEP
    ) -> None:
        """Record the action that made ``move`` (the number of actions applied, this one
        included), and ``shown``, the move everybody is shown after it (frozen in a window);
        in a turn-based game, its new ``deadline`` in the same transaction. A second action
        for the same move raises :class:`StaleAction`."""
        row = ActionRow(game_id=game_id, move=move, text=text, created=_now(), shown=shown)
        try:  # one INSERT: the keys refuse a taken move and a game that does not exist
            with self._writing(), Session(self.engine) as session, session.begin():
                session.add(row)
                if deadline is not KEEP:
                    session.flush()  # the action first: a taken move changes nothing
                    session.execute(
                        update(GameRow).where(GameRow.id == game_id).values(deadline=deadline)
                    )
        except IntegrityError:
            if self.rematch_and_away(game_id) is None:
                raise StoreError(f"there is no game {game_id!r}") from None
            raise StaleAction(f"move {move} of game {game_id!r} is already taken") from None

    def finish(self, game_id: str, result: dict[str, object]) -> None:
        with self._writing(), Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            row.result = result

    def load(self, game_id: str) -> GameRecord:
        """The game's record: its header and every stored action, in move order. Replaying it
        (``engine.record.replay``) rebuilds the game exactly where it stood."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            moves = session.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.move)
            ).all()
            actions = [a.text for a in moves]
            if [a.move for a in moves] != list(range(1, len(actions) + 1)):
                raise StoreError(f"game {game_id!r} has a gap in its actions")
            record = _header(row)
            record.actions = actions
            return record

    def news(self, game_id: str, known: int) -> tuple[list[str], set[int], str | None]:
        """What changed since a copy that holds the first ``known`` actions: the actions after
        them, who is away, the rematch (one transaction; another process's catch-up)."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            later = session.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.move > known)
                .order_by(ActionRow.move)
            ).all()
            if [a.move for a in later] != list(range(known + 1, known + 1 + len(later))):
                raise StoreError(f"game {game_id!r} has a gap in its actions")
            return [a.text for a in later], set(row.away or ()), row.rematch

    def rematch_and_away(self, game_id: str) -> tuple[str | None, set[int]] | None:
        """The game's rematch and away seats; None when there is no such game."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            return None if row is None else (row.rematch, set(row.away or ()))

    def set_away(self, game_id: str, seats: set[int], deadline: Deadline = KEEP) -> None:
        with self._writing(), Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            row.away = sorted(seats)
            if deadline is not KEEP:
                row.deadline = deadline

    def set_manual(self, game_id: str, seats: set[int]) -> None:
        """The people's seats that answer a window's forced question themselves."""
        with self._writing(), Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            row.manual = sorted(seats)

    def set_coach(self, game_id: str, seats: set[int]) -> None:
        """The people's seats that agreed to the coach (:mod:`apokalypse.wire.coach`)."""
        with self._writing(), Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            row.coach = sorted(seats)

    def coached(self, game_id: str) -> set[int]:
        """The seats whose person agreed to the coach (a :class:`StoreError` when there is no
        such game)."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            return set(row.coach or ())

    def set_deadline(self, game_id: str, deadline: datetime | None) -> None:
        with self._writing(), Session(self.engine) as session, session.begin():
            session.execute(update(GameRow).where(GameRow.id == game_id).values(deadline=deadline))

    def timing(self, game_id: str) -> tuple[set[int], datetime | None]:
        """The seats that answer forced questions themselves, and the game's deadline (a
        :class:`StoreError` when there is no such game)."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            return set(row.manual or ()), _utc(row.deadline)

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
    ) -> dict[str, tuple[GameRecord, datetime | None, set[int]]]:
        """Those of ``game_ids`` that exist: each one's whole record, deadline and away seats
        (what a seat's own view of a stored game is made from)."""
        found: dict[str, tuple[GameRecord, datetime | None, set[int]]] = {}
        for game_id in game_ids:
            try:
                record = self.load(game_id)
                manual_away = self.rematch_and_away(game_id)
                _, deadline = self.timing(game_id)
            except StoreError:
                continue
            away = manual_away[1] if manual_away is not None else set()
            found[game_id] = (record, deadline, away)
        return found

    def set_name(self, game_id: str, seat: int, players: int, name: str) -> None:
        """Keep the name the person at ``seat`` chose (of ``players`` seats)."""
        with self._writing(), Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id, with_for_update=True)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            names = list(row.names or ())
            names += [None] * (players - len(names))
            names[seat] = name
            row.names = names  # a new list: the JSON column is written only when replaced

    def say(
        self, game_id: str, channel: str, seat: int | None, name: str, text: str, most: int
    ) -> tuple[int, int, datetime] | None:
        """Keep a line of table talk: its number in the game, its number in its channel and
        when it was said; None when the channel holds ``most`` lines already. Two processes
        saying at once meet at the key (game, n): the second one counts again."""
        for _ in range(5):
            try:
                with self._writing(), Session(self.engine) as session, session.begin():
                    if session.get(GameRow, game_id) is None:
                        raise StoreError(f"there is no game {game_id!r}")
                    held = session.scalar(
                        select(func.count())
                        .select_from(TalkRow)
                        .where(TalkRow.game_id == game_id, TalkRow.channel == channel)
                    )
                    if (held or 0) >= most:
                        return None
                    last = session.scalar(
                        select(func.max(TalkRow.n)).where(TalkRow.game_id == game_id)
                    )
                    n, now = (last or 0) + 1, _now()
                    session.add(
                        TalkRow(
                            game_id=game_id,
                            n=n,
                            channel=channel,
                            seat=seat,
                            name=name,
                            text=text,
                            created=now,
                        )
                    )
                return n, (held or 0) + 1, now
            except IntegrityError:
                continue
        raise StoreError(f"game {game_id!r}: the table talk is too busy to keep a line")

    def table_news(
        self, game_id: str, after: int
    ) -> tuple[list[str | None], list[tuple[TalkRow, int]]]:
        """The seats' chosen names, and the lines of table talk after the game's line ``after``,
        each with its number in its channel (one transaction; a rebuild, a catch-up)."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"there is no game {game_id!r}")
            before = dict(
                session.execute(
                    select(TalkRow.channel, func.count())
                    .where(TalkRow.game_id == game_id, TalkRow.n <= after)
                    .group_by(TalkRow.channel)
                ).all()
            )
            lines = session.scalars(
                select(TalkRow)
                .where(TalkRow.game_id == game_id, TalkRow.n > after)
                .order_by(TalkRow.n)
            ).all()
            numbered = []
            for line in lines:
                before[line.channel] = before.get(line.channel, 0) + 1
                session.expunge(line)
                numbered.append((line, before[line.channel]))
            return list(row.names or ()), numbered

    def claim_rematch(self, game_id: str, rematch_id: str) -> str:
        """Make ``rematch_id`` the rematch of ``game_id`` unless it has one already (another
        player, perhaps through another process, asked first); the rematch's id either way."""
        with self._writing(), Session(self.engine) as session, session.begin():
            claimed = session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.rematch.is_(None))
                .values(rematch=rematch_id)
            )
            if claimed.rowcount == 1:  # type: ignore[attr-defined]
                return rematch_id
            existing = session.scalar(select(GameRow.rematch).where(GameRow.id == game_id))
            if existing is None:
                raise StoreError(f"there is no game {game_id!r}")
            return existing

    def summaries(
        self, game_ids: list[str]
    ) -> dict[str, tuple[GameRecord, int | None, list[str | None]]]:
        """Those of ``game_ids`` that exist: each one's record header, the move everybody
        is shown after its last action (0 before the first; None for an action stored before
        that was kept: replay the game to know) and the seats' chosen names."""
        with Session(self.engine) as session:
            rows = session.scalars(select(GameRow).where(GameRow.id.in_(game_ids))).all()
            last = (
                select(ActionRow.game_id, func.max(ActionRow.move).label("move"))
                .where(ActionRow.game_id.in_(game_ids))
                .group_by(ActionRow.game_id)
                .subquery()
            )
            shown = session.execute(
                select(ActionRow.game_id, ActionRow.shown).join(
                    last, (ActionRow.game_id == last.c.game_id) & (ActionRow.move == last.c.move)
                )
            ).all()
            moves: dict[str, int | None] = {game_id: move for game_id, move in shown}
            return {
                row.id: (_header(row), moves.get(row.id, 0), list(row.names or ())) for row in rows
            }

    def game_ids(self) -> list[str]:
        """Every stored game, oldest first."""
        with Session(self.engine) as session:
            return list(session.scalars(select(GameRow.id).order_by(GameRow.created, GameRow.id)))


__all__ = ["FORMAT", "StaleAction", "Store", "StoreError", "migrate"]
