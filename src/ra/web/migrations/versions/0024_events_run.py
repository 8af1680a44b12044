"""Running events (issue 55): an arena's length, when an event really started, and the
organiser's choices for a round that does not divide (bots in the empty seats, or byes).

Revision ID: 0024
Revises: 0023
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("minutes", sa.Integer, nullable=True))
        batch.add_column(sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("bots", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("byes", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        for column in ("byes", "bots", "started_at", "minutes"):
            batch.drop_column(column)
