"""The baseline run: generations of self-play, fitting and matches, resumable, in one folder.

Generation 0 is the native search with the expert's settings at the run's budget (or, for a
run started from a policy, that search with the policy as its PUCT prior: ``start``); generation
``k + 1``'s policy is fitted on the rows of generations ``k + 1 - window`` to ``k``, and its
search (the same budget, the policy as its PUCT prior) plays generation ``k + 1``'s self-play.
Every step writes its result to the run folder under a final name only when complete (self-play
in chunks of games, matches game by game), and skips what is there: a run cut off continues.
Self-play's chunks and the matches' games may be played by several worker processes or on a Ray
cluster (:mod:`ra.train.workers`); each game's seed comes from its generation and index and the
results are stored in the games' order, so the rows and the games are the same whatever plays them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.progress import Progress

from ra.arena import GameResult
from ra.bots.policy import C_PUCT, Policy, default_policy, load
from ra.records import atomic_write
from ra.train import curve, net, selfplay
from ra.train.measure import Lineup, play_match, read_log, summary
from ra.train.selfplay import Chunk, Searcher, SearchOptions
from ra.train.workers import Local, Workers

LADDER = ("random", "greedy", "medium", "hard", "expert")
"""The fixed ladder of the learning curve (``hard`` and ``expert`` at the run's budget)."""


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's results (kept in ``config.json``; a rerun must match)."""

    seed: int = 1
    generations: int = 3
    games: int = 160
    """Self-play games per generation, half at 2 players and half at 3."""
    chunk: int = 10
    iterations: int = 1000
    """Search iterations a decision: self-play, the generations' bots and ``hard``/``expert``."""
    c_puct: float = C_PUCT
    hidden: tuple[int, ...] = (128, 64)
    epochs: int = 20
    window: int = 2
    match_games: int = 60
    """Games of each 2-player match: against the previous generation and against ``expert``."""
    match_games_3p: int = 30
    """Games of one of the generation against two experts (3 players)."""
    ladder_games: int = 20
    ladder: tuple[str, ...] = field(default=LADDER)
    value_hidden: tuple[int, ...] = ()
    """The value net's hidden widths: each generation from 1 on fits one beside its policy, on
    the same rows (``gen<k>/value_net.json``); empty: none."""
    start: str = ""
    """The policy generation 0 searches with (a ``policy.json``, or ``shipped``: the package's),
    copied into ``gen0/policy.json`` when the run is made; empty: the plain search."""

    def to_dict(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


class Run:
    """A run in ``folder`` (made if new)."""

    def __init__(
        self,
        folder: Path,
        config: RunConfig,
        progress: Progress | None = None,
        workers: Workers | None = None,
    ) -> None:
        self.folder = folder
        self.config = config
        self.progress = progress
        self.workers: Workers = workers or Local()
        folder.mkdir(parents=True, exist_ok=True)
        saved, wanted = folder / "config.json", config.to_dict()
        written = json.loads(saved.read_text(encoding="utf-8")) if saved.exists() else None
        # a setting added since the run was made holds its default there
        if written is not None and {**RunConfig().to_dict(), **written} != wanted:
            raise ValueError(f"{saved} was made with other settings: use them, or another folder")
        first = folder / "gen0" / "policy.json"
        start = self.start_policy() if config.start and not first.exists() else None
        if written != wanted:  # a Run made again of the same folder leaves it alone
            atomic_write(saved, json.dumps(wanted, indent=1))
        self.lineup = Lineup(folder, config.iterations, config.c_puct)
        if start is not None:
            atomic_write(self.gen(0) / "policy.json", json.dumps(start.to_dict()))

    def start_policy(self) -> Policy:
        """The policy the run starts from (``start``); ``ValueError`` naming what is wrong."""
        if self.config.start != "shipped":
            return load(self.config.start)
        policy = default_policy()
        if policy is None:
            raise ValueError("no policy is shipped with this package (ra/data/policy.json)")
        return policy

    def all(self) -> dict[str, Any]:
        """Every step not done yet; the results (``results.json``) and the curve (``curve.svg``)."""
        cfg = self.config
        for k in range(cfg.generations + 1):
            if k < cfg.generations:  # first: the next generation needs these, not the matches
                self.selfplay(k)
                self.fit(k + 1)
            if k > 0:
                self.measure(k)
            self.ladder(k)
        return self.report()

    def gen(self, k: int) -> Path:
        path = self.folder / f"gen{k}"
        path.mkdir(exist_ok=True)
        return path

    def selfplay(self, k: int) -> None:
        """Generation ``k``'s self-play rows, in chunks of games (``gen<k>/rows_<i>.npz``): the
        chunks not stored yet, played by the run's workers and stored in order."""
        cfg = self.config
        starts = range(0, cfg.games, cfg.chunk)
        todo = [start for start in starts if not self.chunk_path(k, start).exists()]
        searcher = self.searcher(k)
        chunks = [Chunk(searcher, self.chunk_games(k, start)) for start in todo]
        with self.task(f"self-play gen {k} ({self.workers.where()})", cfg.games) as step:
            step(sum(self.chunk_size(start) for start in starts if start not in todo))
            for start, rows in zip(todo, self.workers.map(selfplay.play_chunk, chunks), strict=True):
                net.save_rows(self.chunk_path(k, start), rows)
                step(self.chunk_size(start))

    def chunk_path(self, k: int, start: int) -> Path:
        """Where the chunk of generation ``k``'s self-play from game ``start`` on is stored."""
        return self.gen(k) / f"rows_{start // self.config.chunk:04d}.npz"

    def chunk_size(self, start: int) -> int:
        """The games of the chunk from game ``start`` on (the last may be short)."""
        return min(self.config.chunk, self.config.games - start)

    def chunk_games(self, k: int, start: int) -> tuple[tuple[int, int], ...]:
        """The player count and seed of each game of generation ``k``'s chunk from game ``start`` on."""
        return tuple((2 + i % 2, self.game_seed(k, i)) for i in range(start, start + self.chunk_size(start)))

    def game_seed(self, k: int, i: int) -> int:
        return self.config.seed * 1_000_003 + k * 10_007 + i

    def searcher(self, k: int) -> Searcher:
        """Generation ``k``'s search (gen 0: no prior, unless the run starts from one)."""
        policy = self.lineup.policy(f"gen{k}")
        return Searcher(self.lineup.search_options(), policy, self.config.c_puct)

    def search_options(self, k: int) -> SearchOptions:
        """Generation ``k``'s search arguments for a view (:meth:`searcher`)."""
        return self.searcher(k).options()

    def fit(self, k: int) -> None:
        """Generation ``k``'s policy from the rows of the ``window`` generations before it."""
        target = self.gen(k) / "policy.json"
        if target.exists():
            return
        cfg = self.config
        gens = range(max(0, k - cfg.window), k)
        paths = sorted(p for g in gens for p in self.gen(g).glob("rows_*.npz"))
        data = net.load_rows(paths)
        info = {"generation": k, "rows": len(data["obs"]), "from_generations": list(gens), "seed": cfg.seed}
        device = net.fit_device()
        info["device"] = device
        with self.task(f"fit gen {k} ({len(data['obs'])} rows, on {net.DEVICES[device]})", 1) as step:
            policy, _ = net.fit(data, cfg.hidden, cfg.epochs, cfg.seed * 1000 + k, info, device)
            step(1)
        if cfg.value_hidden:  # written first: a policy on disk means this generation is fitted
            value, _ = net.fit_value(data, cfg.value_hidden, cfg.epochs, cfg.seed * 1000 + k, info)
            atomic_write(self.gen(k) / "value_net.json", json.dumps(value.to_dict()))
        atomic_write(target, json.dumps(policy.to_dict()))

    def measure(self, k: int) -> None:
        """Generation ``k`` against the one before and against ``expert`` (2p), and one of it
        against two experts (3p)."""
        expert, cfg = self.expert(), self.config
        self.match(k, "previous_2p", [f"gen{k}", f"gen{k - 1}"], cfg.match_games)
        self.match(k, "expert_2p", [f"gen{k}", expert], cfg.match_games)
        self.match(k, "expert_3p", [f"gen{k}", expert, expert], cfg.match_games_3p)

    def ladder(self, k: int) -> None:
        """Generation ``k`` against each bot of the fixed ladder, at 2 players."""
        for rung in self.config.ladder:
            spec = f"{rung}:iterations={self.config.iterations}" if rung in ("hard", "expert") else rung
            self.match(k, f"ladder_{rung}", [f"gen{k}", spec], self.config.ladder_games)

    def expert(self) -> str:
        return f"expert:iterations={self.config.iterations}"

    def match(self, k: int, name: str, seats: list[str], games: int) -> dict[str, Any]:
        log = self.gen(k) / f"match_{name}.jsonl"
        seed = self.config.seed * 7_001 + k * 101 + sum(map(ord, name))
        total = -(-games // len(seats)) * len(seats)
        with self.task(f"gen {k}: {name}", total) as step:
            results = play_match(self.lineup, seats, games, seed, log, lambda: step(1), self.workers)
        return summary(results, seats[0], seats[1])

    def report(self) -> dict[str, Any]:
        """Every match's summary by generation: ``results.json``, ``results.md`` and ``curve.svg``."""
        out: dict[str, Any] = {"config": self.config.to_dict(), "generations": {}}
        for k in range(self.config.generations + 1):
            found = {}
            for log in sorted(self.gen(k).glob("match_*.jsonl")):
                name = log.stem.removeprefix("match_")
                results = sorted(read_log(log).values(), key=lambda r: r.index)
                if results:
                    found[name] = summary(results, f"gen{k}", _other(results, f"gen{k}"))
            out["generations"][str(k)] = found
        atomic_write(self.folder / "results.json", json.dumps(out, indent=1))
        atomic_write(self.folder / "curve.svg", curve.svg(out))
        atomic_write(self.folder / "results.md", curve.table(out))
        return out

    @contextmanager
    def task(self, what: str, total: int) -> Iterator[Callable[[int], None]]:
        """A progress bar for one step (none without a :class:`Progress`)."""
        if self.progress is None:
            yield lambda n: None
            return
        task = self.progress.add_task(what, total=total)
        yield lambda n: self.progress.advance(task, n) if self.progress else None
        self.progress.update(task, completed=total, visible=False)


def _other(results: list[GameResult], bot: str) -> str:
    return next(s for s in results[0].seats if s != bot)
