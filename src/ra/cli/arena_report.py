"""``ra arena``'s report in the reader's language: the results table, the head-to-head table and
the closing line, every number written as the language writes it (``25.3`` / ``25,3``)."""

from __future__ import annotations

from rich import box
from rich.table import Table

from ra import arena
from ra.cli.common import w
from ra.words import Words, msg

SUMMARY_COLUMNS = ("games", "wins", "win_pct", "ci", "score", "margin", "ms", "rating")
"""The summary's number columns (``arena.col.*``), after the bot's."""
PAIR_COLUMNS = ("pairs", "ahead", "ahead_pct", "ci")
"""The head-to-head table's number columns, after the two bots'."""


def interval(say: Words, low: float, high: float) -> str:
    """A 95% confidence interval of a share, in whole percent: ``45-58``."""
    return f"{say.number(100 * low)}-{say.number(100 * high)}"


def new_table(title: str, bots: list[str], first: list[str]) -> Table:
    """A table that fits 80 columns in every language: columns apart by spaces, no side
    rules, and its bots' columns (``first``, headed by these words) as wide as the longest
    bot spec up to 20 (rich would fold them to a letter or two to fit long headers)."""
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0, 0, 1))
    widest = min(20, max((len(b) for b in bots), default=0))
    for header in first:
        table.add_column(header, overflow="fold", min_width=max(widest, len(header)))
    return table


def summary_row(say: Words, b: arena.BotSummary) -> list[str]:
    """One bot's cells: games, wins, win %, its interval, score, margin, ms a decision, rating."""
    return [
        b.bot,
        say.number(b.games),
        say.number(b.wins, 2, trim=True),
        say.number(100 * b.win_rate, 1),
        interval(say, b.ci_low, b.ci_high),
        say.number(b.mean_score, 1),
        say.number(b.mean_margin, 1, signed=True),
        say.number(b.ms_per_decision, 1 if b.ms_per_decision >= 10 else 2),
        f"{say.number(b.rating_mu, 1)}±{say.number(b.rating_sigma, 1)}",
    ]


def summary_table(summary: list[arena.BotSummary], players: int) -> Table:
    """Each bot's results, best rated first, in the command line's language."""
    say = w()
    title = say("arena.results", n=players, chance=say.number(100 / players))
    table = new_table(title, [b.bot for b in summary], [say("arena.col.bot")])
    for name in SUMMARY_COLUMNS:
        table.add_column(say(f"arena.col.{name}"), justify="right", no_wrap=True)
    for b in summary:
        table.add_row(*summary_row(say, b))
    return table


def head_to_head_table(pairs: list[arena.HeadToHead], summary: list[arena.BotSummary]) -> Table:
    """Who finished ahead of whom, best-rated first (at 3 or more players wins alone say little)."""
    rank = {b.bot: k for k, b in enumerate(summary)}
    pairs = sorted(pairs, key=lambda h: (rank[h.bot], rank[h.other]))
    say = w()
    heads = [say("arena.col.bot"), say("arena.col.ahead_of")]
    table = new_table(say("arena.head_to_head"), [b.bot for b in summary], heads)
    for name in PAIR_COLUMNS:
        table.add_column(say(f"arena.col.{name}"), justify="right", no_wrap=True)
    for h in pairs:
        share = say.number(100 * h.share, 1)
        table.add_row(
            h.bot,
            h.other,
            say.number(h.pairs),
            say.number(h.ahead),
            share,
            interval(say, h.ci_low, h.ci_high),
        )
    return table


def done_line(games: int, hidden_scores: bool, seconds: float, jobs: int) -> str:
    """The closing line: how many games, under which rule, how long, with how many processes."""
    rule = msg("arena.hidden_scores" if hidden_scores else "arena.open_scores")
    say = w()
    return say(
        "arena.done", n=games, rule=rule, seconds=say.number(seconds, 1), jobs=msg("arena.jobs", n=jobs)
    )
