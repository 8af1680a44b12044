"""``ra puzzle``: puzzles in the terminal, one after another, with a puzzle rating and a streak.

The rating and the puzzles seen are kept in the data folder (``puzzles.json``), written after
every answer (to a temporary file first: an interruption loses nothing but the puzzle on screen).
"""

from __future__ import annotations

import json
import os
import random
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ra.actions import Action
from ra.cli.common import HELP, fail, lang, set_lang, w
from ra.labels import action_label
from ra.puzzles import (
    THEMES,
    Puzzle,
    PuzzleAnswerError,
    PuzzleDataError,
    Solver,
    Verdict,
    by_id,
    choose,
    display,
    judge,
    load_puzzles,
    solver_from,
)
from ra.tui.render import auction_line, board_line, chance, players_table
from ra.tui.session import data_dir
from ra.words import languages, sentence, words

QUIT = ("q", "quit", "exit")
QUIT_KEYS = ("q", "й")
"""The key that stops at once, without Enter (``й`` is where ``q`` is on a Russian keyboard)."""


def progress_path() -> Path:
    """Where ``ra puzzle`` keeps the rating and the puzzles seen."""
    return data_dir() / "puzzles.json"


def load_progress(path: Path) -> tuple[Solver, list[str], str]:
    """The saved rating and puzzles seen; a missing file is a new solver, a damaged one is
    named in the note (third value) and replaced at the next answer."""
    if not path.exists():
        return Solver(), [], ""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        seen = [str(s) for s in raw["seen"]][-2000:]
        return solver_from(raw["solver"]), seen, ""
    except (OSError, ValueError, KeyError, TypeError):
        return Solver(), [], w()("puzzle.bad_progress", path=str(path))


def save_progress(path: Path, solver: Solver, seen: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"solver": asdict(solver), "seen": seen[-2000:]}), encoding="utf-8")
    tmp.replace(path)


def number_of(puzzle: Puzzle) -> tuple[int, int]:
    """The puzzle's number among the shipped ones (from 1), and how many there are: what a
    person reads and types (``--id 12``), never the internal id (``137-139``)."""
    puzzles = load_puzzles()
    return puzzles.index(puzzle) + 1, len(puzzles)


def find(key: str) -> Puzzle | None:
    """A shipped puzzle by its number (``12``) or its id (``12-40``)."""
    puzzles = load_puzzles()
    if key.isdigit() and 1 <= int(key) <= len(puzzles):
        return puzzles[int(key) - 1]
    return by_id(key)


def show(console: Console, puzzle: Puzzle, solver: Solver, language: str) -> list[Action]:
    """The puzzle on screen: what it is, the board, the moves numbered; returns the moves."""
    wl = words(language)
    game = puzzle.game(language)
    view = game.view(puzzle.mover)
    themes = ", ".join(wl(f"puzzle.theme.{t}") for t in puzzle.themes)
    number, total = number_of(puzzle)
    heading = wl(
        "puzzle.heading_number", number=number, total=total, rating=solver.shown, streak=solver.streak
    )
    console.rule(heading)
    console.print(
        wl("puzzle.meta", n=puzzle.players, themes=themes, rating=display(puzzle.rating)), highlight=False
    )
    for line in (board_line(view, lang=language), auction_line(view, lang=language)):
        console.print(line)
    console.print(players_table(view, puzzle.mover, lang=language))
    moves = game.legal_actions()
    console.print(wl("puzzle.task"), style="bold", highlight=False)
    for i, action in enumerate(moves, 1):
        console.print(f"  {i}) {action_label(action, lang=language)}", highlight=False)
    return moves


def read_answer(console: Console, prompt: str) -> str:
    """A line typed after ``prompt``; on a terminal ``q`` as its first key answers at once,
    without Enter (Ctrl-D is :class:`EOFError`, Ctrl-C :class:`KeyboardInterrupt` as ever)."""
    if not (sys.stdin.isatty() and console.is_terminal):
        return console.input(prompt)
    import termios
    import tty

    fd = sys.stdin.fileno()
    before = termios.tcgetattr(fd)
    try:
        # One key at a time, not echoed; Ctrl-C still interrupts.  Before the prompt, and keeping
        # the keys typed ahead (TCSANOW, not the default flush).
        tty.setcbreak(fd, termios.TCSANOW)
        console.print(prompt, end="")
        console.file.flush()
        return _keys_until_enter(console, fd)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, before)
        console.print()


def _keys_until_enter(console: Console, fd: int) -> str:
    """The keys typed up to Enter, echoed, Backspace taking one back; ``q`` first ends at once.
    Read as UTF-8 whatever the locale says (a C locale would split ``й`` in two)."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    typed: list[str] = []
    while True:
        raw = os.read(fd, 1)
        key = decoder.decode(raw, final=not raw)
        if raw and not key:  # the middle of a character
            continue
        if key == "" or (key == "\x04" and not typed):
            raise EOFError
        if key in "\r\n":
            return "".join(typed)
        if key in ("\x7f", "\b"):
            if typed:
                typed.pop()
                console.file.write("\b \b")
        elif key.isprintable():
            typed.append(key)
            console.file.write(key)
            if len(typed) == 1 and key.lower() in QUIT_KEYS:
                return "q"
        console.file.flush()


def ask(console: Console, puzzle: Puzzle, moves: list[Action], language: str) -> Verdict | None:
    """The answer typed (a number or notation), judged; None to quit.  A bad answer is said
    and asked again."""
    wl = words(language)
    while True:
        try:
            typed = read_answer(console, wl("puzzle.prompt", n=len(moves))).strip()
        except EOFError:  # Ctrl-D: quit, on a line of its own (Ctrl-C: see puzzle_command)
            console.print()
            return None
        if typed.lower() in QUIT:
            return None
        if typed.isdigit() and 1 <= int(typed) <= len(moves):
            typed = str(moves[int(typed) - 1])
        try:
            return judge(puzzle, typed)
        except PuzzleAnswerError as err:
            console.print(wl.render(err.message), style="red", highlight=False)


def tell(
    console: Console, puzzle: Puzzle, verdict: Verdict, before: Solver, language: str, rated: bool
) -> Solver:
    """The verdict, why, every move's chance and the rating after it (moved only by a puzzle's
    first answer: ``rated``); the solver after it."""
    wl = words(language)
    after = before.after(puzzle, verdict.correct) if rated else before
    answer = action_label(verdict.answer, lang=language)
    if verdict.correct:
        console.print(wl("puzzle.right"), style="bold green", highlight=False)
    else:
        console.print(wl("puzzle.wrong", answer=answer), style="bold red", highlight=False)
    console.print(sentence(wl.render(verdict.why, puzzle.names(language), puzzle.mover)), highlight=False)
    for a in puzzle.actions:
        mark = " ★" if a.action is verdict.answer else ""
        mine = f"  {wl('puzzle.your_answer')}" if a.action is verdict.chosen else ""
        win = chance(a.chances[puzzle.mover], language)
        console.print(f"  {action_label(a.action, lang=language)}{mark}: {win}{mine}", highlight=False)
    delta = after.shown - before.shown
    change = (
        wl("puzzle.rating_change", rating=after.shown, delta=f"{delta:+d}")
        if rated
        else wl("puzzle.not_rated")
    )
    console.print(change, highlight=False)
    console.print(
        wl("puzzle.streak", n=after.streak, best=after.best_streak, solved=after.solved, tried=after.tried),
        highlight=False,
    )
    return after


def puzzle_command(
    theme: Annotated[
        str | None, typer.Option("--theme", help=HELP("puzzle.cli.theme", themes=", ".join(THEMES)))
    ] = None,
    puzzle_id: Annotated[str | None, typer.Option("--id", help=HELP("puzzle.cli.id"))] = None,
    reset: Annotated[bool, typer.Option("--reset", help=HELP("puzzle.cli.reset"))] = False,
    language: Annotated[
        str | None, typer.Option("--lang", help=HELP("cli.lang", langs=", ".join(languages())))
    ] = None,
) -> None:
    """Puzzles from real positions: find the best move; a rating and a streak."""
    if language is not None:
        set_lang(language)
    if theme is not None and theme not in THEMES:
        raise fail(w()("puzzle.cli.bad_theme", theme=theme[:40], themes=", ".join(THEMES)))
    try:
        puzzles = load_puzzles()
    except PuzzleDataError as err:
        raise fail(str(err)) from None
    first = find(puzzle_id) if puzzle_id is not None else None
    if puzzle_id is not None and first is None:
        raise fail(w()("puzzle.cli.no_such", id=puzzle_id[:40]))
    if not any(theme is None or theme in p.themes for p in puzzles):
        raise fail(w()("puzzle.cli.none", theme=w()(f"puzzle.theme.{theme}")))
    path = progress_path()
    solver, seen, note = (Solver(), [], "") if reset else load_progress(path)
    console = Console(highlight=False)
    if note:
        console.print(note, style="yellow")
    solver, interrupted = solve(console, puzzles, first, theme, solver, seen, path)
    console.print(w()("puzzle.bye", rating=solver.shown, path=str(path)), highlight=False)
    if interrupted:
        raise typer.Exit(130)  # Ctrl-C: the shell's code for it, after the goodbye


def solve(
    console: Console,
    puzzles: tuple[Puzzle, ...],
    first: Puzzle | None,
    theme: str | None,
    solver: Solver,
    seen: list[str],
    path: Path,
) -> tuple[Solver, bool]:
    """Puzzles one after another until the person stops (``q``, Ctrl-D or Ctrl-C), saved after
    every answer: the solver after them, and whether Ctrl-C stopped them."""
    rng = random.Random()
    try:
        while True:
            puzzle = first or choose(puzzles, solver, seen, theme, rng)
            first = None
            verdict = ask(console, puzzle, show(console, puzzle, solver, lang()), lang())
            if verdict is None:
                return solver, False
            solver = tell(console, puzzle, verdict, solver, lang(), rated=puzzle.id not in seen)
            if puzzle.id not in seen:
                seen.append(puzzle.id)
            save_progress(path, solver, seen)
            if more(console) in QUIT:
                return solver, False
    except KeyboardInterrupt:
        console.print()  # the goodbye on a line of its own, not after the prompt
        return solver, True


def more(console: Console) -> str:
    """The answer to "another?" (Ctrl-D is ``q``)."""
    try:
        return read_answer(console, w()("puzzle.more")).strip().lower()
    except EOFError:
        console.print()
        return "q"
