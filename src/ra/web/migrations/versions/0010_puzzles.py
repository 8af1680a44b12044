"""Puzzle ratings of accounts, and each account's first answer to each puzzle (only that one is
rated).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _account() -> sa.Column[str]:
    return sa.Column(
        "account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )


def upgrade() -> None:
    op.create_table(
        "puzzle_solvers",
        _account(),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("tried", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        _account(),
        sa.Column("puzzle_id", sa.String(40), primary_key=True),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_solvers")
