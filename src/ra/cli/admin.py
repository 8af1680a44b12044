"""``ra admin``: what a server's admin does by hand — the chat lines people reported, hidden or let be."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from ra.cli.common import HELP, fail, w
from ra.cli.serve import default_db

if TYPE_CHECKING:
    from ra.web.store import Store
    from ra.web.store.chat import ReportRow

T = TypeVar("T")

admin = typer.Typer(
    help=HELP("cli.admin"),
    no_args_is_help=True,
)
LINE = HELP("cli.metavar.line")
"""How the help names a chat line's number."""
LineArgument = Annotated[int, typer.Argument(min=1, metavar=LINE, help=HELP("cli.admin.line"))]
DbOption = Annotated[
    str | None,
    typer.Option(help=HELP("cli.admin.db")),
]


def _store(db: str | None) -> Store:
    """The server's store over ``db`` (migrated as ``ra serve`` would), or a clear failure."""
    try:
        from ra.web import db as database
        from ra.web.store import Store
    except ImportError as err:
        raise fail(w()("cli.err.web_extra", command="ra admin", missing=str(err.name))) from None
    url = db or default_db()
    try:
        database.check_url(url)
        database.upgrade(url)
    except Exception as err:  # a bad URL, an unreachable server, a file that is no database
        raise fail(w()("cli.err.database", url=url, why=str(err).splitlines()[0])) from None
    return Store(url)


def _with_store(db: str | None, job: Callable[[Store], Awaitable[T]]) -> T:
    """Run ``job`` over the database's store, closed afterwards."""
    store = _store(db)

    async def main() -> T:
        try:
            return await job(store)
        finally:
            await store.close()

    return asyncio.run(main())


@admin.command("reports", help=HELP("cli.admin.reports"))
def reports(db: DbOption = None) -> None:
    """List the reported chat lines nobody acted on yet, oldest first."""
    rows = _with_store(db, lambda store: store.chat.open_reports())
    say = w()
    if not rows:
        typer.echo(say("admin.none"))
        return
    for r in rows:
        first = f"{r.created_at:%Y-%m-%d %H:%M}"
        typer.echo(say("admin.report", line=r.line.id, where=where(r), n=r.reports, first=first))
        who = (
            r.line.name if r.line.seat is None else say("admin.seat", name=r.line.name, seat=r.line.seat + 1)
        )
        typer.echo("  " + say("admin.said", who=who, addr=r.line.addr or "?", text=repr(r.line.text)))
    typer.echo(w()("admin.act", line=LINE))


def where(r: ReportRow) -> str:
    """Where a reported line was said: the lobby, or a table and its channel."""
    say = w()
    return (
        say("admin.lobby")
        if r.line.game_id is None
        else say("admin.table", game=r.line.game_id, channel=r.line.channel)
    )


def _resolve(line: int, db: str | None, hide: bool) -> None:
    if not _with_store(db, lambda store: store.chat.resolve(line, hide)):
        raise fail(w()("admin.err.no_line", line=line))
    typer.echo(w()("admin.hidden" if hide else "admin.dismissed", line=line))


@admin.command("hide", help=HELP("cli.admin.hide"))
def hide(
    line: LineArgument,
    db: DbOption = None,
) -> None:
    """Hide a chat line: it is no longer sent to anyone joining the table (its reports are closed)."""
    _resolve(line, db, hide=True)


@admin.command("dismiss", help=HELP("cli.admin.dismiss"))
def dismiss(
    line: LineArgument,
    db: DbOption = None,
) -> None:
    """Dismiss the reports of a chat line: it stays."""
    _resolve(line, db, hide=False)
