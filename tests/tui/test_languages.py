"""The terminal game in every language: a whole game and its replay, every screen's words from
the catalogue.  In Russian no Latin word may be left; in the pseudo-locale ``en_XA`` (English
with every letter accented) any plain English word of three letters or more is a string that
bypassed the catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown

import ra
from ra.tui import PlayApp, ReplayApp, Session, plan_seats
from ra.tui.pages import TextScreen
from ra.tui.render import code
from ra.words import catalogue, words
from ra.words import source as words_source
from tests.tui.test_app import first_keys, run, screen_text, settle, type_text

NOTATION = frozenset(
    {
        # Keys as printed on keyboards (the footer shows single letters: d, r, q …).
        *("Enter", "Esc", "PgUp", "PgDn", "Ctrl", "home", "end"),
        # Commands of the command line (ra rules, ra play --hints …).
        *("ra", "rules", "play", "hints", "open", "scores", "resume"),
        # The typed action notation, the engine's (draw, bid 9, god gold, discard art).
        *("draw", "pass", "done", "bid", "god", "gold", "discard", "art"),
    }
)
"""The Latin words the terminal may show in any language: notation, not words of a language."""

TYPO = "fly away"
"""An action typed wrong: the refusal quotes it."""

RULE = re.compile(r"\bR\d+(?:\.\d+)?\b")
"""Rule numbers (R4.2), cited in every language."""


def foreign_words(text: str, pattern: str) -> set[str]:
    """The words matching ``pattern`` (Latin letters) that are not notation, rule numbers, single
    letters (keys: the footer's ``d``, ``q`` …) or the typo the test typed."""
    words_ = re.findall(pattern, RULE.sub(" ", text).replace(TYPO, " "))
    return {m for m in words_ if m not in NOTATION and len(m) > 1}  # single letters: keys


async def collect_a_whole_game(pilot: Pilot[None], app: PlayApp, screens: list[str]) -> None:
    """Play as the first offered action to the end, capturing every screen on the way; on the
    first turn also the refusals, messages and the help screen (its whole page)."""
    await settle(pilot, app)
    screens.append(screen_text(app))
    for keys in (["u"], ["plus"], ["minus"], ["f"]):  # undo refused, pace, fast-forward (your move)
        await pilot.press(*keys)
        await pilot.pause()
        screens.append(screen_text(app))
    for typed in (TYPO, "bid 99", "god gold", "draw", "pass"):
        await type_text(pilot, typed)
        screens.append(screen_text(app))
    await pilot.press("slash")
    await pilot.pause()
    screens.append(screen_text(app))  # the command line's placeholder
    await pilot.press("escape")
    await pilot.press("question_mark")
    await pilot.pause()
    assert isinstance(app.screen, TextScreen)
    screens.append(screen_text(app))
    screens.append(app.screen.query_one(Markdown).source)
    await pilot.press("escape")
    await pilot.pause()
    for _ in range(3000):
        await settle(pilot, app)
        screens.append(screen_text(app))
        screen: object = app.screen
        if isinstance(screen, TextScreen):
            await pilot.press("enter")
            await pilot.pause()
            continue
        if app.session.game.is_over():
            return
        await pilot.press(*first_keys(app))
    raise AssertionError("the game did not end")


def play_and_replay(tmp_path: Path, lang: str, edition: str) -> tuple[list[str], ra.Game]:
    seats = plan_seats(3, [], ["easy", "easy"], None, lang)
    s = Session.new(seats, seed=7, save_path=tmp_path / "s.json")
    app = PlayApp(s, delay=0, edition=edition, lang=lang)
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await collect_a_whole_game(pilot, app, screens)

    run(app, script)
    game = s.game
    assert game.is_over()
    replay = ReplayApp(game, edition=edition, lang=lang)

    async def steps(pilot: Pilot[None]) -> None:
        screens.append(screen_text(replay))
        for key in ("right", "right", "right_square_bracket", "end"):
            await pilot.press(key)
            await pilot.pause()
            screens.append(screen_text(replay))

    run(replay, steps)
    return screens, game


@pytest.mark.slow  # a whole game through the screen, about half a minute
def test_a_whole_game_in_russian_has_no_english_left(tmp_path: Path) -> None:
    """The original edition (the 2023 edition's words are walked in the pseudo-locale below, and
    every message has its Russian: ``tools.catalogue check``)."""
    edition = "original"
    screens, game = play_and_replay(tmp_path, "ru", edition)
    assert game.names[0] == "Вы" and game.names[1] == "Бот (лёгкий)"
    text = "\n".join(screens)
    for needle in ("Эпоха", "Аукцион", "Вы тянете", "Клавиши", "Игра окончена"):
        assert needle in text, needle
    assert "сейчас невозможен" in text  # the engine's refusal, in Russian
    assert code(ra.Tile.PYRAMID, edition, "ru") != code(ra.Tile.WRITING, edition, "ru")
    left = foreign_words(text, r"[A-Za-z]+")
    assert not left, f"Latin words on a Russian screen: {sorted(left)}"


@pytest.mark.slow  # a whole game through the screen, about a minute
def test_a_whole_game_in_the_pseudo_locale_has_no_plain_english(tmp_path: Path) -> None:
    screens, game = play_and_replay(tmp_path, "en_XA", "2023")
    assert game.names[0] == words("en_XA")("player.you")
    left = foreign_words("\n".join(screens), r"[A-Za-z]{3,}")
    assert not left, f"strings that bypassed the catalogue: {sorted(left)}"


def english_left(text: str) -> set[str]:
    """The words of a German screen that are English: words of the catalogue's English that no
    German message uses (German and English share many: Ra, Gold, Bot, Sphinx …)."""

    def vocabulary(texts: list[str]) -> set[str]:
        return {m.lower() for t in texts for m in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", t)}

    source = words_source()
    german = catalogue("de")
    english = vocabulary([t for e in source.values() for t in (e.singular, e.plural or "")])
    deutsch = vocabulary([f for forms in german.forms.values() for f in forms])
    shown = vocabulary([RULE.sub(" ", text).replace(TYPO, " ")])
    return (shown & english) - deutsch - {n.lower() for n in NOTATION}


@pytest.mark.slow  # a whole game through the screen, about a minute
def test_a_whole_game_in_german_has_no_english_left(tmp_path: Path) -> None:
    """Issue 41: ``ra play --lang de`` from the first move to the final table and its replay,
    with the help page, the refusals and the notes: no word of the English catalogue that
    German does not use too."""
    screens, game = play_and_replay(tmp_path, "de", "2016")
    assert game.names[0] == "Du" and game.names[1] == "Bot (leicht)"
    text = "\n".join(screens)
    for needle in ("Epoche", "Versteigerung", "Du ziehst", "Tasten", "Spielende"):
        assert needle in text, needle
    left = english_left(text)
    assert not left, f"English words on a German screen: {sorted(left)}"


def test_the_check_for_english_on_a_german_screen_finds_it() -> None:
    assert english_left("Epoche 1/3  Du ziehst: Gold. Your turn: draw") == {"your", "turn"}


def test_seat_planning_speaks_the_language() -> None:
    seats = plan_seats(4, [], ["hard", "hard", "easy"], None, "ru")
    assert [s.name for s in seats] == ["Вы", "Бот (сильный)", "Бот (сильный) 2", "Бот (лёгкий)"]
    with pytest.raises(ValueError) as refused:
        plan_seats(2, [], ["hard", "hard"], None, "ru")
    assert str(refused.value) == "2 бота, но после людей (1 человек) для ботов остаётся 1 место"
    assert [s.name for s in plan_seats(2, [], ["hard"])] == ["You", "Hard bot"]


def test_a_save_is_named_after_its_players_in_any_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ra.tui import session

    monkeypatch.setattr(session, "games_dir", lambda: tmp_path)
    path = session.default_save_path(["Вы", "Бот (лёгкий) 2", "Ann Lee"])
    assert path.name.endswith("-вы-ботлёгкий2-annlee.json") and path.parent == tmp_path
