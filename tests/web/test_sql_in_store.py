"""A guard (issue 56): all the site's SQL is in :mod:`ra.web.store` (each aggregate behind its
interface), besides the tables' definitions and the migrations (:mod:`ra.web.db`,
``ra/web/migrations``).  A module elsewhere in ``ra.web`` that imports SQLAlchemy, reaches a
store's ``engine`` or spells a SQL statement fails here: its query belongs in an aggregate."""

from __future__ import annotations

import ast
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "ra" / "web"

OUTSIDE = ("store", "migrations", "db.py")
"""Where SQL belongs (paths under ``ra/web``)."""

ALLOWED = {
    "pubsub.py": "the workers' notes travel over PostgreSQL's LISTEN/NOTIFY on a connection of "
    "its own (ra.web.pubsub is that transport, no aggregate's storage)",
}
"""Modules whose SQL is no aggregate's, and why."""

STATEMENT = re.compile(r"^\s*(SELECT|INSERT INTO|UPDATE|DELETE FROM|LISTEN|NOTIFY)\s")
"""A statement as SQL is spelled here (upper case: a docstring's "Insert an event" is not one)."""


def sql_in(source: str) -> list[str]:
    """What in ``source`` is SQL: an import of SQLAlchemy, a ``.engine`` reached, a statement
    spelled in a string; each with its line."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            found += [f"{line}: import {a.name}" for a in node.names if a.name.split(".")[0] == "sqlalchemy"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlalchemy":
            found.append(f"{line}: from {node.module} import ...")
        elif isinstance(node, ast.Attribute) and node.attr == "engine":
            found.append(f"{line}: .engine")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and STATEMENT.match(node.value):
            found.append(f"{line}: {node.value.split()[0]} ...")
    return sorted(found, key=lambda hit: int(hit.split(":")[0]))


def sql_outside_store(web: Path) -> list[str]:
    """Every SQL line in ``web``'s modules outside the store, the tables and the migrations
    (and :data:`ALLOWED`): ``path:line: what``."""
    out: list[str] = []
    for file in sorted(web.rglob("*.py")):
        rel = file.relative_to(web).as_posix()
        if rel.split("/")[0] in OUTSIDE or rel in ALLOWED:
            continue
        out += [f"{rel}:{hit}" for hit in sql_in(file.read_text(encoding="utf-8"))]
    return out


def test_the_sites_sql_is_all_in_the_store() -> None:
    assert sql_outside_store(WEB) == []


def test_the_guard_finds_a_query_run_outside_the_store(tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "games.py").write_text("import sqlalchemy as sa\n")  # where it belongs
    (tmp_path / "mailer.py").write_text(
        "import sqlalchemy as sa\n"
        "from sqlalchemy.ext.asyncio import AsyncEngine\n"
        "async def people(store, q):\n"
        "    async with store.engine.connect() as conn:\n"
        "        return await conn.exec_driver_sql('SELECT id FROM accounts')\n"
    )
    assert sql_outside_store(tmp_path) == [
        "mailer.py:1: import sqlalchemy",
        "mailer.py:2: from sqlalchemy.ext.asyncio import ...",
        "mailer.py:4: .engine",
        "mailer.py:5: SELECT ...",
    ]


def test_what_is_allowed_still_exists_and_is_still_sql() -> None:
    """An allowance for a module gone, or one that no longer runs SQL, is struck off."""
    for rel in ALLOWED:
        assert sql_in((WEB / rel).read_text(encoding="utf-8")), rel
