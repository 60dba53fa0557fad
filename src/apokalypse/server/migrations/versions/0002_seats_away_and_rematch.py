"""Who plays a person's seat, and the game's rematch.

- ``games.away``: the human seats a computer player is playing for now (its person left or ran
  out of time), so every server process and a restarted one know it; null: none.
- ``games.rematch``: the id of the rematch of a finished game, made once whoever asks first.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:  # batch: SQLite cannot ALTER most things
        batch.add_column(sa.Column("away", sa.JSON, nullable=True))
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch")
        batch.drop_column("away")
