"""Ra — Reiner Knizia's auction game, as a fast and exact Python library.

>>> import ra
>>> game = ra.Game(players=3, seed=7)
>>> game.phase
'action'
>>> game.apply("draw")

See the README for a tour.  Rule references like (R4.3) point to the sections
of the rules reference packaged with the library, ``ra/data/rules.md`` (``ra rules``
prints it).
"""

from ra.actions import ALL_ACTIONS, KINDS, NUM_ACTIONS, Action, ActionKind
from ra.engine import Game
from ra.errors import (
    EventLogOffError,
    IllegalActionError,
    NotationError,
    NothingToUndoError,
    RaError,
    RecordError,
    SeatError,
    SetupError,
)
from ra.events import AUCTION_KINDS, EVENT_KINDS, AuctionKind, Event, EventKind
from ra.native import native_available
from ra.scoring import CATEGORIES, CATEGORY_LABELS, ScoreBreakdown, score_table_rows
from ra.setup import (
    AUCTION_TRACK_SIZE,
    DISASTER_TIMINGS,
    EPOCHS,
    LONG_2P_GROUPS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RA_TRACK_LENGTH,
    SUN_GROUPS,
    VARIANTS,
    Setup,
)
from ra.state import PHASES, AuctionState, Phase, PlayerState
from ra.tiles import CENTER_SUN, EDITIONS, MAX_SUN, TILE_COUNTS, TILE_IDS, Tile, display_name
from ra.views import PlayerView

__version__ = "0.4.1"

__all__ = [
    "ALL_ACTIONS",
    "AUCTION_KINDS",
    "AUCTION_TRACK_SIZE",
    "CATEGORIES",
    "CATEGORY_LABELS",
    "CENTER_SUN",
    "DISASTER_TIMINGS",
    "EDITIONS",
    "EPOCHS",
    "EVENT_KINDS",
    "KINDS",
    "LONG_2P_GROUPS",
    "MAX_PLAYERS",
    "MAX_SUN",
    "MIN_PLAYERS",
    "NUM_ACTIONS",
    "PHASES",
    "RA_TRACK_LENGTH",
    "SUN_GROUPS",
    "TILE_COUNTS",
    "TILE_IDS",
    "VARIANTS",
    "Action",
    "ActionKind",
    "AuctionKind",
    "AuctionState",
    "Event",
    "EventKind",
    "EventLogOffError",
    "Game",
    "IllegalActionError",
    "NotationError",
    "NothingToUndoError",
    "Phase",
    "PlayerState",
    "PlayerView",
    "RaError",
    "RecordError",
    "ScoreBreakdown",
    "SeatError",
    "Setup",
    "SetupError",
    "Tile",
    "__version__",
    "display_name",
    "native_available",
    "score_table_rows",
]
