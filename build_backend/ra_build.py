"""Ra's build backend: setuptools' own, but for an editable install.

``pip install ra-boardgame`` (a wheel or the sdist) installs the library: the engine, the bots,
the arena, the analysis and the research adapters. The extras add the front ends: ``[play]`` the
``ra`` command and the terminal game, ``[web]`` the server. A checkout installed for development
(``pip install -e .``, the README's first command, which then starts ``ra play``) is the whole
game: for an editable build this backend tells ``setup.py`` to add the extra ``play`` to the
dependencies (``RA_BUILD=game``). Default extras (PEP 771) would say this in the metadata, but
pip does not support them yet.
"""

from __future__ import annotations

import os

from setuptools import build_meta
from setuptools.build_meta import (  # noqa: F401  (the hooks a wheel and an sdist build use, unchanged)
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_wheel,
)

ConfigSettings = dict[str, "str | list[str]"] | None


def _the_game() -> None:
    """Mark this build as the game's (``setup.py`` reads it): the editable hooks only."""
    os.environ["RA_BUILD"] = "game"


def get_requires_for_build_editable(config_settings: ConfigSettings = None) -> list[str]:
    _the_game()
    return list(build_meta.get_requires_for_build_editable(config_settings))


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: ConfigSettings = None
) -> str:
    _the_game()
    return str(build_meta.prepare_metadata_for_build_editable(metadata_directory, config_settings))


def build_editable(
    wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None
) -> str:
    _the_game()
    return str(build_meta.build_editable(wheel_directory, config_settings, metadata_directory))
