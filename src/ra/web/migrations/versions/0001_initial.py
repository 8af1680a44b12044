"""Games, seats and decisions.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("suns_per_player", sa.Integer, nullable=True),
        sa.Column("hidden_scores", sa.Boolean, nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("bot_delay", sa.Float, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("record", sa.JSON, nullable=True),
        sa.Column("creator_addr", sa.String(64), nullable=True),
        sa.Column("num_decisions", sa.Integer, nullable=False, server_default="0"),
        sa.Column("to_move", sa.Integer, nullable=True),
        sa.Column("to_move_bot", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("epoch", sa.Integer, nullable=False, server_default="1"),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("scores", sa.JSON, nullable=True),
        sa.Column("rematch_id", sa.String(16), nullable=True),
        sa.Column("bot_claim_n", sa.Integer, nullable=True),
        sa.Column("bot_claim_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_creator_addr", "games", ["creator_addr"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    )
    op.create_table(
        "decisions",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("decisions")
    op.drop_table("seats")
    op.drop_index("ix_games_creator_addr", table_name="games")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
