"""Peak memory of a long simulation (issue 6): `python benches/memory.py GAMES [WORKERS] [--keep]`.

Plays GAMES games of the built-in example in one `mtgsim.simulate` call and prints the peak
resident set size of the process. By default the run keeps only its summary
(`keep_games=False`: counts and histograms, chunk by chunk), so the peak should be the same at
1M and 10M games. With `--keep` every game's row is kept too (about 73 bytes for two players):
then the columns grow linearly and are reported apart. Run it at two sizes and compare.
Not a pytest benchmark: a 1M-game run takes minutes.
"""

from __future__ import annotations

import resource
import sys
import time

import mtgsim
from mtgsim.sim import _COLUMNS


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    keep = "--keep" in sys.argv
    games = int(args[0]) if args else 100_000
    workers = int(args[1]) if len(args) > 1 else None
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.perf_counter()
    r = mtgsim.simulate(games=games, seed=1, workers=workers, keep_games=keep)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    columns = sum(getattr(r, name).nbytes for name in _COLUMNS)
    mb = 1 << 20
    print(
        f"{games:,} games ({'rows kept' if keep else 'summary only'}) in {seconds:.0f} s ({games / seconds:,.0f} games/s): "
        f"peak RSS {peak / mb:.0f} MiB (at start {base / mb:.0f} MiB); result columns {columns / mb:.0f} MiB "
        f"({columns / games:.0f} B/game); peak minus start minus columns {(peak - base - columns) / mb:.0f} MiB"
    )
    print("mean end turn", r.summary()["end_turn"]["mean"])


if __name__ == "__main__":
    main()
