"""A table from its stored game, in-process (issue 56): built when a room opens, caught up after
another worker's decisions, its undo, or its forfeit (:mod:`ra.web.stored_table`) — over the
in-memory storage, in milliseconds.  Several real workers stay in ``test_pubsub.py``."""

from __future__ import annotations

import asyncio
import random

from ra.web.ledger import game_state
from ra.web.store import StoredDecision
from ra.web.store.game_storage import MemoryGames
from ra.web.stored_table import after_decisions, build_game, caught_up, load
from tests.web.test_match import row

DEADLINE = 3600.0


async def played(store: MemoryGames, gid: str, k: int, seed: int = 1) -> list[str]:
    """Store ``k`` more random decisions of game ``gid`` (as another worker would); their texts."""
    stored = store.rows[gid]
    texts = [d.action for d in await store.decisions(gid)]
    game = build_game(stored, texts)
    rng = random.Random(seed)
    for _ in range(k):
        action = str(rng.choice(game.legal_actions()))
        seat = game.to_move
        assert seat is not None
        n = game.num_decisions
        game.apply(action)
        await store.append(gid, n, seat, action, game_state(game, stored), stand_in=seat == 1)
        texts.append(action)
    return texts


def test_a_table_is_loaded_and_caught_up_as_the_storage_says() -> None:
    async def main() -> None:
        store = MemoryGames()
        gid = store.put(row(None, None, seed=6, hints=True))
        texts = await played(store, gid, 4)
        loaded = await load(store, gid, DEADLINE)
        assert loaded is not None
        _, table = loaded
        assert table is not None and [str(a) for a in table.game.decisions] == texts
        assert table.options.hints and table.stand_ins == {k for k in range(4) if table.movers[k] == 1}
        more = await played(store, gid, 3, seed=2)  # another worker decided: the log only grows
        caught = await caught_up(store, gid, table, DEADLINE)
        assert caught is not None
        _, grown, floor = caught
        assert grown is not None and floor is None and [str(a) for a in grown.game.decisions] == more
        assert table.game.num_decisions == 4  # the old table is unchanged
        await store.seat_clocks.set_away(gid, 0, True, forfeited=True)  # another worker's forfeit
        await store.truncate(gid, 7, 5, game_state(build_game(store.rows[gid], more[:5]), store.rows[gid]))
        caught = await caught_up(store, gid, grown, DEADLINE)
        assert caught is not None
        _, back, floor = caught
        assert back is not None and back.game.num_decisions == 5 and back.forfeited == {0}
        assert floor == len(back.game.events)  # taken back: the clients' logs are sent again from there
        assert await caught_up(store, "nothing", back, DEADLINE) is None

    asyncio.run(main())


def test_a_log_that_differs_is_sent_again_from_where_it_differs() -> None:
    async def main() -> None:
        store = MemoryGames()
        gid = store.put(row(None, None, seed=6))
        texts = await played(store, gid, 5)
        loaded = await load(store, gid, DEADLINE)
        assert loaded is not None and loaded[1] is not None
        table = loaded[1]
        game = build_game(store.rows[gid], texts[:2])
        await store.truncate(gid, 5, 2, game_state(game, store.rows[gid]))
        branch = await played(store, gid, 2, seed=9)  # another branch after decision 2
        common = next(k for k in range(5) if k == len(branch) or branch[k] != texts[k])
        caught = await caught_up(store, gid, table, DEADLINE)
        assert caught is not None
        _, other, floor = caught
        assert other is not None and [str(a) for a in other.game.decisions] == branch
        assert floor == len(build_game(store.rows[gid], texts[:common]).events)

    asyncio.run(main())


def test_another_workers_decisions_apply_unless_they_do_not_fit() -> None:
    async def main() -> None:
        store = MemoryGames()
        gid = store.put(row(None, None, seed=6))
        await played(store, gid, 2)
        loaded = await load(store, gid, DEADLINE)
        assert loaded is not None and loaded[1] is not None
        table = loaded[1]
        seat = table.game.to_move
        assert seat is not None
        action = str(table.game.legal_actions()[0])
        new = after_decisions(table, [StoredDecision(seat, action, True)])
        assert new is not None and new.game.num_decisions == 3 and 2 in new.stand_ins
        assert table.game.num_decisions == 2 and 2 not in table.stand_ins
        assert after_decisions(table, [StoredDecision(seat, "fly away", False)]) is None

    asyncio.run(main())


def test_an_open_game_has_no_table_yet() -> None:
    async def main() -> None:
        store = MemoryGames()
        open_row = row(None, None, seed=7)
        open_row.status = "open"
        gid = store.put(open_row)
        loaded = await load(store, gid, DEADLINE)
        assert loaded is not None and loaded[1] is None
        caught = await caught_up(store, gid, None, DEADLINE)
        assert caught is not None and caught[1:] == (None, 0)

    asyncio.run(main())
