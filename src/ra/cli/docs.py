"""``ra docs``: open the documentation site (``mkdocs.yml``, pages in ``docs/``) built in the
checkout this ``ra`` runs from, building it first when MkDocs is installed and the copy is
missing or older than its pages."""

from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess
import sys
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

import ra
from ra.cli.common import HELP, environment_tool, fail, ra_command, w

SOURCES = (
    "mkdocs.yml",
    "docs",
    "CHANGELOG.md",
    "src/ra/data/rules.md",
    "src/ra/data/rules.ru.md",
    "src/ra/data/rules.de.md",
    "src/ra/data/guide.md",
    "src/ra/data/guide.ru.md",
    "src/ra/data/guide.de.md",
)
"""What the site is built from (the rules and the changelog are included, not copied)."""


def build_command(root: Path | None) -> str:
    """The command that installs MkDocs and opens the site, as typed in a new shell here: this
    environment's own ``pip`` and ``ra`` (``.venv/bin/pip`` where it is not activated) and the
    checkout ``root`` by its path unless it is here (``ra docs`` then builds the site)."""
    here = root is None or Path.cwd().resolve() == root
    checkout = "." if here else str(root)
    return f"{environment_tool('pip')} install -e {shlex.quote(checkout + '[docs]')} && {ra_command()} docs"


def checkout_root() -> Path | None:
    """The source checkout of this ``ra`` (an editable install), or ``None`` for an install from
    a wheel, which carries no documentation sources."""
    root = Path(ra.__file__).resolve().parents[2]
    return root if (root / "mkdocs.yml").is_file() and (root / "docs").is_dir() else None


def site_index(root: Path) -> Path:
    """The built site's front page (``mkdocs.yml`` builds into ``site/``)."""
    return root / "site" / "index.html"


def is_stale(root: Path) -> bool:
    """Whether the built site is missing or older than any of its sources."""
    index = site_index(root)
    if not index.is_file():
        return True
    built = index.stat().st_mtime
    for name in SOURCES:
        source = root / name
        files = source.rglob("*") if source.is_dir() else [source]
        if any(path.is_file() and path.stat().st_mtime > built for path in files):
            return True
    return False


def mkdocs_installed() -> bool:
    """Whether MkDocs can be run by this Python (the ``docs`` extra)."""
    return importlib.util.find_spec("mkdocs") is not None


def build_site(root: Path) -> str | None:
    """Build the site with MkDocs in ``root``; the reason it failed, or ``None``."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],  # not --quiet: it hides the warnings strict mode counts
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode == 0:
        return None
    lines = [line.strip() for line in (result.stderr + result.stdout).splitlines() if line.strip()]
    problems = [line for line in lines if line.startswith(("ERROR", "WARNING"))]
    return (problems or lines or [w()("docs.exit_status", code=result.returncode)])[0]


def docs_command(
    path_only: Annotated[bool, typer.Option("--path", help=HELP("cli.docs.path"))] = False,
    rebuild: Annotated[bool, typer.Option("--build", help=HELP("cli.docs.build"))] = False,
) -> None:
    """Open this project's documentation in a browser: the site built from the checkout's docs/
    (built first when MkDocs is installed and the copy is missing or out of date)."""
    root = checkout_root()
    if root is None:
        raise fail(w()("docs.err.no_checkout", command=build_command(None)))
    index = site_index(root)
    if rebuild or is_stale(root):
        if mkdocs_installed():
            typer.echo(w()("docs.building", folder=str(root / "site")), err=True)
            reason = build_site(root)
            if reason is not None:
                raise fail(w()("docs.err.build", why=reason))
        elif not index.is_file():
            raise fail(w()("docs.err.not_built", command=build_command(root)))
        else:
            typer.echo(w()("docs.stale", command=build_command(root)), err=True)
    if path_only:
        typer.echo(str(index))
        return
    if webbrowser.open(index.as_uri()):
        typer.echo(w()("docs.opened", address=index.as_uri()))
    else:
        typer.echo(w()("docs.no_browser", path=str(index)))
