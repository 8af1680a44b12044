"""Playing arena games: the schedule (seeds, seat rotations) and one game between bots."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import ra
from ra import bots


@dataclass(frozen=True)
class GameSpec:
    """One arena game: which bot sits where, the deal's seed and the bots' seeds."""

    index: int
    seed: int
    rotation: int
    seats: tuple[str, ...]
    """Bot spec per seat, e.g. ("mcts:hard", "greedy", "random")."""
    bot_seeds: tuple[int, ...]
    variant: str = "standard"
    suns_per_player: int | None = None
    hidden_scores: bool = False


@dataclass
class GameResult:
    """What one game gave (all JSON-able)."""

    index: int
    seed: int
    rotation: int
    seats: list[str]
    names: list[str]
    scores: list[int]
    winner: int
    decisions: list[int]
    """Decisions taken by each seat."""
    seconds: list[float]
    """Thinking time of each seat, in seconds."""
    record: dict[str, Any] | None = None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def margins(self) -> list[int]:
        """Each seat's score minus the best other seat's score."""
        s = self.scores
        return [s[i] - max(s[j] for j in range(len(s)) if j != i) for i in range(len(s))]

    def to_dict(self, with_record: bool = False) -> dict[str, Any]:
        d = asdict(self)
        if not with_record:
            d.pop("record")
        d["margins"] = self.margins
        d["winner_bot"] = self.seats[self.winner] if self.winner >= 0 else None
        d["ms_per_decision"] = [
            round(1000 * t / n, 3) if n else None for t, n in zip(self.seconds, self.decisions, strict=True)
        ]
        return d


def schedule(
    participants: list[str],
    players: int,
    games: int,
    seed: int,
    duplicate: bool = False,
    variant: str = "standard",
    suns_per_player: int | None = None,
    hidden_scores: bool = False,
) -> list[GameSpec]:
    """The games to play, with seats rotated so each participant plays each seat equally.

    ``participants`` (bot specs) fill the seats in order, repeated cyclically when
    there are fewer than ``players``.  Game ``g`` rotates them by ``g`` seats.
    With ``duplicate`` every deal (seed) is played once per rotation, so each
    participant meets the same luck from every seat; ``games`` is then rounded up
    to a multiple of ``players``.
    """
    if not participants:
        raise ValueError("no bots given")
    if len(participants) > players:
        raise ValueError(f"{len(participants)} bots for {players} seats: give at most one bot per seat")
    lineup = [participants[i % len(participants)] for i in range(players)]
    specs = []
    count = -(-games // players) * players if duplicate else games
    for g in range(count):
        if duplicate:
            deal, rotation = divmod(g, players)
        else:
            deal, rotation = g, g % players
        seats = tuple(lineup[(i - rotation) % players] for i in range(players))
        game_seed = seed * 1_000_003 + deal
        specs.append(
            GameSpec(
                index=g,
                seed=game_seed,
                rotation=rotation,
                seats=seats,
                bot_seeds=tuple(game_seed * 31 + 7 * g + i for i in range(players)),
                variant=variant,
                suns_per_player=suns_per_player,
                hidden_scores=hidden_scores,
            )
        )
    return specs


def seat_names(seats: tuple[str, ...]) -> list[str]:
    """Player names for the seats: the bot spec, numbered where a spec repeats."""
    totals = Counter(seats)
    seen: Counter[str] = Counter()
    names = []
    for s in seats:
        seen[s] += 1
        names.append(f"{s} #{seen[s]}" if totals[s] > 1 else s)
    return names


def play_game(
    spec: GameSpec, keep_record: bool = False, make_bot: Callable[[str, int], bots.Bot] = bots.from_spec
) -> GameResult:
    """Play one game between the bots of ``spec``; each bot sees only its view (R9.3).
    ``make_bot(spec, seed)`` makes each seat's bot (a benchmark may bring bots of its own)."""
    n = len(spec.seats)
    names = seat_names(spec.seats)
    game = ra.Game(
        players=names,
        seed=spec.seed,
        variant=spec.variant,
        suns_per_player=spec.suns_per_player,
        hidden_scores=spec.hidden_scores,
    )
    players = [make_bot(s, bs) for s, bs in zip(spec.seats, spec.bot_seeds, strict=True)]
    seconds = [0.0] * n
    decisions = [0] * n
    error = None
    clock = time.perf_counter
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        start = clock()
        action = players[seat].choose(view)
        seconds[seat] += clock() - start
        decisions[seat] += 1
        try:
            game.apply(action)
        except ra.RaError as err:
            error = f"seat {seat} ({spec.seats[seat]}) chose an illegal action {action}: {err}"
            break
    return GameResult(
        index=spec.index,
        seed=spec.seed,
        rotation=spec.rotation,
        seats=list(spec.seats),
        names=names,
        scores=[s or 0 for s in game.scores],
        winner=game.winner if game.winner is not None else -1,
        decisions=decisions,
        seconds=seconds,
        record=game.to_record() if keep_record else None,
        error=error,
    )
