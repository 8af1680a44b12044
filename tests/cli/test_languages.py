"""The command line in every language (issue 19): ``--lang`` anywhere, else the environment;
help texts, Typer's own words, errors and ``ra rules`` from the catalogue.  Run as real
processes: help texts are written when the commands are defined."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PLAYER_COMMANDS = [
    ["--help"],
    ["play", "--help"],
    ["replay", "--help"],
    ["games", "--help"],
    ["rules", "--help"],
    ["learn", "--help"],
    ["guide", "--help"],
    ["puzzle", "--help"],
    ["analyze", "--help"],
    ["serve", "--help"],
    ["arena", "--help"],
    ["demo", "--help"],
    ["docs", "--help"],
    ["admin", "--help"],
    ["admin", "hide", "--help"],
]
"""Every command's help (issue 41)."""

NOTATION = re.compile(
    r"\S+://\S+|\b[\w.]+\.example\.org\b"  # addresses first
    r"|(?<![\w-])--?[a-z][\w-]*"  # options: --players, -p
    r"|\[(?:\d+<=)?x(?:<=|>=)\d+\]"  # ranges: [1<=x<=64], [x>=1] (metavars and types are translated)
    r"|\bra(?: [a-z]+)?\b|\b(?:easy|medium|hard|expert|master|standard|long-2p|immediate|original)\b"
    r"|\bMCTS\b|\bJSON\b|\bHTML\b|\bSVG\b|\bLANGUAGE\b|\bLC_ALL\b|\bLC_MESSAGES\b|\bLANG\b"
    r"|\b(?:en|ru|en-XA|en_XA)\b|\b(?:End|Ctrl|Ctrl-C|q|h)\b|R\d+(?:[.-]R?\d+)?"
    r"|\b(?:play|replay|games|rules|analyze|arena|serve|docs|demo|admin|learn|guide|puzzle)\b"
    r"|\b(?:reports|hide|dismiss)\b"  # ra admin's commands
    r"|\b(?:process|ray|text|json|critical|error|warning|info|debug|uvicorn|nginx|cluster)\b"
    r"|\bX-Forwarded-\w+|\bPostgreSQL\b|\bSQLite\b|\bRay\b|\bWebSocket\b|\bmetrics\b"
    r"|\blocalhost\b|\bhost:port\b|\bhost\b|\bport\b|\bRA_[A-Z_]+\b|\bSMTP\b|\bTLS\b|\bsmtps?://"
    r"|\b\d+s\b|\borigin\b|\b(?:bidding|invoking|gods|disasters|end_of_epoch)\b"
    r"|\b(?:[A-Za-z_]+\.(?:json|md|html))\b"
    r"|\bMkDocs\b|\bdocs/|\bmcts:[\w=:]+|\b(?:random|greedy|mcts|openspiel-mcts|rl)\b|\bOpenSkill\b|\bSIGTERM\b|\bPython\b"
)
"""What is the same in every language: options, metavars, commands, values typed as given,
names of formats and variables, language codes, keys and rule numbers."""


def ra(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    environ.update({"COLUMNS": "100", "NO_COLOR": "1", **(env or {})})
    return subprocess.run(
        [sys.executable, "-c", "from ra.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
        check=False,
    )


def words_left(text: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, NOTATION.sub(" ", text)))


@pytest.mark.parametrize("args", PLAYER_COMMANDS, ids=" ".join)
def test_help_in_the_pseudo_locale_has_no_plain_english(args: list[str]) -> None:
    done = ra("--lang", "en-XA", *args)
    assert done.returncode == 0, done.stderr
    assert not words_left(done.stdout, r"[A-Za-z]{3,}"), done.stdout


@pytest.mark.parametrize("args", PLAYER_COMMANDS, ids=" ".join)
def test_help_in_russian_from_the_environment(args: list[str]) -> None:
    done = ra(*args, env={"LANG": "ru_RU.UTF-8"})
    assert done.returncode == 0, done.stderr
    assert re.search(r"[а-яё]{4,}", done.stdout)
    assert not words_left(done.stdout, r"[A-Za-z]{3,}"), done.stdout


def test_lang_after_the_command_and_errors_in_russian() -> None:
    done = ra("play", "--lang", "ru", "--delay", "-1")
    assert done.returncode == 2
    assert done.stderr.strip() == "ошибка: --delay не может быть отрицательным"
    unknown = ra("rules", "--lang", "xx")
    assert unknown.returncode == 2
    assert "unknown language 'xx'; languages are: en, de, ru" in unknown.stderr


def test_the_rules_in_russian_and_in_the_pseudo_locale() -> None:
    ru = ra("--lang", "ru", "rules", "--plain")
    assert ru.returncode == 0 and ru.stdout.startswith("# Ра — правила")
    xa = ra("--lang", "en-XA", "rules", "--plain")
    assert xa.returncode == 0
    prose = re.sub(r"`[^`]*`", " ", xa.stdout)  # code spans are notation: kept as they are
    assert not words_left(prose, r"[A-Za-z]{3,}")
    assert "`ra rules`" in xa.stdout
    assert "R4.3" in xa.stdout


def test_the_check_finds_english() -> None:
    """The checks above can fail: plain English is found, Typer's own words too."""
    assert words_left(
        "[Ţĥé] ra play [OPTIONS] FILE --players <int range> [1<=x<=5] Show this", r"[A-Za-z]{3,}"
    ) == {
        "OPTIONS",
        "FILE",
        "int",
        "range",
        "Show",
        "this",
    }


def test_setup_errors_name_the_option_in_the_chosen_language() -> None:
    ru = ra("--lang", "ru", "play", "-p", "3", "--variant", "long-2p")
    assert ru.returncode == 2
    assert ru.stderr.strip() == "ошибка: --players: вариант long-2p — для 2 игроков, а не для 3 (R2.3)"
    en = ra("play", "-p", "7")
    assert en.stderr.strip() == "error: --players: Ra is for 2 to 5 players, not 7 (R2.1)"


def test_a_file_that_is_no_game_is_named_in_the_chosen_language(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    ru = ra("--lang", "ru", "replay", str(bad))
    assert ru.returncode == 2
    assert ru.stderr.startswith(f"ошибка: «{bad}» — не запись партии: ")  # then the parser's detail
    en = ra("replay", str(bad))
    assert en.stderr.startswith(f"error: '{bad}' is not a game record: ")


def test_clicks_own_words_are_ours_whichever_module_of_the_command_line_is_imported_first() -> None:
    """``ra.cli`` answers Click's gettext calls as it is imported, so a command's module imported
    first (as a test or a program may: it imports Typer and Click) leaves them in our words."""
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    environ["LANG"] = "de_DE.UTF-8"
    code = "from ra.cli.arena import arena_command\nfrom ra.cli import main\nmain(['repla'])"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=120, check=False
    )
    assert done.returncode == 2
    assert "Unbekannter Befehl 'repla'" in done.stderr
    assert "No such command" not in done.stderr
