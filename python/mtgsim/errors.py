"""The exceptions mtgsim raises. Every one derives from :class:`MtgsimError`; where a built-in
exception fits too (a bad value, a missing thing, a bad index) it is also a subclass of that.
An action that raises has changed nothing: the game is exactly as it was (CR 733)."""

from __future__ import annotations

__all__ = [
    "MtgsimError",
    "UnknownCardError",
    "InvalidPlayerError",
    "NoSuchObjectError",
    "WrongZoneError",
    "InvalidArgumentError",
    "IllegalActionError",
    "CannotPayError",
    "DecisionPendingError",
    "NoDecisionPendingError",
    "GameOverError",
    "PlayerLeftError",
    "InvalidAnswerError",
    "UnscriptedDecisionError",
    "InvalidCardError",
    "MalformedCostError",
    "SnapshotError",
]


class MtgsimError(Exception):
    """Base class of every error the engine reports."""


class UnknownCardError(MtgsimError, LookupError):
    """No card with that name is defined."""


class InvalidPlayerError(MtgsimError, IndexError):
    """A player index outside the game."""


class NoSuchObjectError(MtgsimError, LookupError):
    """No object has that id now. A card that changes zones becomes a new object (CR 400.7)."""


class WrongZoneError(MtgsimError, LookupError):
    """The object exists but is not in the zone the call requires."""


class InvalidArgumentError(MtgsimError, ValueError):
    """A malformed or out-of-range argument: a negative count, an unknown zone, a bad description."""


class IllegalActionError(MtgsimError):
    """The rules do not allow this action now."""


class CannotPayError(IllegalActionError):
    """A cost can't be paid, e.g. milling more cards than the library holds (CR 701.17b)."""


class DecisionPendingError(IllegalActionError):
    """A decision must be answered before anything else happens."""


class NoDecisionPendingError(IllegalActionError):
    """An answer was given but nothing was asked."""


class GameOverError(IllegalActionError):
    """The game has ended."""


class PlayerLeftError(IllegalActionError):
    """The player has lost and left the game."""


class InvalidAnswerError(MtgsimError, ValueError):
    """An answer that is not one of the decision's legal answers."""


class UnscriptedDecisionError(MtgsimError):
    """In strict mode, a decision came up that no scripted answer covers."""


class InvalidCardError(MtgsimError, ValueError):
    """A card definition is invalid; the message names the card and the field."""


class MalformedCostError(MtgsimError, ValueError):
    """A mana cost string that can't be parsed."""


class SnapshotError(MtgsimError, ValueError):
    """A saved game that can't be restored."""
