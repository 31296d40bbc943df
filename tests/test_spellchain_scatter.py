"""Spellchain Scatter (a seed card): "Kicker {U}. When you next cast an instant or sorcery spell
this turn, conjure a duplicate of that spell into your hand. If this spell wasn't kicked, discard
the duplicate at the beginning of your next end step." Delayed triggers (CR 603.7) and conjure
(the engine's meaning: a new real card with the printed characteristics, none of the spell's
choices)."""

from __future__ import annotations

import mtgsim


def scatter_game(kick: bool) -> tuple[mtgsim.Game, int]:
    g = mtgsim.Game(2, 3)
    g.add_cards(0, "battlefield", ["Mountain", "Island", "Mountain", "Island"])
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    scatter, bolt = g.add_cards(0, "hand", ["Spellchain Scatter", "Lightning Bolt"])
    g.set_policy(0, "manual")
    g.set_policy(1, "manual")
    g.cast(scatter, kick=kick)
    g.resolve_top()  # creates the delayed trigger (CR 603.7a)
    return g, bolt


def names(g: mtgsim.Game, ids: list[int]) -> list[str]:
    return [g.name(i) for i in ids]


def test_the_next_instant_conjures_a_duplicate_above_the_spell():  # CR 603.7, 601.2i
    g, bolt = scatter_game(kick=True)
    spell = g.cast(bolt, targets=[{"player": 1}])
    assert spell is not None
    assert names(g, g.stack()) == ["Spellchain Scatter", "Lightning Bolt"]  # the trigger is on top
    g.resolve_top()
    (dup,) = g.hand(0)
    assert g.name(dup) == "Lightning Bolt" and dup != bolt
    assert not g.kicked(dup) and g.object(dup).owner == 0
    assert any(e["kind"] == "conjured" and e["card"] == dup for e in g.events)


def test_it_triggers_only_once():  # CR 603.7c
    g, bolt = scatter_game(kick=True)
    g.cast(bolt, targets=[{"player": 1}])
    g.resolve_top()
    (dup,) = g.hand(0)
    g.resolve_top()  # the first Bolt
    g.add_cards(0, "battlefield", ["Mountain"])
    g.cast(dup, targets=[{"player": 1}])
    assert names(g, g.stack()) == ["Lightning Bolt"]  # no second duplicate
    g.resolve_top()
    assert g.hand(0) == [] and g.life(1) == 14


def test_unkicked_the_duplicate_is_discarded_at_the_next_end_step():  # CR 603.7, 513.1, 701.9
    g, bolt = scatter_game(kick=False)
    g.cast(bolt, targets=[{"player": 1}])
    g.resolve_top()
    g.resolve_top()
    assert names(g, g.hand(0)) == ["Lightning Bolt"]
    g.advance_to("end")
    assert names(g, g.stack()) == ["Spellchain Scatter"]  # the delayed discard trigger
    g.resolve_top()
    assert g.hand(0) == []
    assert [e["kind"] for e in g.events if e["kind"] in ("discarded",)] == ["discarded"]


def test_kicked_the_duplicate_stays():  # "If this spell wasn't kicked"
    g, bolt = scatter_game(kick=True)
    g.cast(bolt, targets=[{"player": 1}])
    g.resolve_top()
    g.resolve_top()
    g.advance_to("end")
    assert g.stack() == [] and names(g, g.hand(0)) == ["Lightning Bolt"]


def test_a_duplicate_that_left_the_hand_is_not_discarded():  # CR 400.7: a new object
    g, bolt = scatter_game(kick=False)
    g.cast(bolt, targets=[{"player": 1}])
    g.resolve_top()
    (dup,) = g.hand(0)
    g.resolve_top()
    g.add_cards(0, "battlefield", ["Mountain"])
    g.cast(dup, targets=[{"player": 1}])
    g.resolve_top()
    g.advance_to("end")
    g.resolve_top()
    assert not any(e["kind"] == "discarded" for e in g.events)
    assert g.life(1) == 14


def test_it_expires_at_the_end_of_the_turn():  # "this turn"
    g, bolt = scatter_game(kick=True)
    g.next_turn()  # player 1's turn
    g.next_turn()  # player 0's again
    g.add_cards(0, "battlefield", ["Mountain"])
    g.cast(bolt, targets=[{"player": 1}])
    assert names(g, g.stack()) == ["Lightning Bolt"]


def test_a_creature_spell_does_not_trigger_it():  # "an instant or sorcery spell"
    g, bolt = scatter_game(kick=True)
    g.advance_to("postcombat_main")  # a creature at sorcery speed, later the same turn
    (bears,) = g.add_cards(0, "hand", ["Grizzly Bears"])
    forests = g.add_cards(0, "battlefield", ["Forest", "Forest"])
    g.cast(bears, payment=forests)
    assert names(g, g.stack()) == ["Grizzly Bears"]
    g.resolve_top()
    g.cast(bolt, targets=[{"player": 1}])
    assert names(g, g.stack()) == ["Spellchain Scatter", "Lightning Bolt"]
