"""What the terminal shows, as Rich renderables built from a player's view.

Pure functions of a :class:`ra.PlayerView` (so nothing hidden can leak onto the
screen) and the names; the Textual app only places them.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

import ra
from ra.scoring import CATEGORIES, CATEGORY_LABELS, ScoreBreakdown
from ra.state import State
from ra.tiles import CIVILIZATIONS, MONUMENTS, Tile, category

# Short names for the auction track (8 slots must fit 80 columns).
TRACK_NAMES: dict[Tile, str] = {
    Tile.RA: "Ra",
    Tile.GOD: "God",
    Tile.GOLD: "Gold",
    Tile.PHARAOH: "Pharaoh",
    Tile.NILE: "Nile",
    Tile.FLOOD: "Flood",
    Tile.ASTRONOMY: "Astron.",
    Tile.AGRICULTURE: "Agric.",
    Tile.WRITING: "Writing",
    Tile.RELIGION: "Relig.",
    Tile.ART: "Art",
    Tile.FORTRESS: "Fortress",
    Tile.OBELISK: "Obelisk",
    Tile.PALACE: "Palace",
    Tile.PYRAMID: "Pyramid",
    Tile.SPHINX: "Sphinx",
    Tile.STATUE: "Statue",
    Tile.STEP_PYRAMID: "StepPyr",
    Tile.TEMPLE: "Temple",
    Tile.FUNERAL: "Funeral",
    Tile.DROUGHT: "Drought",
    Tile.UNREST: "Unrest",
    Tile.EARTHQUAKE: "Quake",
}
EDITION_TRACK_NAMES: dict[str, dict[Tile, str]] = {
    "2016": {Tile.UNREST: "War"},
    "2023": {Tile.UNREST: "War", Tile.FORTRESS: "Sanct.", Tile.PALACE: "Mausol."},
}
# Two-letter codes for the players' displays (the help screen has the legend).
CODES: dict[Tile, str] = {
    Tile.ASTRONOMY: "As",
    Tile.AGRICULTURE: "Ag",
    Tile.WRITING: "Wr",
    Tile.RELIGION: "Re",
    Tile.ART: "Ar",
    Tile.GOLD: "Go",
    Tile.FORTRESS: "Fo",
    Tile.OBELISK: "Ob",
    Tile.PALACE: "Pa",
    Tile.PYRAMID: "Py",
    Tile.SPHINX: "Sx",
    Tile.STATUE: "St",
    Tile.STEP_PYRAMID: "Sp",
    Tile.TEMPLE: "Te",
}
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


def track_name(tile: Tile, edition: str = "original") -> str:
    return EDITION_TRACK_NAMES.get(edition, {}).get(tile, TRACK_NAMES[tile])


def tile_text(tile: Tile, edition: str = "original") -> Text:
    return Text(track_name(tile, edition), style=STYLES[category(tile)])


def board_line(view: State) -> Text:
    """Epoch, Ra track (filled and remaining spaces), centre sun and bag."""
    t = Text()
    t.append(f"Epoch {view.epoch}/3", style="bold")
    t.append("  Ra track ")
    t.append("■" * view.ra_track, style="bold yellow")
    t.append("□" * (view.ra_track_length - view.ra_track), style="dim")
    t.append(f" {view.ra_track}/{view.ra_track_length}")
    t.append("  Centre sun ")
    t.append(f" {view.center_sun} ", style="bold black on yellow")
    t.append(f"  Bag {view.tiles_in_bag}")
    return t


def auction_line(view: State, edition: str = "original") -> Text:
    """The 8 spaces of the auction track."""
    t = Text("Auction ")
    tiles = [Tile(v) for v in view.track_tiles()]
    for i in range(8):
        t.append("[")
        if i < len(tiles):
            t.append_text(tile_text(tiles[i], edition))
        else:
            t.append("  ", style="dim")
        t.append("]")
    return t


def _counts(tiles: dict[str, int], kinds: tuple[Tile, ...]) -> str:
    parts = []
    for k in kinds:
        c = tiles.get(k.id, 0)
        if c:
            parts.append(CODES[k] + (str(c) if c > 1 else ""))
    return " ".join(parts)


def players_table(view: State, perspective: int | None = None) -> Table:
    """One row per player: score, suns (face up, face down), and the display by row."""
    table = Table(box=None, padding=(0, 1), pad_edge=False, expand=True, show_edge=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column("player", no_wrap=True, max_width=14, overflow="ellipsis")
    table.add_column("pts", justify="right", no_wrap=True)
    table.add_column("suns", no_wrap=True)
    table.add_column("god", justify="right", no_wrap=True)
    table.add_column("phar", justify="right", no_wrap=True)
    table.add_column("nile", no_wrap=True)
    table.add_column("civ / gold", no_wrap=True, overflow="fold")
    table.add_column("monuments", overflow="fold")
    auction = view.auction
    for p in view.players:
        marker = "▶" if p.seat == view.to_move else ("R" if auction and auction.ra_player == p.seat else "")
        name = Text(p.name, style="bold" if p.seat == perspective else "")
        suns = Text(" ".join(str(s) for s in reversed(p.suns)), style="bold yellow")
        if p.used_suns:
            suns.append(" (" + " ".join(str(s) for s in reversed(p.used_suns)) + ")", style="dim")
        tiles = dict(p.tiles)
        river = ""
        if tiles.get("nile") or tiles.get("flood"):
            river = f"{tiles.get('nile', 0)}+{tiles.get('flood', 0)}f"
        civ = _counts(tiles, (*CIVILIZATIONS, Tile.GOLD))
        table.add_row(
            Text(marker, style="bold green"),
            name,
            "?" if p.score is None else str(p.score),
            suns,
            str(tiles.get("god", "")),
            str(tiles.get("pharaoh", "")),
            river,
            Text(civ, style="green"),
            _counts(tiles, MONUMENTS),
        )
    return table


AUCTION_KINDS = {"drawn": "drawn Ra tile", "voluntary": "Ra invoked", "forced": "Ra invoked, full track"}


def status_text(view: State, names: tuple[str, ...], humans: set[int], perspective: int) -> Text:
    """Whose turn it is and why, in plain words."""
    seat = view.to_move
    if seat is None:
        return Text(final_line(view, names), style="bold")
    mine = seat in humans
    t = Text()
    phase = view.phase
    if phase == "action":
        t.append(f"{names[seat]}: ", style="bold")
        t.append("your turn — " if mine else "turn — ")
        t.append("draw a tile, invoke Ra" + (", or use a God tile" if len(view.legal_actions()) > 2 else ""))
    elif phase == "bid":
        a = view.auction
        assert a is not None
        t.append(f"Auction ({AUCTION_KINDS[a.kind]} by {names[a.ra_player]}): ", style="bold")
        t.append("your bid" if mine else f"{names[seat]} to bid")
        if a.high_bid:
            t.append(f" — high bid {a.high_bid} ({names[a.high_bidder or 0]})")
        if a.must_bid:
            t.append(" — must bid: you invoked Ra and all others passed" if mine else " — must bid")
        elif seat == a.ra_player:
            t.append(" — last to bid")
    elif phase == "god":
        t.append(f"{names[seat]}: ", style="bold")
        t.append("take another tile with a God tile, or done")
    elif phase == "discard":
        disaster = view.pending_disaster or "disaster"
        what = "civilization tile" if disaster == "unrest" else "monument"
        who = "you" if seat == perspective and mine else names[seat]
        t.append(f"{disaster.capitalize()}: ", style="bold red")
        t.append(f"{who} must discard {view.discards_left} {what}(s) — choose which")
    return t


def final_line(view: State, names: tuple[str, ...]) -> str:
    """The winner, with the tie-break explained when it decided (R8.1)."""
    w = view.winner
    if w is None:
        return ""
    scores = view.scores
    line = f"Game over — {names[w]} wins with {scores[w]} points"
    tied = [i for i, s in enumerate(scores) if s == scores[w] and i != w]
    if tied:
        best = max(view.players[w].all_suns)
        line += f" (tie with {', '.join(names[i] for i in tied)}; {names[w]} holds the highest sun, {best})"
    return line + "."


def scoring_table(breakdowns: list[ScoreBreakdown | None], names: tuple[str, ...], epoch: int) -> Table:
    """An epoch's scoring per player and category (R7)."""
    table = Table(title=f"Epoch {epoch} scoring", pad_edge=False)
    table.add_column("player", no_wrap=True, max_width=14, overflow="ellipsis")
    for c in CATEGORIES:
        table.add_column(CATEGORY_LABELS[c], justify="right")
    table.add_column("total", justify="right")
    table.add_column("score", justify="right", style="bold")
    for seat, b in enumerate(breakdowns):
        if b is None:
            table.add_row(names[seat], *(["?"] * len(CATEGORIES)), "?", "?")
            continue
        table.add_row(names[seat], *(str(getattr(b, c)) for c in CATEGORIES), f"{b.total:+d}", str(b.after))
    return table


def epoch_summary(view: State, epoch: int) -> Group:
    """The scoring table of one finished epoch, plus the final result after the third."""
    names = view.names
    table = scoring_table(view.epoch_scores[epoch - 1], names, epoch)
    if epoch == 3 and view.is_over():
        return Group(table, Text(""), Text(final_line(view, names), style="bold green"))
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
    name = track_name(action.tile, edition)
    return f"God: {name}" if action.kind == "god" else f"Lose {name}"
