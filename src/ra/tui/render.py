"""What the terminal shows, as Rich renderables built from a player's view.

Pure functions of a :class:`ra.PlayerView` (so nothing hidden can leak onto the
screen) and the names; the Textual app only places them.
"""

from __future__ import annotations

import re

from rich.console import Group
from rich.table import Table
from rich.text import Text

import ra
from ra.events import auction_cause, is_you, plural
from ra.scoring import CATEGORIES, ScoreBreakdown, score_table_rows
from ra.state import State
from ra.tiles import CIVILIZATIONS, MONUMENTS, Tile, category

CODE_CLASHES: dict[Tile, str] = {Tile.SPHINX: "Sx", Tile.STEP_PYRAMID: "Sp"}
"""The codes that are not the first two letters of the tile's name ("Sp" and "St" are taken)."""


def code(tile: Tile, edition: str = "original") -> str:
    """The two-letter code of any tile in an edition, for the players' displays (the help
    screen lists them): the first letters of its printed name (:func:`ra.display_name`),
    but for the original names in :data:`CODE_CLASHES`."""
    name = ra.display_name(tile, edition)
    if tile in CODE_CLASHES and name == ra.display_name(tile):
        return CODE_CLASHES[tile]
    return name[:2]


STYLES: dict[str, str] = {
    "ra": "bold yellow",
    "god": "bold magenta",
    "gold": "bold yellow",
    "pharaoh": "bold cyan",
    "river": "bold blue",
    "civilization": "bold green",
    "monument": "bold white",
    "disaster": "bold red",
}


def fit_names(names: list[str], budget: int) -> list[str]:
    """Cut the names longer than a common length (ending them with ".") so that all fit
    ``budget`` characters; the common length is the largest that fits (at least 2)."""

    def cut(name: str, limit: int) -> str:
        return name if len(name) <= limit else name[: limit - 1].rstrip(" .") + "."

    limit = max((len(n) for n in names), default=0)
    while limit > 2 and sum(len(cut(n, limit)) for n in names) > budget:
        limit -= 1
    return [cut(n, limit) for n in names]


def tile_text(tile: Tile, edition: str = "original") -> Text:
    return Text(ra.display_name(tile, edition), style=STYLES[category(tile)])


SUN_BOAT: dict[str, str] = {
    "label": "Sun boat ",
    "sailed": "~",
    "boat": "☼",
    "ahead": "·",
    "end": "|",
}
"""The 2023 edition's Ra track, all its words and glyphs (CP437 has each glyph): the label, the
spaces the sun boat has sailed, the boat (carrying Ra's sun), the spaces ahead, the last space."""


def sun_boat(view: State) -> Text:
    """The 2023 edition's Ra track (R1.2): the sun boat one space on per Ra tile drawn this epoch
    (the tiles are discarded), from a start space one before the first tile space (our ruling)
    to the last space, which ends the epoch (R2.2): ``Sun boat ~~☼·····| 2/8``."""
    n, length = min(view.ra_count, view.ra_track_length), view.ra_track_length
    t = Text(SUN_BOAT["label"])
    t.append(SUN_BOAT["sailed"] * n, style="blue")
    t.append(SUN_BOAT["boat"], style="bold yellow")
    if n < length:
        t.append(SUN_BOAT["ahead"] * (length - n - 1), style="dim")
        t.append(SUN_BOAT["end"], style="bold red")
    t.append(f" {n}/{length}")
    return t


def board_line(view: State, edition: str = "original") -> Text:
    """Epoch, Ra track (filled and remaining spaces; the sun boat in the 2023 edition), centre sun,
    bag, and the edition if not the original."""
    t = Text()
    t.append(f"Epoch {view.epoch}/{ra.EPOCHS}", style="bold")
    if edition != "original":
        t.append(f" ({edition} ed.)", style="dim")
    if view.is_over():
        t.append("  Game over", style="bold")
        t.append(f"  Centre sun {view.center_sun}  Bag {view.tiles_in_bag}")
        return t
    if edition == "2023":
        t.append("  ")
        t.append_text(sun_boat(view))
    else:
        t.append("  Ra track ")
        t.append("■" * view.ra_track, style="bold yellow")
        t.append("□" * (view.ra_track_length - view.ra_track), style="dim")
        t.append(f" {view.ra_track}/{view.ra_track_length}")
    t.append("  Centre sun ")
    t.append(f" {view.center_sun} ", style="bold black on yellow")
    t.append(f"  Bag {view.tiles_in_bag}")
    return t


def auction_line(view: State, edition: str = "original", width: int = 78) -> Text:
    """The 8 spaces of the auction track, names shortened only as much as ``width`` needs."""
    t = Text("Auction ")
    tiles = [Tile(v) for v in view.track_tiles()]
    empty = ra.AUCTION_TRACK_SIZE - len(tiles)
    budget = width - len(t) - 2 * ra.AUCTION_TRACK_SIZE - 2 * empty
    names = fit_names([ra.display_name(tile, edition) for tile in tiles], budget)
    for tile, name in zip(tiles, names, strict=True):
        t.append("[")
        t.append(name, style=STYLES[category(tile)])
        t.append("]")
    for _ in range(empty):
        t.append("[  ]", style="dim")
    return t


def _counts(tiles: dict[str, int], kinds: tuple[Tile, ...], edition: str) -> list[str]:
    return [
        code(k, edition) + (str(tiles[k.id]) if tiles.get(k.id, 0) > 1 else "")
        for k in kinds
        if tiles.get(k.id)
    ]


NAME_WIDTH = 12
DISPLAY_INDENT = 4


def _cell(text: str | Text, width: int, right: bool = False) -> Text:
    t = text if isinstance(text, Text) else Text(text)
    if len(t) > width:
        t = t[: width - 1] + Text("…")
    pad = " " * (width - len(t))
    return Text(pad) + t if right else t + Text(pad)


def players_table(
    view: State, perspective: int | None = None, edition: str = "original", width: int = 78
) -> Text:
    """One row per player: score, suns (face up, then face down), and the display.

    A player's display (civilizations and gold, then monuments) follows on the same
    line when it fits, else on a line of its own below: every player takes at most
    two lines at 80 columns, even holding every kind of tile (59 characters).
    """
    auction = view.auction
    rows: list[tuple[list[str | Text], Text]] = []
    for p in view.players:
        marker = "▶" if p.seat == view.to_move else ("R" if auction and auction.ra_player == p.seat else "")
        suns = Text(" ".join(str(s) for s in reversed(p.suns)), style="bold yellow")
        if p.used_suns:
            suns.append(
                (" (" if p.suns else "(") + " ".join(str(s) for s in reversed(p.used_suns)) + ")", style="dim"
            )
        tiles = dict(p.tiles)
        river = ""
        if tiles.get("nile") or tiles.get("flood"):
            river = f"{tiles.get('nile', 0)}+{tiles.get('flood', 0)}f"
        display = Text(" ".join(_counts(tiles, (*CIVILIZATIONS, Tile.GOLD), edition)), style="green")
        monuments = " ".join(_counts(tiles, MONUMENTS, edition))
        if monuments:
            display.append(" / " if display else "/ ", style="dim")
            display.append(monuments)
        cells: list[str | Text] = [
            Text(marker, style="bold green"),
            Text(p.name, style="bold" if p.seat == perspective else ""),
            "?" if p.score is None else str(p.score),
            suns,
            str(tiles.get("god", "")),
            str(tiles.get("pharaoh", "")),
            river,
        ]
        rows.append((cells, display))
    header = ["", "player", "pts", "suns", "god", "ph", "nile"]
    widths = [max(len(h), *(len(r[0][i]) for r in rows)) for i, h in enumerate(header)]
    widths[1] = min(widths[1], NAME_WIDTH)
    right = {2, 4, 5}
    fixed = sum(widths) + len(widths)
    out = Text()
    head = Text(
        " ".join(str(_cell(h, w, i in right)) for i, (h, w) in enumerate(zip(header, widths, strict=True)))
    )
    room = width - len(head.plain)
    labels = (" civ, gold / monuments", " civ/gold/mon", " civ")
    head.append(next((h for h in labels if len(h) <= room), labels[-1]))
    out.append_text(Text(head.plain.rstrip(), style="dim"))
    for cells, display in rows:
        line = Text(" ").join(
            _cell(c, w, i in right) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )
        out.append("\n")
        if fixed + len(display) <= width:
            out.append_text(line + Text(" ") + display)
        else:
            out.append_text(line)
            if display:
                out.append("\n" + " " * DISPLAY_INDENT)
                out.append_text(display)
    out.rstrip()
    return out


def status_text(
    view: State, names: tuple[str, ...], humans: set[int], perspective: int | None, edition: str = "original"
) -> Text:
    """Whose turn it is and why, in plain words; the person to move is always named
    (hot seat), and the line is short enough for 80 columns."""
    seat = view.to_move
    if seat is None:
        return Text(final_line(view, names), style="bold")
    mine = seat in humans
    who = names[seat]
    t = Text()
    phase = view.phase
    if phase == "action":
        t.append(f"{who}" + (", your turn: " if mine else " to play: "), style="bold")
        kinds = {a.kind for a in view.legal_actions()}
        choices = [
            text
            for kind, text in (("draw", "draw a tile"), ("ra", "invoke Ra"), ("god", "use a God tile"))
            if kind in kinds
        ]
        t.append(", ".join(choices[:-1]) + (" or " if len(choices) > 1 else "") + choices[-1])
    elif phase == "bid":
        a = view.auction
        assert a is not None
        t.append(f"Auction ({auction_cause(a.kind, names[a.ra_player])}): ", style="bold")
        t.append(f"{who}, your bid" if mine else f"{who} to bid", style="bold")
        if a.high_bid:
            t.append(f"; high bid {a.high_bid} by {_obj(names[a.high_bidder or 0])}")
        if a.must_bid:
            t.append("; all others passed: you must bid (R4.3)" if mine else "; must bid")
        elif seat == a.ra_player:
            t.append("; last to bid")
    elif phase == "god":
        t.append(f"{who}: ", style="bold")
        t.append("take another tile with a God tile, or done")
        if view.pending_disasters:
            # R3.5, "2008 disaster timing": the Disasters taken wait until the takes end.
            waiting = ", ".join(ra.display_name(Tile.parse(d), edition) for d in view.pending_disasters)
            t.append(f"; waiting: {waiting}", style="red")
    elif phase == "discard":
        disaster = view.pending_disaster or "disaster"
        tile = Tile.parse(disaster) if disaster != "disaster" else None
        title = ra.display_name(tile, edition) if tile is not None else "Disaster"
        what = "civilization" if disaster == "unrest" else "monument"
        n = view.discards_left
        t.append(f"{title}: ", style="bold red")
        t.append(f"{who} must discard {plural(n, what)}; choose which")
    return t


def final_line(view: State, names: tuple[str, ...]) -> str:
    """The winner, with the tie-break explained when it decided (R8.1)."""
    w = view.winner
    if w is None:
        return ""
    scores = view.scores
    you = is_you(names[w])
    line = f"Game over — {'you win' if you else names[w] + ' wins'} with {scores[w]} points"
    tied = [i for i, s in enumerate(scores) if s == scores[w] and i != w]
    if tied:
        best = max(view.players[w].all_suns)
        holds = "you hold" if you else f"{names[w]} holds"
        line += f" (tie with {', '.join(_obj(names[i]) for i in tied)}; {holds} the highest sun, {best})"
    return line + "."


def _obj(name: str) -> str:
    """A player's name inside a sentence: "you" for the seat named "You" (as the log writes it)."""
    return "you" if is_you(name) else name


EPOCH_ONLY = ("monuments", "suns")
"""Categories scored only after the third epoch (R7.3)."""


def score_table(view: State, epochs: list[int] | None = None, title: str | None = None) -> Table:
    """Scoring per player and category (R7) for the given finished epochs (default: all).

    The one score table of the project: the game's epoch summaries and ``ra demo``
    both show it.  Monuments and suns appear only when the third epoch is shown;
    hidden scores (R9.1) show as ``?``.
    """
    finished = list(range(1, len(view.epoch_scores) + 1))
    shown = finished if epochs is None else [e for e in epochs if e in finished]
    # The engine's rows: player, the categories (in CATEGORIES order), total, score.
    columns = [0, *(1 + i for i, c in enumerate(CATEGORIES) if c not in EPOCH_ONLY or ra.EPOCHS in shown)]
    columns += [len(CATEGORIES) + 1, len(CATEGORIES) + 2]
    epoch_only = {1 + CATEGORIES.index(c) for c in EPOCH_ONLY}
    if title is None:
        title = f"Epoch {shown[0]} scoring" if len(shown) == 1 else "Scores by epoch and category (R7)"
    table = Table(title=title, pad_edge=False)
    if len(shown) > 1:
        table.add_column("ep", justify="right")
    header = score_table_rows([], view.names)[0]
    table.add_column(header[0], no_wrap=True, max_width=14, overflow="ellipsis")
    for i in columns[1:-1]:
        table.add_column(header[i], justify="right")
    table.add_column(header[-1], justify="right", style="bold")
    for epoch in shown:
        breakdowns: list[ScoreBreakdown | None] = view.epoch_scores[epoch - 1]
        for b, row in zip(breakdowns, score_table_rows(breakdowns, view.names)[1:], strict=True):
            lead = [str(epoch)] if len(shown) > 1 else []
            # Monuments and suns score only after the third epoch (R7.3): blank before.
            blank = b is not None and epoch != ra.EPOCHS
            table.add_row(*lead, *("" if blank and i in epoch_only else row[i] for i in columns))
        if len(shown) > 1:
            table.add_section()
    return table


def epoch_summary(view: State, epoch: int) -> Group:
    """The scoring table of one finished epoch, plus the final result after the third."""
    table = score_table(view, [epoch])
    if epoch == ra.EPOCHS and view.is_over():
        return Group(table, Text(""), Text(final_line(view, view.names), style="bold green"))
    return Group(table)


def log_line(event: ra.Event, names: tuple[str, ...], edition: str = "original") -> Text:
    """One line of the game log; the epochs' beginnings and ends stand out."""
    style = "bold" if event.kind in ("epoch", "epoch_end", "game_over") else ""
    return Text(event.text(names, edition), style=style)


def action_label(action: ra.Action, edition: str = "original") -> str:
    """A button label for an action."""
    if action.kind == "draw":
        return "Draw"
    if action.kind == "ra":
        return "Invoke Ra"
    if action.kind == "pass":
        return "Pass"
    if action.kind == "done":
        return "Done"
    if action.kind == "bid":
        return f"Bid {action.sun}"
    assert action.tile is not None
    name = ra.display_name(action.tile, edition)
    return f"God: {name}" if action.kind == "god" else f"Lose {name}"


def action_labels(
    actions: list[ra.Action], edition: str = "original", width: int = 78
) -> tuple[str, list[str]]:
    """A lead-in and button labels for ``actions`` that fit one line of ``width`` (a button
    takes its label, a key and 3 columns).  When "God: Pharaoh …" is too long, the tile
    buttons lose their prefix to one lead-in ("God:") and names shorten only as needed."""
    labels = [action_label(a, edition) for a in actions]
    if sum(len(x) + 5 for x in labels) <= width:
        return "", labels
    tiles = [i for i, a in enumerate(actions) if a.tile is not None]
    kinds = {actions[i].kind for i in tiles}
    lead = "God:" if kinds == {"god"} else "Lose:" if kinds == {"discard"} else ""
    fixed = sum(len(labels[i]) + 5 for i in range(len(actions)) if i not in tiles) + len(lead) + 1
    names = [ra.display_name(t, edition) for i in tiles if (t := actions[i].tile) is not None]
    short = fit_names(names, width - fixed - 5 * len(tiles))
    if any(len(cut) < 4 and cut != name for cut, name in zip(short, names, strict=True)):
        # Too cut to read: the display's two-letter codes instead.
        short = [code(t, edition) for i in tiles if (t := actions[i].tile) is not None]
    for i, name in zip(tiles, short, strict=True):
        labels[i] = name
    return lead, labels


def sentence(text: str) -> str:
    """A message as one sentence in the terminal's one style: a capital first, a full stop
    last, and a player called "You" in lower case mid-sentence ("…: you must bid")."""
    text = re.sub(r"(: )You\b", r"\1you", text.strip())
    if text and not text[0].isupper():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) or not text else text + "."
