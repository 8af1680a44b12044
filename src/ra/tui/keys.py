"""The keys a person moves with, one set for ``ra play`` and ``ra learn``: letters for the
fixed actions (``d`` draw, ``r`` invoke Ra, ``p`` pass, ``n`` done), a bid as the sun's own
number (``5`` bids sun 5; ``1`` then ``3`` bids 13), digits 1-9 for God tiles (in track
order) and discards."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ra.actions import ALL_ACTIONS, Action
from ra.engine import Game
from ra.errors import NotationError
from ra.labels import action_label
from ra.tiles import EDITIONS
from ra.words import DEFAULT_LANG, Msg, msg

LETTERS = {"draw": "d", "ra": "r", "pass": "p", "done": "n"}
"""The keys of the fixed actions."""


@dataclass(frozen=True)
class Pressed:
    """What a key did: chose an ``action``, or kept the digits ``typed`` of a longer sun
    waiting, or was refused (``refusal``, a message)."""

    action: Action | None = None
    typed: str = ""
    refusal: Msg | None = None


class MoveKeys:
    """The keys of one position's legal actions for the person to move."""

    def __init__(self, legal: Sequence[Action] = (), track: Sequence[int] = ()) -> None:
        if any(a.kind == "god" for a in legal):  # God tiles in track order
            legal = sorted(legal, key=lambda a: track.index(int(a.tile)) if a.tile is not None else -1)
        self.keys: dict[str, Action] = {}
        """Letters and digits: each one's action."""
        self.bids: dict[str, Action] = {}
        """Each sun that may be bid, by its number."""
        self.named: list[tuple[str, Action]] = []
        """The actions other than bids, in order, with their key ('' past the ninth digit)."""
        digit = 0
        for action in legal:
            if action.kind == "bid":
                self.bids[str(action.sun)] = action
                continue
            key = LETTERS.get(action.kind)
            if key is None:
                digit += 1
                key = str(digit) if digit <= 9 else ""
            if key:
                self.keys[key] = action
            self.named.append((key, action))

    @classmethod
    def of(cls, game: Game) -> MoveKeys:
        """The keys of ``game``'s legal actions now."""
        return cls(game.legal_actions(), list(game.track_tiles()))

    def __bool__(self) -> bool:
        return bool(self.keys or self.bids)

    def signature(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """What the buttons of these keys are made of: the named actions in order (their keys
        follow from it) and the suns that may be bid; alike signatures show alike buttons."""
        return tuple(a.index for _, a in self.named), tuple(f"{s}:{a.index}" for s, a in self.bids.items())

    def bid_keys(self, sun: str) -> str:
        """The keys that bid ``sun``: its digits, then Enter when a longer sun also begins with
        them (sun 1 while 10-16 may be bid: ``1⏎``)."""
        longer = any(other.startswith(sun) and other != sun for other in self.bids)
        return f"{sun}⏎" if longer else sun

    def by_action(self) -> dict[Action, str]:
        """Each action's keys (as the hints panel shows them)."""
        keys = {a: k for k, a in self.keys.items()}
        return keys | {a: self.bid_keys(sun) for sun, a in self.bids.items()}

    def press(self, key: str, typed: str = "") -> Pressed | None:
        """What ``key`` does after the digits ``typed`` of a bid; None when it is no key of
        these actions."""
        if self.bids and (key.isdigit() or (key == "enter" and typed)):
            return self._bid(key, typed)
        action = self.keys.get(key)
        return None if action is None else Pressed(action)

    def _bid(self, key: str, typed: str) -> Pressed:
        """``5`` bids 5; ``1`` then ``3`` bids 13 (Enter after ``1`` bids 1 when 10-16 are
        possible too)."""
        if key == "enter":
            action = self.bids.get(typed)
            if action is None:
                return Pressed(refusal=msg("tui.error.no_sun", sun=typed))
            return Pressed(action)
        typed += key
        longer = any(s.startswith(typed) and s != typed for s in self.bids)
        if typed in self.bids and not longer:
            return Pressed(self.bids[typed])
        if longer:
            return Pressed(typed=typed)
        return Pressed(refusal=msg("tui.error.no_sun_bid", sun=typed, suns=tuple(self.bids)))


def _plain(text: str) -> str:
    """Typed words compared loosely: case, colons and extra spaces do not matter."""
    return " ".join(re.sub(r"[:：]", " ", text).lower().split())


@cache
def _labelled(lang: str) -> dict[str, Action]:
    """Every action by the words of its button in ``lang`` and in English, in every edition
    (``ziehen``, ``gebot 9``, ``gott gold``, ``бог золото``, ``lose art``)."""
    found: dict[str, Action] = {}
    for language in dict.fromkeys((DEFAULT_LANG, lang)):
        for edition in EDITIONS:
            for action in ALL_ACTIONS:
                found.setdefault(_plain(action_label(action, edition, language)), action)
    return found


def typed_action(text: str, lang: str = DEFAULT_LANG) -> Action:
    """The action a person typed: the notation (``bid 9``) or its button's words in their
    language or in English (``Gebot 9``, ``ставка 9``); :class:`ra.NotationError` otherwise."""
    try:
        return Action.parse(text)
    except NotationError:
        action = _labelled(lang).get(_plain(text))
        if action is None:
            raise
        return action
