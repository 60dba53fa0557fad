"""One ordered log per game: the actions and the table events in one table, ``entries``.

- ``entries``: a game's log, numbered ``n`` = 1, 2, … within the game. ``kind`` says what each
  entry is (``action``, ``away``, ``manual``, ``coach``, ``name``, ``rematch``, ``deadline``,
  ``talk``) and ``body`` holds the rest as JSON. An action's ``move`` is unique per game (the
  key that refuses a second action for the same move); a line's ``channel`` is kept as a column
  for the talk's bound per channel.
- Carried over: every action (by move) and every line of talk (by its number), in the order
  they were made (by when); then, for each game, the table as its columns held it last (who is
  away, answers forced questions, agreed to the coach; the names; the rematch; the deadline).
  How those columns came to be was never kept: each is one entry.
- Gone: the tables ``actions`` and ``talk`` and the columns ``games.away``, ``rematch``,
  ``names``, ``manual`` and ``coach``. ``games.deadline`` stays, as the sweep's index of the
  log's last deadline.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

STATE_COLUMNS = ("away", "rematch", "names", "manual", "coach")


def _game_id() -> sa.Column[str]:
    """The key column of a game's rows in a table of its own (entries; actions and talk)."""
    return sa.Column(
        "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )


def upgrade() -> None:
    entries = op.create_table(
        "entries",
        _game_id(),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("move", sa.Integer, nullable=True),
        sa.Column("channel", sa.String(16), nullable=True),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "move", name="uq_entries_move"),
    )
    bind = op.get_bind()
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("created", sa.DateTime(timezone=True)),
        sa.column("deadline", sa.DateTime(timezone=True)),
        *(sa.column(name, sa.JSON) for name in ("away", "names", "manual", "coach")),
        sa.column("rematch", sa.String),
    )
    actions = sa.table(
        "actions",
        sa.column("game_id", sa.String),
        sa.column("move", sa.Integer),
        sa.column("text", sa.Text),
        sa.column("shown", sa.Integer),
        sa.column("created", sa.DateTime(timezone=True)),
    )
    talk = sa.table(
        "talk",
        sa.column("game_id", sa.String),
        sa.column("n", sa.Integer),
        sa.column("channel", sa.String),
        sa.column("seat", sa.Integer),
        sa.column("name", sa.String),
        sa.column("text", sa.Text),
        sa.column("created", sa.DateTime(timezone=True)),
    )
    carried: list[dict[str, object]] = []
    for game in bind.execute(sa.select(games)).mappings().all():
        made: list[tuple[datetime, int, dict[str, object]]] = []
        for action in bind.execute(
            sa.select(actions).where(actions.c.game_id == game["id"]).order_by(actions.c.move)
        ).mappings():
            row = {
                "kind": "action",
                "move": action["move"],
                "channel": None,
                "body": {"text": action["text"], "shown": action["shown"]},
                "created": action["created"],
            }
            made.append((_utc(action["created"]), 0, row))
        for line in bind.execute(
            sa.select(talk).where(talk.c.game_id == game["id"]).order_by(talk.c.n)
        ).mappings():
            row = {
                "kind": "talk",
                "move": None,
                "channel": line["channel"],
                "body": {"seat": line["seat"], "name": line["name"], "text": line["text"]},
                "created": line["created"],
            }
            made.append((_utc(line["created"]), 1, row))
        made.sort(key=lambda item: (item[0], item[1]))  # stable: moves and lines keep order
        rows = [row for _, _, row in made]
        last = made[-1][2]["created"] if made else game["created"]
        rows += [{**row, "created": last} for row in _table_rows(game)]
        carried += [{"game_id": game["id"], "n": n, **row} for n, row in enumerate(rows, 1)]
    op.drop_table("talk")
    op.drop_table("actions")
    # The log is filled after the games table is rebuilt without its columns: SQLite rebuilds
    # a table by dropping it, which deletes every row that refers to it (ON DELETE CASCADE).
    with op.batch_alter_table("games") as batch:  # batch: SQLite cannot ALTER most things
        for name in STATE_COLUMNS:
            batch.drop_column(name)
    if carried:
        op.bulk_insert(entries, carried)


def _table_rows(game: sa.RowMapping) -> list[dict[str, object]]:
    """The table's state as the columns held it, as one entry each (what nobody chose: none)."""
    rows: list[dict[str, object]] = []

    def add(kind: str, body: dict[str, object]) -> None:
        rows.append({"kind": kind, "move": None, "channel": None, "body": body})

    for kind in ("away", "manual", "coach"):
        for seat in sorted(game[kind] or ()):
            add(kind, {"seat": seat, "on": True})
    for seat, name in enumerate(game["names"] or ()):
        if name is not None:
            add("name", {"seat": seat, "name": name})
    if game["rematch"] is not None:
        add("rematch", {"game": game["rematch"]})
    if game["deadline"] is not None:
        add("deadline", {"at": _utc(game["deadline"]).isoformat()})
    return rows


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def downgrade() -> None:
    """Back to the columns and the two tables: the actions and lines as they were, and the
    table as the log left it (its history is lost again)."""
    bind = op.get_bind()
    entries = sa.table(
        "entries",
        sa.column("game_id", sa.String),
        sa.column("n", sa.Integer),
        sa.column("kind", sa.String),
        sa.column("move", sa.Integer),
        sa.column("channel", sa.String),
        sa.column("body", sa.JSON),
        sa.column("created", sa.DateTime(timezone=True)),
    )
    logged = bind.execute(sa.select(entries).order_by(entries.c.game_id, entries.c.n)).mappings()
    kept = logged.all()
    op.drop_table("entries")  # before SQLite rebuilds the games table (see upgrade)
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("away", sa.JSON, nullable=True))
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))
        batch.add_column(sa.Column("names", sa.JSON, nullable=True))
        batch.add_column(sa.Column("manual", sa.JSON, nullable=True))
        batch.add_column(sa.Column("coach", sa.JSON, nullable=True))
    actions = op.create_table(
        "actions",
        _game_id(),
        sa.Column("move", sa.Integer, primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("shown", sa.Integer, nullable=True),
    )
    talk = op.create_table(
        "talk",
        _game_id(),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        *(sa.column(name, sa.JSON) for name in ("away", "names", "manual", "coach")),
        sa.column("rematch", sa.String),
    )
    seats: dict[tuple[str, str], set[int]] = {}  # (game, kind) → the seats turned on
    names: dict[str, dict[int, str]] = {}
    rematches: dict[str, str] = {}
    lines: dict[str, int] = {}
    for entry in kept:
        game_id, body, kind = entry["game_id"], entry["body"], entry["kind"]
        if kind == "action":
            action = {"text": body["text"], "shown": body.get("shown")}
            op.bulk_insert(
                actions,
                [
                    {
                        "game_id": game_id,
                        "move": entry["move"],
                        "created": entry["created"],
                        **action,
                    }
                ],
            )
        elif kind == "talk":
            lines[game_id] = lines.get(game_id, 0) + 1
            line = {"seat": body.get("seat"), "name": body["name"], "text": body["text"]}
            op.bulk_insert(
                talk,
                [
                    {
                        "game_id": game_id,
                        "n": lines[game_id],
                        "channel": entry["channel"],
                        "created": entry["created"],
                        **line,
                    }
                ],
            )
        elif kind in ("away", "manual", "coach"):
            turned = seats.setdefault((game_id, kind), set())
            (turned.add if body["on"] else turned.discard)(body["seat"])
        elif kind == "name":
            names.setdefault(game_id, {})[body["seat"]] = body["name"]
        elif kind == "rematch":
            rematches.setdefault(game_id, body["game"])
    values: dict[str, dict[str, object]] = {}
    for (game_id, kind), turned in seats.items():
        values.setdefault(game_id, {})[kind] = sorted(turned)
    for game_id, named in names.items():
        values.setdefault(game_id, {})["names"] = [named.get(s) for s in range(max(named) + 1)]
    for game_id, rematch in rematches.items():
        values.setdefault(game_id, {})["rematch"] = rematch
    for game_id, changed in values.items():
        bind.execute(sa.update(games).where(games.c.id == game_id).values(**changed))
