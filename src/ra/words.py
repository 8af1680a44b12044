"""Every word the program shows, in every language: one gettext catalogue.

The catalogue is a set of standard gettext files in ``ra/locale``, one domain per
surface (``messages`` for the game log, the tiles and the browser; ``tui``, ``cli``,
``hints`` …):

* ``<domain>.pot`` is the source: each message has a stable key (its ``msgctxt``,
  e.g. ``lobby.new``), unique over all domains, and its English text (``msgid``, with
  ``msgid_plural`` where a count chooses the form);
* ``<lang>/<domain>.po`` (``ru/``, the pseudo-locale ``en_XA/``) translate it, with
  the plural forms of their language (``Plural-Forms``; Russian has three).

Babel reads the files; the plural form of a count comes from the file's own
``Plural-Forms`` formula (Python) or, in the browser, from ``Intl.PluralRules``
through the category table that :func:`export` computes.  A third language is one
more directory of ``.po`` files: nothing else lists the languages.

A message may be kept as data, :class:`Msg` (a key and its parameters, which may
be other messages, lists of messages and seats), and rendered in any language:
the game log and the hints' reasons travel that way, so the browser renders the
very same message in its own language.

>>> en, ru = words("en"), words("ru")
>>> en("log.bid", p="Ann", sun=9), ru("log.bid", p="Аня", sun=9)
('Ann bids sun 9.', 'Аня ставит диск 9.')
>>> [ru("tiles.pharaoh", n=n) for n in (1, 2, 5, 11, 21)]
['1 фараон', '2 фараона', '5 фараонов', '11 фараонов', '21 фараон']
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeAlias, TypeVar

from typing_extensions import TypeAliasType, TypedDict

if TYPE_CHECKING:  # Babel loads when words are first asked for, not on ``import ra`` (issue 56)
    from babel import Locale
    from babel.messages.catalog import Catalog

LOCALE_DIR: Final = Path(__file__).parent / "locale"
DEFAULT_LANG: Final = "en"
PSEUDO_LANGS: Final = frozenset({"en_XA"})
"""Pseudo-locales: complete catalogues for tests, not offered in language switches."""

ENV_VARS: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language comes from when none is asked for, in gettext's order."""

_PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")
PLURAL_CATEGORIES: Final = ("zero", "one", "two", "few", "many", "other")


class UnknownLanguageError(ValueError):
    """A language was asked for that has no catalogue."""


# --- messages as data ---------------------------------------------------------


class SeatJson(TypedDict):
    """A seat in a message's JSON form."""

    seat: int


ParamJson = TypeAliasType("ParamJson", "str | int | MsgJson | SeatJson | list[ParamJson]")


class MsgJson(TypedDict):
    """A message's JSON form: what the browser renders with the same catalogue."""

    key: str
    params: dict[str, ParamJson]


@dataclass(frozen=True)
class Seat:
    """A player, by seat: rendered as their name (or "you" for the viewer)."""

    seat: int


@dataclass(frozen=True)
class Msg:
    """A message as data: a catalogue key and its parameters (the count is ``n``)."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def to_json(self) -> MsgJson:
        """The message as JSON-able data, the same shape the browser renders."""
        return {"key": self.key, "params": {k: _param_json(v) for k, v in self.params.items()}}


Param: TypeAlias = "str | int | Msg | Seat | tuple[Msg | str, ...]"


def sentence(text: str) -> str:
    """``text`` as a sentence of its own: its first letter in capitals (a reason or a verdict
    that the catalogue words as a clause, shown alone; a name at its start is left as it is).

    >>> sentence("the lot is worth 3 points")
    'The lot is worth 3 points'
    """
    return text[:1].upper() + text[1:]


def msg(key: str, **params: Param) -> Msg:
    """``Msg(key, params)`` with keyword parameters."""
    return Msg(key, params)


E = TypeVar("E", bound=Exception)


def worded(kind: type[E], key: str, /, **params: Param) -> E:
    """An exception of ``kind`` whose text is the English of a catalogue message and whose
    ``why`` is the message itself, for a front end to say in its own language (one text in
    one place: the catalogue)."""
    why = msg(key, **params)
    err = kind(words(DEFAULT_LANG).render(why))
    err.why = why  # type: ignore[attr-defined]
    return err


def _param_json(value: Param) -> ParamJson:
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, Seat):
        return SeatJson(seat=value.seat)
    if isinstance(value, tuple):
        return [_param_json(v) for v in value]
    return value


# --- the catalogue --------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One message of the source: its English singular and (if counted) plural."""

    key: str
    singular: str
    plural: str | None


def _read(path: Path, locale: str | None = None) -> Catalog:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=locale, charset="utf-8")


def domains() -> tuple[str, ...]:
    """The catalogue's domains (one ``.pot`` each)."""
    return tuple(sorted(p.stem for p in LOCALE_DIR.glob("*.pot")))


@cache
def source() -> dict[str, Entry]:
    """Every message of the catalogue by key, with its English text."""
    out: dict[str, Entry] = {}
    for m in (m for d in domains() for m in _read(LOCALE_DIR / f"{d}.pot")):
        if not m.id or m.context is None:
            continue
        if isinstance(m.id, (tuple, list)):
            out[m.context] = Entry(m.context, str(m.id[0]), str(m.id[1]))
        else:
            out[m.context] = Entry(m.context, str(m.id), None)
    return out


@cache
def locale_folders() -> tuple[str, ...]:
    """The folders of ``.po`` files: read once (the log and every language choice ask for them;
    ``tools.catalogue init``, which adds one, clears this)."""
    return tuple(sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir() and any(p.glob("*.po"))))


def languages(include_pseudo: bool = False) -> tuple[str, ...]:
    """English and every language with a catalogue directory (pseudo-locales on request)."""
    found = locale_folders()
    return (DEFAULT_LANG, *(lang for lang in found if include_pseudo or lang not in PSEUDO_LANGS))


def babel_locale(lang: str) -> Locale:
    """Babel's locale for a language (a pseudo-locale borrows its base language's data)."""
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(lang.split("_", maxsplit=1)[0])


@dataclass(frozen=True)
class Catalogue:
    """One language's forms of every message and its plural rule."""

    lang: str
    forms: Mapping[str, tuple[str, ...]]
    plural_index: Callable[[int], int]

    def text(self, key: str, n: int | None = None) -> str:
        """The raw text of ``key`` (the form for count ``n``), English where untranslated."""
        forms = self.forms.get(key)
        if forms is None:
            return key if self.lang == DEFAULT_LANG else catalogue(DEFAULT_LANG).text(key, n)
        if len(forms) == 1 or n is None:
            return forms[0]
        # A negative count takes the form of its size, as CLDR and the browser's Intl.PluralRules
        # do ("-2 очка" as "2 очка"; gettext's C rules would read -2 % 10 as 8).
        return forms[min(self.plural_index(abs(n)), len(forms) - 1)]


def _english_index(n: int) -> int:
    return 0 if n == 1 else 1


@cache
def catalogue(lang: str) -> Catalogue:
    """The catalogue of a language (English: the source itself)."""
    if lang == DEFAULT_LANG:
        forms = {
            k: (e.singular,) if e.plural is None else (e.singular, e.plural) for k, e in source().items()
        }
        return Catalogue(lang, forms, _english_index)
    if lang not in languages(include_pseudo=True):
        raise _unknown(lang)
    cats = [
        _read(path, None if lang in PSEUDO_LANGS else lang)
        for path in sorted((LOCALE_DIR / lang).glob("*.po"))
    ]
    forms_of: dict[str, tuple[str, ...]] = {}
    for m in (m for cat in cats for m in cat):
        if not m.id or m.context is None:
            continue
        strings = tuple(str(x) for x in m.string) if isinstance(m.string, (tuple, list)) else (str(m.string),)
        if all(strings) and not m.fuzzy:
            forms_of[m.context] = tuple(strings)
    return Catalogue(lang, forms_of, gettext.c2py(cats[0].plural_expr))


def _unknown(lang: str) -> UnknownLanguageError:
    return worded(UnknownLanguageError, "lang.unknown", lang=repr(lang), langs=", ".join(languages()))


# --- choosing a language ----------------------------------------------------------


def normalize(tag: str) -> str | None:
    """The catalogue a language tag or locale name asks for (``ru_RU.UTF-8`` -> ``ru``,
    ``en-XA`` -> ``en_XA``), or None if there is none."""
    base = tag.split(".", maxsplit=1)[0].split("@", maxsplit=1)[0].replace("-", "_").strip()
    if not base or base in ("C", "POSIX"):
        return None
    have = {lang.lower(): lang for lang in languages(include_pseudo=True)}
    parts = base.split("_")
    for candidate in ("_".join(parts[:2]), parts[0]):
        if candidate.lower() in have:
            return have[candidate.lower()]
    return None


def choose(requested: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``requested`` (``--lang``), else the environment, else English.

    An unknown ``requested`` language raises :class:`UnknownLanguageError` naming the known ones.
    """
    if requested:
        lang = normalize(requested)
        if lang is None:
            raise _unknown(requested)
        return lang
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        for tag in env.get(var, "").split(":"):
            lang = normalize(tag) if tag else None
            if lang is not None:
                return lang
    return DEFAULT_LANG


# --- rendering ------------------------------------------------------------------


class Words:
    """The words of one language: ``words(key, **params)`` and :meth:`render` for data."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.catalogue = catalogue(lang)
        self.locale = babel_locale(lang)

    def __call__(self, key: str, /, **params: Param) -> str:
        return self.render(Msg(key, params))

    def number(self, x: float, digits: int = 0, signed: bool = False, trim: bool = False) -> str:
        """``x`` as this language writes numbers (Babel, CLDR): ``digits`` decimals ("1,234.5",
        "1.234,5", "1 234,5"), all of them unless ``trim`` drops trailing zeros; ``signed``
        writes a plus sign before a positive number."""
        from babel.numbers import format_decimal

        pattern = "#,##0" + ("." + ("#" if trim else "0") * digits if digits else "")
        if signed:
            pattern = f"+{pattern};-{pattern}"
        return format_decimal(x, format=pattern, locale=self.locale)

    def has(self, key: str) -> bool:
        """Whether the catalogue has a message ``key``."""
        return key in source()

    def render(self, message: Msg | str, names: Sequence[str] | None = None, you: int | None = None) -> str:
        """The text of a message; seats become ``names`` (the seat ``you`` is addressed as "you":
        a message whose subject ``p`` is that seat uses its ``.you`` form where there is one)."""
        if isinstance(message, str):
            return message
        key = message.key
        subject = message.params.get("p")
        if isinstance(subject, Seat) and subject.seat == you and self.has(key + ".you"):
            key += ".you"
        count = message.params.get("n")
        text = self.catalogue.text(key, count if isinstance(count, int) else None)
        return _PLACEHOLDER.sub(lambda m: self._param(m, message.params, names, you), text)

    def _param(
        self, m: re.Match[str], params: Mapping[str, Param], names: Sequence[str] | None, you: int | None
    ) -> str:
        value = params.get(m.group(1))
        if value is None:
            return m.group(0)
        if isinstance(value, Seat):
            return self.name(value.seat, names)
        if isinstance(value, Msg):
            return self.render(value, names, you)
        if isinstance(value, tuple):
            return self.join([self.render(v, names, you) for v in value])
        return str(value)

    def name(self, seat: int, names: Sequence[str] | None) -> str:
        """A player's name by seat (``Player 2`` without names)."""
        if names is not None and 0 <= seat < len(names):
            return names[seat]
        return self("player.numbered", n=seat + 1)

    def join(self, parts: Iterable[str]) -> str:
        """Parts joined as this language lists things (``a, b and c``), by the catalogue's
        ``list.*`` patterns, so that Python and the browser join alike."""
        items = list(parts)
        if len(items) < 2:
            return "".join(items)
        head = items[0]
        for item in items[1:-1]:
            head = self("list.middle", a=head, b=item)
        return self("list.end" if len(items) > 2 else "list.two", a=head, b=items[-1])


@cache
def words(lang: str = DEFAULT_LANG) -> Words:
    """The words of ``lang`` (cached)."""
    return Words(lang)


# --- the browser's copy -----------------------------------------------------------


def plural_categories(lang: str) -> dict[str, int]:
    """For each CLDR plural category of ``lang`` (what ``Intl.PluralRules`` says), the
    catalogue's form index: the browser picks forms by category."""
    rule = babel_locale(lang).plural_form
    index = catalogue(lang).plural_index
    table: dict[str, int] = {}
    for n in range(0, 1000):
        table.setdefault(rule(n), index(n))
    table.setdefault("other", max(table.values(), default=0))
    return {c: table[c] for c in PLURAL_CATEGORIES if c in table}


def bcp47(lang: str) -> str:
    """A catalogue's name as a browser language tag (``en_XA`` -> ``en-XA``)."""
    return lang.replace("_", "-")


class Export(TypedDict):
    """A catalogue as the browser loads it."""

    lang: str
    plural: dict[str, int]
    langs: list[dict[str, str]]
    messages: dict[str, str | list[str]]


def export(lang: str) -> Export:
    """The catalogue of ``lang`` as the JSON the browser loads: every message's forms,
    the plural categories' form indices and the languages a switch offers."""
    cat = catalogue(lang)
    messages: dict[str, str | list[str]] = {}
    for key in source():
        forms = cat.forms.get(key) or catalogue(DEFAULT_LANG).forms[key]
        messages[key] = forms[0] if len(forms) == 1 else list(forms)
    return {
        "lang": bcp47(lang),
        "plural": plural_categories(lang),
        "langs": [{"code": bcp47(code), "name": words(code)("lang.self")} for code in languages()],
        "messages": messages,
    }


# --- the pseudo-locale ------------------------------------------------------------

_ACCENTS: Final = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "áƀçðéƒĝĥíĵķļɱñóþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻṀÑÓÞǪŔŠŢÚṼŴẊÝŽ",
        strict=True,
    )
)
_PROTECTED: Final = re.compile(
    r"(\{[^{}]*\}|%\(\w+\)[sd]|\[/?(?:blue|bold|red|green|yellow|cyan|magenta|dim|italic)?\]|(?<!\w)--?[a-z][\w-]*|<[^>]*>|&\w+;|R\d+(?:\.\d+)?)"
)


_CODE: Final = re.compile(r"(`[^`]*`)")


def pseudo_text(text: str, wrap: bool = True, keep_code: bool = False) -> str:
    """The pseudo-locale's form of an English text: every letter accented, about a third longer,
    in brackets; placeholders, markup, options and rule numbers kept (and in a document,
    ``keep_code``, its code spans: in messages they are labels shown on screen)."""
    if keep_code:
        pieces = _CODE.split(text)
        return "".join(p if i % 2 else pseudo_text(p, False) for i, p in enumerate(pieces))
    parts = _PROTECTED.split(text)
    out = "".join(p if i % 2 else "".join(_ACCENTS.get(c, c) for c in p) for i, p in enumerate(parts))
    if not wrap:
        return out
    letters = sum(c.isalpha() for c in text)
    return f"[{out} {'·' * max(1, letters // 3)}]"
