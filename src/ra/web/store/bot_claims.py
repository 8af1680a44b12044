"""Who computes a bot's turn: a worker's claim on it, renewed while it thinks (PostgreSQL).

Several workers serve one database; each bot's decision should be searched once.  A worker
claims the turn at decision ``n`` (a compare-and-set on the game's row), renews the claim while
it thinks, and a claim not renewed in time is a dead worker's, which another takes over.  One
SQLite worker knows its own bots: nothing to claim.  The in-memory twin is
:class:`ra.web.store.game_storage.MemoryClaims`.
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ra.web.db import games, now


class BotClaims:
    """The bot-turn claims of the games in one database (the aggregate of ``games.bot_claim_*``)."""

    def __init__(self, engine: AsyncEngine, sqlite: bool) -> None:
        self.engine = engine
        self.sqlite = sqlite

    async def claim(self, game_id: str, n: int, stale_after: float) -> bool:
        """Claim the bot's turn at decision ``n`` for this worker (rarely computed twice).

        SQLite serves one process, which knows its own bots: nothing to claim.
        """
        if self.sqlite:
            return True
        t = now()
        async with self.engine.begin() as conn:
            res = await conn.execute(
                sa.update(games)
                .where(
                    games.c.id == game_id,
                    games.c.num_decisions == n,
                    sa.or_(
                        games.c.bot_claim_n.is_(None),
                        games.c.bot_claim_n != n,
                        games.c.bot_claim_at < t - timedelta(seconds=stale_after),
                    ),
                )
                .values(bot_claim_n=n, bot_claim_at=t)
            )
            return res.rowcount == 1

    async def hold(self, game_id: str, n: int) -> None:
        """Renew this worker's claim on the bot's turn at decision ``n`` while it thinks (the
        claim's heartbeat): a claim not renewed for :data:`ra.web.driver.BOT_CLAIM_STALE` seconds
        is a dead worker's, which another takes over."""
        if self.sqlite:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                sa.update(games)
                .where(games.c.id == game_id, games.c.num_decisions == n, games.c.bot_claim_n == n)
                .values(bot_claim_at=now())
            )

    async def games_waiting(self, stale_after: float) -> list[str]:
        """Running games whose mover is a bot, waiting for ``stale_after`` seconds or more with
        no worker (still) thinking for it."""
        cutoff = now() - timedelta(seconds=stale_after)
        async with self.engine.connect() as conn:
            q = sa.select(games.c.id).where(
                games.c.status == "running",
                games.c.to_move_bot.is_(True),
                games.c.updated_at <= cutoff,
                sa.or_(
                    games.c.bot_claim_n.is_(None),
                    games.c.bot_claim_n != games.c.num_decisions,
                    games.c.bot_claim_at < cutoff,
                ),
            )
            return [r[0] for r in await conn.execute(q)]


__all__ = ["BotClaims"]
