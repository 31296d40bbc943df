"""Helpers for running the same calls on the engine (``mtgsim.Game``) and the reference model
(``reference.RefGame``) and checking that they agree. Used by test_reference_model.py and
test_state_machine.py."""

from __future__ import annotations

import json
import pickle
from typing import Any

import mtgsim
import reference

BASICS = ["Plains", "Island", "Swamp", "Mountain", "Forest"]


def full_state(g: mtgsim.Game) -> str:
    """The engine's complete saved state (what pickling stores): zones, objects with their
    generations, both kinds of generator, scripts, pending work and the event log."""
    reduced = g.__reduce__()
    return reduced[1][0]


def outcome_of(call: Any) -> tuple[str, Any]:
    """("ok", result) or ("error", exception class name)."""
    try:
        return ("ok", call())
    except (mtgsim.MtgsimError, reference.ModelError) as e:
        return ("error", type(e).__name__)


def assert_same_state(e: mtgsim.Game, m: reference.RefGame, *, events: bool = True) -> None:
    """The whole visible position agrees: every zone (ids in order, names, owners, controllers,
    tapped, counters), life, player counters, who lost, the pending decision and the outcome;
    and, by default, the event log."""
    de, dm = e.to_dict(), m.to_dict()
    if de != dm:
        diffs = []
        for k in de:
            if de[k] != dm.get(k):
                diffs.append(f"{k}:\n  engine {json.dumps(de[k])[:600]}\n  model  {json.dumps(dm.get(k))[:600]}")
        raise AssertionError("engine and model differ\n" + "\n".join(diffs))
    for p in range(m.num_players):
        assert e.library(p) == m.library(p)
        assert e.hand(p) == m.hand(p)
        assert e.graveyard(p) == m.graveyard(p)
        assert e.life(p) == m.life(p)
    assert e.battlefield() == m.battlefield()
    assert e.exile() == m.exile()
    assert e.is_over == m.is_over
    assert (e.pending is None) == (m.pending is None)
    if e.pending is not None:
        assert e.pending.to_dict() == m.pending.view()
    assert e.outcome == (m.outcome if m.outcome is None else m.to_dict()["outcome"])
    if events:
        assert e.events == m.events
    # The generators too, read from the engine's saved state: a divergence in how much randomness
    # was used shows here at once, before it shows in a later shuffle.
    saved = json.loads(full_state(e))
    assert saved["rng"]["s"] == m.rng.s, "game generator diverged"
    assert [s["rng"]["s"] for s in saved["seats"]] == [seat.rng.s for seat in m.seats], "a seat generator diverged"
    assert [len(s["script"]) for s in saved["seats"]] == [len(seat.script) for seat in m.seats]


def both(e: mtgsim.Game, m: reference.RefGame, method: str, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    """Calls ``method`` on both; they must return the same result or raise the same error class,
    and a rejected call must change nothing at all in the engine."""
    before = full_state(e)
    got_e = outcome_of(lambda: getattr(e, method)(*args, **kwargs))
    got_m = outcome_of(lambda: getattr(m, method)(*args, **kwargs))
    assert got_e == got_m, f"{method}{args}{kwargs}: engine {got_e} vs model {got_m}"
    if got_e[0] == "error":
        assert full_state(e) == before, f"rejected {method}{args}{kwargs} changed the engine's state"
    return got_e


def new_pair(num_players: int = 2, seed: int = 0) -> tuple[mtgsim.Game, reference.RefGame]:
    return mtgsim.Game(num_players, seed), reference.RefGame(num_players, seed)


def pair_from_decks(decks: list[list[str]], seed: int, **kw: Any) -> tuple[mtgsim.Game, reference.RefGame]:
    return mtgsim.Game.from_decks(decks, seed, **kw), reference.RefGame.from_decks(decks, seed, **kw)


def restored(e: mtgsim.Game) -> mtgsim.Game:
    """A pickled-and-restored copy of the engine game."""
    return pickle.loads(pickle.dumps(e))
