"""Summary-only simulation (``keep_games=False``): a run keeps counts and histograms instead of
one row per game, so its memory doesn't grow with the number of games, and its summary is the
one the kept columns give."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtgsim
from mtgsim.tally import QUANTILES, Tally, hist_mean, hist_quantiles


def _close(a: Any, b: Any) -> bool:
    """Equal, floats to rounding (a sum over a histogram and numpy's mean round differently)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return bool(a == b)


def _without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("seconds", "games_per_second")}


def _reference_summary(r: mtgsim.SimResult) -> dict[str, Any]:
    """The summary worked out straight from the columns with numpy, as a check on the tally."""
    done = r.turns[r.finished]
    out: dict[str, Any] = {
        "games": r.games,
        "finished": int(r.finished.sum()),
        "draws_or_unfinished": int((r.winner < 0).sum()),
        "end_turn": {
            "mean": float(done.mean()) if done.size else None,
            "quantiles": {str(q): float(v) for q, v in zip(QUANTILES, np.quantile(done, QUANTILES))} if done.size else {},
        },
        "players": [],
    }
    if r.stop:
        out["stopped"] = {c: int((r.stopped == k).sum()) for k, c in enumerate(r.stop)}
    if r.record:
        out["recorded"] = {}
        for k, c in enumerate(r.record):
            held = r.recorded[:, k][r.recorded[:, k] > 0]
            out["recorded"][c] = {
                "held_in": int(held.size),
                "rate": held.size / r.games,
                "mean_turn": float(held.mean()) if held.size else None,
                "quantiles": {str(q): float(v) for q, v in zip(QUANTILES, np.quantile(held, QUANTILES))} if held.size else {},
            }
    for p in range(r.players):
        rate, lo, hi = r.win_rate(p)
        codes, counts = np.unique(r.loss[:, p], return_counts=True)
        out["players"].append(
            {
                "player": p,
                "win_rate": float((r.winner == p).mean()),
                "win_rate_95ci": [lo, hi],
                "losses": {mtgsim.sim.LOSS_REASONS[int(c)]: int(n) for c, n in zip(codes, counts) if c},
                **{name: float(getattr(r, name)[:, p].mean()) for name in ("life", "library", "milled", "spells", "kicks", "cycles", "lands")},
            }
        )
    return out


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"policies": "random", "max_turns": 12},
        {"stop": ["library_empty:1"], "record": ["library_empty:1", "hand_empty:0", "turn:4"]},
        {"policies": ["goldfish", "first"], "record": ["life_at_most:0:19"]},
    ],
)
def test_a_summary_only_run_reports_what_the_kept_columns_give(kwargs: dict[str, Any]) -> None:
    kept = mtgsim.simulate(games=2500, seed=11, chunk=700, **kwargs)
    only = mtgsim.simulate(games=2500, seed=11, chunk=700, keep_games=False, **kwargs)
    assert kept.kept and not only.kept
    assert only.games == 2500
    assert _close(_without_timing(only.summary()), _without_timing(kept.summary()))
    # And both are what numpy says of the columns themselves.
    assert _close(_without_timing(kept.summary()), _reference_summary(kept))
    for p in range(kept.players):
        assert only.win_rate(p) == kept.win_rate(p)


def test_a_summary_only_run_keeps_no_row_per_game() -> None:
    r = mtgsim.simulate(games=3000, seed=2, chunk=1024, keep_games=False, record=["turn:3"])
    assert r.games == 3000
    assert r.winner.shape == (0,) and r.turns.shape == (0,)
    assert r.life.shape == (0, 2) and r.recorded.shape == (0, 1)
    # The empty columns own their (empty) memory: a view would keep a whole chunk's buffer alive.
    assert all(getattr(r, name).base is None for name in mtgsim.sim._COLUMNS)
    d = r.to_dict()
    assert "winner" not in d and d["summary"]["games"] == 3000


def test_summary_only_slices_concatenate_to_the_whole_run() -> None:
    whole = mtgsim.simulate(games=1800, seed=5, chunk=600, record=["library_empty:1"])
    first = mtgsim.simulate(games=1000, seed=5, keep_games=False, record=["library_empty:1"])
    rest = mtgsim.simulate(games=800, seed=5, start=1000, keep_games=False, record=["library_empty:1"])
    joined = first.concat(rest)
    assert not joined.kept and joined.games == 1800
    assert _close(_without_timing(joined.summary()), _without_timing(whole.summary()))
    # A kept slice followed by a summary-only one keeps no columns either.
    mixed = mtgsim.simulate(games=1000, seed=5, record=["library_empty:1"]).concat(rest)
    assert not mixed.kept and _close(_without_timing(mixed.summary()), _without_timing(whole.summary()))
    assert all(getattr(mixed, name).base is None for name in mtgsim.sim._COLUMNS)  # the kept rows aren't held on to


def test_continuations_can_be_summarised_only() -> None:
    g = mtgsim.Game.from_decks(list(mtgsim.sim.EXAMPLE_DECKS), seed=4)
    g.set_policy(0, "goldfish")
    g.set_policy(1, "goldfish")
    g.play(until=4)
    kept = mtgsim.simulate_from(g, 600, seed=1, chunk=250)
    only = mtgsim.simulate_from(g, 600, seed=1, chunk=250, keep_games=False)
    assert _close(_without_timing(only.summary()), _without_timing(kept.summary()))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=300))
def test_quantiles_and_means_read_off_a_histogram_are_numpys(values: list[int]) -> None:
    hist = np.bincount(np.array(values, dtype=np.int64))
    want = np.quantile(np.array(values), QUANTILES)
    got = hist_quantiles(hist)
    assert list(got) == [str(q) for q in QUANTILES]
    for q, w in zip(QUANTILES, want):
        assert math.isclose(got[str(q)], float(w), rel_tol=1e-12, abs_tol=1e-9)
    mean = hist_mean(hist)
    assert mean is not None and math.isclose(mean, float(np.mean(values)), rel_tol=1e-12)


def test_an_empty_histogram_has_no_quantiles_or_mean() -> None:
    assert hist_quantiles(np.zeros(5, dtype=np.int64)) == {}
    assert hist_mean(np.zeros(0, dtype=np.int64)) is None


def test_tallies_of_different_runs_do_not_merge() -> None:
    with pytest.raises(ValueError, match="same players and conditions"):
        Tally(2).merge(Tally(3))
    with pytest.raises(ValueError, match="same players and conditions"):
        Tally(2, stop=("lost:0",)).merge(Tally(2))


def test_the_wilson_interval_holds_the_rate_at_zero_and_all() -> None:
    from mtgsim.tally import wilson

    assert wilson(10, 10)[2] == 1.0 and wilson(100, 100)[2] == 1.0
    assert wilson(0, 100)[1] == 0.0 and wilson(0, 7)[1] == 0.0
    rate, lo, hi = wilson(3, 10)
    assert lo < rate < hi


def test_win_rate_of_a_player_not_in_the_games_is_an_error() -> None:
    r = mtgsim.simulate(games=3, seed=1)
    for bad in (-1, 2, True):
        with pytest.raises(mtgsim.InvalidPlayerError):
            r.win_rate(bad)
    assert 0.0 <= r.win_rate(1)[0] <= 1.0


def test_results_compare_equal_by_their_games_not_their_timing() -> None:  # SimResult docs
    a = mtgsim.simulate(games=600, seed=5, chunk=200, record=["library_empty:1"])
    b = mtgsim.simulate(games=600, seed=5, chunk=300, workers=1, record=["library_empty:1"])
    assert a == b  # the same games, whatever the chunks and threads (and however long they took)
    slices = mtgsim.simulate(games=250, seed=5, record=["library_empty:1"]).concat(mtgsim.simulate(games=350, seed=5, start=250, record=["library_empty:1"]))
    assert slices == a  # concatenated tallies count the same (their histograms may differ in trailing zeros)
    assert a != mtgsim.simulate(games=600, seed=6, record=["library_empty:1"])
    assert a != mtgsim.simulate(games=600, seed=5)  # nothing recorded
    summary_only = mtgsim.simulate(games=600, seed=5, keep_games=False, record=["library_empty:1"])
    assert summary_only != a and summary_only == mtgsim.simulate(games=600, seed=5, chunk=100, keep_games=False, record=["library_empty:1"])
    assert a != "a result" and a.tally != 3
    with pytest.raises(TypeError):
        hash(a)  # mutable numpy columns: not hashable
