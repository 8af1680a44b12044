"""What every bot is: given a player's view, choose one of the legal actions."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ra.actions import Action
from ra.views import PlayerView
from ra.words import DEFAULT_LANG, Msg, Param, msg, words


class BotSpecError(ValueError):
    """A bot name, level, option or setting that makes no bot.  The text is English;
    ``why`` is the same as a message (:class:`ra.words.Msg`) any front end renders in its own
    language, and ``reason`` the part after the spec (what a front end says after its own
    "… is not a bot spec:"), the same as ``why`` unless the error names the spec."""

    def __init__(self, why: Msg, reason: Msg | str | None = None) -> None:
        super().__init__(words(DEFAULT_LANG).render(why))
        self.why = why
        self.reason: Msg | str = why if reason is None else reason


def refuse(key: str, **params: Param) -> BotSpecError:
    """A :class:`BotSpecError` from the catalogue (``bots.err.*``)."""
    return BotSpecError(msg(key, **params))


@runtime_checkable
class Bot(Protocol):
    """A computer player.  ``choose`` sees only a :class:`ra.PlayerView` (R9.3)."""

    name: str

    def choose(self, view: PlayerView) -> Action:
        """One of ``view.legal_actions()``."""
        ...


class SeededBot:
    """Base class: a name and a private random generator, so games can be reproduced."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"a bot's seed is an integer or None, got {seed!r}")
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def settings(self) -> dict[str, object]:
        """The bot's configuration beyond its seed (shown by ``repr``)."""
        return {}

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.settings().items())
        return f"{type(self).__name__}(seed={self.seed!r}{extra})"


class RandomBot(SeededBot):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: PlayerView) -> Action:
        return self.rng.choice(view.legal_actions())
