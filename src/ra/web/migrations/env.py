"""Alembic environment: runs the migrations on the URL the server was given."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from ra.web.db import metadata

config = context.config
url = config.get_main_option("sqlalchemy.url")
assert url is not None
engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
