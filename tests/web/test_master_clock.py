"""Clocks, stand-ins and forfeits at a table, in-process on a fake clock (issue 56): the room, its
table and its bot driver over the in-memory storage, with the hub's ``now`` and ``sleep`` on a
clock that moves only when the test says so.  A time-out of minutes is tested in milliseconds,
and nothing here waits for a clock in real time; what needs sockets, PostgreSQL, a restart or a
browser stays in ``test_clock.py``, ``test_game_clock.py`` and ``test_forfeits.py``.

Each test here replaced a real-server test that waited for the clock to run out (issue 21's
walk-away and game clock, issue 40's deadline, second time-out and abandoned table)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from ra.table import stand_in_events
from ra.web.errors import ClientError
from ra.web.hub import Hub, Room, build_game
from ra.web.pubsub import LocalPubSub
from ra.web.settings import Settings
from ra.web.store.game_storage import MemoryGames
from ra.web.summaries import seat_clock
from tests.web.test_match import row

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class FakeTime:
    """A clock that moves only when :meth:`advance` says: the hub's ``now`` and ``sleep``."""

    def __init__(self) -> None:
        self.t = START
        self.sleepers: list[tuple[datetime, asyncio.Future[None]]] = []

    def now(self) -> datetime:
        return self.t

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.t + timedelta(seconds=seconds), woken))
        await woken

    async def advance(self, seconds: float = 0.0) -> None:
        """Move on by ``seconds``, waking each sleeper at its moment in order and letting what it
        starts run to its next wait."""
        end = self.t + timedelta(seconds=seconds)
        await settle()
        while True:
            self.sleepers = [(at, f) for at, f in self.sleepers if not f.done()]
            due = [s for s in self.sleepers if s[0] <= end]
            if not due:
                break
            at, woken = min(due, key=lambda s: s[0])
            self.t = max(self.t, at)
            woken.set_result(None)
            await settle()
        self.t = end
        await settle()


async def settle() -> None:
    """Let every task that can run, run (the in-memory storage never waits on anything else)."""
    for _ in range(200):
        await asyncio.sleep(0)


async def master(
    fake: FakeTime, deadline: float | None = None, pace: float = 0.0, **options: Any
) -> tuple[MemoryGames, Room]:
    """A running two-person game (seed 6) on the fake clock (``pace``: the bots'): its storage
    and its room."""
    store = MemoryGames(now=fake.now)
    game = row(None, None, seed=6, stand_in="random", **options)
    game.bot_delay = pace
    game.updated_at, game.to_move = fake.t, build_game(game, []).to_move  # as the lobby starts it
    store.put(game)
    settings = Settings(db_url="memory://")
    if deadline is not None:
        settings.move_deadline = deadline
    hub = Hub(store, settings, pubsub=LocalPubSub())
    hub.now, hub.sleep = fake.now, fake.sleep
    room = await hub.room(game.id)
    assert room is not None and room.game is not None
    return store, room


def to_move(room: Room) -> int:
    seat = room.table_now().game.to_move
    assert seat is not None
    return seat


async def play_until(
    room: Room, fake: FakeTime, person: int, done: Callable[[], bool], pace: float = 0.0
) -> None:
    """``person`` plays at random at once; the other seat's turns are its stand-in's (``pace``:
    the seconds that pass between two looks) until ``done()`` or the end."""
    rng = random.Random(2)
    for _ in range(2000):
        table = room.table_now()
        if table.game.is_over() or done():
            return
        if table.game.to_move == person:
            await room.act(person, str(rng.choice(table.game.legal_actions())), table.game.num_decisions)
        await fake.advance(pace)
    raise AssertionError("the game did not get there")


def run(main: Callable[[FakeTime], Coroutine[Any, Any, None]]) -> None:
    async def go() -> None:
        await main(FakeTime())

    asyncio.run(go())


def test_a_walk_away_is_played_by_the_stand_in_at_the_tables_pace_until_the_person_is_back() -> None:
    async def main(fake: FakeTime) -> None:
        store, room = await master(fake, move_seconds=60)
        walker = to_move(room)
        assert room.bots.clock_left() == 60.0
        await fake.advance(59.9)
        assert room.table_now().game.num_decisions == 0 and room.bots.clock_left() == pytest.approx(0.1)
        await fake.advance(0.1)  # the clock runs out: the stand-in decides, the seat is away
        assert room.table_now().game.num_decisions == 1 and room.table_now().stand_ins == {0}
        assert room.away(walker) and store.rows[room.id].seats[walker].away
        assert walker not in room.table_now().forfeited  # at a "stand_in" table, never a forfeit
        t0 = fake.t
        await play_until(room, fake, 1 - walker, lambda: len(room.table_now().stand_ins) >= 4)
        assert fake.t == t0  # away: each of its turns at the table's pace, not after a clock
        await room.bots.set_away(walker, False)  # back: the seat is the person's again
        assert not room.away(walker) and not store.rows[room.id].seats[walker].away
        await play_until(room, fake, 1 - walker, lambda: to_move(room) == walker)
        n = room.table_now().game.num_decisions
        assert room.bots.clock_left() == 60.0  # a whole clock for the turn
        await fake.advance(30)
        assert room.table_now().game.num_decisions == n and not room.away(walker)

    run(main)


def test_a_game_clock_is_charged_with_the_increment_and_a_clock_that_ran_out_stays_out() -> None:
    async def main(fake: FakeTime) -> None:
        store, room = await master(fake, game_seconds=600, increment=5)
        mover = to_move(room)
        assert room.bots.clock_left() == 600.0 and seat_clock(room.row, 1 - mover, fake.t) == 600.0
        await fake.advance(100)
        assert seat_clock(room.row, mover, fake.t) == 500.0  # the mover's runs down
        assert seat_clock(room.row, 1 - mover, fake.t) == 600.0  # the other's stands still
        await room.act(mover, "ra", 0)
        assert room.row.seats[mover].bank == store.rows[room.id].seats[mover].bank == 505.0
        walker = to_move(room)
        if walker == mover:  # the same person is to move again: a new decision, its clock
            assert room.bots.clock_left() == 505.0
        await fake.advance(room.bots.clock_left() or 0)  # the walker's whole clock, spent
        assert room.away(walker) and room.row.seats[walker].bank == 0.0
        assert room.table_now().stand_ins  # the stand-in decided
        await room.bots.set_away(walker, False)  # back: what it had (nothing) plus the increment
        assert room.row.seats[walker].bank == store.rows[room.id].seats[walker].bank == 5.0

    run(main)


def test_at_a_forfeit_table_a_seat_out_of_time_forfeits_for_good_and_ranks_last() -> None:
    async def main(fake: FakeTime) -> None:
        store, room = await master(fake, game_seconds=600, on_timeout="forfeit", pace=2.0)
        walker = to_move(room)
        await fake.advance(599)
        assert not room.table_now().forfeited
        await fake.advance(1)
        assert room.table_now().forfeited == {walker}
        assert store.rows[room.id].seats[walker].forfeited and room.away(walker)
        with pytest.raises(ClientError) as refused:
            await room.bots.set_away(walker, False)
        assert refused.value.code == "forfeited" and "bot plays it to the end" in refused.value.message
        await play_until(room, fake, 1 - walker, lambda: to_move(room) == walker, pace=1.0)
        with pytest.raises(ClientError) as late:  # the person may not decide any more
            await room.act(
                walker, str(room.table_now().game.legal_actions()[0]), room.table_now().game.num_decisions
            )
        assert late.value.code == "forfeited"
        await play_until(room, fake, 1 - walker, lambda: False, pace=1.0)
        result = room.table_now().result()
        assert result is not None and result.winner == 1 - walker and result.order[-1] == walker
        assert store.rows[room.id].winner == 1 - walker and store.rows[room.id].status == "finished"
        assert room.table_now().record()["forfeited"] == [walker]
        marked = stand_in_events(room.table_now().game.events, room.table_now().stand_ins)
        assert marked and all(room.table_now().game.events[i].seat == walker for i in marked)

    run(main)


def test_a_stand_ins_decision_is_stored_marked_and_stays_when_the_person_is_back() -> None:
    async def main(fake: FakeTime) -> None:
        store, room = await master(fake, game_seconds=600)
        seat = to_move(room)
        await fake.advance(600)  # the clock runs out: the stand-in decides for the seat
        assert store.rows[room.id].seats[seat].away and (await store.decisions(room.id))[0].stand_in
        marked = stand_in_events(room.table_now().game.events, room.table_now().stand_ins)
        assert marked and all(room.table_now().game.events[i].seat == seat for i in marked)
        assert room.table_now().movers == [seat]  # the other seat is a person: nobody else has moved
        await room.bots.set_away(seat, False)  # the person comes back: the stand-in's decision stays
        reason = room.table_now().why_no_undo(seat)
        assert reason is not None and reason.key == "tui.undo.stand_in"
        with pytest.raises(ClientError):
            await room.undo(seat, room.table_now().game.num_decisions)
        assert room.table_now().game.num_decisions == 1

    run(main)


def test_at_a_table_without_a_clock_the_sites_deadline_forfeits_and_the_other_wins() -> None:
    async def main(fake: FakeTime) -> None:
        store, room = await master(fake, deadline=3 * 86400.0)
        walker = to_move(room)
        assert room.bots.clock_left() is None  # no clock to show
        await fake.advance(3 * 86400.0 - 1)
        assert not room.table_now().forfeited
        await fake.advance(1)
        assert room.table_now().forfeited == {walker}
        await play_until(room, fake, 1 - walker, lambda: False)
        assert store.rows[room.id].winner == 1 - walker

    run(main)


def test_a_table_everyone_left_is_played_to_its_end_with_both_seats_forfeited() -> None:
    async def main(fake: FakeTime) -> None:
        store, room = await master(fake, deadline=1000.0)
        for _ in range(2000):
            if room.table_now().game.is_over():
                break
            await fake.advance(1000.0)
        assert room.table_now().game.is_over()
        assert room.table_now().forfeited == {0, 1}
        assert all(s.forfeited for s in store.rows[room.id].seats)
        assert store.rows[room.id].status == "finished"

    run(main)


def test_at_a_second_time_table_the_first_time_out_is_stood_in_for_and_the_second_forfeits() -> None:
    async def main(fake: FakeTime) -> None:
        _, room = await master(fake, move_seconds=60, on_timeout="second")
        walker = to_move(room)
        await fake.advance(60)
        assert room.away(walker) and not room.table_now().forfeited  # the first time
        await room.bots.set_away(walker, False)
        await play_until(room, fake, 1 - walker, lambda: to_move(room) == walker)
        await fake.advance(60)  # the second time
        assert room.table_now().forfeited == {walker} and walker in room.table_now().forfeited

    run(main)


def test_the_rooms_row_keeps_no_copy_of_a_forfeit_or_an_away_seat() -> None:
    """One place for each fact (issue 56): the table holds who forfeited and who is away; the
    room's cached row is not told (it held a second copy), the summary everyone is sent reads
    the table, and the storage keeps it for the next load."""

    async def main(fake: FakeTime) -> None:
        store, room = await master(fake, game_seconds=600, on_timeout="forfeit")
        walker = to_move(room)
        await fake.advance(600)
        assert room.table_now().forfeited == {walker} and room.away(walker)
        assert not room.row.seats[walker].forfeited and not room.row.seats[walker].away
        seats = room.summary()["seats"]
        assert seats[walker]["forfeited"] and seats[walker]["away"]
        assert not seats[1 - walker]["forfeited"] and not seats[1 - walker]["away"]
        stored = store.rows[room.id].seats[walker]
        assert stored.forfeited and stored.away

    run(main)
