"""Shared helpers for the rule-by-rule scenario tests (tests/test_cr*.py, test_decisions.py,
test_errors.py, test_snapshots.py).

Conventions used throughout:

* Every game built with :func:`new_game` has every player on the ``"manual"`` policy, so a
  decision nobody planned for shows up as ``game.pending`` (and the action returns ``None``)
  instead of being answered silently by a built-in policy. Tests that want no decision at all
  also set ``game.strict = True``.
* Libraries and graveyards are listed top card first; ``add_cards(..., "library", names)`` on an
  empty library gives ``game.library(p) == ids``.
* :func:`add_hand` adds cards to a hand one at a time, so ``game.hand(p)`` lists them in the
  order given (arrival order).
* :func:`state` captures everything a rejected action must leave untouched (CR 733);
  :func:`assert_unchanged` / :func:`rejected` compare it before and after.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import pytest

import mtgsim


def new_game(num_players: int = 2, seed: int = 0, *, manual: bool = True, strict: bool = False) -> mtgsim.Game:
    """An empty game; by default every player answers manually (nothing is decided by accident)."""
    g = mtgsim.Game(num_players, seed)
    if manual:
        for p in range(num_players):
            g.set_policy(p, "manual")
    g.strict = strict
    return g


def add_hand(g: mtgsim.Game, player: int, names: list[str]) -> list[int]:
    """Puts the named cards into the player's hand one by one: ``g.hand(player)`` ends with them,
    in this order. Returns their ids in the same order."""
    return [g.add_cards(player, "hand", [n])[0] for n in names]


def names(g: mtgsim.Game, ids: list[int]) -> list[str]:
    return [g.name(i) for i in ids]


def state(g: mtgsim.Game) -> dict[str, Any]:
    """Everything observable about a game that a rejected action must not change."""
    n = g.num_players
    return {
        "dict": g.to_dict(),
        "json": g.to_json(),
        "events": g.events,
        "pending": g.pending.to_dict() if g.pending is not None else None,
        "policies": [g.policy(p) for p in range(n)],
        "scripts": [g.script_len(p) for p in range(n)],
        "strict": g.strict,
        "recording": g.recording,
        "active": g.active_player,
        "over": g.is_over,
    }


def assert_unchanged(g: mtgsim.Game, before: dict[str, Any]) -> None:
    after = state(g)
    for key in before:
        assert after[key] == before[key], f"{key} changed by a rejected action"


@contextlib.contextmanager
def rejected(g: mtgsim.Game, exc: type[BaseException], match: str | None = None) -> Iterator[pytest.ExceptionInfo[BaseException]]:
    """``with rejected(g, SomeError): g.action(...)`` — the action must raise ``exc`` and leave the
    game exactly as it was (CR 733)."""
    before = state(g)
    with pytest.raises(exc, match=match) as info:
        yield info
    assert_unchanged(g, before)


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


@pytest.fixture
def g2() -> mtgsim.Game:
    """Two players, seed 0, both manual, empty zones."""
    return new_game(2)


# ----- casting, mana and the stack (test_cr601_*, test_cr106_*, test_cr702_33_*, test_cr117_*, test_cr305_*) -----


def full_state(g: mtgsim.Game) -> str:
    """The complete saved state (what pickling stores): besides :func:`state` it holds the step,
    priority and passes, mana pools, lands played, cast info, stickers, the stack's targets, the
    generators, auto-pay flags and any unfinished work."""
    return g.__reduce__()[1][0]


@contextlib.contextmanager
def untouched(g: mtgsim.Game, exc: type[BaseException], match: str | None = None) -> Iterator[pytest.ExceptionInfo[BaseException]]:
    """Like :func:`rejected`, but also compares the complete saved state (CR 733)."""
    before, full = state(g), full_state(g)
    with pytest.raises(exc, match=match) as info:
        yield info
    assert_unchanged(g, before)
    assert full_state(g) == full, "the complete state changed by a rejected action"


def with_libraries(g: mtgsim.Game, n: int = 10, name: str = "Island") -> mtgsim.Game:
    """Gives every player ``n`` library cards, so that passing through draw steps loses nobody."""
    for p in range(g.num_players):
        g.add_cards(p, "library", [name] * n)
    return g


def redefine(g: mtgsim.Game, placeholder: str, definition: dict[str, Any]) -> mtgsim.Game:
    """A copy of ``g`` in which every card named ``placeholder`` (a built-in card already in the
    game) has the card definition ``definition`` instead: a card record of the built-in format,
    with its ``"rules"`` object written out (keyword lines of the Oracle text are not re-read).

    Used only for mechanics that no built-in card has ({X}, hybrid and Phyrexian costs,
    kicked-only targets, kicker with flashback). It goes through the saved-state format
    (``Game._load``), which keeps each game's card definitions."""
    import json

    saved = json.loads(full_state(g))
    hits = [i for i, d in enumerate(saved["defs"]) if d["name"] == placeholder]
    assert hits, f"{placeholder} is not in the game"
    for i in hits:
        saved["defs"][i] = definition
    return mtgsim.Game._load(json.dumps(saved))


# ----- the play loop and copies (test_cr117_play_loop.py, test_cr707_copies.py) -----


def all_zone_ids(g: mtgsim.Game) -> list[int]:
    """Every object id listed in any zone: each player's library, hand, graveyard and outside
    zone, then the battlefield, the stack, exile and the command zone. Tokens and copies of
    spells are counted while they exist; cards always."""
    ids: list[int] = []
    for p in range(g.num_players):
        ids += g.library(p) + g.hand(p) + g.graveyard(p) + g.outside(p)
    return ids + g.battlefield() + g.stack() + g.exile() + g.command()


#: The steps of a turn in order (CR 500.1), by the names the engine uses.
STEPS = ("untap", "upkeep", "draw", "precombat_main", "begin_combat", "declare_attackers", "declare_blockers", "combat_damage", "end_combat", "postcombat_main", "end", "cleanup")


#: A card with {X}, which no built-in card has (used through `redefine`).
X_DRAW = {
    "name": "Test X Draw",
    "mana_cost": "{X}{U}",
    "type_line": "Sorcery",
    "oracle_text": "Target player draws X cards.",
    "rules": {"targets": [{"kind": "player"}], "spell": [{"draw": {"who": {"target": 0}, "count": "x"}}]},
}
