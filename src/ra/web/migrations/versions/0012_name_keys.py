"""Account name keys compatibility-normalised (NFKC) before casefolding, so that a look-alike
("Ａｎｎ" in fullwidth letters) is the same name as "Ann".  An existing key that would collide
with another account's keeps its old form (both accounts stay usable).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

accounts = sa.table(
    "accounts", sa.column("id", sa.String), sa.column("name", sa.String), sa.column("name_key", sa.String)
)


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key)).all()
    taken = {key for _, _, key in rows}
    for account_id, name, key in rows:
        new = unicodedata.normalize("NFKC", name).casefold()[:20]
        if new != key and new not in taken:
            conn.execute(sa.update(accounts).where(accounts.c.id == account_id).values(name_key=new))
            taken.discard(key)
            taken.add(new)


def downgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.name)).all()
    for account_id, name in rows:
        conn.execute(
            sa.update(accounts).where(accounts.c.id == account_id).values(name_key=name.casefold()[:20])
        )
