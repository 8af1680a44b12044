"""``rate_game`` applies the rating policy to stored games (issue 52), in-process over a real
database (SQLite with every migration): a casual game and an aborted one move nobody, a game
after which a walk-away played a few decisions is rated with it last, and an established
account's rating moves half as much in a game with a provisional one."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from ra.web.db import accounts, decisions
from ra.web.rating_policy import MIN_OWN_DECISIONS, PROVISIONAL_GAMES, PROVISIONAL_WEIGHT
from ra.web.ratings import MODEL, rate_game
from ra.web.store import Store

GAME: dict[str, Any] = {
    "status": "finished",
    "players": 2,
    "variant": "standard",
    "hidden_scores": True,
    "edition": "original",
    "bot_delay": 0.0,
    "seed": 1,
    "scores": [40, 20],
    "winner": 0,
}


async def account(store: Store, name: str, games: int = 0) -> None:
    async with store.engine.begin() as conn:
        await conn.execute(
            sa.insert(accounts).values(
                id=name,
                name=name,
                name_key=name,
                password_hash="-",
                created_at=datetime.now(UTC),
                rated_games=games,
            )
        )


async def game(store: Store, own: tuple[int, int], forfeited: int | None = None, casual: bool = False) -> str:
    """A finished game of ann (seat 0, the winner) and bob, each having taken ``own`` decisions."""
    seats = [
        {"seat": i, "kind": "human", "name": n, "account_id": n, "forfeited": i == forfeited}
        for i, n in enumerate(("ann", "bob"))
    ]
    gid = await store.create_game({**GAME, "casual": casual}, seats)
    rows = [(seat, k) for seat in (0, 1) for k in range(own[seat])]
    async with store.engine.begin() as conn:
        for n, (seat, _) in enumerate(rows):
            await conn.execute(
                sa.insert(decisions).values(
                    game_id=gid, n=n, seat=seat, action="draw", created_at=datetime.now(UTC)
                )
            )
    return gid


async def ratings(store: Store) -> dict[str, tuple[float, float, int]]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(accounts.c.id, accounts.c.rating_mu, accounts.c.rating_sigma, accounts.c.rated_games)
        )
        return {r.id: (r.rating_mu, r.rating_sigma, r.rated_games) for r in rows}


def run(sqlite_url: str, script: Any) -> Any:
    async def main() -> Any:
        store = Store(sqlite_url)
        try:
            return await script(store)
        finally:
            await store.close()

    return asyncio.run(main())


def test_a_casual_game_and_an_early_walk_away_move_nobody(sqlite_url: str) -> None:
    async def script(store: Store) -> dict[str, tuple[float, float, int]]:
        await account(store, "ann")
        await account(store, "bob")
        casual = await game(store, (30, 30), casual=True)
        walked = await game(store, (30, MIN_OWN_DECISIONS - 1), forfeited=1)
        assert not await rate_game(store.ratings, casual) and not await rate_game(store.ratings, walked)
        return await ratings(store)

    assert run(sqlite_url, script) == {"ann": (25.0, 25 / 3, 0), "bob": (25.0, 25 / 3, 0)}


def test_a_forfeit_after_a_few_decisions_is_rated_last(sqlite_url: str) -> None:
    async def script(store: Store) -> dict[str, tuple[float, float, int]]:
        await account(store, "ann")
        await account(store, "bob")
        late = await game(store, (30, MIN_OWN_DECISIONS), forfeited=1)
        assert await rate_game(store.ratings, late) and not await rate_game(store.ratings, late)  # once
        return await ratings(store)

    after = run(sqlite_url, script)
    assert after["ann"][0] > 25 > after["bob"][0] and after["ann"][2] == after["bob"][2] == 1


def test_an_established_rating_moves_half_as_much_against_a_provisional_account(sqlite_url: str) -> None:
    async def script(store: Store) -> dict[str, tuple[float, float, int]]:
        await account(store, "ann", games=PROVISIONAL_GAMES)  # established, at the default rating
        await account(store, "bob")  # new
        assert await rate_game(store.ratings, await game(store, (30, 30)))
        return await ratings(store)

    after = run(sqlite_url, script)
    full = MODEL.rate(
        [[MODEL.rating(mu=25, sigma=25 / 3)], [MODEL.rating(mu=25, sigma=25 / 3)]], ranks=[1.0, 2.0]
    )
    assert abs((after["ann"][0] - 25) - PROVISIONAL_WEIGHT * (full[0][0].mu - 25)) < 1e-9
    assert abs(after["bob"][0] - full[1][0].mu) < 1e-9  # the new account moves fully
