"""Accounts people can keep (issue 40): links mailed to set a new password (their tokens hashed,
good once, for an hour) and the names of accounts deleted lately, by name key (look-alikes too),
which nobody may sign up with until they are free again.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_password_resets_account_id", "password_resets", ["account_id"])
    op.create_table(
        "reserved_names",
        sa.Column("name_key", sa.String(20), primary_key=True),
        sa.Column("reserved_until", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reserved_names")
    op.drop_index("ix_password_resets_account_id", table_name="password_resets")
    op.drop_table("password_resets")
