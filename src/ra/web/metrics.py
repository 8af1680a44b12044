"""What an operator watches: ``ra serve``'s numbers in the Prometheus text format (``/metrics``).

One :class:`Metrics` per app (its own registry, so several apps in one process, as in the
tests, do not collide). The names are listed in ``docs/hosting.md``. With ``--workers N``,
``ra serve`` gives the workers a shared folder (:data:`MULTIPROCESS_ENV`, prometheus-client's
multiprocess mode): each writes its numbers there and whichever answers a scrape adds them up.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

# No ``*_created`` timestamp series: they say nothing an operator watches.
disable_created_metrics()  # type: ignore[no-untyped-call]

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""The folder ``--workers N`` share their numbers in (read when prometheus-client is imported)."""

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The ``Content-Type`` of :meth:`Metrics.render`'s text."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds from an action's arrival to its broadcast: milliseconds when all is well."""

THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)
"""Seconds a bot's search or a hint takes in its process (budgets are about a second)."""


class Metrics:
    """The counters, gauges and histograms of one ``ra serve`` worker."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.games = Gauge(
            "ra_games",
            "Games open (waiting for players) or running, from the database",
            ["status"],
            registry=r,
            multiprocess_mode="mostrecent",  # every worker reads the same database
        )
        self.decisions = Counter(
            "ra_decisions", "Decisions committed, by a person or a bot", ["by"], registry=r
        )
        self.decision_latency = Histogram(
            "ra_decision_latency_seconds",
            "From receiving an action to broadcasting the new state (validation, storing, sending)",
            ["by"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.websockets = Gauge(
            "ra_websocket_connections",
            "Open game WebSocket connections",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.bot_queue = Gauge(
            "ra_bot_queue_length",
            "Bot searches and hints waiting for a free process",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.bot_running = Gauge(
            "ra_bot_searches_running",
            "Bot searches and hints running now",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.bot_think = Histogram(
            "ra_bot_think_seconds",
            "Time a bot's search (work=move) or a hint (work=hint) ran in its process, queueing excluded",
            ["work"],
            buckets=THINK_BUCKETS,
            registry=r,
        )
        self.hints = Counter("ra_hint_requests", "Hint requests from players", registry=r)
        self.errors = Counter(
            "ra_errors",
            "Errors told to clients, by code (bad_message, illegal, rate_limited, ...)",
            ["code"],
            registry=r,
        )

    def bots(self, waiting: int, running: int) -> None:
        """The bots' queue changed (:class:`ra.web.scheduler.FairScheduler`)."""
        self.bot_queue.set(waiting)
        self.bot_running.set(running)

    def render(self) -> bytes:
        """Every metric in the Prometheus text format: this process's, or every worker's."""
        if os.environ.get(MULTIPROCESS_ENV):
            registry = CollectorRegistry()
            MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
            return bytes(generate_latest(registry))
        return bytes(generate_latest(self.registry))

    @staticmethod
    def close() -> None:
        """This worker stops: its live gauges (connections, bots) no longer count."""
        if os.environ.get(MULTIPROCESS_ENV):
            mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]
