"""Tune the valuation's weights (:class:`ra.bots.valuation.Weights`) by greedy self-play.

A (1+1) evolution strategy, reproducible from its seed: each step perturbs some weights of the
best set so far (each weight with chance 0.4, by a factor 1 + 0.25·N(0, 1), never below zero)
and keeps the candidate if, playing the greedy policy in one seat against the reference weights
in every other seat, it wins more often.  Every candidate plays the same deals, each dealt once
per seat (duplicate deals, seats rotated), at every player count asked for, and the score is the
win share above the fair one (1/players), averaged over the player counts.  The best set is then
played on fresh deals (the validation) so that luck on the training deals shows.

The search levels' weights, :data:`ra.bots.valuation.SEARCH_WEIGHTS`, come from the defaults:

    python -m tools.tune_weights --seed 0 --deals 3000 --steps 200 --players 2,3,4

``--from tuned`` starts a second round from those and plays against them (tried for the expert
level, at 3 players; docs/bots.md says what it gave):

    python -m tools.tune_weights --from tuned --seed 1 --deals 3000 --steps 300 --players 3

(about 6 minutes of one core each; it needs the native core).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Sequence

import ra
from ra.bots.valuation import WEIGHT_SETS, Weights
from ra.native import core

WeightTuple = tuple[float, ...]
FIRST_DEAL = 1000
VALIDATION_DEAL = 50_000
SIGMA = 0.25
MUTATION_CHANCE = 0.4


def winner(players: int, deal: int, weights: Sequence[WeightTuple]) -> int:
    """The winning seat of one greedy game of ``deal``, each seat with its weights."""
    assert core is not None, "the native core is needed"
    state = core.State(players=players, seed=deal)
    while (seat := state.to_move) is not None:
        state.apply(state.greedy_action(weights=weights[seat]))
    won = state.winner
    assert won is not None
    return int(won)


def excess_wins(
    candidate: WeightTuple, reference: WeightTuple, deals: range, players: Sequence[int]
) -> float:
    """The candidate's win share above the fair one, averaged over ``players``."""
    total = 0.0
    for n in players:
        wins = 0
        for deal in deals:
            for seat in range(n):
                seats = [reference] * n
                seats[seat] = candidate
                wins += winner(n, deal, seats) == seat
        total += wins / (len(deals) * n) - 1 / n
    return total / len(players)


def mutate(best: list[float], rng: random.Random) -> list[float]:
    """A perturbed copy of ``best`` (see the module's docstring)."""
    return [
        max(0.0, b * (1 + SIGMA * rng.gauss(0, 1))) if rng.random() < MUTATION_CHANCE else b for b in best
    ]


def tune(
    seed: int, deals: int, steps: int, players: Sequence[int], log: bool = True, start: str = "default"
) -> tuple[Weights, float]:
    """The tuned weights and their training score (win share above fair) against the named set
    ``start`` (:data:`~ra.bots.valuation.WEIGHT_SETS`), which is also where the search begins."""
    rng = random.Random(seed)
    reference = dataclasses.astuple(WEIGHT_SETS[start])
    training = range(FIRST_DEAL, FIRST_DEAL + deals)
    best = list(reference)
    best_score = 0.0  # the reference against itself wins exactly its fair share (seats rotated)
    started = time.monotonic()
    for step in range(steps):
        candidate = mutate(best, rng)
        score = excess_wins(tuple(candidate), reference, training, players)
        if score > best_score:
            best, best_score = candidate, score
        if log:
            elapsed = time.monotonic() - started
            print(
                f"\rstep {step + 1}/{steps}: best {best_score:+.4f} ({elapsed:.0f} s)",
                end="",
                file=sys.stderr,
                flush=True,
            )
    if log:
        print(file=sys.stderr)
    return Weights(*(round(x, 4) for x in best)), best_score


def parse_players(text: str) -> list[int]:
    """``2,3,4`` as player counts (argparse type)."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"player counts must be numbers like 2,3,4, got {text!r}") from None
    if not counts or any(not ra.MIN_PLAYERS <= n <= ra.MAX_PLAYERS for n in counts):
        raise argparse.ArgumentTypeError(f"player counts must be 2 to 5, got {text!r}")
    return counts


def positive(text: str) -> int:
    """A whole number of at least 1 (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.tune_weights", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the perturbations (default 0)")
    parser.add_argument("--deals", type=positive, default=3000, help="training deals per player count")
    parser.add_argument("--steps", type=positive, default=200, help="candidates to try")
    parser.add_argument(
        "--players", type=parse_players, default=[2, 3, 4], help="player counts (default 2,3,4)"
    )
    parser.add_argument(
        "--validation", type=positive, default=3000, help="fresh deals to check the result on"
    )
    parser.add_argument(
        "--from",
        dest="start",
        choices=sorted(WEIGHT_SETS),
        default="default",
        help="the weight set to start from and play against (default: the hand-set one)",
    )
    args = parser.parse_args(argv)
    if core is None:
        parser.error("the native core is needed (pip install -e . builds it; RA_NATIVE=0 turns it off)")
    weights, score = tune(args.seed, args.deals, args.steps, args.players, start=args.start)
    reference = dataclasses.astuple(WEIGHT_SETS[args.start])
    fresh = range(VALIDATION_DEAL, VALIDATION_DEAL + args.validation)
    checked = excess_wins(dataclasses.astuple(weights), reference, fresh, args.players)
    print(f"training: {score:+.4f} win share above fair; validation on fresh deals: {checked:+.4f}")
    print(repr(weights))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
