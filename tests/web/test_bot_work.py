"""A bot process imports what it runs (:mod:`ra.web.bot_work`), not the server.

A server's first search for a bot that searches, and its first hint, wait on a fresh process
(:mod:`ra.processes`); one that imported the server's modules (the protocol's models, the
clients, the metrics) cost about twice the processor time to start.
"""

from __future__ import annotations

import ra
from ra.table import BotJob, HintJob, decide
from ra.web.bot_processes import BotProcesses
from ra.web.bot_work import hint_for
from ra.web.metrics import Metrics
from ra.web.settings import Settings

WORKER_MODULES = {"ra.web", "ra.web.bot_work", "ra.web.switches"}
"""The modules of :mod:`ra.web` a bot process may hold: its package, its work, its switches."""
SERVER_LIBRARIES = ("fastapi", "starlette", "pydantic", "prometheus_client", "sqlalchemy", "uvicorn")
"""What the server runs on, none of which a search needs."""
LOADED = "sorted(m for m in __import__('sys').modules if m.startswith('ra.web') or '.' not in m)"


def test_both_pools_processes_search_without_importing_the_server() -> None:
    processes = BotProcesses(Settings(db_url="sqlite://"), Metrics())
    game = ra.Game(players=3, seed=4)
    try:
        for person in (True, False):  # a present person's pool, and the pool of unwatched tables
            pool = processes.executor(person)
            action = pool.submit(decide, BotJob(game.view(0), "easy", seed=1)).result(60)
            assert action in game.legal_actions()
            hint = pool.submit(hint_for, HintJob(game.view(0), "200", 0), "original").result(60)
            assert hint["seat"] == 0 and hint["best"] in {str(a) for a in game.legal_actions()}
            loaded = set(pool.submit(eval, LOADED).result(60))
            ours = {m for m in loaded if m.startswith("ra.web")}
            assert ours <= WORKER_MODULES, f"a bot process imported {sorted(ours - WORKER_MODULES)}"
            assert not loaded & set(SERVER_LIBRARIES), sorted(loaded & set(SERVER_LIBRARIES))
    finally:
        processes.shutdown()
