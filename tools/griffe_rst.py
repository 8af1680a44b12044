"""A Griffe extension for the documentation site's API reference (``mkdocs.yml``): the docstrings'
reStructuredText habits in Markdown, so that mkdocstrings renders them well, while the docstrings
themselves stay as ``help()`` and the doctests read them.

- a cross-reference role (``:meth:`undo```, ``:class:`~ra.Tile```) becomes inline code;
- a doctest (lines from ``>>>`` to the next blank line) becomes a fenced ``pycon`` block, where
  Markdown would otherwise read each ``>`` as a quote.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:meth|attr|class|func|data|mod|exc|obj|const):`~?([^`]+)`")


def to_markdown(text: str) -> str:
    """A docstring with its roles as inline code and its doctests as fenced blocks."""
    lines = ROLE.sub(r"`\1`", text).split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        if not stripped.startswith(">>>"):
            out.append(lines[i])
            i += 1
            continue
        indent = lines[i][: len(lines[i]) - len(stripped)]
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip() and lines[i].startswith(indent):
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class RstToMarkdown(griffe.Extension):
    """Rewrite every object's docstring for Markdown once the tree is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
