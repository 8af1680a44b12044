"""What every bot is: given a player's view, choose one of the legal actions."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ra.actions import Action
from ra.views import PlayerView


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
