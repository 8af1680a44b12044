"""Keys, pacing, undo, quitting and hot seat in the terminal game, driven headless."""

from __future__ import annotations

import io
import os
import signal
import time
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Button, Input

import ra
from ra.table import UndoError
from ra.tiles import Tile
from ra.tui import PlayApp, Session, plan_seats
from ra.tui.pages import HANDOVER, TextScreen
from ra.tui.render import board_line, score_table, sentence, why_not
from tests.tui.test_app import first_keys, run, screen_text, settle


def people(tmp_path: Path, *names: str, seed: int = 1, bots: tuple[str, ...] = ()) -> Session:
    """A table of ``names`` and one seat for each of ``bots`` (no more: ``ra play``'s default
    of 3 players would add a bot to "Ann" and one bot)."""
    seats = plan_seats(len(names) + len(bots) if bots else None, list(names), list(bots))
    return Session.new(seats, seed=seed, save_path=tmp_path / "s.json")


def buttons(app: PlayApp) -> list[str]:
    return [str(b.label) for b in app.query("#actions Button").results(Button)]


def test_bid_keys_are_the_suns_own_numbers(tmp_path: Path) -> None:
    s = people(tmp_path, "A", "B", "C", "D", "E", seed=1)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("r")  # invoke Ra: everyone else bids in turn
        await settle(pilot, app)
        low = min(a.sun for a in s.game.legal_actions() if a.kind == "bid")  # type: ignore[type-var]
        assert low is not None and low < 10
        assert sorted(buttons(app), key=len)[0] != ""  # the bid buttons show the suns
        assert str(low) in buttons(app)
        await pilot.press(str(low))
        assert s.game.auction is not None and s.game.auction.high_bid == low
        # Someone with a sun of 10 or more types both digits.
        for _ in range(3):
            await settle(pilot, app)
            suns = [a.sun for a in s.game.legal_actions() if a.kind == "bid"]
            two_digit = [x for x in suns if x is not None and x >= 10]
            if two_digit:
                sun = two_digit[0]
                await pilot.press(str(sun)[0])
                await pilot.pause()
                assert s.game.auction is not None and s.game.auction.high_bid == low  # waits for digit 2
                assert f"bid {str(sun)[0]}…" in screen_text(app)
                await pilot.press(str(sun)[1])
                await pilot.pause()
                assert s.game.auction is not None and s.game.auction.high_bid == sun
                return
            await pilot.press("p")
        raise AssertionError("nobody could bid 10 or more")

    run(app, script)


def test_a_digit_that_is_no_sun_says_so(tmp_path: Path) -> None:
    s = people(tmp_path, "A", "B", seed=3)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        suns = {str(a.sun) for a in s.game.legal_actions() if a.kind == "bid"}
        missing = next(d for d in "98765432" if d not in suns)
        n = s.game.num_decisions
        await pilot.press(missing)
        await pilot.pause()
        assert s.game.num_decisions == n
        assert f"no sun {missing}" in screen_text(app)

    run(app, script)


def test_help_scrolls_with_the_keyboard_and_closes_only_on_its_keys(tmp_path: Path) -> None:
    app = PlayApp(people(tmp_path, "A", "B"), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        assert "Monuments:" not in screen_text(app)
        await pilot.press("x")  # not a closing key
        assert isinstance(app.screen, TextScreen)
        await pilot.press("end")
        await pilot.pause()
        assert "Monuments:" in screen_text(app)
        await pilot.press("home", "pagedown")
        await pilot.pause()
        body = app.screen.query_one("#body")
        assert body.scroll_y > 0
        await pilot.press("escape")
        assert not isinstance(app.screen, TextScreen)

    run(app, script)


def test_escape_leaves_the_command_line(tmp_path: Path) -> None:
    s = people(tmp_path, "A", "B")
    app = PlayApp(s, delay=0)

    def typing() -> bool:
        return isinstance(app.focused, Input)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("slash", "b")
        assert typing()
        await pilot.press("escape")
        assert not typing()
        assert app.query_one("#command", Input).value == ""
        await pilot.press("d")  # goes to the game, not into the box
        await pilot.pause()
        assert s.game.num_decisions == 1

    run(app, script)


def test_messages_leave_the_status_and_buttons_visible(tmp_path: Path) -> None:
    app = PlayApp(people(tmp_path, "A", "B"), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("u")  # nothing to undo: a message
        await pilot.pause()
        text = screen_text(app)
        assert "Cannot take it back: there is no decision to take back" in text
        assert "your turn" in text and "d Draw" in text and "r Invoke Ra" in text

    run(app, script)


def test_quitting_while_a_bot_thinks_is_prompt_and_saves(tmp_path: Path) -> None:
    s = people(tmp_path, "Ann", bots=("mcts:iterations=1000000",), seed=2)
    app = PlayApp(s, delay=0)
    timing: list[float] = []

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(50):
            await settle(pilot, app)
            await pilot.press(*first_keys(app))
            await pilot.pause(0.05)
            if app.bots.thinking:
                break
        assert app.bots.thinking, "the bot never had to think"
        timing.append(time.perf_counter())
        await pilot.press("q")

    run(app, script)
    assert time.perf_counter() - timing[0] < 3
    assert Session.load(tmp_path / "s.json").game == s.game


def test_undo_stops_the_bots_search_and_the_bot_answers_the_same_again(tmp_path: Path) -> None:
    s = people(tmp_path, "Ann", bots=("mcts:iterations=1000000",), seed=2)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(50):
            await settle(pilot, app)
            # Invoke Ra when possible: the bot must then search, and nothing was revealed.
            await pilot.press("r" if "r" in app.moves.keys else first_keys(app)[0])
            await pilot.pause(0.05)
            if app.bots.thinking and s.can_undo(0):
                break
        assert app.bots.thinking and s.can_undo(0)
        cancel = app.bots.cancel
        await pilot.press("u")
        assert cancel.is_set()
        for _ in range(200):  # the abandoned search ends within an iteration
            if not [w for w in app.workers if w.is_running]:
                break
            await pilot.pause(0.01)
        assert not [w for w in app.workers if w.is_running]
        await pilot.press("q")

    run(app, script)
    # A fresh bot per decision, seeded by the position: no generator is shared.
    g = people(tmp_path, "Ann", bots=("greedy:epsilon=0.5",), seed=4)
    while g.human_to_move():
        g.apply("draw")
    seat = g.game.to_move
    assert seat is not None
    first, second = g.bot(seat), g.bot(seat)
    assert first is not second
    assert first.choose(g.game.view(seat)) == second.choose(g.game.view(seat))


def test_hot_seat_names_the_bidder_and_undo_is_only_your_own(tmp_path: Path) -> None:
    s = people(tmp_path, "Ann", "Bob", seed=1)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        first = s.game.names[s.game.to_move or 0]
        other = "Bob" if first == "Ann" else "Ann"
        await pilot.press("r")  # the first player invokes Ra; the other bids
        await settle(pilot, app)
        text = screen_text(app)
        assert f"{other}, your bid" in text
        n = s.game.num_decisions
        await pilot.press("u")  # the other person cannot take back the first one's decision
        await pilot.pause()
        assert s.game.num_decisions == n
        assert f"{first} decided last" in screen_text(app)

    run(app, script)


def test_no_undo_after_the_game_is_over(tmp_path: Path) -> None:
    s = people(tmp_path, "Ann", bots=("random",), seed=5)
    while not s.game.is_over():
        s.apply(s.game.legal_actions()[0])
    assert not s.can_undo(0)
    with pytest.raises(UndoError, match="the game is over"):
        s.undo(0)
    assert s.game.is_over()


def test_fast_forward_and_pace_keys(tmp_path: Path) -> None:
    s = people(tmp_path, "Ann", bots=("greedy", "greedy", "greedy"), seed=6)
    app = PlayApp(s, delay=3.0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("minus")
        assert app.delay == 2.5
        assert "Bots move every 2.5 s" in screen_text(app)
        await pilot.press("plus")
        assert app.delay == 4.0
        await settle(pilot, app)
        await pilot.press(*first_keys(app))
        start = time.perf_counter()
        await pilot.press("f")
        await settle(pilot, app)  # three bots at 4 s a move would take 12 s
        assert time.perf_counter() - start < 6
        assert not app.fast

    run(app, script)


def test_god_buttons_follow_the_track_order(tmp_path: Path) -> None:
    s = people(tmp_path, "Ann", "Bob", seed=1)
    game = s.game
    seat = game.to_move
    assert seat is not None
    game._displays[seat][Tile.GOD] = 1
    game._track = [int(Tile.TEMPLE), int(Tile.ART), int(Tile.PHARAOH), int(Tile.GOLD)]
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        gods = [b.replace("God: ", "") for b in buttons(app) if b[0].isdigit()]
        assert gods == ["1 Temple", "2 Art", "3 Pharaoh", "4 Gold"]

    run(app, script)


def _text(renderable: object) -> str:
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_epoch_tables_show_monuments_and_suns_only_after_the_third_epoch() -> None:
    game = ra.Game(players=3, seed=9)
    while not game.is_over():
        game.apply(game.legal_actions()[-1] if game.phase == "bid" else game.legal_actions()[0])
    first = _text(score_table(game, [1]))
    assert "Epoch 1 scoring" in first and " mon " not in first and " sun " not in first
    third = _text(score_table(game, [3]))
    assert "mon" in third and "sun" in third
    everything = _text(score_table(game))
    assert "mon" in everything
    assert "Game over" in board_line(game).plain and "0/8" not in board_line(game).plain


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_save_the_game(tmp_path: Path, sig: signal.Signals) -> None:
    s = people(tmp_path, "Ann", bots=("greedy",), seed=7)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press(*first_keys(app))
        await settle(pilot, app)
        os.kill(os.getpid(), sig)
        for _ in range(100):
            await pilot.pause(0.01)

    run(app, script)
    assert app.saved_to == str(tmp_path / "s.json")
    assert Session.load(tmp_path / "s.json").game == s.game
    assert s.game.num_decisions > 0


def test_a_typed_action_that_is_not_possible_gets_the_engines_whole_reason(tmp_path: Path) -> None:
    s = people(tmp_path, "Ann", "Bob", seed=1)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        assert s.game.phase == "action"
        n = s.game.num_decisions
        reason = s.game.why_illegal("bid 13")
        assert reason is not None and len(reason) > 78  # longer than one line at 80 columns
        await pilot.press("slash", "b", "i", "d", "space", "1", "3", "enter")
        await pilot.pause()
        # The engine's whole reason, in the catalogue's words (the terminal's language).
        shown = why_not(s.game, ra.Action.parse("bid 13"))
        assert shown == sentence(reason) + "."
        assert s.game.num_decisions == n and app.message == shown
        text = " ".join(line.strip() for line in screen_text(app).splitlines())
        assert shown in text, text  # wrapped, never cut

    run(app, script)


def handing_over(app: PlayApp) -> bool:
    """Whether the hot-seat hand-over screen is up."""
    return isinstance(app.screen, TextScreen) and app.screen.name == HANDOVER


def test_hot_seat_hands_the_screen_over_before_showing_the_next_view(tmp_path: Path) -> None:
    """Two people at one screen under hidden scores (R9.1): after Ann's decision the screen
    shows only public things until Bob says he has it; then Bob's own score appears."""
    s = people(tmp_path, "Ann", "Bob", seed=1)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert handing_over(app)
        first = s.game.names[s.game.to_move or 0]
        assert f"Pass the screen to {first}" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert not handing_over(app)
        mover = s.game.to_move
        await pilot.press("r")  # invoke Ra: the other person bids next
        await pilot.pause()
        other = s.game.names[s.game.to_move or 0]
        assert s.game.to_move != mover and handing_over(app)
        text = screen_text(app)
        assert f"Pass the screen to {other}" in text
        assert app.view().spectator  # only the public view is behind it
        assert all(p.score is None for p in app.view().players)  # no score shows (R9.1)
        assert not app.moves.keys and not app.moves.bids  # nothing can be played meanwhile
        await pilot.press("enter")
        await pilot.pause()
        assert app.view().seat == s.game.to_move
        assert app.view().players[app.view().seat].score is not None
        assert f"{other}, your bid" in screen_text(app)

    run(app, script)
