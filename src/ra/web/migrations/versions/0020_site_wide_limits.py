"""Limits that hold for the whole site (issue 52): what each worker's clients hold at once (game
sockets, lobby pages per address) in one table every worker counts from, so two workers do
not give twice the caps.

Revision ID: 0020
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "limit_holds",
        sa.Column("key", sa.String(300), primary_key=True),
        sa.Column("worker", sa.String(64), primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("limit_holds")
