"""The ASGI app of ``ra serve``: the services for one database and the routers over them.

Thin by design: the services are built and wired in :mod:`ra.web.services` (kept on
``app.state.services``), the routes are :mod:`ra.web.routes`' (the site, the lobby, accounts,
the WebSockets), a game's business is :class:`ra.web.hub.Room` around a
:class:`ra.table.Table`, the messages are :mod:`ra.web.protocol`'s and the browser-facing
defences :mod:`ra.web.security`'s.  See ``docs/web-api.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI

from ra.web.guide import router as guide_router
from ra.web.heap import settle
from ra.web.learn import router as learn_router
from ra.web.routes import accounts, events, lobby, play, site
from ra.web.security import parse_networks
from ra.web.services import build_services
from ra.web.settings import Settings
from ra.web.stacks import listen_for_dumps

STATIC = Path(str(files("ra.web") / "static"))


def create_app(settings: Settings, settle_heap: bool = False) -> FastAPI:
    """The server for one database; ``ra serve`` runs it under uvicorn (``settle_heap``: its
    process is the server's alone, so once started its heap is frozen, :func:`ra.web.heap.settle`;
    not in a process that makes many apps, as the tests do, where it would keep each one's garbage)."""
    services = build_services(settings, STATIC)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        listen_for_dumps(asyncio.get_running_loop())
        await services.start()
        if settle_heap:
            settle()  # start-up's heap is never walked again (issue 56's latency tail)
        yield
        await services.stop()

    app = FastAPI(title="Ra", version="1", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.services = services
    site.add_middleware(app, settings)
    site.answer_errors(app, services.metrics, services.pages)
    gate = accounts.Gate(services.accounts, settings)
    app.include_router(site.router(services, parse_networks(",".join(settings.metrics_from))))
    app.include_router(learn_router)
    app.include_router(guide_router)
    site.mount_static(app, services.pages)
    app.include_router(lobby.router(services, gate))
    app.include_router(accounts.router(services, gate))
    app.include_router(events.router(services, gate))
    app.include_router(play.router(services))
    return app


def app_from_env() -> FastAPI:
    """The app for uvicorn's ``--factory`` (the workers read the settings from the environment)."""
    url = os.environ.get("RA_DB_URL")
    if not url:
        raise RuntimeError("RA_DB_URL is not set (ra serve sets it)")
    return create_app(
        settle_heap=True,
        settings=Settings(
            db_url=url,
            bot_processes=int(os.environ.get("RA_BOT_PROCESSES", "1")),
            bot_backend=os.environ.get("RA_BOT_BACKEND", "process"),
            ray_address=os.environ.get("RA_RAY_ADDRESS") or None,
            max_open_games_per_addr=int(os.environ.get("RA_MAX_OPEN_GAMES", "20")),
            max_bot_seats_per_addr=int(os.environ.get("RA_MAX_BOT_SEATS", "40")),
            max_games_per_addr=int(os.environ.get("RA_MAX_GAMES_PER_DAY", "200")),
            max_sockets_per_addr=int(os.environ.get("RA_MAX_SOCKETS", "64")),
            allowed_origins=tuple(o for o in os.environ.get("RA_ALLOWED_ORIGINS", "").split() if o),
            allowed_hosts=tuple(h for h in os.environ.get("RA_ALLOWED_HOSTS", "").split() if h),
            forwarded_allow_ips=tuple(
                str(n) for n in parse_networks(os.environ.get("RA_FORWARDED_ALLOW_IPS", ""))
            ),
            metrics_from=tuple(
                str(n) for n in parse_networks(os.environ.get("RA_METRICS_FROM", "127.0.0.1,::1"))
            ),
            messages_per_second=float(os.environ.get("RA_MESSAGE_RATE", "20")),
            message_burst=2 * float(os.environ.get("RA_MESSAGE_RATE", "20")),
            move_deadline=float(os.environ.get("RA_MOVE_DEADLINE") or Settings.move_deadline),
            open_table_wait=float(os.environ.get("RA_OPEN_TABLE_WAIT") or Settings.open_table_wait),
            fixed_seed=int(os.environ["RA_GAME_SEED"]) if os.environ.get("RA_GAME_SEED") else None,
            hint_budget=os.environ.get("RA_HINT_BUDGET", Settings.hint_budget),
            analysis_budget=os.environ.get("RA_ANALYSIS_BUDGET", Settings.analysis_budget),
            smtp_url=os.environ.get("RA_SMTP_URL") or None,
            public_url=os.environ.get("RA_PUBLIC_URL") or Settings.public_url,
        ),
    )
