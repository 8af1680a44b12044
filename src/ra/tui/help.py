"""The help screen: a rules summary, the keys, and the display's abbreviations (per edition),
every word from the catalogue (the summary is the catalogue's ``summary.R*``, shared with the
browser's rules page)."""

from __future__ import annotations

import re

import ra
from ra.tiles import CIVILIZATIONS, MONUMENTS, Tile
from ra.tui.render import code
from ra.words import DEFAULT_LANG, source, words

KEYS: tuple[tuple[str, str], ...] = (
    ("d", "draw"),
    ("r", "ra"),
    ("p", "pass"),
    ("n", "done"),
    ("2 … 9", "bid"),
    ("1⏎", "bid_one"),
    ("1 … 9", "buttons"),
    ("h", "hints"),
    ("/", "type"),
    ("u", "undo"),
    ("f", "fast"),
    ("- / +", "pace"),
    ("PgUp / PgDn", "log"),
    ("s", "save"),
    ("? / F1", "help"),
    ("q, Ctrl-C", "quit"),
)
"""The keys of the game, each with its catalogue key ``tui.help.key.<what>`` (the keys'
names, as printed on keyboards, are notation)."""


def _sections() -> list[tuple[str, list[str]]]:
    """The rules summary's sections (``summary.R4``) and their points (``summary.R4.1`` …),
    in the catalogue's order."""
    out: list[tuple[str, list[str]]] = []
    for key in source():
        if re.fullmatch(r"summary\.R\d+", key):
            out.append((key, []))
        elif re.fullmatch(r"summary\.R\d+\.\d+", key) and out:
            out[-1][1].append(key)
    return out


def this_game(
    edition: str = "original", lang: str = DEFAULT_LANG, disaster_timing: str = "immediate"
) -> list[str]:
    """Which rules this game plays, first on the help page (a resumed game too): the edition
    whose names it shows (R1.2) and the disaster timing (R3.5), the 2008 one in bold."""
    w = words(lang)
    timing = (
        f"**{w('tui.help.timing_2008')}**" if disaster_timing == "2008" else w("tui.help.timing_immediate")
    )
    return [f"**{w('tui.help.this_game')}**", "", f"- {w(f'tui.help.edition.{edition}')}", f"- {timing}"]


def help_text(edition: str = "original", lang: str = DEFAULT_LANG, disaster_timing: str = "immediate") -> str:
    """The help page (Markdown): which rules this game plays (:func:`this_game`), a rules
    summary, the keys, and the tile names and codes of ``edition``, in ``lang``."""
    w = words(lang)

    def entry(tile: Tile) -> str:
        return f"**{code(tile, edition, lang)}** {ra.display_name(tile, edition, lang)}"

    lines = [f"# {w('tui.help.title')}", "", *this_game(edition, lang, disaster_timing), ""]
    lines += [w("tui.help.intro"), ""]
    for section, points in _sections():
        rule = section.removeprefix("summary.")
        lines += [f"**{w(section)}** ({rule})", ""]
        lines += [f"- {w(point)}" for point in points]  # a summary's points, not rule numbers
        lines.append("")
    lines += [w("tui.help.open_scores"), "", f"## {w('tui.help.keys')}", ""]
    lines += [f"| {w('tui.help.key')} | {w('tui.help.action')} |", "|---|---|"]
    for key, what in KEYS:
        lines.append(f"| {key} | {w(f'tui.help.key.{what}')} |")
    lines += ["", f"## {w('tui.help.display')}", "", w("tui.help.display.text"), ""]
    civs = w.join(entry(t) for t in CIVILIZATIONS)
    monuments = w.join(entry(t) for t in MONUMENTS)
    lines += [w("tui.help.civilizations", tiles=civs, gold=entry(Tile.GOLD)), ""]
    lines += [w("tui.help.monuments", tiles=monuments), ""]
    return "\n".join(lines)


HELP_TEXT = help_text()
