"""Abandoned open tables leave the lobby (issue 54): a seat of an open table remembers since
when its person has had no page open there.  The people seated at the open tables of before are
counted gone from the upgrade on (nobody knows when they left): a table nobody comes back to
leaves the lobby a minute later.

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("gone_at", sa.DateTime(timezone=True), nullable=True))
    seats = sa.table(
        "seats",
        sa.column("game_id"),
        sa.column("token_hash"),
        sa.column("gone_at", sa.DateTime(timezone=True)),
    )
    games = sa.table("games", sa.column("id"), sa.column("status"))
    waiting = sa.select(games.c.id).where(games.c.status == "open")
    op.execute(
        seats.update()
        .where(seats.c.token_hash.is_not(None), seats.c.game_id.in_(waiting))
        .values(gone_at=datetime.now(UTC))
    )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("gone_at")
