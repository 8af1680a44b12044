"""Account name keys by look-alike class (Unicode confusables: :func:`ra.web.names.name_key`), so a
Cyrillic "Аnn" or a dotless "Annı" is the name an "Ann" or "Anni" already holds.  A key that would
collide with another account's keeps its old form (both accounts stay usable).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ra.web.names import name_key

revision = "0014"
down_revision = "0013"
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
        new = name_key(name)
        if new != key and new not in taken:
            conn.execute(sa.update(accounts).where(accounts.c.id == account_id).values(name_key=new))
            taken.discard(key)
            taken.add(new)


def downgrade() -> None:
    """Keys as revision 0012 made them (NFKC, casefolded)."""
    import unicodedata

    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key)).all()
    taken = {key for _, _, key in rows}
    for account_id, name, key in rows:
        old = unicodedata.normalize("NFKC", name).casefold()[:20]
        if old != key and old not in taken:
            conn.execute(sa.update(accounts).where(accounts.c.id == account_id).values(name_key=old))
            taken.discard(key)
            taken.add(old)
