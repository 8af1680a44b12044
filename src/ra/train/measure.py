"""Matches in the arena: duplicate deals, seats rotated, hidden scores, 95% Wilson intervals.

Bot specs are the arena's (``random``, ``greedy``, ``medium``, ``expert:iterations=1000``...)
plus ``gen<k>``: generation ``k`` of a run, the expert's search settings at the run's budget with
``k``'s policy as its prior (``gen0``: no prior, the plain expert search at that budget, unless
the run started from a policy: ``gen0/policy.json``).
Finished games are appended to a JSON-lines file in the games' order, so a match cut off
continues where it stopped; its games may be played by several workers (:mod:`ra.train.workers`),
each with the policies it needs, so a worker on another machine needs no access to the run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ra import bots
from ra.arena import GameResult, head_to_head, schedule, wilson_interval
from ra.arena.runner import GameSpec, play_game
from ra.bots.policy import Policy, PolicySearchBot, load
from ra.train.workers import Local, Workers

RESULT_FIELDS = ("index", "seed", "rotation", "seats", "names", "scores", "winner", "decisions", "seconds")


@dataclass(frozen=True)
class Lineup:
    """How generation bots are made: the run's folder, budget and PUCT weight."""

    run: Path
    iterations: int
    c_puct: float

    def search_options(self) -> dict[str, Any]:
        """The expert's settings (tuned weights, its reward) at the run's budget."""
        options = dict(bots.level_options("expert"))
        options.pop("iterations_by_players", None)
        return {**options, "iterations": self.iterations}

    def policy(self, gen: str) -> Policy | None:
        """Generation ``gen``'s (``gen<k>``) policy; None for a ``gen0`` without one (no prior)."""
        path = self.run / gen / "policy.json"
        return None if gen == "gen0" and not path.exists() else load(path)

    def make(self, spec: str, seed: int) -> bots.Bot:
        """The bot of ``spec`` (``gen<k>`` or an arena spec) with ``seed``."""
        return self.bench([spec]).make(spec, seed)

    def bench(self, seats: list[str]) -> Bench:
        """What makes the bots of ``seats``, their policies read now (a worker reads no file)."""
        policies = {s: self.policy(s) for s in seats if s.startswith("gen")}
        return Bench(self.search_options(), self.c_puct, policies)


@dataclass(frozen=True)
class Bench:
    """Makes a match's bots from what it holds: the search's settings, the prior's weight and the
    generations' policies (``gen<k>`` to its policy; None: the plain search)."""

    settings: dict[str, Any]
    c_puct: float
    policies: dict[str, Policy | None]

    def make(self, spec: str, seed: int) -> bots.Bot:
        """The bot of ``spec`` (``gen<k>`` or an arena spec) with ``seed``."""
        if spec not in self.policies:
            return bots.from_spec(spec, seed=seed)
        policy = self.policies[spec]
        if policy is None:
            return bots.make("mcts", seed=seed, **self.settings)
        return PolicySearchBot(seed=seed, policy=policy, c_puct=self.c_puct, **self.settings)


def play(task: tuple[GameSpec, Bench]) -> GameResult:
    """One game of a match (a task for :mod:`ra.train.workers`)."""
    spec, bench = task
    return play_game(spec, make_bot=bench.make)


def play_match(
    lineup: Lineup,
    seats: list[str],
    games: int,
    seed: int,
    log: Path,
    on_game: Callable[[], None] | None = None,
    workers: Workers | None = None,
) -> list[GameResult]:
    """The games of ``seats`` (one spec per seat, rotated, duplicate deals), played by ``workers``
    (none: in this process) and logged in order; resumes from ``log``."""
    done = read_log(log)
    specs = schedule(seats, len(seats), games, seed, duplicate=True, hidden_scores=True)
    bench = lineup.bench(seats)
    todo = [(spec, bench) for spec in specs if spec.index not in done]
    for result in (workers or Local()).map(play, todo):
        if result.error:
            raise RuntimeError(result.error)
        with log.open("a", encoding="utf-8") as out:
            out.write(json.dumps({k: getattr(result, k) for k in RESULT_FIELDS}) + "\n")
        done[result.index] = result
        if on_game is not None:
            on_game()
    return [done[s.index] for s in specs]


def read_log(log: Path) -> dict[int, GameResult]:
    """The games a match's log holds, by index."""
    done: dict[int, GameResult] = {}
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                done[row["index"]] = GameResult(**{k: row[k] for k in RESULT_FIELDS})
    return done


def summary(results: list[GameResult], bot: str, other: str) -> dict[str, Any]:
    """``bot`` against ``other``: games won (2p) or seats finished ahead of (3p+), the share, its
    95% interval, and ``bot``'s seconds a decision."""
    pairs = next(h for h in head_to_head(results) if h.bot == bot and h.other == other)
    low, high = wilson_interval(pairs.ahead, pairs.pairs)
    seconds = sum(r.seconds[i] for r in results for i, s in enumerate(r.seats) if s == bot)
    decisions = sum(r.decisions[i] for r in results for i, s in enumerate(r.seats) if s == bot)
    return {
        "bot": bot,
        "other": other,
        "games": len(results),
        "ahead": pairs.ahead,
        "pairs": pairs.pairs,
        "share": round(pairs.ahead / pairs.pairs, 4) if pairs.pairs else 0.0,
        "ci": [round(low, 4), round(high, 4)],
        "seconds_per_decision": round(seconds / decisions, 4) if decisions else 0.0,
    }
