"""The learning curve as an SVG picture (no plotting library): generation against the share of
games won against each bot of the ladder, with the 95% intervals as bars."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 700, 360
LEFT, RIGHT, TOP, BOTTOM = 60, 180, 30, 50
COLOURS = ("#888888", "#2ca02c", "#1f77b4", "#ff7f0e", "#d62728", "#9467bd", "#8c564b")


def svg(report: dict[str, Any]) -> str:
    """The curve of ``report`` (:meth:`ra.train.pipeline.Run.report`'s ``results.json``)."""
    gens = sorted(int(k) for k in report["generations"])
    series = _series(report, gens)
    last = max(gens[-1], 1)

    def x(g: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * g / last

    def y(share: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - share)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{LEFT}" y="18">Games won at 2 players (95% intervals), by generation</text>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>'
        )
        parts.append(f'<text x="{LEFT - 8}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.0%}</text>')
    for g in gens:
        parts.append(f'<text x="{x(g):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">{g}</text>')
    parts.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 12}" text-anchor="middle">generation</text>'
    )
    for n, (name, points) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        line = " ".join(f"{x(g):.1f},{y(s):.1f}" for g, s, _, _ in points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for g, s, low, high in points:
            bar = f'x1="{x(g):.1f}" x2="{x(g):.1f}" y1="{y(low):.1f}" y2="{y(high):.1f}"'
            parts.append(f'<line {bar} stroke="{colour}"/>')
            parts.append(f'<circle cx="{x(g):.1f}" cy="{y(s):.1f}" r="3" fill="{colour}"/>')
        ly = TOP + 18 * n
        parts.append(f'<rect x="{WIDTH - RIGHT + 12}" y="{ly - 9}" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{WIDTH - RIGHT + 30}" y="{ly + 1}">{escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _series(report: dict[str, Any], gens: list[int]) -> dict[str, list[tuple[int, float, float, float]]]:
    """Each 2-player opponent's points: (generation, share, interval low, high)."""
    out: dict[str, list[tuple[int, float, float, float]]] = {}
    for g in gens:
        for name, m in sorted(report["generations"][str(g)].items()):
            if name.endswith("_3p") or name == "previous_2p":
                continue
            rung = name.removeprefix("ladder_")
            label = f"vs {rung}" if rung != name else f"vs {name.removesuffix('_2p')} ({m['games']} games)"
            out.setdefault(label, []).append((g, m["share"], m["ci"][0], m["ci"][1]))
    return out


def table(report: dict[str, Any]) -> str:
    """The report as a Markdown table: a row per generation and match (games, share, interval,
    seconds a decision of the generation's bot)."""
    lines = [
        "| generation | against | games | won / ahead | share | 95% interval | s / decision |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for g in sorted(report["generations"], key=int):
        for name, m in sorted(report["generations"][g].items()):
            low, high = m["ci"]
            lines.append(
                f"| {g} | {name} (`{m['other']}`) | {m['games']} | {m['ahead']}/{m['pairs']} | "
                f"{m['share']:.0%} | {low:.0%}–{high:.0%} | {m['seconds_per_decision']:.3f} |"
            )
    return "\n".join(lines) + "\n"
