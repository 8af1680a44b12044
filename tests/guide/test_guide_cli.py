"""The strategy guide: its text in every language and ``ra guide`` in the terminal."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from ra.cli import app
from ra.guide import guide_text, sections

SECTION = re.compile(r"^## ", re.MULTILINE)
POSITION = re.compile(r"<!-- position: (\w+) -->")
TRANSLATIONS = ("ru", "de")
"""The languages the guide is translated into, each paired with the English section by section."""


def test_english_guide_has_at_least_4000_words() -> None:
    assert len(guide_text("en").split()) >= 4000


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_both_languages_have_the_same_sections_and_positions(lang: str) -> None:
    en, translated = guide_text("en"), guide_text(lang)
    assert translated != en  # the translation itself, not the English fallback
    assert len(SECTION.findall(en)) == len(SECTION.findall(translated)) == 11
    assert POSITION.findall(en) == POSITION.findall(translated)
    assert len(POSITION.findall(en)) == 11


def test_russian_guide_uses_the_glossary_terms() -> None:
    ru = guide_text("ru")
    assert "трек Ра" in ru and "аукционном ряду" in ru and "диск" in ru
    assert "солнце" not in ru.lower() and "тайл" not in ru


def test_german_guide_uses_the_glossary_terms() -> None:
    de = guide_text("de")
    assert "Ra-Leiste" in de and "Versteigerungsleiste" in de and "Plättchen" in de and "Sonne" in de
    assert "Götterplättchen" in de and "Überschwemmung" in de and "Ra anrufen" in de
    assert "Kachel" not in de and "Token" not in de and "Scheibe" not in de


def test_ra_guide_prints_russian_without_position_markers() -> None:
    result = CliRunner().invoke(app, ["guide", "--lang", "ru", "--plain"])
    assert result.exit_code == 0, result.output
    assert "# Ра — руководство по стратегии" in result.output
    assert "## Игра вдвоём" in result.output
    assert "<!--" not in result.output
    assert result.output.count("Оценки советника:") == 11  # each position with its numbers
    assert "★" in result.output
    assert "В ряду бедствие: кому оно вредит" in result.output  # each position says what it shows
    assert "guide.caption" not in result.output
    assert "Аукцион [Фараон][Пирамида][Похороны]" in result.output  # drawn by the terminal game


def test_ra_guide_prints_english() -> None:
    result = CliRunner().invoke(app, ["guide", "--lang", "en", "--plain"])
    assert result.exit_code == 0, result.output
    assert "## When to invoke Ra" in result.output


def test_unknown_language_is_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["guide", "--lang", "xx", "--plain"])
    assert result.exit_code != 0
    assert "unknown language 'xx'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("lang", "heading"), [("ru", "Когда воззвать к Ра"), ("de", "Wann du Ra anrufst")], ids=TRANSLATIONS
)
def test_sections_share_anchors_in_both_languages(lang: str, heading: str) -> None:
    _, _, en = sections(guide_text("en"))
    _, _, translated = sections(guide_text(lang))
    assert [s.anchor for s in en] == [s.anchor for s in translated]
    assert [s.positions for s in en] == [s.positions for s in translated]
    assert en[1].heading == "When to invoke Ra" and translated[1].heading == heading
    assert all(s.positions for s in en)
