"""The lobby's list in one indexed query: newest games first, by status (issue 26).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_status_created_at", "games", ["status", "created_at"])
    op.create_index("ix_games_created_at", "games", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_games_created_at", table_name="games")
    op.drop_index("ix_games_status_created_at", table_name="games")
