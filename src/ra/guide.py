"""The strategy guide shipped with the library (``ra/data/guide.md``, ``guide.ru.md``).

One place reads it for every front end: ``ra guide`` in the terminal and ``/guide`` in the browser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

from ra import words as _words

POSITION_MARK = re.compile(r"^<!-- position: (\w+) -->$", re.MULTILINE)
"""Where a section's illustrating position is placed."""


@dataclass(frozen=True)
class Section:
    """One section of the guide: its anchor, heading, markdown body and position names."""

    anchor: str
    heading: str
    body: str
    positions: tuple[str, ...]


def guide_text(language: str) -> str:
    """The strategy guide in a language (English where there is no translation)."""
    if language in _words.PSEUDO_LANGS:  # the English guide, accented like the catalogue
        return "\n".join(
            _words.pseudo_text(line, wrap=False, keep_code=True) for line in guide_text("en").splitlines()
        )
    data = resources.files("ra").joinpath("data")
    name = "guide.md" if language == _words.DEFAULT_LANG else f"guide.{language}.md"
    path = data.joinpath(name)
    return (path if path.is_file() else data.joinpath("guide.md")).read_text(encoding="utf-8")


def reader_text(text: str) -> str:
    """The guide for reading as text: position markers removed."""
    return POSITION_MARK.sub("", text).replace("\n\n\n", "\n\n")


def sections(text: str) -> tuple[str, str, tuple[Section, ...]]:
    """The title, the introduction and the sections (split at ``## ``; anchors by position so
    that both languages share them: ``s1`` … ``s11``)."""
    head, *parts = re.split(r"^## ", text, flags=re.MULTILINE)
    title, _, intro = head.partition("\n")
    found = []
    for number, part in enumerate(parts, 1):
        heading, _, body = part.partition("\n")
        found.append(
            Section(
                f"s{number}",
                heading.strip(),
                POSITION_MARK.sub("", body).strip(),
                tuple(POSITION_MARK.findall(body)),
            )
        )
    return title.lstrip("# ").strip(), intro.strip(), tuple(found)
