"""The help screen: a rules summary, the keys, and the display's abbreviations (per edition)."""

from __future__ import annotations

import ra
from ra.table import UNDO_RULE
from ra.tiles import CIVILIZATIONS, MONUMENTS, Tile
from ra.tui.render import code

_SUMMARY = """\
# Ra — how to play

The full rules, with the section numbers that messages cite (R4.3 …), are in
**`ra rules`**. In short:

**Goal:** the most points after three epochs (ties: the highest sun wins, R8).

**Your turn** (while you have a face-up sun, R3): *draw* a tile onto the auction
track (a Ra tile starts an auction instead), *invoke Ra* to auction the track,
or use *God tiles* to take tiles from the track (one tile per God).

**Auctions** (R4) go once around, from the Ra player's left; the Ra player bids
last. Bid a face-up sun higher than the current bid, or pass. If you invoked
Ra and everyone passed, you must bid. The winner takes the lot and the centre
sun (face down until next epoch) and leaves the bid sun in the centre.

**Epochs end** (R6) when the Ra track fills or nobody has a face-up sun.

**Scoring** (R7) each epoch: God +2, Gold +3, most Pharaohs +5 / fewest −2,
Nile and Flood +1 each if you have a Flood, Civilizations −5 for none,
+5/+10/+15 for 3/4/5 kinds. After epoch 3 also Monuments (kinds and sets)
and suns (highest total +5, lowest −5). Gods, Gold, Floods and
Civilizations leave after scoring; Pharaohs, Niles and Monuments stay.

**Scores** of the others stay hidden until the end, as in the rulebooks
(R9.1); `ra play --open-scores` shows them.

**Disasters** (R5) destroy two tiles: {funeral} (Pharaohs), {drought} (Floods,
then Niles), {unrest} (Civilizations, you choose), {earthquake} (Monuments, you choose).

## Keys

| key | action |
|---|---|
| d | draw a tile |
| r | invoke Ra |
| p | pass (in an auction) |
| n | done with God tiles |
| 2 … 9 | bid that sun; for 10–16 type both digits (`1` `3`) |
| 1⏎ | bid sun 1 when 10–16 could follow (`1` then Enter) |
| 1 … 9 | the numbered buttons (God takes, discards) |
| h | hints: each action's win chance, the best starred, and why (a table option: `ra play --hints`) |
| / | type an action (`draw`, `ra`, `bid 9`, `god gold`, `discard art`); Esc leaves |
| u | undo: {undo_rule} |
| f | fast-forward: bots play at once until you are to move or the epoch ends |
| - / + | bots play faster / slower |
| PgUp / PgDn | scroll the game log (the mouse wheel too) |
| s | save (also saved whenever you quit) |
| ? or F1 | this help (↑ ↓ PgUp PgDn scroll it; Esc, Enter or q close it) |
| q, Ctrl-C | save and quit (`ra play --resume` continues) |

## The display

`suns`: face up, then (face down). `ph`: Pharaohs. `nile`: Niles+Floods
(`3+1f`). Then civilizations and gold, `/`, monuments, as two-letter codes;
a number after a code counts the tiles. ▶ marks the player to move, R the Ra
player, `?` a hidden score.

{legend}
"""


def help_text(edition: str = "original") -> str:
    """The help page, with the tile names and codes of ``edition``."""

    def entry(tile: Tile) -> str:
        return f"**{code(tile, edition)}** {ra.display_name(tile, edition)}"

    legend = (
        "Civilizations: "
        + ", ".join(entry(t) for t in CIVILIZATIONS)
        + f"; {entry(Tile.GOLD)}.\n\nMonuments: "
        + ", ".join(entry(t) for t in MONUMENTS)
        + "."
    )
    names = {
        t: ra.display_name(t, edition) for t in (Tile.FUNERAL, Tile.DROUGHT, Tile.UNREST, Tile.EARTHQUAKE)
    }
    return _SUMMARY.format(
        funeral=names[Tile.FUNERAL],
        drought=names[Tile.DROUGHT],
        unrest=names[Tile.UNREST],
        earthquake=names[Tile.EARTHQUAKE],
        legend=legend,
        undo_rule=UNDO_RULE,
    )


HELP_TEXT = help_text()
