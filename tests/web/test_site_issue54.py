"""Issue 54, the site's part, against a real ``ra serve``: presence is one fact every viewer
reads (a spectator sees a seated player online as the players do), an open table whose people
have all gone leaves the lobby (and comes back with them), and pages of things that do not
exist answer 404 in the reader's language."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import websockets

from ra.web.store import GameRow, SeatRow
from ra.web.testing import Server
from ra.web.waiting import deserted
from tests.web.client import Player, create
from tests.web.test_accounts import sign_up


def test_a_spectator_sees_the_seated_creator_online_as_she_does(server: Server) -> None:
    """Issue 54: a spectator's first state reckoned presence from its own connection alone (the
    room's clients swapped for it), so "Seat 1: Lotte ○ offline" while her page was open."""
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}], name="Lotte")
    gid = made["game"]["id"]

    async def main() -> tuple[list[bool], list[bool]]:
        lotte = Player(server.ws, gid, made["token"])
        await lotte.connect()
        await lotte.state_now()
        visitor = Player(server.ws, gid, None)
        await visitor.connect()
        state = await visitor.state_now()
        seen = [bool(s["connected"]) for s in state["game"]["seats"]]
        api: dict[str, Any] = httpx.get(f"{server.url}/api/games/{gid}", timeout=10).json()
        await lotte.close()
        await visitor.close()
        return seen, [s["connected"] for s in api["seats"]]

    seen, told = asyncio.run(main())
    assert seen == told == [True, False]


# --- abandoned open tables leave the lobby --------------------------------------------------


def _row(status: str, gone: list[datetime | None], move_seconds: int | None = None) -> GameRow:
    """A table whose human seats are taken, each gone since ``gone`` (None: here), plus a bot."""
    seats = [SeatRow(i, "human", None, f"P{i}", f"hash{i}", gone_at=g) for i, g in enumerate(gone)]
    seats.append(SeatRow(len(gone), "bot", "easy", "Bot", None))
    return GameRow(
        "g1",
        T0,
        status,
        len(seats),
        "standard",
        None,
        False,
        "modern",
        0.0,
        1,
        None,
        0,
        None,
        1,
        None,
        None,
        None,
        move_seconds=move_seconds,
        seats=seats,
    )


T0 = datetime(2026, 12, 2, 1, 0, tzinfo=UTC)


def test_an_open_table_is_deserted_once_all_its_people_are_gone_the_wait() -> None:
    """Issue 54's rule at injected times: gone a minute is out; one person here, or back, keeps
    it; a table by turns waits for mail; one nobody sits at waits for its link."""
    minute = 60.0
    gone = T0 - timedelta(seconds=61)
    assert deserted(_row("open", [gone]), T0, minute)
    assert not deserted(_row("open", [T0 - timedelta(seconds=59)]), T0, minute)
    assert not deserted(_row("open", [gone, None]), T0, minute)  # one still waits there
    assert deserted(_row("open", [gone, gone]), T0, minute)
    assert not deserted(_row("open", [None]), T0, minute)  # came back
    assert not deserted(_row("running", [gone]), T0, minute)
    assert not deserted(_row("open", [gone], move_seconds=86400), T0, minute)
    assert not deserted(_row("open", []), T0, minute)


async def _open_ids(lobby: Any) -> list[str]:
    """The open tables of the next list the live lobby sends."""
    while True:
        m = json.loads(await asyncio.wait_for(lobby.recv(), 30))
        if m.get("type") == "lobby":
            return [g["id"] for g in m["open"]]


async def _lobby_until(lobby: Any, pred: Callable[[list[str]], bool]) -> list[str]:
    async with asyncio.timeout(30):
        while not pred(ids := await _open_ids(lobby)):
            pass
    return ids


def test_a_table_whose_creator_went_leaves_the_lobby_and_comes_back_with_her(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    """Issue 54: with the wait set to nothing (no clock waited for), the creator's page closing
    takes the table out of the live lobby and out of quick play; her page back brings it back."""
    server = server_factory(sqlite_url, tmp_path / "s.log", env={"RA_OPEN_TABLE_WAIT": "0"}).start()
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}], name="Lotte")
    gid = made["game"]["id"]

    async def main() -> None:
        lotte = Player(server.ws, gid, made["token"])
        await lotte.connect()
        await lotte.state_now()
        async with websockets.connect(f"{server.ws}/ws/lobby") as lobby:
            await _lobby_until(lobby, lambda ids: gid in ids)
            await lotte.close()
            await _lobby_until(lobby, lambda ids: gid not in ids)
            seek = httpx.post(f"{server.url}/api/seek", json={"name": "Newcomer", "players": 2}, timeout=10)
            assert seek.json()["game"]["id"] != gid, "quick play seated a newcomer at the deserted table"
            back = Player(server.ws, gid, made["token"])
            await back.connect()
            await _lobby_until(lobby, lambda ids: gid in ids)
            await back.close()

    asyncio.run(main())


def test_a_creator_who_reloads_keeps_her_table_in_the_lobby(server: Server) -> None:
    """A reload (the page gone a moment, then back) within the minute never takes it out."""
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}], name="Lotte")
    gid = made["game"]["id"]

    async def main() -> None:
        for _ in range(2):
            lotte = Player(server.ws, gid, made["token"])
            await lotte.connect()
            await lotte.state_now()
            await lotte.close()
        again = Player(server.ws, gid, made["token"])
        await again.connect()
        await again.state_now()
        async with websockets.connect(f"{server.ws}/ws/lobby") as lobby:
            assert gid in await _open_ids(lobby)
        await again.close()

    asyncio.run(main())
    seek = httpx.post(f"{server.url}/api/seek", json={"name": "Newcomer", "players": 2}, timeout=10)
    assert seek.json()["game"]["id"] == gid


# --- pages of things that do not exist -------------------------------------------------------


def test_unknown_games_replays_and_players_answer_404_with_the_page(server: Server) -> None:
    """Issue 54: ``/replay/<unknown>`` was a 200 with replay controls and an active Analyse
    button; unknown tables and profiles too.  Known ones still answer their pages."""
    made = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], name="Lotte")
    gid = made["game"]["id"]
    for path in ("/replay/nosuchgame", "/g/nosuchgame", "/u/Nobody", f"/replay/{'x' * 40}", "/u/" + "y" * 60):
        r = httpx.get(server.url + path, timeout=10)
        assert r.status_code == 404, path
        assert "text/html" in r.headers["content-type"] and 'id="notfound"' in r.text, path
    sign_up(server.url, "Lotta").close()
    for path in (f"/g/{gid}", f"/replay/{gid}", "/u/Lotta", "/u/lotta"):
        r = httpx.get(server.url + path, timeout=10)
        assert r.status_code == 200 and 'id="notfound"' not in r.text, path


# --- bot names that fit a sentence ------------------------------------------------------------


def test_bot_names_are_names_that_need_no_declension() -> None:
    """Issue 54: "1 Punkt für Mittlerer Bot 2" (the adjective does not decline in a name); a bot
    is "Bot (mittel) 2", "Бот (средний) 2" in every sentence, and fits the terminal's column."""
    from ra.table import bot_label
    from ra.tui.render import NAME_WIDTH

    for level in ("easy", "medium", "hard", "expert", "master"):
        de, ru = (
            bot_label(level, {bot_label(level, lang="de")}, "de"),
            bot_label(level, {bot_label(level, lang="ru")}, "ru"),
        )
        assert de.startswith("Bot (") and de.endswith(") 2"), de
        assert ru.startswith("Бот (") and ru.endswith(") 2"), ru
        assert max(len(de), len(ru)) <= NAME_WIDTH
    assert (
        bot_label("medium", lang="de") == "Bot (mittel)" and bot_label("medium", lang="ru") == "Бот (средний)"
    )


def test_the_upgrade_counts_the_people_at_old_open_tables_gone(empty_sqlite_url: str) -> None:
    """Migration 0022: nobody knows when the people seated at the open tables of before left, so
    they count as gone from the upgrade on (a table nobody comes back to leaves the lobby then);
    a running table's seats and a free seat are left alone."""
    import sqlalchemy as sa

    from ra.web import db

    db.upgrade(empty_sqlite_url, "0018")
    engine = sa.create_engine(empty_sqlite_url)
    stamp = datetime(2026, 1, 1, tzinfo=UTC)
    with engine.begin() as conn:
        for gid, status in (("open1", "open"), ("run1", "running")):
            conn.execute(
                sa.text(
                    "INSERT INTO games (id, status, players, variant, hidden_scores, seed, num_decisions,"
                    " epoch, created_at, updated_at, bot_delay, edition)"
                    " VALUES (:id, :status, 2, 'standard', 0, 1, 0, 1, :t, :t, 0, 'original')"
                ),
                {"id": gid, "status": status, "t": stamp},
            )
            for seat, token in ((0, f"hash-{gid}"), (1, None)):
                conn.execute(
                    sa.text(
                        "INSERT INTO seats (game_id, seat, kind, token_hash) VALUES (:g, :s, 'human', :h)"
                    ),
                    {"g": gid, "s": seat, "h": token},
                )
    db.upgrade(empty_sqlite_url)
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT game_id, seat, gone_at FROM seats ORDER BY game_id, seat")).all()
    engine.dispose()
    gone = {(g, s): t is not None for g, s, t in rows}
    assert gone == {("open1", 0): True, ("open1", 1): False, ("run1", 0): False, ("run1", 1): False}
