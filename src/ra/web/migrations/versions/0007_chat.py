"""Chat at the tables (players and spectators apart) and in the lobby (no game), and the reports
an admin acts on.

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
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("addr", sa.String(64), nullable=True),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("chat_game_channel", "chat", ["game_id", "channel", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("chat_id", sa.Integer, sa.ForeignKey("chat.id", ondelete="CASCADE"), nullable=False),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved", sa.String(16), nullable=True),
        sa.UniqueConstraint("chat_id", "reporter", name="chat_reports_once"),
    )


def downgrade() -> None:
    op.drop_table("chat_reports")
    op.drop_index("chat_game_channel", table_name="chat")
    op.drop_table("chat")
