"""The tests cache byte code whatever the environment says (``PYTHONDONTWRITEBYTECODE``).

Without the cache every test process (each pytest worker, and the some 250 ``python -m ra``
processes the tests start) compiles the package again, and pytest rewrites every test module's
asserts again: on a 2-core machine that was 9 of a worker's 15 CPU seconds of collection, and a
second or so of each command line's start.  CI unsets the variable for the same reason
(``.ci/run``).  This package is imported before any conftest and any test module, so the
workers and the processes the tests start inherit the choice; set ``RA_TESTS_NO_BYTECODE=1``
to keep the environment's word (a tree that must stay free of ``__pycache__``).
"""

from __future__ import annotations

import os
import sys

if not os.environ.get("RA_TESTS_NO_BYTECODE"):
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
