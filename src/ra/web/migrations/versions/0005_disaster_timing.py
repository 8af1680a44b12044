"""The table option "2008 disaster timing" (R3.5): when a Disaster taken with a God tile is
resolved.  Tables made before it have the default timing, "immediate".

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("disaster_timing", sa.String(16), nullable=False, server_default="immediate")
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("disaster_timing")
