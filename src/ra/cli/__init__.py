"""The ``ra`` command line: ``ra demo`` now; ``ra play``, ``ra replay`` and ``ra arena`` build on it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

import ra
from ra import records
from ra.scoring import CATEGORIES, CATEGORY_LABELS

app = typer.Typer(
    name="ra",
    help="Reiner Knizia's Ra: play, replay, and pit bots against each other.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    """Reiner Knizia's Ra: play, replay, and pit bots against each other."""
    if version:
        typer.echo(f"ra-boardgame {ra.__version__}")
        raise typer.Exit()


def score_table(game: ra.Game) -> Table:
    """Per player and category: every finished epoch's scoring, and the totals."""
    table = Table(title="Scores by epoch and category (R7)", show_lines=False, pad_edge=False)
    table.add_column("ep", justify="right")
    table.add_column("player", overflow="ellipsis", max_width=14)
    for c in CATEGORIES:
        table.add_column(CATEGORY_LABELS[c], justify="right")
    table.add_column("total", justify="right")
    table.add_column("score", justify="right", style="bold")
    for epoch in game.epoch_scores:
        for b in epoch:
            if b is None:
                continue
            table.add_row(
                str(b.epoch),
                game.names[b.seat],
                *(str(getattr(b, c)) for c in CATEGORIES),
                f"{b.total:+d}",
                str(b.after),
            )
        table.add_section()
    return table


@app.command()
def demo(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="2 to 5 players.")] = 3,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal, the bag and the players.")] = None,
    save: Annotated[Path | None, typer.Option(help="Write the game record (JSON) here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the scores.")] = False,
) -> None:
    """Play one full game between random players and print its log and scores."""
    console = Console()
    game = ra.Game(players=players, seed=seed)
    rng = random.Random(game.setup.seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    if not quiet:
        for event in game.events:
            console.print(event.text(game.names), highlight=False)
    console.print(score_table(game))
    winner = game.winner
    assert winner is not None
    console.print(f"Winner: [bold]{game.names[winner]}[/bold] (seed {game.setup.seed})")
    if save is not None:
        records.save(game, save)
        console.print(f"Record saved to {save}")


from ra.cli.arena import arena_command  # noqa: E402
from ra.cli.play import play_command, replay_command  # noqa: E402
from ra.cli.serve import serve_command  # noqa: E402

app.command("play")(play_command)
app.command("replay")(replay_command)
app.command("arena")(arena_command)
app.command("serve")(serve_command)


def main() -> None:
    """Entry point of the ``ra`` console script."""
    app()
