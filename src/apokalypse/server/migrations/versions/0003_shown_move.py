"""The move everybody is shown after each action.

- ``actions.shown``: the move of the public observation after this action. In a defence or
  block window it stays where the window opened while the players asked answer, so a game's
  public summary tells nobody how many have answered (R-INFO-3); null for actions stored before
  this migration (their summary replays the game instead).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:  # batch: SQLite cannot ALTER most things
        batch.add_column(sa.Column("shown", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("shown")
