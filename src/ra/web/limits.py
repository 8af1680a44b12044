"""Rate limits: a token bucket for each client address (in memory, bounded), and the same
limits over :class:`Levels` shared by every worker of a site (sign-ins, password links)."""

from __future__ import annotations

import ipaddress
import time
from typing import Protocol

MAX_ADDRESSES = 10_000
"""Buckets kept at most; full ones (idle addresses) are forgotten first."""


class Buckets:
    """Leaky buckets by key in this process's memory: each key's level drains at its ``rate`` a
    second.  Bounded: past :data:`MAX_ADDRESSES` keys, the drained ones are forgotten."""

    def __init__(self) -> None:
        self._levels: dict[str, tuple[float, float, float]] = {}  # key -> (level, rate, when)

    def level(self, key: str, rate: float) -> float:
        """``key``'s level now (drained since it was last raised)."""
        level, _, last = self._levels.get(key, (0.0, rate, 0.0))
        return max(0.0, level - (time.monotonic() - last) * rate)

    def take(self, key: str, rate: float, cap: float) -> bool:
        """Add 1 to ``key``'s level if it stays at most ``cap``; False (nothing added) if not."""
        now = self.level(key, rate)
        if now + 1 > cap:
            return False
        self._raise(key, now + 1, rate)
        return True

    def add(self, key: str, rate: float) -> None:
        """Add 1 to ``key``'s level."""
        self._raise(key, self.level(key, rate) + 1, rate)

    def _raise(self, key: str, level: float, rate: float) -> None:
        t = time.monotonic()
        self._levels[key] = (level, rate, t)
        if len(self._levels) > MAX_ADDRESSES:
            drained = [k for k, (lv, r, last) in self._levels.items() if lv - (t - last) * r <= 0]
            for k in drained:
                del self._levels[k]


class AddressLimiter:
    """``rate`` requests a second per address, in bursts of up to ``burst`` (:class:`Buckets`)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets = Buckets()

    def allow(self, addr: str) -> bool:
        """Take one request from ``addr``'s bucket; False when it is empty."""
        return self._buckets.take(addr, self.rate, self.burst)


def address_prefix(addr: str) -> str:
    """The part of a client's address that one party controls: an IPv4 address, or an IPv6
    address's /64 (one home or host gets a whole /64), so a limit cannot be dodged by hopping
    addresses within it."""
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return addr
    if ip.version == 6 and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped or ip) if ip.version == 6 else str(ip)


class Levels(Protocol):
    """Leaky buckets by key, each draining at its own ``rate`` a second: the one state behind
    :class:`SharedBucket` and :class:`SharedTally`.  In memory for one worker
    (:class:`MemoryLevels`); in the database when several workers share it
    (:class:`ra.web.limit_store.StoredLevels`), so N workers do not give N times the caps."""

    async def take(self, key: str, rate: float, cap: float) -> bool:
        """Add 1 to ``key``'s level if it stays at most ``cap``; False (nothing added) if not."""
        ...

    async def add(self, key: str, rate: float) -> None:
        """Add 1 to ``key``'s level."""
        ...

    async def level(self, key: str, rate: float) -> float:
        """``key``'s level now (drained since it was last raised)."""
        ...


class MemoryLevels:
    """:class:`Levels` in this process's memory (:class:`Buckets`), for one worker."""

    def __init__(self) -> None:
        self._buckets = Buckets()

    async def take(self, key: str, rate: float, cap: float) -> bool:
        return self._buckets.take(key, rate, cap)

    async def add(self, key: str, rate: float) -> None:
        self._buckets.add(key, rate)

    async def level(self, key: str, rate: float) -> float:
        return self._buckets.level(key, rate)


class SharedBucket:
    """:class:`AddressLimiter` over :class:`Levels`: ``rate`` requests a second per key, in bursts
    of up to ``burst``, counted once for all the workers that share ``levels``."""

    def __init__(self, levels: Levels, name: str, rate: float, burst: float) -> None:
        self.levels, self.name, self.rate, self.burst = levels, name, rate, burst

    async def allow(self, key: str) -> bool:
        return await self.levels.take(f"{self.name}\n{key}", self.rate, self.burst)


class SharedTally:
    """Failures per key over :class:`Levels`: they that fade by ``per_hour`` an hour,
    counted once for all the workers that share ``levels``."""

    def __init__(self, levels: Levels, name: str, per_hour: float) -> None:
        self.levels, self.name, self.rate = levels, name, per_hour / 3600

    async def count(self, key: str) -> float:
        return await self.levels.level(f"{self.name}\n{key}", self.rate)

    async def add(self, key: str) -> None:
        await self.levels.add(f"{self.name}\n{key}", self.rate)
