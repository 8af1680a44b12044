"""``benchmarks/ladder.py``: one rating per bot over several arena runs, in order-independent form."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ladder.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def arena(tmp_path: Path, name: str, players: int, bots: str, games: int, *more: str) -> Path:
    out = tmp_path / name
    options = ["-p", str(players), "-b", bots, "-n", str(games), "-j", "1", "-q", "--seed", "3", *more]
    subprocess.run(
        [sys.executable, "-m", "ra.cli", "arena", *options, "--out", str(out)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return out


def test_two_runs_make_one_ladder_and_the_stronger_bot_leads(tmp_path: Path) -> None:
    three = arena(tmp_path, "three.json", 3, "random,greedy,easy", 12)
    two = arena(tmp_path, "two.json", 2, "random,greedy", 10, "--open-scores")
    done = run(str(three), str(two), "--shuffles", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("22 games (12 with hidden scores, 10 with open ones)")
    hidden = run(str(three), str(two), "--shuffles", "5", "--scores", "hidden").stdout.splitlines()
    assert hidden[0].startswith("12 games (12 with hidden scores, 0 with open ones)")
    ranked = [line.split()[0] for line in lines[1:4]]
    assert ranked.index("greedy") < ranked.index("random")  # greedy beats random, seat after seat
    assert any(line.strip().startswith("greedy ahead of random:") for line in lines)
    python = run(str(three), str(two), "--shuffles", "5", "--python")
    assert python.stdout.startswith("LEVEL_RATINGS = {") and '"greedy": (' in python.stdout
    table = run(str(three), str(two), "--shuffles", "5", "--markdown").stdout.splitlines()
    assert table[0].startswith("| bot | rating") and len(table) == 5  # header, rule, 3 bots
    greedy = next(line for line in table if line.startswith("| greedy |"))
    assert "| 22 |" in greedy  # greedy sat at all 22 games


def test_a_file_that_is_not_results_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    done = run(str(bad))
    assert (
        done.returncode == 2 and "cannot read the results" in done.stderr and "Traceback" not in done.stderr
    )


def test_a_bot_in_two_seats_is_two_pairs_as_in_the_arena(tmp_path: Path) -> None:
    # 3 players, two bots: one of them sits twice at every table, so every game is two pairs.
    games = arena(tmp_path, "pairs.json", 3, "greedy,random", 4)
    done = run(str(games), "--shuffles", "2")
    assert done.returncode == 0, done.stderr
    ahead = {
        line.split(" ahead of ")[0].strip(): line.rsplit(" ", 1)[1]
        for line in done.stdout.splitlines()
        if " ahead of " in line
    }
    won, pairs = (int(x) for x in ahead["greedy"].split("/"))
    lost, pairs_back = (int(x) for x in ahead["random"].split("/"))
    assert pairs == pairs_back == 8 and won + lost == 8
