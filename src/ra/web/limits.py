"""Per-address rate limits: a token bucket for each client address, in memory, bounded."""

from __future__ import annotations

import ipaddress
import time

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


class Failures:
    """Failures per key that fade by ``per_hour`` an hour (a leaky bucket): how many a key has
    had lately.  In memory, bounded like :class:`AddressLimiter`."""

    def __init__(self, per_hour: float) -> None:
        self.rate = per_hour / 3600
        self._levels: dict[str, tuple[float, float]] = {}  # key -> (level, when)

    def count(self, key: str) -> float:
        """The failures ``key`` has now (faded since they happened)."""
        level, last = self._levels.get(key, (0.0, 0.0))
        return max(0.0, level - (time.monotonic() - last) * self.rate)

    def add(self, key: str) -> None:
        self._levels[key] = (self.count(key) + 1, time.monotonic())
        if len(self._levels) > MAX_ADDRESSES:
            for k in [k for k in self._levels if self.count(k) == 0.0]:
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
