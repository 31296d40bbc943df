"""Observations for agents: each player's view of a game as fixed-size numpy arrays.

``Game.observation(player)`` is the same view as a plain dict. Both show public zones whole
and hidden zones (hands, libraries) only as far as that player knows them: their own hand,
cards revealed to everyone, cards they looked at (scry) until their library is shuffled, cards
put into a hidden zone from a public one. An unknown card shows nothing — not its name, nor
its object id, nor where it is — only the sizes of the zones.

Layout (``observation_shapes(space)``; P players, N = ``space.slots``):

- ``global`` float32, ``7 + 6P``: turn, step (0 untap ... 11 cleanup), active player, player
  with priority (-1 none), the observing player, the deciding player (-1 none), game over
  (0/1); then per player: life, library size, hand size, graveyard size, poison counters,
  lost (0/1).
- ``objects`` int32, ``N x 8``, one row per object slot (a card keeps its slot all game):
  visible (0/1), zone (1 library, 2 hand, 3 graveyard, 4 battlefield, 5 stack, 6 exile,
  7 command, 8 outside), owner, controller, card (a positive code from the card's name alone,
  the same in every game), tapped (0/1), position in its zone (0 = top of a library, graveyard or the stack),
  +1/+1 minus -1/-1 counters. Rows of objects the player can't see are all zeros.
- ``action_mask`` int8, ``space.size``: the legal action codes, if the player is deciding.
"""

from __future__ import annotations

import operator

import numpy as np
import numpy.typing as npt

from mtgsim._core import ActionSpace, Game

__all__ = ["OBJECT_FEATURES", "observation_arrays", "observation_shapes"]

#: Columns of the ``objects`` array.
OBJECT_FEATURES = ("visible", "zone", "owner", "controller", "card", "tapped", "position", "counters")


def observation_shapes(space: ActionSpace) -> dict[str, tuple[int, ...]]:
    """The shape of each array of :func:`observation_arrays` for games of this space."""
    return {"global": (7 + 6 * space.players,), "objects": (space.slots, len(OBJECT_FEATURES)), "action_mask": (space.size,)}


def observation_arrays(game: Game, player: int, space: ActionSpace) -> dict[str, npt.NDArray[np.generic]]:
    """``player``'s view of ``game`` as arrays (see the module's layout)."""
    if space.players != game.num_players:
        raise ValueError(f"the action space is for {space.players} players, the game has {game.num_players}")
    g, rows = game._observation_arrays(player, space.slots)
    mask = np.zeros(space.size, dtype=np.int8)
    pending = game.pending
    if pending is not None and pending.player == player:
        mask[:] = np.fromiter(game.action_mask(space), dtype=np.int8, count=space.size)
    return {
        "global": np.frombuffer(g, dtype="<f4").copy(),
        "objects": np.frombuffer(rows, dtype="<i4").reshape(space.slots, len(OBJECT_FEATURES)).copy(),
        "action_mask": mask,
    }


def action_code(action: object) -> int:
    """An action code as a Python int: an integer (numpy's and 0-d integer arrays too), never a
    bool or a float cut short. Anything else is a ``TypeError``."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"an action is an integer code, not {action!r}")
    try:
        return operator.index(action)  # type: ignore[arg-type]  # anything else raises TypeError
    except TypeError:
        raise TypeError(f"an action is an integer code, not {type(action).__name__} {action!r}") from None
