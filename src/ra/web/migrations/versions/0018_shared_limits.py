"""Limits that hold for the whole site (issue 40): the sign-in and password-link limits' leaky
buckets in the database, shared by every worker (each worker had its own: N workers, N times
the caps).

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "limit_levels",
        sa.Column("key", sa.String(300), primary_key=True),
        sa.Column("level", sa.Float, nullable=False),
        sa.Column("rate", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("limit_levels")
