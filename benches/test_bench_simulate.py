"""Whole games (issue 6): the built-in example (a Fractured Sanity mill deck against a 60-card
creature deck), goldfish against goldfish, played by `mtgsim.simulate` inside Rust — games per
second with one worker and with two, and the scaling between them, measured in the same run."""

from __future__ import annotations

from typing import Any

from conftest import RESULTS, TARGETS, record

import mtgsim

GAMES = 2_000


def test_simulate_one_worker(benchmark: Any, rounds: int) -> None:
    benchmark.pedantic(lambda: mtgsim.simulate(games=GAMES, seed=1, workers=1, chunk=GAMES), rounds=max(3, rounds // 3), iterations=1)
    record("whole goldfish game, 1 worker", "batch", benchmark, GAMES)


def test_simulate_two_workers(benchmark: Any, rounds: int) -> None:
    benchmark.pedantic(lambda: mtgsim.simulate(games=GAMES, seed=1, workers=2, chunk=GAMES), rounds=max(3, rounds // 3), iterations=1)
    record("whole goldfish game, 2 workers", "batch", benchmark, GAMES)
    one = RESULTS.get("whole goldfish game, 1 worker", {}).get("batch")
    two = RESULTS["whole goldfish game, 2 workers"].get("batch")
    if one and two:
        TARGETS["whole goldfish game, 2 workers"] = f"{1 / two:,.0f} games/s; scaling 1->2 workers {one / two:.2f}x (targets: 250,000 games/s, 1.8x)"
