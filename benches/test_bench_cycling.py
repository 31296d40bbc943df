"""Typecycling and whole turns (issue 4).

Typecycling from Python: Lórien Revealed's Islandcycling {1} — activate (the card revealed from
hand, {1} paid from an untapped Island, the card discarded), then resolve (search the 60-card
library for an Island, reveal it, put it into hand, shuffle) — per Python call and in batch,
against the floor: the same find-move-shuffle as straight-line Rust on plain vectors, measured
in the same run (GUIDE §8).

A turn cycle: two goldfish players from 60-card decks play one whole turn each (both players'
turns, every step, priority passes, land drops and spells).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from conftest import RESULTS, TARGETS, record
from positions import typecycling_position
from mtgsim import Game, Op
from mtgsim._core import _floor_typecycling

CALLS = 200
REPS = 20_000


def test_typecycling_per_call(benchmark: Any, rounds: int) -> None:
    g, card = typecycling_position()

    def setup() -> tuple[tuple[list[Game]], dict[str, Any]]:
        return ([g.clone() for _ in range(CALLS)],), {}

    def run(games: list[Game]) -> None:
        for x in games:
            x.cycle(card)
            x.resolve_top()

    benchmark.pedantic(run, setup=setup, rounds=rounds, iterations=1)
    # Two Python calls per typecycle: the per-call figure is per call.
    record("typecycling (cycle + resolve)", "per call", benchmark, 2 * CALLS, "per call <= 3 µs; batch net <= 5x floor")
    x = g.clone()
    x.cycle(card)
    x.resolve_top()
    (found,) = x.hand(0)
    assert x.name(found) == "Island" and len(x.library(0)) == 59 and x.graveyard(0) != []


def test_typecycling_batch(benchmark: Any, rounds: int) -> None:
    g, card = typecycling_position()
    ops = [Op.cycle(card), Op.resolve_top()]
    benchmark.pedantic(lambda: g.run_batch(ops, REPS), rounds=rounds, iterations=1)
    record("typecycling (cycle + resolve)", "batch", benchmark, REPS)
    # Each round times an empty batch (the reset alone), the typecycling batch and the floor
    # back to back, so the ratio is taken between neighbours; its median over rounds is the
    # figure, less moved by the machine's load drifting than a ratio of separate medians.
    nets, floors, ratios = [], [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        g.run_batch([], REPS)
        t1 = time.perf_counter()
        g.run_batch(ops, REPS)
        t2 = time.perf_counter()
        floor = _floor_typecycling(REPS)
        net = max(((t2 - t1) - (t1 - t0)) / REPS, 0.0)
        nets.append(net)
        floors.append(floor)
        ratios.append(net / floor)
    RESULTS["typecycling (cycle + resolve)"]["batch net"] = statistics.median(nets)
    RESULTS["typecycling floor (plain vectors)"]["batch"] = statistics.median(floors)
    TARGETS["typecycling floor (plain vectors)"] = f"batch net / floor = {statistics.median(ratios):.1f}x, median of {rounds} paired rounds (target <= 5x)"
    r = g.run_batch(ops, 10)
    assert (r.repetitions, r.operations) == (10, 20)
    assert r.library_cards == 10 * (59 + 60)  # the Island left player 0's library each time


def goldfish_position() -> Game:
    decks = [
        ["Island"] * 24 + ["Fractured Sanity"] * 12 + ["Lórien Revealed"] * 8 + ["Joint Exploration"] * 8 + ["Glimpse the Unthinkable"] * 8,
        ["Forest"] * 24 + ["Grizzly Bears"] * 16 + ["Joraga Warcaller"] * 12 + ["Savannah Lions"] * 8,
    ]
    g = Game.from_decks(decks, seed=11)
    g.recording = False
    for p in (0, 1):
        g.set_policy(p, "goldfish")
    return g


def test_turn_cycle_per_call(benchmark: Any, rounds: int) -> None:
    g = goldfish_position()
    n = 50

    def setup() -> tuple[tuple[list[Game]], dict[str, Any]]:
        return ([g.clone() for _ in range(n)],), {}

    def run(games: list[Game]) -> None:
        for x in games:
            x.play(until=3)  # both players' first turns

    benchmark.pedantic(run, setup=setup, rounds=rounds, iterations=1)
    record("goldfish turn cycle (2 turns)", "per call", benchmark, n)
    x = g.clone()
    x.play(until=3)
    assert x.turn == 3 and len(x.battlefield()) >= 2


def test_turn_cycle_batch(benchmark: Any, rounds: int) -> None:
    g = goldfish_position()
    reps = 2_000
    ops = [Op.play_turn(), Op.play_turn()]
    benchmark.pedantic(lambda: g.run_batch(ops, reps), rounds=rounds, iterations=1)
    record("goldfish turn cycle (2 turns)", "batch", benchmark, reps)
    r = g.run_batch(ops, 10)
    assert (r.repetitions, r.operations) == (10, 20)
