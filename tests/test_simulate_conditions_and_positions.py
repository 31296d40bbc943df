"""High-volume simulation (issue 6): stop conditions and recorded measures chosen from a
documented set, Monte Carlo continuations of a mid-game position, the Python-callback slow
path, and the goldfish policy's choices (cycling when it lacks lands or spells, scry by need)."""

from __future__ import annotations

import pathlib
import re
from typing import Any

import numpy as np
import pytest

import mtgsim
from mtgsim import Decision, Game
from mtgsim.sim import CONDITIONS, EXAMPLE_DECKS

COLUMNS = ("winner", "finished", "turns", "loss", "life", "library", "graveyard", "milled", "spells", "kicks", "cycles", "lands", "stopped", "recorded")


def same(a: mtgsim.SimResult, b: mtgsim.SimResult) -> list[str]:
    return [n for n in COLUMNS if not np.array_equal(getattr(a, n), getattr(b, n))]


# ----- stop conditions and recorded measures ---------------------------------------------------


def test_a_stop_condition_ends_each_game_when_it_first_holds() -> None:
    plain = mtgsim.simulate(EXAMPLE_DECKS, 60, seed=5, record=["library_empty:1"])
    stopped = mtgsim.simulate(EXAMPLE_DECKS, 60, seed=5, stop=["library_empty:1"], record=["library_empty:1"])
    assert (stopped.stopped == 0).all()
    assert not stopped.finished.any()  # stopped before the draw that would lose (CR 704.5b)
    assert (stopped.library[:, 1] == 0).all()
    # The stop turn is the turn the condition was first recorded, and the same games played
    # on reach that point identically (and then lose at the next draw).
    assert np.array_equal(stopped.turns, stopped.recorded[:, 0])
    assert np.array_equal(plain.recorded[:, 0], stopped.recorded[:, 0])
    assert (plain.turns >= stopped.turns).all() and plain.finished.all()


@pytest.mark.parametrize("policies", ["goldfish", "random", "first"])
def test_games_nothing_watches_are_the_games_a_stop_condition_watches(policies: str) -> None:
    # With no stop condition or measure the engine plays on within each call; one that never
    # holds makes it come back to check after each action. The games are the same.
    unwatched = mtgsim.simulate(EXAMPLE_DECKS, 150, seed=9, policies=policies)
    watched = mtgsim.simulate(EXAMPLE_DECKS, 150, seed=9, policies=policies, stop=["graveyard_at_least:0:1000"])
    assert same(unwatched, watched) == [] and (watched.stopped == -1).all()


def test_recorded_conditions_give_the_first_turn_or_zero() -> None:
    r = mtgsim.simulate(EXAMPLE_DECKS, 40, seed=8, record=["turn:3", "hand_empty:1", "life_at_most:0:0", "graveyard_at_least:1:10", "permanents_at_least:0:3", "lost:1"])
    assert r.recorded.shape == (40, 6) and r.recorded.dtype == np.uint32
    assert (r.recorded[:, 0] == 3).all()  # every game reaches turn 3
    assert (r.recorded[:, 2] == 0).all()  # nobody attacks the mill player
    assert (r.recorded <= r.turns[:, None]).all()
    lost = r.recorded[:, 5]
    assert np.array_equal(lost > 0, r.loss[:, 1] > 0) and np.array_equal(lost[lost > 0], r.turns[lost > 0])
    s = r.summary()["recorded"]
    assert s["turn:3"]["rate"] == 1.0 and s["life_at_most:0:0"]["held_in"] == 0


def test_the_first_stop_condition_that_holds_is_reported() -> None:
    r = mtgsim.simulate(EXAMPLE_DECKS, 20, seed=1, stop=["turn:4", "turn:2"])
    assert (r.stopped == 1).all() and (r.turns == 2).all()
    assert r.summary()["stopped"] == {"turn:4": 0, "turn:2": 20}


def test_the_documented_conditions_are_the_engines_and_each_parses() -> None:
    # mtgsim.sim.CONDITIONS, the Game.holds docstring and the engine's own list are one list.
    with pytest.raises(mtgsim.InvalidArgumentError) as err:
        Game(2).holds("bogus")
    assert str(err.value).endswith("(conditions: " + ", ".join(CONDITIONS) + ")")
    stub = pathlib.Path(mtgsim.__file__).with_name("_core.pyi").read_text()
    doc = " ".join(stub.split("def holds(", 1)[1].split('"""')[1].split())
    assert re.findall(r'"([a-z_]+:[PN:]+)"', doc) == list(CONDITIONS)
    g = Game(2)
    for c in CONDITIONS:
        assert isinstance(g.holds(c.replace("P", "1").replace("N", "3")), bool)


def test_conditions_agree_with_game_holds() -> None:
    g = Game.from_decks(list(EXAMPLE_DECKS), seed=2)
    assert g.holds("turn:1") and not g.holds("turn:2")
    assert not g.holds("library_empty:0") and g.holds("life_at_most:1:20") and not g.holds("life_at_most:1:19")
    assert g.holds("graveyard_at_least:0:0") and not g.holds("lost:0")


@pytest.mark.parametrize(
    "condition, match",
    [
        ("library_empty:2", "no player 2"),
        ("library_empty:-1", "no player -1"),
        ("turn:0", "numbered from 1"),
        ("libary_empty:1", "unknown condition"),
        ("life_at_most:1", "takes 2 value"),
        ("library_empty:one", "whole number"),
        ("graveyard_at_least:0:-3", "count must be"),
        ("", "unknown condition"),
    ],
)
def test_impossible_conditions_are_clear_errors(condition: str, match: str) -> None:
    with pytest.raises(mtgsim.InvalidArgumentError, match=match):
        mtgsim.simulate(EXAMPLE_DECKS, 5, stop=[condition])
    with pytest.raises(mtgsim.InvalidArgumentError, match=match):
        mtgsim.simulate(EXAMPLE_DECKS, 5, record=[condition])
    with pytest.raises(mtgsim.InvalidArgumentError, match=match):
        Game.from_decks(list(EXAMPLE_DECKS), seed=1).holds(condition)


def test_conditions_survive_slices_and_concat() -> None:
    whole = mtgsim.simulate(EXAMPLE_DECKS, 30, seed=3, stop=["library_empty:1"], record=["turn:6"], chunk=7, workers=2)
    a = mtgsim.simulate(EXAMPLE_DECKS, 11, seed=3, stop=["library_empty:1"], record=["turn:6"], workers=1)
    b = mtgsim.simulate(EXAMPLE_DECKS, 19, seed=3, start=11, stop=["library_empty:1"], record=["turn:6"])
    assert same(whole, a.concat(b)) == []
    other = mtgsim.simulate(EXAMPLE_DECKS, 19, seed=3, start=11, record=["turn:6"])
    with pytest.raises(ValueError, match="same seed and conditions"):
        a.concat(other)


# ----- Monte Carlo from a position --------------------------------------------------------------


def midgame(seed: int = 3, turn: int = 5) -> Game:
    g = Game.from_decks(list(EXAMPLE_DECKS), seed=seed)
    for p in (0, 1):
        g.set_policy(p, "goldfish")
    g.play(until=turn)
    return g


def test_continuations_leave_the_position_unchanged_and_are_reproducible() -> None:
    g = midgame()
    before = g.to_json()
    r1 = mtgsim.simulate_from(g, 50, seed=7, workers=1)
    r2 = mtgsim.simulate_from(g, 50, seed=7, workers=2, chunk=9)
    assert g.to_json() == before
    assert same(r1, r2) == []
    assert (r1.turns >= g.turn).all() and r1.finished.all()
    r3 = mtgsim.simulate_from(g, 50, seed=8)
    assert not np.array_equal(r1.turns, r3.turns) or not np.array_equal(r1.milled, r3.milled)


def test_continuation_i_is_the_position_reseeded_and_shuffled() -> None:
    g = midgame()
    fixed = mtgsim.simulate_from(g, 20, seed=1, shuffle_libraries=False)
    # Without shuffling, goldfish against goldfish is deterministic: every continuation is the
    # same game, which is the game played on from the position itself.
    assert len(set(fixed.turns.tolist())) == 1
    on = g.clone()
    on.play()
    assert int(fixed.turns[0]) == on.turn and [int(x) for x in fixed.library[0]] == [len(on.library(0)), len(on.library(1))]
    shuffled = mtgsim.simulate_from(g, 200, seed=1)
    assert len(set(zip(shuffled.turns.tolist(), shuffled.milled[:, 0].tolist()))) > 1  # the unknown order varies
    # Cards are neither lost nor made: each player's library + graveyard stays within their deck.
    assert ((shuffled.library + shuffled.graveyard) <= 60).all()


def test_continuations_from_a_bad_position_are_clear_errors() -> None:
    g = Game.from_decks(list(EXAMPLE_DECKS), seed=1)
    g.set_policy(0, "manual")
    g.play()  # stops with player 0's priority decision pending
    assert g.pending is not None
    with pytest.raises(mtgsim.IllegalActionError, match="pending"):
        mtgsim.simulate_from(g, 5)
    with pytest.raises(ValueError, match="policies"):
        mtgsim.simulate_from(midgame(), 5, policies=["goldfish"] * 3)
    with pytest.raises(ValueError, match="built-in"):
        mtgsim.simulate_from(midgame(), 5, policies=lambda g, d: 0)
    with pytest.raises(ValueError, match="positive"):
        mtgsim.simulate_from(midgame(), 0)


# ----- the Python callback path -----------------------------------------------------------------


def first_legal(game: Game, d: Decision) -> Any:
    """The 'first' policy written in Python."""
    k = d.kind
    if k == "action":
        return 0
    if k == "scry":
        return (d.cards, [])
    if k == "yes_no":
        return True
    if k == "number":
        return d.max
    if k == "order":
        return d.options
    if k in ("choose_cards", "targets"):
        return d.options[: d.max]
    if k == "modes":
        return list(range(max(d.min, 1)))
    raise AssertionError(k)


def test_a_python_callback_policy_plays_the_same_games_as_the_builtin_one() -> None:
    fast = mtgsim.simulate(EXAMPLE_DECKS, 12, seed=4, policies="first", max_turns=15, record=["turn:3"], stop=["library_empty:1"])
    slow = mtgsim.simulate(EXAMPLE_DECKS, 12, seed=4, policies=first_legal, max_turns=15, record=["turn:3"], stop=["library_empty:1"])
    assert same(fast, slow) == []
    mixed = mtgsim.simulate(EXAMPLE_DECKS, 6, seed=4, policies=[first_legal, "first"], max_turns=15)
    assert same(mixed, mtgsim.simulate(EXAMPLE_DECKS, 6, seed=4, policies="first", max_turns=15)) == []


def test_a_python_callback_policy_answers_the_opening_hand_choices_too() -> None:  # CR 103.6a
    """Leyline of the Void may begin the game on the battlefield: the callback is asked, as
    the built-in policy is (before, the default random policy answered it for the callback)."""
    seen: list[str] = []

    def first_watching(game: Game, d: Decision) -> Any:
        seen.append(d.purpose)
        return first_legal(game, d)

    decks = [["Leyline of the Void"] * 4 + ["Swamp"] * 36, ["Island"] * 40]
    kw: dict[str, Any] = dict(seed=0, max_turns=3, record=["permanents_at_least:0:1"])
    fast = mtgsim.simulate(decks, 8, policies="first", **kw)
    slow = mtgsim.simulate(decks, 8, policies=first_watching, **kw)
    assert "begin_on_battlefield" in seen
    assert same(fast, slow) == []


def test_the_callback_path_checks_its_conditions_before_playing() -> None:
    with pytest.raises(mtgsim.InvalidArgumentError, match="at most 100"):
        mtgsim.simulate(EXAMPLE_DECKS, 2, stop=["lost:0"] * 101, policies=first_legal, max_turns=5)
    with pytest.raises(mtgsim.InvalidArgumentError, match="turn:0"):
        mtgsim.simulate(EXAMPLE_DECKS, 2, record=["turn:0"], policies=first_legal, max_turns=5)


def test_a_callback_that_answers_wrongly_is_a_clear_error() -> None:
    with pytest.raises(mtgsim.InvalidAnswerError):
        mtgsim.simulate(EXAMPLE_DECKS, 2, seed=1, policies=lambda g, d: 99999, max_turns=5)


def test_policy_count_must_match_the_players() -> None:
    with pytest.raises(ValueError, match="2 players but 3 policies"):
        mtgsim.simulate(EXAMPLE_DECKS, 2, policies=["goldfish"] * 3)


# ----- the goldfish policy ----------------------------------------------------------------------


def position(hand: list[str], battlefield: list[str], library: list[str]) -> tuple[Game, list[int]]:
    g = Game(2, 1)
    g.add_cards(0, "library", library)
    g.add_cards(1, "library", ["Forest"] * 20)
    g.add_cards(0, "battlefield", battlefield)
    cards = g.add_cards(0, "hand", hand)
    for p in (0, 1):
        g.set_policy(p, "goldfish")
    assert g.step == "precombat_main" and g.active_player == 0  # where a new Game starts
    return g, cards


def test_goldfish_typecycles_when_it_holds_no_land() -> None:  # CR 702.29
    g, (lorien, bears) = position(["Lórien Revealed", "Grizzly Bears"], ["Island"], ["Swamp"] * 5 + ["Island"] * 5)
    g.play(until="postcombat_main")
    assert lorien not in g.hand(0) and [g.name(c) for c in g.graveyard(0)] == ["Lórien Revealed"]  # cycled
    assert g.stats(0)["cycles"] == 1
    # The Island it found is the land it then plays.
    assert g.stats(0)["lands"] == 1 and [g.name(c) for c in g.battlefield()].count("Island") == 2


def test_goldfish_keeps_its_cards_when_it_has_lands_and_spells() -> None:
    g, (lorien, giant, *lands) = position(["Lórien Revealed", "Hill Giant", "Island", "Island"], ["Island"], ["Swamp"] * 10)
    g.play(until="postcombat_main")  # plays an Island and still holds one, and a spell for later
    assert g.stats(0) == {"milled": 0, "spells": 0, "kicks": 0, "cycles": 0, "lands": 1}
    assert lorien in g.hand(0) and giant in g.hand(0)


def test_goldfish_cycles_when_it_holds_only_lands_and_cycling_cards() -> None:
    g, (wraith, land) = position(["Street Wraith", "Forest"], ["Forest"], ["Swamp"] * 10)
    g.play(until="postcombat_main")
    assert g.stats(0)["cycles"] == 1 and g.life(0) == 18  # Cycling—Pay 2 life


def test_goldfish_scries_by_need() -> None:  # CR 701.22
    def scried(hand: list[str]) -> tuple[list[str], list[str]]:
        g = Game(2, 1)
        top = g.add_cards(0, "library", ["Island", "Grizzly Bears"] + ["Swamp"] * 5)
        g.add_cards(0, "hand", hand)
        g.set_policy(0, "goldfish")
        g.scry(0, 2)
        lib = g.library(0)
        return [g.name(c) for c in lib[:1]], [g.name(c) for c in lib[-2:]]

    assert scried([]) == (["Island"], ["Swamp", "Grizzly Bears"])  # no land in hand: keep the land
    assert scried(["Forest"]) == (["Grizzly Bears"], ["Swamp", "Island"])  # a land in hand: keep the spell


# ----- from the command line ---------------------------------------------------------------------


def test_cli_simulate_stops_and_records_conditions() -> None:
    import subprocess
    import sys

    args = [sys.executable, "-m", "mtgsim", "simulate", "--games", "60", "--seed", "2", "--quiet", "--stop", "library_empty:1", "--record", "turn:3", "--json", "-"]
    p = subprocess.run(args, capture_output=True, text=True, check=True)
    import json

    data = json.loads(p.stdout)
    assert data["stopped"] == {"library_empty:1": 60} and data["recorded"]["turn:3"]["held_in"] == 60
    table = subprocess.run(args[:-2], capture_output=True, text=True, check=True).stdout
    assert "stopped at library_empty:1: 60" in table and "turn:3: held in 60 games" in table
    bad = subprocess.run(args[:6] + ["--stop", "library_empty:7"], capture_output=True, text=True)
    assert bad.returncode != 0 and "no player 7" in bad.stderr and "Traceback" not in bad.stderr
