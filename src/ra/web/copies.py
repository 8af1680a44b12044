"""Copies of costly answers a worker keeps for a few seconds: however many pages ask meanwhile,
one computation serves them all (an event's standings, for every page of the event)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Copies(Generic[V]):
    """Each key's answer, worked out at most every ``seconds`` (at most ``kept`` keys held)."""

    def __init__(self, seconds: float, kept: int) -> None:
        self.seconds, self.kept = seconds, kept
        self._copies: dict[Hashable, tuple[float, asyncio.Future[V]]] = {}

    async def get(self, key: Hashable, work: Callable[[], Awaitable[V]], fresh: bool = False) -> V:
        """The answer for ``key``: the copy if recent (or being worked out), else ``work()``'s;
        ``fresh``: work it out again whatever is kept.  A failed answer is not kept."""
        t = time.monotonic()
        kept = self._copies.get(key)
        if not fresh and kept is not None and t - kept[0] < self.seconds:
            return await asyncio.shield(kept[1])
        if len(self._copies) > self.kept:
            self._copies = {k: v for k, v in self._copies.items() if t - v[0] < self.seconds}
        working = asyncio.ensure_future(work())
        self._copies[key] = (t, working)
        try:
            return await asyncio.shield(working)
        except Exception:
            self._copies.pop(key, None)
            raise

    def forget(self, key: Hashable) -> None:
        """Drop ``key``'s copy: the next ask works it out (it changed)."""
        self._copies.pop(key, None)


__all__ = ["Copies"]
