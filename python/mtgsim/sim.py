"""High-volume simulation: many whole games from deck lists, played inside Rust by built-in
policies, in parallel, with the interpreter released.

>>> import mtgsim
>>> r = mtgsim.simulate(mtgsim.sim.EXAMPLE_DECKS, games=40, seed=1)
>>> r.games, r.players
(40, 2)
>>> bool(r.finished.all())
True

Game ``i`` is played from the seed ``derive_seed(seed, i)``, alone, so the results are the same
whatever the number of workers or how the range is split (``start=`` plays a later slice of the
same run).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from mtgsim._core import CardDB, _simulate
from mtgsim.decklist import DeckList

#: A deck: card names, or a parsed deck list.
Deck = Union[Sequence[str], DeckList]

#: The built-in example: a Fractured Sanity mill deck against a 60-card creature deck.
EXAMPLE_DECKS: tuple[list[str], list[str]] = (
    ["Island"] * 20
    + ["Swamp"] * 4
    + ["Fractured Sanity"] * 4
    + ["Glimpse the Unthinkable"] * 4
    + ["Maddening Cacophony"] * 4
    + ["Lórien Revealed"] * 4
    + ["Joint Exploration"] * 4
    + ["Monstrous War-Leech"] * 4
    + ["Ruin Crab"] * 4
    + ["Bruvac the Grandiloquent"] * 2
    + ["Jace, Wielder of Mysteries"] * 2
    + ["Street Wraith"] * 4,
    ["Forest"] * 12
    + ["Plains"] * 12
    + ["Grizzly Bears"] * 8
    + ["Savannah Lions"] * 8
    + ["Joraga Warcaller"] * 8
    + ["Hill Giant"] * 4
    + ["Walking Corpse"] * 4
    + ["Ornithopter"] * 4,
)

#: Why a player lost, by the code in :attr:`SimResult.loss`.
LOSS_REASONS = {0: "did not lose", 1: "life", 2: "empty_library", 3: "poison", 4: "conceded", 5: "opponent_won"}

_COLUMNS = ("winner", "finished", "turns", "loss", "life", "library", "graveyard", "milled", "spells", "kicks", "cycles", "lands")


@dataclass(frozen=True)
class SimResult:
    """One entry per game (per-player columns are ``games x players``): numpy arrays."""

    players: int
    seed: int
    start: int
    winner: npt.NDArray[np.int8]
    """The winner, or -1 for a draw or a game stopped at the turn limit."""
    finished: npt.NDArray[np.bool_]
    turns: npt.NDArray[np.uint32]
    """The turn in progress when the game ended (or stopped)."""
    loss: npt.NDArray[np.uint8]
    """Why each player lost (see ``LOSS_REASONS``), 0 if they didn't."""
    life: npt.NDArray[np.int32]
    library: npt.NDArray[np.uint32]
    graveyard: npt.NDArray[np.uint32]
    milled: npt.NDArray[np.uint32]
    """Cards each player milled from their own library."""
    spells: npt.NDArray[np.uint32]
    kicks: npt.NDArray[np.uint32]
    cycles: npt.NDArray[np.uint32]
    lands: npt.NDArray[np.uint32]
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return int(self.winner.shape[0])

    def win_rate(self, player: int) -> tuple[float, float, float]:
        """The player's win rate with a 95% Wilson confidence interval: (rate, low, high)."""
        return _wilson(int((self.winner == player).sum()), self.games)

    def summary(self) -> dict[str, Any]:
        """Means, quantiles and win rates with confidence intervals."""
        done = self.turns[self.finished]
        q = [0.1, 0.25, 0.5, 0.75, 0.9]
        out: dict[str, Any] = {
            "games": self.games,
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds > 0 else None,
            "finished": int(self.finished.sum()),
            "draws_or_unfinished": int((self.winner < 0).sum()),
            "end_turn": {
                "mean": float(done.mean()) if done.size else None,
                "quantiles": {str(k): float(v) for k, v in zip(q, np.quantile(done, q))} if done.size else {},
            },
            "players": [],
        }
        for p in range(self.players):
            rate, lo, hi = self.win_rate(p)
            reasons = {LOSS_REASONS[int(c)]: int(n) for c, n in zip(*np.unique(self.loss[:, p], return_counts=True)) if c}
            out["players"].append(
                {
                    "player": p,
                    "win_rate": rate,
                    "win_rate_95ci": [lo, hi],
                    "losses": reasons,
                    **{name: float(getattr(self, name)[:, p].mean()) for name in ("life", "library", "milled", "spells", "kicks", "cycles", "lands")},
                }
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        """Every column as lists, plus the summary: JSON-ready."""
        d: dict[str, Any] = {"players": self.players, "seed": self.seed, "start": self.start, "summary": self.summary()}
        for name in _COLUMNS:
            d[name] = getattr(self, name).tolist()
        return d

    def concat(self, other: SimResult) -> SimResult:
        """This run's games followed by ``other``'s (the next slice of the same run)."""
        if (other.players, other.seed, other.start) != (self.players, self.seed, self.start + self.games):
            raise ValueError("only the next slice of the same run (same seed, starting where this one ends) can follow")
        cols = {name: np.concatenate([getattr(self, name), getattr(other, name)]) for name in _COLUMNS}
        return SimResult(self.players, self.seed, self.start, seconds=self.seconds + other.seconds, **cols)


def _wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float, float]:
    if n == 0:
        return (math.nan, math.nan, math.nan)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (p, max(0.0, c - h), min(1.0, c + h))


def simulate(
    decks: Sequence[Deck] = EXAMPLE_DECKS,
    games: int = 1000,
    *,
    seed: int = 0,
    policies: str | Sequence[str] = "goldfish",
    max_turns: int = 50,
    workers: int | None = None,
    db: CardDB | None = None,
    start: int = 0,
    starting_life: int = 20,
    hand_size: int = 7,
    progress: Callable[[int, int], None] | None = None,
    chunk: int | None = None,
) -> SimResult:
    """Plays games ``start .. start+games`` of the run ``seed``: each a whole game from the
    decks (card names or ``DeckList``s), every decision made by the players' built-in
    ``policies`` ("goldfish", "random", "first"; one for all or one per player), up to
    ``max_turns`` turns. ``workers`` threads (all cores by default) share the games; the
    interpreter is released meanwhile. ``progress(done, total)`` is called between chunks; a
    KeyboardInterrupt stops at the next chunk and nothing is returned."""
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise ValueError(f"the number of games must be a positive integer, not {games!r}")
    if start < 0:
        raise ValueError(f"start must not be negative, not {start}")
    n = len(decks)
    pols = [policies] * n if isinstance(policies, str) else list(policies)
    threads = 0 if workers is None else workers
    if threads < 0:
        raise ValueError(f"workers must be positive, not {workers}")
    size = chunk or max(1024, min(100_000, games // 20))
    deck_lists = [list(d.cards()) if isinstance(d, DeckList) else list(d) for d in decks]
    parts: list[dict[str, Any]] = []
    players = n
    t0 = time.perf_counter()
    done = 0
    while done < games:
        k = min(size, games - done)
        players, cols = _simulate(deck_lists, seed, pols, max_turns, start + done, start + done + k, threads, starting_life, hand_size, db)
        parts.append({name: np.frombuffer(data, dtype=dtype) for name, data, dtype in cols})
        done += k
        if progress is not None:
            progress(done, games)
    seconds = time.perf_counter() - t0
    merged: dict[str, Any] = {}
    for name in _COLUMNS:
        col = np.concatenate([p[name] for p in parts])
        merged[name] = col.reshape(games, players) if col.shape[0] == games * players and name not in ("winner", "finished", "turns") else col
    return SimResult(players, seed, start, seconds=seconds, **merged)


def default_workers() -> int:
    return os.cpu_count() or 1


def dumps(result: SimResult) -> str:
    return json.dumps(result.to_dict())
