"""Everything a person reads, in the pseudo-locale ``en_XA`` (issue 41): every ``ra <command>
--help`` (with Typer's own words: the usage line, the panels, the value types), every error of
the command line, every screen of ``ra play`` (the game, the help, the hints panel, an epoch's
scoring, the final table, the hot seat's hand-over, the refusals), of ``ra learn`` and the
prompts of ``ra puzzle``.

In ``en_XA`` every letter of a catalogued message is accented (``[Ţĥé ··]``): a word of plain
Latin letters left on screen is a string that did not pass through the catalogue — unless it is
notation, the same in every language (options, commands, values typed as given, names of
formats and variables), which :data:`NOTATION` lists.  ``test_the_check_fails_on_...`` prove
the checks can fail: a plain English word put on a screen or into a help text is found.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Markdown
from typer.testing import CliRunner

import ra
from ra import records
from ra.learn import Lesson, load_chapters
from ra.tui import PlayApp, Session, plan_seats
from ra.tui.learn import LearnApp
from ra.tui.pages import HANDOVER, TextScreen
from ra.words import words

XA = "en_XA"

NOTATION = re.compile(
    r"\S+://\S+|\b[\w.-]+\.example\.org\b|(?:/[\w.@+-]+)+/?"  # addresses and paths
    r"|(?<![\w-])--?[a-z][\w-]*"  # options: --players, -p
    r"|\bR\d+(?:\.\d+)?\b"  # rule numbers
    r"|'[\w.:,/=-]*'"  # a value quoted as typed, or a file's field: 'x9', 'names', 'mcts:x=1'
    r"|\b(?:LANGUAGE|LC_ALL|LC_MESSAGES|LANG|RA_[A-Z_]+)\b"  # environment variables
)
"""What is written alike in every language: addresses, paths, options, rule numbers and the
environment's variables."""

VALUES = frozenset(
    {
        # Values typed as given (bots, levels, variants, editions, themes, backends, formats).
        *("random", "greedy", "mcts", "easy", "medium", "hard", "expert", "master", "advisor", "openspiel"),
        *("puct", "policy"),  # the learned policy's bots (entry points), named as registered
        *("standard", "long", "immediate", "original", "process", "ray", "text", "json"),
        *("bidding", "invoking", "gods", "disasters", "end_of_epoch"),
        *("critical", "error", "warning", "info", "debug", "iterations", "native", "false"),
        # Commands, the languages' codes, the package and the things named by their own names.
        *("play", "replay", "games", "rules", "learn", "guide", "puzzle", "analyze", "arena"),
        *("serve", "demo", "docs", "admin", "reports", "hide", "dismiss", "pip", "install"),
        *("ra", "boardgame", "web", "rl", "cluster", "mkdocs", "build", "site", "index", "html"),
        *("en", "de", "ru", "XA", "localhost", "sqlite", "postgresql", "psycopg", "user", "host"),
        *("name", "path", "PORT", "HOST", "nginx", "uvicorn", "OpenSkill", "SIGTERM", "Ctrl"),
    }
)
"""Latin words that are notation in every language: values typed as given, commands, codes."""

SCREEN_NOTATION = frozenset(
    {
        # Keys as printed on keyboards, and the typed action notation (the engine's).
        *("Enter", "Esc", "PgUp", "PgDn", "Ctrl", "home", "end", "draw", "pass", "done", "bid"),
        *("god", "gold", "discard", "art", "ra", "rules", "play", "hints", "open", "scores"),
        "resume",
    }
)
"""Latin words a terminal screen may show in every language (as :mod:`tests.tui.test_languages`)."""


def plain_english(text: str, allowed: Iterable[str] = VALUES) -> set[str]:
    """The words of two Latin letters or more in ``text`` that are not notation: strings that
    did not pass through the catalogue (single letters are keys: the footer's ``d``, ``q``)."""
    found = re.findall(r"[A-Za-z][A-Za-z_]*[A-Za-z]", NOTATION.sub(" ", text))
    return set(found) - set(allowed)


# --- the command line ------------------------------------------------------------------------

DRIVER = """
import contextlib, io, json, sys
cases = json.loads(sys.argv[1])
sys.argv = ["ra", "--lang", "en-XA"]  # help texts are written as the commands are defined
from ra.cli import app, main  # first: it answers Typer's gettext calls, so before Typer is imported
from typer.main import get_command

def paths(command, prefix):
    yield prefix
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        if not getattr(sub, "hidden", False):
            yield from paths(sub, [*prefix, name])

runs = [[*p, "--help"] for p in paths(get_command(app), [])] + [["--version"]] + cases
out = []
for args in runs:
    stdout, stderr = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            main(["--lang", "en-XA", *args])
        except SystemExit as done:
            code = done.code
    out.append({"args": args, "code": code, "out": stdout.getvalue(), "err": stderr.getvalue()})
print(json.dumps(out))
"""
"""Runs ``ra`` in one process over every command's help and the given error cases (a process
of its own: help texts are written in the language of the command line as ``ra.cli`` is
imported)."""


def command_line_errors(game: Path, not_a_game: Path) -> list[list[str]]:
    """A command line for every error the commands and the parser say (none needs a server, a
    cluster or the network)."""
    g, bad = str(game), str(not_a_game)
    return [
        # The parser's: an unknown option or command, a bad or missing value, extra arguments.
        ["play", "--bogus"], ["play", "--players", "x"], ["play", "--delay", "x"], ["play", "--delay"],
        ["demo", "-p", "1"], ["serve", "--port", "0"], ["admin", "hide", "x"], ["replay"],
        ["rules", "1", "2"], ["play", "--resume", "1"], ["nosuchcommand"],
        # ra play and ra demo.
        ["play", "-p", "9"], ["play", "-b", "x9"], ["play", "--delay", "-1"], ["play", "--seed", "-2"],
        ["play", "--edition", "x"], ["play", "--load", g, "--resume"],
        ["play", "-p", "3", "--variant", "long-2p"], ["play", "--humans", "A,,B"],
        ["play", "-p", "2", "-b", "easy,easy"], ["play", "--load", g, "-p", "3"], ["play", "--load", g],
        ["demo", "--seed", "-1"], ["demo", "--save", "/"],
        # ra replay, ra analyze.
        ["replay", g, "--edition", "x"], ["replay", g, "--analysis", bad],
        ["analyze", g, "--budget", "9x"], ["analyze", g, "--seat", "9"], ["analyze", g, "--seat", "Ζεδ"],
        ["analyze", g, "--edition", "x"], ["analyze", g, "--seed", "-1"], ["analyze", g, "--jobs", "0"],
        ["analyze", g, "--out", "/"],
        # ra arena.
        ["arena", "-n", "0"], ["arena", "-j", "0"], ["arena", "--backend", "x"],
        ["arena", "--address", "h:1"], ["arena", "-b", "a,b,c", "-p", "2"], ["arena", "-b", "x9"],
        ["arena", "-b", ","], ["arena", "--seed", "-1"], ["arena", "-p", "9"], ["arena", "--out", "/"],
        # A bot spec the bots refuse: its reason after ours (a level, an option, a setting).
        ["arena", "-b", "easy:hard"], ["arena", "-b", "random:x=1"], ["arena", "-b", "greedy:epsilon=2"],
        ["arena", "-b", "mcts:rollout=x9"], ["play", "-b", "mcts:iterations=0"], ["play", "-b", "hard:z"],
        ["arena", "--csv", "/no-such-folder/rows.csv"],
        # ra learn, ra puzzle, ra serve.
        ["learn", "-c", "99"], ["puzzle", "--theme", "x9"], ["puzzle", "--id", "0-0"],
        ["serve", "--workers", "2"], ["serve", "--log-level", "x"], ["serve", "--log-format", "x"],
        ["serve", "--bot-backend", "x"], ["serve", "--ray-address", "h:1"], ["serve", "--hint-budget", "9x"],
        ["serve", "--analysis-budget", "1.5"],
    ]  # fmt: skip


@pytest.fixture(scope="module")
def command_line(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    folder = tmp_path_factory.mktemp("cli")
    game, finished, analysis = folder / "game.json", folder / "over.json", folder / "analysis.json"
    records.save(ra.Game(players=["Άννα", "Βασίλης"], seed=1), game)
    analysis.write_text(json.dumps({"format": "ra-analysis"}))
    over = ra.Game(players=["Άννα", "Βασίλης"], seed=2)
    while not over.is_over():
        over.apply(over.legal_actions()[0])
    records.save(over, finished)
    cases = command_line_errors(game, analysis)
    cases[cases.index(["play", "--load", str(game)])] = ["play", "--load", str(finished)]
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    environ.update({"COLUMNS": "100", "NO_COLOR": "1", "XDG_DATA_HOME": str(folder / "data")})
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(cases)],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    runs: list[dict[str, object]] = json.loads(done.stdout)
    return runs


def test_every_commands_help_passes_through_the_catalogue(command_line: list[dict[str, object]]) -> None:
    """Every command's and subcommand's ``--help``, and ``ra --version``."""
    helps = [r for r in command_line if r["args"][-1] in ("--help", "--version")]  # type: ignore[index]
    names = {" ".join(r["args"][:-1]) for r in helps if r["args"] != ["--version"]}  # type: ignore[index]
    assert {"", "play", "arena", "serve", "admin", "admin hide", "admin reports", "admin dismiss"} <= names
    assert len(names) >= 17
    for run in helps:
        text = str(run["out"])
        assert run["code"] == 0 and text.strip(), run
        left = plain_english(text)
        assert not left, f"ra {' '.join(run['args'])}: {sorted(left)}\n{text}"  # type: ignore[arg-type]
    root = str(helps[0]["out"])
    for word in ("click.usage", "cli.metavar.options", "cli.metavar.command", "cli.metavar.args"):
        assert words(XA)(word) in root  # Typer's own words, ours: "[Úšáĝé: ·] ra [[ÓÞŢÍÓÑŠ ··]] …"
    serve = next(str(r["out"]) for r in helps if r["args"] == ["serve", "--help"])
    assert words(XA)("cli.type.int_range") in serve and "[1<=x<=65535]" in serve


def test_every_error_of_the_command_line_passes_through_the_catalogue(
    command_line: list[dict[str, object]],
) -> None:
    errors = [r for r in command_line if r["args"][-1] not in ("--help", "--version")]  # type: ignore[index]
    prefix = words(XA)("cli.error")
    wrong = []
    for run in errors:
        text = str(run["err"])
        one_line = run["code"] == 2 and text.startswith(prefix) and len(text.strip().splitlines()) == 1
        if not one_line or plain_english(text):
            wrong.append(f"ra {' '.join(run['args'])}: {text!r} {sorted(plain_english(text))}")  # type: ignore[arg-type]
    assert not wrong, "\n".join(wrong)


# --- the terminal game ----------------------------------------------------------------------


def screen_text(app: App[None]) -> str:
    """The screen as plain text, as Textual's compositor draws it."""
    console = Console(
        width=app.size.width, height=app.size.height, file=io.StringIO(), record=True, color_system=None
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def run(
    app: App[None], script: Callable[[Pilot[None]], Awaitable[None]], size: tuple[int, int] = (80, 24)
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


async def settle(pilot: Pilot[None], app: PlayApp) -> None:
    """Until a person must act, a page is open or the game is over (the hand-over passed)."""
    for _ in range(2000):
        if isinstance(app.screen, TextScreen):
            return
        if app.session.game.is_over() and not app.bots.thinking:
            return
        if app.session.human_to_move() and not app.bots.thinking and (app.moves.keys or app.moves.bids):
            return
        await pilot.pause(0.005)
    raise AssertionError("the app did not settle")


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press("slash", *("space" if c == " " else c for c in text), "enter")
    await pilot.pause()


def screens_of_a_game(tmp_path: Path) -> list[str]:
    """One person against two easy bots: the board, the refusals and notes, the help page
    (all of it), the hints panel working and done, and the footer's words."""
    seats = plan_seats(3, [], ["easy", "easy"], None, XA)
    session = Session.new(seats, seed=7, save_path=tmp_path / "game.json", hints=True)
    app = PlayApp(session, delay=0, hint_budget=30, lang=XA)
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        screens.append(screen_text(app))
        for keys in (["u"], ["plus"], ["minus"], ["f"], ["1"]):  # undo refused, pace, a half-typed bid
            await pilot.press(*keys)
            await pilot.pause()
            screens.append(screen_text(app))
        await pilot.press("escape")
        for typed in ("x 12", "bid 99", "god gold"):  # not notation; impossible now
            await type_text(pilot, typed)
            screens.append(screen_text(app))
        await pilot.press("slash")
        await pilot.pause()
        screens.append(screen_text(app))  # the command line's placeholder
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        screens.append(screen_text(app))
        screens.append(app.screen.query_one(Markdown).source)  # the whole help page
        await pilot.press("escape", "h")
        await pilot.pause()
        screens.append(screen_text(app))  # "working it out"
        for _ in range(3000):
            if app.hints.work.result is not None:
                break
            await pilot.pause(0.01)
        await pilot.pause()
        screens.append(screen_text(app))  # the panel: every action, the best starred, why

    run(app, script)
    return screens


def hot_seat_to(tmp_path: Path, stop: Callable[[ra.Game], bool]) -> tuple[Session, list[ra.Action]]:
    """Three people at one screen (so nothing is left to chance) and a random game: the session
    just before the decision where ``stop`` first holds after it, and the decisions to come."""
    seats = plan_seats(None, ["Άννα", "Βασίλης", "Ζωή"], [], None, XA)
    reference = ra.Game(players=[s.name for s in seats], seed=11)
    rng = random.Random(4)
    played: list[ra.Action] = []
    while not stop(reference):
        action = rng.choice(reference.legal_actions())
        reference.apply(action)
        played.append(action)
    session = Session.new(seats, seed=11, save_path=tmp_path / "hot.json", hints=False)
    for action in played[:-1]:
        session.apply(action)
    return session, played[-1:]


def screens_of_scoring(tmp_path: Path, final: bool) -> list[str]:
    """The hand-over screen, then the scoring of the first epoch, or of the last with the final
    table, reached by the decision that ends it; then the board after it."""
    epochs = 3 if final else 1
    session, last = hot_seat_to(tmp_path, lambda g: len(g.epoch_scores) >= epochs)
    app = PlayApp(session, delay=0, lang=XA)
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(500):
            await pilot.pause(0.01)
            if isinstance(app.screen, TextScreen) and app.screen.name == HANDOVER:
                break
        assert isinstance(app.screen, TextScreen) and app.screen.name == HANDOVER
        screens.append(screen_text(app))  # the next person takes the screen
        await pilot.press("enter")
        await settle(pilot, app)
        await type_text(pilot, str(last[0]))
        await settle(pilot, app)
        assert isinstance(app.screen, TextScreen), "no scoring shown"
        screens.append(screen_text(app))
        await pilot.press("enter")
        await pilot.pause()
        screens.append(screen_text(app))

    run(app, script, size=(80, 30))
    assert len(session.game.epoch_scores) == epochs and session.game.is_over() == final
    return screens


@pytest.mark.slow  # a whole game's screens, one by one
def test_every_screen_of_ra_play_passes_through_the_catalogue(tmp_path: Path) -> None:
    screens = screens_of_a_game(tmp_path)
    screens += screens_of_scoring(tmp_path, final=False) + screens_of_scoring(tmp_path, final=True)
    text = "\n".join(screens)
    w = words(XA)
    for key in ("tui.help.hint", "tui.modal.continue", "tui.modal.close_quit", "hint.panel.hides"):
        assert w(key).split(" ")[0] in text, key
    left = plain_english(text, SCREEN_NOTATION)
    assert not left, f"strings that bypassed the catalogue: {sorted(left)}"


def test_the_check_fails_on_a_plain_english_word_on_a_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screens' check can fail: a status line with a plain English word is found."""
    from ra.tui import render

    status = render.status_text

    def with_english(*args: object, **kwargs: object) -> object:
        text = status(*args, **kwargs)  # type: ignore[arg-type]
        text.append("  Your turn")
        return text

    monkeypatch.setattr(render, "status_text", with_english)
    seats = plan_seats(3, [], ["easy", "easy"], None, XA)
    app = PlayApp(Session.new(seats, seed=7, save_path=tmp_path / "g.json"), delay=0, lang=XA)
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        screens.append(screen_text(app))

    run(app, script)
    assert plain_english(screens[0], SCREEN_NOTATION) == {"Your", "turn"}


def test_the_check_fails_on_a_plain_english_word_in_a_help_text() -> None:
    """The command line's check can fail: Typer's own English, or a word of ours not in the
    catalogue, is found (and values typed as given are not)."""
    assert plain_english("[Úšáĝé: ·] ra play [OPTIONS] --players <int> Show this message (easy)") == {
        "OPTIONS",
        "int",
        "Show",
        "this",
        "message",
    }


# --- ra learn and ra puzzle --------------------------------------------------------------


def test_the_guided_game_passes_through_the_catalogue(tmp_path: Path) -> None:
    """``ra learn`` from its first chapter to the offer of a real game: each chapter's text,
    a refused move with its hint, the chapter list, the keys, the last words."""
    chapters = load_chapters()
    app = LearnApp(Lesson(chapters[0]), tmp_path / "learn.json", lang=XA)
    screens: list[str] = []

    def keys() -> dict[str, str]:
        return {str(a): k for a, k in app.moves().by_action().items()}

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("c")
        screens.append(screen_text(app))
        await pilot.press("1")
        for chapter in chapters:
            screens.append(screen_text(app))
            for step in chapter.steps:
                moves = keys()
                wrong = next((a for a in moves if not step.accepts(a)), None)
                if wrong is not None:
                    await pilot.press(moves[wrong])
                    screens.append(screen_text(app))
                await pilot.press(moves[next(a for a in moves if step.accepts(a))])
                screens.append(screen_text(app))
            await pilot.press("enter")
        await pilot.pause()

    run(app, script, size=(100, 40))
    assert app.play_next
    left = plain_english("\n".join(screens), SCREEN_NOTATION)
    assert not left, f"strings that bypassed the catalogue: {sorted(left)}"


def test_the_puzzle_prompts_pass_through_the_catalogue(tmp_path: Path) -> None:
    """``ra puzzle``: the heading, the position, the task and the moves, a bad answer, the
    verdict with why and every move's chance, the rating, the streak, "another?" and goodbye."""
    from ra.cli import app as cli

    result = CliRunner().invoke(
        cli,
        ["puzzle", "--id", "1", "--lang", "en-XA"],
        input="x\n99\n1\n\nq\n",
        env={"XDG_DATA_HOME": str(tmp_path), "COLUMNS": "100"},
    )
    assert result.exit_code == 0, result.output
    text = re.sub(r"/\S+", " ", result.output)  # the progress file's path
    left = plain_english(text, SCREEN_NOTATION)
    assert not left, f"strings that bypassed the catalogue: {sorted(left)}\n{result.output}"
    assert words(XA)("puzzle.more").split(" ")[0] in result.output
