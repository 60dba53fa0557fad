"""Web Push: the server's VAPID keys, the seats' subscriptions and the pushes due.

- ``server_keys``: keys the server makes for itself on first start (its VAPID key pair).
- ``push_subscriptions``: a browser's push subscription (endpoint and keys) for one seat.
- ``push_notices``: a push due to a seat at a time unless the game moves on before.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(4096), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("endpoint", sa.String(2048), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seat", "endpoint", name="uq_push_endpoint"),
    )
    op.create_table(
        "push_notices",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("move", sa.Integer, nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("push_notices")
    op.drop_table("push_subscriptions")
    op.drop_table("server_keys")
