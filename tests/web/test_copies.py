"""A worker's short-lived copies (ra.web.copies): one computation serves every ask meanwhile."""

from __future__ import annotations

import asyncio

import pytest

from ra.web.copies import Copies


def test_one_computation_serves_every_ask_until_forgotten_or_fresh() -> None:
    async def main() -> None:
        calls: list[int] = []

        async def work() -> int:
            calls.append(1)
            await asyncio.sleep(0.01)
            return len(calls)

        copies: Copies[int] = Copies(seconds=60, kept=10)
        assert await asyncio.gather(*(copies.get("e1", work) for _ in range(5))) == [1] * 5
        assert await copies.get("e1", work) == 1  # still recent
        assert await copies.get("e1", work, fresh=True) == 2
        copies.forget("e1")
        assert await copies.get("e1", work) == 3

    asyncio.run(main())


def test_a_failed_answer_is_not_kept() -> None:
    async def main() -> None:
        tries: list[int] = []

        async def work() -> int:
            tries.append(1)
            if len(tries) == 1:
                raise RuntimeError("the database went away")
            return 7

        copies: Copies[int] = Copies(seconds=60, kept=10)
        with pytest.raises(RuntimeError):
            await copies.get("e1", work)
        assert await copies.get("e1", work) == 7

    asyncio.run(main())
