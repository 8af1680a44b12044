"""What a newcomer found at the terminal table (issue 18), each now checked headless."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

import ra
from ra.tui import PlayApp, Seat, Session
from ra.tui.pages import TextScreen
from tests.tui.test_app import first_keys, screen_text, settle, steady_text, type_text


def run_at(app: PlayApp, size: tuple[int, int], script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def table(tmp_path: Path, game: ra.Game, bots: list[str | None], hints: bool | None = None) -> Session:
    seats = [Seat(name, bot) for name, bot in zip(game.names, bots, strict=True)]
    return Session(game, seats, tmp_path / "s.json", hints)


def sun_one_beside_ten_to_sixteen() -> ra.Game:
    """A random game played until Ann may bid sun 1 and a sun of 10-16 (she won the centre sun
    in epoch 1: R4.4, it turned up in epoch 2)."""
    for seed in range(300):
        game, rng = ra.Game(["Ann", "Bob", "Cy"], seed=seed), random.Random(seed)
        while not game.is_over():
            if game.to_move == 0 and game.phase == "bid":
                suns = {a.sun for a in game.legal_actions() if a.kind == "bid"}
                if 1 in suns and any(s is not None and s >= 10 for s in suns):
                    return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no such position in 300 games")


def test_the_bid_row_and_the_hint_show_the_keys_that_work(tmp_path: Path) -> None:
    """Sun 1 beside suns 10-16: typing 1 waits for a second digit, so the key is "1⏎"."""
    s = table(tmp_path, sun_one_beside_ten_to_sixteen(), [None, "greedy", "greedy"], hints=True)
    app = PlayApp(s, delay=30, hint_budget="20")

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        assert "1⏎" in screen_text(app)
        await pilot.press("h")
        for _ in range(400):
            if app.hints.work.result is not None:
                break
            await pilot.pause(0.05)
        assert app.hints.work.result is not None
        assert "1⏎" in str(app.query_one("#hints", Static).render())
        await pilot.press("1", "enter")  # and the keys shown do bid 1
        await pilot.pause()
        assert str(s.game.decisions[-1]) == "bid 1"

    run_at(app, (80, 24), script)


def test_with_hints_open_the_log_stays_at_the_newest_event(tmp_path: Path) -> None:
    game = ra.Game(["You", "Hard", "Easy"], seed=11)
    s = table(tmp_path, game, [None, "greedy", "greedy"], hints=True)
    app = PlayApp(s, delay=0, hint_budget="20")

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("h")
        for _ in range(6):
            await settle(pilot, app)
            await pilot.press(*first_keys(app))
            await settle(pilot, app)
            for _ in range(200):  # the panel fills in (its height changes then)
                if app.hints.work.result is not None:
                    break
                await pilot.pause(0.05)
            await pilot.pause(0.2)
            newest = s.game.events[-1].text(s.game.names)
            assert newest[:40] in screen_text(app).replace("\n ", " "), (newest, screen_text(app))

    run_at(app, (80, 24), script)


def test_typed_errors_have_one_style(tmp_path: Path) -> None:
    game = ra.Game(["You", "Bob", "Cy"], seed=2)
    s = table(tmp_path, game, [None, "greedy", "greedy"])
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await type_text(pilot, "bid 99")
        assert app.message.startswith("There is no sun 99")
        await type_text(pilot, "bid 13")
        assert app.message.startswith("Bid 13 is not possible now: you ")
        assert ": You " not in app.message

    run_at(app, (80, 24), script)


def test_the_footer_offers_hints_only_where_the_table_has_them(tmp_path: Path) -> None:
    for hints in (False, True):
        s = table(tmp_path, ra.Game(["Ann", "Bob", "Cy"], seed=2), [None, "greedy", "greedy"], hints=hints)
        app = PlayApp(s, delay=0)
        seen: list[str] = []

        async def script(pilot: Pilot[None], app: PlayApp = app, seen: list[str] = seen) -> None:
            await settle(pilot, app)
            seen.append((await steady_text(pilot, app)).splitlines()[-1])
            await pilot.press("h")
            await pilot.pause()
            seen.append(app.message)

        run_at(app, (80, 24), script)
        assert ("h Hints" in seen[0]) is hints
        if not hints:
            assert "Hints are off at this table" in seen[1]  # the key still answers


def test_the_help_key_table_does_not_wrap_at_80_columns(tmp_path: Path) -> None:
    s = table(tmp_path, ra.Game(["Ann", "Bob", "Cy"], seed=2), [None, "greedy", "greedy"])
    app = PlayApp(s, delay=0)
    pages: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        for _ in range(12):
            pages.append(screen_text(app))
            await pilot.press("pagedown")
            await pilot.pause()

    run_at(app, (80, 24), script)
    lines = "\n".join(pages).splitlines()
    for key, words in (("d", "draw a tile"), ("r", "invoke Ra"), ("p", "pass"), ("n", "done with God")):
        assert any(re.search(rf"\b{key}\b.*{words}", line) for line in lines), (key, words)


def test_wide_and_small_windows_use_their_width(tmp_path: Path) -> None:
    screens: dict[tuple[int, int], str] = {}
    texts: list[str] = []
    for size in ((200, 60), (60, 20)):
        s = table(tmp_path, ra.Game(["Ann", "Bob", "Cy"], seed=3), [None, "greedy", "greedy"])
        app = PlayApp(s, delay=0)

        async def script(pilot: Pilot[None], app: PlayApp = app, size: tuple[int, int] = size) -> None:
            for _ in range(12):
                await settle(pilot, app)
                await pilot.press(*first_keys(app))
            await settle(pilot, app)
            await pilot.pause(0.2)
            screens[size] = screen_text(app)

        run_at(app, size, script)
        texts = [e.text(s.game.names) for e in s.game.events]
    long = [t for t in texts if len(t) > 78]
    assert long, "no log line longer than 78 columns: the check proves nothing"
    wide = screens[(200, 60)].splitlines()
    assert any(t in line for t in long for line in wide)  # whole, on one line: not wrapped at 78
    small = screens[(60, 20)].splitlines()
    assert "Bag" in small[0]  # the board line keeps the bag count
    assert "player" in small[3] and "civ" in small[3]  # the table header on one line
    assert len(small) == 20 and all(len(line) <= 60 for line in small)


def test_the_2008_disaster_timing_is_shown_all_game_and_in_the_help(tmp_path: Path) -> None:
    """Issue 41: after ``--resume`` nobody could tell which rules apply (R3.5)."""
    from ra.tui.help import help_text

    cases = (
        ("en", "(2008 disasters)", "2008 disaster timing (R3.5)"),
        ("ru", "(бедствия 2008)", "2008 года (R3.5)"),
    )
    for lang, board, helped in cases:
        assert helped in help_text("original", lang, "2008") and helped not in help_text("original", lang)
        for size in ((80, 24), (120, 30)):
            game = ra.Game(["You", "Bob"], seed=3, disaster_timing="2008")
            app = PlayApp(table(tmp_path, game, [None, "greedy"]), delay=0, lang=lang)

            async def script(pilot: Pilot[None], app: PlayApp = app, board: str = board) -> None:
                await settle(pilot, app)
                top = screen_text(app).splitlines()[0]
                assert board in top if app.size.width > 80 else "(2008" in top, top  # "(2008)" if tight

            run_at(app, size, script)
    plain = PlayApp(table(tmp_path, ra.Game(["You", "Bob"], seed=3), [None, "greedy"]), delay=0)

    async def none(pilot: Pilot[None]) -> None:
        await settle(pilot, plain)
        assert "2008" not in screen_text(plain)

    run_at(plain, (80, 24), none)
