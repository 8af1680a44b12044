"""What the commands share: one-line errors and the packaged rules."""

from __future__ import annotations

from importlib import resources

import typer
from rich.console import Console
from rich.markup import escape


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; raise the result to exit with status 2."""
    Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {escape(message)}", highlight=False)
    return typer.Exit(code=2)


def rules_text() -> str:
    """The project's rules reference (``ra/data/rules.md``, sections R1-R9)."""
    return resources.files("ra").joinpath("data", "rules.md").read_text(encoding="utf-8")
