"""Per-address rate limits: a token bucket for each client address, in memory, bounded."""

from __future__ import annotations

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
