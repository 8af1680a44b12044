"""Per-address limits, each counted once for the whole site: rates (leaky buckets over
:class:`Levels`: chat lines, lobby lists, imports, sign-ins, socket and page openings) and
things held at once (:class:`Holds`: open game sockets, open lobby pages).  Both live in this
worker's memory on SQLite (one worker) and in PostgreSQL when workers share it
(:mod:`ra.web.limit_store`), where each check and its count are one atomic step: neither a
burst nor a second worker or host gets past a cap."""

from __future__ import annotations

import ipaddress
import time
from collections import Counter
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


class AddressBucket(SharedBucket):
    """:class:`SharedBucket` keyed by what one party controls of a client's address
    (:func:`address_prefix`: an IPv6 /64 is one address)."""

    async def allow(self, key: str) -> bool:
        return await super().allow(address_prefix(key))


class Holds(Protocol):
    """How many of something each key holds at once (sockets, pages), over every worker that
    shares it: :class:`MemoryHolds` for one worker, :class:`ra.web.limit_store.StoredHolds`
    in PostgreSQL."""

    async def take(self, key: str, cap: int) -> bool:
        """Hold one more for ``key`` if it then holds at most ``cap``; False (nothing held) if not."""
        ...

    async def give_back(self, key: str) -> None:
        """Let go of one that :meth:`take` gave ``key``."""
        ...

    async def close(self) -> None:
        """This worker stops: let go of everything its clients hold."""
        ...


class MemoryHolds:
    """:class:`Holds` in this process's memory, for one worker."""

    def __init__(self) -> None:
        self._held: Counter[str] = Counter()

    async def take(self, key: str, cap: int) -> bool:
        if self._held[key] >= cap:
            return False
        self._held[key] += 1
        return True

    async def give_back(self, key: str) -> None:
        self._held[key] -= 1
        if self._held[key] <= 0:
            del self._held[key]

    async def close(self) -> None:
        self._held.clear()


class AddressHolds:
    """At most ``cap`` of one kind (``name``) held at once by one address (:func:`address_prefix`)."""

    def __init__(self, holds: Holds, name: str, cap: int) -> None:
        self.holds, self.name, self.cap = holds, name, cap

    async def take(self, addr: str) -> bool:
        return await self.holds.take(self._key(addr), self.cap)

    async def give_back(self, addr: str) -> None:
        await self.holds.give_back(self._key(addr))

    def _key(self, addr: str) -> str:
        return f"{self.name}\n{address_prefix(addr)}"


class SharedTally:
    """Failures per key over :class:`Levels`: they that fade by ``per_hour`` an hour,
    counted once for all the workers that share ``levels``."""

    def __init__(self, levels: Levels, name: str, per_hour: float) -> None:
        self.levels, self.name, self.rate = levels, name, per_hour / 3600

    async def count(self, key: str) -> float:
        return await self.levels.level(f"{self.name}\n{key}", self.rate)

    async def add(self, key: str) -> None:
        await self.levels.add(f"{self.name}\n{key}", self.rate)
