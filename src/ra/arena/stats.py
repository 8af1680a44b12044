"""Arena statistics: win rates with confidence intervals, scores, margins, times, ratings."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from ra.arena.runner import GameResult

Z95 = 1.959963984540054
_TOTALS = ("games", "wins", "score", "margin", "secs", "decs")


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); (0, 1) without games."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rounded(fields: dict[str, float | int | str]) -> dict[str, float | int | str]:
    """A summary's fields for JSON, floats to 4 places."""
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in fields.items()}


@dataclass
class BotSummary:
    """One bot's results over the games played (seat-games: a bot in two seats counts twice)."""

    bot: str
    games: int
    wins: float
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float
    mean_margin: float
    ms_per_decision: float
    rating_mu: float
    rating_sigma: float
    rating: float
    """The conservative OpenSkill rating (mu - 3 sigma), for ranking."""

    def to_dict(self) -> dict[str, float | int | str]:
        return _rounded(asdict(self))


def standing(result: GameResult) -> list[int]:
    """Each seat's place at the end (0 first): the R8.1 winner first, then the others by score."""
    order = sorted(range(len(result.seats)), key=lambda i: (i != result.winner, -result.scores[i]))
    places = [0] * len(order)
    for place, seat in enumerate(order):
        places[seat] = place
    return places


@dataclass
class HeadToHead:
    """How often ``bot`` finished ahead of ``other`` in the games where both sat.

    At 3 or more players a win rate says little about two bots that rarely win
    against each other's company; the pairs say who finished ahead.  Every pair of
    seats counts (two ``other`` seats in a game are two pairs).
    """

    bot: str
    other: str
    ahead: int
    pairs: int
    share: float
    ci_low: float
    ci_high: float

    def to_dict(self) -> dict[str, float | int | str]:
        return _rounded(asdict(self))


def head_to_head(results: Iterable[GameResult]) -> list[HeadToHead]:
    """For every ordered pair of different bots, the share of pairs of seats ``bot`` finished ahead in."""
    counts: dict[tuple[str, str], list[int]] = {}
    for r in results:
        if r.error is not None:
            continue
        places = standing(r)
        for i, bot in enumerate(r.seats):
            for j, other in enumerate(r.seats):
                if bot != other:
                    c = counts.setdefault((bot, other), [0, 0])
                    c[0] += places[i] < places[j]
                    c[1] += 1
    out = []
    for (bot, other), (ahead, pairs) in sorted(counts.items()):
        low, high = wilson_interval(ahead, pairs)
        out.append(HeadToHead(bot, other, ahead, pairs, ahead / pairs, low, high))
    return out


def summarize(results: Iterable[GameResult]) -> list[BotSummary]:
    """Per-bot statistics over finished games, best rating first.

    A game's winner is the R8.1 winner (highest score, then highest sun), so no
    game is a tie.  Ratings come from OpenSkill's Plackett-Luce model, fed the
    games in schedule order with each game's seats ranked by the final standing.
    """
    games = sorted((r for r in results if r.error is None), key=lambda r: r.index)
    model = PlackettLuce()
    ratings = {}
    stats: dict[str, dict[str, float]] = {}
    for r in games:
        for seat, bot in enumerate(r.seats):
            s = stats.setdefault(
                bot, dict.fromkeys(("games", "wins", "score", "margin", "secs", "decs"), 0.0)
            )
            s["games"] += 1
            s["wins"] += 1.0 if seat == r.winner else 0.0
            s["score"] += r.scores[seat]
            s["margin"] += r.margins[seat]
            s["secs"] += r.seconds[seat]
            s["decs"] += r.decisions[seat]
            if bot not in ratings:
                ratings[bot] = model.rating(name=bot)
        places = standing(r)
        ranks = [float(places[seat] + 1) for seat in range(len(r.seats))]
        teams: list[list[PlackettLuceRating]] = [[ratings[bot]] for bot in r.seats]
        rated = model.rate(teams, ranks=ranks)
        # A bot in several seats gets the mean of its seats' updates.
        updates: dict[str, list[tuple[float, float]]] = {}
        for bot, team in zip(r.seats, rated, strict=True):
            updates.setdefault(bot, []).append((team[0].mu, team[0].sigma))
        for bot, values in updates.items():
            ratings[bot] = model.rating(
                mu=sum(v[0] for v in values) / len(values),
                sigma=sum(v[1] for v in values) / len(values),
                name=bot,
            )
    out = []
    for bot, s in stats.items():
        n = int(s["games"])
        low, high = wilson_interval(s["wins"], n)
        rating = ratings[bot]
        out.append(
            BotSummary(
                bot=bot,
                games=n,
                wins=s["wins"],
                win_rate=s["wins"] / n,
                ci_low=low,
                ci_high=high,
                mean_score=s["score"] / n,
                mean_margin=s["margin"] / n,
                ms_per_decision=1000 * s["secs"] / s["decs"] if s["decs"] else 0.0,
                rating_mu=rating.mu,
                rating_sigma=rating.sigma,
                rating=rating.mu - 3 * rating.sigma,
            )
        )
    out.sort(key=lambda b: -b.rating)
    return out
