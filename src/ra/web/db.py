"""The server's storage: a game is its setup plus its decisions, one row per decision (R9.2).

Plain SQLAlchemy Core tables (no ORM: the server reads and writes a handful of
rows per decision).  The schema is created and upgraded by the Alembic
migrations in ``ra/web/migrations``, applied when the server starts.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, overload

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from ra.words import worded

if TYPE_CHECKING:
    from alembic.config import Config

metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),  # open | running | finished
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("variant", sa.String(16), nullable=False),
    sa.Column("suns_per_player", sa.Integer, nullable=True),
    sa.Column("hidden_scores", sa.Boolean, nullable=False),
    sa.Column("edition", sa.String(16), nullable=False),
    sa.Column("bot_delay", sa.Float, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("record", sa.JSON, nullable=True),  # an imported game's record (its setup)
    sa.Column("creator_addr", sa.String(64), nullable=True, index=True),
    sa.Column("num_decisions", sa.Integer, nullable=False, server_default="0"),
    sa.Column("to_move", sa.Integer, nullable=True),
    sa.Column("to_move_bot", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("epoch", sa.Integer, nullable=False, server_default="1"),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("scores", sa.JSON, nullable=True),
    sa.Column("rematch_id", sa.String(16), nullable=True),
    sa.Column("bot_claim_n", sa.Integer, nullable=True),
    sa.Column("bot_claim_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),  # bots wait until then
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),  # win chances on request
    sa.Column("casual", sa.Boolean, nullable=False, server_default=sa.false()),  # not rated (rating_policy)
    # R3.5: "immediate" or "2008" (the variant "2008 disaster timing")
    sa.Column("disaster_timing", sa.String(16), nullable=False, server_default="immediate"),
    # A clock: seconds for each person's decision (None: no clock); when they run out, a bot of
    # level stand_in decides for the seat, which is marked away until its person comes back.
    sa.Column("move_seconds", sa.Integer, nullable=True),
    sa.Column("stand_in", sa.String(16), nullable=True),
    # A game clock instead: seconds per person for the whole game, plus increment seconds after
    # each of their decisions; on_timeout: "stand_in" (a bot decides, the seat marked away) or
    # "forfeit" (the same, for good, and the seat ranks last).
    sa.Column("game_seconds", sa.Integer, nullable=True),
    sa.Column("increment", sa.Integer, nullable=True),
    sa.Column("on_timeout", sa.String(8), nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),  # its ratings applied
    sa.Index("ix_games_status_created_at", "status", "created_at"),
    sa.Index("ix_games_created_at", "created_at"),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # human | bot
    sa.Column("level", sa.String(16), nullable=True),  # a bot's level
    sa.Column("name", sa.String(40), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("away", sa.Boolean, nullable=False, server_default=sa.false()),  # the clock ran out
    # The account that holds this seat (a guest's seat joins the account when they sign up).
    sa.Column(
        "account_id",
        sa.String(16),
        sa.ForeignKey("accounts.id", ondelete="SET NULL", name="seats_account"),
        nullable=True,
    ),
    # Under a game clock: the seconds the seat had left when its current (or next) decision
    # became due; forfeited: its time ran out at a forfeit table.
    sa.Column("bank", sa.Float, nullable=True),
    sa.Column("forfeited", sa.Boolean, nullable=False, server_default=sa.false()),
    # The session (its token's hash) whose "Play on this device" made the seat's token: signing
    # out there, everywhere, or a new password ends that token too (issue 52).
    sa.Column("session_hash", sa.String(64), nullable=True),
    # At an open table: since when the seat's person has had no page open there (None: here
    # now); a table whose seated people have all been gone a while leaves the lobby.
    sa.Column("gone_at", sa.DateTime(timezone=True), nullable=True),
)

decisions = sa.Table(
    "decisions",
    metadata,
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # The decision number (0-based): the unique key that makes a race for one decision
    # end with exactly one row.
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # A stand-in bot took it for the absent person in that seat (marked in the log; never undone).
    sa.Column("stand_in", sa.Boolean, nullable=False, server_default=sa.false()),
)

analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),  # running | done
    sa.Column("done", sa.Integer, nullable=False),  # decisions judged so far
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("budget", sa.String(32), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),  # a stale run is taken over
    sa.Column("data", sa.JSON, nullable=True),  # ra.analysis.GameAnalysis.to_dict() once done
)

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(20), nullable=False),
    sa.Column("name_key", sa.String(20), nullable=False, unique=True),  # casefolded: one Ann
    sa.Column("password_hash", sa.String(200), nullable=False),  # argon2id
    sa.Column("email", sa.String(254), nullable=True),  # "your turn" in games by turns
    # Mail goes to the address only once its owner opened the mailed link (issue 40, finding 3);
    # email_key: the address folded as providers fold it (one inbox, one key: ra.web.addresses);
    # mail_turns: "your turn".  The links' tokens are in account_tokens, hashed.
    sa.Column("email_confirmed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("email_key", sa.String(254), nullable=True, index=True),
    sa.Column("mail_turns", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("lang", sa.String(8), nullable=False, server_default="en"),  # of the mail
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # OpenSkill (Plackett-Luce) rating from the rated games: between accounts only.
    sa.Column("rating_mu", sa.Float, nullable=False, server_default="25.0"),
    sa.Column("rating_sigma", sa.Float, nullable=False, server_default="8.333333333333334"),
    sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),  # the cookie's token, hashed
    sa.Column("account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("csrf", sa.String(64), nullable=False),  # sent back in X-CSRF-Token by the pages
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)

# A link mailed to set a new password: its token hashed, good once, for an hour (issue 40).
password_resets = sa.Table(
    "password_resets",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column(
        "account_id",
        sa.String(16),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)

# The tokens of the links mailed about an account's address (issue 52), hashed, one purpose each:
# confirm (the address, once), unsubscribe ("your turn" off), undo (a change of address, once,
# sent to the old address); email: the address the link is about; lang: the mail's language.
account_tokens = sa.Table(
    "account_tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("purpose", sa.String(16), nullable=False),
    sa.Column(
        "account_id",
        sa.String(16),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)

# The names of accounts deleted lately, by name key (look-alikes too): nobody signs up with one
# until reserved_until, so a deleted player cannot be impersonated under their old name.
reserved_names = sa.Table(
    "reserved_names",
    metadata,
    sa.Column("name_key", sa.String(20), primary_key=True),
    sa.Column("reserved_until", sa.DateTime(timezone=True), nullable=False),
)

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
    sa.Column("channel", sa.String(12), nullable=False),  # players | spectators (never crossed) | lobby
    sa.Column("seat", sa.Integer, nullable=True),  # None: a spectator
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("addr", sa.String(64), nullable=True),  # for the admin acting on a report
    sa.Column("text", sa.String(400), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),  # by ra admin hide
    # said by an account under its own name (a seat it holds, or signed in): the pages link the name
    sa.Column("account", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("chat_game_channel", "game_id", "channel", "id"),
)

chat_reports = sa.Table(
    "chat_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("chat_id", sa.Integer, sa.ForeignKey("chat.id", ondelete="CASCADE"), nullable=False),
    sa.Column("reporter", sa.String(64), nullable=False),  # the reporter's address: once each
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("resolved", sa.String(16), nullable=True),  # None (open) | hidden | dismissed
    sa.UniqueConstraint("chat_id", "reporter", name="chat_reports_once"),
)

# The shared rate limits' leaky buckets (ra.web.store.limits): a key's level drains at its rate a second.
limit_levels = sa.Table(
    "limit_levels",
    metadata,
    sa.Column("key", sa.String(300), primary_key=True),
    sa.Column("level", sa.Float, nullable=False),
    sa.Column("rate", sa.Float, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

# What each worker's clients hold at once per key (ra.web.store.limits.StoredHolds): open game
# sockets and lobby pages per address, counted over every worker's fresh rows.
limit_holds = sa.Table(
    "limit_holds",
    metadata,
    sa.Column("key", sa.String(300), primary_key=True),
    sa.Column("worker", sa.String(64), primary_key=True),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

# Puzzle ratings of accounts (OpenSkill, ra.puzzles.Solver); a guest's lives in the browser.
puzzle_solvers = sa.Table(
    "puzzle_solvers",
    metadata,
    sa.Column(
        "account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("streak", sa.Integer, nullable=False),
    sa.Column("best_streak", sa.Integer, nullable=False),
    sa.Column("solved", sa.Integer, nullable=False),
    sa.Column("tried", sa.Integer, nullable=False),
)

# An account's first answer to each puzzle: only that one moves the rating.
puzzle_attempts = sa.Table(
    "puzzle_attempts",
    metadata,
    sa.Column(
        "account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("puzzle_id", sa.String(40), primary_key=True),
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

# Events (issue 55, migration 0023): an event, its players, its rounds (a round's row is the one
# worker's claim to form it) and its tables (each an ordinary game once made).
events = sa.Table(
    "events",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # ra.tournament.Kind's value
    sa.Column("table_size", sa.Integer, nullable=False),
    sa.Column("rounds", sa.Integer, nullable=False),
    sa.Column("minutes", sa.Integer, nullable=True),  # an arena's length (migration 0024)
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),  # when it really started
    sa.Column("bots", sa.Boolean, nullable=False, server_default=sa.false()),  # bots fill empty seats
    sa.Column(
        "byes", sa.Boolean, nullable=False, server_default=sa.false()
    ),  # byes for the players left over
    sa.Column("move_seconds", sa.Integer, nullable=True),  # a clock per decision; None: none
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("invite_hash", sa.String(64), nullable=True),  # by invitation: the link's token, hashed
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),  # open | running | finished | cancelled
    sa.Column(
        "organiser_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("organiser_name", sa.String(20), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_events_organiser_status", "organiser_id", "status"),
)

event_players = sa.Table(
    "event_players",
    metadata,
    sa.Column("event_id", sa.String(16), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
    sa.Column(
        "account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("name", sa.String(20), nullable=False),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("removed", sa.Boolean, nullable=False, server_default=sa.false()),
)

event_rounds = sa.Table(
    "event_rounds",
    metadata,
    sa.Column("event_id", sa.String(16), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("worker", sa.String(64), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("formed_at", sa.DateTime(timezone=True), nullable=False),
)

event_tables = sa.Table(
    "event_tables",
    metadata,
    sa.Column("event_id", sa.String(16), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("table_no", sa.Integer, primary_key=True),
    sa.Column("players", sa.JSON, nullable=False),  # account ids in seat order
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True),
    sa.ForeignKeyConstraint(
        ["event_id", "round"], ["event_rounds.event_id", "event_rounds.round"], ondelete="CASCADE"
    ),
)

MIGRATIONS = Path(__file__).with_name("migrations")


def _with_driver(url: str, sqlite_driver: str) -> str:
    u = make_url(url)
    if u.drivername in ("sqlite", "sqlite+aiosqlite"):
        return u.set(drivername=sqlite_driver).render_as_string(hide_password=False)
    if u.drivername.startswith("postgresql"):
        return u.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return url


def sync_url(url: str) -> str:
    """The URL for synchronous use (migrations, the SQLite writer): sqlite3 or psycopg 3."""
    return _with_driver(url, "sqlite")


def async_url(url: str) -> str:
    """The URL for the server's async engine: aiosqlite or psycopg 3."""
    return _with_driver(url, "sqlite+aiosqlite")


def check_url(url: str) -> str:
    """``url`` if it names a database this server supports; ``ValueError`` naming the problem."""
    try:
        u = make_url(url)
    except Exception:
        raise worded(ValueError, "serve.err.db_url", url=repr(url)) from None
    if u.drivername.split("+")[0] not in ("sqlite", "postgresql"):
        raise worded(ValueError, "serve.err.db_kind", driver=repr(u.drivername))
    if u.drivername.startswith("sqlite"):
        if not u.database or u.database == ":memory:":
            raise worded(ValueError, "serve.err.db_file")
        folder = Path(u.database).expanduser().resolve().parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise worded(
                ValueError, "serve.err.db_mkdir", folder=str(folder), why=str(err.strerror)
            ) from None
        if not os.access(folder, os.W_OK):
            raise worded(ValueError, "serve.err.db_folder", folder=str(folder))
    return url


def is_sqlite(url: str) -> bool:
    return make_url(url).drivername.startswith("sqlite")


def alembic_config(url: str) -> Config:
    """Alembic's settings for ``url`` (imported here: the server's workers never migrate, and
    importing Alembic's autogenerate in each of them logged a line per plugin at start)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Apply the migrations up to ``revision`` (the server does this on start)."""
    from alembic import command

    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    """Take the migrations back down to ``revision`` (``base`` empties the database)."""
    from alembic import command

    command.downgrade(alembic_config(url), revision)


def connection_limits(url: str) -> tuple[int, int] | None:
    """PostgreSQL's ``max_connections``, and how many of them a role that is no superuser may
    open in all (less the slots it keeps for superusers); None for SQLite."""
    if is_sqlite(url):
        return None
    engine = sa.create_engine(sync_url(url), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            most, kept = conn.execute(
                sa.text(
                    "SELECT current_setting('max_connections')::int,"
                    " current_setting('superuser_reserved_connections')::int"
                    " + coalesce(current_setting('reserved_connections', true)::int, 0)"
                )
            ).one()
    finally:
        engine.dispose()
    return int(most), int(most) - int(kept)


def now() -> datetime:
    """The time as stored: UTC, aware."""
    return datetime.now(UTC)


@overload
def as_utc(t: datetime) -> datetime: ...
@overload
def as_utc(t: None) -> None: ...
def as_utc(t: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; every time stored here is UTC."""
    return t.replace(tzinfo=UTC) if t is not None and t.tzinfo is None else t
