"""``ra replay``: step through a saved or finished game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, RichLog, Static

import ra
from ra.analysis.game import GameAnalysis
from ra.analysis.report import pct
from ra.events import decision_seats
from ra.tui import render
from ra.tui.app import BASE_CSS, board_widgets, log_width, show_board


class ReplayApp(App[None]):
    """Step through a game's decisions; everything is shown (the game is over or paused)."""

    TITLE = "Ra replay"
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

    CSS = BASE_CSS + "#analysis { height: auto; padding: 0 1; border-top: solid $primary-darken-2; }"

    def __init__(
        self, game: ra.Game, edition: str = "original", analysis: GameAnalysis | None = None
    ) -> None:
        super().__init__()
        self.analysis = analysis
        self.judged = {d.index: d for d in analysis.decisions} if analysis is not None else {}
        self.decisions = game.decisions
        self.start = ra.Game.from_setup(game.setup)
        self.position = 0
        self.game = self.start.clone()
        self.edition = edition
        self.movers = decision_seats(game.events)  # who took each decision, for the status line

    def compose(self) -> ComposeResult:
        yield from board_widgets()
        if self.analysis is not None:
            yield Static(id="analysis")
        yield Footer()

    def on_mount(self) -> None:
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

    def show(self) -> None:
        game = self.game
        show_board(self, game, self.edition)
        log = self.query_one("#log", RichLog)
        log.clear()
        for event in game.events:
            log.write(render.log_line(event, game.names, self.edition), width=log_width(log))
        status = Text(f"Decision {self.position}/{len(self.decisions)}", style="bold")
        if self.position:
            who = game.names[self.movers[self.position - 1]]
            status.append(f" — {who}: {self.decisions[self.position - 1]}")
        if game.is_over():
            status.append("  " + render.final_line(game, game.names), style="bold green")
        elif self.position == len(self.decisions):
            status.append("  (the record ends here)", style="dim")
        self.query_one("#status", Static).update(status)
        if self.analysis is not None:
            self.query_one("#analysis", Static).update(self.analysis_text())

    def analysis_text(self) -> Text:
        """The analysis of the decision just shown: chances, the best action, the chance lost."""
        assert self.analysis is not None
        names = self.analysis.names
        d = self.judged.get(self.position - 1)
        if d is None:
            if self.position == 0:
                return Text("Analysis: → steps through the decisions.", style="dim")
            return Text("Analysis: no choice to judge here (one legal action or not analysed).", style="dim")
        text = Text()
        text.append(f"{names[d.seat]}: {d.chosen}", style="bold")
        text.append(f" — win chance {pct(d.chosen_chance)}")
        if d.chosen != d.best:
            text.append(f"; best {d.best} {pct(d.best_chance)}, lost {pct(d.loss)}")
        if d.label:
            text.append(f"  {d.label.upper()}", style="bold red" if d.label != "inaccuracy" else "yellow")
        chances = "  ".join(f"{n} {pct(c)}" for n, c in zip(names, d.chances, strict=True))
        text.append(f"\nChances: {chances}\n")
        text.append(d.text, style="italic")
        return text

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
