"""Build the optional native core ``ra._core`` (C++17, raw CPython API; see native/README.md).

``optional=True``: where no C++ compiler is found the extension is skipped and the package
installs as pure Python (``ra.native_available()`` is then False).
"""

import sys

from setuptools import Extension, setup

if sys.platform == "win32":
    args = ["/O2", "/std:c++17", "/fp:precise"]
else:
    # -ffp-contract=off: no fused multiply-add, so the greedy valuation rounds like Python.
    args = ["-O3", "-std=c++17", "-ffp-contract=off", "-fno-strict-aliasing"]

setup(
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
    ]
)
