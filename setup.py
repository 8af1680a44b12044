"""Build the optional native core ``ra._core`` (C++17, raw CPython API; see native/README.md).

``optional=True``: where no C++ compiler is found the extension is skipped and the package
installs as pure Python (``ra.native_available()`` is then False).

The dependencies: the library's (pyproject.toml's ``[tool.ra] library-dependencies``), and for an
editable install, which is the whole game, the extra ``play`` too (``build_backend/ra_build.py``).
"""

import os
import sys
import tomllib
from pathlib import Path

from setuptools import Extension, setup


def dependencies() -> list[str]:
    """The library's dependencies, with the extra ``play``'s where the build is the game's."""
    project = tomllib.loads((Path(__file__).parent / "pyproject.toml").read_text(encoding="utf-8"))
    library: list[str] = project["tool"]["ra"]["library-dependencies"]
    game = os.environ.get("RA_BUILD") == "game"
    return library + (project["project"]["optional-dependencies"]["play"] if game else [])


if sys.platform == "win32":
    args = ["/O2", "/std:c++17", "/fp:precise"]
else:
    # -ffp-contract=off: no fused multiply-add, so the greedy valuation rounds like Python.
    args = ["-O3", "-std=c++17", "-ffp-contract=off", "-fno-strict-aliasing"]

setup(
    install_requires=dependencies(),
    ext_modules=[
        Extension(
            "ra._core",
            sources=[
                "native/rules.cpp",
                "native/greedy.cpp",
                "native/mcts.cpp",
                "native/value.cpp",
                "native/policy.cpp",
                "native/vector.cpp",
                "native/module.cpp",
            ],
            depends=["native/state.hpp", "native/vector.hpp", "native/policy.hpp"],
            include_dirs=["native"],
            extra_compile_args=args,
            language="c++",
            optional=True,
        )
    ],
)
