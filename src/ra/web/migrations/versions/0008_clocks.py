"""A clock per decision: the seconds a person has for each decision, the level of the bot that
decides for a seat whose time ran out, and the seat marked away until its person comes back.

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
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("move_seconds", sa.Integer, nullable=True))
        batch.add_column(sa.Column("stand_in", sa.String(16), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("stand_in")
        batch.drop_column("move_seconds")
