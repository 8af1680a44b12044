"""``ra replay``: step through a saved or finished game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, RichLog, Static

import ra
from ra.analysis.game import GameAnalysis
from ra.events import decision_seats
from ra.labels import action_label
from ra.state import State
from ra.table import game_result, result_log, stand_in_events
from ra.tui import render
from ra.tui.bindings import translate_bindings
from ra.tui.board import BASE_CSS, board_widgets, log_width, show_board
from ra.tui.widgets import GameLog, Line
from ra.words import DEFAULT_LANG, words


class ReplayApp(App[None]):
    """Step through a game's decisions.  A finished game shows everything; an unfinished one
    shows what ``viewer`` saw (R9.1: under hidden scores, not the others' scores), so that a
    saved hot-seat game cannot be peeked at."""

    TITLE = "Ra"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "next", "Next", priority=True),
        Binding("left,b", "previous", "Back", priority=True),
        Binding("right_square_bracket", "next_epoch", "Next epoch", key_display="]", priority=True),
        Binding("left_square_bracket", "previous_epoch", "Epoch back", key_display="[", priority=True),
        Binding("home", "start", "Start", priority=True),
        Binding("end", "end", "End", priority=True),
        Binding("q", "quit", "Quit", priority=True),
        Binding("escape,ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    KEYS: ClassVar[dict[str, str]] = {
        "next": "tui.key.next",
        "previous": "tui.key.back",
        "next_epoch": "tui.key.next_epoch",
        "previous_epoch": "tui.key.epoch_back",
        "start": "tui.key.start",
        "end": "tui.key.end",
        "quit": "tui.key.quit",
    }
    """The catalogue keys of the bindings' descriptions (the footer)."""

    CSS = BASE_CSS + "#analysis { height: auto; padding: 0 1; border-top: solid $primary-darken-2; }"

    def __init__(
        self,
        game: ra.Game,
        edition: str = "original",
        analysis: GameAnalysis | None = None,
        lang: str = DEFAULT_LANG,
        stand_ins: frozenset[int] = frozenset(),
        stand_in: str = "medium",
        forfeited: frozenset[int] = frozenset(),
        viewer: int | None = None,
    ) -> None:
        super().__init__()
        self.lang = lang
        self.w = words(lang)
        translate_bindings(self, self.w, self.KEYS)
        self.title = self.w("tui.replay.title")
        self.analysis = analysis
        self.judged = {d.index: d for d in analysis.decisions} if analysis is not None else {}
        self.decisions = game.decisions
        self.start = ra.Game.from_setup(game.setup)
        self.position = 0
        self.game = self.start.clone()
        self.edition = edition
        self.movers = decision_seats(game.events)  # who took each decision, for the status line
        self.stand_ins = stand_ins
        """Decisions a stand-in bot of level ``stand_in`` took for an absent person: marked in the log."""
        self.stand_in = stand_in
        self.forfeited = forfeited
        """Seats that forfeited: last whatever their scores, in the final line and the log's last line."""
        self.viewer: int | None = viewer
        self.finished = game.is_over()
        """Whether the whole game is over (then every position is shown whole)."""

    def compose(self) -> ComposeResult:
        yield from board_widgets()
        if self.analysis is not None:
            yield Static(id="analysis")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def on_game_log_rewrap(self, _: GameLog.Rewrap) -> None:
        """Lay the log out again for its new width (a wider window gets long lines)."""
        self.show()

    def on_resize(self) -> None:
        """Fit the board to the new size (or say the window is too small)."""
        self.show()

    def go(self, position: int) -> None:
        position = max(0, min(position, len(self.decisions)))
        if position < self.position:
            self.game = self.start.clone()
            self.position = 0
        while self.position < position:
            self.game.apply(self.decisions[self.position])
            self.position += 1
        self.show()

    def shown(self) -> State:
        """The position as the screen may show it: whole once the game is over, else ``viewer``'s view."""
        return self.game if self.finished else self.game.view(self.viewer)

    def show(self) -> None:
        game = self.shown()
        w = self.w
        show_board(self, game, self.edition, lang=self.lang)
        log = self.query_one("#log", RichLog)
        log.clear()
        marked = stand_in_events(game.events, self.stand_ins)
        for i, event in enumerate(result_log(game.events, game_result(game, self.forfeited))):
            by = self.stand_in if i in marked else None
            line = render.log_line(event, game.names, self.edition, self.lang, stand_in=by)
            log.write(line, width=log_width(log))
        status = Text(w("tui.replay.decision", n=self.position, m=len(self.decisions)), style="bold")
        if self.position:
            who = game.names[self.movers[self.position - 1]]
            action = action_label(self.decisions[self.position - 1], self.edition, self.lang)
            status.append(" " + w("tui.replay.who", name=who, action=action))
        if self.position == len(self.decisions) and not game.is_over():  # the log says a result
            status.append("  " + w("tui.replay.end"), style="dim")
        self.query_one("#status", Line).show(status)
        if self.analysis is not None:
            self.query_one("#analysis", Static).update(self.analysis_text())

    def analysis_text(self) -> Text:
        """The analysis of the decision just shown: chances, the best action, the chance lost."""
        assert self.analysis is not None
        w = self.w
        names = self.analysis.names
        d = self.judged.get(self.position - 1)
        if d is None:
            key = "tui.analysis.start" if self.position == 0 else "tui.analysis.nothing"
            return Text(w(key), style="dim")
        text = Text()
        text.append(w("tui.analysis.who", name=names[d.seat], action=self._label(d.chosen)), style="bold")
        text.append(" " + w("tui.analysis.chance", chance=self._pct(d.chosen_chance)))
        if d.chosen != d.best:
            best = self._label(d.best)
            best_chance, lost = self._pct(d.best_chance), self._pct(d.loss)
            text.append(w("tui.analysis.best", action=best, chance=best_chance, lost=lost))
        if d.label:
            label = w(f"tui.analysis.label.{d.label}").upper()
            text.append(f"  {label}", style="bold red" if d.label != "inaccuracy" else "yellow")
        chances = "  ".join(f"{n} {self._pct(c)}" for n, c in zip(names, d.chances, strict=True))
        text.append("\n" + w("tui.analysis.chances", chances=chances) + "\n")
        text.append(d.why_text(names, w.lang), style="italic")
        return text

    def _pct(self, x: float) -> str:
        """A chance as the replay's language writes it (German ``42 %``)."""
        return render.chance(x, self.lang)

    def _label(self, notation: str) -> str:
        """An analysed action's label in the replay's language (the analysis keeps notation)."""
        try:
            return action_label(ra.Action.parse(notation), self.edition, self.lang)
        except ra.NotationError:
            return notation

    def action_next(self) -> None:
        self.go(self.position + 1)

    def action_previous(self) -> None:
        self.go(self.position - 1)

    def action_start(self) -> None:
        self.go(0)

    def action_end(self) -> None:
        self.go(len(self.decisions))

    def action_previous_epoch(self) -> None:
        """Back to the start of this epoch (or of the previous one, if already there)."""
        starts = [0]
        probe = self.start.clone()
        for i, action in enumerate(self.decisions[: self.position]):
            epoch = probe.epoch
            probe.apply(action)
            if probe.epoch != epoch:
                starts.append(i + 1)
        earlier = [s for s in starts if s < self.position]
        self.go(earlier[-1] if earlier else 0)

    def action_next_epoch(self) -> None:
        epoch = self.game.epoch
        target = self.position
        probe = self.game.clone()
        while target < len(self.decisions) and probe.epoch == epoch and not probe.is_over():
            probe.apply(self.decisions[target])
            target += 1
        self.go(target)
