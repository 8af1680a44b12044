"""The browser's files under names that change when their content does (cache busting).

Every page refers to ``/static/<build>/…``, where ``<build>`` is a hash of all the static
files: a browser may keep those for a year (``immutable``), and a new release is a new
name, so nobody runs yesterday's script against today's server.  The modules import each
other by relative paths, so they stay inside the same build.  The plain ``/static/…``
names still answer (``no-cache``) for anything that kept an old link.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

LONG_CACHE = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"


def build_id(*directories: Path) -> str:
    """A short hash of every file's name and content under ``directories`` (the static
    files and the message catalogue, which the pages load as this build's JSON)."""
    digest = hashlib.sha256()
    for directory in directories:
        for path in sorted(p for p in directory.rglob("*") if p.is_file()):
            digest.update(path.relative_to(directory).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class CachedStatic(StaticFiles):
    """Static files with one ``Cache-Control`` for all of them."""

    def __init__(self, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory)
        self.cache_control = cache_control

    def file_response(
        self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = self.cache_control
        return response


class Pages:
    """The HTML pages with their static links pointing into this build."""

    def __init__(self, directory: Path, *also: Path) -> None:
        self.directory = directory
        self.build = build_id(directory, *also) if directory.is_dir() else "none"
        self.prefix = f"/static/{self.build}/"
        self._html: dict[str, bytes] = {}

    def html(self, name: str) -> bytes | None:
        """The page ``name`` (e.g. ``table.html``) as served, or None if there is none."""
        if name not in self._html:
            path = self.directory / name
            if not path.is_file():
                return None
            text = path.read_text(encoding="utf-8")
            self._html[name] = text.replace('"/static/', f'"{self.prefix}').encode()
        return self._html[name]
