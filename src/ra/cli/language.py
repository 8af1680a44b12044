"""The command line's language, chosen before anything is printed.

``--lang`` may stand anywhere on the command line (``ra play --lang ru``); without it the
environment decides (``ra.words.choose``).  Help texts are written when the commands are
defined, so the language is read from ``sys.argv`` as this module is imported, before the
command modules are.

Typer and Click print their own words too ("Usage:", "Options", "No such option …").
Some they ask the standard library's ``gettext`` for, so :func:`install` answers those calls
from our catalogue (its ``click.*`` messages, keyed by Click's English) — it must run before
Typer and Click are imported, which ``ra.cli`` does first.  The rest Typer writes in English
without asking: the usage line's metavars (``[OPTIONS] COMMAND [ARGS]...``) and the value types
(``<int>``) are put in ours by :func:`localize_typer`, and its errors are rebuilt from what
they carry by :func:`usage_error` (``cli.metavar.*``, ``cli.type.*``, ``cli.usage.*``).
"""

from __future__ import annotations

import gettext
import re
import sys
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final

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
        prefix = help_text("click.usage") + " " if prefix is None else prefix
        write_usage(self, prog, usage_args(args, help_text), prefix)

    get_help_option = core.Command.get_help_option

    def help_option(self: core.Command, ctx: core.Context) -> core.Parameter | None:
        option = get_help_option(self, ctx)
        if option is not None:
            option.help = help_text("click.help")
        return option

    formatting.HelpFormatter.write_usage = usage  # type: ignore[method-assign]
    core.Command.get_help_option = help_option  # type: ignore[method-assign, assignment]
    _localize_types(help_text)


def usage_args(args: str, help_text: Callable[[str], str]) -> str:
    """The usage line's metavars in the reader's language: ``[OPTIONS] COMMAND [ARGS]...``
    (Typer writes them in English, without ``gettext``).

    >>> usage_args("[OPTIONS] COMMAND [ARGS]...", lambda key: key.rsplit(".", 1)[-1].upper() + "!")
    '[OPTIONS!] COMMAND! [ARGS!]...'
    """
    return " ".join(
        USAGE_PIECES[piece][1].format(help_text(USAGE_PIECES[piece][0])) if piece in USAGE_PIECES else piece
        for piece in args.split(" ")
    )


USAGE_PIECES: Final = {
    "[OPTIONS]": ("cli.metavar.options", "[{}]"),
    "COMMAND": ("cli.metavar.command", "{}"),
    "[ARGS]...": ("cli.metavar.args", "[{}]..."),
}
"""Typer's metavars of the usage line: each one's message and how it is written."""


TYPE_WORDS: Final = ("int", "str", "float", "path", "bool", "file", "datetime")
"""The value types Typer names in help (``<int>``), each a ``cli.type.*`` message."""


def type_label(label: str, help_text: Callable[[str], str]) -> str:
    """A value type as Typer shows it (``<int>``, ``<int range>``, ``<list[str]>``) in the
    reader's language; anything else (choices: ``<a|b>``) as it is.

    >>> german = {"cli.type.list": "Liste: {item}", "cli.type.int": "Ganzzahl"}
    >>> type_label("<list[int]>", german.__getitem__), type_label("<a|b>", german.__getitem__)
    ('<Liste: Ganzzahl>', '<a|b>')
    """
    inner = label[1:-1] if label.startswith("<") and label.endswith(">") else label
    words = _type_words(inner, help_text)
    if words is None:
        return label
    return f"<{words}>" if label.startswith("<") else words


def _type_words(inner: str, help_text: Callable[[str], str]) -> str | None:
    if inner in TYPE_WORDS:
        return help_text(f"cli.type.{inner}")
    ranged = re.fullmatch(r"(int|float) range", inner)
    if ranged:
        return help_text(f"cli.type.{ranged.group(1)}_range")
    listed = re.fullmatch(r"list\[(.+)\]", inner)
    if listed:
        item = _type_words(listed.group(1), help_text)
        return None if item is None else help_text("cli.type.list").replace("{item}", item)
    return None


def _localize_types(help_text: Callable[[str], str]) -> None:
    """Typer names an option's value type in English (``<int>``): give it ours."""
    try:
        from typer import core as typer_core
    except ImportError:  # pragma: no cover - another Typer
        return
    display_type = typer_core._TyperParameter.display_type

    def translated(self: typer_core._TyperParameter, ctx: Any) -> str:
        return type_label(display_type(self, ctx), help_text)

    typer_core._TyperParameter.display_type = translated  # type: ignore[method-assign]


# --- the parser's errors ----------------------------------------------------------------

PYDANTIC_REASONS: Final = {
    "int_parsing": "cli.usage.not_int",
    "int_from_float": "cli.usage.not_int",
    "float_parsing": "cli.usage.not_number",
    "bool_parsing": "cli.usage.not_bool",
    "greater_than_equal": "cli.usage.at_least",
    "greater_than": "cli.usage.above",
    "less_than_equal": "cli.usage.at_most",
    "less_than": "cli.usage.below",
}
"""Why Typer refused a value (the kind of its Pydantic validation error) -> our message."""
LIMITS: Final = frozenset({"cli.usage.at_least", "cli.usage.above", "cli.usage.at_most", "cli.usage.below"})
"""The reasons that name a limit: their value is a number, written as it is."""
EXTRA_ARGUMENTS: Final = re.compile(r"Got unexpected extra argument(?:\(s\)|s)? \((.*)\)$")
SUGGESTED: Final = re.compile(r"(.*)\. Did you mean (.*)\?$", re.DOTALL)
"""Typer's English suggestion after an unknown command ("… Did you mean 'play', 'replay'?")."""


def usage_error(err: Exception, say: Callable[..., str]) -> str:
    """The parser's error (an unknown option, a bad value, a missing argument) in the reader's
    words, ``say`` being :class:`ra.words.Words`: Typer words its own errors in English, without
    ``gettext``, so they are rebuilt from what the exception carries; an error of another kind
    keeps Typer's text."""
    from typer._click import exceptions as errors

    ctx = getattr(err, "ctx", None)
    see = say("cli.usage.see_help", command=ctx.command_path) if ctx is not None else ""
    text = _usage_text(err, errors, say)
    return f"{text} {see}".strip()


def _usage_text(err: Exception, errors: Any, say: Callable[..., str]) -> str:
    if isinstance(err, errors.NoSuchOption):
        text = say("cli.usage.no_such_option", option=err.option_name)
        if err.possibilities:
            text += " " + say("cli.usage.did_you_mean", options=", ".join(sorted(err.possibilities)))
        return text
    if isinstance(err, errors.MissingParameter) and err.param is not None:
        kind = "argument" if err.param.param_type_name == "argument" else "option"
        return say(f"cli.usage.missing_{kind}", name=_param_name(err.param))
    if isinstance(err, errors.BadParameter) and err.param is not None:
        return say("cli.usage.bad_value", name=_param_name(err.param), why=_reason(err, say))
    message = str(getattr(err, "message", "") or err)
    if isinstance(err, errors.BadOptionUsage) and "requires" in message:
        return say("cli.usage.needs_value", option=err.option_name)
    if isinstance(err, errors.BadOptionUsage) and "does not take" in message:
        return say("cli.usage.takes_no_value", option=err.option_name)
    extra = EXTRA_ARGUMENTS.match(message)
    if extra:
        given = extra.group(1)
        return say("cli.usage.extra", n=len(given.split()), args=given)
    suggested = SUGGESTED.match(message)
    if suggested:  # the unknown command is in our words already (click.no_such_command)
        return suggested.group(1) + " " + say("cli.usage.did_you_mean", options=suggested.group(2))
    return err.format_message().rstrip(".") if hasattr(err, "format_message") else str(err)


def _param_name(param: Any) -> str:
    """An option by its long name (``--players``), an argument by its metavar (``FILE``)."""
    if param.param_type_name == "option":
        longs = [o for o in param.opts if o.startswith("--")]
        return str((longs or param.opts)[0])
    return str(param.display_name_raw)


def _reason(err: Exception, say: Callable[..., str]) -> str:
    """Why a value was refused, from Typer's Pydantic validation error."""
    cause = err.__cause__
    problems = cause.errors() if cause is not None and hasattr(cause, "errors") else []
    if not problems:
        return say("cli.usage.invalid_value")
    first = problems[0]
    key = PYDANTIC_REASONS.get(first.get("type", ""))
    if key is None:
        return say("cli.usage.invalid_value")
    value = first.get("input")
    limit = next(iter((first.get("ctx") or {}).values()), "")
    return say(key, value=str(value) if key in LIMITS else repr(value), limit=str(limit))
