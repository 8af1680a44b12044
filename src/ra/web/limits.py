"""Rate limits: a token bucket for each client address (in memory, bounded), and the same
limits over :class:`Levels` shared by every worker of a site (sign-ins, password links)."""

from __future__ import annotations

import ipaddress
import time
from typing import Protocol

MAX_ADDRESSES = 10_000
"""Buckets kept at most; full ones (idle addresses) are forgotten first."""


class AddressLimiter:
    """``rate`` requests a second per address, in bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (allowance, when)

    def allow(self, addr: str) -> bool:
        """Take one request from ``addr``'s bucket; False when it is empty."""
        t = time.monotonic()
        allowance, last = self._buckets.get(addr, (self.burst, t))
        allowance = min(self.burst, allowance + (t - last) * self.rate)
        if allowance < 1:
            self._buckets[addr] = (allowance, t)
            return False
        self._buckets[addr] = (allowance - 1, t)
        if len(self._buckets) > MAX_ADDRESSES:
            self._forget_idle(t)
        return True

    def _forget_idle(self, t: float) -> None:
        rate, burst = self.rate, self.burst
        full = [a for a, (allow, last) in self._buckets.items() if allow + (t - last) * rate >= burst]
        for a in full:
            del self._buckets[a]


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
    """:class:`Levels` in this process's memory, bounded like :class:`AddressLimiter`."""

    def __init__(self) -> None:
        self._levels: dict[str, tuple[float, float]] = {}  # key -> (level, when)

    async def take(self, key: str, rate: float, cap: float) -> bool:
        now = await self.level(key, rate)
        if now + 1 > cap:
            return False
        self._raise(key, now + 1)
        return True

    async def add(self, key: str, rate: float) -> None:
        self._raise(key, await self.level(key, rate) + 1)

    async def level(self, key: str, rate: float) -> float:
        level, last = self._levels.get(key, (0.0, 0.0))
        return max(0.0, level - (time.monotonic() - last) * rate)

    def _raise(self, key: str, level: float) -> None:
        self._levels[key] = (level, time.monotonic())
        if len(self._levels) > MAX_ADDRESSES:
            del self._levels[next(iter(self._levels))]  # the key raised longest ago


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
