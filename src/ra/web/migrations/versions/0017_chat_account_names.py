"""Chat names people can trust (issue 40): a chat line says whether its name was said by the
account whose name it is (a seat it holds, or a spectator signed in as it), so the pages link
that name to the account's profile and a guest's name stays plain text.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chat", sa.Column("account", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("chat", "account")
