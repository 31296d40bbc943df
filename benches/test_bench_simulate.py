"""Whole games (issue 6): the built-in example (a Fractured Sanity mill deck against a 60-card
creature deck), goldfish against goldfish, played by `mtgsim.simulate` inside Rust — games per
second with one worker and with two, and the scaling between them, measured in the same run."""

from __future__ import annotations

import statistics
import time
from typing import Any

from conftest import RESULTS, TARGETS, record
from test_simulate_conditions_and_positions import first_legal  # the built-in 'first' policy, in Python

import mtgsim

GAMES = 2_000


def test_simulate_one_worker(benchmark: Any, rounds: int) -> None:
    benchmark.pedantic(lambda: mtgsim.simulate(games=GAMES, seed=1, workers=1, chunk=GAMES), rounds=max(3, rounds // 3), iterations=1)
    record("whole goldfish game, 1 worker", "batch", benchmark, GAMES)


def test_simulate_two_workers(benchmark: Any, rounds: int) -> None:
    benchmark.pedantic(lambda: mtgsim.simulate(games=GAMES, seed=1, workers=2, chunk=GAMES), rounds=max(3, rounds // 3), iterations=1)
    record("whole goldfish game, 2 workers", "batch", benchmark, GAMES)
    # The scaling from neighbouring runs: one worker, then two, a few times over; the median of
    # the pairs' ratios is less moved by the machine's load drifting between the two tests.
    ratios = []
    for _ in range(max(5, rounds // 2)):
        t0 = time.perf_counter()
        mtgsim.simulate(games=GAMES, seed=1, workers=1, chunk=GAMES)
        t1 = time.perf_counter()
        mtgsim.simulate(games=GAMES, seed=1, workers=2, chunk=GAMES)
        t2 = time.perf_counter()
        ratios.append((t1 - t0) / (t2 - t1))
    two = RESULTS["whole goldfish game, 2 workers"].get("batch")
    if two:
        TARGETS["whole goldfish game, 2 workers"] = f"{1 / two:,.0f} games/s; scaling 1->2 workers {statistics.median(ratios):.2f}x, median of {len(ratios)} paired runs (targets: 250,000 games/s, 1.8x)"


# ----- the slow path, cloning, Monte Carlo from a position ---------------------------------------

SLOW_GAMES = 40


def test_simulate_builtin_first_policy(benchmark: Any, rounds: int) -> None:
    benchmark.pedantic(lambda: mtgsim.simulate(games=SLOW_GAMES * 10, seed=1, policies="first", max_turns=20, workers=1), rounds=max(3, rounds // 3), iterations=1)
    record("whole game, 'first' policy in Rust", "batch", benchmark, SLOW_GAMES * 10)


def test_simulate_python_callback_policy(benchmark: Any, rounds: int) -> None:
    benchmark.pedantic(lambda: mtgsim.simulate(games=SLOW_GAMES, seed=1, policies=first_legal, max_turns=20), rounds=max(3, rounds // 3), iterations=1)
    record("whole game, 'first' as a Python callback", "per call", benchmark, SLOW_GAMES)
    fast = RESULTS.get("whole game, 'first' policy in Rust", {}).get("batch")
    slow = RESULTS["whole game, 'first' as a Python callback"].get("per call")
    if fast and slow:
        TARGETS["whole game, 'first' as a Python callback"] = f"the slow path costs {slow / fast:.0f}x the built-in policy (same games)"


def _midgame() -> mtgsim.Game:
    g = mtgsim.Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=3)
    for p in (0, 1):
        g.set_policy(p, "goldfish")
    g.play(until=6)
    # A searcher turns the event log off and starts it empty: a clone copies the log too.
    g.recording = False
    g.clear_events()
    return g


CLONES = 2_000


def test_clone_a_midgame_state(benchmark: Any, rounds: int) -> None:
    g = _midgame()

    def run() -> None:
        for _ in range(CLONES):
            g.clone()

    benchmark.pedantic(run, rounds=rounds, iterations=1)
    record("clone a mid-game state (turn 6)", "per call", benchmark, CLONES, "<= 2 µs")
    # Inside Rust, a batch repetition restores the position into a reused game (clone_from).
    reps = 20_000
    t0 = time.perf_counter()
    g.run_batch([], reps)
    RESULTS["clone a mid-game state (turn 6)"]["batch"] = (time.perf_counter() - t0) / reps


def test_monte_carlo_from_a_position(benchmark: Any, rounds: int) -> None:
    g = _midgame()
    benchmark.pedantic(lambda: mtgsim.simulate_from(g, GAMES, seed=1, workers=1, chunk=GAMES), rounds=max(3, rounds // 3), iterations=1)
    record("continuation from turn 6, 1 worker", "batch", benchmark, GAMES)
