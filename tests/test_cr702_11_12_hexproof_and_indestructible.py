"""Hexproof and indestructible gained until end of turn (CR 702.11, 702.12, 611.2c), through
Smuggler's Surprise's third spree mode: "+ {1} — Creatures you control with power 4 or greater
gain hexproof and indestructible until end of turn."""

from __future__ import annotations

import mtgsim
import pytest
from conftest import add_hand, new_game, untouched, with_libraries

SURPRISE = "Smuggler's Surprise"


def granted_game():
    """Player 0 controls Troll of Khazad-dûm (6/5) and Grizzly Bears (2/2) and casts the
    spree's {1} mode; player 1 has a Mountain and two Lightning Bolts."""
    g = with_libraries(new_game(), 10)
    troll, bears = g.add_cards(0, "battlefield", ["Troll of Khazad-dûm", "Grizzly Bears"])
    g.add_cards(0, "battlefield", ["Forest", "Mountain", "Mountain", "Mountain"])
    (surprise,) = add_hand(g, 0, [SURPRISE])
    g.cast(surprise, modes=[2])
    g.resolve_top()
    return g, troll, bears


def test_only_creatures_with_power_4_or_greater_you_control_gain_them():  # CR 611.2c, 700.2
    g, troll, bears = granted_game()
    assert sorted(g.gained_keywords(troll)) == ["hexproof", "indestructible"]
    assert g.gained_keywords(bears) == []


def test_hexproof_stops_an_opponents_spell_from_targeting_it():  # CR 702.11b
    g, troll, bears = granted_game()
    g.add_cards(1, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 1, ["Lightning Bolt"])
    g.pass_priority()  # player 1 has priority
    with untouched(g, mtgsim.MtgsimError):
        g.cast(bolt, targets=[troll])
    g.cast(bolt, targets=[bears])  # the Bears didn't gain it
    assert g.stack() != []


def test_its_controller_can_still_target_it():  # CR 702.11b ("opponents")
    g, troll, _ = granted_game()
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[troll])
    assert spell is not None and g.stack() == [spell]


def test_indestructible_survives_lethal_damage_until_the_effect_ends():  # CR 702.12b, 704.5g, 514.2
    g, troll, _ = granted_game()
    bolts = add_hand(g, 0, ["Lightning Bolt", "Lightning Bolt"])
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    for b in bolts:
        g.cast(b, targets=[troll])
        g.resolve_top()
    assert g.object(troll).zone == "battlefield"  # 6 damage on a 5-toughness creature
    g.next_turn()  # cleanup: damage wears off and the effect ends together (CR 514.2)
    assert g.object(troll).zone == "battlefield" and g.gained_keywords(troll) == []


def test_without_the_mode_lethal_damage_destroys_it():  # CR 704.5g
    g = with_libraries(new_game(), 10)
    (troll,) = g.add_cards(0, "battlefield", ["Troll of Khazad-dûm"])
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    for b in add_hand(g, 0, ["Lightning Bolt", "Lightning Bolt"]):
        g.cast(b, targets=[troll])
        g.resolve_top()
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(troll)
    assert [g.name(c) for c in g.graveyard(0)][0] == "Troll of Khazad-dûm"
