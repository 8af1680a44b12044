"""``ra arena``'s report writes its numbers as the reader's language does (issue 41): decimal
commas in German and Russian, the groups of thousands, the sign of a margin; the same report in
English as before, its thousands grouped (a count in a sentence is written as it is)."""

from __future__ import annotations

import io
import re

from rich.console import Console

from ra import arena
from ra.cli import arena_report, language
from ra.words import words

SUMMARY = [
    arena.BotSummary(
        "mcts:hard", 1200, 700.5, 0.58375, 0.5558, 0.6112, 61.25, 7.5, 1234.5, 28.31, 1.07, 25.1
    ),
    arena.BotSummary("greedy", 1200, 499.5, 0.41625, 0.3888, 0.4442, 50.5, -7.5, 0.257, 21.69, 1.07, 18.5),
]
PAIRS = [
    arena.HeadToHead("mcts:hard", "greedy", 2016, 2400, 0.84, 0.825, 0.854),
    arena.HeadToHead("greedy", "mcts:hard", 384, 2400, 0.16, 0.146, 0.175),
]


def report(lang: str, width: int = 160) -> str:
    """The two tables and the closing line as ``ra --lang lang arena`` prints them."""
    language.choose(lang)
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None)
    console.print(arena_report.summary_table(SUMMARY, 3))
    console.print(arena_report.head_to_head_table(PAIRS, SUMMARY))
    console.print(arena_report.done_line(1200, True, 3725.25, 2), highlight=False)
    return out.getvalue()


def test_the_report_writes_numbers_as_each_language_does() -> None:
    en, de, ru = report("en"), report("de"), report("ru")
    for cell in ("1,200", "700.5", "58.4", "56-61", "61.2", "+7.5", "-7.5", "1,234.5", "0.26", "28.3±1.1"):
        assert cell in en, cell
    assert "84.0" in en and "82-85" in en and "1200 games with hidden scores (R9.1) in 3,725.2 s" in en
    for cell in ("1.200", "700,5", "58,4", "61,2", "+7,5", "-7,5", "1.234,5", "0,26", "28,3±1,1", "84,0"):
        assert cell in de, cell
    for cell in ("1\xa0200", "700,5", "58,4", "+7,5", "1\xa0234,5", "0,26", "28,3±1,1", "3\xa0725,2"):
        assert cell in ru, cell
    for text in (de, ru):  # no decimal point is left (German groups thousands with dots: 2.016)
        assert not re.search(r"\d\.\d{1,2}(?!\d)", text.replace("R9.1", "")), text


def test_the_report_fits_80_columns_in_every_language() -> None:
    """Every bot's spec and every number whole at 80 columns (German's headers are the widest;
    with side rules and wide padding the bot column was folded to nothing)."""
    for lang in ("en", "de", "ru"):
        text = report(lang, width=80)
        rows = [line for line in text.splitlines() if line.startswith(("mcts:hard ", "greedy "))]
        assert len(rows) == 4 and all(len(row) <= 80 for row in rows), text
        assert rows[0].split()[-1] == words(lang).number(28.31, 1) + "±" + words(lang).number(1.07, 1), text


def test_a_number_in_every_language() -> None:
    assert [words(lang).number(-1234.56, 1, signed=True) for lang in ("en", "de", "ru")] == [
        "-1,234.6",
        "-1.234,6",
        "-1\xa0234,6",
    ]
    assert words("de").number(2.5, 2, trim=True) == "2,5" and words("en").number(3.0, 2, trim=True) == "3"


def test_ra_arena_prints_this_report() -> None:
    """``ra arena`` itself, in German: its tables are these (two quick random games)."""
    from tests.cli.test_languages import ra

    done = ra("--lang", "de", "arena", "-n", "2", "-p", "2", "-b", "random", "-j", "1", "-q", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "Ergebnisse" in done.stdout and not re.search(
        r"\d\.\d{1,2}(?!\d)", done.stdout.replace("R9.1", "")
    )
