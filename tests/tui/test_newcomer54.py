"""What a newcomer tripped over in the terminal (issue 54), in English, Russian and German."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

import ra
from ra.labels import action_label
from ra.tui import PlayApp, ReplayApp, Seat, Session, plan_seats
from ra.tui.hints import HIDES
from ra.tui.keys import typed_action
from ra.tui.render import notation_error
from ra.tui.session import load_replay
from ra.tui.widgets import GameLog
from ra.words import words
from tests.tui.test_app import screen_text, settle, steady_text, until
from tests.tui.test_newcomer import run_at
from tests.tui.test_newcomer41 import bidding


def into_epoch_two(names: list[str]) -> ra.Game:
    """A game under hidden scores (R9.1) played at random until the second epoch: each player
    has a score on their tablet by now."""
    game = ra.Game(players=names, seed=5, hidden_scores=True)
    rng = random.Random(5)
    while game.epoch < 2:
        game.apply(rng.choice(game.legal_actions()))
    return game


def replay_end(app: ReplayApp) -> str:
    """The replay's screen at the last decision."""
    seen: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("end")
        await pilot.pause()
        seen.append(screen_text(app))

    run_at(app, (80, 24), script)  # type: ignore[arg-type]
    return seen[0]


def score_shown(text: str, name: str) -> bool:
    """Whether the players table shows ``name``'s score (a number, not ``?``)."""
    row = next(line for line in text.splitlines() if re.match(rf"\s*\S?\s*{re.escape(name)}\b", line))
    return "?" not in row


@pytest.mark.parametrize(
    ("bots", "visible"),
    [((None, None, "greedy"), set()), ((None, "greedy", "greedy"), {"Ann"})],
    ids=["hot seat: nobody's", "one person: hers"],
)
def test_the_replay_of_an_unfinished_save_keeps_hidden_scores_hidden(
    tmp_path: Path, bots: tuple[str | None, ...], visible: set[str]
) -> None:
    """``ra replay`` of a saved, unfinished game showed every score: a hot-seat player could
    read the others' tablets (R9.1).  It shows what the live game would: the one person's own
    score at a table of bots, nobody's at a hot seat."""
    names = ["Ann", "Bob", "Cleo"]
    game = into_epoch_two(names)
    session = Session(game, [Seat(n, b) for n, b in zip(names, bots, strict=True)], tmp_path / "s.json")
    replay = load_replay(session.save())
    app = ReplayApp(replay.game, stand_ins=replay.stand_ins, stand_in=replay.stand_in, viewer=replay.viewer)
    text = replay_end(app)
    assert {n for n in names if score_shown(text, n)} == visible, text
    for name in names:  # nor in the log
        assert (f"{name} scores (hidden)" not in text) == (name in visible), text


def test_the_replay_of_a_finished_game_shows_every_score(tmp_path: Path) -> None:
    """Once the game is over every tablet is turned (R9.1): the replay shows all scores."""
    game = into_epoch_two(["Ann", "Bob", "Cleo"])
    rng = random.Random(1)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    session = Session(game, [Seat("Ann"), Seat("Bob"), Seat("Cleo", "greedy")], tmp_path / "s.json")
    replay = load_replay(session.save())
    text = replay_end(ReplayApp(replay.game, viewer=replay.viewer))
    assert all(score_shown(text, n) for n in ("Ann", "Bob", "Cleo")), text


@pytest.mark.parametrize(
    ("humans", "bots", "seated"),
    [
        ("", "master", ["You", "Master bot", "Master bot 2"]),  # was: You and one master bot
        ("", "", ["You", "Hard bot", "Hard bot 2"]),
        ("", "easy,hard,master", ["You", "Easy bot", "Hard bot", "Master bot"]),
        ("Ann,Bob", "", ["Ann", "Bob"]),  # a hot seat of two, as the help says
        ("Ann,Bob", "hard", ["Ann", "Bob", "Hard bot"]),
    ],
)
def test_ra_play_seats_three_unless_told_otherwise(humans: str, bots: str, seated: list[str]) -> None:
    """``ra play --bots master`` started a two-player game though ``--players`` says its default
    is 3: the default holds, and grows only to seat everyone named."""
    seats = plan_seats(None, humans.split(","), bots.split(","))  # what `ra play` passes
    assert [s.name for s in seats] == seated


@pytest.mark.parametrize(
    ("lang", "typed"),
    [("de", "ziehen"), ("ru", "Тянуть"), ("en", "draw"), ("de", "draw"), ("ru", "draw")],
)
def test_a_typed_action_may_be_in_the_readers_words(tmp_path: Path, lang: str, typed: str) -> None:
    """``/ ziehen`` was refused in German: the command line takes the button's words in the
    reader's language, and the notation in any."""
    seats = [Seat("Ann"), Seat("Bob", "greedy"), Seat("Cy", "greedy")]
    session = Session.new(seats, seed=3, save_path=tmp_path / "s.json")
    app = PlayApp(session, delay=30, lang=lang)
    said: list[str] = []
    before: list[int] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        before.append(session.game.num_decisions)
        await pilot.press("slash")
        app.query_one("#command", Input).value = typed  # any script, as a keyboard types it
        await pilot.press("enter")
        await pilot.pause()
        said.append(app.message)

    run_at(app, (80, 24), script)
    assert [str(a) for a in session.game.decisions][before[0] :][:1] == ["draw"], said


@pytest.mark.parametrize(
    ("lang", "typed", "notation"),
    [
        ("de", "Gebot 9", "bid 9"),
        ("de", "gott: gold", "god gold"),
        ("de", "Abwerfen Kunst", "discard art"),
        ("de", "ra anrufen", "ra"),
        ("ru", "ставка 9", "bid 9"),
        ("ru", "Бог: Золото", "god gold"),
        ("ru", "пас", "pass"),
        ("en", "Lose Art", "discard art"),
        ("de", "bid 9", "bid 9"),
    ],
)
def test_every_button_word_is_an_action(lang: str, typed: str, notation: str) -> None:
    assert typed_action(typed, lang) == ra.Action.parse(notation)


@pytest.mark.parametrize(
    ("lang", "typed", "said"),
    [("de", "Gebot 17", "tui.error.no_such_sun"), ("ru", "ставка 17", "tui.error.no_such_sun")],
)
def test_a_sun_that_does_not_exist_is_named_in_the_readers_words(lang: str, typed: str, said: str) -> None:
    with pytest.raises(ra.NotationError):
        typed_action(typed, lang)
    assert notation_error(typed, lang) == words(lang)(said, sun="17", max=ra.MAX_SUN)


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_the_hints_panel_shows_every_action_and_says_what_the_margin_is_at_60x20(
    tmp_path: Path, lang: str
) -> None:
    """At 60×20 the hints panel showed one action (its header took two lines, each row the word
    "margin"); "margin" was never explained.  Now the header says once what ± is, and five
    actions fit, each with its chance as the language writes it (German "33 %")."""
    game = bidding(3, seed=4)
    seats = [Seat(n, None if i == 0 else "greedy") for i, n in enumerate(game.names)]
    app = PlayApp(
        Session(game, seats, tmp_path / "s.json", hints=True), delay=30, hint_budget="20", lang=lang
    )
    seen: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("h")
        for _ in range(600):
            if app.hints.work.result is not None:
                break
            await pilot.pause(0.05)
        seen.append(await steady_text(pilot, app))

    run_at(app, (60, 20), script)
    screen, w = seen[0], words(lang)
    assert w("hint.panel.legend", hides=HIDES) in " ".join(screen.split()), screen
    assert all(action_label(a, lang=lang) in screen for a in game.legal_actions()), screen
    percent = re.compile(r"\d+ %" if lang == "de" else r"\d+%")
    assert len(percent.findall(screen)) >= len(game.legal_actions()), screen


@pytest.mark.parametrize(("began", "now"), [("ru", "en"), ("en", "de"), ("de", "ru")])
def test_you_are_called_you_in_the_language_a_resumed_game_speaks(
    tmp_path: Path, began: str, now: str
) -> None:
    """A game begun in Russian and resumed in English said "Вы" and "Сильный бот" in the English
    log: "You" and the bots ``ra play`` named are called so in the language the game goes on in
    (play and replay); a person's own name and a bot given a name are left as they are."""
    first = Session.new(plan_seats(None, [], [], None, began), seed=2, save_path=tmp_path / "s.json")
    first.game.apply(first.game.legal_actions()[0])
    path = first.save()
    resumed = Session.load(path, save_path=path, lang=now)
    assert list(resumed.game.names) == [s.name for s in plan_seats(None, [], [], None, now)]
    assert [s.name for s in resumed.seats] == list(resumed.game.names)
    assert resumed.game.decisions == first.game.decisions
    assert load_replay(path, now).game.names == resumed.game.names
    assert Session.load(path).game.names == first.game.names  # no language: as saved
    named = Session.new([Seat("Аня"), Seat("Bob", "hard")], seed=2, save_path=tmp_path / "n.json").save()
    assert Session.load(named, lang=now).game.names == ("Аня", "Bob")


FORBIDDEN = {
    "de": ("Ctrl-C", "die Geführte Partie", "Tisch-Option"),
    "ru": ("жетон бога", "жетоном бога", "богом", "зерно", "генератора", "игра суждений"),
}
"""Words newcomers tripped over: German "Strg-C" and plain adjectives; the Russian glossary's
«жетон богов» and one word for the seed, «начальное число»."""


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_the_words_newcomers_tripped_over_are_gone(lang: str) -> None:
    from ra.words import catalogue

    texts = [f for forms in catalogue(lang).forms.values() for f in forms]
    texts.append((Path(ra.__file__).parent / "data" / f"guide.{lang}.md").read_text(encoding="utf-8"))
    found = {word for word in FORBIDDEN[lang] for text in texts if word in text}
    assert not found, found
    if lang == "de":  # one word for undo, and German writes "42 %"
        assert words("de")("tui.key.undo") == "Zurücknehmen"
        assert not [t for t in texts if re.search(r"(\d|\})%", t)]


def test_the_ra_player_is_told_in_one_person_that_they_bid_last() -> None:
    """«ваша ставка; ставит последним» mixed persons: the one to bid is addressed throughout."""
    from ra.tui.render import status_text

    game = ra.Game(players=["Вы", "Bob", "Cy"], seed=1)
    while not game.is_over():
        auction = game.auction
        if game.phase == "bid" and game.to_move == 0 and auction is not None and auction.ra_player == 0:
            break
        legal = game.legal_actions()  # invoke Ra where possible; the others bid
        game.apply(next((a for a in legal if a.kind in ("ra", "bid")), legal[-1]))
    text = status_text(game.view(0), game.names, {0}, 0, lang="ru").plain
    assert "вы ставите последним" in text and "ставит последним" not in text.replace("вы ставите", ""), text


@pytest.mark.parametrize("kind", ["play", "replay"])
def test_the_log_uses_a_wider_window_after_a_resize(tmp_path: Path, kind: str) -> None:
    """A log shown at 60 columns kept its lines wrapped at 60 in a window made wider: its lines
    are written again for the new width (the game and the replay alike)."""
    game = ra.Game(["Ann", "Bob", "Cy"], seed=7)
    rng = random.Random(7)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    seats = [Seat("Ann"), Seat("Bob", "greedy"), Seat("Cy", "greedy")]
    app = PlayApp(Session(game, seats, tmp_path / "s.json"), delay=30) if kind == "play" else ReplayApp(game)
    widths: list[int] = []

    async def script(pilot: Pilot[None]) -> None:
        if isinstance(app, ReplayApp):
            await pilot.press("end")

        def widest() -> int:
            return max(line.cell_length for line in app.query_one("#log", GameLog).lines)

        await pilot.resize_terminal(120, 30)
        await until(pilot, lambda: widest() > 70)  # the log written again for the new width
        widths.append(widest())
        await pilot.resize_terminal(60, 24)
        await until(pilot, lambda: widest() <= 58)
        widths.append(widest())

    run_at(app, (60, 24), script)  # type: ignore[arg-type]
    wide, narrow = widths
    assert wide > 70, widths  # "Cy wins with sun 8 and takes 1 Pharaoh and 1 Flood …" on one line
    assert narrow <= 58, widths  # and narrow again in a narrow window


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_a_window_too_small_is_said_and_goes_when_it_grows(tmp_path: Path, lang: str) -> None:
    """Below 60×20 the screen broke without a word: its top line says the window is too small
    (and how large it must be), in the reader's language, until it is large enough again."""
    seats = [Seat("Ann"), Seat("Bob", "greedy"), Seat("Cy", "greedy")]
    app = PlayApp(Session.new(seats, seed=3, save_path=tmp_path / "s.json"), delay=30, lang=lang)
    tops: list[str] = []
    said = words(lang)("tui.too_small", width=50, height=16, least="60×20")
    epoch = words(lang)("tui.board.epoch", n=1)[:5]

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)

        def top() -> str:
            return " ".join(screen_text(app).split())

        await pilot.resize_terminal(50, 16)
        await until(pilot, lambda: said[:30] in top())
        tops.append(top())
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: said[:30] not in top() and epoch in top())
        tops.append(top())

    run_at(app, (80, 24), script)
    assert said[:30] in tops[0], tops[0]
    assert said[:30] not in tops[1] and epoch in tops[1], tops[1]


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
@pytest.mark.parametrize("window", [60, 80])
def test_the_games_end_shows_every_epoch_and_the_result_once(lang: str, window: int) -> None:
    """The last page showed only the third epoch's table; the result then stood twice under it
    (the log's "Game over" and the status line).  The page shows all three epochs and the
    result; the status line says what to do now."""
    from rich.console import Console

    from ra.tui.pages import page_width
    from ra.tui.render import epoch_summary, final_line, status_text

    game = ra.Game(["Ann", "Bob", "Cy"], seed=11)
    rng = random.Random(4)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    console = Console(width=page_width(window), record=True, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(epoch_summary(game, ra.EPOCHS, lang, page_width(window)))
    page = console.export_text()
    assert "…" not in page, page
    result = final_line(game, game.names, lang)
    rows = [line for line in page.splitlines() if "Ann" in line and result not in line]
    assert len(rows) == ra.EPOCHS, page  # one row of Ann's an epoch
    assert page.count(result) == 1
    status = status_text(game.view(None), game.names, {0}, None, lang=lang).plain
    assert status == words(lang)("tui.status.over") and result not in status


def test_learn_ends_with_the_score_of_every_epoch(tmp_path: Path) -> None:
    """The guided game's last chapter ended on "you win with 4 points" without a breakdown: the
    end shows the score of every epoch by category (R7) and the result."""
    from ra.learn import Lesson, load_chapters
    from ra.tui.learn import LearnApp

    last = load_chapters()[-1]
    lesson = Lesson(last)
    for step in last.steps:
        assert lesson.attempt(step.expect[0]).ok
    app = LearnApp(lesson, tmp_path / "learn.json")
    seen: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: words("en")("tui.scores.title") in screen_text(app))  # type: ignore[arg-type]
        seen.append(screen_text(app))  # type: ignore[arg-type]

    run_at(app, (80, 24), script)  # type: ignore[arg-type]
    screen = seen[0]
    assert words("en")("tui.scores.title") in screen, screen
    assert "you win with" in screen and len(re.findall(r"│ [123] │ You", screen)) == 3, screen
