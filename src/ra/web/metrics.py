"""What an operator watches: the server's metrics in the Prometheus text format (``/metrics``).

Counters and histograms are kept by prometheus-client; with several workers each keeps its own in
``PROMETHEUS_MULTIPROC_DIR`` (``ra serve`` makes one) and a scrape of any worker adds them up.
The games open and running are read from the database at each scrape, so every worker gives the
same answer.  ``/metrics`` answers only to the addresses ``--metrics-from`` allows (by default
this machine): the numbers are harmless, but an operator decides who reads them.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, Iterator

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

DECISIONS = Counter("ra_decisions", "Decisions applied (people and bots).")
DECISION_SECONDS = Histogram(
    "ra_decision_seconds",
    "From receiving a decision to sending the new state to the table.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
CONNECTIONS = Gauge("ra_websocket_connections", "Open game WebSockets.", multiprocess_mode="livesum")
BOT_QUEUE = Gauge("ra_bot_queue", "Bot searches and hints waiting for a worker.", multiprocess_mode="livesum")
BOT_SECONDS = Histogram(
    "ra_bot_think_seconds",
    "Time from asking a bot for its move to having it (queue included).",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0),
)
HINTS = Counter("ra_hint_requests", "Hint requests.")
ERRORS = Counter("ra_errors", "Errors answered, by code (HTTP API and WebSocket).", ["code"])

CONTENT_TYPE = CONTENT_TYPE_LATEST


class GameCounts:
    """The games by status, read just before a scrape (a collector of ready numbers)."""

    def __init__(self, counts: dict[str, int]) -> None:
        self.counts = counts

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily("ra_games", "Games stored, by status.", labels=["status"])
        for status in ("open", "running", "finished"):
            family.add_metric([status], self.counts.get(status, 0))
        yield family


def render(counts: dict[str, int]) -> bytes:
    """The whole text a scrape gets: this process's (or every worker's) metrics and the games."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        text = generate_latest(registry)
    else:
        from prometheus_client import REGISTRY

        text = generate_latest(REGISTRY)
    games = CollectorRegistry()
    games.register(GameCounts(counts))
    return text + generate_latest(games)


def parse_networks(text: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``127.0.0.1,10.0.0.0/8`` as networks; ``ValueError`` naming the bad entry."""
    out = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            out.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{part!r} is not an IP address or network") from None
    return out


def allowed(address: str | None, networks: Iterable[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    """Whether a client at ``address`` may read the metrics."""
    if address is None:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)
