"""The command line's language, chosen before anything is printed.

``--lang`` may stand anywhere on the command line (``ra play --lang ru``); without it the
environment decides (``ra.words.choose``).  Help texts are written when the commands are
defined, so the language is read from ``sys.argv`` as this module is imported, before the
command modules are.

Typer and Click print their own words too ("Usage:", "Options", "No such option …").
They ask the standard library's ``gettext`` for them, so :func:`install` answers those calls
from our catalogue (its ``click.*`` messages, keyed by Click's English) — it must run before
Typer and Click are imported, which ``ra.cli`` does first.
"""

from __future__ import annotations

import gettext
import sys
from collections.abc import Callable, Sequence
from functools import cache

from ra import words as _words
from ra.words import UnknownLanguageError

LANG_OPTION = "--lang"
FRAMEWORK_PREFIX = "click."
"""The catalogue keys of Typer's and Click's own words (their msgid is Click's English)."""


def argv_lang(argv: Sequence[str]) -> str | None:
    """The value of ``--lang X`` / ``--lang=X`` anywhere in a command line, if any."""
    for i, arg in enumerate(argv):
        if arg == LANG_OPTION and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(LANG_OPTION + "="):
            return arg.split("=", 1)[1]
    return None


def without_lang(argv: Sequence[str]) -> list[str]:
    """A command line without its ``--lang`` option (``main`` puts it first, for the root)."""
    out: list[str] = []
    skip = False
    for i, arg in enumerate(argv):
        if skip:
            skip = False
        elif arg == LANG_OPTION and i + 1 < len(argv):
            skip = True
        elif not arg.startswith(LANG_OPTION + "="):
            out.append(arg)
    return out


def _initial() -> str:
    try:
        return _words.choose(argv_lang(sys.argv[1:]))
    except UnknownLanguageError:
        return _words.choose(None)  # main() reports the unknown language


_lang = [_initial()]


def lang() -> str:
    """The command line's language: ``--lang``, else the environment, else English."""
    return _lang[0]


def choose(value: str | None) -> None:
    """Choose the language (raises :class:`ra.words.UnknownLanguageError` for an unknown one)."""
    _lang[0] = _words.choose(value)


@cache
def _framework(language: str) -> dict[tuple[str, str | None], tuple[str, ...]]:
    """Click's English (singular, plural) -> this language's forms."""
    cat = _words.catalogue(language)
    out: dict[tuple[str, str | None], tuple[str, ...]] = {}
    for key, entry in _words.source().items():
        forms = cat.forms.get(key)
        if key.startswith(FRAMEWORK_PREFIX) and forms:
            out[(entry.singular, entry.plural)] = forms
    return out


def _gettext(message: str) -> str:
    if lang() == _words.DEFAULT_LANG:
        return message
    forms = _framework(lang()).get((message, None))
    return forms[0] if forms else message


def _ngettext(msgid1: str, msgid2: str, n: int) -> str:
    forms = None if lang() == _words.DEFAULT_LANG else _framework(lang()).get((msgid1, msgid2))
    if not forms:
        return msgid1 if n == 1 else msgid2
    return forms[min(_words.catalogue(lang()).plural_index(n), len(forms) - 1)]


def install() -> None:
    """Answer Typer's and Click's ``gettext`` calls from the catalogue (before they are imported)."""
    gettext.gettext = _gettext
    gettext.ngettext = _ngettext


def localize_typer(help_text: Callable[[str], str]) -> None:
    """Typer's own copy of Click writes two words without ``gettext``: the "Usage:" prefix and
    the ``--help`` option's help.  Give them ours (private Typer API: if it moves, they stay
    English rather than fail)."""
    try:
        from typer._click import core, formatting
    except ImportError:  # pragma: no cover - another Typer
        return
    write_usage = formatting.HelpFormatter.write_usage

    def usage(self: formatting.HelpFormatter, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, help_text("click.usage") + " " if prefix is None else prefix)

    get_help_option = core.Command.get_help_option

    def help_option(self: core.Command, ctx: core.Context) -> core.Parameter | None:
        option = get_help_option(self, ctx)
        if option is not None:
            option.help = help_text("click.help")
        return option

    formatting.HelpFormatter.write_usage = usage  # type: ignore[method-assign]
    core.Command.get_help_option = help_option  # type: ignore[method-assign, assignment]
