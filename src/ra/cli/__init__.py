"""The ``ra`` command line (its commands: :mod:`ra.cli.commands`).

The library installs without the terminal's stack (``pip install ra-boardgame``, issue 56); the
command line and the terminal game need the extra ``play`` (Typer, Rich, Textual). Without it,
:func:`main` says what to install, in one line with exit status 2 and in the command line's
language, where an ``ImportError``'s traceback would be. Importing this package imports none of
them: ``app`` loads with the commands, when it is first asked for.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from typing import TYPE_CHECKING

from ra import words
from ra.cli import language

# Typer and Click print words of their own ("Usage:", "No such command"): they must find the
# catalogue's, so its gettext answers are installed before any module of the command line
# imports them (``from ra.cli.arena import …`` too, not only ``main``).
language.install()

if TYPE_CHECKING:
    from ra.cli.commands import app as app

DISTRIBUTION = "ra-boardgame"
FRONT_END_EXTRA = "play"


def front_end_modules() -> frozenset[str]:
    """The top-level modules the extra ``play`` installs, read from the installed metadata (so
    that pyproject.toml stays the one list; distribution and module names agree there)."""
    try:
        requires = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return frozenset()
    marker = re.compile(rf"extra\s*==\s*['\"]{FRONT_END_EXTRA}['\"]")
    names = (re.match(r"[A-Za-z0-9_.-]+", req) for req in requires if marker.search(req))
    return frozenset(m.group(0).lower().replace("-", "_") for m in names if m is not None)


def _needs_front_end(missing: str) -> SystemExit:
    """The one-line error of a command line whose extra is not installed (exit status 2)."""
    say = words.words(language.lang())
    sys.stderr.write(f"{say('cli.error')} {say('cli.err.play_extra', missing=missing)}\n")
    return SystemExit(2)


def main(args: list[str] | None = None) -> None:
    """Entry point of the ``ra`` console script (and ``python -m ra.cli``)."""
    try:
        from ra.cli.commands import main as run
    except ModuleNotFoundError as err:
        missing = (err.name or "").partition(".")[0]
        if missing not in front_end_modules():
            raise
        raise _needs_front_end(missing) from None
    run(args)


def __getattr__(name: str) -> object:
    """``ra.cli.app``: the Typer application, imported when asked for."""
    if name == "app":
        from ra.cli.commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
