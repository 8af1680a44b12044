"""Reports of a game analysis: an HTML page with an inline SVG chart, and a terminal chart.

The chart is written by a small SVG writer of our own rather than a plotting library:
it is one kind of chart (win chance per player over the decisions, epoch boundaries,
marked decisions), it keeps ``ra analyze`` working on the base install with no extra
dependency, its output is byte-for-byte deterministic, and its elements carry the
numbers they draw (``data-seat``, ``data-values``), so tests and other tools can read
them back.  The page is self-contained (no scripts, no external files): it opens offline.

Every word is a catalogue message (``ra/locale/analysis.pot``), in the language asked for
(``lang``; ``ra analyze`` passes the command line's), numbers and percentages plainly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from html import escape
from typing import TYPE_CHECKING

from ra.actions import Action
from ra.analysis.game import INACCURACY, DecisionReport, GameAnalysis
from ra.bots.explain import signed
from ra.labels import action_label
from ra.words import DEFAULT_LANG, Param, Words, bcp47, msg, words

if TYPE_CHECKING:
    from rich.text import Text

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
"""One line colour per seat (distinct for colour-blind readers in order: blue, red, green…)."""
TERMINAL_COLOURS = ("blue", "red", "green", "magenta", "yellow")
SPARKS = "▁▂▃▄▅▆▇█"

WIDTH, HEIGHT = 900, 360
Scale = Callable[[float], float]
LEFT, RIGHT, TOP, BOTTOM = 50, 200, 20, 40
LEGEND_CHARS = 20
"""The legend's room for a name: a whole account name (at most 20 characters) or bot's name in
any language ("Mittlerer Bot 2" was cut to "Mittlerer Bot" at 14, issue 54)."""


def pct(x: float) -> str:
    """A chance as a whole percentage: ``62%``."""
    return f"{round(100 * x)}%"


def budget_text(budget: str, lang: str = DEFAULT_LANG) -> str:
    """A stored budget (``300 iterations``, ``2s``, ``the expert level's search``) in words."""
    w = words(lang)
    if m := re.fullmatch(r"(\d+) iterations?", budget):
        return w("analysis.budget.iterations", n=int(m.group(1)))
    if m := re.fullmatch(r"(\d+(?:\.\d+)?)s", budget):
        return w("analysis.budget.seconds", seconds=m.group(1))
    if m := re.fullmatch(r"the (\w+) level's search", budget):
        level = f"lobby.level.{m.group(1)}"
        return w("analysis.budget.level", level=msg(level) if w.has(level) else m.group(1))
    return budget


def label_text(label: str | None, lang: str = DEFAULT_LANG) -> str:
    """A decision's label (``mistake``…) in words; empty for none."""
    return words(lang)(f"analysis.label.{label}") if label else ""


def _html(w: Words, key: str, raw: Mapping[str, str] | None = None, **params: Param) -> str:
    """A message as HTML: its text escaped, the ``raw`` parameters (HTML already) put in as they are."""
    marks = {k: f"\x00{i}\x00" for i, k in enumerate(raw or {})}
    text = escape(w(key, **params, **marks))
    for k, mark in marks.items():
        text = text.replace(mark, (raw or {})[k])
    return text


def marked(analysis: GameAnalysis) -> list[DecisionReport]:
    """The decisions marked on the charts: the costliest three and every mistake, in game order."""
    chosen = {d.index: d for d in analysis.costliest()}
    chosen.update({d.index: d for d in analysis.labelled()})
    return [chosen[i] for i in sorted(chosen)]


def series(analysis: GameAnalysis, seat: int) -> list[tuple[int, float]]:
    """The points of ``seat``'s line: (decisions made, win chance), from 1/N at the start
    (the whole game's curve; an analysis without one has the analysed decisions only)."""
    n = len(analysis.names)
    if analysis.curve:
        return [(0, 1 / n)] + [(i, chances[seat]) for i, chances in analysis.curve]
    return [(0, 1 / n)] + [(d.index + 1, d.chances[seat]) for d in analysis.decisions]


def legend_name(name: str) -> str:
    """``name`` as the chart's legend shows it: whole, or cut with an ellipsis past its room."""
    return name if len(name) <= LEGEND_CHARS else name[: LEGEND_CHARS - 1] + "…"


def svg_chart(analysis: GameAnalysis, lang: str = DEFAULT_LANG) -> str:
    """The win chance of every player over the game, as an SVG document."""
    w = words(lang)
    total = max(1, analysis.total_decisions)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: float) -> float:
        return LEFT + plot_w * i / total

    def y(p: float) -> float:
        return TOP + plot_h * (1 - p)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" class="win-chart" '
        f'font-family="sans-serif" font-size="12">',
        f"<title>{_html(w, 'analysis.chart.title')}</title>",
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fafafa" stroke="#999"/>',
    ]
    for p in (0.0, 0.25, 0.5, 0.75, 1.0):
        out.append(
            f'<line class="grid" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(p):.1f}" y2="{y(p):.1f}" '
            f'stroke="#ddd"/><text x="{LEFT - 6}" y="{y(p) + 4:.1f}" text-anchor="end">{pct(p)}</text>'
        )
    for epoch, start in enumerate(analysis.epoch_starts, 2):
        out.append(
            f'<line class="epoch" data-decision="{start}" x1="{x(start):.1f}" x2="{x(start):.1f}" '
            f'y1="{TOP}" y2="{TOP + plot_h}" stroke="#555" stroke-dasharray="4 3"/>'
            f'<text x="{x(start) + 3:.1f}" y="{TOP + 12}" fill="#555">'
            f"{_html(w, 'analysis.chart.epoch', epoch=epoch)}</text>"
        )
    out.append(
        f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 8}" text-anchor="middle">'
        f"{_html(w, 'analysis.chart.decision')}</text>"
        f'<text x="{LEFT}" y="{TOP + plot_h + 15}" text-anchor="middle">0</text>'
        f'<text x="{LEFT + plot_w}" y="{TOP + plot_h + 15}" text-anchor="middle">{total}</text>'
    )
    for seat, name in enumerate(analysis.names):
        colour = COLOURS[seat % len(COLOURS)]
        points = series(analysis, seat)
        coords = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in points)
        values = ",".join(f"{p:.4f}" for _, p in points)
        steps = ",".join(str(i) for i, _ in points)
        out.append(
            f'<polyline class="player" data-seat="{seat}" data-name="{escape(name)}" '
            f'data-decisions="{steps}" data-values="{values}" points="{coords}" '
            f'fill="none" stroke="{colour}" stroke-width="2"/>'
        )
        ly = TOP + 16 + 18 * seat
        out.append(
            f'<line x1="{LEFT + plot_w + 12}" x2="{LEFT + plot_w + 32}" y1="{ly - 4}" y2="{ly - 4}" '
            f'stroke="{colour}" stroke-width="3"/>'
            f'<text class="legend" x="{LEFT + plot_w + 36}" y="{ly}">{escape(legend_name(name))}</text>'
        )
    out += _given_lines(analysis, w, x, y)
    for d in marked(analysis):
        cx, cy = x(d.index + 1), y(d.chances[d.seat])
        why = d.why_text(analysis.names, lang)
        name = analysis.names[d.seat]
        tip = w("analysis.chart.tip", number=d.index + 1, name=name, chosen=d.chosen, why=why)
        out.append(
            f'<circle class="costly" data-decision="{d.index}" data-seat="{d.seat}" '
            f'data-loss="{d.loss:.4f}" cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="none" '
            f'stroke="#000" stroke-width="2"><title>{escape(tip)}</title></circle>'
        )
    ly = TOP + 30 + 18 * len(analysis.names)
    out.append(
        f'<circle cx="{LEFT + plot_w + 22}" cy="{ly - 4}" r="5" fill="none" stroke="#000" stroke-width="2"/>'
        f'<text x="{LEFT + plot_w + 36}" y="{ly}">{_html(w, "analysis.chart.costly")}</text>'
    )
    out.append("</svg>")
    return "\n".join(out)


def _given_lines(analysis: GameAnalysis, w: Words, x: Scale, y: Scale) -> list[str]:
    """The chances given who is playing (dashed, one per seat) and the key to both kinds of line,
    when the analysis has them (:attr:`GameAnalysis.given`)."""
    if not analysis.given:
        return []
    out = []
    for seat in range(len(analysis.names)):
        coords = " ".join(f"{x(i):.1f},{y(cs[seat]):.1f}" for i, cs in analysis.given)
        values = ",".join(f"{cs[seat]:.4f}" for _, cs in analysis.given)
        steps = ",".join(str(i) for i, _ in analysis.given)
        reasons = ",".join(analysis.reasons)
        out.append(
            f'<polyline class="given" data-seat="{seat}" data-decisions="{steps}" data-values="{values}" '
            f'data-reasons="{reasons}" '
            f'points="{coords}" fill="none" stroke="{COLOURS[seat % len(COLOURS)]}" stroke-width="1.5" '
            f'stroke-dasharray="5 3"/>'
        )
    out.append(  # under the axis, left and right of its title
        f'<text class="key" x="{LEFT}" y="{HEIGHT - 8}">{_html(w, "analysis.chart.best_play")}</text>'
        f'<text class="key" x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end">'
        f"{_html(w, 'analysis.chart.given')}</text>"
    )
    return out


_CSS = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 1100px; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
td.num { text-align: right; }
tr.blunder td { background: #fdd; } tr.mistake td { background: #fed; } tr.inaccuracy td { background: #ffe; }
.note { color: #666; }
"""


def html_report(analysis: GameAnalysis, lang: str = DEFAULT_LANG, edition: str = "original") -> str:
    """A self-contained HTML page: summary, the chart, and every analysed decision (actions by
    the game's own labels, tiles by ``edition``'s names)."""
    w = words(lang)
    names = analysis.names
    title = w("analysis.html.title", names=", ".join(names))
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(bcp47(lang))}"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
    ]
    if analysis.final_scores is not None and analysis.winner is not None:
        final = zip(names, analysis.final_scores, strict=True)
        scores = ", ".join(w("analysis.html.score", name=n, score=s) for n, s in final)
        winner = f"<b>{escape(names[analysis.winner])}</b>"
        parts.append(f"<p>{_html(w, 'analysis.html.final', {'winner': winner}, scores=scores)}</p>")
    else:
        parts.append(f"<p>{_html(w, 'analysis.html.unfinished')}</p>")
    analysed = _html(
        w,
        "analysis.html.analysed",
        who=", ".join(names[s] for s in analysis.seats),
        n=len(analysis.decisions),
        budget=budget_text(analysis.budget, lang),
        seed=analysis.seed,
    )
    parts.append(f'<p class="note">{analysed}</p>')
    if not analysis.complete:
        parts.append(
            f'<p class="note"><b>{_html(w, "analysis.html.interrupted")}</b> '
            f"{_html(w, 'analysis.html.interrupted_note')}</p>"
        )
    parts.append(f"<h2>{_html(w, 'analysis.html.summary')}</h2><ul>")
    for s in analysis.seats:
        acc = analysis.accuracy(s)
        if acc is not None:
            line = _html(w, "analysis.html.accuracy", name=names[s], accuracy=pct(acc))
            parts.append(f'<li class="accuracy" data-seat="{s}">{line}</li>')
    parts.append(f"</ul><h3>{_html(w, 'analysis.costliest')}</h3><ol>")
    for d in analysis.costliest():
        line = escape(d.line(names, lang, edition))
        parts.append(f'<li class="costliest" data-decision="{d.index}">{line}</li>')
    if not analysis.costliest():
        parts.append(f"<li>{_html(w, 'analysis.html.none_costly', within=pct(INACCURACY))}</li>")
    parts.append(f"</ol><h2>{_html(w, 'analysis.html.chances')}</h2>")
    parts.append(svg_chart(analysis, lang))
    parts.append(f'<p class="note">{_html(w, "analysis.html.chart_note")}</p>')
    columns = ("number", "epoch", "player", "chosen", "chance", "best", "best_chance", "lost", "why")
    head = "".join(f"<th>{_html(w, f'analysis.html.col.{c}')}</th>" for c in columns)
    parts.append(f"<h2>{_html(w, 'analysis.html.decisions')}</h2><table><tr>{head}</tr>")
    for d in analysis.decisions:
        cls = f' class="{d.label}"' if d.label else ""
        why = d.why_text(names, lang)
        if d.label:
            why = w("analysis.html.labelled", label=label_text(d.label, lang), why=why)
        parts.append(
            f'<tr{cls} data-decision="{d.index}"><td class="num">{d.index + 1}</td><td>{d.epoch}</td>'
            f"<td>{escape(names[d.seat])}</td><td>{_label(d.chosen, lang, edition)}</td>"
            f'<td class="num">{pct(d.chosen_chance)}</td><td>{_label(d.best, lang, edition)}</td>'
            f'<td class="num">{pct(d.best_chance)}</td><td class="num">{pct(d.loss)}</td>'
            f"<td>{escape(why)}{_all_actions(d, w, edition)}</td></tr>"
        )
    parts.append("</table></body></html>\n")
    return "\n".join(parts)


def _label(action: str, lang: str, edition: str = "original") -> str:
    """An action of a report (its notation) as the game labels it: ``Bid 9``, ``Invoke Ra``."""
    return escape(action_label(Action.parse(action), edition, lang))


def _all_actions(d: DecisionReport, w: Words, edition: str = "original") -> str:
    """Every legal action's win chance and expected margin, folded away under the reason."""
    if len(d.actions) < 2:
        return ""
    items = " · ".join(
        _html(
            w,
            "analysis.html.action",
            action=action_label(Action.parse(a.action), edition, w.lang),
            chance=pct(a.chance),
            margin=signed(a.margin),
        )
        for a in d.actions
    )
    return f"<details><summary>{_html(w, 'analysis.html.all_actions')}</summary>{items}</details>"


def terminal_chart(analysis: GameAnalysis, width: int = 60, lang: str = DEFAULT_LANG) -> Text:
    """A compact chart: one sparkline row per player (▁ 0% … █ 100%) over the game, a row
    marking epoch starts (┊) and costly decisions (▲), and each player's final chance (Rich
    text: the terminal's extra, ``play``; the rest of this module needs no front end)."""
    from rich.text import Text

    total = max(1, analysis.total_decisions)
    width = max(10, min(width, total + 1))
    name_w = min(12, max(len(n) for n in analysis.names))
    text = Text()
    for seat, name in enumerate(analysis.names):
        points = series(analysis, seat)
        row = []
        k = 0
        last = points[-1][0] if analysis.complete else points[-1][0] + 1
        for col in range(width):
            at = col * total / (width - 1)
            if at > last and not analysis.complete:
                row.append(" ")  # not analysed (interrupted)
                continue
            while k + 1 < len(points) and points[k + 1][0] <= at:
                k += 1
            p = points[k][1]
            row.append(SPARKS[min(len(SPARKS) - 1, int(p * len(SPARKS)))])
        text.append(f"{name[:name_w]:<{name_w}} ")
        text.append("".join(row), style=TERMINAL_COLOURS[seat % len(TERMINAL_COLOURS)])
        text.append(f" {pct(points[-1][1]):>4}\n")
    marks = [" "] * width

    def column(decision: int) -> int:
        return min(width - 1, round(decision * (width - 1) / total))

    for start in analysis.epoch_starts:
        marks[column(start)] = "┊"
    for d in marked(analysis):
        marks[column(d.index + 1)] = "▲"
    text.append(" " * (name_w + 1) + "".join(marks), style="bold")
    text.append("\n" + " " * (name_w + 1) + words(lang)("analysis.chart.legend"), style="dim")
    return text


__all__ = [
    "budget_text",
    "html_report",
    "label_text",
    "marked",
    "pct",
    "series",
    "svg_chart",
    "terminal_chart",
]
