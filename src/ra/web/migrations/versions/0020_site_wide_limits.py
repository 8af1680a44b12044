"""Limits that hold for the whole site, and names by their full skeleton (issue 52): what each
worker's clients hold at once (game sockets, lobby pages per address) in one table every worker
counts from, so two workers do not give twice the caps; and every account's name key made again
by :func:`ra.web.names.name_key` (default-ignorables dropped, multi-letter look-alikes: "rn" is
"m").  A key that would collide with another account's keeps its old form (both accounts stay
usable); the reserved names of deleted accounts keep theirs (only their keys are stored).  A
seat's chat lines stay an account's only where the seat's name is its account's (a guest's seat
an account claimed later said them as a guest).

Revision ID: 0020
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ra.web.names import name_key

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

accounts = sa.table(
    "accounts", sa.column("id", sa.String), sa.column("name", sa.String), sa.column("name_key", sa.String)
)
chat = sa.table(
    "chat",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.String),
    sa.column("seat", sa.Integer),
    sa.column("name", sa.String),
    sa.column("account", sa.Boolean),
)
seats = sa.table(
    "seats", sa.column("game_id", sa.String), sa.column("seat", sa.Integer), sa.column("account_id")
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
    _guest_lines_are_guests()


def _guest_lines_are_guests() -> None:
    """Clear the account mark of seat lines said under a name that is not the seat's account's."""
    conn = op.get_bind()
    seat_of = sa.and_(seats.c.game_id == chat.c.game_id, seats.c.seat == chat.c.seat)
    q = (
        sa.select(chat.c.id, chat.c.name, accounts.c.name_key)
        .select_from(chat.join(seats, seat_of).outerjoin(accounts, accounts.c.id == seats.c.account_id))
        .where(chat.c.account.is_(True), chat.c.seat.is_not(None))
    )
    for line_id, name, key in conn.execute(q).all():
        if key is None or name_key(name) != key:
            conn.execute(sa.update(chat).where(chat.c.id == line_id).values(account=False))


def downgrade() -> None:
    """The holds go; the name keys stay as they are (unique, and a superset of the old ones'
    look-alikes)."""
    op.drop_table("limit_holds")
