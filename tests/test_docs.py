"""Every code block of the README and of the documentation site (docs/*.md, with the files they
include) runs or is checked, the site builds with ``mkdocs build --strict``, and CI runs the
README's test command.

The convention (docs/contributing.md): ``python`` blocks are executed; in ``bash`` blocks each
``ra …`` line is parsed by the real command-line parser (every option and value checked, nothing
run: games and servers go on for minutes or forever) and each ``python benchmarks/…`` or
``python tools/…`` line may use only options its script's ``--help`` lists; ``text`` blocks are
output, not code. Any other block says why it cannot run on the line before it:
``<!-- not run: reason -->``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.main import get_command

import ra
from ra.cli import app
from ra.encode import GLOBAL_FIELDS, OBSERVATION_SIZE, PLAYER_FIELDS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
INCLUDE = re.compile(r'^--8<-- "(?P<path>[^":]+)(?::(?P<section>\w+))?"[ \t]*$', re.M)
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S
)
NOT_RUN = re.compile(r"<!-- not run: (?P<reason>\S.*?) -->[ \t]*\n[ \t]*\Z")
SCRIPTS = ("benchmarks/", "tools/")
"""Folders of scripts whose command lines are checked against their ``--help``."""
PYTHONS = ("python", "python3", ".venv/bin/python")


@dataclass(frozen=True)
class Block:
    """One fenced code block: where it is, its language and text, and why it is not run."""

    page: str
    line: int
    lang: str
    code: str
    not_run: str | None

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def expanded(path: Path) -> str:
    """A page's text with its ``--8<--`` includes (pymdownx.snippets, paths from the root) in place."""
    text = path.read_text(encoding="utf-8")
    return INCLUDE.sub(lambda m: included(ROOT / m["path"], m["section"]), text)


def included(path: Path, section: str | None) -> str:
    """A file, or the part of it between ``--8<-- [start:section]`` and ``[end:section]``."""
    text = path.read_text(encoding="utf-8")
    if section is None:
        return text
    start, end = f"--8<-- [start:{section}]", f"--8<-- [end:{section}]"
    assert start in text and end in text, f"{path} has no section {section!r}"
    return text.split(start, 1)[1].split(end, 1)[0]


def blocks_of(path: Path) -> list[Block]:
    """The fenced code blocks of a page, in order."""
    text = expanded(path)
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()]
        marker = NOT_RUN.search(before)
        found.append(
            Block(
                page=str(path.relative_to(ROOT)),
                line=before.count("\n") + 1,
                lang=match["lang"],
                code=textwrap.dedent(match["body"]),
                not_run=marker["reason"] if marker else None,
            )
        )
    return found


BLOCKS = [block for page in PAGES for block in blocks_of(page)]
PYTHON = [b for b in BLOCKS if b.lang == "python" and b.not_run is None]
SET_UP = next(b for b in blocks_of(README) if b.lang == "bash")
"""The README's two set-up commands (checked by their own test: CI runs the second)."""
SHELL = [b for b in BLOCKS if b.lang == "bash" and b.not_run is None and b != SET_UP]


def test_the_pages_have_code_to_check() -> None:
    assert len(PYTHON) >= 12 and len(SHELL) >= 10, (len(PYTHON), len(SHELL))
    assert {b.page for b in PYTHON} >= {"docs/library.md", "docs/research.md", "docs/vector-env.md"}


@pytest.mark.parametrize("block", PYTHON, ids=[b.name for b in PYTHON])
def test_python_block_runs(block: Block) -> None:
    if "ra.envs.vector" in block.code and not ra.native_available():
        pytest.skip("the batch environment needs the native core (RA_NATIVE=0 or not built)")
    exec(compile(block.code, block.name, "exec"), {"__name__": "__docs__"})


def command_lines(code: str) -> list[list[str]]:
    """The commands of a shell block, as argument lists (comments dropped; ``&&`` splits)."""
    commands: list[list[str]] = []
    for line in code.splitlines():
        words = shlex.split(line, comments=True)
        while words:
            end = words.index("&&") if "&&" in words else len(words)
            commands.append(words[:end])
            words = words[end + 1 :]
    return commands


def parse_ra(args: list[str]) -> None:
    """Parse ``ra ARGS`` with the real command-line parser without running the command."""
    group = get_command(app)
    assert isinstance(group, TyperGroup)
    with group.make_context("ra", list(args), resilient_parsing=False) as ctx:
        name, command, rest = group.resolve_command(ctx, [*getattr(ctx, "_protected_args", []), *ctx.args])
        assert command is not None and name is not None, f"no command in ra {shlex.join(args)}"
        with command.make_context(name, rest, parent=ctx):
            pass


@functools.cache
def script_help(script: str) -> str:
    result = subprocess.run(
        [sys.executable, script, "--help"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, f"{script} --help: {result.stderr}"
    return result.stdout


def check_command(words: list[str]) -> str | None:
    """Check one command of a shell block; a complaint, or ``None``."""
    program = words[0].removeprefix(".venv/bin/")
    if program == "ra":
        try:
            parse_ra(words[1:])
        except typer.TyperException as err:
            return f"{shlex.join(words)}: {err.format_message()}"
        return None
    if program in PYTHONS and len(words) > 1 and words[1].startswith(SCRIPTS):
        helptext = script_help(words[1])
        unknown = [w for w in words[2:] if w.startswith("--") and w.split("=")[0] not in helptext]
        return f"{shlex.join(words)}: not in --help: {unknown}" if unknown else None
    return f"{shlex.join(words)}: neither ra nor a script; mark the block <!-- not run: reason -->"


@pytest.mark.parametrize("block", SHELL, ids=[b.name for b in SHELL])
def test_shell_block_parses(block: Block) -> None:
    commands = command_lines(block.code)
    assert commands, "an empty block"
    complaints = [c for c in map(check_command, commands) if c is not None]
    assert not complaints, "\n".join(complaints)


def test_every_other_block_says_why_it_is_not_run() -> None:
    unchecked = [b.name for b in BLOCKS if b.lang not in ("python", "bash", "text") and b.not_run is None]
    assert not unchecked, f"blocks neither run nor marked <!-- not run: reason -->: {unchecked}"


def test_the_checker_refuses_wrong_commands() -> None:
    assert check_command(["ra", "play", "--players", "4"]) is None
    assert "no such option" in (check_command(["ra", "play", "--no-such-option"]) or "").lower()
    assert check_command(["ra", "arena", "--games", "many"]) is not None
    assert "not in --help" in (check_command(["python", "tools/regen_golden.py", "--nope"]) or "")
    assert "not run" in (check_command(["pip", "install", "ra"]) or "")


def test_readme_starts_with_the_two_commands_and_ci_runs_the_test_one() -> None:
    commands = [line for line in SET_UP.code.splitlines() if line.strip()]
    assert len(commands) == 2
    assert commands[0].startswith("python3 -m venv .venv && .venv/bin/pip install -e ")
    assert commands[0].endswith(" && .venv/bin/ra play")
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_links_into_the_site_exist() -> None:
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(((?:docs|native|src)/[^)#]+)", text)
    assert len(links) >= 8
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing
    assert "ra-boardgame[" not in text, "the package is on no index: pip install -e '.[extra]'"


# The research page's observation table and version history (docs/research.md) against ra.encode.


def table_fields(rows: list[str]) -> list[tuple[str, int]]:
    """(name, size) pairs of the observation table's rows, as the page writes them."""
    fields = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        names = re.findall(r"`(\w+)`", cells[0])
        words = cells[1].split(",")
        sizes = [int(cells[1].split()[0])] * len(names) if "each" in cells[1] else [int(w) for w in words]
        fields += list(zip(names, sizes, strict=True))
    return fields


def test_the_observation_table_matches_the_encoder() -> None:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    table = text[text.index("| field | size | meaning |") :].split("\n\n")[0].splitlines()[2:]
    slot = [row for row in table if "per slot:" in row]
    glob = [row for row in table if "per slot:" not in row]
    assert table_fields(glob) == [(name, size) for name, size, _ in GLOBAL_FIELDS]
    assert table_fields(slot) == [(name, size) for name, size, _ in PLAYER_FIELDS]
    assert f"then five player slots of {sum(s for _, s, _ in PLAYER_FIELDS)}" in " ".join(text.split())
    assert OBSERVATION_SIZE == 370 and "370" in text


def layout_fingerprint() -> str:
    """What ``Ra-v0`` promises: the observation layout and the action space."""
    layout = repr((GLOBAL_FIELDS, PLAYER_FIELDS, [str(action) for action in ra.ALL_ACTIONS]))
    return hashlib.sha256(layout.encode()).hexdigest()[:12]


def test_a_layout_change_needs_a_new_version_in_the_history() -> None:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    history = re.findall(r"^\| `Ra-v(\d+)` \|.*\| `(\w+)` \|$", text, re.M)
    assert history, "the version history table is missing"
    assert history[-1][1] == layout_fingerprint(), (
        "the observation layout or action space changed: add a version (Ra-v1) to docs/research.md "
        f"with fingerprint {layout_fingerprint()}, register it, and say so in CHANGELOG.md"
    )


# The site itself.


def test_the_site_links_every_page_it_has() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (ROOT / "docs").rglob("*.md"):
        assert page.relative_to(ROOT / "docs").as_posix() in nav, f"{page.name} is not in mkdocs.yml's nav"


def public_modules() -> list[str]:
    """Every public module of ``ra`` below the package itself (no underscore in its path; the
    migrations are scripts; ``ra``'s own names are on the engine's page, class by class)."""
    src = ROOT / "src"
    found = []
    for path in sorted((src / "ra").rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if len(parts) > 1 and "migrations" not in parts and not any(p.startswith("_") for p in parts):
            found.append(".".join(parts))
    return found


def documented_modules() -> tuple[set[str], set[str]]:
    """The modules the API pages render (``::: ra.x``), and the packages they render whole
    (``show_submodules: true`` under the directive)."""
    named: set[str] = set()
    whole: set[str] = set()
    for page in (ROOT / "docs" / "api").glob("*.md"):
        for m in re.finditer(r"^::: (ra[\w.]*)\n((?:    .*\n)*)", page.read_text(encoding="utf-8"), re.M):
            named.add(m[1])
            if re.search(r"show_submodules: true", m[2]):
                whole.add(m[1])
    return named, whole


def test_every_public_module_has_an_api_page() -> None:
    """Issue 56: the API reference covers every public module, the front ends and the server
    too (the strict build below renders them, so a broken docstring fails it)."""
    named, whole = documented_modules()
    missing = [
        module
        for module in public_modules()
        if module not in named and not any(module.startswith(package + ".") for package in whole)
    ]
    assert not missing, "no API page renders these (docs/api/*.md): " + ", ".join(missing)


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """The real ``ra docs --build`` in this checkout (mkdocs.yml says ``strict: true``; the one
    build of the suite) opens the site it built, in a browser that writes down what it was asked
    to open (webbrowser honours ``$BROWSER``)."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None:
        pytest.skip("MkDocs is not installed (the docs extra: pip install -e '.[docs]')")
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n', encoding="utf-8")
    browser.chmod(0o755)
    env = {**os.environ, "BROWSER": str(browser), "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "ra.cli", "docs", "--build"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    site = ROOT / "site"
    uri = (site / "index.html").as_uri()
    assert opened.read_text(encoding="utf-8").strip() == uri
    assert f"Opened {uri}" in result.stdout
    assert "Getting started" in (site / "index.html").read_text(encoding="utf-8")
    page = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert "R4.3" in page and "--8&lt;--" not in page  # the rules included, not a dangling marker
    russian = (site / "rules-ru" / "index.html").read_text(encoding="utf-8")
    assert "R4.3" in russian and "Различия изданий" in russian and "--8&lt;--" not in russian
    german = (site / "rules-de" / "index.html").read_text(encoding="utf-8")
    assert "R4.3" in german and "Unterschiede der Ausgaben" in german and "--8&lt;--" not in german
    api = (site / "api" / "engine" / "index.html").read_text(encoding="utf-8")
    assert "legal_actions" in api  # generated from the docstrings
    assert "extra.css" in api  # the site's own CSS (the sidebar's title)
    server = (site / "api" / "web" / "index.html").read_text(encoding="utf-8")
    assert 'id="ra.web.hub"' in server and 'id="ra.web.accounts"' in server  # submodules rendered
    # Nothing from a font service: the site works offline (theme.font: false, the system's fonts).
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in text and "fonts.gstatic.com" not in text, html


def test_the_site_uses_the_systems_fonts_and_its_css_exists() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    theme = re.search(r"^theme:\n((?:[ \t]+.*\n|[ \t]*\n)*)", config, re.M)
    assert theme and re.search(r"^  font: false\s*$", theme[1], re.M), (
        "mkdocs.yml: theme.font: false (the system's fonts, none from a font service)"
    )
    extra = re.search(r"^extra_css:\n((?:  - .*\n)+)", config, re.M)
    assert extra, "mkdocs.yml: extra_css"
    for css in re.findall(r"  - (\S+)", extra[1]):
        assert (ROOT / "docs" / css).is_file(), f"extra_css {css} is not in docs/"


def test_the_docs_name_every_package_import_ra_needs() -> None:
    """What ``import ra`` loads from outside the standard library, in a fresh interpreter, is what
    the home page and the library tour say it needs (they once said "no dependencies beyond the
    standard library" while it needed Babel; Babel now loads with the first words asked for,
    issue 56, and the pages still name it as what the words need)."""
    code = (
        "import json, sys; before = set(sys.modules); import ra; "
        "print(json.dumps(sorted({m.split('.')[0] for m in set(sys.modules) - before})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    owners = importlib.metadata.packages_distributions()
    needed = sorted(
        {dist for module in json.loads(out.stdout) for dist in owners.get(module, []) if module != "ra"}
    )
    assert "babel" not in {d.lower() for d in needed}, needed  # issue 56: the words load it when asked
    for name in ("index.md", "library.md"):
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert not re.search(r"standard library|no dependenc|without any dependenc", text, re.I), name
        for dist in [*needed, "Babel"]:
            named = re.search(re.escape(dist).replace("_", "[-_ ]"), text, re.I)
            assert named, f"{name} does not name {dist}"


def test_docstrings_are_rewritten_for_markdown() -> None:
    from tools.griffe_rst import to_markdown

    text = "See :meth:`undo` and :class:`~ra.Tile`.\n\n    >>> 1 + 1\n    2\n\nAfter."
    fenced = "    ```pycon\n    >>> 1 + 1\n    2\n    ```"
    assert to_markdown(text) == f"See `undo` and `ra.Tile`.\n\n{fenced}\n\nAfter."
