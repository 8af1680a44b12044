"""``ra arena``: many games between bots, in parallel, with a table of results."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

import ra
from ra import arena
from ra.arena.runner import GameResult
from ra.cli.arena_report import done_line, head_to_head_table, summary_table
from ra.cli.common import (
    HELP,
    LONG_SUNS,
    PLAYERS,
    cannot_write,
    check_bots,
    error_text,
    fail,
    setup_message,
    system_words,
    w,
)
from ra.table import check_players

MAX_JOBS = 64
"""More processes than this only fight over the cores."""


def check_output_file(path: Path, option: str) -> None:
    """Fail now, before any game is played, if ``path`` could not be written."""
    where = repr(os.fspath(path))
    if path.is_dir():
        raise fail(w()("arena.err.folder", option=option, path=where))
    if not path.parent.is_dir():
        raise fail(w()("arena.err.no_folder", option=option, folder=repr(os.fspath(path.parent)), path=where))
    reason = cannot_write(path)
    if reason is not None:
        raise fail(w()("arena.err.cannot_write", option=option, path=where, why=reason))


def check_output_folder(path: Path, option: str) -> None:
    """Create the records folder now and check that files can be written in it."""
    where = os.fspath(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".ra-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as err:
        raise fail(
            w()("arena.err.cannot_write_in", option=option, path=repr(where), why=system_words(err))
        ) from None


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While the games run, SIGTERM stops them like Ctrl-C: finished games are printed and saved.

    Worker processes (started fresh: :mod:`ra.processes`) leave Ctrl-C to this one and end on
    SIGTERM by an exception (:func:`ra.processes.worker_signals`).
    """

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def split_bots(bots_list: str) -> list[str]:
    """The ``--bots`` option's specs, one a bot."""
    return [s.strip() for s in bots_list.split(",") if s.strip()]


def check_options(specs_text: list[str], players: int, games: int, jobs: int | None, seed: int) -> None:
    """Refuse a bad player count, seed, bot list, game or job count before any game is played."""
    try:
        check_players(players)
    except ValueError as err:
        raise fail(setup_message(err)) from None
    if seed < 0:
        raise fail(w()("cli.err.seed", seed=seed))
    if not specs_text:
        raise fail(w()("arena.err.no_bots"))
    if len(specs_text) > players:
        raise fail(w()("arena.err.too_many_bots", n=len(specs_text), players=players))
    # every spec names a bot and gives it only its own options: said now, before any game
    check_bots(specs_text)
    if games < 1:
        raise fail(w()("arena.err.at_least_one", option="--games", value=games))
    if jobs is not None and jobs < 1:
        raise fail(w()("arena.err.at_least_one", option="--jobs", value=jobs))


def check_setup(
    players: int, variant: str, suns_per_player: int | None, backend: str, address: str | None
) -> None:
    """Refuse a variant, sun count or backend that cannot run, before any game is played."""
    try:
        ra.Game(players=players, seed=0, variant=variant, suns_per_player=suns_per_player)
    except ValueError as err:
        raise fail(setup_message(err)) from None
    if backend not in ("process", "ray"):
        raise fail(w()("cli.err.backend", option="--backend", backend=repr(backend)))
    if address is not None and backend != "ray":
        raise fail(w()("cli.err.address", option="--address", backend="--backend"))
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise fail(w()("arena.err.no_ray", install="pip install 'ra-boardgame[cluster]'")) from None


def check_outputs(out: Path | None, csv_path: Path | None, records: Path | None) -> None:
    """Fail now if a file or the records folder asked for could not be written."""
    if out is not None:
        check_output_file(out, "--out")
    if csv_path is not None:
        check_output_file(csv_path, "--csv")
    if records is not None:
        check_output_folder(records, "--records")


@dataclass
class ArenaRun:
    """The games that finished, the errors met, whether Ctrl-C cut it short, and how long it took."""

    results: list[GameResult]
    results_expected: int
    interrupted: bool
    errors: list[str]
    jobs: int
    seconds: float


def progress_bar(console: Console, quiet: bool) -> Progress:
    """The games' progress: done of all, time so far and time left, in the reader's language."""
    return Progress(
        SpinnerColumn(),
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(w()("arena.elapsed"), markup=False),
        TimeElapsedColumn(),
        TextColumn(w()("arena.eta"), markup=False),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
        transient=False,
    )


def play_games(
    console: Console,
    specs: list[arena.GameSpec],
    jobs: int,
    *,
    keep_records: bool,
    quiet: bool,
    backend: str,
    address: str | None,
) -> ArenaRun:
    """Play the games on ``jobs`` workers under a progress bar; Ctrl-C or SIGTERM keeps those done."""
    start = time.perf_counter()
    errors: list[str] = []
    with progress_bar(console, quiet) as progress:
        task = progress.add_task(w()("arena.games"), total=len(specs))

        def advance(r: GameResult) -> None:
            if r.error:
                errors.append(w()("arena.game_error", index=r.index, error=r.error))
            progress.advance(task)

        with sigterm_as_interrupt():
            try:
                results, interrupted = arena.run_games(
                    specs,
                    jobs=jobs,
                    keep_records=keep_records,
                    on_result=advance,
                    backend=backend,
                    address=address,
                )
            except ConnectionError as err:  # --address: the Ray cluster cannot be reached
                raise fail(error_text(err)) from None
    return ArenaRun(results, len(specs), interrupted, errors, jobs, time.perf_counter() - start)


def show_results(console: Console, run: ArenaRun, players: int, hidden_scores: bool) -> None:
    """Print what was cut short, the errors, the tables and one closing line."""
    if run.interrupted:
        console.print(
            w()("arena.interrupted", done=len(run.results), n=run.results_expected),
            style="yellow",
            highlight=False,
        )
    for e in run.errors:
        console.print(f"[red]{e}[/red]", highlight=False)
    summary = arena.summarize(run.results)
    if summary:
        console.print(summary_table(summary, players))
        if players > 2 and len(summary) > 1:
            console.print(head_to_head_table(arena.head_to_head(run.results), summary))
    console.print(done_line(len(run.results), hidden_scores, run.seconds, run.jobs), highlight=False)


def save_results(
    console: Console,
    run: ArenaRun,
    config: dict[str, object],
    out: Path | None,
    csv_path: Path | None,
    records: Path | None,
) -> None:
    """Write the results as JSON and CSV and the games as records, where asked."""
    if out is not None:
        arena.write_json(out, arena.results_document(config, run.results, run.interrupted))
        console.print(w()("arena.written_json", path=str(out)), highlight=False)
    if csv_path is not None:
        arena.write_csv(csv_path, run.results)
        console.print(w()("arena.written_csv", path=str(csv_path)), highlight=False)
    if records is not None:
        saved = arena.save_records(records, run.results)
        console.print(w()("arena.records_saved", n=saved, folder=f"{records}/"), highlight=False)


def arena_command(
    bots_list: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=HELP("cli.arena.bots"),
        ),
    ] = "greedy,random",
    players: Annotated[
        int, typer.Option("--players", "-p", help=HELP("cli.arena.players", players=PLAYERS))
    ] = 3,
    games: Annotated[int, typer.Option("--games", "-n", help=HELP("cli.arena.games"))] = 100,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", help=HELP("cli.arena.jobs", most=MAX_JOBS)),
    ] = None,
    seed: Annotated[int, typer.Option(help=HELP("cli.arena.seed"))] = 1,
    duplicate: Annotated[bool, typer.Option(help=HELP("cli.arena.duplicate"), show_default=False)] = False,
    out: Annotated[Path | None, typer.Option(help=HELP("cli.arena.out"))] = None,
    csv_path: Annotated[Path | None, typer.Option("--csv", help=HELP("cli.arena.csv"))] = None,
    records: Annotated[Path | None, typer.Option(help=HELP("cli.arena.records"))] = None,
    variant: Annotated[
        str, typer.Option(help=HELP("cli.arena.variant", variants=", ".join(ra.VARIANTS)))
    ] = "standard",
    suns_per_player: Annotated[int | None, typer.Option(help=HELP("cli.arena.suns", suns=LONG_SUNS))] = None,
    hidden_scores: Annotated[
        bool,
        typer.Option(
            "--hidden-scores/--open-scores",
            help=HELP("cli.arena.hidden"),
            show_default=False,  # the help says which is the default, in the reader's language
        ),
    ] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=HELP("cli.arena.quiet"))] = False,
    backend: Annotated[str, typer.Option(help=HELP("cli.arena.backend"))] = "process",
    address: Annotated[str | None, typer.Option(help=HELP("cli.arena.address"))] = None,
) -> None:
    """Pit bots against each other: win rates, scores, margins, speed and ratings.

    Win rates come with 95% confidence intervals; ratings are OpenSkill.  Seats
    rotate so every bot plays every seat equally.  Ctrl-C (or SIGTERM) stops
    cleanly and still prints and saves the games that finished.
    """
    check_options(specs_text := split_bots(bots_list), players, games, jobs, seed)
    check_setup(players, variant, suns_per_player, backend, address)
    check_outputs(out, csv_path, records)
    specs = arena.schedule(
        specs_text,
        players,
        games,
        seed,
        duplicate=duplicate,
        variant=variant,
        suns_per_player=suns_per_player,
        hidden_scores=hidden_scores,
    )
    jobs = max(1, min(jobs if jobs is not None else (os.cpu_count() or 1), len(specs), MAX_JOBS))
    console = Console()
    run = play_games(
        console, specs, jobs, keep_records=records is not None, quiet=quiet, backend=backend, address=address
    )
    show_results(console, run, players, hidden_scores)
    config = {
        "bots": specs_text,
        "players": players,
        "games": len(specs),
        "jobs": jobs,
        "seed": seed,
        "duplicate": duplicate,
        "variant": variant,
        "suns_per_player": suns_per_player,
        "hidden_scores": hidden_scores,
    }
    save_results(console, run, config, out, csv_path, records)
    if run.interrupted:
        raise typer.Exit(code=130)
    if run.errors:
        raise typer.Exit(code=1)
