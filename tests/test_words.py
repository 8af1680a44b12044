"""The message catalogue (ra.words, src/ra/locale): complete, consistent, plural-correct."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from tools import catalogue

from ra import words as w


def test_every_message_is_translated_with_the_same_placeholders() -> None:
    assert catalogue.problems() == []


def test_a_missing_translation_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    ru = w.catalogue("ru")
    forms = dict(ru.forms)
    del forms["log.bid"]
    forms["log.pass"] = ("{p} пасует {oops}.",)
    original = w.catalogue
    broken = w.Catalogue("ru", forms, ru.plural_index)
    monkeypatch.setattr(w, "catalogue", lambda lang: broken if lang == "ru" else original(lang))
    found = catalogue.problems()
    assert "ru: log.bid is not translated" in found
    assert "ru: log.pass has unknown placeholders ['{oops}']" in found


@pytest.mark.parametrize("domain", w.domains())
def test_the_pseudo_locale_is_up_to_date(domain: str) -> None:
    stored = (w.LOCALE_DIR / "en_XA" / f"{domain}.po").read_bytes()
    assert stored == catalogue.pseudo_catalogue(domain), "run: python -m tools.catalogue pseudo"


def test_pseudo_text_keeps_placeholders_and_has_no_plain_letters() -> None:
    text = catalogue.pseudo("{p} bids sun {sun} (R4.2).")
    assert "{p}" in text and "{sun}" in text and "R4.2" in text
    assert not re.search(r"[A-Za-z]{2,}", re.sub(r"\{\w+\}|R\d+\.\d+", "", text))


@pytest.mark.parametrize(
    ("n", "tiles", "points"),
    [
        (1, "1 жетон", "1 очко"),
        (2, "2 жетона", "2 очка"),
        (5, "5 жетонов", "5 очков"),
        (11, "11 жетонов", "11 очков"),
        (21, "21 жетон", "21 очко"),
    ],
)
def test_russian_plurals(n: int, tiles: str, points: str) -> None:
    ru = w.words("ru")
    assert (ru("count.tiles", n=n), ru("count.points", n=n)) == (tiles, points)


def test_english_plurals_and_gendered_russian_tile_names() -> None:
    en, ru = w.words("en"), w.words("ru")
    assert [en("tiles.sphinx", n=n) for n in (1, 2)] == ["1 Sphinx", "2 Sphinxes"]
    assert en("tiles.gold", n=2) == "2 Gold tiles"
    # Feminine, masculine and neuter nouns agree with 1, 2 and 5 (and 21 like 1).
    assert [ru("tiles.pyramid", n=n) for n in (1, 2, 5, 21)] == [
        "1 пирамида",
        "2 пирамиды",
        "5 пирамид",
        "21 пирамида",
    ]
    assert [ru("tiles.temple", n=n) for n in (1, 2, 5)] == ["1 храм", "2 храма", "5 храмов"]
    assert [ru("tiles.sanctuary", n=n) for n in (1, 3, 11)] == ["1 святилище", "3 святилища", "11 святилищ"]
    # Kinds not counted by themselves are counted in tiles ("1 жетон золота", not "1 золото").
    assert [ru("tiles.gold", n=n) for n in (1, 2, 5, 21)] == [
        "1 жетон золота",
        "2 жетона золота",
        "5 жетонов золота",
        "21 жетон золота",
    ]


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:ru", "LANG": "en_US.UTF-8"}, "ru"),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"LANG": "en_XA"}, "en_XA"),
    ],
)
def test_the_language_comes_from_the_environment(env: dict[str, str], lang: str) -> None:
    assert w.choose(None, env) == lang


def test_an_asked_for_language_wins_and_an_unknown_one_is_named() -> None:
    assert w.choose("ru", {"LANG": "en_US.UTF-8"}) == "ru"
    assert w.choose("en-XA") == "en_XA"
    with pytest.raises(
        w.UnknownLanguageError, match=r"unknown language 'klingon'; languages are: en, de, ru"
    ):
        w.choose("klingon")


def test_messages_as_data_render_alike_in_every_language() -> None:
    m = w.msg("log.disaster", p=w.Seat(1), tile=w.msg("tile.funeral"), n=2)
    assert json.loads(json.dumps(m.to_json())) == {
        "key": "log.disaster",
        "params": {"p": {"seat": 1}, "tile": {"key": "tile.funeral", "params": {}}, "n": 2},
    }
    names = ["Ann", "Bob"]
    assert w.words("en").render(m, names) == "Funeral strikes Bob: 2 tiles lost."
    assert w.words("en").render(m, names, you=1) == "Funeral strikes you: 2 tiles lost."
    assert w.words("ru").render(m, names, you=1) == "Похороны: вы теряете 2 жетона."
    assert w.words("en").render(m) == "Funeral strikes Player 2: 2 tiles lost."


def test_lists_join_by_the_catalogue() -> None:
    assert w.words("en").join(["a", "b", "c"]) == "a, b and c"
    assert w.words("ru").join(["a", "b"]) == "a и b"
    assert w.words("ru").join(["a"]) == "a"


def test_the_browser_export_maps_plural_categories_to_forms() -> None:
    data = w.export("ru")
    assert data["lang"] == "ru" and data["plural"] == {"one": 0, "few": 1, "many": 2, "other": 2}
    messages = data["messages"]
    assert isinstance(messages, dict)
    assert messages["count.tiles"] == ["{n} жетон", "{n} жетона", "{n} жетонов"]
    assert messages["lobby.new"] == "Новая игра"
    langs = data["langs"]
    assert isinstance(langs, list)
    assert {"code": "ru", "name": "Русский"} in langs
    assert all(lang["code"] != "en-XA" for lang in langs)
    assert w.export("en_XA")["lang"] == "en-XA"


def test_a_new_language_is_a_folder_of_po_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m tools.catalogue init fr`` makes a language every surface offers at once."""
    locale = tmp_path / "locale"
    shutil.copytree(w.LOCALE_DIR, locale)
    monkeypatch.setattr(w, "LOCALE_DIR", locale)
    for cached in (w.source, w.catalogue, w.words, w.locale_folders):
        cached.cache_clear()
    try:
        made = catalogue.init("fr")
        assert {p.name for p in made} == {f"{d}.po" for d in w.domains()}
        assert "fr" in w.languages() and w.choose(None, {"LANG": "fr_FR.UTF-8"}) == "fr"
        assert w.words("fr")("lobby.new") == "New game"  # untranslated: English until translated
        assert {"code": "fr", "name": "English"} in w.export("ru")["langs"]
        assert "fr: lobby.new is not translated" in catalogue.problems()
    finally:
        for cached in (w.source, w.catalogue, w.words, w.locale_folders):
            cached.cache_clear()


def test_every_level_the_lobby_offers_has_words_about_its_strength() -> None:
    """The lobby shows a level's result against the one below it (``ra.bots.LADDER``), or else the
    note ``lobby.levelNote.<level>`` (static/lobby.js): a level with neither would show a bare key."""
    from ra.bots import LADDER, LEVELS

    for lang in w.languages():
        said = w.words(lang)
        bare = [level for level in LEVELS if level not in LADDER and not said.has(f"lobby.levelNote.{level}")]
        assert not bare, (lang, bare)


def test_a_negative_count_takes_the_form_of_its_size() -> None:
    """As CLDR and the browser's Intl.PluralRules: "-2 очка", never "-2 очков" (a reason's
    "worth -2 points"); gettext's C rule would read -2 % 10 as 8."""
    ru = w.words("ru")
    for n in (1, 2, 5, 11, 21, 22):
        assert ru("count.points", n=-n) == "-" + ru("count.points", n=n)
    assert w.words("en")("count.points", n=-1) == "-1 point"


def test_every_error_code_the_server_sends_has_words_in_every_language() -> None:
    """A refusal reaches the page as ``err.<code>``, from the table's socket (``ClientError``)
    or the HTTP API (``ApiError``): without the key a Russian table showed "Ошибка: no game
    '…'" (issues 39 and 41)."""
    web = Path(w.__file__).parent / "web"
    codes = set()
    for path in web.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'ClientError\(\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'ApiError\(\s*\d+,\s*"([a-z_]+)"', text))
    assert {"not_found", "stale", "illegal", "bad_credentials", "too_many_games"} <= codes
    missing = sorted(c for c in codes if not w.words("en").has(f"err.{c}"))
    assert not missing, f"no words for the error codes {missing}"
    for lang in w.languages():  # and translated: not the English left in place
        if lang != w.DEFAULT_LANG:
            same = sorted(c for c in codes if w.words(lang)(f"err.{c}") == w.words("en")(f"err.{c}"))
            assert not same, f"{lang}: error codes still in English: {same}"


def test_no_key_is_declared_twice_in_the_sources() -> None:
    """A key (``msgctxt``) written twice with two English texts would make the later one win
    silently, and translators translate both: every key appears once over all domains."""
    import collections
    import re as re_

    keys = collections.Counter(
        key
        for pot in sorted(w.LOCALE_DIR.glob("*.pot"))
        for key in re_.findall(r'^msgctxt "([^"]+)"', pot.read_text(encoding="utf-8"), re_.MULTILINE)
    )
    assert [k for k, n in keys.items() if n > 1] == []


# --- every message is used ----------------------------------------------------------------------

SRC = Path(w.__file__).parent
"""The package: its Python, the browser's pages and scripts, its data."""

LEARN_PART = r"(?:title|intro|\d+\.(?:text|hint|after))"
"""The parts of a guided-game chapter's texts (``learn.<chapter>.<part>``: :meth:`ra.learn.Chapter.key`)."""


VALUE = r"[\w+-]+"
"""A value only known when the code runs, as one segment of a key (``g10+5``; no dots)."""


def _built(node: object) -> str | None:
    """A key built from pieces (an f-string, ``"a." + b``, ``"x" if c else "y"``) as a pattern,
    if ``node`` builds a string; a constant is its own text, escaped."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(_built(v) or VALUE for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _built(node.left), _built(node.right)
        return None if left is None and right is None else (left or VALUE) + (right or VALUE)
    if isinstance(node, ast.IfExp):
        body, orelse = _built(node.body), _built(node.orelse)
        return None if body is None or orelse is None else f"(?:{body}|{orelse})"
    return None


def _key_pattern(pattern: str | None) -> str | None:
    """``pattern`` if it starts as a key does: a word, then a dot or an underscore."""
    return pattern if pattern is not None and re.match(r"[a-z]\w*(?:\\\.|_)", pattern) else None


def keys_used_in_the_source() -> tuple[set[str], set[str]]:
    """Every key-like string of the package's code, pages and data, and every pattern of keys
    its code builds (with the tools' own: ``tools/``)."""
    import ast

    literals: set[str] = set()
    patterns: set[str] = set()
    code = [*SRC.rglob("*.py"), *(SRC.parents[1] / "tools").rglob("*.py")]
    for path in code:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
            elif (found := _key_pattern(_built(node))) is not None:
                patterns.add(found)
    for path in [*SRC.rglob("*.js"), *SRC.rglob("*.html")]:
        text = path.read_text(encoding="utf-8")
        literals.update(re.findall(r"""(?<=["'`])[A-Za-z_][\w.-]*(?=["'`])""", text))
        for built in re.findall(r"`((?:[\w.-]*\$\{[^{}`]*\})+[\w.-]*)`", text):  # `summary.${sec}.${i}`
            pieces = re.split(r"\$\{[^{}`]*\}", built)
            found = _key_pattern(VALUE.join(re.escape(piece) for piece in pieces))
            patterns.update([found] if found else [])
        for prefix in re.findall(r"""["']([a-z][\w.]*[._])["']\s*\+""", text):  # "tilehelp." + kind
            patterns.add(re.escape(prefix) + VALUE)
    for path in SRC.rglob("*.json"):
        literals.update(re.findall(r'"([\w.]+)"', path.read_text(encoding="utf-8")))
    return literals, patterns


def test_every_catalogue_message_is_used_somewhere_in_the_package() -> None:
    """A message no code shows any more is a translator's wasted work: each key is named in the
    code or pages, built there (``f"tui.action.{kind}"``, ``t(`err.${code}`)``), a ``.you`` form
    of a used one, or Typer's own words (asked for by their English)."""
    import typer

    from ra.learn import load_chapters

    literals, patterns = keys_used_in_the_source()
    # learn.{chapter}.{part} would match any three-part key: the chapters and parts say which.
    patterns.discard(rf"learn\.{VALUE}\.{VALUE}")
    chapters = "|".join(c.id for c in load_chapters())
    patterns.add(rf"learn\.(?:{chapters})\.{LEARN_PART}")
    framework = "\n".join(p.read_text(encoding="utf-8") for p in Path(typer.__file__).parent.rglob("*.py"))

    def used(key: str, entry: w.Entry) -> bool:
        if key in literals or any(re.fullmatch(p, key) for p in patterns):
            return True
        if key.endswith(".you"):
            return used(key.removesuffix(".you"), entry)
        asked = rf"""\b_\(\s*["']{re.escape(entry.singular)}["']"""  # Typer's gettext call: _("Options")
        return key.startswith("click.") and re.search(asked, framework) is not None

    unused = sorted(key for key, entry in w.source().items() if not used(key, entry))
    assert not unused, f"messages nothing shows (remove them from the catalogue): {unused}"


def test_the_check_for_unused_messages_finds_one() -> None:
    literals, patterns = keys_used_in_the_source()
    assert "tui.key.quit" in literals and rf"tui\.action\.{VALUE}" in patterns
    assert rf"hint\.act\.{VALUE}(?:\.ing|)" in patterns  # f"hint.act.{kind}" + (".ing" if g else "")
    assert not any(re.fullmatch(p, "learn.tui.prompt") for p in patterns - {rf"learn\.{VALUE}\.{VALUE}"})
    assert "learn.tui.prompt" not in literals and "puzzle.heading" not in literals
