"""The lobby in-process (issue 56): :class:`ra.web.lobby.Lobby` over the lobby's in-memory twin
(:class:`ra.web.store.lobby.MemoryLobby`) and a hub on it, with no server, socket or database:
tables made, joined, started, left and played again, the creator's caps and the records'
imports, each in milliseconds.  The twin behaves as the SQL store does
(``tests/web/test_store_contract.py``); what needs a real server stays in ``test_server.py``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import Any, Literal

import pytest

from ra.engine import Game
from ra.web.errors import ApiError
from ra.web.hub import Hub
from ra.web.lobby import Join, Lobby, NewGame, SeatSpec
from ra.web.pubsub import LocalPubSub
from ra.web.settings import Settings
from ra.web.store.lobby import MemoryLobby

ADDR = "10.0.0.1"


def lobby(**settings: Any) -> tuple[MemoryLobby, Lobby]:
    store = MemoryLobby()
    config = Settings(db_url="memory://", **settings)
    return store, Lobby(store, Hub(store, config, pubsub=LocalPubSub()), config)


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(main())


def table(*kinds: Literal["human", "bot"], name: str | None = "Ann", join: bool = True) -> NewGame:
    return NewGame(seats=[SeatSpec(kind=k) for k in kinds], name=name, join=join)


def test_a_table_fills_starts_and_its_last_person_leaving_closes_another() -> None:
    async def main() -> None:
        store, lb = lobby()
        made = await lb.create(table("human", "human", "bot"), ADDR)
        game_id = made["game"]["id"]
        assert made["seat"] == 0 and made["link"] == f"/g/{game_id}?seat=0&token={made['token']}"
        assert made["game"]["status"] == "open"
        with pytest.raises(ApiError) as taken:
            await lb.join(game_id, Join(name="ann"))  # the name's key is taken at this table
        assert taken.value.code == "name_taken"
        joined = await lb.join(game_id, Join(name="Bob"))
        assert joined["seat"] == 1 and joined["game"]["status"] == "running"
        row = await store.game(game_id)
        assert row is not None and row.status == "running" and row.to_move is not None
        with pytest.raises(ApiError) as started:
            await lb.leave(game_id, joined["token"])
        assert started.value.code == "started"

        other = await lb.create(table("human", "human"), ADDR)
        left = await lb.leave(other["game"]["id"], other["token"])
        assert left["game"]["id"] == other["game"]["id"]
        assert await store.game(other["game"]["id"]) is None  # nobody seated: closed
        with pytest.raises(ApiError) as bad:
            await lb.token_seat(game_id, "not a token")
        assert bad.value.code == "bad_token"

    run(main)


def test_the_creators_caps_are_the_stores_count_in_the_lobbys_words() -> None:
    async def main() -> None:
        _, lb = lobby(max_open_games_per_addr=2, max_bot_seats_per_addr=3)
        await lb.create(table("bot", "bot", name=None, join=False), ADDR)
        with pytest.raises(ApiError) as bots:
            await lb.create(table("human", "bot", "bot"), ADDR)
        assert (bots.value.status, bots.value.code) == (429, "too_many_bots")
        assert "already have 2 bot seats; at most 3" in bots.value.message
        await lb.create(table("human", "human"), ADDR)
        with pytest.raises(ApiError) as games:
            await lb.create(table("human", "human"), ADDR)
        assert (games.value.status, games.value.code) == (429, "too_many_games")
        assert "2 games waiting or running" in games.value.message
        await lb.create(table("human", "human"), "10.0.0.2")  # another address: its own caps

    run(main)


def test_an_imported_record_is_a_finished_game_within_the_day_cap() -> None:
    async def main() -> None:
        store, lb = lobby(max_games_per_addr=1)
        body = json.dumps(Game(["Ann", "Bob"], seed=4).to_record()).encode()
        imported = await lb.records.import_record(body, ADDR)
        row = await store.game(imported["game"]["id"])
        assert row is not None and row.status == "finished" and row.casual and row.creator_addr == ADDR
        with pytest.raises(ApiError) as today:
            await lb.records.import_record(body, ADDR)
        assert (today.value.code, today.value.message) == (
            "too_many_games",
            "this address has 1 games stored today; try tomorrow",
        )
        with pytest.raises(ApiError) as bad:
            await lb.records.import_record(b"{not json", "10.0.0.3")
        assert bad.value.code == "bad_record"

    run(main)


def test_two_rematch_requests_share_one_new_table() -> None:
    async def main() -> None:
        store, lb = lobby()
        made = await lb.create(table("human", "human"), ADDR)
        game_id = made["game"]["id"]
        joined = await lb.join(game_id, Join(name="Bob"))
        row = await store.game(game_id)
        assert row is not None
        row.status = "finished"
        store.put(row)
        with pytest.raises(ApiError) as seat:
            await lb.rematch(game_id, "not a token")
        assert seat.value.code == "bad_token"
        first = await lb.rematch(game_id, made["token"])
        second = await lb.rematch(game_id, joined["token"])
        assert first["game"]["id"] == second["game"]["id"] != game_id
        assert (first["seat"], second["seat"]) == (0, 1)
        assert second["game"]["status"] == "running"

    run(main)
