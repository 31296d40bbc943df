"""The hot library actions (issue 2): mill 14 of 60, draw, shuffle 60, search a basic land +
reveal + shuffle (what typecycling does), scry 2 with a built-in policy — per Python call, in
batch inside Rust, and in the pure-Python reference model."""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable

import pytest
from reference import RefGame

import mtgsim
from mtgsim import Game, Op

from conftest import RESULTS, record
from positions import library_position as position

CALLS = 200  # calls per timed round in per-call benchmarks
REPS = 20_000  # repetitions per batch


def per_call(benchmark: Any, make: Callable[[], Any], action: Callable[[Any], Any], rounds: int) -> None:
    """Times CALLS calls of ``action``, each on its own fresh copy of the position (copies made
    untimed in setup)."""

    def setup() -> tuple[tuple[list[Any]], dict[str, Any]]:
        base = make()
        return ([base.clone() for _ in range(CALLS)],), {}

    def run(games: list[Any]) -> None:
        for g in games:
            action(g)

    benchmark.pedantic(run, setup=setup, rounds=rounds, iterations=1)


def repeated(benchmark: Any, make: Callable[[], Any], action: Callable[[Any], Any], rounds: int) -> None:
    """Times CALLS calls of an action that can repeat on the same game (shuffle, scry)."""
    g = make()

    def run() -> None:
        for _ in range(CALLS):
            action(g)

    benchmark.pedantic(run, rounds=rounds, iterations=1)


def batch(benchmark: Any, ops: list[Op], restore: bool, rounds: int) -> None:
    g = position(Game)
    benchmark.pedantic(lambda: g.run_batch(ops, REPS, restore=restore), rounds=rounds, iterations=1)


CASES: dict[str, dict[str, Any]] = {
    "mill 14 of 60": dict(act=lambda g: g.mill(1, 14), op=Op.mill(1, 14), restore=True, fresh=True, target="per call <= 1 µs"),
    "draw 1": dict(act=lambda g: g.draw(1), op=Op.draw(1), restore=True, fresh=True, target="per call <= 1 µs"),
    "shuffle 60": dict(act=lambda g: g.shuffle(1), op=Op.shuffle(1), restore=False, fresh=False, target="batch <= 0.5 µs"),
    "search basic land+reveal+shuffle": dict(
        act=lambda g: g.search(1, "basic land", reveal=True),
        op=Op.search(1, "basic land", reveal=True),
        restore=True,
        fresh=True,
        target="batch >= 50x faster than reference",
    ),
    "scry 2 (random policy)": dict(act=lambda g: g.scry(1, 2), op=Op.scry(1, 2), restore=False, fresh=False, target="per call <= 1 µs"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_engine_per_call(benchmark: Any, name: str, rounds: int) -> None:
    case = CASES[name]
    (per_call if case["fresh"] else repeated)(benchmark, lambda: position(Game), case["act"], rounds)
    record(name, "per call", benchmark, CALLS, case["target"])


@pytest.mark.parametrize("name", list(CASES))
def test_engine_batch(benchmark: Any, name: str, rounds: int) -> None:
    case = CASES[name]
    batch(benchmark, [case["op"]], case["restore"], rounds)
    record(name, "batch", benchmark, REPS, case["target"])
    if not case["restore"]:
        RESULTS[name]["batch net"] = RESULTS[name]["batch"]


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c["restore"]])
def test_engine_batch_net_of_reset(name: str, rounds: int) -> None:
    """Batches that restore the position each repetition also pay for the restore. Paired
    rounds (the same batch with and without the operation, back to back) give the operation's
    own cost as the median of the differences, robust to the machine's drift."""
    g = position(Game)
    op = [CASES[name]["op"]]
    diffs, resets = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        g.run_batch([], REPS, restore=True)
        t1 = time.perf_counter()
        g.run_batch(op, REPS, restore=True)
        t2 = time.perf_counter()
        resets.append((t1 - t0) / REPS)
        diffs.append(((t2 - t1) - (t1 - t0)) / REPS)
    RESULTS[name]["batch net"] = max(statistics.median(diffs), 0.0)
    RESULTS["(position reset per repetition)"]["batch"] = statistics.median(resets)
    assert all(r > 0 for r in resets)


@pytest.mark.parametrize("name", list(CASES))
def test_reference_model(benchmark: Any, name: str) -> None:
    case = CASES[name]
    (per_call if case["fresh"] else repeated)(benchmark, lambda: position(RefGame), case["act"], 5)
    record(name, "reference", benchmark, CALLS)


def test_batch_and_per_call_agree_on_the_work() -> None:
    """The batch really performs the operation: 20 mills of 14 from 60 leave 46 each time."""
    g = position(Game)
    r = g.run_batch([Op.mill(1, 14)], 20, restore=True)
    assert (r.repetitions, r.operations, r.library_cards) == (20, 20, 20 * 46)
    assert isinstance(mtgsim.__version__, str)
