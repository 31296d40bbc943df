"""CR 305 lands: playing a land is a special action (305.1, 116.2a), once per turn (305.2), only
in your own turn (305.3), main phase with an empty stack; putting a land onto the battlefield
is not playing it (305.4); lands are not cast; lands that enter tapped (614.1c)."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import add_hand, kinds, new_game, untouched, with_libraries


def test_playing_a_land_puts_it_onto_the_battlefield_without_the_stack():  # CR 305.1, 116.2a, 400.7
    g = with_libraries(new_game(strict=True))
    (island,) = add_hand(g, 0, ["Island"])
    g.clear_events()
    perm = g.play_land(island)
    assert perm != island and g.battlefield() == [perm] and g.hand(0) == [] and g.stack() == []
    o = g.object(perm)
    assert (o.zone, o.owner, o.controller, o.tapped) == ("battlefield", 0, 0, False)
    assert g.events == [{"kind": "land_played", "player": 0, "card": perm}]  # no spell_cast
    assert g.priority_player == 0  # 117.3c: the player keeps priority
    g.activate_mana(perm)  # it can be tapped for mana right away
    assert g.mana_pool(0)["U"] == 1


def test_only_one_land_per_turn():  # CR 305.2, 305.2b
    g = with_libraries(new_game())
    island, swamp = add_hand(g, 0, ["Island", "Swamp"])
    g.play_land(island)
    with untouched(g, mtgsim.IllegalActionError, match="305.2"):
        g.play_land(swamp)
    g.advance_to("postcombat_main")
    with untouched(g, mtgsim.IllegalActionError):
        g.play_land(swamp)  # still the same turn


def test_the_land_play_comes_back_each_turn():  # CR 305.2
    g = with_libraries(new_game())
    i0, s0 = add_hand(g, 0, ["Island", "Swamp"])
    (i1,) = add_hand(g, 1, ["Forest"])
    g.play_land(i0)
    g.next_turn()
    g.advance_to("precombat_main")
    assert g.active_player == 1
    g.play_land(i1)
    g.next_turn()
    g.advance_to("precombat_main")
    assert (g.turn, g.active_player) == (3, 0)
    assert g.play_land(s0) is not None
    assert [g.name(c) for c in g.battlefield()] == ["Island", "Forest", "Swamp"]


def test_a_land_is_played_only_in_its_owners_main_phase():  # CR 305.1, 116.2a
    g = with_libraries(new_game())
    (island,) = add_hand(g, 0, ["Island"])
    for step in ("begin_combat", "end"):
        g.advance_to(step)
        with untouched(g, mtgsim.IllegalActionError):
            g.play_land(island)
    g.next_turn()
    g.next_turn()
    assert (g.turn, g.step, g.priority_player) == (3, "upkeep", 0)
    with untouched(g, mtgsim.IllegalActionError):
        g.play_land(island)
    g.advance_to("postcombat_main")
    assert g.play_land(island) is not None


def test_a_land_cannot_be_played_in_another_players_turn():  # CR 305.3
    g = with_libraries(new_game())
    (forest,) = add_hand(g, 1, ["Forest"])
    g.pass_priority()  # player 1 has priority in player 0's main phase with an empty stack
    assert (g.priority_player, g.step, g.stack()) == (1, "precombat_main", [])
    with untouched(g, mtgsim.IllegalActionError):
        g.play_land(forest)


def test_a_land_is_played_only_with_an_empty_stack():  # CR 305.1, 116.2a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    island, bolt = add_hand(g, 0, ["Island", "Lightning Bolt"])
    g.cast(bolt, targets=[{"player": 1}])
    with untouched(g, mtgsim.IllegalActionError):
        g.play_land(island)
    g.resolve_top()
    assert g.play_land(island) is not None


def test_a_land_is_played_only_from_its_owners_hand():  # CR 305.1
    g = with_libraries(new_game())
    (gy,) = g.add_cards(0, "graveyard", ["Island"])
    (lib,) = g.add_cards(0, "library", ["Island"])
    (opp,) = add_hand(g, 1, ["Island"])
    for card in (gy, lib, opp):
        with untouched(g, mtgsim.IllegalActionError):
            g.play_land(card)


def test_a_nonland_card_cannot_be_played_as_a_land_and_a_land_cannot_be_cast():  # CR 305.1, 601.3
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    bears, island = add_hand(g, 0, ["Grizzly Bears", "Island"])
    with untouched(g, mtgsim.IllegalActionError, match="not a land"):
        g.play_land(bears)
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(island)


def test_putting_a_land_onto_the_battlefield_by_an_effect_is_not_playing_it():  # CR 305.4
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    jo, forest, swamp = add_hand(g, 0, ["Joint Exploration", "Forest", "Swamp"])
    g.cast(jo, kick=True)
    g.resolve_top()
    g.answer((g.pending.cards, []))  # scry 2: keep both
    assert g.pending.purpose == "put_from_hand"
    g.answer([forest])
    assert "land_played" not in kinds(g.events)
    assert g.play_land(swamp) is not None  # the turn's land play is still there


def test_moving_a_land_onto_the_battlefield_is_not_playing_it():  # CR 305.4
    g = with_libraries(new_game())
    island, swamp = add_hand(g, 0, ["Island", "Swamp"])
    g.move(island, "battlefield")
    assert g.play_land(swamp) is not None


def test_a_land_play_waits_for_a_pending_decision():  # GUIDE §4
    g = with_libraries(new_game())
    island, swamp, mountain = add_hand(g, 0, ["Island", "Swamp", "Mountain"])
    g.discard(0, 1)
    with untouched(g, mtgsim.DecisionPendingError):
        g.play_land(island)


@pytest.mark.parametrize("land", ["Temple of Malady", "Canyon Slough"])
def test_a_land_that_enters_tapped_enters_tapped_when_played(land):  # CR 614.1c, 305.1
    g = with_libraries(new_game())
    (card,) = add_hand(g, 0, [land])
    perm = g.play_land(card)
    assert g.object(perm).tapped is True
    with untouched(g, mtgsim.IllegalActionError):
        g.activate_mana(perm, "B")
