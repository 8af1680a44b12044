"""``ra docs``: opens the documentation site built from the checkout, builds it first when MkDocs is
installed and the copy is missing or stale, and otherwise names the command that builds it."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ra.cli import app as cli
from ra.cli import docs

ROOT = Path(__file__).resolve().parents[2]
needs_mkdocs = pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None, reason="MkDocs is not installed (pip install -e '.[docs]')"
)


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["docs", *args])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def small_checkout(root: Path, *, built: bool) -> Path:
    """A checkout with a one-page site, built (an older ``site/``) or not."""
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: Small\nstrict: true\n", encoding="utf-8")
    (root / "docs" / "index.md").write_text("# Small\n\nThe one page.\n", encoding="utf-8")
    if built:
        (root / "site").mkdir()
        (root / "site" / "index.html").write_text("<h1>Small</h1>", encoding="utf-8")
        os.utime(root / "site" / "index.html", (1_000_000, 1_000_000))
    return root


def test_help_says_what_it_opens_and_its_options() -> None:
    code, output = invoke("--help")
    assert code == 0
    assert "documentation" in output and "--path" in output and "--build" in output


def test_this_checkout_is_found() -> None:
    assert docs.checkout_root() == ROOT
    assert docs.site_index(ROOT) == ROOT / "site" / "index.html"


def test_installed_from_a_wheel_it_says_where_the_docs_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docs, "checkout_root", lambda: None)
    code, output = invoke()
    assert code == 2
    assert output.startswith("error: ") and "not installed from a checkout" in output
    assert docs.build_command(None) in output


def test_not_built_and_no_mkdocs_names_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = small_checkout(tmp_path, built=False)
    monkeypatch.setattr(docs, "checkout_root", lambda: root)
    monkeypatch.setattr(docs, "mkdocs_installed", lambda: False)
    code, output = invoke("--path")
    assert code == 2
    assert "not built" in output and docs.build_command(root) in output


def fresh_venv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The README's set-up: a checkout with ``.venv/bin/{python,pip,ra}``, not activated."""
    root = small_checkout(tmp_path / "ra", built=False)
    folder = root / ".venv" / "bin"
    folder.mkdir(parents=True)
    for tool in ("python", "pip", "ra"):
        (folder / tool).write_text("#!/bin/sh\n")
        (folder / tool).chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(folder / "python"))
    monkeypatch.setattr(sys, "argv", [str(folder / "ra"), "docs"])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setattr(docs, "checkout_root", lambda: root)
    monkeypatch.setattr(docs, "mkdocs_installed", lambda: False)
    return root


def test_after_the_readmes_install_it_names_a_command_that_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after ``pip install -e .`` (no MkDocs) ``ra docs`` suggested ``pip install …`` and
    ``mkdocs build``, neither of which a new shell finds: it names ``.venv/bin/pip`` and
    ``.venv/bin/ra docs`` (which builds the site), and the checkout's path from elsewhere."""
    root = fresh_venv(tmp_path, monkeypatch)
    monkeypatch.chdir(root)
    code, output = invoke()
    assert code == 2
    assert ".venv/bin/pip install -e '.[docs]' && " in output, output
    assert output.rstrip().endswith(f"&& {root / '.venv' / 'bin' / 'ra'} docs"), output
    monkeypatch.chdir(tmp_path)
    code, output = invoke()
    assert f"run ra/.venv/bin/pip install -e '{root}[docs]' && " in output, output  # from the folder above


def test_a_stale_copy_without_mkdocs_is_still_shown_with_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = small_checkout(tmp_path, built=True)
    monkeypatch.setattr(docs, "checkout_root", lambda: root)
    monkeypatch.setattr(docs, "mkdocs_installed", lambda: False)
    assert docs.is_stale(root)
    code, output = invoke("--path")
    assert code == 0
    assert "older than its pages" in output
    assert output.strip().endswith(str(root / "site" / "index.html"))


@needs_mkdocs
def test_builds_a_missing_site_and_knows_when_it_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = small_checkout(tmp_path, built=False)
    monkeypatch.setattr(docs, "checkout_root", lambda: root)
    code, output = invoke("--path")
    assert code == 0, output
    index = root / "site" / "index.html"
    assert "The one page." in index.read_text(encoding="utf-8")
    assert not docs.is_stale(root)
    page = root / "docs" / "index.md"
    os.utime(page, (index.stat().st_mtime + 10, index.stat().st_mtime + 10))
    assert docs.is_stale(root)


@needs_mkdocs
def test_a_failed_build_is_one_line_naming_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = small_checkout(tmp_path, built=False)
    (root / "docs" / "index.md").write_text("# Small\n\n[gone](missing.md)\n", encoding="utf-8")
    monkeypatch.setattr(docs, "checkout_root", lambda: root)
    code, output = invoke("--path")
    assert code == 2
    last = output.strip().splitlines()[-1]
    assert last.startswith("error: mkdocs build failed: WARNING") and "missing.md" in last


# The real command in this checkout (it builds the site and opens it) is tests/test_docs.py's
# test_the_site_builds_strictly: the suite builds the real site once.
