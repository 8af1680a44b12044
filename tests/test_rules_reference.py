"""The rules reference in three languages: ``src/ra/data/rules.md`` and its Russian and German
translations ``rules.ru.md`` and ``rules.de.md`` beside it have the same sections (R1 … R10) in the
same order, each citing the same sections, with parallel tables and lists, so that a program can
pair them section by section; each translation is written in its language; all end with the edition
notes; and every section the game's messages or the specification (``RULES.md``, when this checkout
sits beside it) cite is in all of them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "ra" / "data"
ENGLISH = DATA / "rules.md"
RUSSIAN = DATA / "rules.ru.md"
GERMAN = DATA / "rules.de.md"
TRANSLATIONS = [RUSSIAN, GERMAN]
"""The translations, each paired with the English section by section."""
TRANSLATION_IDS = ["rules.ru.md", "rules.de.md"]
SPEC = Path(os.environ.get("RA_RULES_SPEC", ROOT.parent / "shared" / "RULES.md"))
"""The specification the engine implements; it lives outside the repository (``RA_RULES_SPEC``
names another copy), so the test that needs it is skipped when it is not there."""

EDITION_NOTES = {ENGLISH: "Edition notes", RUSSIAN: "Различия изданий", GERMAN: "Unterschiede der Ausgaben"}
"""The title of the last top-level section, the edition notes, in each file."""
LATIN_SHARE = 0.03
"""At most this share of the Russian file's words (outside code spans and section numbers) may be
in Latin script: it is 0.3% (the names of a publisher, of Python and of a variant), where an untranslated
file would be near 100%."""
LATIN_SHARE_PER_SECTION = 0.10
"""The same for each top-level section, so that one section left in English fails too."""
ENGLISH_SHARE = 0.03
"""German is written in Latin script too, so for the German file the same limits count English
function words ("the", "and", "of" …) among the English and German ones ("der", "und", "von" …)."""
ENGLISH_SHARE_PER_SECTION = 0.10
ENGLISH_WORDS = frozenset(
    {"the", "and", "of", "to", "is", "are", "with", "when", "that", "which", "you", "your", "for", "not"}
    | {"this", "each", "every", "they", "their", "it", "its"}
)
GERMAN_WORDS = frozenset(
    {"der", "die", "das", "und", "ist", "sind", "mit", "wenn", "dass", "nicht", "du", "dein", "deine"}
    | {"ein", "eine", "einer", "den", "dem", "des", "zu", "auf", "von", "für", "jede", "jeder"}
)

SECTION = re.compile(r"^(?:## (?P<top>R\d+) |(?P<rule>R\d+\.\d+) )", re.M)
CITATION = re.compile(r"\bR\d+(?:\.\d+)?\b")
CODE_SPAN = re.compile(r"`[^`\n]*`")
WORD = re.compile(r"[^\W\d_]+")
LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]+")
CYRILLIC = re.compile(r"[\u0400-\u04ff]+")


def section_numbers(text: str) -> list[str]:
    """The numbers of the sections a rules text defines, in order: ``R1``, ``R1.1``, …"""
    return [match["top"] or match["rule"] for match in SECTION.finditer(text)]


def sections(text: str) -> dict[str, str]:
    """Each section's text by its number (a top-level section: its heading line only)."""
    matches = list(SECTION.finditer(text))
    ends = [m.start() for m in matches[1:]] + [len(text)]
    return {m["top"] or m["rule"]: text[m.start() : end] for m, end in zip(matches, ends, strict=True)}


def top_sections(text: str) -> dict[str, str]:
    """Each top-level section's whole text, with its rules, by its number (``R1`` …)."""
    parts = re.split(r"^(?=## R\d+ )", text, flags=re.M)[1:]
    return {part.split()[1]: part for part in parts}


def citations(section: str) -> set[str]:
    """The section numbers a section's text cites (its own number left out)."""
    return set(CITATION.findall(SECTION.sub("", section)))


def shape(section: str) -> tuple[int, int, list[list[str]]]:
    """What the translation must keep of a section: its number of list items, its number of table
    rows, and the numbers in each table row."""
    lines = section.splitlines()
    items = sum(1 for line in lines if line.startswith("- "))
    rows = [line for line in lines if line.startswith("|") and not set(line) <= set("|-: ")]
    return items, len(rows), [re.findall(r"\d+", row) for row in rows]


def latin_share(text: str) -> float:
    """The share of words in Latin script among the Latin and Cyrillic words of a text, leaving out
    code spans (commands, options) and section numbers."""
    prose = CITATION.sub(" ", CODE_SPAN.sub(" ", text))
    words = WORD.findall(prose)
    latin = sum(1 for word in words if LATIN.fullmatch(word))
    cyrillic = sum(1 for word in words if CYRILLIC.fullmatch(word))
    return latin / max(1, latin + cyrillic)


def english_share(text: str) -> float:
    """The share of English function words among the English and German function words of a text,
    leaving out code spans and section numbers."""
    words = [word.lower() for word in WORD.findall(CITATION.sub(" ", CODE_SPAN.sub(" ", text)))]
    english = sum(1 for word in words if word in ENGLISH_WORDS)
    german = sum(1 for word in words if word in GERMAN_WORDS)
    return english / max(1, english + german)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def pairing_problems(english: str, russian: str) -> list[str]:
    """Why two rules texts cannot be paired section by section (nothing when they can)."""
    if section_numbers(english) != section_numbers(russian):
        missing = [n for n in section_numbers(english) if n not in section_numbers(russian)]
        extra = [n for n in section_numbers(russian) if n not in section_numbers(english)]
        return [f"the sections differ: missing {missing}, extra {extra} (or out of order)"]
    problems = []
    ru = sections(russian)
    for number, text in sections(english).items():
        if citations(text) != citations(ru[number]):
            cited, translated = sorted(citations(text)), sorted(citations(ru[number]))
            problems.append(f"{number} cites {cited}, its translation {translated}")
        if shape(text) != shape(ru[number]):
            problems.append(f"{number}: lists or tables differ: {shape(text)} != {shape(ru[number])}")
    return problems


@pytest.mark.parametrize("translation", TRANSLATIONS, ids=TRANSLATION_IDS)
def test_both_files_have_the_same_sections_in_the_same_order(translation: Path) -> None:
    english, translated = section_numbers(read(ENGLISH)), section_numbers(read(translation))
    assert len(english) >= 40 and len(set(english)) == len(english)
    assert translated == english


@pytest.mark.parametrize("translation", TRANSLATIONS, ids=TRANSLATION_IDS)
def test_each_section_is_translated_in_parallel(translation: Path) -> None:
    assert pairing_problems(read(ENGLISH), read(translation)) == []


def test_the_sections_the_specification_numbers_and_rules_md_cites_are_in_all() -> None:
    if not SPEC.is_file():
        pytest.skip(f"the specification is not at {SPEC} (set RA_RULES_SPEC)")
    specified = set(section_numbers(read(SPEC)))
    english = read(ENGLISH)
    cited = (set(section_numbers(english)) | citations(english)) & specified
    assert len(cited) >= 40
    assert cited <= set(section_numbers(english))
    for translation in TRANSLATIONS:
        assert cited <= set(section_numbers(read(translation))), translation.name


def test_the_sections_the_game_cites_are_in_all() -> None:
    cited = {
        match
        for path in (ROOT / "src" / "ra").rglob("*.py")
        for match in re.findall(r"\((R\d+(?:\.\d+)?)", path.read_text(encoding="utf-8"))
    }
    assert len(cited) >= 20
    for path in (ENGLISH, *TRANSLATIONS):
        assert cited <= set(section_numbers(read(path))), path.name


def test_the_russian_file_is_in_russian() -> None:
    text = read(RUSSIAN)
    assert latin_share(text) <= LATIN_SHARE
    for number, section in top_sections(text).items():
        assert latin_share(section) <= LATIN_SHARE_PER_SECTION, number
    assert len(WORD.findall(text)) >= 0.9 * len(WORD.findall(read(ENGLISH)))  # nothing left out


def test_the_german_file_is_in_german() -> None:
    text = read(GERMAN)
    assert english_share(text) <= ENGLISH_SHARE
    for number, section in top_sections(text).items():
        assert english_share(section) <= ENGLISH_SHARE_PER_SECTION, number
    assert len(WORD.findall(text)) >= 0.9 * len(WORD.findall(read(ENGLISH)))  # nothing left out


def test_the_german_file_uses_german_typography() -> None:
    prose = CODE_SPAN.sub(" ", read(GERMAN))
    assert '"' not in prose and "'" not in prose, "quotes are „ “ in German"
    assert " - " not in prose and "—" not in prose, "a dash is an en dash (–) in German"
    assert prose.count("„") == prose.count("“") > 5 and prose.count(" – ") > 10


def test_the_russian_file_uses_russian_typography() -> None:
    prose = CODE_SPAN.sub(" ", read(RUSSIAN))
    assert '"' not in prose and "'" not in prose, "quotes are « » in Russian"
    assert " - " not in prose, "a dash is an em dash (—) in Russian"
    assert prose.count("«") == prose.count("»") > 10 and prose.count(" — ") > 10


@pytest.mark.parametrize("path", [ENGLISH, *TRANSLATIONS], ids=["rules.md", *TRANSLATION_IDS])
def test_every_file_ends_with_the_edition_notes(path: Path) -> None:
    text = read(path)
    last_number, last = list(top_sections(text).items())[-1]
    assert last_number == "R10" and last.startswith(f"## R10 {EDITION_NOTES[path]}\n")
    for year in ("2008", "2016", "2023"):
        assert year in last
    assert "2008 disaster timing" in last  # the variant's name, untranslated
    rulings = [line for line in last.splitlines() if line.startswith("- R")]
    assert len(rulings) >= 5, "the list of our rulings, each by its section"


def test_the_checks_refuse_a_broken_translation() -> None:
    english, russian = read(ENGLISH), read(RUSSIAN)
    rules = sections(russian)
    without_a_rule = russian.replace(rules["R4.3"], "")
    assert section_numbers(without_a_rule) != section_numbers(english)
    assert pairing_problems(english, without_a_rule)
    renumbered = russian.replace("\nR7.4 ", "\nR7.5 ")
    assert pairing_problems(english, renumbered)
    without_citation = russian.replace(rules["R4.6"], rules["R4.6"].replace("(R6)", ""))
    expected = "R4.6 cites ['R3.1', 'R6'], its translation ['R3.1']"
    assert pairing_problems(english, without_citation) == [expected]
    without_item = russian.replace(rules["R5.2"], rules["R5.2"].replace("\n- Засуха", " Засуха"))
    assert pairing_problems(english, without_item)
    wrong_table = russian.replace("| 3 | 13 8 5 2 ", "| 3 | 13 8 6 2 ")
    assert pairing_problems(english, wrong_table)
    assert latin_share(english) > 0.9
    left_in_english = russian.replace(top_sections(russian)["R8"], top_sections(english)["R8"])
    assert latin_share(top_sections(left_in_english)["R8"]) > LATIN_SHARE_PER_SECTION


def test_the_checks_refuse_a_broken_german_translation() -> None:
    english, german = read(ENGLISH), read(GERMAN)
    rules = sections(german)
    assert pairing_problems(english, german.replace(rules["R4.3"], ""))
    without_citation = german.replace(rules["R4.6"], rules["R4.6"].replace("(R6)", ""))
    expected = "R4.6 cites ['R3.1', 'R6'], its translation ['R3.1']"
    assert pairing_problems(english, without_citation) == [expected]
    without_item = german.replace(rules["R5.2"], rules["R5.2"].replace("\n- Dürre", " Dürre"))
    assert pairing_problems(english, without_item)
    assert english_share(english) > 0.9
    left_in_english = german.replace(top_sections(german)["R8"], top_sections(english)["R8"])
    assert english_share(top_sections(left_in_english)["R8"]) > ENGLISH_SHARE_PER_SECTION
