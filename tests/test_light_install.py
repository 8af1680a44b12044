"""The library installs light (issue 56): ``pip install ra-boardgame`` is the engine, the bots,
the arena and the analysis without the terminal's or the server's stack; the extras add the front
ends; an editable install (the README's first command) is the whole game.

The front ends are hidden from a child interpreter (an import hook refuses them) — what a venv
with the wheel alone would have; .ci/wheel.sh installs the built wheel with no extra for real.
"""

from __future__ import annotations

import email.parser
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FRONT_ENDS = (
    *("typer", "rich", "textual", "click"),  # play
    *("fastapi", "uvicorn", "starlette", "sqlalchemy", "alembic", "aiosqlite", "psycopg", "argon2"),  # web
    *("prometheus_client", "networkx", "platformdirs"),  # web
    *("numpy", "gymnasium", "pettingzoo", "pyspiel", "ray", "torch", "sklearn"),  # rl, cluster, train
)
"""What the extras install (play, web, rl, cluster, train): none of it is the library's."""

NOT_THE_LIBRARY = ("ra.cli", "ra.tui", "ra.web", "ra.train", "ra.envs", "ra.tournament")
"""The front ends and the adapters that need an extra (the site's tournaments need networkx)."""

HIDE = f"""
import importlib.abc, sys
HIDDEN = {set(FRONT_ENDS)!r}
class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.partition(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Hide())
"""


def without_front_ends(
    code: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child interpreter that cannot import any front end."""
    return subprocess.run(
        [sys.executable, "-c", HIDE + code, *args],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
        env=env,
    )


def test_every_module_of_the_library_imports_without_the_front_ends() -> None:
    code = f"""
import importlib, json, pkgutil, ra
failed = {{}}
for info in pkgutil.walk_packages(ra.__path__, "ra."):
    if info.name.startswith({NOT_THE_LIBRARY!r}) or info.name.endswith("__main__"):
        continue
    try:
        importlib.import_module(info.name)
    except ImportError as err:
        failed[info.name] = str(err)
loaded = sorted(m for m in sys.modules if m.partition(".")[0] in HIDDEN)
print(json.dumps({{"failed": failed, "loaded": loaded, "checked": len(sys.modules)}}))
"""
    done = without_front_ends(code)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["failed"] == {}
    assert report["loaded"] == []


def test_bots_play_a_game_through_the_arena_without_the_front_ends() -> None:
    code = """
from ra import arena
specs = arena.schedule(["medium", "greedy", "random"], players=3, games=1, seed=7)
results, _ = arena.run_games(specs, jobs=1)
print(len(results), results[0].winner, sorted(m for m in sys.modules if m.partition(".")[0] in HIDDEN))
"""
    done = without_front_ends(code)
    assert done.returncode == 0, done.stderr
    games, winner, loaded = done.stdout.split(maxsplit=2)
    assert (games, loaded.strip()) == ("1", "[]")
    assert int(winner) in range(3)


@pytest.mark.parametrize(
    ("args", "lang_env", "said"),
    [
        (["play"], "C.UTF-8", "error: the ra command needs the play extra"),
        pytest.param(
            ["--version"], "ru_RU.UTF-8", "ошибка: команде ra нужно дополнение play", marks=pytest.mark.slow
        ),
        pytest.param(
            ["play", "--lang", "de"],
            "C.UTF-8",
            "Fehler: der Befehl ra braucht das Extra play",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_ra_without_the_play_extra_says_what_to_install_in_one_line(
    args: list[str], lang_env: str, said: str
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "RA_LANG"))}
    env["LANG"] = lang_env
    done = without_front_ends(
        "import sys; sys.argv[0] = 'ra'\nfrom ra.cli import main\nmain()", *args, env=env
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(said)
    assert "'ra-boardgame[play]'" in done.stderr
    assert "typer" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_another_missing_module_is_not_mistaken_for_the_extra() -> None:
    """Only the extra's own modules get the message: any other ImportError is a bug, shown as one."""
    code = """
sys.modules["ra.cli.commands"] = None  # an import of it fails, though the front ends are here
from ra.cli import main
main(["--version"])
"""
    done = subprocess.run(
        [sys.executable, "-c", "import sys\n" + code], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert "Traceback" in done.stderr
    assert "play extra" not in done.stderr


def _metadata(hook: str, tmp_path: Path) -> list[str]:
    """Requires-Dist of the metadata that the build backend's ``hook`` writes for a copy of the
    project (the files the metadata is made from: no build, no egg-info in the checkout)."""
    tree = tmp_path / "project"
    shutil.copytree(ROOT / "build_backend", tree / "build_backend")
    for name in ("pyproject.toml", "setup.py", "README.md", "MANIFEST.in"):
        shutil.copy(ROOT / name, tree / name)
    (tree / "src" / "ra").mkdir(parents=True)
    shutil.copy(ROOT / "src" / "ra" / "__init__.py", tree / "src" / "ra" / "__init__.py")
    out = tmp_path / "metadata"
    out.mkdir()
    code = "import sys; sys.path.insert(0, 'build_backend'); import ra_build"
    code += f"; print(ra_build.{hook}(sys.argv[1]))"
    env = {k: v for k, v in os.environ.items() if k != "RA_BUILD"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(out)], cwd=tree, capture_output=True, text=True, check=False, env=env
    )
    assert done.returncode == 0, done.stderr
    meta = email.parser.Parser().parsestr(
        (out / done.stdout.strip().splitlines()[-1] / "METADATA").read_text()
    )
    return meta.get_all("Requires-Dist") or []


@pytest.mark.slow  # setuptools in a child: seconds
@pytest.mark.parametrize(
    ("hook", "the_game"),
    [("prepare_metadata_for_build_wheel", False), ("prepare_metadata_for_build_editable", True)],
)
def test_a_wheel_is_the_library_and_an_editable_install_the_whole_game(
    hook: str, the_game: bool, tmp_path: Path
) -> None:
    requires = _metadata(hook, tmp_path)
    always = {r.split(";")[0] for r in requires if ";" not in r}
    names = {r.split(">")[0].split("[")[0] for r in always}
    assert {"openskill", "babel", "typing_extensions"} <= names
    assert ({"typer", "rich", "textual"} <= names) is the_game
    assert not names & {"fastapi", "numpy", "ray"}
    assert 'textual>=8.0; extra == "play"' in requires
