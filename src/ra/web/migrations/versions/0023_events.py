"""Events on the site (issue 55): an event, its players, its rounds and its tables.

A round's row is its claim: the worker that inserts it forms the round (the primary key makes a
second insert fail), so each round is formed exactly once, whichever worker sees it first.

Revision ID: 0023
Revises: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("move_seconds", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column(
            "organiser_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("organiser_name", sa.String(20), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_events_organiser_status", "organiser_id", "status"),
    )
    op.create_table(
        "event_players",
        sa.Column(
            "event_id", sa.String(16), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column(
            "account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("removed", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "event_rounds",
        sa.Column(
            "event_id", sa.String(16), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("formed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "event_tables",
        sa.Column("event_id", sa.String(16), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("players", sa.JSON, nullable=False),  # account ids in seat order
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True),
        sa.ForeignKeyConstraint(
            ["event_id", "round"], ["event_rounds.event_id", "event_rounds.round"], ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("event_tables")
    op.drop_table("event_rounds")
    op.drop_table("event_players")
    op.drop_table("events")
