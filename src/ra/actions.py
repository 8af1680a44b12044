"""Actions and their notation.

An :class:`Action` is a small immutable value.  Every possible action exists
exactly once (they are interned at import), so ``legal_actions()`` hands out
shared objects and comparing actions is an identity check.  Notation:

=================  =====================================================
``draw``           draw a tile from the bag (R3.3)
``ra``             invoke Ra (R3.4)
``god <tile>``     discard a God tile to take that tile from the track (R3.5)
``done``           stop taking tiles with God tiles (R3.5)
``bid <sun>``      bid a face-up sun (R4.2)
``pass``           do not bid (R4.1)
``discard <tile>`` lose one tile of that kind to a disaster (R5.2, R5.4)
=================  =====================================================

``str(action)`` gives the notation and ``Action.parse(str(action)) is action``.
Each action also has a dense integer ``index`` (``0 <= index < NUM_ACTIONS``),
handy as a policy-vector position for learning agents.
"""

from __future__ import annotations

from typing import Any, Final, Literal, cast, get_args

from ra.errors import NotationError
from ra.tiles import CIVILIZATIONS, MAX_SUN, MONUMENTS, TILE_IDS, Tile

# Integer codes of the kinds, used by the engine's dispatch.
DRAW: Final = 0
INVOKE: Final = 1
GOD: Final = 2
DONE: Final = 3
BID: Final = 4
PASS: Final = 5
DISCARD: Final = 6

ActionKind = Literal["draw", "ra", "god", "done", "bid", "pass", "discard"]
"""The kinds of decisions (``KINDS[code]`` is the kind of an action's integer ``code``)."""
KINDS: Final[tuple[str, ...]] = get_args(ActionKind)
_CODE_OF_KIND: Final[dict[str, int]] = {k: i for i, k in enumerate(KINDS)}
# A God tile may take any tile of the auction track but another God (R3.5); Ra
# tiles never lie on the auction track.
GOD_TARGETS: Final[tuple[Tile, ...]] = tuple(t for t in Tile if t not in (Tile.RA, Tile.GOD))
# Only Unrest and Earthquake leave a choice (R5.2).
DISCARD_TARGETS: Final[tuple[Tile, ...]] = (*CIVILIZATIONS, *MONUMENTS)

_SYNTAX: Final = "expected draw, ra, god <tile>, done, bid <sun>, pass or discard <tile>"


class Action:
    """One decision: ``Action("bid", 9)``, ``Action("god", "pharaoh")``, ``Action.parse("draw")``.

    Attributes: ``kind`` (one of ``KINDS``), ``tile`` (a :class:`Tile` for god and
    discard, else ``None``), ``sun`` (the sun number for bid, else ``None``),
    ``index`` (dense integer id).  ``code`` and ``arg`` are the engine's integer
    encoding (kind code, and tile or sun number or -1).
    """

    __slots__ = ("kind", "tile", "sun", "code", "arg", "index", "_text")

    kind: str
    tile: Tile | None
    sun: int | None
    code: int
    arg: int
    index: int
    _text: str

    def __new__(cls, kind: str, arg: str | int | Tile | None = None) -> Action:
        code = _CODE_OF_KIND.get(kind)
        if code is None:
            raise NotationError(f"unknown action kind {kind!r}; {_SYNTAX}")
        if code in (DRAW, INVOKE, DONE, PASS):
            if arg is not None:
                raise NotationError(f"{kind!r} takes no argument")
            return _SIMPLE[code]
        if code == BID:
            if isinstance(arg, bool) or not isinstance(arg, int | str):
                raise NotationError(f"bid needs a sun number, got {arg!r}")
            if isinstance(arg, str):
                # Plain ASCII digits only: int() would also take "+9", "1_0" or "९".
                if not (arg.isascii() and arg.isdigit()) or len(arg) > 3:
                    raise NotationError(f"bid needs a sun number (digits 1-{MAX_SUN}), got {arg!r}")
            sun = int(arg)
            if not 1 <= sun <= MAX_SUN:
                raise NotationError(f"there is no sun {sun}: suns are numbered 1-{MAX_SUN} (R1.3)")
            return _BIDS[sun]
        if arg is None:
            raise NotationError(f"{kind!r} needs a tile, e.g. '{kind} pharaoh'")
        try:
            tile = Tile.parse(arg)  # type: ignore[arg-type]
        except ValueError as err:
            raise NotationError(str(err)) from None
        if code == GOD:
            action = _GODS.get(tile)
            if action is None:
                raise NotationError(
                    f"a God tile cannot take {tile.id}: it takes any non-God tile of the auction track (R3.5)"
                )
            return action
        action = _DISCARDS.get(tile)
        if action is None:
            raise NotationError(
                f"'discard {tile.id}' is never a choice: only civilization tiles (Unrest) and "
                "monuments (Earthquake) are chosen (R5.2)"
            )
        return action

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action written as ``text`` (case and extra spaces do not matter)."""
        if not isinstance(text, str):
            raise NotationError(f"notation must be a string, got {type(text).__name__}")
        words = text.split()
        if not words:
            raise NotationError(f"empty action; {_SYNTAX}")
        action = _BY_TEXT.get(" ".join(words).lower())
        if action is not None:
            return action
        kind = words[0].lower()
        if kind not in _CODE_OF_KIND:
            raise NotationError(f"unknown action {text!r}; {_SYNTAX}")
        rest = "_".join(words[1:]) if len(words) > 1 else None
        return cls(kind, rest)

    @classmethod
    def coerce(cls, action: Action | str) -> Action:
        """``action`` itself, or the action its notation names (:class:`ra.NotationError` otherwise)."""
        if type(action) is Action:
            return action
        if isinstance(action, str):
            return cls.parse(action)
        raise NotationError(f"expected an Action or its notation, got {type(action).__name__}")

    @staticmethod
    def from_index(index: int) -> Action:
        """The action whose ``index`` is ``index``."""
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise ValueError(f"no action has index {index!r} (0..{NUM_ACTIONS - 1})")
        try:
            return ALL_ACTIONS[index]
        except IndexError:
            raise ValueError(f"no action has index {index!r} (0..{len(ALL_ACTIONS) - 1})") from None

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action.parse({self._text!r})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Action is immutable")

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (Action.from_index, (self.index,))

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self


def _make(code: int, arg: int, tile: Tile | None, sun: int | None, text: str) -> Action:
    action = object.__new__(Action)
    for name, value in (
        ("kind", KINDS[code]),
        ("tile", tile),
        ("sun", sun),
        ("code", code),
        ("arg", arg),
        ("index", len(_ALL)),
        ("_text", text),
    ):
        object.__setattr__(action, name, value)
    _ALL.append(action)
    return action


_ALL: list[Action] = []
_SIMPLE: Final[dict[int, Action]] = {
    code: _make(code, -1, None, None, KINDS[code]) for code in (DRAW, INVOKE, DONE, PASS)
}
_GODS: Final[dict[Tile, Action]] = {t: _make(GOD, t, t, None, f"god {t.id}") for t in GOD_TARGETS}
_BIDS: Final[dict[int, Action]] = {s: _make(BID, s, None, s, f"bid {s}") for s in range(1, MAX_SUN + 1)}
_DISCARDS: Final[dict[Tile, Action]] = {
    t: _make(DISCARD, t, t, None, f"discard {t.id}") for t in DISCARD_TARGETS
}
ALL_ACTIONS: Final[tuple[Action, ...]] = tuple(_ALL)
"""Every possible action, ``ALL_ACTIONS[a.index] is a``: draw, ra, done, pass, the 21
God takes (by tile), the 16 bids (by sun), the 13 discards (by tile).  The order is
pinned by a test: learning agents may rely on it."""
NUM_ACTIONS: Final = len(ALL_ACTIONS)
_BY_TEXT: Final[dict[str, Action]] = {a._text: a for a in ALL_ACTIONS}

# Shared instances and lookup tables indexed by the engine's ints.
DRAW_ACTION: Final = _SIMPLE[DRAW]
INVOKE_ACTION: Final = _SIMPLE[INVOKE]
DONE_ACTION: Final = _SIMPLE[DONE]
PASS_ACTION: Final = _SIMPLE[PASS]
# Lookup tables for the engine.  Positions with no such action hold None and are
# never read (typed as Action for the hot path's sake).
GOD_BY_TILE: Final = cast("tuple[Action, ...]", tuple(_GODS.get(Tile(i)) for i in range(len(TILE_IDS))))
DISCARD_BY_TILE: Final = cast(
    "tuple[Action, ...]", tuple(_DISCARDS.get(Tile(i)) for i in range(len(TILE_IDS)))
)
BID_BY_SUN: Final = cast("tuple[Action, ...]", (None, *(_BIDS[s] for s in range(1, MAX_SUN + 1))))
