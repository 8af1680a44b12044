"""Ra — Reiner Knizia's auction game, as a fast and exact Python library.

>>> import ra
>>> game = ra.Game(players=3, seed=7)
>>> game.phase
'action'
>>> game.apply("draw")

See the README for a tour.  Rule references like (R4.3) point to the sections
of the project's RULES.md.
"""

from ra.actions import ALL_ACTIONS, NUM_ACTIONS, Action
from ra.engine import Game
from ra.errors import IllegalActionError, NotationError, RaError, RecordError
from ra.events import Event
from ra.scoring import CATEGORIES, ScoreBreakdown
from ra.setup import LONG_2P_GROUPS, RA_TRACK_LENGTH, SUN_GROUPS, VARIANTS, Setup
from ra.state import AuctionState, PlayerState
from ra.tiles import EDITIONS, TILE_COUNTS, TILE_IDS, Tile, display_name
from ra.views import PlayerView

__version__ = "0.1.0"

__all__ = [
    "ALL_ACTIONS",
    "CATEGORIES",
    "EDITIONS",
    "LONG_2P_GROUPS",
    "NUM_ACTIONS",
    "RA_TRACK_LENGTH",
    "SUN_GROUPS",
    "TILE_COUNTS",
    "TILE_IDS",
    "VARIANTS",
    "Action",
    "AuctionState",
    "Event",
    "Game",
    "IllegalActionError",
    "NotationError",
    "PlayerState",
    "PlayerView",
    "RaError",
    "RecordError",
    "ScoreBreakdown",
    "Setup",
    "Tile",
    "__version__",
    "display_name",
]
