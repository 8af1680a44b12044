"""Decisions a stand-in took: a bot deciding for a person whose clock ran out (or who is marked
away) marks its decisions, so the log, the record and the replay say so and undo never takes one
back.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("decisions") as batch:
        batch.add_column(sa.Column("stand_in", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("decisions") as batch:
        batch.drop_column("stand_in")
