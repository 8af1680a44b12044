"""The arena: many games between bots, in parallel processes, measured honestly.

>>> from ra import arena
>>> specs = arena.schedule(["greedy", "random"], players=3, games=6, seed=1)
>>> results, interrupted = arena.run_games(specs, jobs=2)
>>> table = arena.summarize(results)

``ra arena`` is the command-line front end (progress bar, table, files).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from ra.arena.runner import GameResult, GameSpec, play_game, schedule, seat_names
from ra.arena.stats import BotSummary, HeadToHead, head_to_head, standing, summarize, wilson_interval
from ra.processes import running
from ra.records import atomic_write


def run_games(
    specs: Sequence[GameSpec],
    jobs: int = 1,
    keep_records: bool = False,
    on_result: Callable[[GameResult], None] | None = None,
    backend: str = "process",
    address: str | None = None,
) -> tuple[list[GameResult], bool]:
    """Play the games (in ``jobs`` processes); returns the results and whether Ctrl-C stopped it.

    Results arrive in completion order; an interrupted run returns every game that
    finished.  ``backend="ray"`` plays them on a Ray cluster instead (at ``address``,
    or a local Ray with ``jobs`` CPUs; see :mod:`ra.arena.ray_backend`), with the same results.
    """
    if backend == "ray":
        from ra.arena.ray_backend import run_games_ray

        return run_games_ray(specs, jobs, keep_records, on_result, address=address)
    if backend != "process":
        raise ValueError(f"unknown backend {backend!r}; backends are: process, ray")
    results: list[GameResult] = []
    interrupted = False
    play = partial(play_game, keep_record=keep_records)

    def collect(r: GameResult) -> None:
        results.append(r)
        if on_result is not None:
            on_result(r)

    if jobs <= 1:
        try:
            for spec in specs:
                collect(play(spec))
        except KeyboardInterrupt:
            interrupted = True
        return results, interrupted
    try:
        with running(jobs) as pool:  # fresh processes, never forked from this one (ra.processes)
            for r in pool.imap_unordered(play, specs):
                collect(r)
    except KeyboardInterrupt:
        interrupted = True
    return results, interrupted


def results_document(
    config: dict[str, Any], results: Sequence[GameResult], interrupted: bool = False
) -> dict[str, Any]:
    """Everything about a run as one JSON-able document."""
    ordered = sorted(results, key=lambda r: r.index)
    return {
        "config": config,
        "interrupted": interrupted,
        "games_played": len(ordered),
        "summary": [b.to_dict() for b in summarize(ordered)],
        "head_to_head": [h.to_dict() for h in head_to_head(ordered)],
        "games": [r.to_dict() for r in ordered],
    }


def write_json(path: str | os.PathLike[str], document: dict[str, Any]) -> None:
    """Write the run's document atomically."""
    atomic_write(path, json.dumps(document, indent=1) + "\n")


CSV_COLUMNS = (
    "game",
    "seed",
    "rotation",
    "seat",
    "bot",
    "score",
    "margin",
    "won",
    "decisions",
    "ms_per_decision",
)


def write_csv(path: str | os.PathLike[str], results: Sequence[GameResult]) -> None:
    """One row per game and seat: the shape most analysis tools want (written atomically)."""
    out = io.StringIO(newline="")
    w = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
    w.writeheader()
    for r in sorted(results, key=lambda r: r.index):
        margins = r.margins
        for seat, bot in enumerate(r.seats):
            n = r.decisions[seat]
            w.writerow(
                {
                    "game": r.index,
                    "seed": r.seed,
                    "rotation": r.rotation,
                    "seat": seat,
                    "bot": bot,
                    "score": r.scores[seat],
                    "margin": margins[seat],
                    "won": int(seat == r.winner),
                    "decisions": n,
                    "ms_per_decision": round(1000 * r.seconds[seat] / n, 3) if n else "",
                }
            )
    atomic_write(path, out.getvalue())


def save_records(directory: str | os.PathLike[str], results: Sequence[GameResult]) -> int:
    """Save each game's record (replayable with ``ra replay``) as ``game-NNNNN.json``."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for r in results:
        if r.record is not None:
            atomic_write(folder / f"game-{r.index:05d}.json", json.dumps(r.record, indent=1) + "\n")
            count += 1
    return count


__all__ = [
    "BotSummary",
    "GameResult",
    "GameSpec",
    "HeadToHead",
    "head_to_head",
    "play_game",
    "results_document",
    "run_games",
    "save_records",
    "schedule",
    "seat_names",
    "standing",
    "summarize",
    "wilson_interval",
    "write_csv",
    "write_json",
]
