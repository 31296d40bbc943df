"""Benchmark plumbing: every benchmark records its per-operation median here, and the session
ends with one table of medians and the ratios measured in the same run (GUIDE §8: these
machines are noisy, so ratios from one run are the numbers to read, never absolute limits)."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from mtgsim._core import BUILD

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

#: operation -> mode -> seconds per operation (median)
RESULTS: dict[str, dict[str, float]] = defaultdict(dict)
TARGETS: dict[str, str] = {}

MODES = ["per call", "batch", "batch net", "reference"]


def record(operation: str, mode: str, benchmark: Any, per_round: int, target: str = "") -> None:
    """Stores the median time of one operation from a benchmark that ran ``per_round`` of them
    in each timed round."""
    stats = benchmark.stats
    if stats is None:  # --benchmark-disable
        return
    RESULTS[operation][mode] = stats.stats.median / per_round
    if target:
        TARGETS[operation] = target


def _fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e3:.2f} ms"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not RESULTS:
        return
    w = terminalreporter
    w.section("mtgsim: median time per operation, and ratios from the same run")
    w.write_line(f"build: {BUILD} (.ci/build-pgo makes the profile-guided build release wheels are)")
    header = f"{'operation':<34}" + "".join(f"{m:>12}" for m in MODES) + f"{'ref/call':>10}{'ref/batch':>11}{'call/batch':>12}   target"
    w.write_line(header)
    for op, modes in RESULTS.items():
        row = f"{op:<34}" + "".join(f"{_fmt(modes.get(m)):>12}" for m in MODES)
        ref, call, batch = modes.get("reference"), modes.get("per call"), modes.get("batch net") or modes.get("batch")
        row += f"{(f'{ref / call:.0f}x' if ref and call else '-'):>10}"
        row += f"{(f'{ref / batch:.0f}x' if ref and batch else '-'):>11}"
        row += f"{(f'{call / batch:.1f}x' if call and batch else '-'):>12}"
        row += f"   {TARGETS.get(op, '')}"
        w.write_line(row)
    w.write_line("per call: one Python call each; batch: Game.run_batch, per operation, including the")
    w.write_line("per-repetition position reset where the operation needs one; batch net: minus that reset;")
    w.write_line("reference: the pure-Python model in tests/reference.py.")


@pytest.fixture
def rounds() -> int:
    return 15
