"""``ra play``, ``ra replay``, ``ra games`` and ``ra rules``: the terminal game and its files."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

import ra
from ra.bots import LEVELS, level_help
from ra.cli.common import (
    HELP,
    LONG_SUNS,
    PLAYERS,
    check_bots,
    error_text,
    fail,
    lang,
    pager_with_colours,
    ra_command,
    rules_text,
    setup_message,
    system_words,
    w,
)

if TYPE_CHECKING:
    from ra.analysis.game import AnalysisFormatError, GameAnalysis
    from ra.tui import Session

LEVELS_HELP = "; ".join(HELP("cli.play.level", level=lv, text=level_help(lv, HELP.lang)) for lv in LEVELS)
BOTS_HELP = HELP("cli.play.bots", levels=LEVELS_HELP)
VARIANT_HELP = HELP("cli.play.variant", variants=", ".join(ra.VARIANTS))
EDITION_HELP = HELP("cli.play.edition", editions=", ".join(ra.EDITIONS))


def _check_edition(edition: str) -> None:
    if edition not in ra.EDITIONS:
        raise fail(w()("cli.err.edition", edition=edition, editions=", ".join(ra.EDITIONS)))


def _engine_message(err: Exception) -> str:
    """An engine error in command-line words: a setup error names its option (``--suns-per-player``)."""
    return setup_message(err)


def play_command(
    players: Annotated[
        int | None, typer.Option("--players", "-p", help=HELP("cli.play.players", players=PLAYERS))
    ] = None,
    bots_list: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP)] = "",
    humans: Annotated[str, typer.Option("--humans", help=HELP("cli.play.humans"))] = "",
    name: Annotated[str | None, typer.Option("--name", "-n", help=HELP("cli.play.name"))] = None,
    load: Annotated[Path | None, typer.Option("--load", help=HELP("cli.play.load"))] = None,
    resume: Annotated[bool, typer.Option("--resume", help=HELP("cli.play.resume"))] = False,
    save: Annotated[Path | None, typer.Option("--save", help=HELP("cli.play.save"))] = None,
    seed: Annotated[int | None, typer.Option(help=HELP("cli.play.seed"))] = None,
    variant: Annotated[str, typer.Option(help=VARIANT_HELP)] = "standard",
    suns_per_player: Annotated[int | None, typer.Option(help=HELP("cli.play.suns", suns=LONG_SUNS))] = None,
    disaster_timing: Annotated[str, typer.Option(help=HELP("cli.play.disasters"))] = "immediate",
    open_scores: Annotated[bool, typer.Option("--open-scores", help=HELP("cli.play.open_scores"))] = False,
    delay: Annotated[float, typer.Option(help=HELP("cli.play.delay"))] = 0.7,
    edition: Annotated[str | None, typer.Option(help=EDITION_HELP)] = None,
    hints: Annotated[bool | None, typer.Option("--hints/--no-hints", help=HELP("cli.play.hints"))] = None,
) -> None:
    """Play Ra in the terminal: you against bots (default: two hard bots), or friends at one keyboard.

    Every quit saves; the rules are in `ra rules`.
    """
    from ra.tui import Session, plan_seats

    _check_options(edition, delay, seed, load is not None and resume)
    if resume:
        load = _latest_unfinished()
        save = save or load  # resuming continues the game in its own file
    if load is not None:
        if players is not None or bots_list or humans or name or seed is not None or hints is not None:
            raise fail(w()("cli.err.load_options"))
        if disaster_timing != "immediate":
            raise fail(w()("cli.err.load_timing"))
        session = _loaded(load, save, edition)
    else:
        if players is None and variant == "long-2p":
            players = 2
        check_bots([b.strip() for b in bots_list.split(",") if b.strip()])
        try:
            seats = plan_seats(players, humans.split(","), bots_list.split(","), name, lang())
            session = Session.new(
                seats,
                seed=seed,
                variant=variant,
                suns_per_player=suns_per_player,
                hidden_scores=not open_scores,
                save_path=save,
                hints=hints,
                disaster_timing=disaster_timing,
                edition=edition or "original",
            )
        except ValueError as err:
            raise fail(_engine_message(err)) from None
    _check_writable(session.save_path)
    _run(session, delay)


def _check_options(edition: str | None, delay: float, seed: int | None, load_and_resume: bool) -> None:
    """Refuse the options of ``ra play`` that no game can have, before any file is read."""
    if edition is not None:
        _check_edition(edition)
    if delay < 0:
        raise fail(w()("cli.err.delay"))
    if seed is not None and seed < 0:
        raise fail(w()("cli.err.seed", seed=seed))
    if load_and_resume:
        raise fail(w()("cli.err.load_resume"))


def _loaded(load: Path, save: Path | None, edition: str | None) -> Session:
    """The saved game in ``load`` to play on (saved to ``save``, or to its own file); a finished
    game is refused: never a second copy of it."""
    from ra.tui import Session

    try:
        session = Session.load(load, save_path=save, lang=lang())
    except ra.RecordError as err:
        raise fail(error_text(err)) from None
    if session.game.is_over():
        raise fail(w()("cli.err.finished", path=repr(os.fspath(load)), file=os.fspath(load)))
    if edition is not None:  # the saved edition unless another is asked for
        session.edition = edition
    return session


def _run(session: Session, delay: float) -> None:
    """Play the game full-screen; then say how it ended, where it is saved and how to go on."""
    from ra.tui import PlayApp
    from ra.tui.render import final_line

    app = PlayApp(session, delay=delay, edition=session.edition, lang=lang())
    try:
        app.run()
    finally:
        app.autosave()
    console = Console()
    if app.error:
        console.print(f"[red]{app.error}[/red]", highlight=False)
    game = session.game
    if game.is_over():
        console.print(final_line(game, game.names, lang(), session.forfeited), highlight=False)
    if app.saved_to:
        console.print(w()("tui.saved_to", path=app.saved_to), highlight=False, soft_wrap=True)
        if not game.is_over():
            again = f"{ra_command()} play --resume"
            console.print(w()("tui.resume_with", command=again), highlight=False, soft_wrap=True)


def _latest_unfinished() -> Path:
    """The save ``--resume`` continues: the newest unfinished game.  A newer save that cannot
    be played is said (with why), never passed over in silence; none at all is an error."""
    from ra.tui.session import list_saves

    saves = list_saves()
    unfinished = [g for g in saves if not g.over and g.problem is None]
    for g in saves:
        if g.problem is not None and (not unfinished or g.modified >= unfinished[0].modified):
            message = w()("cli.resume.damaged", why=error_text(g.problem))
            Console(stderr=True).print(message, style="yellow", highlight=False)
    if not unfinished:
        raise fail(w()("cli.err.no_resume"))
    return unfinished[0].path


def _check_writable(path: Path) -> None:
    """Fail before the game starts if it could never be saved."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise fail(w()("cli.err.cannot_save", path=repr(os.fspath(path)), why=system_words(err))) from None
    if path.is_dir() or not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise fail(w()("cli.err.cannot_save", path=repr(os.fspath(path)), why=w()("cli.err.not_writable")))


def replay_command(
    path: Annotated[Path, typer.Argument(metavar=HELP("cli.metavar.file"), help=HELP("cli.replay.file"))],
    edition: Annotated[str, typer.Option(help=EDITION_HELP)] = "original",
    analysis: Annotated[
        Path | None,
        typer.Option("--analysis", help=HELP("cli.replay.analysis")),
    ] = None,
) -> None:
    """Step through a finished or saved game (→ next, ← back, ] next epoch, End, q)."""
    from ra.tui import ReplayApp
    from ra.tui.session import load_replay

    _check_edition(edition)
    try:
        replay = load_replay(path, lang())
    except ra.RecordError as err:
        raise fail(error_text(err)) from None
    game = replay.game
    judged = None if analysis is None else _load_analysis(analysis, game)
    app = ReplayApp(
        game,
        edition,
        judged,
        lang(),
        stand_ins=replay.stand_ins,
        stand_in=replay.stand_in,
        forfeited=replay.forfeited,
        viewer=replay.viewer,
    )
    app.run()


def _load_analysis(path: Path, game: ra.Game) -> GameAnalysis:
    """The analysis in ``path``, checked to be of ``game``; exits with a one-line error otherwise."""
    from ra.analysis.game import AnalysisFormatError, GameAnalysis
    from ra.tui.session import read_document

    where = os.fspath(path)
    try:
        judged = GameAnalysis.from_dict(read_document(path))
    except ra.RecordError as err:
        raise fail(error_text(err)) from None
    except AnalysisFormatError as err:
        raise fail(w()("cli.err.bad_analysis", path=repr(where), why=_analysis_problem(err))) from None
    if judged.names != game.names or judged.total_decisions != game.num_decisions:
        raise fail(w()("cli.err.other_analysis", path=repr(where), names=", ".join(judged.names)))
    return judged


def _analysis_problem(err: AnalysisFormatError) -> str:
    """Why a file is no analysis, in the command line's words."""
    say = w()
    if not err.broken:
        return say("cli.err.analysis_format")
    return (
        say("cli.err.analysis_field", field=repr(err.field)) if err.field else say("cli.err.analysis_broken")
    )


def games_command() -> None:
    """List the saved games, newest first (resume the latest unfinished one with ra play --resume)."""
    from ra.tui.session import games_dir, list_saves

    console = Console()
    saves = list_saves()
    if not saves:
        console.print(w()("cli.games.none", folder=str(games_dir())), highlight=False)
        return
    for g in saves:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.modified))
        if g.problem is not None:  # listed with why, so that it is not taken for lost
            console.print(f"{when}  {w()('cli.games.damaged'):<9} {error_text(g.problem)}", highlight=False)
            continue
        state = w()("cli.games.finished") if g.over else w()("cli.games.epoch", n=g.epoch)
        console.print(f"{when}  {state:<9} {', '.join(g.names)}", highlight=False)
        again = "ra replay" if g.over else "ra play --load"
        console.print(f"    {again} {g.path}", highlight=False, soft_wrap=True)


def rules_command(
    plain: Annotated[bool, typer.Option("--plain", help=HELP("cli.rules.plain"))] = False,
) -> None:
    """The rules of Ra (sections R1-R9, cited by the game's messages)."""
    text = rules_text()
    console = Console()
    if plain or not console.is_terminal or console.no_color or not console.color_system:
        typer.echo(text)  # a pipe, NO_COLOR or TERM=dumb: the plain text
        return
    from rich.markdown import Markdown

    with pager_with_colours(), console.pager(styles=True):
        console.print(Markdown(text))
