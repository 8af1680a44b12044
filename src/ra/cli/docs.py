"""``ra docs``: open the documentation site built from ``docs/`` (building it first if MkDocs is
installed), or say where the documentation is."""

from __future__ import annotations

import subprocess
import sys
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from ra.cli.common import fail

CHECKOUT = Path(__file__).resolve().parents[3]
"""The source checkout this package runs from (an editable install), if it is one."""


def site_index(root: Path = CHECKOUT) -> Path:
    return root / "site" / "index.html"


def build_site(root: Path = CHECKOUT) -> str | None:
    """Build the site with MkDocs; the reason it could not, or None."""
    if not (root / "mkdocs.yml").is_file():
        return "this installation has no docs/ folder (it is not a source checkout)"
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        return "MkDocs is not installed: pip install -e '.[docs]'"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet"],
        check=False,
        cwd=root,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        return f"mkdocs build failed: {done.stderr.strip().splitlines()[-1:]}"
    return None


def docs_command(
    print_only: Annotated[
        bool, typer.Option("--print", help="Print the path of the local site instead of opening it.")
    ] = False,
    rebuild: Annotated[bool, typer.Option("--build", help="Build the site again first.")] = False,
) -> None:
    """Open the documentation (the site built from docs/; built first when MkDocs is installed)."""
    index = site_index()
    if rebuild or not index.is_file():
        reason = build_site()
        if reason is not None:
            raise fail(f"cannot build the documentation site: {reason}; read docs/*.md instead")
    typer.echo(index.as_uri() if not print_only else str(index))
    if not print_only:
        webbrowser.open(index.as_uri())
