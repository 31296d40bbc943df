"""mtgsim: a fast, rules-exact Magic: The Gathering engine with a Rust core.

>>> import mtgsim
>>> g = mtgsim.Game(2, seed=1)
>>> _ = g.add_cards(1, "library", ["Island"] * 20)
>>> [len(m) for m in g.mill_opponents(0, 14)]   # Fractured Sanity: each opponent mills fourteen
[14]
>>> len(g.library(1))
6

Conventions: libraries and graveyards are listed top card first; object ids change whenever a
card changes zones (CR 400.7); a rejected action raises a :class:`MtgsimError` and changes
nothing. See ``mtgsim._core`` (its stub file) for the whole API.

Conjure and "duplicate" (Alchemy terms, not in the Comprehensive Rules) mean, in this engine:
conjure creates a new real card (not a token, not a copy) from outside the game in the named
zone, owned by the player who conjures it; a duplicate of a spell is a new card with the printed
characteristics of that spell's card, and none of the spell's choices (kicked status, X,
targets) carry over; a spell that is a copy with no card is duplicated by name.

Bulk simulation (:func:`simulate`) scales out to a Dask cluster with
:func:`mtgsim.distributed.simulate_on_dask` (``pip install 'mtgsim[dask]'``; not imported here).
"""

from __future__ import annotations

from mtgsim._core import (
    Action,
    ActionSpace,
    BatchResult,
    CardDB,
    CardDef,
    Decision,
    Game,
    GameObject,
    Op,
    Rng,
    __version__,
    card,
    card_names,
    derive_seed,
)
from mtgsim.errors import (
    CannotPayError,
    DecisionPendingError,
    GameOverError,
    IllegalActionError,
    InvalidAnswerError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidPlayerError,
    MalformedCostError,
    MtgsimError,
    NoDecisionPendingError,
    NoSuchObjectError,
    PlayerLeftError,
    SnapshotError,
    UnknownCardError,
    UnscriptedDecisionError,
    WrongZoneError,
)
from mtgsim.decklist import DeckEntry, DeckList, DeckListError, UnknownDeckCardError
from mtgsim.agents import GameBatch
from mtgsim.sim import CONDITIONS, EXAMPLE_DECKS, SimResult, simulate, simulate_from

__all__ = [
    "Action",
    "ActionSpace",
    "BatchResult",
    "CardDB",
    "CardDef",
    "Decision",
    "Game",
    "GameObject",
    "Op",
    "Rng",
    "__version__",
    "card",
    "card_names",
    "derive_seed",
    "EXAMPLE_DECKS",
    "SimResult",
    "simulate",
    "simulate_from",
    "GameBatch",
    "CONDITIONS",
    "DeckEntry",
    "DeckList",
    "DeckListError",
    "UnknownDeckCardError",
    "CannotPayError",
    "DecisionPendingError",
    "GameOverError",
    "IllegalActionError",
    "InvalidAnswerError",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidPlayerError",
    "MalformedCostError",
    "MtgsimError",
    "NoDecisionPendingError",
    "NoSuchObjectError",
    "PlayerLeftError",
    "SnapshotError",
    "UnknownCardError",
    "UnscriptedDecisionError",
    "WrongZoneError",
]
