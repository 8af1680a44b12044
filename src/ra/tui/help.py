"""The help screen: a rules summary, the keys, and the display's abbreviations."""

HELP_TEXT = """\
# Ra — how to play

**Goal:** the most points after three epochs (ties: the highest sun wins).

**Your turn** (while you have a face-up sun): *draw* a tile onto the auction
track (a Ra tile starts an auction instead), *invoke Ra* to auction the track,
or use *God tiles* to take tiles from the track (one tile per God).

**Auctions** go once around, from the Ra player's left; the Ra player bids
last. Bid a face-up sun higher than the current bid, or pass. If you invoked
Ra and everyone passed, you must bid. The winner takes the lot and the centre
sun (face down until next epoch) and leaves the bid sun in the centre.

**Epochs end** when the Ra track fills or nobody has a face-up sun.

**Scoring** each epoch: God +2, Gold +3, most Pharaohs +5 / fewest −2,
Nile and Flood +1 each if you have a Flood, Civilizations −5 for none,
+5/+10/+15 for 3/4/5 kinds. After epoch 3 also Monuments (kinds and sets)
and suns (highest total +5, lowest −5). Gods, Gold, Floods and
Civilizations leave after scoring; Pharaohs, Niles and Monuments stay.

**Disasters** destroy two tiles: Funeral (Pharaohs), Drought (Floods, then
Niles), Unrest (Civilizations, you choose), Earthquake (Monuments, you choose).

## Keys

| key | action |
|---|---|
| d / r / p / n | draw / invoke Ra / pass / done with God tiles |
| 1 … 9, 0 | the numbered buttons (bids, God takes, discards) |
| / | type an action (`draw`, `ra`, `bid 9`, `god gold`, `discard art`) |
| u | undo your last decision |
| s | save (also saved automatically when you quit) |
| ? or F1 | this help |
| q, Ctrl-C | save and quit |

## The display

`suns`: face up, then (face down). `nile`: Niles+Floods (`3+1f`).
Civilizations: **As**tronomy **Ag**riculture **Wr**iting **Re**ligion **Ar**t,
**Go**ld. Monuments: **Fo**rtress **Ob**elisk **Pa**lace **Py**ramid
Sphinx (**Sx**) **St**atue Step pyramid (**Sp**) **Te**mple. A number after
a code counts the tiles. ▶ marks the player to move, R the Ra player.
"""
