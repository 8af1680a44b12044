"""Rated or casual tables (issue 52): a table says before it starts whether its game counts for
ratings.  A table made before is casual if it had hints (a rated table has none), else rated.

Revision ID: 0021
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("casual", sa.Boolean, nullable=False, server_default=sa.false()))
    op.execute("UPDATE games SET casual = hints")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("casual")
