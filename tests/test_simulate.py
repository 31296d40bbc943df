"""High-volume simulation (issue 6, first part): whole games from deck lists inside Rust, in
parallel, reproducible per game seed, results as numpy arrays with a summary."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import mtgsim
from mtgsim.sim import EXAMPLE_DECKS, MAX_TURNS


def test_results_are_numpy_columns_one_row_per_game() -> None:
    r = mtgsim.simulate(EXAMPLE_DECKS, 30, seed=2)
    assert (r.games, r.players) == (30, 2)
    assert r.winner.dtype == np.int8 and r.turns.shape == (30,)
    for col in (r.loss, r.life, r.library, r.graveyard, r.milled, r.spells, r.kicks, r.cycles, r.lands):
        assert col.shape == (30, 2)
    # Each finished game has one winner whose opponent lost, with a reason (CR 104).
    for i in range(30):
        if r.finished[i] and r.winner[i] >= 0:
            w = int(r.winner[i])
            assert r.loss[i, w] == 0 and r.loss[i, 1 - w] != 0


def test_game_i_is_the_game_played_from_its_derived_seed() -> None:  # GUIDE §3
    # Simulations play unattended (shortcuts for passes that only move priority); a game
    # played through the public API takes every step, and must come out the same.
    r = mtgsim.simulate(EXAMPLE_DECKS, 6, seed=9)
    for i in range(6):
        g = mtgsim.Game.from_decks(list(EXAMPLE_DECKS), seed=mtgsim.derive_seed(9, i))
        g.recording = False
        for p in (0, 1):
            g.set_policy(p, "goldfish")
        g.play(until=51)
        assert int(r.turns[i]) == g.turn
        assert [int(x) for x in r.library[i]] == [len(g.library(0)), len(g.library(1))]
        assert [int(x) for x in r.graveyard[i]] == [len(g.graveyard(0)), len(g.graveyard(1))]
        assert [int(x) for x in r.life[i]] == [g.life(0), g.life(1)]


def test_results_do_not_depend_on_workers_chunks_or_slices() -> None:
    one = mtgsim.simulate(EXAMPLE_DECKS, 50, seed=5, workers=1)
    two = mtgsim.simulate(EXAMPLE_DECKS, 50, seed=5, workers=2, chunk=7)
    head = mtgsim.simulate(EXAMPLE_DECKS, 20, seed=5)
    tail = mtgsim.simulate(EXAMPLE_DECKS, 30, seed=5, start=20)
    joined = head.concat(tail)
    for name in ("winner", "turns", "life", "library", "milled", "spells"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
        assert np.array_equal(getattr(one, name), getattr(joined, name)), name
    other = mtgsim.simulate(EXAMPLE_DECKS, 50, seed=6)
    assert not np.array_equal(one.library, other.library)


def test_the_mill_deck_mills_the_creature_deck_out() -> None:  # CR 704.5b; no combat yet
    r = mtgsim.simulate(EXAMPLE_DECKS, 40, seed=1)
    s = r.summary()
    assert s["players"][0]["win_rate"] == 1.0 and s["players"][1]["losses"] == {"empty_library": 40}
    assert s["players"][1]["milled"] > 20 and r.finished.all()
    lo, hi = s["players"][0]["win_rate_95ci"]
    assert 0.9 < lo < 1.0 == hi


def test_deck_lists_and_a_card_db_can_be_used() -> None:
    mill = mtgsim.DeckList.parse("24 Island\n16 Maddening Cacophony")
    creatures = mtgsim.DeckList.parse("20 Forest\n20 Grizzly Bears")
    r = mtgsim.simulate([mill, creatures], 10, seed=1, db=mtgsim.CardDB())
    assert r.games == 10 and (r.spells[:, 0] > 0).all()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"games": 0}, "positive"),
        ({"games": -3}, "positive"),
        ({"games": 5, "policies": ["goldfish"]}, "one policy per player"),
        ({"games": 5, "policies": "manual"}, "built-in policies"),
        ({"games": 5, "policies": "cheater"}, "cheater"),
        ({"games": 5, "max_turns": 0}, "turn limit"),
        ({"games": 5, "workers": 1_000_000}, "1000000 worker threads is out of range"),
        ({"games": 5, "workers": 1025}, "at most 1024"),
        ({"games": 5, "workers": -1}, "workers"),
        ({"games": 5, "max_turns": -1}, "turn limit"),
        ({"games": 5, "chunk": -1}, "chunk"),
        ({"games": 5, "chunk": 0}, "chunk"),
        ({"games": 5, "seed": -1}, "seed"),
        ({"games": 5, "seed": 2**64}, "seed"),
        ({"games": 5, "seed": True}, "seed"),
        ({"games": 5, "start": -1}, "start"),
        ({"games": 5, "stop": "library_empty:1"}, "list of conditions"),
        ({"games": 2.5}, "number of games"),
    ],
)
def test_bad_input_is_a_clear_error(kwargs: dict[str, object], match: str) -> None:
    # Every one an mtgsim error (InvalidArgumentError is a ValueError too), never an OverflowError.
    with pytest.raises(mtgsim.MtgsimError, match=match):
        mtgsim.simulate(EXAMPLE_DECKS, **kwargs)  # type: ignore[arg-type]


def test_the_turn_limit_python_checks_is_the_engines() -> None:
    from mtgsim._core import _simulate

    decks, names = [list(d) for d in EXAMPLE_DECKS], ["goldfish"] * 2
    assert mtgsim.simulate(EXAMPLE_DECKS, 1, max_turns=MAX_TURNS).turns[0] <= MAX_TURNS + 1
    with pytest.raises(mtgsim.InvalidArgumentError, match=f"from 1 to {MAX_TURNS}, not {MAX_TURNS + 1}"):
        mtgsim.simulate(EXAMPLE_DECKS, 1, max_turns=MAX_TURNS + 1)
    with pytest.raises(mtgsim.InvalidArgumentError, match=f"from 1 to {MAX_TURNS}, not {MAX_TURNS + 1}"):
        _simulate(decks, 0, names, MAX_TURNS + 1, 0, 1, 1, 20, 7, None, [], [])  # the engine's own check


def test_numpy_integers_are_plain_numbers_in_the_result() -> None:
    r = mtgsim.simulate(EXAMPLE_DECKS, np.int64(4), seed=np.uint64(7), max_turns=np.int32(30))  # type: ignore[arg-type]
    assert r.games == 4 and type(r.seed) is int and r.seed == 7
    json.dumps(r.to_dict())  # JSON-ready, as documented


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: mtgsim.GameBatch(EXAMPLE_DECKS, games=-1), "games"),
        (lambda: mtgsim.GameBatch(EXAMPLE_DECKS, games=2, extra=-1), "extra slots"),
        (lambda: mtgsim.GameBatch(EXAMPLE_DECKS, games=2, seed=-1), "seed"),
        (lambda: mtgsim.GameBatch(EXAMPLE_DECKS, games=2).game(-1), "no game -1"),
        (lambda: mtgsim.ActionSpace(-1, 2), "object slots"),
        (lambda: mtgsim.Game(2, 0).action_space(extra=-1), "extra slots"),
        (lambda: mtgsim.Game(2, 0).perft(-1), "perft depth"),
        (lambda: mtgsim.Rng(1).below(-1), "below"),
    ],
)
def test_negative_counts_elsewhere_are_clear_errors_too(make: Any, match: str) -> None:
    with pytest.raises(mtgsim.InvalidArgumentError, match=match):
        make()


def test_unknown_card_names_in_a_deck_are_errors() -> None:
    with pytest.raises(mtgsim.UnknownCardError, match="Islnd"):
        mtgsim.simulate([["Islnd"] * 40, EXAMPLE_DECKS[1]], 5)


def test_cli_simulate_runs_the_built_in_example_and_writes_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "r.json"
    p = subprocess.run([sys.executable, "-m", "mtgsim", "simulate", "--games", "200", "--seed", "3", "--json", str(out)], capture_output=True, text=True, check=True)
    assert "200 games" in p.stdout and "win rate" in p.stdout
    data = json.loads(out.read_text())
    assert data["games"] == 200 and data["players"][1]["losses"] == {"empty_library": 200}


def test_cli_simulate_plots_the_turn_each_player_won_and_can_write_every_row(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    png, rows = tmp_path / "turns.png", tmp_path / "rows.json"
    args = ["--games", "300", "--seed", "4", "--plot", str(png), "--json", str(rows), "--json-columns"]
    subprocess.run([sys.executable, "-m", "mtgsim", "simulate", *args], capture_output=True, text=True, check=True)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(rows.read_text())
    assert len(data["winner"]) == 300 and data["summary"]["games"] == 300
    # Without --json-columns the run keeps only the summary (flat memory) and still plots.
    png.unlink()
    subprocess.run([sys.executable, "-m", "mtgsim", "simulate", "--games", "300", "--seed", "4", "--plot", str(png)], capture_output=True, text=True, check=True)
    assert png.stat().st_size > 1000


def test_cli_simulate_rejects_bad_counts() -> None:
    p = subprocess.run([sys.executable, "-m", "mtgsim", "simulate", "--games", "0"], capture_output=True, text=True)
    assert p.returncode != 0 and "--games" in p.stderr


@pytest.mark.parametrize(
    "args, match",
    [
        (["--max-turns", "-1"], "--max-turns"),
        (["missing.deck"], "missing.deck"),
        (["BAD_DECK"], "Islandd"),
    ],
)
def test_cli_simulate_says_what_is_wrong_without_a_traceback(tmp_path, args: list[str], match: str) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.deck"
    bad.write_text("4 Islandd\n", encoding="utf-8")
    args = [str(bad) if a == "BAD_DECK" else a for a in args]
    p = subprocess.run([sys.executable, "-m", "mtgsim", "simulate", "--games", "5", "--quiet", *args], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode != 0 and match in p.stderr and "Traceback" not in p.stderr


class _NoClient:
    """A Dask client that must not be used: the arguments are refused before anything is submitted."""

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("submitted")

    def cancel(self, futures: Any) -> Any:
        raise AssertionError("cancelled")

    def nthreads(self) -> Any:
        raise AssertionError("asked for threads")


def _entry_points() -> list[Any]:
    from mtgsim.distributed import simulate_on_dask

    position = mtgsim.Game.from_decks(list(EXAMPLE_DECKS), seed=1)
    return [
        lambda **kw: mtgsim.simulate(EXAMPLE_DECKS, **kw),
        lambda **kw: mtgsim.simulate_from(position, **kw),
        lambda **kw: simulate_on_dask(_NoClient(), EXAMPLE_DECKS, **kw),
    ]


@pytest.mark.parametrize("which", ["simulate", "simulate_from", "simulate_on_dask"])
@pytest.mark.parametrize("start, games", [(2**64 - 2, 2), (2**64 - 3, 3), (2**64 - 1000, 1001), (1, 2**64 - 1)])
def test_the_game_range_must_fit_in_the_game_indices(which: str, start: int, games: int) -> None:
    # Games are numbered 0 .. 2**64 - 2 (the range's end is a u64): start + games at most
    # 2**64 - 1, else a clear error.
    run = dict(zip(["simulate", "simulate_from", "simulate_on_dask"], _entry_points()))[which]
    over = start + games - 2**64 + 1
    with pytest.raises(mtgsim.InvalidArgumentError, match=rf"start \+ games must be at most 2\*\*64 - 1 .*not {start} \+ {games} = 2\*\*64 - 1 \+ {over}$"):
        run(games=games, start=start, max_turns=2)


def _assert_games_are_their_derived_seeds(r: mtgsim.SimResult, start: int, games: int, rows: Sequence[int] | None = None) -> None:
    """``r`` holds games ``start .. start+games``; each row checked (all by default) is the game
    played through the public API from its derived seed."""
    assert (r.games, r.start) == (games, start)
    for k in range(games) if rows is None else rows:
        g = mtgsim.Game.from_decks(list(EXAMPLE_DECKS), seed=mtgsim.derive_seed(0, start + k))
        g.recording = False
        for p in (0, 1):
            g.set_policy(p, "goldfish")
        g.play(until=6)
        assert int(r.turns[k]) == g.turn
        assert [int(x) for x in r.library[k]] == [len(g.library(0)), len(g.library(1))]
        assert [int(x) for x in r.life[k]] == [g.life(0), g.life(1)]


@pytest.mark.parametrize("start, games", [(2**64 - 20, 3), (2**64 - 16, 2), (2**64 - 5, 1), (2**64 - 1005, 1000)])
def test_games_near_the_top_of_the_range_are_played(start: int, games: int) -> None:
    # A native chunk starting within its size of 2**64 once wrapped and played no games
    # (2**64 - 1005 + 1000 games on one thread: the last chunk of 63 starts at 2**64 - 60).
    r = mtgsim.simulate(EXAMPLE_DECKS, games, start=start, max_turns=5, workers=1)
    _assert_games_are_their_derived_seeds(r, start, games, rows=[0, games - 2, games - 1] if games > 3 else None)


def test_continuations_near_the_top_of_the_range_are_played() -> None:
    position = mtgsim.Game.from_decks(list(EXAMPLE_DECKS), seed=1)
    r = mtgsim.simulate_from(position, 2, start=2**64 - 16, max_turns=5)
    assert r.games == 2 and r.turns.shape == (2,) and r.life.shape == (2, 2)


@pytest.mark.parametrize("start, games", [(2**64 - 4, 3), (2**64 - 2, 1)])
def test_the_last_games_of_the_range_are_played(start: int, games: int) -> None:
    r = mtgsim.simulate(EXAMPLE_DECKS, games, start=start, max_turns=5)
    _assert_games_are_their_derived_seeds(r, start, games)


def test_the_last_continuations_of_the_range_are_played() -> None:
    position = mtgsim.Game.from_decks(list(EXAMPLE_DECKS), seed=1)
    r = mtgsim.simulate_from(position, 3, start=2**64 - 4, max_turns=5)
    assert r.games == 3 and r.turns.shape == (3,) and r.life.shape == (3, 2)


@pytest.mark.parametrize("which", ["simulate", "simulate_on_dask"])
@pytest.mark.parametrize(
    "decks, match",
    [
        ([EXAMPLE_DECKS[0], "Island"], r"^deck 1 is a string \('Island'\); a deck is a list of card names \(or a DeckList\)$"),
        (["Island" * 20, EXAMPLE_DECKS[1]], r"^deck 0 is a string \('IslandIslandIslandIslandIslandIslandIsla'\); a deck is a list"),
        ([EXAMPLE_DECKS[0], b"Island"], r"^deck 1 is a bytes object \(b'Island'\); a deck is a list of card names"),
        ("Island", r"^decks is a string \('Island'\); give a list of decks, each a list of card names"),
    ],
)
def test_a_deck_given_as_a_string_is_a_clear_error(which: str, decks: Any, match: str) -> None:
    # Not a deck of one-letter cards ("unknown card name 'I'"): the string is the mistake.
    from mtgsim.distributed import simulate_on_dask

    with pytest.raises(mtgsim.InvalidArgumentError, match=match):
        if which == "simulate":
            mtgsim.simulate(decks, 2)
        else:
            simulate_on_dask(_NoClient(), decks, 2)


def test_goldfish_never_cycles_away_its_last_life_nor_typecycles_for_nothing() -> None:
    """Street Wraith at 2 life would lose the game; Islandcycling with no Island left in the
    library finds nothing. The goldfish does neither (it passes instead)."""
    g = mtgsim.Game(2, 1)
    g.add_cards(0, "library", ["Swamp"] * 10)
    g.add_cards(1, "library", ["Swamp"] * 10)
    g.add_cards(0, "battlefield", ["Island"])
    wraith, lorien = g.add_cards(0, "hand", ["Street Wraith", "Lórien Revealed"])
    g.set_life(0, 2)
    for p in (0, 1):
        g.set_policy(p, "goldfish")
    assert (g.turn, g.step, g.active_player) == (1, "precombat_main", 0)
    g.play(until="end_of_turn")
    assert g.life(0) == 2 and wraith in g.hand(0) and lorien in g.hand(0)
    # With life to spare and an Island at the bottom of the library, it cycles both.
    g = mtgsim.Game(2, 1)
    g.add_cards(0, "library", ["Swamp"] * 10)
    g.add_cards(0, "library", ["Island"], position="bottom")
    g.add_cards(1, "library", ["Swamp"] * 10)
    g.add_cards(0, "battlefield", ["Island"])
    wraith, lorien = g.add_cards(0, "hand", ["Street Wraith", "Lórien Revealed"])
    for p in (0, 1):
        g.set_policy(p, "goldfish")
    assert (g.turn, g.step, g.active_player) == (1, "precombat_main", 0)
    g.play(until="end_of_turn")
    assert wraith not in g.hand(0) and lorien not in g.hand(0) and g.life(0) == 18


def test_a_deck_of_more_than_a_million_cards_is_refused_before_any_card_is_made() -> None:
    # Twenty million cards ran the process out of memory, which aborts it.
    big = ["Island"] * (10**6 + 1)
    with pytest.raises(mtgsim.InvalidArgumentError, match="deck 0 has 1000001 cards; a deck has at most 1000000"):
        mtgsim.Game.from_decks([big, ["Island"] * 40])
    with pytest.raises(mtgsim.InvalidArgumentError, match="deck 0 has 1000001 cards"):
        mtgsim.simulate([big, ["Island"] * 40], games=1)


def test_a_condition_number_too_large_is_called_out_of_range() -> None:
    with pytest.raises(mtgsim.InvalidArgumentError, match="out of range"):
        mtgsim.simulate(games=1, stop=["turn:99999999999999999999"])
    with pytest.raises(mtgsim.InvalidArgumentError, match="must be a whole number"):
        mtgsim.simulate(games=1, stop=["turn:ten"])
