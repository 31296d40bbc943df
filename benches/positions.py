"""The positions the benchmarks time, shared with the profile-guided build's training run
(`.ci/pgo_workload.py`), which must exercise the same paths. No pytest here: the training run
imports it without the test extras."""

from __future__ import annotations

from typing import Any

from mtgsim import Game

LIBRARY = ["Island", "Swamp", "Forest", "Mountain"] * 6 + ["Grizzly Bears", "Hill Giant", "Counterspell", "Lightning Bolt"] * 9
assert len(LIBRARY) == 60


def library_position(cls: Any = Game) -> Any:
    """Player 1 has a 60-card library; every decision is answered by the random policy. ``cls``
    is the engine's Game or the pure-Python reference model's."""
    g = cls(2, 7)
    g.add_cards(1, "library", LIBRARY)
    g.recording = False
    g.set_policy(1, "random")
    return g


def casting_position() -> tuple[Game, int]:
    """Player 0 has eight untapped lands and Everflowing Chalice in hand (multikicker {2})."""
    g = Game(2, 3)
    g.add_cards(0, "battlefield", ["Island"] * 4 + ["Swamp"] * 4)
    (chalice,) = g.add_cards(0, "hand", ["Everflowing Chalice"])
    g.recording = False
    for p in (0, 1):
        g.set_policy(p, "first")
    return g, chalice


def typecycling_position() -> tuple[Game, int]:
    """Player 0 has a 60-card library with 20 Islands, an untapped Island, and Lórien Revealed
    (Islandcycling {1}) in hand."""
    g = Game(2, 5)
    g.add_cards(0, "library", (["Island"] + ["Swamp"] * 2) * 20)  # 60 cards, 20 Islands
    g.add_cards(1, "library", ["Swamp"] * 60)
    g.add_cards(0, "battlefield", ["Island"])
    (card,) = g.add_cards(0, "hand", ["Lórien Revealed"])
    g.recording = False
    for p in (0, 1):
        g.set_policy(p, "first")
    return g, card
