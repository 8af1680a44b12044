"""Per-address limits, each counted once for the whole site: rates (leaky buckets over
:class:`Levels`: chat lines, lobby lists, imports, sign-ins, socket and page openings) and
things held at once (:class:`Holds`: open game sockets, open lobby pages).  Both live in this
worker's memory on SQLite (one worker) and in PostgreSQL when workers share it
(:mod:`ra.web.store.limits`: the interfaces, their twins and their SQL), where each check
and its count are one atomic step: neither a burst nor a second worker or host gets past a cap."""

from __future__ import annotations

import ipaddress

from ra.web.store.limits import Holds, Levels, MemoryHolds, MemoryLevels


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


def table_owner(creator_addr: str | None, game_id: str) -> str:
    """Who made a table (its creator's address, an IPv6 /64; else the table itself): all the
    bots' work of one owner's tables, stand-ins included, shares one turn
    (:class:`ra.web.scheduler.FairScheduler`)."""
    return address_prefix(creator_addr) if creator_addr else game_id


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


__all__ = [
    "AddressBucket",
    "AddressHolds",
    "Holds",
    "Levels",
    "MemoryHolds",
    "MemoryLevels",
    "SharedBucket",
    "SharedTally",
    "address_prefix",
]
