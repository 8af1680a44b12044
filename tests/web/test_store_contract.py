"""The storage contracts (:mod:`ra.web.store`): each aggregate's in-memory twin and its SQL store
pass the same tests, in-process: the twin always, the SQL store on SQLite (every migration
applied) and on PostgreSQL when one is reachable.  So a service tested on a twin behaves the
same over the database, and a twin cannot drift from what the database does."""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ra.puzzles import Solver
from ra.web import db
from ra.web.store import Caps, OverCapError, Store, hash_token
from ra.web.store.accounts import AccountStorage, MemoryAccounts, SeatHolder
from ra.web.store.addresses import AddressStorage, AddressTakenError, DeadLinkError, MailRow, MemoryAddresses
from ra.web.store.addresses import fold_address as fold
from ra.web.store.analyses import AnalysisStorage, MemoryAnalyses
from ra.web.store.chat import ChatStorage, MemoryChat
from ra.web.store.events import (
    EventLimitError,
    EventStorage,
    MemoryEvents,
    TableGame,
    TableLink,
    TableTakenError,
)
from ra.web.store.limits import Holds, Levels, MemoryHolds
from ra.web.store.lobby import LobbyStorage, MemoryLobby
from ra.web.store.mail_links import Link
from ra.web.store.profiles import MemoryProfiles, ProfileStorage, SatGame, SeatLine, StoredProfile
from ra.web.store.puzzles import MemoryPuzzles, PuzzleStorage
from ra.web.store.ratings import MemoryRatings, RatedGame, RatedSeat, RatingStorage, Standing
from ra.web.store.turn_mail import BY_TURNS_SECONDS, MemoryTurnMail, Person, TurnGame, TurnMailStorage

BACKENDS = ("memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.slow))
"""PostgreSQL's database is made and migrated once per module (seconds): not in the fast subset."""

WRITTEN = (
    "account_tokens",
    "analyses",
    "chat_reports",
    "chat",
    "event_tables",
    "event_rounds",
    "event_players",
    "events",
    "puzzle_attempts",
    "puzzle_solvers",
    "limit_levels",
    "limit_holds",
    "decisions",
    "sessions",
    "password_resets",
    "reserved_names",
    "seats",
    "games",
    "accounts",
)
"""The tables these tests write, cleared after each test on the module's PostgreSQL database."""


@dataclass
class Stores:
    """One backend's aggregates, as the services get them."""

    chat: ChatStorage
    levels: Levels
    holds: Holds
    accounts: AccountStorage
    analyses: AnalysisStorage
    lobby: LobbyStorage
    addresses: AddressStorage
    ratings: RatingStorage
    profiles: ProfileStorage
    turn_mail: TurnMailStorage
    events: EventStorage
    puzzles: PuzzleStorage
    store: Store | None = None
    """The SQL store behind them (None: the in-memory twins)."""
    games: int = 0

    async def new_game(self, token: str | None = None, status: str = "running") -> str:
        """A stored game (chat lines belong to one) whose seat 0 ``token`` holds, if given."""
        if self.store is None:
            self.games += 1
            if token is not None:
                holder = SeatHolder(hash_token(token), finished=status == "finished")
                cast(MemoryAccounts, self.accounts).put_seat(f"g{self.games}", 0, holder)
            return f"g{self.games}"
        values = {"status": status, "players": 2, "variant": "standard", "hidden_scores": True}
        values |= {"edition": "original", "bot_delay": 0.0, "seed": 1}
        seats = [
            {"seat": i, "kind": "human", "level": None, "name": None, "token_hash": None} for i in (0, 1)
        ]
        seats[0]["token_hash"] = None if token is None else hash_token(token)
        return await self.store.create_game(values, seats)

    async def confirm_email(self, account_id: str, email: str) -> None:
        """Give an account a confirmed address (as :mod:`ra.web.addresses` does)."""
        if self.store is None:
            record = cast(MemoryAccounts, self.accounts).accounts[account_id]
            record.email, record.email_key, record.email_confirmed = email, fold(email), True
            return
        values = {"email": email, "email_key": fold(email), "email_confirmed": True}
        async with self.store.engine.begin() as conn:
            await conn.execute(sa.update(db.accounts).where(db.accounts.c.id == account_id).values(**values))

    async def rated_player(self, account_id: str, standing: Standing) -> None:
        """An account (named as its id, its name folded to lower case) with ``standing`` (as
        earlier rated games left it)."""
        if self.store is None:
            cast(MemoryRatings, self.ratings).put_account(account_id, account_id, standing)
            return
        values: dict[str, object] = {
            "id": account_id,
            "name": account_id,
            "name_key": account_id.lower(),
            "password_hash": "-",
        }
        values |= {"created_at": datetime.now(UTC), "rating_mu": standing.mu}
        values |= {"rating_sigma": standing.sigma, "rated_games": standing.games}
        async with self.store.engine.begin() as conn:
            await conn.execute(sa.insert(db.accounts).values(**values))

    async def finished_game(self, seats: tuple[RatedSeat, ...], casual: bool = False) -> str:
        """A finished game, 40 to 20 won by seat 0, whose seats took their ``own`` and ``stood``
        decisions (stored as the rating reads it)."""
        if self.store is None:
            self.games += 1
            gid = f"g{self.games}"
            game = RatedGame(gid, "finished", casual, False, False, [40, 20], 0, seats)
            cast(MemoryRatings, self.ratings).put_game(game)
            return gid
        values = {"status": "finished", "players": 2, "variant": "standard", "hidden_scores": True}
        values |= {"edition": "original", "bot_delay": 0.0, "seed": 1, "scores": [40, 20], "winner": 0}
        rows = [{"seat": t.seat, "kind": t.kind, "level": t.level, "name": t.account_id} for t in seats]
        for row, t in zip(rows, seats, strict=True):
            row |= {"account_id": t.account_id, "forfeited": t.forfeited}
        gid = await self.store.create_game({**values, "casual": casual}, rows)
        taken = [(t.seat, by) for t in seats for by, k in ((False, t.own), (True, t.stood)) for _ in range(k)]
        async with self.store.engine.begin() as conn:
            for n, (seat, by) in enumerate(taken):
                row = {"game_id": gid, "n": n, "seat": seat, "action": "draw", "stand_in": by}
                await conn.execute(sa.insert(db.decisions).values(**row, created_at=datetime.now(UTC)))
        return gid


Scenario = Callable[[Stores], Awaitable[None]]


@pytest.fixture(params=BACKENDS)
def run(
    request: pytest.FixtureRequest, tmp_path: Path, migrated_sqlite: Path
) -> Iterator[Callable[[Scenario], None]]:
    """Run a scenario on one backend: each its own event loop and its own store."""
    url: str | None = None
    if request.param == "sqlite":
        shutil.copyfile(migrated_sqlite, tmp_path / "ra.db")
        url = f"sqlite:///{tmp_path / 'ra.db'}"
    elif request.param == "postgresql":
        url = request.getfixturevalue("pg_module_url")
        db.upgrade(url)  # once: the later tests find it up to date

    def go(scenario: Scenario) -> None:
        asyncio.run(_on(url, scenario))

    yield go
    if request.param == "postgresql":
        asyncio.run(_clear(url))


async def _on(url: str | None, scenario: Scenario) -> None:
    if url is None:
        lobby, accounts = MemoryLobby(), MemoryAccounts()
        await scenario(
            Stores(
                MemoryChat(),
                lobby.levels,
                MemoryHolds(),
                accounts,
                MemoryAnalyses(),
                lobby,
                MemoryAddresses(accounts),
                MemoryRatings(),
                MemoryProfiles(),
                MemoryTurnMail(),
                MemoryEvents(),
                MemoryPuzzles(),
            )
        )
        return
    store = Store(url, worker_id="w1")
    try:
        await scenario(
            Stores(
                store.chat,
                store.levels,
                store.holds,
                store.accounts,
                store.analyses,
                store,
                store.addresses,
                store.ratings,
                store.profiles,
                store.turn_mail,
                store.events,
                store.puzzles,
                store,
            )
        )
    finally:
        await store.close()


async def _clear(url: str | None) -> None:
    assert url is not None
    store = Store(url)
    async with store.engine.begin() as conn:
        for table in WRITTEN:
            await conn.execute(sa.text(f"DELETE FROM {table}"))
    await store.close()


# --- chat ------------------------------------------------------------------------------


def test_chat_lines_read_back_in_order_per_table_and_channel(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        g, other = await s.new_game(), await s.new_game()
        a = await s.chat.add(g, "players", 0, "Ann", "10.0.0.1", "hello", account=True)
        b = await s.chat.add(g, "players", 1, "Bob", "10.0.0.2", "hi")
        await s.chat.add(g, "spectators", None, "Cy", "10.0.0.3", "watching")
        await s.chat.add(other, "players", 0, "Di", "10.0.0.4", "elsewhere")
        lobby = await s.chat.add(None, "lobby", None, "Ed", "10.0.0.5", "anyone?")
        assert b.id > a.id
        assert (a.game_id, a.channel, a.seat, a.name, a.text, a.addr, a.account) == (
            g,
            "players",
            0,
            "Ann",
            "hello",
            "10.0.0.1",
            True,
        )
        assert await s.chat.line(a.id) == a
        assert await s.chat.line(10**6) is None
        assert [r.text for r in await s.chat.history(g, "players", 10)] == ["hello", "hi"]
        assert [r.text for r in await s.chat.history(g, "players", 1)] == ["hi"]
        assert [r.text for r in await s.chat.history(g, "spectators", 10)] == ["watching"]
        assert await s.chat.history(None, "lobby", 10) == [lobby]

    run(scenario)


def test_a_report_counts_once_per_address_and_only_for_a_line_that_exists(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        g = await s.new_game()
        first = await s.chat.add(g, "players", 0, "Ann", "10.0.0.1", "rude")
        second = await s.chat.add(g, "players", 1, "Bob", "10.0.0.2", "also rude")
        assert await s.chat.report(first.id, "10.0.0.9")
        assert not await s.chat.report(first.id, "10.0.0.9")  # once per address
        assert await s.chat.report(second.id, "10.0.0.9")
        assert await s.chat.report(first.id, "10.0.0.8")
        assert not await s.chat.report(10**6, "10.0.0.9")
        reports = await s.chat.open_reports()
        assert [(r.line.id, r.reporter, r.reports) for r in reports] == [
            (first.id, "10.0.0.9", 2),
            (second.id, "10.0.0.9", 1),
        ]

    run(scenario)


def test_resolving_a_report_hides_the_line_or_dismisses_it(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        g = await s.new_game()
        rude = await s.chat.add(g, "players", 0, "Ann", "10.0.0.1", "rude")
        fine = await s.chat.add(g, "players", 1, "Bob", "10.0.0.2", "fine")
        for line in (rude, fine):
            await s.chat.report(line.id, "10.0.0.9")
        assert await s.chat.resolve(rude.id, hide=True)
        assert await s.chat.resolve(fine.id, hide=False)
        assert not await s.chat.resolve(10**6, hide=True)
        assert await s.chat.open_reports() == []
        assert [r.text for r in await s.chat.history(g, "players", 10)] == ["fine"]
        hidden = await s.chat.line(rude.id)
        assert hidden is not None and hidden.hidden
        assert await s.chat.report(fine.id, "10.0.0.8")  # a new report on a dismissed line counts
        assert [r.line.id for r in await s.chat.open_reports()] == [fine.id]

    run(scenario)


# --- limits ----------------------------------------------------------------------------

SLOW = 1e-6
"""A rate so slow that nothing drains during a test (no test waits for a clock)."""
FAST = 1e9
"""A rate so fast that a level has drained by the next statement."""


def test_a_level_takes_up_to_its_cap_per_key(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        assert [await s.levels.take("k", SLOW, 3) for _ in range(4)] == [True, True, True, False]
        assert await s.levels.take("other", SLOW, 3)
        assert await s.levels.level("k", SLOW) == pytest.approx(3, abs=0.01)
        await s.levels.add("k", SLOW)  # add counts past the cap (a tally of failures)
        assert await s.levels.level("k", SLOW) == pytest.approx(4, abs=0.01)
        assert await s.levels.level("unknown", SLOW) == 0.0

    run(scenario)


def test_a_level_drains_at_its_rate(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        for _ in range(3):
            await s.levels.add("k", FAST)
        assert await s.levels.level("k", FAST) == 0.0
        assert all([await s.levels.take("k", FAST, 1) for _ in range(3)])

    run(scenario)


def test_holds_count_up_to_the_cap_and_give_back(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        assert [await s.holds.take("k", 2) for _ in range(3)] == [True, True, False]
        assert await s.holds.take("other", 2)
        await s.holds.give_back("k")
        assert await s.holds.take("k", 2)
        assert not await s.holds.take("k", 2)

    run(scenario)


# --- accounts and sessions -------------------------------------------------------------

DAY = timedelta(days=1)


async def claimed(s: Stores, account_id: str, game_id: str, token: str) -> int:
    """How many seats of ``game_id`` the account claimed by ``token``."""
    done, games = await s.accounts.claim(account_id, [(game_id, hash_token(token))])
    assert games == ([game_id] if done else [])
    return done


def test_an_account_is_made_once_per_name_key(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        assert await s.accounts.create("a1", "Ann", "ann", "hash-1", "de") == "created"
        assert await s.accounts.create("a2", "ANN", "ann", "hash-2", "en") == "taken"
        assert await s.accounts.holder("ann") == "a1"
        assert await s.accounts.holder("bob") is None
        found = await s.accounts.credential("ann")
        assert found is not None and (found.id, found.name, found.password_hash) == ("a1", "Ann", "hash-1")
        assert await s.accounts.credential("bob") is None
        assert await s.accounts.password_hash("a1") == "hash-1"
        assert await s.accounts.name_of("a1") == "Ann"
        assert await s.accounts.name_of("nobody") is None

    run(scenario)


def test_a_deleted_account_reserves_its_name_and_lets_go_of_its_seats(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        await s.accounts.create("a1", "Ann", "ann", "h", "en")
        game = await s.new_game("seat-token")
        assert await claimed(s, "a1", game, "seat-token") == 1
        await s.accounts.open_session(hash_token("cookie"), "a1", "csrf", DAY)
        later = datetime.now(UTC) + DAY
        await s.accounts.delete("a1", "ann", later)
        assert await s.accounts.holder("ann") is None
        assert await s.accounts.session(hash_token("cookie")) is None
        until = await s.accounts.reserved_until("ann")
        assert until is not None and abs((until - later).total_seconds()) < 1
        assert await s.accounts.create("a2", "Ann", "ann", "h", "en") == "reserved"
        assert await s.accounts.create("a3", "Bob", "bob", "h", "en") == "created"
        assert await claimed(s, "a3", game, "seat-token") == 1  # nobody's again

    run(scenario)


def test_a_seat_another_account_holds_is_not_claimed(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        for i in (1, 2):
            await s.accounts.create(f"a{i}", f"P{i}", f"p{i}", "h", "en")
        game = await s.new_game("seat-token")
        assert await claimed(s, "a1", game, "wrong") == 0
        assert await claimed(s, "a1", game, "seat-token") == 1
        assert await claimed(s, "a2", game, "seat-token") == 0
        assert await claimed(s, "a1", game, "seat-token") == 1  # its own: again
        other = await s.new_game("other-token")
        held = [
            (game, hash_token("seat-token")),
            (other, hash_token("other-token")),
            (other, hash_token("no")),
        ]
        assert await s.accounts.claim("a1", held) == (2, sorted([game, other]))
        assert await s.accounts.claim("a2", held) == (0, [])

    run(scenario)


def test_sessions_open_read_and_end_with_the_seat_tokens_they_made(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await s.accounts.create("a1", "Ann", "ann", "h", "en")
        for cookie in ("c1", "c2"):
            await s.accounts.open_session(hash_token(cookie), "a1", f"csrf-{cookie}", DAY)
        row = await s.accounts.session(hash_token("c1"))
        assert row is not None and (row.account_id, row.name, row.csrf) == ("a1", "Ann", "csrf-c1")
        assert abs((row.expires_at - row.created_at) - DAY) < timedelta(seconds=1)
        assert await s.accounts.session(hash_token("unknown")) is None
        bound, played = await s.new_game("bound"), await s.new_game("old")
        await s.accounts.bind_seat("a1", hash_token("c1"), bound, hash_token("bound"))
        await claimed(s, "a1", played, "old")
        assert await s.accounts.play_here("a1", played, 0, hash_token("here"), hash_token("c2"))
        assert await claimed(s, "a1", played, "old") == 0  # the old token holds no more
        assert await s.accounts.close_session(hash_token("c1")) == [bound]
        assert await s.accounts.session(hash_token("c1")) is None
        assert await claimed(s, "a1", bound, "bound") == 0  # its token ended
        assert await s.accounts.end_sessions("a1") == (1, [played])
        assert await s.accounts.session(hash_token("c2")) is None

    run(scenario)


def test_a_seat_is_played_here_only_if_the_account_holds_it_in_a_game_not_over(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        await s.accounts.create("a1", "Ann", "ann", "h", "en")
        running, over = await s.new_game("t1"), await s.new_game("t2", status="finished")
        here = (hash_token("new"), hash_token("cookie"))
        assert not await s.accounts.play_here("a1", running, 0, *here)  # not the account's yet
        for game, token in ((running, "t1"), (over, "t2")):
            await claimed(s, "a1", game, token)
        assert not await s.accounts.play_here("a1", over, 0, *here)
        assert not await s.accounts.play_here("a1", running, 1, *here)
        assert await s.accounts.play_here("a1", running, 0, *here)

    run(scenario)


def test_a_password_link_works_once_and_a_new_password_ends_the_sessions(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        await s.accounts.create("a1", "Ann", "ann", "old", "en")
        await s.accounts.open_session(hash_token("cookie"), "a1", "csrf", DAY)
        await s.accounts.new_link("a1", hash_token("first"), DAY)
        await s.accounts.new_link("a1", hash_token("second"), DAY)  # the older one stops working
        await s.accounts.new_link("a1", hash_token("expired"), -timedelta(seconds=1))
        assert await s.accounts.link_holder(hash_token("first")) is None
        assert await s.accounts.link_holder(hash_token("expired")) is None
        assert await s.accounts.use_link(hash_token("expired"), "new") is None
        await s.accounts.new_link("a1", hash_token("live"), DAY)
        assert await s.accounts.link_holder(hash_token("live")) == "a1"
        assert await s.accounts.use_link(hash_token("live"), "new") == ("Ann", [])
        assert await s.accounts.use_link(hash_token("live"), "newer") is None
        assert await s.accounts.password_hash("a1") == "new"
        assert await s.accounts.session(hash_token("cookie")) is None
        await s.accounts.open_session(hash_token("cookie2"), "a1", "csrf", DAY)
        await s.accounts.new_link("a1", hash_token("link"), DAY)
        assert await s.accounts.set_password("a1", "newest") == []
        assert await s.accounts.session(hash_token("cookie2")) is None
        assert await s.accounts.link_holder(hash_token("link")) is None

    run(scenario)


def test_password_links_go_to_a_name_or_a_confirmed_address(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await s.accounts.create("a1", "Ann", "ann", "h", "de")
        await s.accounts.create("a2", "Bob", "bob", "h", "en")
        await s.confirm_email("a2", "Bob@Example.org")
        by_name = await s.accounts.mail_targets("ann", "ann")
        assert [(t.id, t.name, t.email, t.email_confirmed, t.lang) for t in by_name] == [
            ("a1", "Ann", None, False, "de")
        ]
        by_mail = await s.accounts.mail_targets(fold("bob@example.org"), None)
        assert [(t.id, t.email, t.email_confirmed) for t in by_mail] == [("a2", "Bob@Example.org", True)]
        assert await s.accounts.mail_targets(fold("nobody@example.org"), "nobody") == []

    run(scenario)


# --- analyses --------------------------------------------------------------------------

HOUR = 3600.0


def test_an_analysis_is_claimed_once_reports_progress_and_finishes(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        game = await s.new_game(status="finished")
        assert await s.analyses.get(game) is None
        assert await s.analyses.claim(game, 40, "600", HOUR)
        assert not await s.analyses.claim(game, 40, "600", HOUR)  # running elsewhere, fresh
        await s.analyses.progress(game, 7)
        row = await s.analyses.get(game)
        assert row is not None and (row.status, row.done, row.total, row.budget, row.data) == (
            "running",
            7,
            40,
            "600",
            None,
        )
        await s.analyses.finish(game, {"mistakes": [1, 2]})
        done = await s.analyses.get(game)
        assert done is not None and (done.status, done.done, done.data) == ("done", 40, {"mistakes": [1, 2]})
        assert not await s.analyses.claim(game, 40, "600", 0.0)  # done: never again

    run(scenario)


def test_a_stale_run_is_taken_over_and_a_failed_one_retried(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        stale, failed = await s.new_game(status="finished"), await s.new_game(status="finished")
        assert await s.analyses.claim(stale, 40, "600", HOUR)
        assert await s.analyses.claim(stale, 41, "900", -HOUR)  # its worker stopped updating it
        row = await s.analyses.get(stale)
        assert row is not None and (row.total, row.budget, row.done) == (41, "900", 0)
        assert await s.analyses.claim(failed, 40, "600", HOUR)
        await s.analyses.finish(failed, None)
        assert await s.analyses.get(failed) is None
        assert await s.analyses.claim(failed, 40, "600", HOUR)

    run(scenario)


# --- the lobby's tables ----------------------------------------------------------------

TABLE: dict[str, Any] = {
    "status": "open",
    "players": 3,
    "variant": "standard",
    "hidden_scores": True,
    "edition": "original",
    "bot_delay": 0.0,
    "seed": 7,
    "hints": True,
    "move_seconds": 60,
}


def seat_rows(*kinds: str) -> list[dict[str, Any]]:
    return [
        {"seat": i, "kind": k, "level": "easy" if k == "bot" else None, "name": None, "token_hash": None}
        for i, k in enumerate(kinds)
    ]


def test_a_table_is_stored_listed_and_seated_once(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        first = await s.lobby.create_game(
            {**TABLE, "creator_addr": "10.0.0.1"}, seat_rows("human", "human", "bot")
        )
        second = await s.lobby.create_game({**TABLE, "status": "running"}, seat_rows("human", "bot", "bot"))
        row = await s.lobby.game(first)
        assert row is not None
        assert (row.status, row.players, row.seed, row.hints, row.move_seconds, row.num_decisions) == (
            "open",
            3,
            7,
            True,
            60,
            0,
        )
        assert [(x.seat, x.kind, x.level, x.token_hash) for x in row.seats] == [
            (0, "human", None, None),
            (1, "human", None, None),
            (2, "bot", "easy", None),
        ]
        assert [r.id for r in await s.lobby.list_games(None)] == [second, first]
        assert [r.id for r in await s.lobby.list_games("open")] == [first]
        assert [r.id for r in await s.lobby.list_games(None, 1)] == [second]
        assert await s.lobby.take_seat(first, 1, "Ann", "tok")
        assert not await s.lobby.take_seat(first, 1, "Bob", "tok2")  # taken
        assert not await s.lobby.take_seat(first, 2, "Bob", "tok2")  # a bot's
        assert await s.lobby.seat_for_token(first, "tok") == 1
        assert await s.lobby.seat_for_token(first, "tok2") is None
        seated = await s.lobby.game(first)
        assert seated is not None and seated.seats[1].name == "Ann" and seated.seats[1].gone_at is not None
        assert await s.lobby.game("nope") is None

    run(scenario)


def test_a_table_its_last_person_left_is_closed(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        table = await s.lobby.create_game(TABLE, seat_rows("human", "human", "human"))
        await s.lobby.take_seat(table, 0, "Ann", "tok")
        assert not await s.lobby.close_if_empty(table)  # Ann is seated
        assert await s.lobby.free_seat(table, 0)
        assert await s.lobby.seat_for_token(table, "tok") is None
        assert await s.lobby.close_if_empty(table)
        assert await s.lobby.game(table) is None

    run(scenario)


def test_a_table_starts_once_and_gets_one_rematch(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        table = await s.lobby.create_game(TABLE, seat_rows("human", "bot", "bot"))
        assert await s.lobby.start(table, 0, False)
        assert not await s.lobby.start(table, 1, True)
        row = await s.lobby.game(table)
        assert row is not None and (row.status, row.to_move) == ("running", 0)
        assert not await s.lobby.close_if_empty(table)  # running: not the lobby's to close
        again = await s.lobby.create_game(TABLE, seat_rows("human", "bot"))
        other = await s.lobby.create_game(TABLE, seat_rows("human", "bot"))
        assert await s.lobby.set_rematch(table, again)
        assert not await s.lobby.set_rematch(table, other)  # the first request won
        await s.lobby.delete_game(other)
        assert await s.lobby.game(other) is None
        row = await s.lobby.game(table)
        assert row is not None and row.rematch_id == again

    run(scenario)


def test_a_creation_past_its_creators_caps_is_refused(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        mine = {**TABLE, "creator_addr": "10.0.0.1"}
        for _ in range(2):
            await s.lobby.create_game(mine, seat_rows("human", "bot", "bot"), Caps("10.0.0.1", 2, 5, 2))
        with pytest.raises(OverCapError) as over:
            await s.lobby.create_game(mine, seat_rows("human", "bot"), Caps("10.0.0.1", 2, 5, 1))
        assert (over.value.cap, over.value.held) == ("active", 2)
        with pytest.raises(OverCapError) as over:
            await s.lobby.create_game(mine, seat_rows("human", "bot", "bot"), Caps("10.0.0.1", 3, 5, 2))
        assert (over.value.cap, over.value.held) == ("bot_seats", 4)
        await s.lobby.create_game(mine, seat_rows("human", "bot"), Caps("10.0.0.1", 3, 5, 1))
        with pytest.raises(OverCapError) as over:
            await s.lobby.create_game(
                {**mine, "status": "finished"}, seat_rows("human"), Caps("10.0.0.1", today=3)
            )
        assert (over.value.cap, over.value.held) == ("today", 3)
        await s.lobby.create_game(
            {**mine, "creator_addr": "10.0.0.2"}, seat_rows("human"), Caps("10.0.0.2", 1, 0, 0, today=1)
        )
        assert len(await s.lobby.list_games(None)) == 4  # nothing of a refused creation was stored

    run(scenario)


# --- addresses -------------------------------------------------------------------------


def test_an_address_is_confirmed_once_by_its_link(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await s.accounts.create("a1", "Ann", "ann", "h", "en")
        assert await s.addresses.give("nobody", "x@example.org", "x@example.org", "en") is None
        given = await s.addresses.give("a1", "Ann@Example.org", "ann@example.org", "de")
        assert given is not None and given.confirm is not None and given.undo is None
        assert await s.addresses.settings("a1") == MailRow("Ann@Example.org", False, True)
        link = await s.addresses.link("confirm", given.confirm)
        assert link == Link("a1", "Ann@Example.org", "de")
        assert await s.addresses.link("undo", given.confirm) is None  # one purpose each
        assert await s.addresses.confirm(given.confirm) == "Ann@Example.org"
        with pytest.raises(DeadLinkError):
            await s.addresses.confirm(given.confirm)  # spent
        assert await s.addresses.settings("a1") == MailRow("Ann@Example.org", True, True)
        again = await s.addresses.give("a1", "ann@example.org", "ann@example.org", "de")
        assert again is not None and (again.confirm, again.undo) == (None, None)  # the same inbox
        assert await s.addresses.settings("nobody") is None

    run(scenario)


def test_a_change_away_from_a_confirmed_address_can_be_undone(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await s.accounts.create("a1", "Ann", "ann", "h", "en")
        first = await s.addresses.give("a1", "ann@example.org", "ann@example.org", "en")
        assert first is not None and first.confirm is not None
        await s.addresses.confirm(first.confirm)
        await s.accounts.new_link("a1", hash_token("reset"), DAY)
        change = await s.addresses.give("a1", "thief@example.org", "thief@example.org", "ru")
        assert change is not None and change.confirm is not None and change.undo is not None
        assert (change.old_email, change.old_lang) == ("ann@example.org", "en")
        assert await s.accounts.link_holder(hash_token("reset")) is None  # a new address ends them
        assert await s.addresses.undo(change.undo) == Link("a1", "ann@example.org", "en")
        assert await s.addresses.settings("a1") == MailRow("ann@example.org", True, True)
        with pytest.raises(DeadLinkError):
            await s.addresses.confirm(change.confirm)  # the thief's link died with the undoing
        with pytest.raises(DeadLinkError):
            await s.addresses.undo(change.undo)

    run(scenario)


def test_one_confirmed_address_one_account(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        for i in (1, 2, 3):
            await s.accounts.create(f"a{i}", f"P{i}", f"p{i}", "h", "en")
        squat = await s.addresses.give("a2", "x@example.org", "x@example.org", "en")
        own = await s.addresses.give("a1", "x@example.org", "x@example.org", "en")
        assert squat is not None and own is not None and squat.confirm and own.confirm
        assert await s.addresses.confirm(own.confirm) == "x@example.org"
        assert await s.addresses.settings("a2") == MailRow(None, False, True)  # the squatter lost it
        with pytest.raises(DeadLinkError):
            await s.addresses.confirm(squat.confirm)
        late = await s.addresses.give("a3", "x@example.org", "x@example.org", "en")
        assert late is not None and late.confirm is not None
        with pytest.raises(AddressTakenError):
            await s.addresses.confirm(late.confirm)

    run(scenario)


def test_turn_mail_switches_and_unsubscribe_links(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await s.accounts.create("a1", "Ann", "ann", "h", "en")
        assert await s.addresses.switch("a1", False)
        assert not await s.addresses.switch("nobody", False)
        settings = await s.addresses.settings("a1")
        assert settings is not None and not settings.turns
        token = await s.addresses.new_link("unsubscribe", "a1", "ann@example.org", "de")
        assert await s.addresses.link("unsubscribe", token) == Link("a1", "ann@example.org", "de")
        assert await s.addresses.link("unsubscribe", token + "x") is None
        assert await s.addresses.link("confirm", token) is None

    run(scenario)


# --- ratings ---------------------------------------------------------------------------

START = Standing(25.0, 25 / 3, 0)


def test_a_finished_game_reads_back_as_its_rating_sees_it(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await s.rated_player("ann", START)
        seats = (RatedSeat(0, "human", None, "ann", own=3, stood=2), RatedSeat(1, "bot", "easy", None))
        gid = await s.finished_game(seats, casual=True)
        game = await s.ratings.game(gid)
        assert game is not None and (game.status, game.casual, game.imported, game.rated) == (
            "finished",
            True,
            False,
            False,
        )
        assert (game.scores, game.winner, game.seats) == ([40, 20], 0, seats)
        assert await s.ratings.game("nope") is None

    run(scenario)


def test_a_game_is_rated_once_and_moves_only_its_people(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        for name in ("ann", "bob", "cid"):
            await s.rated_player(name, START)
        seats = (RatedSeat(0, "human", None, "ann"), RatedSeat(1, "human", None, "bob"))
        gid = await s.finished_game(seats)
        seen: list[dict[str, Standing]] = []

        def rerate(before: Mapping[str, Standing]) -> dict[str, tuple[float, float]]:
            seen.append(dict(before))
            return {a: (r.mu + 1, r.sigma - 1) for a, r in before.items()}

        assert await s.ratings.rate(gid, ["ann", "bob"], rerate)
        assert not await s.ratings.rate(gid, ["ann", "bob"], rerate)  # once: the second is refused
        assert seen == [{"ann": START, "bob": START}]
        game = await s.ratings.game(gid)
        assert game is not None and game.rated
        board = dict(await s.ratings.leaders(0, 10))
        assert board["ann"] == board["bob"] == Standing(26.0, 25 / 3 - 1, 1) and board["cid"] == START

    run(scenario)


def test_leaders_are_the_established_accounts_best_first_up_to_the_limit(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        await s.rated_player("new", Standing(40.0, 1.0, 2))  # the best, but too few games
        await s.rated_player("low", Standing(30.0, 5.0, 9))  # 15
        await s.rated_player("top", Standing(27.0, 2.0, 5))  # 21
        await s.rated_player("mid", Standing(28.0, 3.0, 5))  # 19
        assert await s.ratings.leaders(5, 2) == [
            ("top", Standing(27.0, 2.0, 5)),
            ("mid", Standing(28.0, 3.0, 5)),
        ]
        assert [n for n, _ in await s.ratings.leaders(5, 10)] == ["top", "mid", "low"]

    run(scenario)


# --- profiles --------------------------------------------------------------------------


def test_a_profile_reads_its_account_and_its_games_newest_first(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        since = datetime(2026, 1, 1, tzinfo=UTC)
        seats = (SeatLine(0, "human", "ann", None), SeatLine(1, "bot", None, "easy"))
        first = SatGame("g1", "finished", 2, 0, None, since, 0, [40, 20], 3, 60, False, False, seats)
        then = SatGame(
            "g2", "running", 2, 1, 0, since + timedelta(days=1), None, None, 1, 4, True, False, seats
        )
        if s.store is None:
            games = (first, then)
            profile = StoredProfile("Ann", since, Standing(27.0, 3.0, 4), games)
            cast(MemoryProfiles, s.profiles).put("ann", profile)
        else:
            await s.rated_player("Ann", Standing(27.0, 3.0, 4))
            first, then = await stored_games(s.store, first, then)
        got = await s.profiles.profile("ann")
        assert got is not None and (got.name, got.standing) == ("Ann", Standing(27.0, 3.0, 4))
        assert [(g.id, g.seat, g.away, g.scores, g.seats) for g in got.games] == [
            (then.id, 1, True, None, seats),
            (first.id, 0, False, [40, 20], seats),
        ]
        assert await s.profiles.profile("nobody") is None

    run(scenario)


async def stored_games(store: Store, *sat: SatGame) -> list[SatGame]:
    """Store games as a profile reads them (seat ``g.seat`` held by the account Ann); each with its id."""
    out = []
    for g in sat:
        values = {"status": g.status, "players": 2, "variant": "standard", "hidden_scores": True}
        values |= {"edition": "original", "bot_delay": 0.0, "seed": 1, "scores": g.scores}
        values |= {"winner": g.winner, "to_move": g.to_move, "epoch": g.epoch, "num_decisions": g.decisions}
        rows = [{"seat": t.seat, "kind": t.kind, "level": t.level, "name": t.name} for t in g.seats]
        for row in rows:  # every row names the same columns (one insert of them all)
            row |= (
                {"account_id": "Ann", "away": g.away}
                if row["seat"] == g.seat
                else {"account_id": None, "away": False}
            )
        gid = await store.create_game(values, rows)
        async with store.engine.begin() as conn:
            when = sa.update(db.games).where(db.games.c.id == gid)
            await conn.execute(when.values(created_at=g.created_at))
        out.append(dataclasses.replace(g, id=gid))
    return out


# --- "your turn" mail ------------------------------------------------------------------


async def mail_person(s: Stores, person: Person, confirmed: bool, wants: bool) -> None:
    """An account with an address (``confirmed`` or not) that wants turn mail or not."""
    if s.store is None:
        cast(MemoryTurnMail, s.turn_mail).people[person.id] = (person, confirmed and wants)
        return
    await s.accounts.create(person.id, person.name, person.name.lower(), "h", person.lang or "en")
    if confirmed:
        await s.confirm_email(person.id, person.email or "")
    if not wants:
        switched = await s.addresses.switch(person.id, False)
        assert switched


async def turn_game(s: Stores, game: TurnGame) -> str:
    """A game as the turn mail reads it, stored; its id."""
    if s.store is None:
        gid = f"g{len(cast(MemoryTurnMail, s.turn_mail).games)}"
        cast(MemoryTurnMail, s.turn_mail).games[gid] = game
        return gid
    values = {"status": game.status, "players": 2, "variant": "standard", "hidden_scores": True}
    values |= {"edition": "original", "bot_delay": 0.0, "seed": 1, "to_move": game.to_move}
    values |= {"move_seconds": game.move_seconds}
    rows = [
        {"seat": i, "kind": "human", "name": None, "account_id": game.holders.get(i), "away": i in game.away}
        for i in (0, 1)
    ]
    gid = await s.store.create_game(values, rows)
    async with s.store.engine.begin() as conn:
        when = sa.update(db.games).where(db.games.c.id == gid)
        await conn.execute(when.values(updated_at=game.updated_at))
    return gid


def test_turn_mail_goes_to_a_confirmed_address_that_wants_it(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        ann = Person("a1", "Ann", "ann@example.org", "en")
        await mail_person(s, ann, confirmed=True, wants=True)
        await mail_person(s, Person("a2", "Bob", "bob@example.org", "en"), confirmed=True, wants=False)
        await mail_person(s, Person("a3", "Cid", None, "en"), confirmed=False, wants=True)
        t = datetime(2026, 1, 1, tzinfo=UTC)
        gid = await turn_game(s, TurnGame({0: "a1", 1: "a2"}, "running", 0, BY_TURNS_SECONDS, t))
        other = await turn_game(s, TurnGame({0: "a3"}, "running", 0, BY_TURNS_SECONDS, t))
        assert await s.turn_mail.person(gid, 0) == ann
        assert await s.turn_mail.person(gid, 1) is None  # the mail switched off
        assert await s.turn_mail.person(other, 0) is None  # no confirmed address
        assert await s.turn_mail.person(other, 1) is None and await s.turn_mail.person("nope", 0) is None

    run(scenario)


def test_game_mail_goes_to_the_confirmed_addresses_that_want_it_among_the_accounts_asked(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        ann, bob = Person("a1", "Ann", "ann@example.org", "en"), Person("a4", "Bob", "bob@example.org", "de")
        await mail_person(s, ann, confirmed=True, wants=True)
        await mail_person(s, Person("a2", "Cid", "cid@example.org", "en"), confirmed=True, wants=False)
        await mail_person(s, Person("a3", "Dan", None, "en"), confirmed=False, wants=True)
        await mail_person(s, bob, confirmed=True, wants=True)
        found = await s.turn_mail.game_mail(["a1", "a2", "a3", "a4", "nope"])
        assert sorted(found, key=lambda p: p.id) == [ann, bob]
        assert await s.turn_mail.game_mail(["a2", "a3"]) == [] and await s.turn_mail.game_mail([]) == []

    run(scenario)


def test_turn_mail_lists_the_games_by_turns_waiting_longest_first(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await mail_person(s, Person("a1", "Ann", "ann@example.org", "en"), confirmed=True, wants=True)
        t = datetime(2026, 1, 1, tzinfo=UTC)
        hour, seats = timedelta(hours=1), {0: "a1"}
        later = await turn_game(s, TurnGame(seats, "running", 0, BY_TURNS_SECONDS, t + hour))
        first = await turn_game(s, TurnGame(seats, "running", 0, BY_TURNS_SECONDS, t))
        await turn_game(s, TurnGame(seats, "running", 0, BY_TURNS_SECONDS - 1, t))  # not by turns
        await turn_game(s, TurnGame(seats, "finished", 0, BY_TURNS_SECONDS, t))
        await turn_game(s, TurnGame(seats, "running", 1, BY_TURNS_SECONDS, t))  # the other's turn
        await turn_game(s, TurnGame(seats, "running", 0, BY_TURNS_SECONDS, t, {0}))  # away
        assert await s.turn_mail.waiting("a1") == [first, later]
        assert await s.turn_mail.waiting("a2") == []

    run(scenario)


# --- events ----------------------------------------------------------------------------


async def event_player(s: Stores, account_id: str, mu: float = 25.0) -> None:
    """An account (named as its id) with the rating ``mu``, as an event's player reads it."""
    if s.store is None:
        cast(MemoryEvents, s.events).ratings[account_id] = mu
        return
    await s.rated_player(account_id, Standing(mu, 8.0, 0))


def event(event_id: str, organiser: str, starts_in: float = 3600.0, **values: Any) -> dict[str, Any]:
    """An event's columns as :class:`ra.web.events.Events` stores them."""
    row = {"id": event_id, "name": event_id, "kind": "swiss", "table_size": 3, "rounds": 4, "minutes": None}
    row |= {"bots": False, "byes": False, "move_seconds": None, "rated": True, "invite_hash": None}
    row |= {"starts_at": datetime.now(UTC) + timedelta(seconds=starts_in), "status": "open"}
    return row | {"organiser_id": organiser, "organiser_name": organiser, "seed": 7} | values


async def table_game(s: Stores, link: TableLink) -> str:
    """A game made for an event's table, ``link`` run in its creation (as the lobby does)."""
    if s.store is None:
        s.games += 1
        await link(cast(AsyncConnection, None), f"g{s.games}")  # the twin's link takes no connection
        return f"g{s.games}"
    return await s.store.create_game(TABLE, seat_rows("human", "human", "bot"), then=link)


async def finish(s: Stores, game_id: str, scores: list[int], forfeited: set[int]) -> None:
    """The table's game finished with ``scores``, the ``forfeited`` seats out (R8)."""
    if s.store is None:
        cast(MemoryEvents, s.events).games[game_id] = TableGame(
            "finished", scores, datetime.now(UTC), forfeited
        )
        return
    async with s.store.engine.begin() as conn:
        await conn.execute(
            sa.update(db.games).where(db.games.c.id == game_id).values(status="finished", scores=scores)
        )
        out = sa.update(db.seats).where(db.seats.c.game_id == game_id, db.seats.c.seat.in_(forfeited))
        await conn.execute(out.values(forfeited=True))


async def holders(s: Stores, game_id: str) -> dict[int, tuple[str, str]]:
    """Who a link gave each seat of ``game_id`` to: (account id, name), with a token set."""
    if s.store is None:
        return {seat: who for (g, seat), who in cast(MemoryEvents, s.events).given.items() if g == game_id}
    q = sa.select(db.seats.c.seat, db.seats.c.account_id, db.seats.c.name).where(
        db.seats.c.game_id == game_id, db.seats.c.account_id.is_not(None), db.seats.c.token_hash.is_not(None)
    )
    async with s.store.engine.connect() as conn:
        return {seat: (account, name) for seat, account, name in await conn.execute(q)}


def test_an_organisers_live_events_are_limited_counted_with_the_insert(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        await event_player(s, "org")
        await s.events.create(event("e1", "org"), most_live=2)
        await s.events.create(event("e2", "org"), most_live=2)
        with pytest.raises(EventLimitError) as refused:
            await s.events.create(event("e3", "org"), most_live=2)
        assert refused.value.what == "events" and await s.events.event("e3") is None
        assert await s.events.move("e1", ("open", "running"), "cancelled")
        assert not await s.events.move("e1", ("open", "running"), "cancelled")  # once
        await s.events.create(event("e3", "org"), most_live=2)  # a cancelled one counts no more
        await event_player(s, "rush")
        tries = [s.events.create(event(f"r{i}", "rush"), most_live=2) for i in range(4)]
        done = await asyncio.gather(*tries, return_exceptions=True)
        assert sum(d is None for d in done) == 2, done  # at once: still two, never more
        assert all(isinstance(d, EventLimitError) for d in done if d is not None)
        got = await s.events.event("e2")
        assert got is not None and (got["name"], got["status"], got["organiser_id"]) == ("e2", "open", "org")
        assert got["started_at"] is None and got["created_at"] is not None

    run(scenario)


def test_the_list_shows_live_public_events_soonest_first_and_the_sweep_the_due(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        await event_player(s, "org")
        await s.events.create(event("later", "org", 7200), most_live=9)
        await s.events.create(event("soon", "org", 60), most_live=9)
        await s.events.create(event("past", "org", -60), most_live=9)
        await s.events.create(event("secret", "org", 30, invite_hash=hash_token("t")), most_live=9)
        await s.events.create(event("gone", "org", 10), most_live=9)
        await s.events.create(event("on", "org", 7000), most_live=9)
        assert await s.events.move("gone", ("open",), "cancelled")
        assert await s.events.move("on", ("open",), "running", started_at=datetime.now(UTC))
        assert [e["id"] for e in await s.events.listed()] == ["past", "soon", "on", "later"]
        assert [e["id"] for e in await s.events.listed(limit=2)] == ["past", "soon"]
        assert await s.events.due() == [{"id": "past", "status": "open"}, {"id": "on", "status": "running"}]
        on = await s.events.event("on")
        assert on is not None and on["started_at"] is not None

    run(scenario)


def test_players_join_once_up_to_the_limit_and_come_back_after_withdrawing(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        for who, mu in (("org", 25.0), ("ann", 30.0), ("bob", 20.0), ("cid", 25.0)):
            await event_player(s, who, mu)
        await s.events.create(event("e1", "org"), most_live=3)
        await s.events.join("e1", "ann", "Ann", most=2)
        await s.events.join("e1", "bob", "Bob", most=2)
        await s.events.join("e1", "ann", "Ann", most=2)  # in already: nothing
        with pytest.raises(EventLimitError) as full:
            await s.events.join("e1", "cid", "Cid", most=2)
        assert full.value.what == "players"
        assert await s.events.mark("e1", "ann", withdrawn=True)
        assert not await s.events.mark("e1", "cid", withdrawn=True)  # not in the event
        await s.events.join("e1", "cid", "Cid", most=2)  # ann's place
        with pytest.raises(EventLimitError):
            await s.events.join("e1", "ann", "Ann", most=2)
        assert await s.events.mark("e1", "bob", withdrawn=True, removed=True)
        await s.events.join("e1", "ann", "Ann", most=2)  # back, in her first place
        players = await s.events.players("e1")
        assert [(p["account_id"], p["name"], p["withdrawn"], p["removed"]) for p in players] == [
            ("ann", "Ann", False, False),
            ("bob", "Bob", True, True),
            ("cid", "Cid", False, False),
        ]
        assert [p["rating"] for p in players] == [30.0, 20.0, 25.0]
        assert await s.events.players("nope") == []

    run(scenario)


def test_players_joining_at_once_never_pass_the_limit(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        names = [f"p{i}" for i in range(5)]
        for who in ["org", *names]:
            await event_player(s, who)
        await s.events.create(event("e1", "org"), most_live=3)
        done = await asyncio.gather(
            *(s.events.join("e1", p, p, most=3) for p in names), return_exceptions=True
        )
        assert sum(d is None for d in done) == 3, done
        assert all(isinstance(d, EventLimitError) for d in done if d is not None)
        assert len(await s.events.players("e1")) == 3

    run(scenario)


def test_a_round_is_claimed_once_with_its_tables(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await event_player(s, "org")
        await s.events.create(event("e1", "org"), most_live=3)
        tables = [("ann", "bob", None), ("cid",)]
        assert await s.events.claim_round("e1", 1, 11, "w1", tables)
        assert not await s.events.claim_round("e1", 1, 12, "w2", [("x", "y")])  # another worker's claim
        assert not await s.events.claim_round("nope", 1, 11, "w1", tables)  # no such event
        assert await s.events.claim_round("e1", 2, 13, "w2", [])
        rounds = await s.events.rounds("e1")
        assert [(r["round"], r["worker"], r["seed"]) for r in rounds] == [(1, "w1", 11), (2, "w2", 13)]
        laid = await s.events.tables("e1")
        assert [(t["round"], t["table_no"], t["players"], t["game_id"]) for t in laid] == [
            (1, 1, ["ann", "bob", None], None),
            (1, 2, ["cid"], None),
        ]
        assert await s.events.rounds("nope") == [] and await s.events.tables("nope") == []

    run(scenario)


def test_a_claim_not_renewed_for_its_lease_is_taken_over(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await event_player(s, "org")
        await s.events.create(event("e1", "org"), most_live=3)
        assert await s.events.claim_round("e1", 1, 11, "w1", [("a", "b")])
        assert not await s.events.take_over("e1", 1, "w2", lease=3600)  # renewed within its lease
        assert not await s.events.take_over("e1", 2, "w2", lease=-60)  # no such round
        assert await s.events.take_over("e1", 1, "w2", lease=-60)  # a lease already over: stale
        assert [r["worker"] for r in await s.events.rounds("e1")] == ["w2"]

    run(scenario)


def test_a_table_gets_one_game_from_its_rounds_holder_with_its_seats_given(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        for who in ("org", "ann", "bob"):
            await event_player(s, who)
        await s.events.create(event("e1", "org"), most_live=3)
        assert await s.events.claim_round("e1", 1, 11, "w1", [("ann", "bob", None)])
        given = [(0, "ann", "Ann"), (1, "bob", "Bob")]
        with pytest.raises(TableTakenError):  # w2 does not hold the round
            await table_game(s, s.events.linker(("e1", 1, 1), "w2", given))
        assert [t["game_id"] for t in await s.events.tables("e1")] == [None]
        gid = await table_game(s, s.events.linker(("e1", 1, 1), "w1", given))
        with pytest.raises(TableTakenError):  # the table has its game
            await table_game(s, s.events.linker(("e1", 1, 1), "w1", given))
        with pytest.raises(TableTakenError):  # no such table
            await table_game(s, s.events.linker(("e1", 1, 2), "w1", given))
        assert [t["game_id"] for t in await s.events.tables("e1")] == [gid]
        assert await s.events.event_of_game(gid) == "e1" and await s.events.event_of_game("nope") is None
        assert await holders(s, gid) == {0: ("ann", "Ann"), 1: ("bob", "Bob")}

    run(scenario)


def test_played_reads_each_tables_result_and_forfeits(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        for who in ("org", "ann", "bob", "cid"):
            await event_player(s, who)
        await s.events.create(event("e1", "org"), most_live=3)
        assert await s.events.claim_round("e1", 1, 11, "w1", [("ann", "bob", None), ("cid",)])
        gid = await table_game(s, s.events.linker(("e1", 1, 1), "w1", [(0, "ann", "Ann"), (1, "bob", "Bob")]))
        before = await s.events.played("e1")
        assert [(t["round"], t["table_no"], t["game_id"], t["scores"]) for t in before] == [
            (1, 1, gid, None),
            (1, 2, None, None),
        ]
        assert before[0]["status"] == "open" and before[1]["status"] is None
        await finish(s, gid, [30, 20, 10], {1})
        after = await s.events.played("e1")
        assert (after[0]["status"], after[0]["scores"], after[0]["forfeits"]) == (
            "finished",
            [30, 20, 10],
            [False, True, False],
        )
        assert after[0]["ended"] is not None and after[1]["forfeits"] == [False]

    run(scenario)


# --- puzzles ---------------------------------------------------------------------------


async def solver_account(s: Stores, account_id: str) -> None:
    """An account that answers puzzles (the twin needs none)."""
    if s.store is not None:
        assert await s.accounts.create(account_id, account_id, account_id, "h", "en") == "created"


def by_one(correct: bool) -> Callable[[Solver], Solver]:
    """A rating rule easy to follow: one point up for a right answer, one down for a wrong one."""
    return lambda b: replace(
        b, mu=b.mu + (1 if correct else -1), tried=b.tried + 1, solved=b.solved + correct
    )


def test_only_an_accounts_first_answer_to_a_puzzle_moves_its_rating(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await solver_account(s, "ann")
        assert await s.puzzles.solver("ann") == Solver() == await s.puzzles.solver("nobody")
        before, after, moved = await s.puzzles.first_answer("ann", "p1", True, by_one(True))
        assert (before, moved) == (Solver(), True) and after == replace(
            Solver(), mu=Solver().mu + 1, tried=1, solved=1
        )
        assert await s.puzzles.solver("ann") == after
        again = await s.puzzles.first_answer("ann", "p1", False, by_one(False))
        assert again == (after, after, False) and await s.puzzles.solver("ann") == after  # nothing moved
        _, last, moved = await s.puzzles.first_answer("ann", "p2", False, by_one(False))
        assert moved and (last.mu, last.tried, last.solved) == (Solver().mu, 2, 1)

    run(scenario)


def test_answers_sent_at_once_each_count_once(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        await solver_account(s, "ann")
        many = [s.puzzles.first_answer("ann", f"p{i}", True, by_one(True)) for i in range(5)]
        assert all(moved for _, _, moved in await asyncio.gather(*many))
        same = [s.puzzles.first_answer("ann", "q", True, by_one(True)) for _ in range(3)]
        assert sum(moved for _, _, moved in await asyncio.gather(*same)) == 1
        got = await s.puzzles.solver("ann")
        assert (got.mu, got.tried, got.solved) == (Solver().mu + 6, 6, 6)

    run(scenario)
