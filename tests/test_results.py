"""A game's result is one fact (issue 52, "the record's result"; issue 54, "a forfeit's last line
names the forfeiter"): a seat that forfeited ranks last everywhere — the record's ``result``
(format version 2), the log's last line, ``ra replay``'s final line, and what the site sends —
all from :func:`ra.table.game_result`.  A version 1 record (written before) still loads.

``tests/records/v1-forfeit.json`` is a record as 0.4.1 wrote it: Миша (seat 1) scored 35 and
forfeited, and its ``result`` says ``"winner": 1``; the table's winner is Ann (5 points).
"""

from __future__ import annotations

import asyncio
import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import ra
from ra.events import describe
from ra.record_format import VERSION
from ra.table import Seat, Table, TableOptions, game_result, result_log
from ra.tui import ReplayApp
from ra.tui.render import final_line
from ra.tui.session import load_replay
from ra.web.protocol import seat_payload

OLD = Path(__file__).parent / "records" / "v1-forfeit.json"
MISHA, ANN = 1, 2


def old_record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(OLD.read_text(encoding="utf-8"))
    return data


def forfeited_table() -> Table[None]:
    game = ra.Game.from_record(old_record())
    return Table(game, [Seat(n) for n in game.names], TableOptions(), forfeited={MISHA})


def test_the_old_record_is_what_0_4_1_wrote() -> None:
    data = old_record()
    assert data["version"] == 1 and data["forfeited"] == [MISHA]
    assert data["result"] == {"over": True, "scores": [0, 35, 5], "winner": MISHA}


def test_a_version_1_record_with_a_forfeit_still_loads_and_is_written_again_as_version_2() -> None:
    game = ra.Game.from_record(old_record())  # R9.2: the same game, whatever its version
    assert game.is_over() and game.winner == MISHA  # the engine knows no forfeits
    record = forfeited_table().record()
    assert record["version"] == VERSION == 2
    assert record["result"] == {"over": True, "scores": [0, 35, 5], "winner": ANN, "ranks": [2, 3, 1]}
    assert ra.Game.from_record(record) == game


def test_a_record_whose_winner_is_the_forfeited_seat_is_refused() -> None:
    record = forfeited_table().record()
    for bad in ({"winner": MISHA}, {"ranks": [2, 1, 3]}):
        tampered = copy.deepcopy(record)
        tampered["result"].update(bad)
        with pytest.raises(ra.RecordError, match="recorded result"):
            ra.Game.from_record(tampered)


def test_an_engine_record_is_version_2_with_ranks() -> None:
    game = ra.Game.from_record(old_record())
    record = game.to_record()
    assert record["version"] == 2 and record["result"]["winner"] == MISHA
    assert record["result"]["ranks"] == [3, 1, 2]
    running = ra.Game(players=3, seed=1).to_record()
    assert running["result"] == {"over": False, "scores": [10, 10, 10], "winner": None, "ranks": None}


@pytest.mark.parametrize(
    ("lang", "says", "never"),
    [
        ("en", "Game over: Ann wins.", "Миша wins"),
        ("de", "Ann gewinnt", "Миша gewinnt"),
        ("ru", "Ann", "побеждает Миша"),
    ],
)
def test_the_logs_last_line_names_the_tables_winner(lang: str, says: str, never: str) -> None:
    t = forfeited_table()
    log = result_log(t.game.events, t.result())
    last = describe(log[-1], t.game.names, lang=lang)
    assert log[-1].kind == "game_over" and log[-1].seat == ANN
    assert says in last and never.lower() not in last.lower()
    assert len(log) == len(t.game.events)  # the same entries, the stand-ins' marks stay in place


def test_ra_replays_final_line_ranks_the_forfeited_seat_last() -> None:
    t = forfeited_table()
    line = final_line(t.game, t.game.names, "en", t.forfeited)
    assert line == "Game over — Ann wins with 5 points."
    assert "Миша" not in final_line(t.game, t.game.names, "de", t.forfeited)


def test_ra_replay_of_an_old_record_shows_the_tables_winner() -> None:
    replay = load_replay(OLD)
    assert replay.forfeited == {MISHA}
    app = ReplayApp(
        replay.game, stand_ins=replay.stand_ins, stand_in=replay.stand_in, forfeited=replay.forfeited
    )

    async def main() -> str:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            console = Console(width=100, height=30, file=io.StringIO(), record=True, color_system=None)
            console.print(
                app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
            )
            return " ".join(console.export_text().split())

    text = asyncio.run(main())
    # The log's last line says the result once (issue 54: the status line no longer repeats it).
    assert "Game over: Ann wins." in text
    assert "Game over: Миша" not in text and "Миша wins with 35" not in text


@pytest.mark.parametrize("seat", [None, 0, MISHA])
def test_the_site_sends_the_tables_winner_and_last_line_to_every_viewer(seat: int | None) -> None:
    t = forfeited_table()
    payload = seat_payload(t.game, seat, "original", forfeited=t.forfeited)
    assert payload["view"]["winner"] == ANN
    last = payload["events"][-1]
    assert last["kind"] == "game_over" and last["seat"] == ANN
    assert last["msg"] == {"key": "log.game_over", "params": {"p": {"seat": ANN}}}  # "Game over: Ann wins."


def test_one_result_for_the_ratings_the_record_and_the_log() -> None:
    t = forfeited_table()
    result = game_result(t.game, t.forfeited)
    assert result is not None
    assert result.ranks() == t.record()["result"]["ranks"]
    assert result_log(t.game.events, result)[-1].seat == result.winner == t.record()["result"]["winner"]


def test_ra_analyze_names_the_tables_winner(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from ra.cli import app as cli

    out, data = tmp_path / "report.html", tmp_path / "analysis.json"
    args = ["analyze", str(OLD), "--seat", "Ann", "--budget", "4", "--out", str(out), "--json", str(data)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert json.loads(data.read_text(encoding="utf-8"))["winner"] == ANN
    assert "Winner: <b>Ann</b>" in out.read_text(encoding="utf-8")
