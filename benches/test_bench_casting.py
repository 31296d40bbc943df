"""Casting (issue 3): cast and resolve Everflowing Chalice kicked three times (multikicker
{2}, so {6} in all) with automatic payment from untapped lands — per Python call and in batch —
and the total-cost computation alone."""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest

from conftest import RESULTS, record
from positions import casting_position as position
from mtgsim import Game, Op

CALLS = 200
REPS = 20_000


def test_cast_and_resolve_per_call(benchmark: Any, rounds: int) -> None:
    g, chalice = position()

    def setup() -> tuple[tuple[list[Game]], dict[str, Any]]:
        return ([g.clone() for _ in range(CALLS)],), {}

    def run(games: list[Game]) -> None:
        for x in games:
            x.cast(chalice, kick=3)
            x.resolve_top()

    benchmark.pedantic(run, setup=setup, rounds=rounds, iterations=1)
    record("cast+resolve, multikicker x3", "per call", benchmark, CALLS, "per call <= 3 µs, batch <= 1 µs")


def test_cast_and_resolve_batch(benchmark: Any, rounds: int) -> None:
    g, chalice = position()
    ops = [Op.cast(chalice, 3), Op.resolve_top()]
    benchmark.pedantic(lambda: g.run_batch(ops, REPS), rounds=rounds, iterations=1)
    record("cast+resolve, multikicker x3", "batch", benchmark, REPS)
    # The batch restores the position each repetition: paired rounds give the net cost.
    diffs = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        g.run_batch([], REPS)
        t1 = time.perf_counter()
        g.run_batch(ops, REPS)
        t2 = time.perf_counter()
        diffs.append(((t2 - t1) - (t1 - t0)) / REPS)
    RESULTS["cast+resolve, multikicker x3"]["batch net"] = max(statistics.median(diffs), 0.0)
    r = g.run_batch(ops, 10)
    assert (r.repetitions, r.operations) == (10, 20)


def test_cost_computation_per_call(benchmark: Any, rounds: int) -> None:
    g, chalice = position()

    def run() -> None:
        for _ in range(CALLS):
            g.cost_of(chalice, kick=3)

    benchmark.pedantic(run, rounds=rounds, iterations=1)
    record("total cost of multikicker x3", "per call", benchmark, CALLS)
    assert g.cost_of(chalice, kick=3) == ("{6}", True)


def test_cost_computation_batch(benchmark: Any, rounds: int) -> None:
    g, chalice = position()
    ops = [Op.cost_of(chalice, 3)]
    benchmark.pedantic(lambda: g.run_batch(ops, REPS, restore=False), rounds=rounds, iterations=1)
    record("total cost of multikicker x3", "batch", benchmark, REPS)
    RESULTS["total cost of multikicker x3"]["batch net"] = RESULTS["total cost of multikicker x3"]["batch"]
