"""``ra play`` and ``ra replay``: the terminal game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

import ra
from ra.cli.arena import fail
from ra.setup import VARIANTS
from ra.tiles import EDITIONS

EDITION_HELP = f"Tile names of an edition: {', '.join(EDITIONS)}."


def _check_edition(edition: str) -> None:
    if edition not in EDITIONS:
        raise fail(f"unknown edition {edition!r}; editions are: {', '.join(EDITIONS)}")


def play_command(
    players: Annotated[int | None, typer.Option("--players", "-p", help="Players (2-5); default 3.")] = None,
    bots_list: Annotated[
        str,
        typer.Option("--bots", "-b", help="Bots for the other seats: easy, medium, hard (or any bot spec)."),
    ] = "",
    humans: Annotated[
        str, typer.Option("--humans", help="Hot seat: comma-separated names of the people.")
    ] = "",
    name: Annotated[str | None, typer.Option("--name", "-n", help="Your name (one person).")] = None,
    load: Annotated[Path | None, typer.Option("--load", help="Resume a saved game.")] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Where to save (default: ~/.local/share/ra/autosave.json).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal and the bag.")] = None,
    variant: Annotated[str, typer.Option(help=f"Variant: {', '.join(VARIANTS)}.")] = "standard",
    suns_per_player: Annotated[int | None, typer.Option(help="Long two-player game: 4-7 suns.")] = None,
    hidden_scores: Annotated[bool, typer.Option(help="Scores stay hidden until the end (R9.1).")] = False,
    delay: Annotated[float, typer.Option(help="Seconds between bot moves.")] = 0.7,
    edition: Annotated[
        str, typer.Option(help=f"Tile names of an edition: {', '.join(EDITIONS)}.")
    ] = "original",
) -> None:
    """Play Ra in the terminal: you against bots (default: two hard bots), or friends at one keyboard."""
    from ra.tui import PlayApp, Session, plan_seats

    _check_edition(edition)
    if delay < 0:
        raise fail("--delay cannot be negative")
    if load is not None:
        if players is not None or bots_list or humans or name or seed is not None:
            raise fail("--load resumes a saved game: its players, bots and seed come from the file")
        try:
            session = Session.load(load, save_path=save)
        except ra.RecordError as err:
            raise fail(str(err)) from None
    else:
        try:
            seats = plan_seats(players, humans.split(","), bots_list.split(","), name)
            session = Session.new(
                seats,
                seed=seed,
                variant=variant,
                suns_per_player=suns_per_player,
                hidden_scores=hidden_scores,
                save_path=save,
            )
        except ValueError as err:
            raise fail(str(err)) from None
    app = PlayApp(session, delay=delay, edition=edition)
    try:
        app.run()
    finally:
        app.autosave()
    console = Console()
    if app.error:
        console.print(f"[red]{app.error}[/red]")
    game = session.game
    if game.is_over():
        from ra.tui.render import final_line

        console.print(final_line(game, game.names))
    if app.saved_to:
        console.print(
            f"Game saved to {app.saved_to}"
            + ("" if game.is_over() else f" — resume with: ra play --load {app.saved_to}")
        )


def replay_command(
    path: Annotated[Path, typer.Argument(help="A saved game or game record (JSON).")],
    edition: Annotated[
        str, typer.Option(help=f"Tile names of an edition: {', '.join(EDITIONS)}.")
    ] = "original",
) -> None:
    """Step through a finished or saved game (→ next, ← back, ] next epoch, End, q)."""
    from ra.records import load as load_record
    from ra.tui import ReplayApp

    _check_edition(edition)
    try:
        game = load_record(path)
    except ra.RecordError as err:
        raise fail(str(err)) from None
    ReplayApp(game, edition=edition).run()
