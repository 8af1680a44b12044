"""Accounts nobody can take (issue 52): the links mailed about an address get a token each, per
purpose (confirm, unsubscribe, undo a change), stored hashed in ``account_tokens``; the plain
``accounts.mail_token`` (one token for confirming and unsubscribing, unhashed) goes: its live
links move over hashed, so mail already sent keeps working.  Addresses get ``email_key``, the
address folded as its provider folds it; seats get ``session_hash``, the session whose "Play on
this device" made their token.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

from ra.web.addresses import fold_address

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

UNSUBSCRIBE_DAYS = 60
CONFIRM_DAYS = 2


def upgrade() -> None:
    op.create_table(
        "account_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column(
            "account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_tokens_account_id", "account_tokens", ["account_id"])
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email_key", sa.String(254), nullable=True))
        batch.create_index("ix_accounts_email_key", ["email_key"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("session_hash", sa.String(64), nullable=True))
    _move_tokens()
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_mail_token", type_="unique")
        batch.drop_column("mail_token")


def _move_tokens() -> None:
    """Each account's plain token becomes a hashed unsubscribe token (a confirmed address) or
    confirm token (one not confirmed yet); its address gets its key."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.text("SELECT id, email, email_confirmed, mail_token, lang FROM accounts WHERE email IS NOT NULL")
    ).all()
    t = datetime.now(UTC)
    insert = sa.text(
        "INSERT INTO account_tokens (token_hash, purpose, account_id, email, lang, created_at, expires_at) "
        "VALUES (:h, :p, :a, :e, :l, :c, :x)"
    )
    for r in rows:
        bind.execute(
            sa.text("UPDATE accounts SET email_key = :k WHERE id = :a"),
            {"k": fold_address(r.email), "a": r.id},
        )
        if not r.mail_token:
            continue
        purpose, days = ("unsubscribe", UNSUBSCRIBE_DAYS) if r.email_confirmed else ("confirm", CONFIRM_DAYS)
        h = hashlib.sha256(r.mail_token.encode()).hexdigest()
        values = {"h": h, "p": purpose, "a": r.id, "e": r.email, "l": r.lang or "en"}
        bind.execute(insert, {**values, "c": t, "x": t + timedelta(days=days)})


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("mail_token", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_accounts_mail_token", ["mail_token"])
        batch.drop_index("ix_accounts_email_key")
        batch.drop_column("email_key")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("session_hash")
    op.drop_index("ix_account_tokens_account_id", "account_tokens")
    op.drop_table("account_tokens")
