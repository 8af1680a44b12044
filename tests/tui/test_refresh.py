"""How much the terminal game redraws: a refresh that changes nothing keeps the widgets on
screen and asks for no new layout, and new actions reuse the buttons already there — while the
screen shows exactly what a fresh build would (``benchmarks/tui_speed.py`` measures the gain)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Static

from ra.tui import PlayApp
from ra.tui.keys import MoveKeys
from ra.tui.widgets import ActionBar, ActionButton, action_parts, lines_within, same_text
from tests.tui.test_app import first_keys, run, screen_text, session, settle


def shown_parts(app: PlayApp) -> list[str]:
    """The texts of the action bar's widgets, as on screen."""
    bar = app.query_one("#actions", ActionBar)
    return [str(w.label) if isinstance(w, Button) else str(w.render()) for w in bar.children]


def test_a_refresh_that_changes_nothing_keeps_the_widgets_and_fills_no_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = session(tmp_path, 2, ["greedy"], seed=3)
    app = PlayApp(s, delay=0)
    filled: list[Static] = []
    update = Static.update

    def counted(self: Static, *args: Any, **kw: Any) -> None:
        filled.append(self)
        update(self, *args, **kw)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.pause()
        bar = app.query_one("#actions", ActionBar)
        before: list[Widget] = list(bar.children)
        assert before, "a person to move has buttons"
        text = screen_text(app)
        monkeypatch.setattr(Static, "update", counted)
        app.refresh_screen()
        app.refresh_screen()
        assert list(bar.children) == before  # not removed and mounted again
        assert filled == []  # no line changed: none is filled again (each fill is a layout)
        await pilot.pause()
        assert screen_text(app) == text

    run(app, script)


def test_new_actions_show_in_the_buttons_there_as_a_fresh_build_would(tmp_path: Path) -> None:
    """Turn after turn (by keys): the bar shows the parts of the actions now (their keys and
    labels), each button chooses its own action, and the buttons on screen are reused."""
    s = session(tmp_path, 2, ["greedy"], seed=3)
    app = PlayApp(s, delay=0)
    reused = 0

    async def script(pilot: Pilot[None]) -> None:
        nonlocal reused
        await settle(pilot, app)
        for _ in range(16):
            bar = app.query_one("#actions", ActionBar)
            fresh = action_parts(MoveKeys.of(s.game), app.w, app.edition, app.size.width - 2)
            assert [text for text, _ in fresh] == shown_parts(app)
            chosen = [b.choice for b in bar.query(ActionButton).results(ActionButton)]
            assert chosen == [choice for _, choice in fresh if choice is not None]
            before = {id(w) for w in bar.children}
            await pilot.press(*first_keys(app))
            await settle(pilot, app)
            if s.game.is_over() or not app.moves:
                return
            reused += bool(before & {id(w) for w in bar.children})

    run(app, script)
    assert reused > 0


def test_a_clicked_button_does_not_keep_the_focus(tmp_path: Path) -> None:
    """Buttons were always mounted anew, so the focus of a click left with them: a reused bar
    must not keep it either (Enter would press that button again)."""
    s = session(tmp_path, 2, ["greedy"], seed=3)
    app = PlayApp(s, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        for _ in range(6):
            await pilot.click(next(iter(app.query("#actions Button").results(Button))))
            await settle(pilot, app)
            await pilot.pause()
            assert not isinstance(app.focused, Button)

    run(app, script)


def test_a_line_is_the_same_only_with_the_same_characters_and_styles() -> None:
    """What decides whether a board line is filled again, and whether the screen is laid out."""
    assert same_text(Text("a", style="bold"), Text("a", style="bold"))
    assert not same_text(Text("a", style="bold"), Text("a", style="red"))  # Rich's == says equal
    assert not same_text(Text("ab"), Text.assemble("a", ("b", "red")))
    assert not same_text(Text("a"), "b") and same_text("a", "a")
    assert lines_within("abc\nde", 3) == 2 and lines_within("abcd", 3) is None
