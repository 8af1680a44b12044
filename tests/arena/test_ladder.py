"""``benchmarks/ladder.py``: one rating per bot over several arena runs, in order-independent form."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ra.bots import LEVEL_RATINGS

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


def match_log(path: Path, winner_wins: int, games: int) -> Path:
    """A policy_budget-style match log: "gen3" against "expert:iterations=9", seats rotated,
    gen3 winning the first ``winner_wins`` games."""
    rows = []
    for i in range(games):
        seats = ["gen3", "expert:iterations=9"][:: 1 if i % 2 == 0 else -1]
        gen = seats.index("gen3")
        won = gen if i < winner_wins else 1 - gen
        scores = [30, 20] if won == 0 else [20, 30]
        rows.append(
            {"index": i, "seed": i // 2, "rotation": i % 2, "seats": seats, "names": seats, "scores": scores,
             "winner": won, "decisions": [50, 50], "seconds": [1.0, 1.0]}
        )  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_new_bot_is_rated_against_the_levels_which_keep_their_ratings(tmp_path: Path) -> None:
    strong = match_log(tmp_path / "strong.jsonl", 40, 60)
    weak = match_log(tmp_path / "weak.jsonl", 20, 60)
    names = ["--as", "gen3=master", "--as", "expert:iterations=9=expert"]
    rated = {}
    for log in (strong, weak):
        done = run("--rate", "master", *names, "--shuffles", "5", "--python", str(log))
        assert done.returncode == 0, done.stderr
        assert '"master": (' in done.stdout and '"expert"' not in done.stdout  # expert is fixed
        rated[log.stem] = float(done.stdout.split('"master": (')[1].split(",")[0])
    assert rated["strong"] > LEVEL_RATINGS["expert"][0] > rated["weak"]
    head = run("--rate", "master", *names, "--shuffles", "2", str(strong)).stdout
    assert "60 games (60 with hidden scores" in head and "master ahead of expert: 40/60" in head
    assert "0 games" in run("--scores", "open", str(strong)).stdout  # a match log is hidden scores
    absent = run("--rate", "champion", *names, str(strong))
    assert absent.returncode == 2 and "--rate: champion played no game of the results" in absent.stderr
    bad = run("--as", "gen3", str(strong))
    assert bad.returncode == 2 and "--as takes NAME=BOT" in bad.stderr
