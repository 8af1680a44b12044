"""The documentation site: it builds with ``mkdocs build --strict``, its Python examples run as
written, and every ``ra`` command line on it is one the command line accepts."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from ra.cli import app

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md"))
TEXTS = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in [*PAGES, ROOT / "README.md"]}


def blocks(language: str) -> list[tuple[str, str]]:
    return [
        (name, code)
        for name, text in TEXTS.items()
        for code in re.findall(rf"```{language}\n(.*?)```", text, re.S)
    ]


EXAMPLES = [(n, c) for n, c in blocks("python") if n != "README.md"]  # tests/test_readme.py runs those


@pytest.mark.parametrize(("page", "code"), EXAMPLES, ids=[f"{n}:{i}" for i, (n, _) in enumerate(EXAMPLES)])
def test_every_python_example_on_the_site_runs(page: str, code: str) -> None:
    exec(compile(code, f"<{page}>", "exec"), {})


def command_lines() -> list[tuple[str, list[str]]]:
    """Every ``ra …`` line of the shell blocks, without its comment."""
    found = []
    for page, code in blocks("bash"):
        for line in code.splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] in ("ra", ".venv/bin/ra"):
                found.append((page, words[1:]))
    return found


COMMANDS = command_lines()


@pytest.mark.parametrize(("page", "args"), COMMANDS, ids=[f"{p}:{' '.join(a)[:40]}" for p, a in COMMANDS])
def test_every_command_line_on_the_site_parses(page: str, args: list[str]) -> None:
    # Parsed as the command line would (subcommand, options, their types), not run.
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    command = group.commands.get(args[0]) if args else None
    assert command is not None, f"{page}: ra {' '.join(args)}: no such command"
    command.make_context(f"ra {args[0]}", args[1:])


def test_the_site_links_every_page_it_has() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in PAGES:
        assert page.relative_to(ROOT / "docs").as_posix() in nav, f"{page.name} is not in mkdocs.yml's nav"


DOCS_TOOLS = [sys.executable, "-c", "import mkdocs, material, mkdocstrings"]
HAS_DOCS_TOOLS = subprocess.run(DOCS_TOOLS, check=False, capture_output=True).returncode == 0


@pytest.mark.skipif(
    not HAS_DOCS_TOOLS,
    reason="the docs extra is not installed (pip install -e '.[docs]')",
)
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    api = (tmp_path / "site" / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    assert "legal_actions" in api  # the reference is made from the docstrings
    rules = (tmp_path / "site" / "rules" / "index.html").read_text(encoding="utf-8")
    assert "R4.3" in rules  # the rules reference included, not copied


def test_ra_docs_points_at_the_built_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ra.cli import docs

    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<html></html>")
    monkeypatch.setattr(docs, "CHECKOUT", tmp_path)
    monkeypatch.setattr(docs, "site_index", lambda root=tmp_path: root / "site" / "index.html")
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", opened.append)
    docs.docs_command(print_only=False, rebuild=False)
    assert opened == [(tmp_path / "site" / "index.html").as_uri()]
    assert "not a source checkout" in (docs.build_site(tmp_path / "elsewhere") or "")
