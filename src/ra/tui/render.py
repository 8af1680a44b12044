"""What the terminal shows, as Rich renderables built from a player's view.

Pure functions of a :class:`ra.PlayerView` (so nothing hidden can leak onto the
screen) and the names; the Textual app only places them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

import ra
from ra.events import describe, message, you_seat
from ra.labels import action_label
from ra.scoring import CATEGORIES, ScoreBreakdown
from ra.state import State
from ra.table import game_result, stand_in_message
from ra.tiles import CIVILIZATIONS, MONUMENTS, Tile, category
from ra.words import DEFAULT_LANG, Msg, Seat, Words, msg, words

if TYPE_CHECKING:
    from ra.table import UndoError

CODE_CLASHES: dict[Tile, str] = {Tile.SPHINX: "Sx", Tile.STEP_PYRAMID: "Sp"}
"""The English codes that are not the first two letters of the tile's name ("Sp" and "St" are taken)."""

CODED: tuple[Tile, ...] = (*CIVILIZATIONS, Tile.GOLD, *MONUMENTS)
"""The tiles the players' displays show by code (civilizations, gold, monuments)."""


def code(tile: Tile, edition: str = "original", lang: str = DEFAULT_LANG) -> str:
    """The two-letter code of any tile in an edition and language, for the players' displays
    (the help screen lists them): the first letters of its printed name (:func:`ra.display_name`),
    but for the English names in :data:`CODE_CLASHES`; in other languages the codes of the
    displayed tiles are made unique the same way (first letter, then the next letter that makes
    the code unique: Russian Пирамида ``Пр`` beside Письменность ``Пи``)."""
    if lang == DEFAULT_LANG:
        name = ra.display_name(tile, edition)
        if tile in CODE_CLASHES and name == ra.display_name(tile):
            return CODE_CLASHES[tile]
        return name[:2]
    return _codes(edition, lang).get(tile) or _letters(ra.display_name(tile, edition, lang))[:2]


def _letters(name: str) -> str:
    """A name's letters only (the pseudo-locale's brackets and dots dropped)."""
    return "".join(c for c in name if c.isalpha())


@cache
def _codes(edition: str, lang: str) -> dict[Tile, str]:
    out: dict[Tile, str] = {}
    for tile in CODED:
        letters = _letters(ra.display_name(tile, edition, lang)) or tile.id
        first = letters[0].upper()
        taken = set(out.values())
        out[tile] = next(
            (first + c.lower() for c in letters[1:] if first + c.lower() not in taken), first + str(len(out))
        )
    return out


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


def tile_text(tile: Tile, edition: str = "original", lang: str = DEFAULT_LANG) -> Text:
    return Text(ra.display_name(tile, edition, lang), style=STYLES[category(tile)])


SUN_BOAT: dict[str, str] = {
    "sailed": "~",
    "boat": "☼",
    "ahead": "·",
    "end": "|",
}
"""The 2023 edition's Ra track, its glyphs (CP437 has each glyph): the spaces the sun boat has
sailed, the boat (carrying Ra's sun), the spaces ahead, the last space (the label is the
catalogue's ``tui.board.sun_boat``)."""


def sun_boat(view: State, lang: str = DEFAULT_LANG, spaces: bool = True) -> Text:
    """The 2023 edition's Ra track (R1.2): the sun boat one space on per Ra tile drawn this epoch
    (the tiles are discarded), from a start space one before the first tile space (our ruling)
    to the last space, which ends the epoch (R2.2): ``Sun boat ~~☼·····| 2/8`` (``Sun boat
    2/8`` without ``spaces``, where the line is short of room)."""
    n, length = min(view.ra_count, view.ra_track_length), view.ra_track_length
    t = Text(words(lang)("tui.board.sun_boat") + " ")
    if not spaces:
        return t + Text(f"{n}/{length}")
    t.append(SUN_BOAT["sailed"] * n, style="blue")
    t.append(SUN_BOAT["boat"], style="bold yellow")
    if n < length:
        t.append(SUN_BOAT["ahead"] * (length - n - 1), style="dim")
        t.append(SUN_BOAT["end"], style="bold red")
    t.append(f" {n}/{length}")
    return t


@dataclass(frozen=True)
class BoardFit:
    """How much of the board line to spell out (:func:`board_line` narrows it step by step)."""

    timing: str = ""
    """The 2008 disaster timing's mark, '' where the game plays the default (R3.5)."""
    gap: str = "  "
    centre: str = "tui.board.centre"
    """The catalogue key of the centre sun's label."""
    spaces: bool = True
    """Whether the Ra track's spaces are drawn (its count always is)."""


def board_line(view: State, edition: str = "original", lang: str = DEFAULT_LANG, width: int = 80) -> Text:
    """Epoch, Ra track (filled and remaining spaces; the sun boat in the 2023 edition), centre sun,
    bag, the edition if not the original, and the 2008 disaster timing where it applies (R3.5),
    in ``width`` columns: where the whole line does not fit, the timing becomes "(2008)", the
    gaps narrow, "Centre sun" becomes "Centre" and the track's spaces go (its count stays), in
    that order, so that the bag is never cut."""
    w = words(lang)
    timing = view.disaster_timing == "2008"
    whole = BoardFit(w("tui.board.timing_2008") if timing else "")
    narrow = BoardFit(w("tui.board.timing_2008_short") if timing else "", gap=" ")
    short = replace(narrow, centre="tui.board.centre_short")
    for fit in (whole, replace(narrow, gap="  "), narrow, short, replace(short, spaces=False)):
        line = _board_line(view, edition, lang, fit)
        if len(line) <= width:
            break
    return line


def _board_line(view: State, edition: str, lang: str, fit: BoardFit) -> Text:
    w = words(lang)
    gap = fit.gap
    t = Text()
    t.append(w("tui.board.epoch", epoch=view.epoch, epochs=ra.EPOCHS), style="bold")
    if edition != "original":
        t.append(" " + w("tui.board.edition", edition=edition), style="dim")
    if fit.timing:
        t.append(" " + fit.timing, style="dim")
    if view.is_over():
        t.append(gap + w("tui.board.over"), style="bold")
        t.append(f"{gap}{w(fit.centre)} {view.center_sun}{gap}{w('tui.board.bag', n=view.tiles_in_bag)}")
        return t
    t.append(gap)
    if edition == "2023":
        t.append_text(sun_boat(view, lang, fit.spaces))
    else:
        t.append(f"{w('tui.board.ra_track')} ")
        if fit.spaces:
            t.append("■" * view.ra_track, style="bold yellow")
            t.append("□" * (view.ra_track_length - view.ra_track) + " ", style="dim")
        t.append(f"{view.ra_track}/{view.ra_track_length}")
    t.append(f"{gap}{w(fit.centre)} ")
    t.append(f" {view.center_sun} ", style="bold black on yellow")
    t.append(gap + w("tui.board.bag", n=view.tiles_in_bag))
    return t


def auction_line(view: State, edition: str = "original", width: int = 78, lang: str = DEFAULT_LANG) -> Text:
    """The 8 spaces of the auction track, names shortened only as much as ``width`` needs."""
    t = Text(words(lang)("tui.board.auction") + " ")
    tiles = [Tile(v) for v in view.track_tiles()]
    empty = ra.AUCTION_TRACK_SIZE - len(tiles)
    budget = width - len(t) - 2 * ra.AUCTION_TRACK_SIZE - 2 * empty
    names = fit_names([ra.display_name(tile, edition, lang) for tile in tiles], budget)
    for tile, name in zip(tiles, names, strict=True):
        t.append("[")
        t.append(name, style=STYLES[category(tile)])
        t.append("]")
    for _ in range(empty):
        t.append("[  ]", style="dim")
    return t


def _counts(tiles: dict[str, int], kinds: tuple[Tile, ...], edition: str, lang: str) -> list[str]:
    return [
        code(k, edition, lang) + (str(tiles[k.id]) if tiles.get(k.id, 0) > 1 else "")
        for k in kinds
        if tiles.get(k.id)
    ]


NAME_WIDTH = 15
"""The players table's name column at most: a bot's name in any language ("Bot (mittel) 2",
"Бот (сильный) 2") whole; a longer name is cut with "…"."""
DISPLAY_INDENT = 4


def _cell(text: str | Text, width: int, right: bool = False) -> Text:
    t = text if isinstance(text, Text) else Text(text)
    if len(t) > width:
        t = t[: width - 1] + Text("…")
    pad = " " * (width - len(t))
    return Text(pad) + t if right else t + Text(pad)


def players_table(
    view: State,
    perspective: int | None = None,
    edition: str = "original",
    width: int = 78,
    lang: str = DEFAULT_LANG,
) -> Text:
    """One row per player: score, suns (face up, then face down), and the display.

    A player's display (civilizations and gold, then monuments) follows on the same
    line when it fits, else on a line of its own below: every player takes at most
    two lines at 80 columns, even holding every kind of tile (59 characters).
    """
    w = words(lang)
    auction = view.auction
    ra_mark = w("tui.players.ra_mark")
    rows: list[tuple[list[str | Text], Text]] = []
    for p in view.players:
        is_ra = auction is not None and auction.ra_player == p.seat
        marker = "▶" if p.seat == view.to_move else (ra_mark if is_ra else "")
        suns = Text(" ".join(str(s) for s in reversed(p.suns)), style="bold yellow")
        if p.used_suns:
            suns.append(
                (" (" if p.suns else "(") + " ".join(str(s) for s in reversed(p.used_suns)) + ")", style="dim"
            )
        tiles = dict(p.tiles)
        river = ""
        if tiles.get("nile") or tiles.get("flood"):
            river = w("tui.players.river", nile=tiles.get("nile", 0), flood=tiles.get("flood", 0))
        display = Text(" ".join(_counts(tiles, (*CIVILIZATIONS, Tile.GOLD), edition, lang)), style="green")
        monuments = " ".join(_counts(tiles, MONUMENTS, edition, lang))
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
    header = [
        "",
        *(w(f"tui.players.{c}") for c in ("player", "points", "suns", "god", "pharaoh", "nile")),
    ]
    widths = [max(len(h), *(len(r[0][i]) for r in rows)) for i, h in enumerate(header)]
    widths[1] = min(widths[1], NAME_WIDTH)
    right = {2, 4, 5}
    fixed = sum(widths) + len(widths)
    out = Text()
    head = Text(
        " ".join(str(_cell(h, n, i in right)) for i, (h, n) in enumerate(zip(header, widths, strict=True)))
    )
    room = width - len(head.plain)
    labels = tuple(" " + w(f"tui.players.display_{k}") for k in ("long", "short", "civ"))
    head.append(next((h for h in labels if len(h) <= room), labels[-1]))
    out.append_text(Text(head.plain.rstrip(), style="dim"))
    for cells, display in rows:
        line = Text(" ").join(
            _cell(c, n, i in right) for i, (c, n) in enumerate(zip(cells, widths, strict=True))
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


def either(w: Words, parts: Sequence[str]) -> str:
    """Choices joined as this language offers them: ``a, b or c``."""
    if len(parts) < 2:
        return "".join(parts)
    head = parts[0]
    for part in parts[1:-1]:
        head = w("list.middle", a=head, b=part)
    return w("tui.list.or", a=head, b=parts[-1])


def status_text(
    view: State,
    names: tuple[str, ...],
    humans: set[int],
    perspective: int | None,
    edition: str = "original",
    lang: str = DEFAULT_LANG,
) -> Text:
    """Whose turn it is and why, in plain words; the person to move is always named
    (hot seat), and the line is short enough for 80 columns.  A player named "You"
    (in any language) is addressed in the second person."""
    w = words(lang)
    seat = view.to_move
    if seat is None:  # the result is in the log and on the final page: here, what to do now
        return Text(w("tui.status.over"), style="bold")
    mine = seat in humans
    you = you_seat(names)

    def say(key: str, **params: str | int | Msg | Seat) -> str:
        return w.render(msg(key, **params), names, you)

    who = names[seat]
    t = Text()
    phase = view.phase
    if phase == "action":
        t.append(
            say("tui.status.your_turn" if mine else "tui.status.to_play", p=Seat(seat)) + " ", style="bold"
        )
        kinds = {a.kind for a in view.legal_actions()}
        choices = [w(f"tui.choice.{kind}") for kind in ("draw", "ra", "god") if kind in kinds]
        t.append(either(w, choices))
    elif phase == "bid":
        a = view.auction
        assert a is not None
        cause = msg(f"tui.cause.{a.kind}", p=Seat(a.ra_player))
        t.append(say("tui.status.auction", cause=cause) + " ", style="bold")
        t.append(say("tui.status.your_bid" if mine else "tui.status.to_bid", p=Seat(seat)), style="bold")
        parts = []
        if a.high_bid:
            parts.append(say("tui.status.high", sun=a.high_bid, p=Seat(a.high_bidder or 0)))
        if a.must_bid:
            parts.append(w("tui.status.must_bid_you" if mine else "tui.status.must_bid"))
        elif seat == a.ra_player:
            parts.append(w("tui.status.last_to_bid_you" if mine else "tui.status.last_to_bid"))
        for part in parts:
            t.append(w("tui.status.more", text=part))
    elif phase == "god":
        t.append(w("tui.status.label", name=who) + " ", style="bold")
        t.append(w("tui.status.god"))
        if view.pending_disasters:
            # R3.5, "2008 disaster timing": the Disasters taken wait until the takes end.
            waiting = w.join(ra.display_name(Tile.parse(d), edition, w.lang) for d in view.pending_disasters)
            t.append(w("tui.status.waiting", disasters=waiting), style="red")
    elif phase == "discard":
        disaster = view.pending_disaster or "disaster"
        tile = Tile.parse(disaster) if disaster != "disaster" else None
        title = ra.display_name(tile, edition, lang) if tile is not None else w("cat.disaster")
        what = "civilization" if disaster == "unrest" else "monument"
        t.append(w("tui.status.label", name=title) + " ", style="bold red")
        t.append(say(f"tui.status.discard_{what}", p=Seat(seat), n=view.discards_left))
    return t


def final_line(
    view: State, names: tuple[str, ...], lang: str = DEFAULT_LANG, forfeited: Collection[int] = ()
) -> str:
    """The winner of the table's result (:func:`ra.table.game_result`: a seat in ``forfeited``
    ranks last whatever its score), with the tie-break explained when it decided (R8.1)."""
    result = game_result(view, forfeited)
    if result is None:
        return ""
    w = words(lang)
    you = you_seat(names)
    winner, scores = result.winner, result.scores
    tied = [i for i in result.order[1:] if scores[i] == scores[winner] and i not in result.forfeited]
    if not tied:
        return w.render(msg("tui.final.win", p=Seat(winner), n=scores[winner]), names, you)
    others = tuple(w("tui.you_object") if i == you else names[i] for i in tied)
    best = result.highest_suns[winner]
    return w.render(
        msg("tui.final.win_tie", p=Seat(winner), n=scores[winner], others=others, sun=best), names, you
    )


EPOCH_ONLY = ("monuments", "suns")
"""Categories scored only after the third epoch (R7.3)."""


def score_table(
    view: State,
    epochs: list[int] | None = None,
    title: str | None = None,
    lang: str = DEFAULT_LANG,
    compact: bool = False,
) -> Table:
    """Scoring per player and category (R7) for the given finished epochs (default: all).

    The one score table of the project: the game's epoch summaries and ``ra demo``
    both show it.  Monuments and suns appear only when the third epoch is shown;
    hidden scores (R9.1) show as ``?``.  ``compact``: no lines between the columns, one
    space instead, and the browser's short headings (``sc.short.*``: "Σ"), so that a narrow
    window (60 columns) keeps every heading and name whole ("Bot (stark) 2", not "Su…").
    """
    w = words(lang)
    finished = list(range(1, len(view.epoch_scores) + 1))
    shown = finished if epochs is None else [e for e in epochs if e in finished]
    cats = [c for c in CATEGORIES if c not in EPOCH_ONLY or ra.EPOCHS in shown]
    if title is None:
        title = w("sc.title", n=shown[0]) if len(shown) == 1 else w("tui.scores.title")
    table = Table(title=title, pad_edge=False)
    if compact:
        table.box, table.padding, table.show_edge = box.SIMPLE_HEAD, (0, 0), False
    if len(shown) > 1:
        table.add_column(w("tui.scores.epoch"), justify="right")
    table.add_column(w("tui.scores.player"), no_wrap=True, max_width=NAME_WIDTH, overflow="ellipsis")

    def heading(c: str) -> str:  # narrow: the browser's short headings
        return w(f"sc.short.{c}") if compact else w(f"tui.scores.{c}")

    for c in cats:
        table.add_column(heading(c), justify="right")
    table.add_column(heading("total"), justify="right")
    table.add_column(heading("score"), justify="right", style="bold")
    for epoch in shown:
        breakdowns: list[ScoreBreakdown | None] = view.epoch_scores[epoch - 1]
        for seat, b in enumerate(breakdowns):
            lead = [str(epoch)] if len(shown) > 1 else []
            if b is None:
                row = ["?"] * len(cats) + ["?", "?"]
            else:
                # Monuments and suns score only after the third epoch (R7.3): blank before.
                blank = epoch != ra.EPOCHS
                row = ["" if blank and c in EPOCH_ONLY else str(getattr(b, c)) for c in cats]
                row += [f"{b.total:+d}", str(b.after)]
            table.add_row(*lead, view.names[seat], *row)
        if len(shown) > 1:
            table.add_section()
    return table


def epoch_summary(view: State, epoch: int, lang: str = DEFAULT_LANG, width: int | None = None) -> Group:
    """The scoring table of one finished epoch — at the game's end of all three, then the final
    result — compact where its boxed form would not fit ``width`` whole (German bot names at 80
    columns, any language at 60); the three epochs one under another where even that is too wide."""
    if not (epoch == ra.EPOCHS and view.is_over()):
        return Group(_fitting(view, [epoch], lang, width))
    tables = [_fitting(view, None, lang, width)]
    if width is not None and _natural_width(tables[0]) > width:
        tables = [_fitting(view, [e], lang, width) for e in range(1, ra.EPOCHS + 1)]
    return Group(*tables, Text(""), Text(final_line(view, view.names, lang), style="bold green"))


def _natural_width(table: Table) -> int:
    return Console(width=10_000).measure(table).maximum


def _fitting(view: State, epochs: list[int] | None, lang: str, width: int | None) -> Table:
    """The score table of ``epochs``, compact where its boxed form is wider than ``width``."""
    table = score_table(view, epochs, lang=lang)
    if width is not None and _natural_width(table) > width:
        table = score_table(view, epochs, lang=lang, compact=True)
    return table


def log_line(
    event: ra.Event,
    names: tuple[str, ...],
    edition: str = "original",
    lang: str = DEFAULT_LANG,
    stand_in: str | None = None,
) -> Text:
    """One line of the game log; the epochs' beginnings and ends stand out.  (In the 2023
    edition a drawn Ra tile moves the sun boat, R1.2: the event's own message says so.)
    ``stand_in``: a stand-in bot of that level took this decision for the person in its seat."""
    style = "bold" if event.kind in ("epoch", "epoch_end", "game_over") else ""
    if stand_in is not None and event.seat is not None:
        marked = stand_in_message(message(event, edition), event.seat, stand_in)
        return Text(words(lang).render(marked, names, you_seat(names)), style="italic")
    return Text(describe(event, names, edition, lang), style=style)


def action_labels(
    actions: list[ra.Action], edition: str = "original", width: int = 78, lang: str = DEFAULT_LANG
) -> tuple[str, list[str]]:
    """A lead-in and button labels for ``actions`` that fit one line of ``width`` (a button
    takes its label, a key and 3 columns).  When "God: Pharaoh …" is too long, the tile
    buttons lose their prefix to one lead-in ("God:") and names shorten only as needed."""
    labels = [action_label(a, edition, lang) for a in actions]
    if sum(len(x) + 5 for x in labels) <= width:
        return "", labels
    tiles = [i for i, a in enumerate(actions) if a.tile is not None]
    kinds = {actions[i].kind for i in tiles}
    lead = words(lang)(f"tui.action.{kinds.pop()}_lead") if len(kinds) == 1 else ""
    fixed = sum(len(labels[i]) + 5 for i in range(len(actions)) if i not in tiles) + len(lead) + 1
    names = [ra.display_name(t, edition, lang) for i in tiles if (t := actions[i].tile) is not None]
    short = fit_names(names, width - fixed - 5 * len(tiles))
    if any(len(cut) < 4 and cut != name for cut, name in zip(short, names, strict=True)):
        # Too cut to read: the display's two-letter codes instead.
        short = [code(t, edition, lang) for i in tiles if (t := actions[i].tile) is not None]
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


def why_not(view: State, action: ra.Action, edition: str = "original", lang: str = DEFAULT_LANG) -> str:
    """Why ``action`` is not possible now (the engine's reasons, :meth:`ra.Game.why_illegal`,
    in the terminal's language), with the rule that says so."""
    w = words(lang)
    seat = view.to_move
    if seat is None:
        return w("err.over")
    names = view.names
    player = view.players[seat]
    tiles = dict(player.tiles)
    label = action_label(action, edition, lang)
    tile = ra.display_name(action.tile, edition, lang) if action.tile is not None else ""
    kind, phase = action.kind, view.phase

    def say(key: str, **params: str | int) -> str:
        return w.render(msg(f"tui.illegal.{key}", p=Seat(seat), **params), names, you_seat(names))

    def god() -> str:
        if not tiles.get("god"):
            return say("no_god")
        return say("not_on_track", tile=tile)

    if phase == "action":
        if kind == "draw":
            return say("track_full" if len(view.track_tiles()) >= ra.AUCTION_TRACK_SIZE else "bag_empty")
        return god() if kind == "god" else say("turn_action", action=label)
    if phase == "god":
        return god() if kind == "god" else say("god_phase", action=label)
    if phase == "bid":
        auction = view.auction
        if kind == "bid" and action.sun is not None:
            if action.sun in player.used_suns:
                return say("face_down", sun=action.sun)
            if action.sun not in player.suns:
                return say("no_sun", sun=action.sun)
            return say("not_higher", sun=action.sun, high=(auction.high_bid if auction else 0) or 0)
        if kind == "pass":
            return say("must_bid")
        return say("bid_turn", action=label)
    if phase == "discard":
        disaster = view.pending_disaster or "unrest"
        what = "civilization" if disaster == "unrest" else "monument"
        title = ra.display_name(Tile.parse(disaster), edition, lang)
        if kind == "discard" and action.tile is not None and category(action.tile) == what:
            return say("not_held", tile=tile)
        return say(f"discard_{what}", disaster=title)
    return w("tui.illegal.generic", action=label)


def percent(value: int, lang: str = DEFAULT_LANG) -> str:
    """A whole percentage as the language writes it: ``42%``, German ``42 %`` (``tui.percent``)."""
    return words(lang)("tui.percent", value=value)


def chance(x: float, lang: str = DEFAULT_LANG) -> str:
    """A chance (0-1) as a whole percentage in ``lang``."""
    return percent(round(100 * x), lang)


def notation_error(text: str, lang: str = DEFAULT_LANG) -> str:
    """What is wrong with a typed action (the notation is the engine's: ``bid 9``)."""
    w = words(lang)
    bid = w("tui.action.bid", sun="").strip()  # "Gebot", "Ставка"
    sun = re.fullmatch(rf"(?:bid|{re.escape(bid)}):?\s+(\d+)", text.strip(), re.IGNORECASE)
    if sun is not None:
        return w("tui.error.no_such_sun", sun=sun.group(1), max=ra.MAX_SUN)
    return w("tui.error.notation", text=text)


def undo_refusal(err: UndoError, names: Sequence[str], lang: str = DEFAULT_LANG) -> str:
    """Why an undo was refused, the one asking addressed as "you" where the table says so."""
    return words(lang).render(err.why, names, you_seat(names))


def undone(name: str, taken: ra.Action, edition: str = "original", lang: str = DEFAULT_LANG) -> str:
    """What an undo took back: ``name``'s decision ``taken``, by its label."""
    return words(lang)("table.undone", name=name, action=action_label(taken, edition, lang))
