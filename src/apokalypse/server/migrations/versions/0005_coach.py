"""The coach: the people who agreed to it.

- ``games.coach``: the seats whose person agreed that every person at the table may ask the
  coach ("what would the expert do?") in a game whose creator offered it (``meta.coach``);
  null: nobody yet.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:  # batch: SQLite cannot ALTER most things
        batch.add_column(sa.Column("coach", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("coach")
