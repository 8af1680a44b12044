"""The screen at 80×24 in the worst cases: every player, every tile group, every log word visible."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown

import ra
from ra.tiles import CIVILIZATIONS, MONUMENTS, Tile
from ra.tui import PlayApp, Seat, Session
from ra.tui.render import code, final_line, status_text
from tests.tui.test_app import first_keys, run, settle, steady_text

NAMES = ["Hatshepsut I", "Akhenaten II", "Nefertiti III", "Ramesses IV", "Cleopatra VII"]


def crowded_session(tmp_path: Path, players: int, edition_codes: bool = False) -> Session:
    """A game where every player holds every kind of tile, several of each, and big scores."""
    seats = [Seat(NAMES[0])] + [Seat(n, "greedy") for n in NAMES[1:players]]
    s = Session.new(seats, seed=4, save_path=tmp_path / "s.json", hidden_scores=False)
    game = s.game
    for seat in range(players):
        display = game._displays[seat]
        for tile in (*CIVILIZATIONS, *MONUMENTS):
            display[tile] = 3
        display[Tile.GOD] = 4
        display[Tile.GOLD] = 5
        display[Tile.PHARAOH] = 12
        display[Tile.NILE] = 15
        display[Tile.FLOOD] = 11
        game._scores[seat] = 100 + seat
        game._used[seat] |= (1 << 1) | (1 << 13)  # face-down suns widen the suns column
    return s


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("edition", ["original", "2023"])
def test_every_player_and_tile_group_is_visible_at_80x24(tmp_path: Path, players: int, edition: str) -> None:
    s = crowded_session(tmp_path, players)
    app = PlayApp(s, delay=0, edition=edition)
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        screens.append(await steady_text(pilot, app))

    run(app, script)
    text = screens[0]
    lines = text.splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    for name in NAMES[:players]:
        assert name[:11] in text, f"{name} is missing:\n{text}"  # long names may end in …
    for tile in (*CIVILIZATIONS, *MONUMENTS):
        assert text.count(f"{code(tile, edition)}3") == players, f"{tile.id} missing for someone:\n{text}"
    assert text.count(f"{code(Tile.GOLD, edition)}5") == players
    assert text.count("15+11f") == players
    assert "Draw" in text or "Pass" in text, text  # the buttons stay on screen
    assert "(13 1)" in text
    assert "Help" in lines[-1] and "Quit" in lines[-1]  # the footer too


def test_the_2023_edition_names_the_monuments_it_renames(tmp_path: Path) -> None:
    s = crowded_session(tmp_path, 3)
    app = PlayApp(s, delay=0, edition="2023")
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        screens.append(await steady_text(pilot, app))
        await pilot.press("question_mark")
        await pilot.pause()
        screens.append(app.screen.query_one(Markdown).source)

    run(app, script)
    table, full_help = screens
    assert code(Tile.FORTRESS, "2023") == "Sa" and code(Tile.PALACE, "2023") == "Ma"
    assert "Sa3" in table and "Ma3" in table and "Fo3" not in table and "Pa3" not in table
    assert "2023 ed." in table
    # The legend names the edition's tiles (the rules summary above it names every edition's).
    legend = full_help[full_help.index("Civilizations: ") :]
    assert "Sanctuary" in legend and "Mausoleum" in legend
    assert "Fortress" not in legend and "Unrest" not in legend


def test_a_full_track_of_long_names_stays_on_its_line(tmp_path: Path) -> None:
    s = crowded_session(tmp_path, 3)
    s.game._track = [int(Tile.PHARAOH)] * 8
    for display in s.game._displays:
        display[Tile.GOD] = 0  # nobody takes a Pharaoh off the track
    s.game._unseen[Tile.PHARAOH] -= 8
    app = PlayApp(s, delay=0)
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        screens.append(await steady_text(pilot, app))

    run(app, script)
    line = next(x for x in screens[0].splitlines() if x.strip().startswith("Auction"))
    assert line.count("[Phara") == 8 or line.count("[Pharaoh]") == 8, screens[0]


def test_log_lines_wrap_and_are_never_cut(tmp_path: Path) -> None:
    s = crowded_session(tmp_path, 5)
    app = PlayApp(s, delay=0)
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        log = app.query_one("#log")
        long = "Cleopatra VII wins the auction with sun 10 and takes " + ", ".join(NAMES) + " -> (face down)."
        log.write(long)  # type: ignore[attr-defined]
        await pilot.pause()
        screens.append(await steady_text(pilot, app))

    run(app, script)
    flat = " ".join(line.strip() for line in screens[0].splitlines())
    assert "with sun 10 and takes" in flat
    assert "-> (face down)." in flat, screens[0]
    assert "▁▁▁" not in screens[0]  # no horizontal scroll bar


def test_status_line_is_never_cut_at_80_columns(tmp_path: Path) -> None:
    # A long 2-player game with 7 suns: every bid button, Pass and the must-bid reason fit.
    seats = [Seat("Hatshepsut I"), Seat("Cleopatra VII", "greedy")]
    s = Session.new(seats, seed=2, variant="long-2p", suns_per_player=7, save_path=tmp_path / "s.json")
    app = PlayApp(s, delay=0)
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(200):
            await settle(pilot, app)
            if s.game.phase == "bid" and s.game.auction is not None and s.game.auction.must_bid:
                screens.append(await steady_text(pilot, app))
                return
            if s.game.phase == "action" and s.game.to_move == 0 and s.game.ra_track < 2:
                await pilot.press("r")
            elif s.game.phase == "bid" and s.human_to_move():
                await pilot.press("p")
            else:
                await pilot.press(*first_keys(app))

    run(app, script)
    assert screens, "no must-bid auction came up"
    text = screens[0]
    flat = " ".join(line.strip() for line in text.splitlines())
    assert "all others passed: you must bid (R4.3)" in flat, text
    suns = [a.sun for a in s.game.legal_actions() if a.kind == "bid"]
    assert len(suns) >= 5
    bar = next(x for x in text.splitlines() if "Bid (type the sun):" in x)
    for sun in suns:
        assert f" {sun} " in bar + " ", bar


def test_an_unknown_view_of_ra_names_every_tile_with_its_edition() -> None:
    for edition in ra.EDITIONS:
        codes = [code(t, edition) for t in (*CIVILIZATIONS, Tile.GOLD, *MONUMENTS)]
        assert len(set(codes)) == len(codes)


def test_eight_god_choices_fit_the_button_line(tmp_path: Path) -> None:
    s = crowded_session(tmp_path, 3)
    game = s.game
    seat = game.to_move
    assert seat is not None
    game._track = [
        int(t)
        for t in (
            Tile.STEP_PYRAMID,
            Tile.AGRICULTURE,
            Tile.ASTRONOMY,
            Tile.EARTHQUAKE,
            Tile.PHARAOH,
            Tile.RELIGION,
            Tile.FORTRESS,
            Tile.WRITING,
        )
    ]
    for i, display in enumerate(game._displays):
        display[Tile.GOD] = 2 if i == seat else 0
    game._begin_turn(seat)  # the turn begins with a full track: no draw (R3.2)
    s.seats[seat] = Seat(s.seats[seat].name)  # a person
    app = PlayApp(s, delay=0)
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        screens.append(await steady_text(pilot, app))

    run(app, script)
    bar = next(x for x in screens[0].splitlines() if "Invoke Ra" in x)
    assert "God:" in bar, bar
    for key, name in enumerate(("Sp", "Ag", "As", "Ea", "Ph", "Re", "Fo", "Wr"), 1):
        assert f"{key} {name}" in bar, bar  # every choice on the line, in track order


def test_choosing_a_discard_keeps_every_row_and_says_who_and_what(tmp_path: Path) -> None:
    game = ra.Game(
        players=["Hatshepsut I", "Cleopatra VII"],
        seed=0,
        bag=["temple", "pyramid", "obelisk", "earthquake"],
        suns=[[9, 6, 5, 2], [8, 7, 4, 3]],
        hidden_scores=True,
    )
    for action in ("draw", "draw", "draw", "draw", "ra", "pass", "bid 2"):
        game.apply(action)
    assert game.phase == "discard"
    for display in game._displays:  # crowd both rows: the table must still show them whole
        for tile in (*CIVILIZATIONS, Tile.GOLD):
            display[tile] = 2
    s = Session(game, [Seat("Hatshepsut I"), Seat("Cleopatra VII")], save_path=tmp_path / "s.json")
    app = PlayApp(s, delay=0, edition="2023")
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        screens.append(await steady_text(pilot, app))

    run(app, script)
    text = screens[0]
    assert "Earthquake: Hatshepsut I must discard 2 monuments; choose which" in text, text
    assert "Hatshepsut I" in text and "Cleopatra VII" in text
    assert text.count("As2 Ag2 Wr2 Re2 Ar2 Go2") == 2
    assert "Ob Py Te" in text  # the monuments just won, before the choice
    bar = next(x for x in text.splitlines() if "Lose" in x)
    assert "1 Lose Obelisk" in bar and "2 Lose Pyramid" in bar and "3 Lose Temple" in bar


def test_the_disaster_in_the_status_line_has_the_editions_name() -> None:
    game = ra.Game(
        players=["Ann", "Bob"],
        seed=0,
        bag=["art", "writing", "religion", "unrest"],
        suns=[[9, 6, 5, 2], [8, 7, 4, 3]],
    )
    for action in ("draw", "draw", "draw", "draw", "ra", "pass", "bid 2"):
        game.apply(action)
    assert game.phase == "discard"
    assert status_text(game, game.names, {0}, 0).plain.startswith("Unrest: Ann must discard 2 civilizations")
    assert status_text(game, game.names, {0}, 0, "2016").plain.startswith("War: Ann must discard")


def test_the_status_line_says_why_the_auction_takes_place_in_the_engines_words() -> None:
    game = ra.Game(players=["Ann", "Bob", "Cy"], seed=1)
    game.apply("ra")
    assert game.phase == "bid" and game.auction is not None
    bidder, invoker = game.to_move, game.auction.ra_player
    assert bidder is not None
    line = status_text(game, game.names, {bidder}, bidder).plain
    assert line.startswith(f"Auction ({game.names[invoker]} invoked Ra): ")
    names = tuple("You" if seat == invoker else n for seat, n in enumerate(game.names))
    line = status_text(game, names, {bidder}, bidder).plain
    assert line.startswith("Auction (you invoked Ra): ")


def test_the_final_line_addresses_the_seat_named_you_in_the_second_person() -> None:
    game = ra.Game(players=["You", "Bob"], seed=3)
    while not game.is_over():
        game.apply(game.legal_actions()[0])
    winner = game.winner
    assert winner is not None
    line = final_line(game, game.names)
    if winner == 0:
        assert line.startswith("Game over — you win with ")
    else:
        assert line.startswith("Game over — Bob wins with ")
    renamed = ("Ann", "Bob")
    assert final_line(game, renamed).startswith(f"Game over — {renamed[winner]} wins with ")
