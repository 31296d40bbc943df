"""Bulk simulation beyond one machine: :func:`mtgsim.simulate` on a Dask cluster.

>>> from dask.distributed import Client                      # doctest: +SKIP
>>> from mtgsim.distributed import simulate_on_dask          # doctest: +SKIP
>>> with Client("tcp://scheduler:8786") as client:           # doctest: +SKIP
...     r = simulate_on_dask(client, games=1_000_000, seed=7)
>>> r.summary()["players"][0]["win_rate"]                    # doctest: +SKIP

The games ``start .. start+games`` are split into contiguous chunks, one Dask task per chunk;
each task calls :func:`mtgsim.simulate` for its slice on a worker, and the slices are joined in
order with :meth:`SimResult.concat`. Game ``i`` is always played from ``derive_seed(seed, i)``
alone, so every column of the result is bit for bit what ``mtgsim.simulate(decks, games,
seed=seed, start=start, ...)`` gives on one machine, whatever the chunk size or the cluster.
Only :attr:`SimResult.seconds` differs: here it is the wall time of the whole distributed run
(submitting, playing, gathering), measured on the client.

Needs ``pip install 'mtgsim[dask]'`` on the client and the same ``mtgsim`` version on every
worker (the tasks call it there). Dask is optional: ``import mtgsim`` never imports it, and this
module imports it only when :func:`simulate_on_dask` runs.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from mtgsim.errors import MtgsimError
from mtgsim.sim import EXAMPLE_DECKS, Deck, SimResult, _deck_lists, _game_range, _whole, simulate

__all__ = ["DaskClient", "DistributedSimulationError", "simulate_on_dask"]

_T_co = TypeVar("_T_co", covariant=True)


class _Future(Protocol[_T_co]):
    """What is used of a ``distributed.Future``."""

    @property
    def key(self) -> Any: ...
    def result(self, timeout: Any = None) -> _T_co: ...


class DaskClient(Protocol):
    """What is used of a synchronous ``distributed.Client`` (any such client fits)."""

    def submit(self, func: Callable[..., SimResult], /, *args: Any, key: Any = None, pure: bool = True) -> _Future[SimResult]: ...
    def cancel(self, futures: Any) -> Any: ...
    def nthreads(self) -> Any: ...


class DistributedSimulationError(MtgsimError, RuntimeError):
    """A chunk of games failed on the cluster (its task raised, or its worker died). ``start``
    and ``stop`` give the chunk's game range, ``error`` (also ``__cause__``) the original
    exception; the other chunks were cancelled."""

    def __init__(self, start: int, stop: int, error: BaseException) -> None:
        self.start = start
        self.stop = stop
        self.error = error
        super().__init__(f"games {start}..{stop} failed on the cluster: {type(error).__name__}: {error}")

    def __reduce__(self) -> tuple[type[DistributedSimulationError], tuple[int, int, BaseException]]:
        return (type(self), (self.start, self.stop, self.error))


def _play_chunk(decks: Sequence[Deck], games: int, seed: int, start: int, kwargs: dict[str, Any]) -> SimResult:
    """The task run on a worker: one slice of the run."""
    return simulate(decks, games, seed=seed, start=start, **kwargs)


def simulate_on_dask(
    client: DaskClient,
    decks: Sequence[Deck] = EXAMPLE_DECKS,
    games: int = 1000,
    *,
    seed: int = 0,
    chunk: int | None = None,
    start: int = 0,
    workers: int | None = 1,
    progress: Callable[[int, int], None] | None = None,
    **simulate_kwargs: Any,
) -> SimResult:
    """Plays games ``start .. start+games`` of the run ``seed`` on the Dask cluster behind
    ``client`` and returns the :class:`SimResult` that :func:`mtgsim.simulate` gives for the
    same arguments on one machine (``seconds`` aside: here the wall time of the whole run).

    ``chunk`` games go to each task (by default about four tasks per worker thread, from 100
    to 100,000 games each; the last chunk may be shorter). Each task runs ``simulate`` with
    ``workers`` threads: 1 by default, which suits Dask workers with one thread per core; pass
    ``workers=None`` (all cores) for workers with a single thread each. Other keyword arguments
    (``policies``, ``max_turns``, ``db``, ``starting_life``, ``hand_size``) go to
    ``simulate`` unchanged, so they, the decks and any ``CardDB`` must pickle (they do).
    ``progress(done, total)`` is called on the client as chunks finish.

    Bad ``games``, ``chunk``, ``start`` or ``seed`` (``start + games`` at most 2**64 - 1), a deck
    given as a string, and unknown keyword arguments raise before anything is submitted. If a
    chunk fails, the remaining tasks are cancelled and :class:`DistributedSimulationError`
    names the chunk and the original error. A KeyboardInterrupt (or any error) while waiting
    cancels the outstanding tasks and is re-raised; nothing is returned. Cancelling stops tasks
    that have not started; a chunk already running finishes on its worker and its result is
    dropped.
    """
    games, start = _game_range(games, start)  # start + games at most 2**64 - 1
    seed = _whole(seed, "seed", 0, 2**64 - 1)
    _deck_lists(decks)  # a deck given as a string fails here, not in every task
    chunk = None if chunk is None else _whole(chunk, "chunk", 1)
    kwargs = dict(simulate_kwargs, workers=workers)
    try:
        inspect.signature(simulate).bind(decks, games, seed=seed, start=start, **kwargs)
    except TypeError as e:
        raise TypeError(f"simulate_on_dask: {e} (keyword arguments go to mtgsim.simulate)") from None

    # Imported here (dask is optional) and by name, so type checks pass with or without dask.
    as_completed: Callable[[list[_Future[SimResult]]], Iterable[_Future[SimResult]]] = importlib.import_module("distributed").as_completed
    if chunk is None:
        threads = sum(dict(client.nthreads()).values()) or 1
        chunk = max(100, min(100_000, math.ceil(games / (4 * threads))))
    stop = start + games
    ranges = [(a, min(a + chunk, stop)) for a in range(start, stop, chunk)]
    run = uuid.uuid4().hex
    t0 = time.perf_counter()
    futures: list[_Future[SimResult]] = []
    try:
        for a, b in ranges:
            futures.append(client.submit(_play_chunk, decks, b - a, seed, a, kwargs, key=f"mtgsim-simulate-{run}-{a}-{b}", pure=False))
        where = {f.key: i for i, f in enumerate(futures)}
        parts: list[SimResult | None] = [None] * len(ranges)
        done = 0
        for f in as_completed(futures):
            i = where[f.key]
            try:
                parts[i] = f.result()
            except Exception as e:
                raise DistributedSimulationError(*ranges[i], e) from e
            done += ranges[i][1] - ranges[i][0]
            if progress is not None:
                progress(done, games)
    except BaseException:
        try:
            client.cancel(futures)
        except Exception:  # noqa: BLE001 - best effort; the original error matters more
            pass
        raise
    results = [p for p in parts if p is not None]
    assert len(results) == len(ranges)
    # Join neighbours pairwise (each concat checks the slices follow each other): n log k copies.
    while len(results) > 1:
        results = [results[j].concat(results[j + 1]) if j + 1 < len(results) else results[j] for j in range(0, len(results), 2)]
    return dataclasses.replace(results[0], seconds=time.perf_counter() - t0)
