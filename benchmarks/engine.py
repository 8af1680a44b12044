"""Engine speed benchmark: random full games per second and the cost of the hot paths.

Run:  python benchmarks/engine.py [--seconds 3] [--json out.json] [--cpu] [--mcts-iterations 200]

Prints, per player count and mixed over 2-5 players, random full games per
second and decisions per second on one core (the loop is
``game.apply(rng.choice(game.legal_actions()))`` from ``ra.Game(...)`` to the
end), then microseconds per ``clone()``, ``legal_actions()`` and ``apply()``
measured separately on positions sampled from random games, ``undo()`` at
decisions 10, 100 and 300 of a long game, and the MCTS bot's iterations per
second at 2-5 players (``mcts_positions``: the same positions every run, with a
digest of the bot's choices so two versions of the code can be checked to
choose alike; ``--mcts-iterations 0`` skips it).  Targets (engine issue): at least
1,500 games/s mixed, clone under 5 us.

With the native core (``ra._core``, see native/README.md) the same run adds native rows: random
playouts played wholly in C++ (``random_playouts``), random games driven from Python one call
per decision (``state.apply(choice(state.legal_actions()))``), the per-call costs of the native
``clone()``, ``legal_mask()`` and ``apply()`` from Python, and MCTS iterations per second of the
Python and the native search at 3 players.  Targets (native-core issue): playouts >= 50x the
Python games/s (>= 5 M decisions/s), per-decision calls >= 5x, clone < 0.2 us, MCTS >= 20x.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import inspect
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import ra
from ra import bots
from ra.bots.mcts import MCTSBot
from ra.native import core

clock = time.perf_counter
"""The timer of every measurement (``--cpu`` switches to process CPU time)."""


def random_games(
    players: list[int], seconds: float, seed: int = 0, events: bool = True
) -> tuple[float, float, int]:
    """Play random games round-robin over ``players`` for ``seconds``; (games/s, decisions/s, games).

    ``events=False`` plays games that keep no event log (the search path, ``Game(events=False)``).
    """
    options: dict[str, Any] = {} if events else {"events": False}
    return driven_games(lambda n, i: ra.Game(players=n, seed=i, **options), players, seconds, seed)


def driven_games(
    new_game: Callable[[int, int], Any], players: list[int], seconds: float, seed: int = 0
) -> tuple[float, float, int]:
    """Random games from ``new_game(players, seed)`` (a ``ra.Game`` or a native state), one
    ``apply(choice(legal_actions()))`` call per decision, for ``seconds``."""
    rng = random.Random(seed)
    choice = rng.choice
    games = decisions = 0
    start = clock()
    deadline = start + seconds
    i = 0
    while True:
        game = new_game(players[i % len(players)], i)
        while not game.is_over():
            game.apply(choice(game.legal_actions()))
        games += 1
        decisions += game.num_decisions
        i += 1
        if games % 20 == 0 and clock() >= deadline:
            break
    elapsed = clock() - start
    return games / elapsed, decisions / elapsed, games


def sample_positions(count: int, seed: int = 1) -> list[tuple[ra.Game, ra.Action]]:
    """Positions met in random games (all player counts), each with a random legal action."""
    rng = random.Random(seed)
    out: list[tuple[ra.Game, ra.Action]] = []
    i = 0
    while len(out) < count:
        game = ra.Game(players=2 + i % 4, seed=10_000 + i)
        i += 1
        while not game.is_over():
            action = rng.choice(game.legal_actions())
            if rng.random() < 0.2:
                out.append((game.clone(), action))
            game.apply(action)
    return out[:count]


def per_call_us(positions: list[tuple[ra.Game, ra.Action]], repeats: int = 5) -> dict[str, float]:
    """Best-of-``repeats`` microseconds per clone(), legal_actions() and apply()."""
    games = [g for g, _ in positions]
    n = len(games)
    best = {"clone": float("inf"), "legal_actions": float("inf"), "apply": float("inf")}
    for _ in range(repeats):
        gc.disable()
        t = clock()
        for g in games:
            g.clone()
        best["clone"] = min(best["clone"], (clock() - t) / n * 1e6)
        t = clock()
        for g in games:
            g.legal_actions()
        best["legal_actions"] = min(best["legal_actions"], (clock() - t) / n * 1e6)
        fresh = [(g.clone(), a) for g, a in positions]
        t = clock()
        for g, a in fresh:
            g.apply(a)
        best["apply"] = min(best["apply"], (clock() - t) / n * 1e6)
        t = clock()
        for i in range(1000):
            ra.Game(players=2 + i % 4, seed=i)
        best["Game()"] = min(best.get("Game()", float("inf")), (clock() - t) / 1000 * 1e6)
        gc.enable()
    return best


def native_playouts(players: int, seconds: float, seed: int = 0) -> tuple[float, float, int]:
    """Random games played wholly natively (``players`` 0: mixed 2-5); (games/s, decisions/s, games)."""
    assert core is not None
    games = decisions = 0
    chunk = 200
    start = clock()
    while clock() - start < seconds:
        r = core.random_playouts(chunk, players, seed + games)
        games += r["games"]
        decisions += r["decisions"]
        chunk = min(chunk * 2, 20_000)
    elapsed = clock() - start
    return games / elapsed, decisions / elapsed, games


def native_driven_games(players: list[int], seconds: float, seed: int = 0) -> tuple[float, float, int]:
    """Random native games driven from Python, one ``apply`` call per decision."""
    assert core is not None
    return driven_games(core.State, players, seconds, seed)


def native_per_call_us(positions: list[tuple[ra.Game, ra.Action]], repeats: int = 5) -> dict[str, float]:
    """Best-of-``repeats`` microseconds per native clone(), legal_mask() and apply() from Python."""
    assert core is not None
    states = [(core.State.from_game(g), a.index) for g, a in positions]
    n = len(states)
    best = {"clone": float("inf"), "legal_mask": float("inf"), "apply": float("inf")}
    for _ in range(repeats):
        gc.disable()
        t = clock()
        for st, _a in states:
            st.clone()
        best["clone"] = min(best["clone"], (clock() - t) / n * 1e6)
        t = clock()
        for st, _a in states:
            st.legal_mask()
        best["legal_mask"] = min(best["legal_mask"], (clock() - t) / n * 1e6)
        fresh = [(st.clone(), a) for st, a in states]
        t = clock()
        for st, a in fresh:
            st.apply(a)
        best["apply"] = min(best["apply"], (clock() - t) / n * 1e6)
        gc.enable()
    return best


def mcts_iterations_per_s(positions: list[ra.Game], native: bool, iterations: int) -> float:
    """Search iterations per second of the mcts bot (Python or native) over ``positions``."""
    total = 0
    elapsed = 0.0
    for i, game in enumerate(positions):
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        bot = bots.make("mcts", seed=i, iterations=iterations, native=native)
        assert isinstance(bot, MCTSBot)
        t = clock()
        bot.choose(view)
        elapsed += clock() - t
        total += bot.last_iterations
    return total / elapsed


def search_positions(count: int, players: int = 3, seed: int = 3) -> list[ra.Game]:
    """Positions with a real choice in random games of ``players`` (the MCTS benchmark's)."""
    rng = random.Random(seed)
    out: list[ra.Game] = []
    i = 0
    while len(out) < count:
        game = ra.Game(players=players, seed=seed * 1000 + i)
        i += 1
        while not game.is_over() and len(out) < count:
            if len(game.legal_actions()) > 1 and rng.random() < 0.05:
                out.append(game.clone())
            game.apply(rng.choice(game.legal_actions()))
    return out


def long_game(decisions: int) -> ra.Game:
    """A 5-player game of at least ``decisions`` decisions (bids and draws preferred, fixed seeds)."""
    for seed in range(10_000):
        game = ra.Game(players=5, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            legal = game.legal_actions()
            eager = [a for a in legal if a.kind in ("bid", "draw", "god")]
            game.apply(rng.choice(eager if eager and rng.random() < 0.8 else legal))
        if game.num_decisions >= decisions:
            return game
    raise RuntimeError(f"no game of {decisions} decisions found")


def undo_us(at: tuple[int, ...] = (10, 100, 300), repeats: int = 200) -> dict[int, float]:
    """Median microseconds of one ``undo()`` on a game that has taken ``n`` decisions."""
    full = long_game(max(at))
    out = {}
    for n in at:
        game = ra.Game(players=5, seed=full.setup.seed)
        for action in full.decisions[:n]:
            game.apply(action)
        times = []
        for _ in range(repeats):
            trial = game.clone()
            t = clock()
            trial.undo()
            times.append(clock() - t)
        times.sort()
        out[n] = times[len(times) // 2] * 1e6
    return out


def native_rows(
    seconds: float, positions: list[tuple[ra.Game, ra.Action]], python_mixed: float, calls: dict[str, float]
) -> dict[str, Any]:
    """The native core's rows, printed beside the Python ones; returns them for the JSON."""
    out: dict[str, Any] = {"playouts": {}, "driven": {}}
    print("\nnative core (ra._core): random playouts played natively")
    print(f"{'players':>8} {'games/s':>10} {'decisions/s':>12} {'x Python':>9}")
    for label, players in [("2", 2), ("3", 3), ("4", 4), ("5", 5), ("mixed", 0)]:
        gps, dps, games = native_playouts(players, seconds)
        out["playouts"][label] = {"games_per_s": round(gps), "decisions_per_s": round(dps), "games": games}
        ratio = f"{gps / python_mixed:9.1f}" if label == "mixed" else ""
        print(f"{label:>8} {gps:>10,.0f} {dps:>12,.0f} {ratio}")
    gps, dps, games = native_driven_games([2, 3, 4, 5], seconds)
    out["driven"]["mixed"] = {"games_per_s": round(gps), "decisions_per_s": round(dps), "games": games}
    print(
        f"\nnative games driven from Python (one apply() per decision), mixed 2-5: {gps:,.0f} games/s, "
        f"{dps:,.0f} decisions/s = {gps / python_mixed:.1f}x Python"
    )
    native_calls = native_per_call_us(positions)
    out["us_per_call"] = {k: round(v, 3) for k, v in native_calls.items()}
    print("native microseconds per call from Python (same positions):")
    for name, us in native_calls.items():
        python = calls.get(name if name != "legal_mask" else "legal_actions")
        print(f"  {name + '()':<16} {us:7.3f} us   (Python {python:.2f} us)")
    search = search_positions(6)
    python_ips = mcts_iterations_per_s(search, native=False, iterations=150)
    native_ips = mcts_iterations_per_s(search, native=True, iterations=20_000)
    out["mcts_iterations_per_s_3p"] = {"python": round(python_ips), "native": round(native_ips)}
    print(
        f"MCTS iterations/s at 3 players (6 positions): Python {python_ips:,.0f}, native {native_ips:,.0f} "
        f"= {native_ips / python_ips:.1f}x"
    )
    mixed = out["playouts"]["mixed"]
    checks = [
        ("playouts >= 50x Python games/s", mixed["games_per_s"] >= 50 * python_mixed),
        ("playouts >= 5 M decisions/s", mixed["decisions_per_s"] >= 5e6),
        ("per-decision calls >= 5x", gps >= 5 * python_mixed),
        ("clone < 0.2 us", native_calls["clone"] < 0.2),
        ("MCTS >= 20x at 3p", native_ips >= 20 * python_ips),
    ]
    print("native targets: " + "; ".join(f"{name}: {'met' if ok else 'NOT met'}" for name, ok in checks))
    return out


def mcts_positions(players: int, count: int = 6, seed: int = 0) -> list[ra.PlayerView]:
    """``count`` views to decide at (more than one legal action) spread over a greedy game."""
    from ra.bots.greedy import greedy_action

    game = ra.Game(players=players, seed=seed)
    seen: list[ra.PlayerView] = []
    while not game.is_over():
        if len(game.legal_actions()) > 1:
            seen.append(game.view(game.to_move or 0))
        game.apply(greedy_action(game))
    step = max(1, len(seen) // count)
    return seen[::step][:count]


def mcts_speed(players: int, iterations: int) -> tuple[float, str]:
    """MCTS iterations per second over :func:`mcts_positions` and a digest of its choices."""
    from ra.bots.mcts import MCTSBot

    views = mcts_positions(players)
    choices = []
    total = 0
    elapsed = 0.0
    for i, view in enumerate(views):
        bot = MCTSBot(seed=i, iterations=iterations)
        t = clock()
        choices.append(str(bot.choose(view)))
        elapsed += clock() - t
        total += bot.last_iterations
    digest = hashlib.sha256(" ".join(choices).encode()).hexdigest()[:12]
    return total / elapsed, digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    parser.add_argument("--positions", type=int, default=20_000, help="positions for the per-call timings")
    parser.add_argument("--json", metavar="PATH", help="also write the numbers as JSON")
    parser.add_argument(
        "--mcts-iterations",
        type=int,
        default=200,
        help="MCTS iterations per decision for the MCTS rows (default 200; 0 skips them)",
    )
    parser.add_argument(
        "--cpu", action="store_true", help="time with process CPU time (steadier on a shared, loaded machine)"
    )
    args = parser.parse_args(argv)
    global clock  # noqa: PLW0603 - one switch for every measurement
    if args.cpu:
        clock = time.process_time

    results: dict[str, Any] = {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "games": {},
    }
    timer = "process CPU time" if args.cpu else "wall clock"
    print(f"ra {ra.__version__} on {platform.python_implementation()} {results['python']}, one core, {timer}")
    print(f"{'players':>8} {'games/s':>10} {'decisions/s':>12} {'decisions/game':>15}")
    for label, players in [("2", [2]), ("3", [3]), ("4", [4]), ("5", [5]), ("mixed", [2, 3, 4, 5])]:
        gps, dps, games = random_games(players, args.seconds)
        results["games"][label] = {"games_per_s": round(gps), "decisions_per_s": round(dps), "games": games}
        print(f"{label:>8} {gps:>10,.0f} {dps:>12,.0f} {dps / gps:>15.1f}")
    if "events" in inspect.signature(ra.Game).parameters:  # not in versions before the flag
        gps, dps, games = random_games([2, 3, 4, 5], args.seconds, events=False)
        results["games"]["mixed_no_events"] = {
            "games_per_s": round(gps),
            "decisions_per_s": round(dps),
            "games": games,
        }
        print(f"{'mixed':>8} {gps:>10,.0f} {dps:>12,.0f} {dps / gps:>15.1f}   (events=False: no event log)")

    positions = sample_positions(args.positions)
    calls = per_call_us(positions)
    results["us_per_call"] = {k: round(v, 3) for k, v in calls.items()}
    print(f"\nmicroseconds per call (best of 5 over {len(positions):,} sampled positions):")
    for name, us in calls.items():
        print(f"  {name + ('()' if name != 'Game()' else ''):<16} {us:7.2f} us")

    undo = undo_us()
    results["undo_us"] = {str(k): round(v, 1) for k, v in undo.items()}
    print("\nmicroseconds per undo() (median), by decisions already taken:")
    for n, us in undo.items():
        print(f"  at decision {n:<4} {us:9.1f} us")

    if args.mcts_iterations > 0:
        results["mcts"] = {}
        print(f"\nMCTS iterations/s ({args.mcts_iterations} iterations per decision, 6 positions per row):")
        print(f"{'players':>8} {'iterations/s':>13} {'choices digest':>15}")
        for count in (2, 3, 4, 5):
            ips, digest = mcts_speed(count, args.mcts_iterations)
            results["mcts"][str(count)] = {"iterations_per_s": round(ips, 1), "choices": digest}
            print(f"{count:>8} {ips:>13,.1f} {digest:>15}")

    mixed = results["games"]["mixed"]["games_per_s"]
    results["python_mixed_games_per_s"] = mixed
    ok_games = mixed >= 1500
    ok_clone = calls["clone"] < 5.0
    print(
        f"\ntargets: mixed games/s >= 1,500: {'met' if ok_games else 'NOT met'} ({mixed:,}); "
        f"clone < 5 us: {'met' if ok_clone else 'NOT met'} ({calls['clone']:.2f} us)"
    )
    if core is None:
        print("\nnative core: not available (not built, or RA_NATIVE=0): no native rows")
    else:
        results["native"] = native_rows(args.seconds, positions, mixed, calls)
        results["native_mixed_games_per_s"] = results["native"]["playouts"]["mixed"]["games_per_s"]
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
