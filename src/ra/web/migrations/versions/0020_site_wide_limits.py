"""Limits that hold for the whole site, and names by their full skeleton (issue 52): what each
worker's clients hold at once (game sockets, lobby pages per address) in one table every worker
counts from, so two workers do not give twice the caps; and every account's name key made again
by :func:`ra.web.names.name_key` (default-ignorables dropped, multi-letter look-alikes: "rn" is
"m").  A key that would collide with another account's keeps its old form (both accounts stay
usable); the reserved names of deleted accounts keep theirs (only their keys are stored).

Revision ID: 0020
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ra.web.names import name_key

revision = "0020"
down_revision = "0018"
branch_labels = None
depends_on = None

accounts = sa.table(
    "accounts", sa.column("id", sa.String), sa.column("name", sa.String), sa.column("name_key", sa.String)
)


def upgrade() -> None:
    op.create_table(
        "limit_holds",
        sa.Column("key", sa.String(300), primary_key=True),
        sa.Column("worker", sa.String(64), primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key)).all()
    taken = {key for _, _, key in rows}
    for account_id, name, key in rows:
        new = name_key(name)
        if new != key and new not in taken:
            conn.execute(sa.update(accounts).where(accounts.c.id == account_id).values(name_key=new))
            taken.discard(key)
            taken.add(new)


def downgrade() -> None:
    """The holds go; the name keys stay as they are (unique, and a superset of the old ones'
    look-alikes)."""
    op.drop_table("limit_holds")
