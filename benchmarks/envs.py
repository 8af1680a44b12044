"""Adapter overhead benchmark: the raw engine, the PettingZoo env and the OpenSpiel game side by side.

Run:  python benchmarks/envs.py [--seconds 2] [--players 3] [--json out.json] [--cpu]

Plays uniformly random games for about ``--seconds`` each way and prints
decisions per second and microseconds per decision for

- the raw engine: ``game.apply(rng.choice(game.legal_actions()))``;
- PettingZoo (``ra.envs.pettingzoo.env``): ``env.last()`` (observation + action
  mask for the agent to move), a random legal action from the mask, ``env.step``;
- OpenSpiel (``python_ra``): ``state.legal_actions()`` and ``apply_action``, chance
  outcomes (the deal and every drawn tile) sampled from ``chance_outcomes()``;
  also its random-simulation games per second.

The ratio column is each adapter's cost per decision over the raw engine's (the
issue's target: within 3x).  Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import ra
import ra.envs.openspiel
from ra.envs.pettingzoo import env as pettingzoo_env

clock = time.perf_counter


def timed(run_one: Callable[[int], int], seconds: float) -> tuple[float, int, int]:
    """Run games (``run_one(i)`` returns its decisions) for ``seconds``: (elapsed, games, decisions)."""
    games = decisions = 0
    start = clock()
    while games == 0 or clock() - start < seconds:
        decisions += run_one(games)
        games += 1
    return clock() - start, games, decisions


def raw_engine(players: int, seconds: float) -> tuple[float, int, int]:
    rng = random.Random(0)

    def one(i: int) -> int:
        game = ra.Game(players=players, seed=i)
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        return game.num_decisions

    return timed(one, seconds)


def pettingzoo(players: int, seconds: float) -> tuple[float, int, int]:
    rng = random.Random(0)
    e = pettingzoo_env(players=players)

    def one(i: int) -> int:
        e.reset(seed=i)
        steps = 0
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        return steps

    return timed(one, seconds)


def openspiel(players: int, seconds: float) -> tuple[float, int, int]:
    rng = random.Random(0)
    game = pyspiel.load_game("python_ra", {"players": players})

    def one(i: int) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return timed(one, seconds)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--players", type=int, default=3, help="players per game (default 3)")
    parser.add_argument("--json", help="also write the numbers to this file")
    parser.add_argument("--cpu", action="store_true", help="time in process CPU time (steadier when shared)")
    args = parser.parse_args(argv)
    global clock  # noqa: PLW0603 - one switch for every measurement
    if args.cpu:
        clock = time.process_time
    rows: dict[str, Any] = {}
    print(f"random {args.players}-player games, about {args.seconds:g} s each")
    print(f"{'':<12}{'games/s':>10}{'decisions/s':>14}{'us/decision':>13}{'vs raw':>8}")
    base = 0.0
    for name, run in (("raw engine", raw_engine), ("pettingzoo", pettingzoo), ("openspiel", openspiel)):
        elapsed, games, decisions = run(args.players, args.seconds)
        us = elapsed / decisions * 1e6
        base = base or us
        rows[name] = {
            "games_per_s": games / elapsed,
            "decisions_per_s": decisions / elapsed,
            "us_per_decision": us,
            "ratio": us / base,
        }
        print(f"{name:<12}{games / elapsed:>10.1f}{decisions / elapsed:>14,.0f}{us:>13.1f}{us / base:>7.1f}x")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"players": args.players, "seconds": args.seconds, "results": rows}, f, indent=2)
    return rows


if __name__ == "__main__":
    main()
