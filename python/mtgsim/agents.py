"""Many games at once for agents that learn from batches: :class:`GameBatch`.

>>> import mtgsim
>>> b = mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, games=8, seed=1)
>>> obs = b.observe()
>>> obs["action_mask"].shape == (8, b.space.size)
True
>>> codes = [int(m.nonzero()[0][0]) for m in obs["action_mask"]]   # the first legal code
>>> reward, terminated = b.step(codes)
>>> reward.shape, terminated.dtype
((8,), dtype('bool'))
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from mtgsim._core import ActionSpace, CardDB, Game
from mtgsim._core import GameBatch as _GameBatch
from mtgsim.decklist import DeckList
from mtgsim.errors import InvalidArgumentError
from mtgsim.observe import OBJECT_FEATURES, action_code
from mtgsim.sim import _deck_lists

__all__ = ["GameBatch"]


class GameBatch:
    """``games`` single-agent games stepped together in one Rust call (in parallel, with the
    interpreter released): the agent plays ``seat`` by action codes of ``space``, the other
    seats play by the built-in ``opponent`` policy. Game ``i`` of the run comes from
    ``derive_seed(seed, i)``; a game that ends is replaced at once by the run's next game, so
    every slot always holds a game waiting for the agent. Decks with which 32 games in a row
    end (or loop) before the agent has a decision are an ``InvalidArgumentError``."""

    def __init__(
        self,
        decks: Sequence[Sequence[str] | DeckList],
        games: int,
        *,
        seed: int = 0,
        seat: int = 0,
        opponent: str = "goldfish",
        extra: int = 64,
        db: CardDB | None = None,
    ) -> None:
        self._b = _GameBatch(_deck_lists(decks), games, seed, seat, opponent, extra, db)
        self.space: ActionSpace = self._b.space
        self.games = games

    def __len__(self) -> int:
        return self.games

    def game(self, i: int) -> Game:
        """A copy of game ``i`` as it stands."""
        return self._b.game(i)

    def observe(self) -> dict[str, npt.NDArray[np.generic]]:
        """The agent's view in every game, stacked: ``global`` (games x G), ``objects`` (games x
        slots x 8) and ``action_mask`` (games x space.size), laid out as in ``mtgsim.observe``.
        A legal action the space can't express (an object beyond its slots: make the batch with
        more ``extra`` slots) raises ``InvalidArgumentError`` naming the game."""
        g, rows, masks = self._b._observe()
        n = self.games
        return {
            "global": np.frombuffer(g, dtype="<f4").reshape(n, -1).copy(),
            "objects": np.frombuffer(rows, dtype="<i4").reshape(n, self.space.slots, len(OBJECT_FEATURES)).copy(),
            "action_mask": np.frombuffer(masks, dtype=np.uint8).reshape(n, self.space.size).astype(np.int8),
        }

    def step(self, codes: Sequence[int] | npt.NDArray[np.integer]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Takes ``codes[i]`` in game ``i``. Returns the agent's rewards (+1 win, -1 loss, 0)
        and which games ended (and were replaced). An illegal code raises, naming the game,
        and no game changes."""
        try:
            plain = [action_code(c) for c in codes]
        except TypeError as e:
            raise InvalidArgumentError(str(e)) from None
        reward, done = self._b._step(plain)
        return np.frombuffer(reward, dtype="<f4").copy(), np.frombuffer(done, dtype=np.uint8).astype(bool)


