"""Peak memory of a long simulation (issue 6): `python benches/memory.py GAMES [WORKERS]`.

Plays GAMES games of the built-in example in one `mtgsim.simulate` call and prints the peak
resident set size of the process, the bytes the result columns hold, and the rest (the engine,
the interpreter, numpy). The engine reuses one game per worker thread and keeps nothing per
game but the result row (about 73 bytes for two players), so the rest should stay flat as the
number of games grows; only the columns grow, linearly. Run it at two sizes and compare.
Not a pytest benchmark: a 1M-game run takes minutes.
"""

from __future__ import annotations

import resource
import sys
import time

import mtgsim
from mtgsim.sim import _COLUMNS


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else None
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.perf_counter()
    r = mtgsim.simulate(games=games, seed=1, workers=workers)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    columns = sum(getattr(r, name).nbytes for name in _COLUMNS)
    mb = 1 << 20
    print(
        f"{games:,} games in {seconds:.0f} s ({games / seconds:,.0f} games/s): peak RSS {peak / mb:.0f} MiB "
        f"(at start {base / mb:.0f} MiB); result columns {columns / mb:.0f} MiB ({columns / games:.0f} B/game); "
        f"peak minus start minus columns {(peak - base - columns) / mb:.0f} MiB"
    )


if __name__ == "__main__":
    main()
