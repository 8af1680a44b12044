"""``ra admin``: what a server's admin does by hand — the chat lines people reported, hidden or let be."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from ra.cli.common import HELP, fail
from ra.cli.serve import default_db

if TYPE_CHECKING:
    from ra.web.chat_store import ReportRow
    from ra.web.store import Store

T = TypeVar("T")

admin = typer.Typer(
    help=HELP("cli.admin"),
    no_args_is_help=True,
)
LineArgument = Annotated[int, typer.Argument(min=1, metavar="LINE", help=HELP("cli.admin.line"))]
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
        raise fail(f"ra admin needs the web extra: pip install -e '.[web]' ({err.name} is missing)") from None
    url = db or default_db()
    try:
        database.check_url(url)
        database.upgrade(url)
    except Exception as err:  # a bad URL, an unreachable server, a file that is no database
        raise fail(f"cannot open the database {url}: {str(err).splitlines()[0]}") from None
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
    if not rows:
        typer.echo("No open reports.")
        return
    for r in rows:
        who = r.line.name if r.line.seat is None else f"{r.line.name} (seat {r.line.seat + 1})"
        times = "once" if r.reports == 1 else f"{r.reports} times"
        typer.echo(
            f"line {r.line.id} · {where(r)} · reported {times}, "
            f"first {r.created_at:%Y-%m-%d %H:%M} UTC\n  {who} from {r.line.addr or '?'}: {r.line.text!r}"
        )
    typer.echo("Act with: ra admin hide LINE (nobody is sent it again) or ra admin dismiss LINE.")


def where(r: ReportRow) -> str:
    return "the lobby" if r.line.game_id is None else f"table {r.line.game_id} · {r.line.channel}"


def _resolve(line: int, db: str | None, hide: bool) -> None:
    if not _with_store(db, lambda store: store.chat.resolve(line, hide)):
        raise fail(f"no chat line {line} (ra admin reports lists the reported ones)")
    typer.echo(
        f"Line {line} hidden: no one is sent it again." if hide else f"Reports of line {line} dismissed."
    )


@admin.command("hide", help=HELP("cli.admin.hide"))
def hide(
    line: Annotated[int, typer.Argument(min=1, metavar="LINE", help=HELP("cli.admin.line"))],
    db: DbOption = None,
) -> None:
    """Hide a chat line: it is no longer sent to anyone joining the table (its reports are closed)."""
    _resolve(line, db, hide=True)


@admin.command("dismiss", help=HELP("cli.admin.dismiss"))
def dismiss(
    line: Annotated[int, typer.Argument(min=1, metavar="LINE", help=HELP("cli.admin.line"))],
    db: DbOption = None,
) -> None:
    """Dismiss the reports of a chat line: it stays."""
    _resolve(line, db, hide=False)
