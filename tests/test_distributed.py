"""Bulk simulation on a Dask cluster (GUIDE §9): chunks of games submitted by seed range and
joined into exactly the result one machine gives, column for column and bit for bit.

The cluster is a ``LocalCluster`` of two worker *processes*, so decks, card databases, keyword
arguments and results really are pickled on their way to and from the workers.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import mtgsim
from mtgsim.sim import _COLUMNS, EXAMPLE_DECKS, SimResult

distributed = pytest.importorskip("distributed")

from mtgsim.distributed import DistributedSimulationError, simulate_on_dask  # noqa: E402

TEST_OGRE = {"name": "Test Ogre", "mana_cost": "{3}{R}", "type_line": "Creature — Ogre", "oracle_text": "", "power": "4", "toughness": "1"}


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


class Spy:
    """A client that records what is submitted; ``poison`` replaces the decks of the chunk
    starting at that game with a deck of unknown cards (one worker task fails)."""

    def __init__(self, client: Any, poison: int | None = None) -> None:
        self.client = client
        self.poison = poison
        self.futures: list[Any] = []
        self.cancelled: list[Any] = []

    def submit(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        if self.poison is not None and args[3] == self.poison:
            args = ([["Islnd"] * 40, EXAMPLE_DECKS[1]], *args[1:])
        f = self.client.submit(func, *args, **kwargs)
        self.futures.append(f)
        return f

    def cancel(self, futures: Any) -> Any:
        self.cancelled.extend(futures)
        return self.client.cancel(futures)

    def nthreads(self) -> Any:
        return self.client.nthreads()


def assert_same(got: SimResult, want: SimResult) -> None:
    assert (got.players, got.seed, got.start, got.games) == (want.players, want.seed, want.start, want.games)
    for name in _COLUMNS:
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        assert np.array_equal(a, b), name


def test_the_example_in_uneven_chunks_is_what_one_machine_gives(client: Any) -> None:
    calls: list[tuple[int, int]] = []
    got = simulate_on_dask(client, EXAMPLE_DECKS, 3000, seed=11, chunk=700, progress=lambda d, t: calls.append((d, t)))
    want = mtgsim.simulate(EXAMPLE_DECKS, 3000, seed=11, workers=1)
    assert_same(got, want)
    # Five tasks (4 x 700 + 200), reported as they finish, ending with all games done.
    assert len(calls) == 5 and calls[-1] == (3000, 3000)
    assert sorted(d for d, _ in calls) == [d for d, _ in calls] and {t for _, t in calls} == {3000}
    assert got.seconds > 0
    # The comparison can fail: another seed gives other games.
    other = mtgsim.simulate(EXAMPLE_DECKS, 300, seed=12)
    assert not np.array_equal(got.library[:300], other.library)


def test_a_later_slice_and_the_default_chunk_size(client: Any) -> None:
    got = simulate_on_dask(client, games=1500, seed=3, start=1234, chunk=400)
    assert_same(got, mtgsim.simulate(games=1500, seed=3, start=1234, workers=1))
    spy = Spy(client)
    got = simulate_on_dask(spy, games=450, seed=3, start=7)
    assert_same(got, mtgsim.simulate(games=450, seed=3, start=7))
    assert len(spy.futures) == 5  # two worker threads: chunks of max(100, 450 / 8) games


def test_a_summary_only_run_on_the_cluster_sends_back_only_tallies(client: Any) -> None:
    got = simulate_on_dask(client, games=1200, seed=6, chunk=500, keep_games=False, record=["library_empty:1"])
    want = mtgsim.simulate(games=1200, seed=6, workers=1, record=["library_empty:1"])
    assert not got.kept and got.games == 1200 and got.winner.shape == (0,)
    assert _rounded(got.summary()) == _rounded(want.summary())


def _rounded(x: Any) -> Any:
    """A summary without its timing, floats to 9 places (sums and numpy means round apart)."""
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items() if k not in ("seconds", "games_per_second")}
    if isinstance(x, list):
        return [_rounded(v) for v in x]
    return round(x, 9) if isinstance(x, float) else x


def test_deck_lists_a_custom_card_db_and_random_policies(client: Any) -> None:
    db = mtgsim.CardDB()
    db.add(TEST_OGRE)
    mill = mtgsim.DeckList.parse("24 Island\n16 Maddening Cacophony")
    ogres = mtgsim.DeckList.parse("20 Mountain\n20 Test Ogre", known=db.names())
    kwargs: dict[str, Any] = {"db": db, "policies": "random", "max_turns": 30, "starting_life": 15}
    got = simulate_on_dask(client, [mill, ogres], 900, seed=5, chunk=250, **kwargs)
    want = mtgsim.simulate([mill, ogres], 900, seed=5, **kwargs)
    assert_same(got, want)
    assert (want.spells[:, 1] > 0).any()  # the ogres were cast: the custom card reached the workers
    with pytest.raises(mtgsim.UnknownCardError, match="Test Ogre"):
        mtgsim.simulate([mill, ogres], 1)  # ...and without the database it is unknown


def test_workers_threads_inside_each_task(client: Any) -> None:
    got = simulate_on_dask(client, games=600, seed=8, chunk=300, workers=2, policies=["goldfish", "random"])
    assert_same(got, mtgsim.simulate(games=600, seed=8, workers=1, policies=["goldfish", "random"]))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"games": 0}, "positive integer"),
        ({"games": -5}, "positive integer"),
        ({"games": True}, "positive integer"),
        ({"games": 10.0}, "positive integer"),
        ({"chunk": 0}, "chunk must be a positive"),
        ({"chunk": -1}, "chunk must be a positive"),
        ({"start": -1}, "start must be an integer from 0"),
        ({"seed": -1}, "seed must be an integer"),
        ({"seed": 2**64}, "seed must be an integer"),
    ],
)
def test_bad_input_is_a_value_error_and_submits_nothing(client: Any, kwargs: dict[str, Any], match: str) -> None:
    spy = Spy(client)
    with pytest.raises(ValueError, match=match):
        simulate_on_dask(spy, **{"games": 100, **kwargs})
    assert spy.futures == []


def test_an_unknown_keyword_is_a_type_error_and_submits_nothing(client: Any) -> None:
    spy = Spy(client)
    with pytest.raises(TypeError, match="polices"):
        simulate_on_dask(spy, games=100, polices="random")
    assert spy.futures == []


def test_a_failing_chunk_names_its_games_and_the_error_and_cancels_the_rest(client: Any) -> None:
    spy = Spy(client, poison=1400)
    with pytest.raises(DistributedSimulationError, match=r"games 1400\.\.2100 failed on the cluster: UnknownCardError: .*Islnd") as info:
        simulate_on_dask(spy, games=3000, seed=1, chunk=700)
    e = info.value
    assert (e.start, e.stop) == (1400, 2100)
    assert isinstance(e.error, mtgsim.UnknownCardError) and e.__cause__ is e.error
    assert isinstance(e, mtgsim.MtgsimError) and isinstance(e, RuntimeError)
    assert len(spy.futures) == 5 and spy.cancelled == spy.futures
    assert all(f.cancelled() for f in spy.futures)


def test_every_chunk_failing_is_reported_once(client: Any) -> None:
    with pytest.raises(DistributedSimulationError, match="Islnd") as info:
        simulate_on_dask(client, [["Islnd"] * 40, EXAMPLE_DECKS[1]], 1000, chunk=250)
    assert isinstance(info.value.error, mtgsim.UnknownCardError)


def test_a_keyboard_interrupt_cancels_the_outstanding_tasks(client: Any) -> None:
    spy = Spy(client)

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_on_dask(spy, games=2000, seed=2, chunk=100, progress=interrupt)
    assert len(spy.futures) == 20 and spy.cancelled == spy.futures
    assert all(f.cancelled() for f in spy.futures)
    # The cluster is usable afterwards.
    assert_same(simulate_on_dask(client, games=200, seed=2, chunk=100), mtgsim.simulate(games=200, seed=2))


# ----- everything that crosses to a worker pickles ----------------------------------------


def test_deck_lists_pickle() -> None:
    deck = mtgsim.DeckList.parse("Name: Mill\n4 Fractured Sanity (MH2) 44\n20 Island\n\nSideboard\n2 Lorien Revealed")
    again = pickle.loads(pickle.dumps(deck))
    assert again == deck and again.cards() == deck.cards() and again.sideboard_cards() == deck.sideboard_cards()
    assert again.name == "Mill"


def test_card_databases_pickle() -> None:
    db = mtgsim.CardDB()
    db.add(TEST_OGRE)
    for original in (mtgsim.CardDB(), db):
        again = pickle.loads(pickle.dumps(original))
        assert again.names() == original.names() and again.to_json() == original.to_json()
    assert pickle.loads(pickle.dumps(db))["Test Ogre"] == db["Test Ogre"]


def test_results_pickle_bit_for_bit() -> None:
    r = mtgsim.simulate(games=50, seed=4, start=10)
    again = pickle.loads(pickle.dumps(r))
    assert_same(again, r)
    assert again.seconds == r.seconds


def test_the_error_pickles() -> None:
    e = DistributedSimulationError(5, 9, mtgsim.UnknownCardError('unknown card name "Islnd"'))
    again = pickle.loads(pickle.dumps(e))
    assert (again.start, again.stop, str(again)) == (5, 9, str(e)) and isinstance(again.error, mtgsim.UnknownCardError)


def test_importing_mtgsim_does_not_import_dask() -> None:
    code = "import sys, mtgsim, mtgsim.distributed; print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
