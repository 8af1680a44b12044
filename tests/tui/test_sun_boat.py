"""The 2023 edition's sun boat on the terminal's Ra track (R1.2): the boat at the space for the
Ra tiles drawn this epoch, from a start space one before the first tile space (our ruling)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

import ra
from ra.tui import PlayApp, Seat, Session
from ra.tui.render import SUN_BOAT, board_line
from ra.words import words
from tests.tui.test_app import run, settle, steady_text

BOAT_LABEL = words("en")("tui.board.sun_boat") + " "


def with_ra_tiles(game: ra.Game, n: int) -> ra.Game:
    """Play on (draw when possible, else pass, else the first legal action) until ``n`` Ra tiles
    lie on the first epoch's Ra track."""
    while game.ra_count < n:
        assert game.epoch == 1 and not game.is_over()
        legal = game.legal_actions()
        kinds = {a.kind: a for a in legal}
        game.apply(kinds.get("draw") or kinds.get("pass") or legal[0])
    return game


@pytest.mark.parametrize(("players", "drawn"), [(2, 0), (3, 2), (5, 3)])
def test_the_2023_track_shows_the_boat_and_the_original_the_ra_tiles(players: int, drawn: int) -> None:
    game = with_ra_tiles(ra.Game(players=players, seed=11), drawn)
    length = game.ra_track_length
    boat = board_line(game, "2023").plain
    # The start space, then one space per Ra tile: the boat stands on space `drawn`.
    track = boat.split(BOAT_LABEL)[1].split(" ")[0]
    assert len(track) == length + 1
    assert track.index(SUN_BOAT["boat"]) == drawn
    assert track == "~" * drawn + "☼" + "·" * (length - drawn - 1) + "|"
    assert f" {drawn}/{length}" in boat
    assert "■" not in boat and "□" not in boat and "Ra track" not in boat  # no Ra tiles laid
    original = board_line(game).plain
    assert "Ra track " + "■" * drawn + "□" * (length - drawn) + f" {drawn}/{length}" in original
    assert SUN_BOAT["boat"] not in original and BOAT_LABEL not in original


def test_the_boat_on_the_last_space_hides_the_end_mark() -> None:
    game = with_ra_tiles(ra.Game(players=3, seed=11), 2)
    game._ra = game.ra_track_length  # the Ra tile that ends the epoch (scored at once, R6)
    track = board_line(game, "2023").plain.split(BOAT_LABEL)[1].split(" ")[0]
    assert track == "~" * 8 + "☼"


def test_the_sun_boat_fits_80_columns_with_five_players(tmp_path: Path) -> None:
    seats = [Seat("Hatshepsut I")] + [Seat(f"Bot {i}", "greedy") for i in range(4)]
    s = Session.new(seats, seed=4, save_path=tmp_path / "s.json")
    with_ra_tiles(s.game, 1)
    app = PlayApp(s, delay=0, edition="2023")
    screens: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        screens.append(await steady_text(pilot, app))

    run(app, script)
    lines = screens[0].splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    board = next(line for line in lines if "Sun boat" in line)
    n = s.game.ra_count if s.game.epoch == 1 else 0
    assert f"Sun boat {'~' * n}☼" in board and f" {n}/10" in board and "Centre sun" in board
