"""Decisions for agents (issue 7): through the step-by-step API from Python (one `take` per
decision step), through the batched step (many games in one Rust call), and perft nodes inside
Rust — beside the whole-game simulation rate in the same table."""

from __future__ import annotations

import random
import time
from typing import Any

from conftest import RESULTS, TARGETS, record

import mtgsim
from mtgsim import Game

STEPS = 400


def _manual_game(seed: int) -> Game:
    g = Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=seed)
    g.recording = False
    for p in (0, 1):
        g.set_policy(p, "manual")
    g.play()
    return g


def test_decisions_step_by_step_from_python(benchmark: Any, rounds: int) -> None:
    def setup() -> tuple[tuple[list[Game], random.Random], dict[str, Any]]:
        return ([_manual_game(s) for s in range(12)], random.Random(1)), {}

    def run(games: list[Game], rng: random.Random) -> None:
        # Exactly STEPS decision steps, moving to the next game when one ends.
        taken = 0
        for g in games:
            while taken < STEPS and not g.is_over:
                g.take(rng.choice(g.legal_actions()))
                taken += 1
        assert taken == STEPS

    benchmark.pedantic(run, setup=setup, rounds=rounds, iterations=1)
    record("agent decision: legal_actions + take", "per call", benchmark, STEPS)


GAMES = 256
BATCH_STEPS = 20


def test_decisions_batched_step(benchmark: Any, rounds: int) -> None:
    b = mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, GAMES, seed=1)

    def run() -> None:
        for _ in range(BATCH_STEPS):
            mask = b.observe()["action_mask"]
            b.step(mask.argmax(axis=1))  # the first legal code in each game

    benchmark.pedantic(run, rounds=max(3, rounds // 3), iterations=1)
    record("agent decision: batched step + observe", "batch", benchmark, GAMES * BATCH_STEPS)
    per = RESULTS["agent decision: batched step + observe"]["batch"]
    TARGETS["agent decision: batched step + observe"] = f"{1 / per:,.0f} decisions/s ({GAMES} games per call, observations and masks included)"


def test_perft_inside_rust(benchmark: Any, rounds: int) -> None:
    g = _manual_game(2)
    depth = 6
    leaves = g.perft(depth)

    benchmark.pedantic(lambda: g.perft(depth), rounds=max(3, rounds // 3), iterations=1)
    record("perft node (start of the example game)", "batch", benchmark, leaves)
    per = RESULTS["perft node (start of the example game)"]["batch"]
    sim = RESULTS.get("whole goldfish game, 2 workers", {}).get("batch")
    beside = f"; whole games: {1 / sim:,.0f}/s" if sim else ""
    TARGETS["perft node (start of the example game)"] = f"perft({depth}) = {leaves:,} leaves, {1 / per:,.0f} leaves/s{beside}"
    assert leaves == g.perft(depth)
