"""The ``ra`` command line's commands: ``demo``, ``play``, ``replay``, ``games``, ``rules``, ``arena``,
``analyze``, ``serve``, ``docs`` (the ``ra`` console script enters by :func:`ra.cli.main`, which
says what to install where the extra ``play`` is missing)."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

import ra
from ra import records
from ra.cli import language as _language  # its gettext answers: installed by ra.cli, first
from ra.cli.admin import admin
from ra.cli.analyze import analyze_command
from ra.cli.arena import arena_command
from ra.cli.common import (
    HELP,
    LANG_OPTION,
    argv_lang,
    cannot_write,
    fail,
    lang,
    plain_flags,
    set_lang,
    system_words,
    w,
    without_lang,
)
from ra.cli.docs import docs_command
from ra.cli.guide import guide_command
from ra.cli.learn import learn_command
from ra.cli.play import games_command, play_command, replay_command, rules_command
from ra.cli.puzzle import puzzle_command
from ra.cli.serve import serve_command
from ra.tui.render import score_table
from ra.words import languages


def _words_now(key: str) -> str:
    """A message in the language ``main`` chose (it may differ from the one at import)."""
    return w()(key)


_language.localize_typer(_words_now)

app = typer.Typer(
    name="ra",
    help=HELP("cli.root"),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"ra-boardgame {ra.__version__}")
        typer.echo(_native_line())
        raise typer.Exit()


def _native_line() -> str:
    """Whether the native core is in use, and why not (:func:`ra.native.status`), in the
    command line's language."""
    from ra import native

    say = w()
    if native.core is not None:
        return say("cli.version.native")
    if os.environ.get(native.ENV_VAR, "").strip() == "0":
        return say("cli.version.native_off", var=native.ENV_VAR)
    if native.REFUSED is not None:
        return say("cli.version.native_refused", why=str(native.REFUSED))
    return say("cli.version.native_missing")


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help=HELP("cli.version")),
    ] = False,
    language: Annotated[
        str | None,
        typer.Option(
            LANG_OPTION,
            help=HELP("cli.lang", langs=", ".join(languages())),
            show_default=False,
        ),
    ] = None,
) -> None:
    """Reiner Knizia's Ra: play, replay, pit bots against each other; ra rules."""


@app.command(help=HELP("cli.short.demo"), short_help=HELP("cli.short.demo"))
def demo(
    players: Annotated[
        int,
        typer.Option(
            "--players",
            "-p",
            min=ra.MIN_PLAYERS,
            max=ra.MAX_PLAYERS,
            help=HELP("cli.demo.players", low=ra.MIN_PLAYERS, high=ra.MAX_PLAYERS),
        ),
    ] = 3,
    seed: Annotated[int | None, typer.Option(help=HELP("cli.demo.seed"))] = None,
    save: Annotated[Path | None, typer.Option(help=HELP("cli.demo.save"))] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=HELP("cli.demo.quiet"))] = False,
) -> None:
    """Play one full game between random players and print its log and scores."""
    console = Console()
    if seed is not None and seed < 0:
        raise fail(w()("cli.err.seed", seed=seed))
    if save is not None:
        _check_save_path(save)
    names = [w()("player.numbered", n=i + 1) for i in range(players)]
    game = ra.Game(players=names, seed=seed)
    rng = random.Random(game.setup.seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    if not quiet:
        for event in game.events:
            console.print(escape(event.text(game.names, lang=lang())), highlight=False)
    console.print(score_table(game, lang=lang()))
    winner = game.winner
    assert winner is not None
    console.print(w()("cli.demo.winner", name=escape(game.names[winner]), seed=game.setup.seed))
    if save is not None:
        try:
            records.save(game, save)
        except OSError as err:
            raise fail(
                w()("cli.err.cannot_save", path=repr(os.fspath(save)), why=system_words(err))
            ) from None
        console.print(escape(w()("cli.demo.saved", path=str(save))), highlight=False)


def _check_save_path(path: Path) -> None:
    """Fail before playing if the record could not be written."""
    if path.is_dir():
        raise fail(w()("cli.err.save_folder", path=repr(os.fspath(path))))
    reason = cannot_write(path)
    if reason is not None:
        raise fail(w()("cli.err.cannot_save", path=repr(os.fspath(path)), why=reason))


app.command("play", help=HELP("cli.play"))(play_command)
app.command("replay", help=HELP("cli.replay"))(replay_command)
app.command("games", help=HELP("cli.games"))(games_command)
app.command("rules", help=HELP("cli.rules"))(rules_command)
app.command("guide", help=HELP("guide.cli.help"))(guide_command)
app.command("learn", help=HELP("learn.help"))(learn_command)
app.command("puzzle", help=HELP("puzzle.cli.help"))(puzzle_command)
# Developers' and hosts' commands (their help and words are in the catalogue too).
app.command("arena", help=HELP("cli.arena"), short_help=HELP("cli.short.arena"))(arena_command)
app.command("serve", help=HELP("cli.serve"), short_help=HELP("cli.short.serve"))(serve_command)
app.command("analyze")(analyze_command)
app.command("docs", help=HELP("cli.docs"), short_help=HELP("cli.short.docs"))(docs_command)
app.add_typer(admin, name="admin", short_help=HELP("cli.short.admin"))


def main(args: list[str] | None = None) -> None:
    """Run the command line (:func:`ra.cli.main` calls it): every error is one line ``error: …`` on stderr
    and exit status 2, from the parser (an unknown option, a bad value) as from the commands."""
    plain_flags()
    argv = sys.argv[1:] if args is None else list(args)
    asked = argv_lang(argv)
    try:
        set_lang(asked)
    except typer.Exit as err:
        raise SystemExit(err.exit_code) from None
    # --lang may follow the command (ra play --lang ru): it is the root's option, so it goes first.
    # `ra --lang de` alone is `ra` alone: the help (in that language), not "missing command".
    rest = without_lang(argv) or ["--help"]
    argv = ([LANG_OPTION, asked] if asked is not None else []) + rest
    try:
        code = app(args=argv, prog_name="ra", standalone_mode=False)
    except typer.TyperException as err:  # the parser's errors: an unknown option, a bad value
        ctx: typer.Context | None = getattr(err, "ctx", None)
        if type(err).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())
            raise SystemExit(0) from None
        raise SystemExit(fail(_language.usage_error(err, w())).exit_code) from None
    except typer.Abort:
        raise SystemExit(130) from None
    raise SystemExit(code if isinstance(code, int) else 0)
