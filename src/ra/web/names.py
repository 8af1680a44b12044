"""Players' names: what one may be called, and when two names are the same name.

A name is 1 to 20 printable characters with a letter or a digit, and nothing that shows as blank
(the Hangul filler U+3164, the braille blank U+2800 …: finding 6 of issue 40).  Two names are the
same name when their *keys* are equal: compatibility-normalised (NFKC: a fullwidth "Ａｎｎ" is
"Ann"), casefolded, then each character replaced by the one its class of look-alikes is known by
(a skeleton in the sense of Unicode TS #39, from the Unicode confusables data that
``confusable-homoglyphs`` ships): a Cyrillic "Аnn" and a dotless "Annı" are "Ann" and "Anni".
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Literal

from confusable_homoglyphs import confusables

MAX_NAME = 20
NameHolder = Literal["nobody", "you", "another"]
"""Whose a name is, for a session: no account's, its own account's, or another account's."""
BLANKS = frozenset("\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0\u034f")
"""Letters and symbols that show as nothing (Python calls them printable)."""


def clean_name(value: str) -> str:
    """A display name as typed, checked: 1 to 20 printable characters with a letter or a
    digit, no blank look-alikes, spaces made single; ``ValueError`` says what is wrong."""
    name = " ".join(value.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(f"a name has 1 to {MAX_NAME} characters")
    if not name.isprintable():
        raise ValueError("a name may not contain control or invisible characters")
    blank = next((c for c in name if c in BLANKS), None)
    if blank is not None:
        raise ValueError(f"a name may not contain a blank character (U+{ord(blank):04X})")
    if not any(c.isalnum() for c in name):
        raise ValueError("a name needs a letter or a digit")
    return name


def name_key(name: str) -> str:
    """The key that makes two names one (an account's, a player's at a table, a chat name's)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(_prototype(c) for c in folded)[:MAX_NAME]


@cache
def _classes() -> dict[str, str]:
    """Each character that has look-alikes, mapped to its class's prototype (an ASCII member
    if there is one, else the lowest code point)."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    for char, alikes in confusables.confusables_data.items():
        for alike in alikes:
            if len(char) == 1 and len(alike["c"]) == 1:
                a, b = find(char), find(alike["c"])
                if a != b:
                    parent[a] = b
    members: dict[str, list[str]] = {}
    for c in set(parent) | set(parent.values()):
        members.setdefault(find(c), []).append(c)
    return {
        c: min(group, key=lambda m: (not m.isascii(), ord(m))) for group in members.values() for c in group
    }


def _prototype(c: str) -> str:
    return _classes().get(c, c)


__all__ = ["BLANKS", "MAX_NAME", "clean_name", "name_key"]
