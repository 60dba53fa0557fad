"""The table of friends: the names people chose, their table talk, and turn-based deadlines.

- ``games.names``: each seat's chosen display name (null: none chosen; a computer seat has none).
- ``games.deadline``: in a turn-based game (limits of hours or days), when the deciding person's
  time runs out, kept in the database so that a game nobody has open needs no memory: a sweep
  finds the games whose deadline passed. Null for a game without such a limit, or over.
- ``games.manual``: the people's seats that answer a window's question themselves even when
  they cannot but decline (by default the server answers it for them); null: none.
- ``talk``: a game's table talk, numbered per game. ``channel`` is ``players`` (shown to the
  players and the spectators) or ``spectators`` (shown to spectators only while the game runs).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:  # batch: SQLite cannot ALTER most things
        batch.add_column(sa.Column("names", sa.JSON, nullable=True))
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("manual", sa.JSON, nullable=True))
        batch.create_index("ix_games_deadline", ["deadline"])
    op.create_table(
        "talk",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("n", sa.Integer, primary_key=True),  # 1, 2, … within the game
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),  # the speaker's seat; null: a spectator
        sa.Column("name", sa.String(64), nullable=False),  # the speaker's name when they spoke
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("talk")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_deadline")
        batch.drop_column("manual")
        batch.drop_column("deadline")
        batch.drop_column("names")
