"""``ra analyze``: judge every decision of a game with the win-chance evaluator, in the command
line's language (``ra --lang``; the words in ``ra/locale/analysis.pot``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

import ra
from ra.bots.advisor import ADVICE_SEED
from ra.bots.advisor import DEFAULT_BUDGET as ADVICE_BUDGET
from ra.cli.common import HELP, cannot_write, error_text, fail, lang, parse_budget, system_words, w

if TYPE_CHECKING:
    from ra.analysis.game import GameAnalysis
    from ra.bots.evaluate import Budget
    from ra.tui.session import Replay

_EDITION_HELP = HELP("analysis.help.edition", editions=", ".join(ra.EDITIONS))


def _seat(text: str, names: tuple[str, ...]) -> int:
    """A seat given as its number (1 = first player) or a player's name."""
    if text.strip().isdigit():
        number = int(text)
        if not 1 <= number <= len(names):
            raise fail(w()("analysis.err.seat_range", seat=text, n=len(names), names=", ".join(names)))
        return number - 1
    folded = [n.casefold() for n in names]
    if text.strip().casefold() in folded:
        return folded.index(text.strip().casefold())
    raise fail(w()("analysis.err.seat_name", seat=repr(text), n=len(names), names=", ".join(names)))


def _strengths(text: str, players: int) -> list[float]:
    """``--strengths``: a level (its rating) or a rating for each seat, comma-separated."""
    from ra.analysis.chances import LEVEL_STRENGTH

    def one(part: str) -> float | None:
        if part.casefold() in LEVEL_STRENGTH:
            return LEVEL_STRENGTH[part.casefold()]
        try:
            value = float(part)
        except ValueError:
            return None
        return value if abs(value) <= 1000 else None  # nan and inf too

    values = [one(p.strip()) for p in text.split(",")]
    if len(values) != players or None in values:
        example = ",".join(["medium"] * players)
        raise fail(w()("analysis.err.strengths", value=repr(text), n=players, example=example))
    return [v for v in values if v is not None]


def _check_out(path: Path, option: str) -> None:
    if path.is_dir():
        raise fail(w()("analysis.err.folder", option=option, path=repr(os.fspath(path))))
    reason = cannot_write(path)
    if reason is not None:
        raise fail(w()("analysis.err.cannot_write", option=option, path=repr(os.fspath(path)), reason=reason))


def analyze_command(
    path: Annotated[Path, typer.Argument(metavar=HELP("cli.metavar.file"), help=HELP("analysis.help.file"))],
    seat: Annotated[str | None, typer.Option("--seat", "-s", help=HELP("analysis.help.seat"))] = None,
    budget: Annotated[
        str,
        typer.Option(
            "--budget",
            "-b",
            help=HELP("analysis.help.budget"),
        ),
    ] = ADVICE_BUDGET,
    out: Annotated[Path | None, typer.Option("--out", "-o", help=HELP("analysis.help.out"))] = None,
    json_path: Annotated[
        Path | None,
        typer.Option("--json", help=HELP("analysis.help.json")),
    ] = None,
    seed: Annotated[int, typer.Option(help=HELP("analysis.help.seed"))] = ADVICE_SEED,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=HELP("analysis.help.jobs"))] = 1,
    edition: Annotated[str, typer.Option(help=_EDITION_HELP)] = ("original"),
    strengths: Annotated[str | None, typer.Option(help=HELP("analysis.help.strengths"))] = None,
    deep: Annotated[bool, typer.Option("--deep", help=HELP("analysis.help.deep"))] = False,
) -> None:
    """Judge every decision of a player (or all): chance lost, mistakes with reasons, a chart
    (the help text: ``analysis.help``)."""
    from ra.tui.session import load_replay

    code = lang()
    say = w()
    if edition not in ra.EDITIONS:
        raise fail(say("analysis.err.edition", edition=repr(edition), editions=", ".join(ra.EDITIONS)))
    if seed < 0:
        raise fail(say("analysis.err.seed", seed=seed))
    if jobs < 1:
        raise fail(say("analysis.err.jobs", jobs=jobs))
    plan = parse_budget(budget, "--budget")
    try:
        replay = load_replay(path)  # the game, and the seats that forfeited (a site's record)
    except ra.RecordError as err:
        raise fail(error_text(err)) from None
    game = replay.game
    seats = None if seat is None else [_seat(seat, game.names)]
    rated = None if strengths is None else _strengths(strengths, len(game.names))
    for target, option in ((out, "--out"), (json_path, "--json")):
        if target is not None:
            _check_out(target, option)

    console = Console()
    analysis = _analyse(console, replay, seats, plan, seed, edition, jobs, rated, deep)
    _summary(console, analysis, code, edition)
    _write_reports(console, analysis, out, json_path, code, edition)
    if not analysis.complete:
        raise typer.Exit(130)


def _analyse(
    console: Console,
    replay: Replay,
    seats: list[int] | None,
    plan: Budget,
    seed: int,
    edition: str,
    jobs: int,
    rated: list[float] | None,
    deep: bool,
) -> GameAnalysis:
    """The analysis of the replay's game (the table's result: its forfeits count), with a progress
    bar while it runs (``deep``: every decision at the full budget)."""
    from ra.analysis.analyse import analyse_game
    from ra.analysis.game import DEFAULT_SEARCHES

    columns = (
        TextColumn(w()("analysis.progress"), markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("decisions", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return analyse_game(
            replay.game,
            seats,
            plan,
            seed=seed,
            progress=advance,
            edition=edition,
            jobs=jobs,
            strengths=rated,
            searches=None if deep else DEFAULT_SEARCHES,
            forfeited=replay.forfeited,
        )


def _summary(console: Console, analysis: GameAnalysis, code: str, edition: str) -> None:
    """The chart, each seat's accuracy and the costliest decisions, on the terminal."""
    from ra.analysis.report import pct, terminal_chart

    say, names = w(), analysis.names
    if not ra.native_available():
        console.print(Text(say("analysis.weaker"), style="yellow"))
    if not analysis.complete:
        console.print(Text(say("analysis.interrupted", n=len(analysis.decisions)), style="yellow"))
    console.print(terminal_chart(analysis, width=min(72, console.width - 20), lang=code))
    console.print()
    for s in analysis.seats:
        acc = analysis.accuracy(s)
        if acc is not None:
            n = sum(d.seat == s for d in analysis.decisions)
            console.print(Text(say("analysis.accuracy", name=names[s], accuracy=pct(acc), n=n)))
    costly = analysis.costliest()
    console.print()
    if not costly:
        console.print(Text(say("analysis.well_played")))
        return
    console.print(Text(say("analysis.costliest") + ":", style="bold"))
    for d in costly:  # a long line wraps under its own text, not at column 0
        console.print(Padding(Text(d.line(names, code, edition)), (0, 0, 0, 2)))


def _write_reports(
    console: Console,
    analysis: GameAnalysis,
    out: Path | None,
    json_path: Path | None,
    code: str,
    edition: str,
) -> None:
    """``--json`` and ``--out`` written (whole or not at all); a clear error if they cannot be."""
    from ra.analysis.report import html_report
    from ra.records import atomic_write

    say = w()
    try:
        if json_path is not None:
            atomic_write(json_path, analysis.to_json())
            console.print(Text(say("analysis.json_written", path=str(json_path))))
        if out is not None:
            atomic_write(out, html_report(analysis, code, edition))
            console.print(Text(say("analysis.report_written", path=str(out))))
    except OSError as err:
        raise fail(say("analysis.err.report", reason=system_words(err))) from None


analyze_command.__doc__ = HELP("analysis.help")
