"""What a newcomer tripped over in the terminal (issue 41), in English, Russian and German:
which rules a resumed game plays, and a screen that fits 80×24 and 60×20."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from textual.pilot import Pilot

import ra
from ra.labels import action_label
from ra.tui import PlayApp, Seat, Session, plan_seats
from ra.tui.hints import HIDES as HIDES_MSG
from ra.tui.pages import TextScreen
from ra.tui.render import log_line
from ra.words import catalogue, words
from tests.tui.test_app import screen_text, settle, steady_text
from tests.tui.test_newcomer import run_at

LANGS = ("en", "ru", "de")


def flat(text: str) -> str:
    """Screen text on one line (a wrapped sentence whole)."""
    return " ".join(text.split())


@pytest.mark.parametrize("lang", LANGS)
def test_a_resumed_game_shows_its_rules_in_the_header_and_the_help(tmp_path: Path, lang: str) -> None:
    """After ``--resume`` nobody could tell which rules apply: the header names the edition and
    the 2008 disaster timing, and the help says both first (R1.2, R3.5)."""
    w = words(lang)
    seats = [Seat(name, bot) for name, bot in zip((w("player.you"), "Bob"), (None, "greedy"), strict=True)]
    first = Session.new(seats, seed=3, save_path=tmp_path / "s.json", disaster_timing="2008", edition="2023")
    first.save()
    resumed = Session.load(tmp_path / "s.json", save_path=tmp_path / "s.json")  # what --resume does
    app = PlayApp(resumed, delay=30, edition=resumed.edition, lang=lang)
    seen: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        seen.append(screen_text(app).splitlines()[0])
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        seen.append(flat(screen_text(app)))

    run_at(app, (80, 24), script)
    header, page = seen
    assert w("tui.board.edition", edition="2023") in header and "2008" in header, header
    assert w("tui.help.this_game") in page
    assert flat(w("tui.help.edition.2023"))[:50] in page, page
    assert flat(w("tui.help.timing_2008"))[:50] in page, page


@pytest.mark.parametrize("lang", LANGS)
def test_the_help_says_which_rules_a_plain_game_plays_too(lang: str) -> None:
    from ra.tui.help import help_text

    w = words(lang)
    page = help_text("original", lang)
    assert w("tui.help.edition.original") in page and w("tui.help.timing_immediate") in page
    assert w("tui.help.timing_2008") not in page


def bidding(players: int, seed: int) -> ra.Game:
    """A game played at random until the first seat bids with four suns (five actions)."""
    rng = random.Random(seed)
    names = ["You", "Bob", "Cy", "Di", "Ed"][:players]
    game = ra.Game(names, seed=seed)
    while not (game.to_move == 0 and sum(a.kind == "bid" for a in game.legal_actions()) == 4):
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("lang", LANGS)
def test_five_bids_in_the_hints_panel_leave_the_log_four_lines_at_80x24(tmp_path: Path, lang: str) -> None:
    """The hints panel took the log down to 2 lines at 80×24: four actions or more now go in
    two columns, and every action, its chance and the reason stay on screen."""
    game = bidding(3, seed=4)
    seats = [Seat(n, None if i == 0 else "greedy") for i, n in enumerate(game.names)]
    session = Session(game, seats, tmp_path / "s.json", hints=True)
    app = PlayApp(session, delay=30, hint_budget="20", lang=lang)
    seen: list[str] = []
    panel: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("h")
        for _ in range(600):
            if app.hints.work.result is not None:
                break
            await pilot.pause(0.05)
        assert app.hints.work.result is not None
        seen.append(await steady_text(pilot, app))
        panel.append(str(app.hints.render()))

    run_at(app, (80, 24), script)
    screen = seen[0]
    assert len(screen.splitlines()) == 24
    events = [log_line(e, game.names, lang=lang).plain for e in game.view(0).events]
    shown = flat(screen)
    assert all(flat(text)[:30] in shown for text in events[-4:]), screen  # the log's last four
    labels = [action_label(a, lang=lang) for a in game.legal_actions()]
    assert all(label in screen for label in labels), screen
    assert flat(panel[0])[-30:] in shown, screen  # the end of the reason is not pushed off


def seats_in(lang: str) -> list[Seat]:
    """``ra play``'s default table in ``lang`` (you and two hard bots), played by greedy bots."""
    return [Seat(s.name, None if s.bot is None else "greedy") for s in plan_seats(None, [], [], None, lang)]


QUIT = {"en": "q Quit", "ru": "q Выход", "de": "q Beenden"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_names_bag_and_quit_fit_80x24_and_60x20(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    """At 80 columns "Сильный бот 2" and "Starker Bot 2" were cut ("Сильный бот…") and the key
    bar lost "q Выход"; at 60×20 the bag count and "q Quit" were cut."""
    game = ra.Game([s.name for s in seats_in(lang)], seed=3, disaster_timing="2008")
    app = PlayApp(Session(game, seats_in(lang), tmp_path / "s.json", hints=True), delay=30, lang=lang)
    seen: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        seen.append(await steady_text(pilot, app))

    run_at(app, size, script)
    lines = seen[0].splitlines()
    w = words(lang)
    assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
    assert w("tui.board.bag", n=game.tiles_in_bag) in lines[0], lines[0]
    assert "2008" in lines[0], lines[0]  # the disaster timing (R3.5), however short
    assert QUIT[lang] in lines[-1] and w("tui.key.help") in lines[-1], lines[-1]
    for name in game.names:
        assert any(line.startswith(f"   {name} ") or line.startswith(f" ▶ {name} ") for line in lines[3:7]), (
            name
        )
    assert "…" not in "".join(lines[3:7])


HIDES = {"en": "h hides", "ru": "h — скрыть", "de": "h blendet aus"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_hints_header_says_how_to_hide_it_in_one_wording(lang: str) -> None:
    """The Russian hints header said "h — скрыть" in one place and "h скрывает" in another; then
    the words were alike but three messages of two domains (tui, hints): now they are one,
    ``hint.panel.hides``, which every header takes as ``{hides}`` and no other message words."""
    w = words(lang)
    hides = HIDES_MSG
    headers = (
        w("hint.panel.legend", hides=hides),
        w("tui.hints.not_yours", hides=hides),
        w("tui.hints.working", budget="2s", hides=hides),
    )
    assert w("hint.panel.hides") == HIDES[lang] and all(HIDES[lang] in header for header in headers), headers
    again = [
        k
        for k, forms in catalogue(lang).forms.items()
        if k != hides.key and any(HIDES[lang] in f for f in forms)
    ]
    assert not again, again


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_the_help_page_fits_with_its_keys_whole(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    """At 60×20 the help page (``?``) kept its 78 columns, so the window cut its right side off
    mid-word ("die Ausga"), and its last line, the keys that scroll and close it, fell below
    the window: now the page is as wide as the window allows and that line wraps, whole."""
    game = ra.Game([s.name for s in seats_in(lang)], seed=3)
    app = PlayApp(Session(game, seats_in(lang), tmp_path / "s.json", hints=True), delay=30, lang=lang)
    seen: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        seen.append(await steady_text(pilot, app))

    run_at(app, size, script)
    lines = seen[0].splitlines()
    box = [line for line in lines if "█" in line]
    assert box and all(line.rstrip(" ─").endswith("█") for line in box), seen[0]  # the right border shows
    page = " ".join(line.strip(" █─") for line in box)
    assert " ".join(words(lang)("tui.help.hint").split()) in " ".join(page.split()), page


@pytest.mark.parametrize("lang", LANGS)
def test_the_final_table_keeps_its_headings_whole_at_60_columns(lang: str) -> None:
    """At 60×20 the final scoring's ten columns, each boxed, left "G…", "Su…" for headings:
    a narrow window gets the table without lines between the columns and with the browser's
    short headings, every heading and every name whole."""
    from rich.console import Console

    from ra.tui.pages import page_width
    from ra.tui.render import epoch_summary

    game = ra.Game([s.name for s in seats_in(lang)], seed=11, hidden_scores=False)
    rng = random.Random(4)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    w = words(lang)
    for window in (60, 80):
        width = page_width(window)
        console = Console(width=width, record=True, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
        console.print(epoch_summary(game.view(None), 3, lang, width))
        text = console.export_text()
        assert "…" not in text, text
        compact = "┃" not in text
        assert compact or window == 80
        heading = "sc.short" if compact else "tui.scores"
        for key in ("gods", "gold", "pharaohs", "monuments", "suns", "total", "score"):
            assert w(f"{heading}.{key}") in text, (key, text)
        assert all(name in text for name in game.names), text
