"""``ra analyze``: judge every decision of a game with the win-chance evaluator."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import ra
from ra.bots.advisor import ADVICE_SEED
from ra.bots.advisor import DEFAULT_BUDGET as ADVICE_BUDGET
from ra.cli.common import cannot_write, fail
from ra.events import plural


def _seat(text: str, names: tuple[str, ...]) -> int:
    """A seat given as its number (1 = first player) or a player's name."""
    if text.strip().isdigit():
        number = int(text)
        if not 1 <= number <= len(names):
            raise fail(f"--seat {text}: seats are 1 to {len(names)} in this game ({', '.join(names)})")
        return number - 1
    folded = [n.casefold() for n in names]
    if text.strip().casefold() in folded:
        return folded.index(text.strip().casefold())
    raise fail(f"--seat {text!r}: give a seat number (1-{len(names)}) or a name: {', '.join(names)}")


def _check_out(path: Path, option: str) -> None:
    if path.is_dir():
        raise fail(f"{option} {os.fspath(path)!r} is a folder, not a file")
    reason = cannot_write(path)
    if reason is not None:
        raise fail(f"cannot write {option} {os.fspath(path)!r}: {reason}")


def analyze_command(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="A saved game or game record (JSON).")],
    seat: Annotated[
        str | None, typer.Option("--seat", "-s", help="Analyse only this player: seat number (1-5) or name.")
    ] = None,
    budget: Annotated[
        str,
        typer.Option(
            "--budget",
            "-b",
            help="Per decision: a level's search (hard, expert), iterations (20000) or seconds (2s).",
        ),
    ] = ADVICE_BUDGET,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write an HTML report with the chart here.")
    ] = None,
    json_path: Annotated[
        Path | None,
        typer.Option("--json", help="Write the analysis as JSON here (for ra replay --analysis)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the advisor's search (0 or more).")] = ADVICE_SEED,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (the numbers do not change).")] = 1,
    edition: Annotated[str, typer.Option(help=f"Tile names of an edition: {', '.join(ra.EDITIONS)}.")] = (
        "original"
    ),
) -> None:
    """Judge every decision of a player (or all): chance lost, mistakes with reasons, a chart.

    Ctrl-C stops early and keeps the decisions analysed so far.
    """
    from ra.analysis.game import analyse_game
    from ra.analysis.report import html_report, pct, terminal_chart
    from ra.bots.evaluate import Budget
    from ra.records import atomic_write
    from ra.tui.session import load_game

    if edition not in ra.EDITIONS:
        raise fail(f"unknown edition {edition!r}; editions are: {', '.join(ra.EDITIONS)}")
    if seed < 0:
        raise fail(f"--seed must be 0 or more, not {seed}")
    if jobs < 1:
        raise fail(f"--jobs must be 1 or more, not {jobs}")
    try:
        plan = Budget.parse(budget)
    except ValueError as err:
        raise fail(f"--budget: {err}") from None
    try:
        game = load_game(path)
    except ra.RecordError as err:
        raise fail(str(err)) from None
    seats = None if seat is None else [_seat(seat, game.names)]
    for target, option in ((out, "--out"), (json_path, "--json")):
        if target is not None:
            _check_out(target, option)

    console = Console()
    columns = (TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("decisions", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        analysis = analyse_game(game, seats, plan, seed=seed, progress=advance, edition=edition, jobs=jobs)

    names = analysis.names
    if not ra.native_available():
        console.print(
            "Judged by quick playouts: the native core is not built, so this analysis is weaker "
            "than the bots' search (see ra --version).",
            style="yellow",
        )
    if not analysis.complete:
        console.print(f"Interrupted: {plural(len(analysis.decisions), 'decision')} analysed.", style="yellow")
    console.print(terminal_chart(analysis, width=min(72, console.width - 20)))
    console.print()
    for s in analysis.seats:
        acc = analysis.accuracy(s)
        if acc is not None:
            n = sum(d.seat == s for d in analysis.decisions)
            console.print(f"{names[s]}: accuracy {pct(acc)} of {plural(n, 'decision')}", highlight=False)
    costly = analysis.costliest()
    if costly:
        console.print("\nThe costliest decisions:", style="bold")
        for d in costly:
            console.print(
                f"  decision {d.index + 1} ({names[d.seat]}, epoch {d.epoch}): {d.chosen} — {d.text}",
                highlight=False,
            )
    else:
        console.print("\nNo decision lost much: well played.")
    try:
        if json_path is not None:
            atomic_write(json_path, analysis.to_json())
            console.print(f"Analysis written to {json_path}", highlight=False)
        if out is not None:
            atomic_write(out, html_report(analysis))
            console.print(f"Report written to {out}", highlight=False)
    except OSError as err:
        raise fail(f"cannot write the report: {err.strerror or err}") from None
    if not analysis.complete:
        raise typer.Exit(130)
