"""The server's heap (:mod:`ra.web.heap`): start-up's objects frozen, a larger young generation,
later garbage still collected — each checked in a fresh interpreter (the freeze is the process's)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def run(code: str) -> str:
    """Run ``code`` in a new interpreter with this tree's ``ra``; what it printed."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_settle_freezes_what_start_up_left_and_enlarges_the_young_generation() -> None:
    out = run(
        """
        import gc
        from ra.web.heap import YOUNG_GENERATION, settle
        assert gc.get_freeze_count() == 0
        settle()
        print(gc.get_freeze_count() > 10_000, gc.get_threshold()[0] == YOUNG_GENERATION)
        """
    )
    assert out == "True True"


def test_garbage_made_after_settling_is_still_collected() -> None:
    """Only what was there at the freeze is spared: a cycle dropped later is freed by a collection."""
    out = run(
        """
        import gc, weakref
        from ra.web.heap import settle
        settle()
        class Node: pass
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        gc.collect()
        print(gone() is None)
        """
    )
    assert out == "True"


def test_the_server_settles_its_heap_and_an_app_made_for_a_test_does_not(tmp_path: Path) -> None:
    """``ra serve``'s app (``app_from_env``) freezes its heap once started; ``create_app`` by
    default leaves the process's collector alone (a process that makes many apps keeps none)."""
    out = run(
        f"""
        import asyncio, gc, os
        from ra.web import db
        from ra.web.app import app_from_env, create_app
        from ra.web.settings import Settings

        default = gc.get_threshold()[0]
        url = "sqlite:///{tmp_path / "heap.db"}"
        db.upgrade(url)

        async def started(app):
            async with app.router.lifespan_context(app):
                return gc.get_freeze_count(), gc.get_threshold()[0]

        plain = asyncio.run(started(create_app(Settings(db_url=url))))
        os.environ["RA_DB_URL"] = url
        served = asyncio.run(started(app_from_env()))
        print(plain == (0, default), served[0] > 10_000, served[1] > default)
        """
    )
    assert out == "True True True"
