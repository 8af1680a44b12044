"""Mail people want: an address gets mail only once confirmed by a mailed link; each account has a
token for its confirm and unsubscribe links and a switch for "your turn" mail.  Addresses given
before are unconfirmed: they get no mail until confirmed.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email_confirmed", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("mail_token", sa.String(64), nullable=True))
        batch.add_column(sa.Column("mail_turns", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.create_unique_constraint("uq_accounts_mail_token", ["mail_token"])


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_mail_token", type_="unique")
        batch.drop_column("mail_turns")
        batch.drop_column("mail_token")
        batch.drop_column("email_confirmed")
