"""Players' names: what one may be called, and when two names are the same name.

A name is 1 to 20 printable characters with a letter or a digit, and nothing that shows as blank
or as nothing (the Hangul filler U+3164, the braille blank U+2800, a variation selector U+FE0F
…: finding 6 of issue 40, issue 52), with at most :data:`MAX_MARKS` combining marks on one
character.  Two names are the same name when their *keys* are equal (:func:`name_key`): the
name compatibility-normalised (NFKC: a fullwidth "Ａｎｎ" is "Ann"), its default-ignorable code
points removed, and its Unicode TS #39 skeleton taken before and after casefolding — each character replaced
by the prototype of its class of look-alikes, which may be several letters ("m" is "rn") —
from Unicode's own ``confusables.txt`` (version 17.0, shipped in ``ra/data`` with its licence,
read on first use), plus two multi-letter look-alikes that table leaves out ("cl" for "d",
"vv" for "w").  So a Cyrillic "Аnn", a dotless "Annı" and "Ann" with a variation selector are
all "Ann"'s, "Arny" is "Amy"'s, "VVes" is "Wes"'s and "CarI" is "Carl"'s.
"""

from __future__ import annotations

import hashlib
import unicodedata
from functools import cache
from importlib import resources
from typing import Literal

MAX_NAME = 20
KEY_CHARS = 20
"""A key's length at most, as stored (longer skeletons are kept as a prefix and a digest)."""
MAX_MARKS = 4
"""Combining marks one character may carry (Vietnamese needs two, Tibetan stacks a few more; a
line of one letter and 299 marks draws over the lines above it)."""
NameHolder = Literal["nobody", "you", "another", "reserved"]
"""Whose a name is, for a session: no account's, its own account's, another account's, or an
account's deleted lately (nobody may wear it for a while)."""
RESERVED = "that name belonged to an account deleted lately: for a while nobody may take it; choose another"
BLANKS = frozenset("\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0\u034f")
"""Letters and symbols that show as blank (Python calls them printable)."""
IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x16FE4, 0x16FE4),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, 17.0): characters
that show as nothing, such as the variation selectors U+FE00-FE0F, U+180B-180F and
U+E0100-E01EF and the Khitan filler U+16FE4."""
EXTRA_LOOK_ALIKES = {"d": "cl", "w": "vv"}
"""Multi-letter look-alikes Unicode's table leaves out (it has "m" → "rn"): a "Wilcl" is "Wild"."""


def ignorable(c: str) -> bool:
    """Whether ``c`` is a default-ignorable code point (:data:`IGNORABLE`)."""
    cp = ord(c)
    return any(lo <= cp <= hi for lo, hi in IGNORABLE)


def clean_name(value: str) -> str:
    """A display name as typed, checked: 1 to 20 printable characters with a letter or a
    digit, no blank or invisible look-alikes, marks not stacked; spaces made single;
    ``ValueError`` says what is wrong."""
    name = " ".join(value.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(f"a name has 1 to {MAX_NAME} characters")
    if not name.isprintable():
        raise ValueError("a name may not contain control or invisible characters")
    hidden = next((c for c in name if c in BLANKS or ignorable(c)), None)
    if hidden is not None:
        raise ValueError(f"a name may not contain an invisible or blank character (U+{ord(hidden):04X})")
    if not any(c.isalnum() for c in name):
        raise ValueError("a name needs a letter or a digit")
    check_marks(name, "a name")
    return name


def check_marks(text: str, what: str) -> None:
    """``ValueError`` if a character of ``text`` carries more than :data:`MAX_MARKS` combining
    marks (counted once composed, NFC: "ệ" has none)."""
    run = 0
    for c in unicodedata.normalize("NFC", text):
        run = run + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if run > MAX_MARKS:
            raise ValueError(f"{what} may carry at most {MAX_MARKS} combining marks on one character")


def name_key(name: str) -> str:
    """The key that makes two names one (an account's, a player's at a table, a chat name's):
    the skeleton of the NFKC name, casefolded, and its skeleton again (a capital "I" looks like
    an "l" before it is folded to an "i"), at most :data:`KEY_CHARS` long."""
    key = skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())
    if len(key) <= KEY_CHARS:
        return key
    digest = hashlib.sha256(key.encode()).hexdigest()
    return f"{key[: KEY_CHARS - 12]}~{digest[:11]}"


def skeleton(text: str) -> str:
    """Unicode TS #39's skeleton: NFD, default-ignorables removed, each character replaced by
    its prototype (:func:`prototypes`), NFD again."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in decomposed if not ignorable(c))
    return unicodedata.normalize("NFD", mapped)


@cache
def prototypes() -> dict[str, str]:
    """Each character with look-alikes, mapped to its class's prototype (one or more
    characters), from ``ra/data/confusables.txt`` and :data:`EXTRA_LOOK_ALIKES`; resolved so
    that a prototype maps to itself."""
    source = resources.files("ra").joinpath("data").joinpath("confusables.txt")
    table: dict[str, str] = {}
    for line in source.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            table[chr(int(fields[0], 16))] = "".join(chr(int(h, 16)) for h in fields[1].split())
    table.update(EXTRA_LOOK_ALIKES)
    return {c: _resolved(target, table) for c, target in table.items()}


def _resolved(target: str, table: dict[str, str]) -> str:
    """``target`` mapped until nothing in it maps further (a few steps: "𝐰" → "w" → "vv")."""
    for _ in range(4):
        mapped = unicodedata.normalize(
            "NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", target))
        )
        if mapped == target:
            break
        target = mapped
    return target


__all__ = [
    "BLANKS",
    "MAX_MARKS",
    "MAX_NAME",
    "RESERVED",
    "check_marks",
    "clean_name",
    "ignorable",
    "name_key",
    "skeleton",
]
