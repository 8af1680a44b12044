"""The terminal game, driven headless with Textual's pilot."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from typer.testing import CliRunner

import ra
from ra.cli import app as cli
from ra.tui import PlayApp, ReplayApp, Session, plan_seats
from ra.tui.pages import HANDOVER, TextScreen

SNAPSHOTS = Path(__file__).parent / "snapshots"
SIZE = (80, 24)


def screen_text(app: PlayApp | ReplayApp) -> str:
    """The screen as plain text, rendered by Textual's compositor (like its SVG screenshots)."""
    console = Console(
        width=app.size.width,
        height=app.size.height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def run(app: PlayApp | ReplayApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def session(tmp_path: Path, players: int, bots: list[str], seed: int = 3, **kw: object) -> Session:
    seats = plan_seats(players, [], bots, "Ann")
    return Session.new(seats, seed=seed, save_path=tmp_path / "save.json", **kw)  # type: ignore[arg-type]


async def type_text(pilot: Pilot[None], text: str) -> None:
    """Focus the command line and type ``text`` (spaces included), then Enter."""
    await pilot.press("slash")
    await pilot.press(*("space" if c == " " else c for c in text))
    await pilot.press("enter")
    await pilot.pause()


async def steady_text(pilot: Pilot[None], app: PlayApp) -> str:
    """The screen once it has stopped changing (two captures alike, a frame apart): on a busy
    machine a capture right after :func:`settle` can catch a panel still being laid out."""
    text = screen_text(app)
    for _ in range(100):
        await pilot.pause(0.02)
        again = screen_text(app)
        if again == text:
            return text
        text = again
    return text


async def until(pilot: Pilot[None], shown: Callable[[], bool], seconds: float = 10.0) -> None:
    """Frame by frame until ``shown()`` holds, at most ``seconds``: what a resize or a new screen
    lays out after its event shows as soon as it is there (never after a fixed wait, which is
    long on a quiet machine and may be short on a busy one); the caller asserts it then."""
    for _ in range(int(seconds / 0.01)):
        if shown():
            return
        await pilot.pause(0.01)


async def settle(pilot: Pilot[None], app: PlayApp) -> None:
    """Wait until a person must act, a modal is open, or the game is over."""
    for _ in range(2000):
        if isinstance(app.screen, TextScreen) and app.screen.name == HANDOVER:
            await pilot.press("enter")  # hot seat: the next person takes the screen
            continue
        if isinstance(app.screen, TextScreen):
            return
        if app.session.game.is_over() and not app.bots.thinking:
            return
        if app.session.human_to_move() and not app.bots.thinking and (app.moves.keys or app.moves.bids):
            return
        await pilot.pause(0.005)
    raise AssertionError("the app did not settle")


def first_keys(app: PlayApp) -> list[str]:
    """The keys that choose the first offered action: its letter or digit, or a bid's number."""
    if app.moves.keys:
        return [next(iter(app.moves.keys))]
    sun = next(iter(app.moves.bids))
    longer = any(s.startswith(sun) and s != sun for s in app.moves.bids)
    return [*sun, "enter"] if longer else [*sun]


async def play_to_the_end(pilot: Pilot[None], app: PlayApp) -> int:
    """A scripted person: always the first offered action, by its key."""
    modals = 0
    for _ in range(3000):
        await settle(pilot, app)
        if isinstance(app.screen, TextScreen):
            modals += 1
            await pilot.press("enter")
            await pilot.pause()
            continue
        if app.session.game.is_over():
            return modals
        await pilot.press(*first_keys(app))
    raise AssertionError("the game did not end")


@pytest.mark.slow
@pytest.mark.parametrize(("players", "bots"), [(2, ["greedy"]), (5, ["greedy", "random", "easy", "greedy"])])
def test_a_complete_game_against_bots(tmp_path: Path, players: int, bots: list[str]) -> None:
    s = session(tmp_path, players, bots)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        modals = await play_to_the_end(pilot, app)
        assert modals == 3  # one scoring table per epoch
        assert "Game over" in screen_text(app)

    run(app, script)
    game = s.game
    assert game.is_over()
    assert any(s.seats[m].human for m in s.movers)
    assert len(s.movers) == game.num_decisions
    # Quitting saved the game; the save replays to the same game.
    assert ra.Game.from_record(json.loads((tmp_path / "save.json").read_text())) == game


def test_hot_seat_hands_the_screen_over_and_shows_each_persons_view(tmp_path: Path) -> None:
    """R9 at one screen: between two people the hand-over screen names the next person and hides
    the board; after it, the view is that person's (their perspective, their name on the prompt)."""
    seats = plan_seats(None, ["Ann", "Bob"], ["greedy"])
    s = Session.new(seats, seed=5, save_path=tmp_path / "s.json", hidden_scores=True)
    app = PlayApp(s, delay=0)
    handovers: list[str] = []
    views: set[int] = set()

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(400):
            await pilot.pause(0.005)
            if isinstance(app.screen, TextScreen) and app.screen.name == HANDOVER:
                handovers.append(screen_text(app))
                await pilot.press("enter")
                continue
            if isinstance(app.screen, TextScreen):
                await pilot.press("enter")
                continue
            if s.human_to_move() and not app.bots.thinking and (app.moves.keys or app.moves.bids):
                seat = s.game.to_move
                assert s.perspective() == seat
                views.add(seat)
                if len(views) == 2 and len(handovers) >= 2:
                    return
                await pilot.press(*first_keys(app))

    run(app, script)
    assert views == {0, 1}
    assert any("Bob" in text for text in handovers) and any("Ann" in text for text in handovers)


def test_main_screen_snapshot(tmp_path: Path) -> None:
    s = session(tmp_path, 3, ["greedy", "greedy"], seed=3)
    app = PlayApp(s, delay=0)
    captured: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("d")
        await settle(pilot, app)
        captured.append(screen_text(app))

    run(app, script)
    text = captured[0]
    snapshot = SNAPSHOTS / "main_screen.txt"
    if os.environ.get("RA_UPDATE_SNAPSHOTS") or not snapshot.exists():
        snapshot.write_text(text, encoding="utf-8")
    assert text == snapshot.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    for needle in ("Epoch 1/3", "Ra track", "Centre sun", "Auction", "suns", "Ann", "Greedy bot"):
        assert needle in text


def test_undo_after_a_draw_is_refused_and_says_why(tmp_path: Path) -> None:
    """R9.3 through ra.table's one undo policy: a draw showed a tile; taking it back would let
    the player draw again knowing the bag (the terminal once allowed it)."""
    s = session(tmp_path, 3, ["greedy", "greedy"], seed=3)
    app = PlayApp(s, delay=30)  # the bots wait: nobody else has decided yet

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        assert s.game.to_move == 0
        await pilot.press("d")
        await pilot.pause()
        n = s.game.num_decisions
        await pilot.press("u")
        await pilot.pause()
        assert s.game.num_decisions == n
        assert "a tile was drawn" in screen_text(app)

    run(app, script)


def test_undo_takes_back_your_own_decision_before_anyone_answered(tmp_path: Path) -> None:
    s = session(tmp_path, 3, ["greedy", "greedy"], seed=3)
    app = PlayApp(s, delay=30)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        key_before = s.game._key()
        await pilot.press("r")  # invoke Ra: nothing revealed, the bots have not bid yet
        await pilot.pause()
        assert s.game._key() != key_before
        await pilot.press("u")
        await pilot.pause()
        assert s.game._key() == key_before and app.session.human_to_move()
        assert "Ann took back: Invoke Ra" in screen_text(app)

    run(app, script)


def test_no_undo_once_a_bot_answered(tmp_path: Path) -> None:
    s = session(tmp_path, 3, ["greedy", "greedy"], seed=3)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)  # the bots bid at once
        n = s.game.num_decisions
        await pilot.press("u")
        await pilot.pause()
        assert s.game.num_decisions == n
        assert "decided last" in screen_text(app) or "a tile was drawn" in screen_text(app)

    run(app, script)


def test_save_and_resume(tmp_path: Path) -> None:
    s = session(tmp_path, 4, ["easy", "medium:iterations=4", "greedy"], seed=8)
    app = PlayApp(s, delay=0)
    path = tmp_path / "save.json"

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(3):
            await settle(pilot, app)
            await pilot.press(*first_keys(app))
        await settle(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        assert path.exists()

    run(app, script)
    saved = json.loads(path.read_text())
    assert saved["session"]["seats"][1]["bot"] == "easy"
    resumed = Session.load(path)
    assert resumed.game == s.game
    assert [seat.bot for seat in resumed.seats] == [seat.bot for seat in s.seats]
    assert resumed.movers == s.movers
    # The resumed game plays on.
    app2 = PlayApp(resumed, delay=0)

    async def more(pilot: Pilot[None]) -> None:
        await settle(pilot, app2)
        n = resumed.game.num_decisions
        await pilot.press(*first_keys(app2))
        await settle(pilot, app2)
        assert resumed.game.num_decisions > n

    run(app2, more)


def test_ctrl_c_saves_and_quits(tmp_path: Path) -> None:
    s = session(tmp_path, 2, ["greedy"], seed=1)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("d")
        await settle(pilot, app)
        await pilot.press("ctrl+c")

    run(app, script)
    assert app.saved_to == str(tmp_path / "save.json")
    assert Session.load(tmp_path / "save.json").game == s.game


def test_wrong_input_gets_a_message_never_a_crash(tmp_path: Path) -> None:
    s = session(tmp_path, 3, ["greedy", "greedy"], seed=3)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        key = s.game._key()
        shown = []
        for text in ("fly away", "bid 99", "god gold", "discard art", "pass"):
            await type_text(pilot, text)
            assert s.game._key() == key
            shown.append(screen_text(app))  # the message is on screen, not in a toast that expires
        assert "Unknown action" in shown[0]  # the engine's words, as one sentence
        assert "no sun 99" in shown[1]
        assert any("R3.2" in m or "R4" in m or "not possible" in m for m in shown[2:])
        await pilot.press("escape")
        for k in ("x", "7", "z"):
            await pilot.press(k)  # keys that mean nothing now
        await pilot.pause()
        assert s.game._key() == key
        await type_text(pilot, "draw")
        await settle(pilot, app)
        assert s.game.num_decisions > 0

    run(app, script)


def test_help_screen_opens_and_closes(tmp_path: Path) -> None:
    app = PlayApp(session(tmp_path, 2, ["greedy"]), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        assert "Ra — how to play" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TextScreen)

    run(app, script)


def test_replay_steps_to_the_end(tmp_path: Path) -> None:
    game = ra.Game(players=3, seed=12)
    import random

    rng = random.Random(12)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    app = ReplayApp(game)

    async def script(pilot: Pilot[None]) -> None:
        assert app.position == 0
        for _ in range(5):
            await pilot.press("right")
        assert app.position == 5 and app.game == _prefix(game, 5)
        await pilot.press("left")
        assert app.position == 4 and app.game == _prefix(game, 4)
        await pilot.press("]")  # a terminal sends "right_square_bracket"
        assert app.game.epoch == 2 or app.game.is_over()
        epoch2 = app.position
        await pilot.press("right", "right", "[")
        assert app.position == epoch2  # back to the start of epoch 2
        footer = screen_text(app).splitlines()[-1]
        assert "] Next epoch" in footer and "q Quit" in footer and "^c" not in footer
        await pilot.press("end")
        await pilot.pause()
        assert app.position == game.num_decisions and app.game == game
        assert "Game over" in screen_text(app)
        await pilot.press("home")
        assert app.position == 0

    run(app, script)


def _prefix(game: ra.Game, n: int) -> ra.Game:
    g = ra.Game.from_setup(game.setup)
    for a in game.decisions[:n]:
        g.apply(a)
    return g


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "7"], "2 to 5 players, not 7"),
        (["play", "--bots", "wizard"], "unknown bot 'wizard'"),
        (["play", "--players", "2", "--bots", "hard,hard"], "2 bots but 1 seat left for bots after 1 person"),
        (["play", "--load", "/no/such/file.json"], "cannot read"),
        (["play", "--load", "x.json", "--players", "3"], "--load resumes a saved game"),
        (["play", "--edition", "1066"], "unknown edition"),
        (["replay", "/no/such/file.json"], "cannot read"),
    ],
)
def test_play_cli_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_hidden_scores_stay_hidden_on_screen_until_the_end(tmp_path: Path) -> None:
    s = session(tmp_path, 2, ["greedy"], seed=6, hidden_scores=True)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        while not isinstance(app.screen, TextScreen):
            await settle(pilot, app)
            if not isinstance(app.screen, TextScreen):
                await pilot.press(*first_keys(app))
        text = screen_text(app)
        modal_rows = [line for line in text.splitlines() if "│Greedy bot" in line]
        assert modal_rows and all("?" in line for line in modal_rows), text
        assert re.search(r"Greedy bot\s+\?", text), "the players table hides the bot's score"
        assert all("?" not in line for line in text.splitlines() if "│Ann" in line)
        await play_to_the_end(pilot, app)
        final = screen_text(app)
        assert not re.search(r"Greedy bot\s+\?", final), "scores are shown once the game is over"

    run(app, script)


def test_replay_marks_the_decisions_a_stand_in_took(tmp_path: Path) -> None:
    # A table's record names the decisions a stand-in bot took for an absent person (and its
    # level): `ra replay` marks them in the log, as the browser's replay does.
    from ra.table import Seat, Table, TableOptions
    from ra.tui.session import load_replay

    game = ra.Game(players=["Ann", "Bob"], seed=4)
    table: Table[None] = Table(game, [Seat("Ann"), Seat("Bob")], TableOptions(stand_in="hard"))
    table.apply(game.legal_actions()[0], stand_in=True)  # Ann was away: a hard bot decided
    table.apply(game.legal_actions()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(table.record()), encoding="utf-8")
    replay = load_replay(path)
    assert replay.stand_ins == {0} and replay.stand_in == "hard"
    app = ReplayApp(replay.game, stand_ins=replay.stand_ins, stand_in=replay.stand_in)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("end")
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert text.count("standing in for Ann") == 1 and "Hard bot" in text

    run(app, script)


@pytest.mark.parametrize(
    ("facts", "named"),
    [({"stand_ins": [0], "stand_in": "grandmaster"}, "'stand_in'"), ({"stand_ins": [99]}, "'stand_ins'")],
)
def test_replay_refuses_a_record_whose_table_facts_are_wrong(
    tmp_path: Path, facts: dict[str, object], named: str
) -> None:
    game = ra.Game(players=2, seed=4)
    game.apply(game.legal_actions()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**game.to_record(), **facts}), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code != 0 and named in result.output and "Traceback" not in result.output
