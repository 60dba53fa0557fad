"""Moving "my games" to another device with a one-time code.

- ``transfers``: the games one browser sends to another, under the SHA-256 of their code, until
  taken once or expired (minutes).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "transfers",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("games", sa.JSON, nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("transfers")
