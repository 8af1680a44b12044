"""A size guard: functions and classes of the table and the front ends stay readable.

A function longer than :data:`FUNCTION_LINES` or a class longer than :data:`CLASS_LINES`
fails, unless the allow-list names it with its size today.  The allow-list can only
shrink: a listed unit may not grow past its listed size, and one that has come within
the limits (or is gone) must be struck off, so a unit cut down cannot quietly grow back.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "ra"

GUARDED = ("table.py", "steps.py", "tui", "web", "cli", "arena")
"""The table and every front end (the engine and the bots are measured by their own tests)."""

FUNCTION_LINES = 80
CLASS_LINES = 300

ALLOWED: dict[str, int] = {
    # unit: its size in lines when it was listed; shrink these, never grow them (empty since 0.4.1).
}


def units() -> Iterator[tuple[str, int, int]]:
    """Every function and class under :data:`GUARDED`: (``path::Qual.name``, lines, limit)."""
    for root in GUARDED:
        path = SRC / root
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            rel = file.relative_to(SRC).as_posix()
            yield from _walk(ast.parse(file.read_text(encoding="utf-8")), f"{rel}::")


def _walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int, int]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}{child.name}"
            lines = (child.end_lineno or child.lineno) - child.lineno + 1
            yield name, lines, CLASS_LINES if isinstance(child, ast.ClassDef) else FUNCTION_LINES
            yield from _walk(child, name + ".")


def test_no_function_or_class_outgrows_its_limit() -> None:
    too_long = [
        f"{name}: {lines} lines (limit {ALLOWED.get(name, limit)})"
        for name, lines, limit in units()
        if lines > ALLOWED.get(name, limit)
    ]
    assert not too_long, "split these (see tests/test_sizes.py):\n" + "\n".join(too_long)


def test_the_allow_list_only_names_units_still_too_long() -> None:
    sizes = {name: (lines, limit) for name, lines, limit in units()}
    stale = [
        f"{name}: now {sizes[name][0] if name in sizes else 'gone'} (listed {listed})"
        for name, listed in ALLOWED.items()
        if name not in sizes or sizes[name][0] <= sizes[name][1] or sizes[name][0] < listed
    ]
    assert not stale, "lower or strike these entries of ALLOWED (it only shrinks):\n" + "\n".join(stale)
