"""Game clocks: seconds per person for the whole game with an increment after each decision,
what happens when they run out (a bot decides, or the player forfeits), and each seat's time
left and whether it forfeited.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("game_seconds", sa.Integer, nullable=True))
        batch.add_column(sa.Column("increment", sa.Integer, nullable=True))
        batch.add_column(sa.Column("on_timeout", sa.String(8), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bank", sa.Float, nullable=True))
        batch.add_column(sa.Column("forfeited", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("forfeited")
        batch.drop_column("bank")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("on_timeout")
        batch.drop_column("increment")
        batch.drop_column("game_seconds")
