"""What the commands share: one-line errors, help texts, output checks and the packaged rules."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sys
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape

import ra
from ra import words as _words
from ra.cli.language import LANG_OPTION, argv_lang, choose, lang, without_lang
from ra.words import UnknownLanguageError, Words

if TYPE_CHECKING:
    from ra.bots.evaluate import Budget

__all__ = ["LANG_OPTION", "argv_lang", "lang", "without_lang"]


def set_lang(value: str | None) -> None:
    """Choose the language (``--lang``); an unknown one is an error naming the known ones."""
    try:
        choose(value)
    except UnknownLanguageError as err:
        raise fail(f"{LANG_OPTION}: {error_text(err)}") from None


def w() -> Words:
    """The words of the command line's language."""
    return _words.words(lang())


HELP: Words = _words.words(lang())
"""The words help texts are written in: chosen once, when the commands are defined."""

PLAYERS = f"{ra.MIN_PLAYERS}-{ra.MAX_PLAYERS}"
"""The player counts, for help texts (R2.1)."""
LONG_SUNS = f"{min(ra.LONG_2P_GROUPS)}-{max(ra.LONG_2P_GROUPS)}"
"""Suns per player in the long two-player game, for help texts (R2.3)."""


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` (in the command line's language) on stderr; raise the result to
    exit with status 2."""
    prefix = escape(w()("cli.error"))
    Console(stderr=True, soft_wrap=True).print(f"[red]{prefix}[/red] {escape(message)}", highlight=False)
    return typer.Exit(code=2)


def error_text(err: Exception) -> str:
    """An error in the command line's language where it carries its words as a message (``why``),
    else as the library said it."""
    why = getattr(err, "why", None)
    return w().render(why) if isinstance(why, _words.Msg) else str(err)


def setup_message(err: Exception) -> str:
    """An engine error in command-line words: a setup error (R2) names its option
    (``--suns-per-player: …``), never a Python keyword."""
    text = error_text(err)
    if isinstance(err, ra.SetupError) and err.option:
        return f"--{err.option.replace('_', '-')}: {text}"
    return text


def check_bots(specs: Sequence[str], option: str = "--bots") -> None:
    """Fail now, in the reader's words, on a bot spec that names no bot or that the bots refuse
    (a level, an option or a setting: :class:`ra.bots.BotSpecError` says which)."""
    from importlib.metadata import entry_points

    from ra import bots

    known = (*bots.BOTS, *bots.LEVELS, "advisor", *(ep.name for ep in entry_points(group=bots.PLUGINS)))
    for spec in specs:
        name = spec.split(":", 1)[0].strip().lower()
        if name not in known:
            raise fail(w()("cli.err.unknown_bot", option=option, name=repr(name), bots=", ".join(known)))
        try:
            bots.from_spec(spec, seed=0)
        except bots.BotSpecError as err:
            why = w().render(err.reason)
            raise fail(w()("cli.err.bad_bot", option=option, spec=repr(spec), why=why)) from None


def parse_budget(value: str, option: str) -> Budget:
    """A search budget given on the command line (``--budget``, ``--hint-budget``), or a
    one-line error saying what a budget is."""
    from ra.bots.evaluate import Budget

    try:
        return Budget.parse(value)
    except ValueError:
        raise budget_error(option, value) from None


def budget_error(option: str, value: str) -> typer.Exit:
    """The error for a value of ``option`` that is no search budget: what a budget is."""
    from ra.bots.evaluate import BUDGET_LEVELS

    levels = ", ".join(BUDGET_LEVELS)
    return fail(w()("cli.err.budget", option=option, value=repr(value), levels=levels))


def rules_text(language: str | None = None) -> str:
    """The project's rules reference in a language (``ra/data/rules.md``, ``rules.ru.md``…;
    English where there is no translation)."""
    code = language or lang()
    if code in _words.PSEUDO_LANGS:  # the English reference, accented like the catalogue
        return "\n".join(
            _words.pseudo_text(line, wrap=False, keep_code=True) for line in rules_text("en").splitlines()
        )
    data = resources.files("ra").joinpath("data")
    name = "rules.md" if code == _words.DEFAULT_LANG else f"rules.{code}.md"
    path = data.joinpath(name)
    return (path if path.is_file() else data.joinpath("rules.md")).read_text(encoding="utf-8")


def cannot_write(path: Path) -> str | None:
    """Why a file could not be written at ``path`` now (the system's reason), or ``None``:
    tries a file beside it, and ``path`` itself must be writable if it exists."""
    probe = path.with_name(path.name + ".tmp")
    try:
        with open(probe, "w", encoding="utf-8"):
            pass
        probe.unlink()
        if path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(13, "Permission denied")
    except OSError as err:
        return system_words(err)
    return None


def ra_command() -> str:
    """How to type ``ra`` in a new shell: ``ra`` when it is on the PATH, else its full path
    (in a virtual environment that is not activated, ``ra`` alone is not found)."""
    here = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    on_path = shutil.which("ra")
    if on_path is not None and (here is None or Path(on_path).resolve() == here):
        return "ra"
    if here is not None and here.name == "ra" and here.is_file():
        return str(here)
    return "ra"


def environment_tool(name: str) -> str:
    """How to type a tool of the environment this ``ra`` runs in (``pip``) in a new shell here:
    its name when the ``PATH`` finds that one, else its path (``.venv/bin/pip`` inside this
    folder): a virtual environment that is not activated is not on the ``PATH``."""
    path = Path(sys.executable).parent / name
    found = shutil.which(name)
    if found is not None and Path(found).resolve() == path.resolve():
        return name
    if not path.exists():
        return f"{shlex.quote(sys.executable)} -m {name}"
    with contextlib.suppress(ValueError):
        return str(path.relative_to(Path.cwd()))
    return shlex.quote(str(path))


def system_words(err: OSError) -> str:
    """Why the system refused a file, in the command line's language (never its English)."""
    from ra.tui.session import system_reason

    return w().render(system_reason(err))


@contextlib.contextmanager
def pager_with_colours() -> Iterator[None]:
    """Let ``less`` show colours (``-R``) unless the user set ``LESS`` or a pager of their own
    (``MANPAGER`` or ``PAGER``, read in that order as :func:`pydoc.pager` does): without it the
    rules showed raw escape codes (``ESC[1;4m``)."""
    pager = os.environ.get("MANPAGER") or os.environ.get("PAGER") or "less"
    if "LESS" in os.environ or Path((pager.split() or ["less"])[0]).name != "less":
        yield
        return
    os.environ["LESS"] = "-R"
    try:
        yield
    finally:
        del os.environ["LESS"]


def plain_flags() -> None:
    """``--help`` as people read it: on/off options as flags (``--resume``, not ``--resume
    <bool>``: ``--resume true`` is refused) and a required argument by its name (``ra replay
    FILE``, not ``{FILE}``) — Typer 0.29 writes both its own way."""
    from typer.core import TyperArgument, TyperOption

    if getattr(TyperOption, "_ra_plain_flags", False):
        return
    typed = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: typer.Context) -> str | None:
        return None if self.is_flag else typed(self, ctx)

    def usage_name(self: TyperArgument) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 else "")

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign,assignment]
    TyperArgument._usage_display_name = usage_name  # type: ignore[method-assign]
    TyperOption._ra_plain_flags = True  # type: ignore[attr-defined]
