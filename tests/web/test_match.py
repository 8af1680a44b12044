"""The game master in-process (issue 39): a room, its table and its bot driver over the in-memory
storage (:class:`ra.web.store.game_storage.MemoryGames`), with no server, socket or database — the way
boardgame.io's ``master.test.ts`` drives its master.  What needs a real server (sockets,
PostgreSQL, nginx, the browser) stays in the other files of ``tests/web``."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

import pytest

from ra.web.errors import ClientError
from ra.web.hub import Hub, Room
from ra.web.pubsub import LocalPubSub
from ra.web.settings import Settings
from ra.web.store import GameRow, SeatRow
from ra.web.store.game_storage import MemoryGames


def row(*seats: str | None, seed: int = 3, **options: Any) -> GameRow:
    """A running game: ``None`` is a person's seat, a string a bot's level."""
    return GameRow(
        id=f"g{seed}",
        created_at=datetime.now(UTC),
        status="running",
        players=len(seats),
        variant="standard",
        suns_per_player=None,
        hidden_scores=True,
        edition="original",
        bot_delay=0.0,
        seed=seed,
        record=None,
        num_decisions=0,
        to_move=None,
        epoch=1,
        winner=None,
        scores=None,
        rematch_id=None,
        updated_at=datetime.now(UTC),
        seats=[
            SeatRow(i, "bot" if s else "human", s, f"P{i + 1}" if s is None else None, None)
            for i, s in enumerate(seats)
        ],
        **options,
    )


async def master(game: GameRow) -> tuple[MemoryGames, Hub, Room]:
    store = MemoryGames()
    store.put(game)
    hub = Hub(store, Settings(db_url="memory://"), pubsub=LocalPubSub())
    room = await hub.room(game.id)
    assert room is not None and room.game is not None
    return store, hub, room


async def until(check: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    """Let the room's bot tasks run until ``check()`` holds."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def moved(room: Room, n: int) -> Callable[[], bool]:
    """Whether the room's game has gone past decision ``n`` (or ended)."""
    return lambda: room.table_now().game.num_decisions > n or room.table_now().game.is_over()


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(main())


def test_a_person_and_two_bots_play_to_the_end_and_storage_follows() -> None:
    async def main() -> None:
        store, hub, room = await master(row(None, "easy", "random", seed=5))
        rng = random.Random(1)
        while not room.table_now().game.is_over():
            game = room.table_now().game
            if game.to_move == 0:
                await room.act(0, str(rng.choice(game.legal_actions())), game.num_decisions)
            else:
                await until(moved(room, game.num_decisions), "the bot's move")
        stored = store.rows[room.id]
        assert [d.action for d in await store.decisions(room.id)] == [
            str(a) for a in room.table_now().game.decisions
        ]
        result = room.table_now().result()
        assert result is not None
        assert (stored.status, stored.winner, stored.scores) == (
            "finished",
            result.winner,
            list(result.scores),
        )
        await hub.stop()

    run(main)


def test_undo_follows_the_tables_one_policy_and_the_storage_takes_it_back() -> None:
    async def main() -> None:
        store, hub, room = await master(row(None, None, seed=4))
        mover = room.table_now().game.to_move
        assert mover is not None
        await room.act(mover, "ra", 0)
        other = room.table_now().game.to_move
        assert other is not None and other != mover
        with pytest.raises(ClientError) as refused:
            await room.undo(other, 1)  # the other did not decide last
        assert refused.value.code == "not_allowed" and refused.value.why is not None
        assert refused.value.why["params"]["reason"] == {
            "key": "tui.undo.other",
            "params": {"p": {"seat": mover}},
        }
        await room.undo(mover, 1)
        assert room.table_now().game.num_decisions == 0 and await store.decisions(room.id) == []
        assert store.rows[room.id].num_decisions == 0
        with pytest.raises(ClientError) as stale:
            await room.act(mover, "ra", 5)  # a decision number the game is not at
        assert stale.value.code == "stale" and room.table_now().game.num_decisions == 0
        await hub.stop()

    run(main)


class SlowTokens:
    """The token check of a store, held until the test lets it go."""

    def __init__(self) -> None:
        self.go = asyncio.Event()

    async def seat_for_token(self, game_id: str, token: str) -> int | None:
        await self.go.wait()
        return 0


class HelloSocket:
    """A WebSocket that says hello with a seat's token, and keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def receive(self) -> dict[str, Any]:
        return {"type": "websocket.receive", "text": '{"type": "hello", "token": "t"}'}

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def send_json(self, data: object) -> None:
        self.sent.append(str(data))

    async def close(self, code: int = 1000) -> None:
        pass


def test_a_room_is_not_forgotten_while_a_connection_is_between_hello_and_seat() -> None:
    """Issue 40, finding 7: while a page reconnected (its token being checked), its old socket's
    end made the hub forget the room; the new connection then sat in a room nobody else used,
    deaf to every decision made elsewhere — a game that silently stopped.  The hub now keeps a
    room while a connection is joining it."""
    from typing import cast

    from ra.web.routes.play import handshake
    from ra.web.store import Store

    async def main() -> None:
        _, hub, room = await master(row(None, None))
        tokens = SlowTokens()
        joining = asyncio.create_task(handshake(cast(Any, HelloSocket()), room.id, hub, cast(Store, tokens)))
        await until(lambda: room.joining == 1, "the hello to reach the token check")
        hub.release(room)  # the old socket of the same page ends now
        assert hub.rooms.get(room.id) is room
        tokens.go.set()
        opened = await joining
        assert opened is not None and opened[0] is room and room.joining == 0
        hub.release(room)  # nobody attached, nobody joining: now it may go
        assert room.id not in hub.rooms

    run(main)
