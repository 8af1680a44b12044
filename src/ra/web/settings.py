"""What a server is started with: the options of ``ra serve``, in one place."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ra.bots.advisor import HINT_BUDGET
from ra.clock import MOVE_DEADLINE


@dataclass
class Settings:
    """What a server is started with (``ra serve`` options)."""

    db_url: str
    bot_processes: int = 1
    bot_backend: str = "process"
    """Where searches run: ``process`` (this machine's processes) or ``ray`` (a Ray cluster)."""
    ray_address: str | None = None
    """The Ray cluster's address for ``bot_backend="ray"`` (None: a local Ray)."""
    max_open_games_per_addr: int = 20
    """Games one address may have waiting or running at once (bot-only tables too)."""
    max_bot_seats_per_addr: int = 40
    """Bot seats one address may have at those games (each is a search to run)."""
    max_games_per_addr: int = 200
    """Games (tables and imports) one address may create in a day."""
    max_sockets_per_addr: int = 64
    """Game connections one address may hold open at once (and open in 30 s)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own that may open a game's WebSocket (``--allowed-origin``)."""
    allowed_hosts: tuple[str, ...] = ()
    """``Host`` names the server answers to besides loopback names (``--allowed-host``, ``--host``)."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Proxies (IPs, CIDRs) whose ``X-Forwarded-For``/``-Proto`` are believed (``--forwarded-allow-ips``)."""
    metrics_from: tuple[str, ...] = ("127.0.0.1", "::1")
    """Addresses (IPs, CIDRs) that may read ``/metrics``, directly and never through a proxy."""
    messages_per_second: float = 20.0
    message_burst: float = 40.0
    hint_budget: str = HINT_BUDGET
    """The work behind one hint (a level, iterations, or seconds as ``2s``; ``ra.bots.evaluate.Budget``)."""
    analysis_budget: str = "hard"
    """The work behind each decision of a finished game's analysis (``ra serve --analysis-budget``)."""
    max_analyses: int = 2
    """Analyses one server process runs at once (each judges its game's decisions one by one)."""
    smtp_url: str | None = None
    """The SMTP server for "your turn" mail in games by turns (``ra serve --smtp``); None: no mail."""
    public_url: str = "http://localhost:8000"
    """The site's address as players reach it, for links in mail (``ra serve --public-url``)."""
    move_deadline: float = MOVE_DEADLINE
    """At a table without a clock, the seconds a person has for one decision; past it the seat
    forfeits (a bot plays it to the end and it ranks last): a losing player cannot stall a rated
    game, and a table everyone left ends (issue 40).  ``RA_MOVE_DEADLINE`` sets it."""
    open_table_wait: float = 60.0
    """Seconds an open table stays in the lobby after its seated people have all gone (no page of
    theirs open there): then it leaves, until one of them comes back (``RA_OPEN_TABLE_WAIT``)."""
    fixed_seed: int | None = None
    """Every new game gets this seed (scripted tests only: a known seed reveals the bag)."""
    worker_id: str = field(default_factory=lambda: f"{os.getpid()}-{os.urandom(3).hex()}")


__all__ = ["Settings"]
