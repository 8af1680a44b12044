"""Accounts (optional: guests play as before), their sessions, the seats they hold, and their
ratings (a game's ratings are applied once: ``games.rated``).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating_mu", sa.Float, nullable=False, server_default="25.0"),
        sa.Column("rating_sigma", sa.Float, nullable=False, server_default="8.333333333333334"),
        sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(16), nullable=True))
        batch.create_foreign_key("seats_account", "accounts", ["account_id"], ["id"], ondelete="SET NULL")
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("seats_account", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_table("sessions")
    op.drop_table("accounts")
