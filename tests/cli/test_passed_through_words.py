"""Words the command line passes on from the library, in English, Russian and German (issue 41):
a bot spec's reason after the command line's own "… is not a bot spec:", the unknown language,
the bots' names that are not levels, and the errors ``ra serve`` and ``ra arena`` pass on from
``ra.web`` and from Ray — each from the catalogue, its English the library's own text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer

from ra import bots
from ra.arena.ray_backend import check_reachable
from ra.cli import common, language
from ra.table import bot_label
from ra.words import words
from tests.cli.test_languages import ra

LANGS = ("en", "ru", "de")
NOTATION = re.compile(
    r"'[^']*'|`[^`]*`|\[[^]]*\]|\S+://\S*|(?<![\w-])--?[a-z][\w-]*"
    r"|\b(?:MCTS|Ray|SQLite|SMTP|IP|epsilon|rollout|iterations|greedy|random|level|key=value)\b"
    r"|\b(?:easy|medium|hard|expert|master|Connection refused)\b"
)
"""Values quoted as given, code, lists of settings, addresses, options, the names of things and
of settings, and the system's own words (``strerror``): alike in every language."""


def said(lang: str, spec: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``--bots spec`` makes the command line say, in ``lang``."""
    language.choose(lang)
    with pytest.raises(typer.Exit):
        common.check_bots([spec])
    return " ".join(capsys.readouterr().err.split())


def latin(text: str) -> set[str]:
    """Latin words of three letters or more outside notation."""
    return set(re.findall(r"[A-Za-z]{3,}", NOTATION.sub(" ", text)))


SPECS = ["greedy:epsilon=2", "easy:hard", "random:x=1", "mcts:rollout=x9", "mcts:iterations=0", "hard:z"]


def test_a_bot_specs_reason_is_said_in_the_readers_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert said("en", "greedy:epsilon=2", capsys) == (
        "error: --bots: 'greedy:epsilon=2' is not a bot spec: epsilon must be a number from 0 to 1, got 2"
    )
    assert said("ru", "greedy:epsilon=2", capsys) == (
        "ошибка: --bots: 'greedy:epsilon=2' — не описание бота: epsilon — число от 0 до 1, а не 2"
    )
    assert said("de", "easy:hard", capsys) == (
        "Fehler: --bots: 'easy:hard' ist keine Bot-Angabe: 'easy' ist schon eine Stufe; "
        "zu level='hard' gehört ein Bot-Name"
    )
    for spec in SPECS:
        english, russian, german = (said(lang, spec, capsys) for lang in LANGS)
        assert re.search(r"[а-яё]{4,}", russian) and not latin(russian), russian
        reason = english.split(" is not a bot spec: ")[1]
        assert reason not in german and " ist keine Bot-Angabe: " in german, german


def test_the_library_keeps_its_english_and_carries_the_reason() -> None:
    with pytest.raises(bots.BotSpecError) as refused:
        bots.from_spec("mcts:rollout=x9")
    err = refused.value
    assert (
        str(err) == "bad bot spec 'mcts:rollout=x9': MCTS setting rollout must be greedy or random, got 'x9'"
    )
    assert words("en").render(err.why) == str(err) and isinstance(err, ValueError)
    assert words("ru").render(err.reason) == "настройка MCTS rollout — greedy или random, а не 'x9'"
    assert words("de").render(err.reason) == "die MCTS-Einstellung rollout ist greedy oder random, nicht 'x9'"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en_US.UTF-8", "error: --lang: unknown language 'xx'; languages are: en, de, ru"),
        ("ru_RU.UTF-8", "ошибка: --lang: нет языка 'xx'; языки: en, de, ru"),
        ("de_DE.UTF-8", "Fehler: --lang: unbekannte Sprache 'xx'; Sprachen sind: en, de, ru"),
    ],
)
def test_an_unknown_language_is_said_in_the_environments(lang: str, expected: str) -> None:
    done = ra("--lang", "xx", "rules", env={"LANG": lang})
    assert done.returncode == 2 and done.stderr.strip() == expected


def test_every_bot_has_a_name_in_every_language() -> None:
    specs = ("random", "greedy:epsilon=0.1", "mcts:iterations=50", "advisor", "openspiel-mcts")
    names = {lang: [bot_label(spec, lang=lang) for spec in specs] for lang in LANGS}
    assert names["en"] == ["Random bot", "Greedy bot", "MCTS bot", "Advisor bot", "openspiel-mcts bot"]
    assert names["ru"] == [
        "Бот (случайный)",
        "Бот (жадный)",
        "Бот (MCTS)",
        "Бот (советчик)",
        "Бот (openspiel-mcts)",
    ]
    assert names["de"] == [
        "Bot (Zufall)",
        "Bot (gierig)",
        "Bot (MCTS)",
        "Bot (Berater)",
        "Bot (openspiel-mcts)",
    ]
    assert bot_label("random", {"Бот (случайный)"}, "ru") == "Бот (случайный) 2"


def passed_on() -> list[Exception]:
    """The errors ``ra serve`` and ``ra arena`` pass on: a database URL, a proxy's network, an
    SMTP URL, a Ray cluster nobody listens at."""
    from ra.web.db import check_url
    from ra.web.mail import parse_smtp
    from ra.web.security import parse_networks

    found: list[Exception] = []
    for check in (
        lambda: check_url("mysql://db/ra"),
        lambda: check_url("sqlite://"),
        lambda: parse_networks("nginx"),
        lambda: parse_smtp("http://mail"),
        lambda: parse_smtp("smtp://mail:port"),
        lambda: check_reachable("127.0.0.1:9", timeout=2),
    ):
        with pytest.raises((ValueError, ConnectionError)) as refused:
            check()
        found.append(refused.value)
    return found


def test_the_errors_serve_and_arena_pass_on_are_said_in_every_language() -> None:
    errors = passed_on()
    for err in errors:
        assert str(err) == words("en").render(err.why)  # type: ignore[attr-defined]
    language.choose("ru")
    russian = [common.error_text(err) for err in errors]
    assert (
        russian[0]
        == "база данных 'mysql' не поддерживается: укажите sqlite:///FILE или postgresql+psycopg://..."
    )
    language.choose("de")
    german = [common.error_text(err) for err in errors]
    assert german[2] == "'nginx' ist weder eine IP-Adresse noch ein Netz (wie 10.0.0.0/8)"
    for text in russian:
        assert re.search(r"[а-яё]{4,}", text) and not latin(text), text
    for text, english in zip(german, errors, strict=True):
        assert text != str(english)


CLI_PASSED_ON = [
    ["serve", "--db", "mysql://db/ra"],
    ["serve", "--forwarded-allow-ips", "nginx"],
    ["serve", "--smtp", "http://mail"],
]


@pytest.mark.slow  # two processes each, importing the server
@pytest.mark.parametrize("args", CLI_PASSED_ON, ids=" ".join)
def test_ra_serve_says_what_it_passes_on_in_german(args: list[str]) -> None:
    done = ra("--lang", "de", *args)
    assert done.returncode == 2
    english = ra(*args).stderr.removeprefix("error: ")
    assert done.stderr.startswith("Fehler: ") and english not in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("content", "russian", "german"),
    [
        ("{", "это не текст JSON", "kein JSON-Text"),
        ('{"format": "x"}', "это не файл ra-learn", "keine ra-learn-Datei"),
        (
            '{"format": "ra-learn", "chapter": "unrest", "made": ["ra", "x"]}',
            "ход 2 ('x') не принимается в главе «Бедствия: Смута»",
            "Zug 2 ('x') gilt im Kapitel „Katastrophen: Unruhen“ nicht",
        ),
    ],
)
def test_a_damaged_guided_game_is_said_in_the_readers_language(
    tmp_path: Path, content: str, russian: str, german: str
) -> None:
    """``ra learn`` over a damaged progress file: why it starts again, in the reader's words."""
    from ra.learn import load_chapters
    from ra.tui.learn import load_progress

    path = tmp_path / "learn.json"
    path.write_text(content)
    with pytest.raises(ValueError) as refused:
        load_progress(path, load_chapters())
    for lang, expected in (("ru", russian), ("de", german)):
        language.choose(lang)
        assert common.error_text(refused.value) == expected
