"""A running summary of many games: counts, sums and histograms of turn numbers, so that what
:meth:`SimResult.summary` reports needs memory that does not grow with the number of games.

Every figure of the summary comes from a :class:`Tally`, whether the games' columns are kept
or not; the quantiles are exact (read off the histograms with numpy's default, linear
interpolation), so a run summarised chunk by chunk reports what the whole columns would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from mtgsim.errors import InvalidPlayerError

#: Why a player lost, by the code in :attr:`SimResult.loss`.
LOSS_REASONS = {0: "did not lose", 1: "life", 2: "empty_library", 3: "poison", 4: "conceded", 5: "opponent_won"}

#: The per-player columns the summary averages.
AVERAGED = ("life", "library", "milled", "spells", "kicks", "cycles", "lands")

QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)

I64 = npt.NDArray[np.int64]


def _same_counts(a: I64, b: I64) -> bool:
    """The same histogram: equal counts, however many zeros either has at its end."""
    n = max(a.size, b.size)
    return bool(np.array_equal(np.pad(a, (0, n - a.size)), np.pad(b, (0, n - b.size))))


def _add_hist(hist: I64, values: npt.NDArray[Any]) -> I64:
    """``hist`` with ``values`` (non-negative integers) counted in, grown as needed."""
    if values.size == 0:
        return hist
    counts = np.bincount(values.astype(np.int64, copy=False))
    if counts.size > hist.size:
        hist = np.pad(hist, (0, counts.size - hist.size))
    hist[: counts.size] += counts
    return hist


def _sum_hists(a: I64, b: I64) -> I64:
    out = np.zeros(max(a.size, b.size), dtype=np.int64)
    out[: a.size] += a
    out[: b.size] += b
    return out


def hist_quantiles(hist: I64, qs: tuple[float, ...] = QUANTILES) -> dict[str, float]:
    """The quantiles of the values a histogram counts, as ``np.quantile`` gives them for the
    values themselves (linear interpolation between order statistics); empty if it counts none."""
    n = int(hist.sum())
    if n == 0:
        return {}
    cum = np.cumsum(hist)

    def at(rank: int) -> float:  # the rank-th smallest value (0-based)
        return float(np.searchsorted(cum, rank, side="right"))

    out = {}
    for q in qs:
        h = (n - 1) * q
        lo = math.floor(h)
        a, b = at(lo), at(min(lo + 1, n - 1))
        out[str(q)] = a + (b - a) * (h - lo)
    return out


def hist_mean(hist: I64) -> float | None:
    n = int(hist.sum())
    return float((np.arange(hist.size, dtype=np.float64) * hist).sum() / n) if n else None


@dataclass(eq=False)
class Tally:
    """What a summary needs of a run, added to chunk by chunk (see :meth:`add`). Two tallies
    are equal when they counted the same (however the games were split into chunks)."""

    players: int
    stop: tuple[str, ...] = ()
    record: tuple[str, ...] = ()
    games: int = 0
    finished: int = 0
    draws_or_unfinished: int = 0
    #: Games that ended (finished), by the turn they ended on.
    end_turns: I64 = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: ``players`` histograms: the games each player won, by turn.
    win_turns: list[I64] = field(default_factory=list)
    #: ``players x 6``: losses by reason code (see ``LOSS_REASONS``).
    losses: I64 = field(default_factory=lambda: np.zeros((0, 6), dtype=np.int64))
    #: Per averaged column, its total per player.
    totals: dict[str, I64] = field(default_factory=dict)
    #: Games ended by each stop condition.
    stopped: I64 = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: Per recorded condition, the games it held in, by the turn it first held.
    recorded: list[I64] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tally):
            return NotImplemented
        if (self.players, self.stop, self.record, self.games, self.finished, self.draws_or_unfinished) != (
            other.players,
            other.stop,
            other.record,
            other.games,
            other.finished,
            other.draws_or_unfinished,
        ):
            return False
        hists = [(self.end_turns, other.end_turns), *zip(self.win_turns, other.win_turns), *zip(self.recorded, other.recorded)]
        arrays = [(self.losses, other.losses), (self.stopped, other.stopped), *((self.totals[k], other.totals.get(k)) for k in self.totals)]
        return (
            self.totals.keys() == other.totals.keys()
            and all(_same_counts(a, b) for a, b in hists)
            and all(b is not None and np.array_equal(a, b) for a, b in arrays)
        )

    def __post_init__(self) -> None:
        p = self.players
        if not self.win_turns:
            self.win_turns = [np.zeros(0, dtype=np.int64) for _ in range(p)]
        if self.losses.shape != (p, 6):
            self.losses = np.zeros((p, 6), dtype=np.int64)
        for name in AVERAGED:
            self.totals.setdefault(name, np.zeros(p, dtype=np.int64))
        if self.stopped.size != len(self.stop):
            self.stopped = np.zeros(len(self.stop), dtype=np.int64)
        if not self.recorded:
            self.recorded = [np.zeros(0, dtype=np.int64) for _ in self.record]

    def add(self, cols: dict[str, npt.NDArray[Any]]) -> None:
        """Counts in a chunk of games given as columns (shaped as in :class:`SimResult`)."""
        winner, finished, turns = cols["winner"], cols["finished"], cols["turns"]
        self.games += int(winner.shape[0])
        self.finished += int(finished.sum())
        self.draws_or_unfinished += int((winner < 0).sum())
        self.end_turns = _add_hist(self.end_turns, turns[finished])
        for p in range(self.players):
            self.win_turns[p] = _add_hist(self.win_turns[p], turns[winner == p])
            self.losses[p] += np.bincount(cols["loss"][:, p], minlength=6)[:6]
        for name in AVERAGED:
            self.totals[name] += cols[name].sum(axis=0, dtype=np.int64)
        for k in range(len(self.stop)):
            self.stopped[k] += int((cols["stopped"] == k).sum())
        for k in range(len(self.record)):
            col = cols["recorded"][:, k]
            self.recorded[k] = _add_hist(self.recorded[k], col[col > 0])

    def merge(self, other: Tally) -> Tally:
        """The tally of both runs' games together."""
        if (other.players, other.stop, other.record) != (self.players, self.stop, self.record):
            raise ValueError("only tallies of the same players and conditions can be merged")
        return Tally(
            self.players,
            self.stop,
            self.record,
            games=self.games + other.games,
            finished=self.finished + other.finished,
            draws_or_unfinished=self.draws_or_unfinished + other.draws_or_unfinished,
            end_turns=_sum_hists(self.end_turns, other.end_turns),
            win_turns=[_sum_hists(a, b) for a, b in zip(self.win_turns, other.win_turns)],
            losses=self.losses + other.losses,
            totals={name: self.totals[name] + other.totals[name] for name in AVERAGED},
            stopped=self.stopped + other.stopped,
            recorded=[_sum_hists(a, b) for a, b in zip(self.recorded, other.recorded)],
        )

    def win_rate(self, player: int) -> tuple[float, float, float]:
        """The player's win rate with a 95% Wilson confidence interval: (rate, low, high)."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(self.win_turns):
            raise InvalidPlayerError(f"no player {player!r} in games of {len(self.win_turns)} players")
        return wilson(int(self.win_turns[player].sum()), self.games)

    def summary(self, seconds: float) -> dict[str, Any]:
        """Means, quantiles and win rates with confidence intervals (see ``SimResult.summary``)."""
        out: dict[str, Any] = {
            "games": self.games,
            "seconds": seconds,
            "games_per_second": self.games / seconds if seconds > 0 else None,
            "finished": self.finished,
            "draws_or_unfinished": self.draws_or_unfinished,
            "end_turn": {"mean": hist_mean(self.end_turns), "quantiles": hist_quantiles(self.end_turns)},
            "players": [],
        }
        if self.stop:
            out["stopped"] = {c: int(self.stopped[k]) for k, c in enumerate(self.stop)}
        if self.record:
            out["recorded"] = {}
            for k, c in enumerate(self.record):
                held = int(self.recorded[k].sum())
                out["recorded"][c] = {
                    "held_in": held,
                    "rate": held / self.games if self.games else math.nan,
                    "mean_turn": hist_mean(self.recorded[k]),
                    "quantiles": hist_quantiles(self.recorded[k]),
                }
        for p in range(self.players):
            rate, lo, hi = self.win_rate(p)
            out["players"].append(
                {
                    "player": p,
                    "win_rate": rate,
                    "win_rate_95ci": [lo, hi],
                    "losses": {LOSS_REASONS[c]: int(n) for c, n in enumerate(self.losses[p]) if c and n},
                    **{name: float(self.totals[name][p]) / self.games if self.games else math.nan for name in AVERAGED},
                }
            )
        return out


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float, float]:
    """The rate ``k / n`` with its Wilson score interval."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # At k = 0 or k = n the bound is exactly the rate (rounding would put it just beside).
    return (p, 0.0 if k == 0 else max(0.0, c - h), 1.0 if k == n else min(1.0, c + h))
