"""Copies of spells (CR 707.10): ``Game.copy_spell`` puts a copy on the stack with the spell's
choices — kicked status and number of kicks (CR 702.33d, 707.2), X, targets — but the copy is not
cast. A copy resolving does what the spell does; a copy of an instant or sorcery then ceases to
exist (CR 704.5e, 707.10a) and a copy of a permanent spell becomes a token (CR 608.3f, 707.10f,
111.13) that ceases to exist once it leaves the battlefield (CR 111.7, 704.5d). No card is ever
created or lost by copying."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import X_DRAW, add_hand, all_zone_ids, kinds, names, new_game, redefine, untouched, with_libraries



def game() -> mtgsim.Game:
    return with_libraries(new_game(), 10)


def bolt_on_stack(target=None) -> tuple[mtgsim.Game, int]:
    """Player 0 has cast Lightning Bolt at ``target`` (player 1 by default); 20 library cards."""
    g = game()
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[target if target is not None else {"player": 1}])
    return g, spell


def resolve_all(g: mtgsim.Game) -> None:
    while g.stack():
        g.resolve_top()


# ----- 707.10: a copy is put on the stack, not cast ---------------------------------------------------------


def test_a_copy_goes_on_top_of_the_stack_and_is_not_cast():  # CR 707.10, 601.2i, 405.1
    g, spell = bolt_on_stack()
    cards = len(all_zone_ids(g))
    untapped = [c for c in g.battlefield() if not g.object(c).tapped]
    g.clear_events()
    copy = g.copy_spell(spell)
    assert g.stack() == [copy, spell] and copy != spell
    assert g.events == [{"kind": "spell_copied", "spell": spell, "copy": copy, "controller": 0}]  # no spell_cast
    o = g.object(copy)
    assert (o.name, o.zone, o.owner, o.controller) == ("Lightning Bolt", "stack", 0, 0)
    assert [c for c in g.battlefield() if not g.object(c).tapped] == untapped  # nothing paid
    assert len(all_zone_ids(g)) == cards + 1  # the copy, which is no card
    g.check_invariants()


def test_a_copy_copies_the_targets():  # CR 707.10 ("all decisions made for it, including ... targets")
    g, spell = bolt_on_stack()
    copy = g.copy_spell(spell)
    assert g.cast_info(copy)["targets"] == g.cast_info(spell)["targets"] == [[{"player": 1}]]
    resolve_all(g)
    assert (g.life(0), g.life(1)) == (20, 14)
    assert [e["target"] for e in g.events if e["kind"] == "damage_dealt"] == [{"player": 1}, {"player": 1}]


@pytest.mark.parametrize("kicks", [0, 1, 2])
def test_a_copy_of_a_kicked_spell_is_kicked_the_same_number_of_times(kicks):  # CR 702.33d, 707.2, 707.10
    g = game()
    g.add_cards(0, "battlefield", ["Island"] * 4)
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
    spell = g.cast(chalice, kick=kicks)
    copy = g.copy_spell(spell)
    info = g.cast_info(copy)
    assert (info["kicked"], info["kicks"]) == (kicks > 0, [kicks, 0])
    assert g.kicked(copy) is (kicks > 0)


@pytest.mark.parametrize(("kick", "after_copy", "after_both"), [(False, 12, 4), (True, 10, 5)])
def test_a_copy_of_a_kicked_maddening_cacophony_mills_half(kick, after_copy, after_both):  # CR 702.33d, 707.10, 701.17
    g = new_game()
    g.add_cards(0, "library", ["Island"] * 5)
    g.add_cards(1, "library", ["Island"] * 20)
    g.add_cards(0, "battlefield", ["Island"] * 6)
    (mc,) = add_hand(g, 0, ["Maddening Cacophony"])
    spell = g.cast(mc, kick=kick)
    g.copy_spell(spell)
    g.resolve_top()  # the copy: eight, or half of 20
    assert len(g.library(1)) == after_copy and g.stack() == [spell]
    g.resolve_top()  # the spell: eight more (none left: 4), or half of 10 rounded up
    assert len(g.library(1)) == after_both
    assert (len(g.library(0)), names(g, g.graveyard(0))) == (5, ["Maddening Cacophony"])


def test_a_copy_copies_x():  # CR 707.10 ("the value of X"), 107.3
    g = game()
    (card,) = add_hand(g, 0, ["Stabilizer"])
    g.add_cards(0, "battlefield", ["Island"] * 4)
    g = redefine(g, "Stabilizer", X_DRAW)
    spell = g.cast(card, x=2, targets=[{"player": 0}])
    copy = g.copy_spell(spell)
    assert g.cast_info(copy)["x"] == 2
    g.resolve_top()
    assert len(g.hand(0)) == 2 and len(g.library(0)) == 8
    g.resolve_top()
    assert len(g.hand(0)) == 4 and len(g.library(0)) == 6
    assert names(g, g.graveyard(0)) == ["Test X Draw"]


def test_a_copy_can_be_controlled_by_another_player_who_owns_it():  # CR 707.10 ("owned by the player under whose control it was put on the stack")
    g, spell = bolt_on_stack()
    copy = g.copy_spell(spell, controller=1)
    o = g.object(copy)
    assert (o.owner, o.controller) == (1, 1)
    assert g.cast_info(copy)["targets"] == [[{"player": 1}]]  # the same target
    assert g.events[-1] == {"kind": "spell_copied", "spell": spell, "copy": copy, "controller": 1}


def test_a_copy_of_a_copy_keeps_the_choices():  # CR 707.10, 707.2
    g = game()
    g.add_cards(0, "battlefield", ["Island"] * 4)
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
    spell = g.cast(chalice, kick=2)
    copy2 = g.copy_spell(g.copy_spell(spell))
    assert g.cast_info(copy2)["kicks"] == [2, 0]
    resolve_all(g)
    chalices = [c for c in g.battlefield() if g.name(c) == "Everflowing Chalice"]
    assert [g.object(c).counters for c in chalices] == [{"charge": 2}] * 3


# ----- resolving: instants and sorceries cease to exist ------------------------------------------------------


def test_an_instant_copy_resolves_then_ceases_to_exist():  # CR 608.2n, 704.5e, 707.10a
    g, spell = bolt_on_stack()
    cards = len(all_zone_ids(g))
    copy = g.copy_spell(spell)
    g.clear_events()
    g.resolve_top()
    assert g.life(1) == 17 and g.stack() == [spell]
    assert g.events[-1] == {"kind": "resolved", "spell": copy, "card": None}  # its "card" went nowhere
    assert g.graveyard(0) == g.graveyard(1) == [] and g.exile() == []
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(copy)
    assert len(all_zone_ids(g)) == cards
    assert g.priority_player == 0  # CR 117.3b
    g.resolve_top()
    assert g.life(1) == 14 and names(g, g.graveyard(0)) == ["Lightning Bolt"]
    assert len(all_zone_ids(g)) == cards
    g.check_invariants()


def test_a_copy_whose_target_is_gone_does_not_resolve_and_ceases_to_exist():  # CR 608.2b, 704.5e
    g = game()
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[bears])
    copy = g.copy_spell(spell)
    cards = len(all_zone_ids(g)) - 1
    g.move(bears, "hand")
    g.clear_events()
    resolve_all(g)
    assert [(e["kind"], e["spell"], e["card"]) for e in g.events if e["kind"] == "fizzled"] == [
        ("fizzled", copy, None),
        ("fizzled", spell, g.graveyard(0)[0]),
    ]
    assert names(g, g.graveyard(0)) == ["Lightning Bolt"] and "damage_dealt" not in kinds(g.events)
    assert len(all_zone_ids(g)) == cards


# ----- Counterspell and copies -------------------------------------------------------------------------------


def test_counterspell_can_target_and_counter_a_copy_which_ceases_to_exist():  # CR 701.6a, 704.5e, 707.10
    g, spell = bolt_on_stack()
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (cs,) = add_hand(g, 1, ["Counterspell"])
    copy = g.copy_spell(spell)
    cards = len(all_zone_ids(g)) - 1
    g.pass_priority()
    assert g.priority_actions() == [{"action": "pass"}, {"action": "cast", "card": cs}]
    s_cs = g.cast(cs, targets=[copy])
    assert g.cast_info(s_cs)["targets"] == [[copy]]
    g.clear_events()
    g.resolve_top()
    assert g.events[-2] == {"kind": "countered", "spell": copy, "card": None}
    assert g.stack() == [spell] and names(g, g.graveyard(1)) == ["Counterspell"] and g.graveyard(0) == []
    g.resolve_top()  # the original was not countered
    assert g.life(1) == 17 and names(g, g.graveyard(0)) == ["Lightning Bolt"]
    assert len(all_zone_ids(g)) == cards


def test_counterspell_on_a_permanent_spells_copy_leaves_no_token_and_no_card():  # CR 701.6a, 704.5e, 707.10f
    g = game()
    g.add_cards(0, "battlefield", ["Mountain"] * 4)
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (giant,) = add_hand(g, 0, ["Hill Giant"])
    (cs,) = add_hand(g, 1, ["Counterspell"])
    spell = g.cast(giant)
    copy = g.copy_spell(spell)
    cards = len(all_zone_ids(g)) - 1
    g.pass_priority()
    g.cast(cs, targets=[copy])
    resolve_all(g)
    assert names(g, g.battlefield()).count("Hill Giant") == 1  # the original only
    assert g.graveyard(0) == [] and names(g, g.graveyard(1)) == ["Counterspell"]
    assert len(all_zone_ids(g)) == cards


# ----- 707.10f: a copy of a permanent spell becomes a token ----------------------------------------------------


def test_a_copy_of_a_kicked_chalice_becomes_a_token_with_two_charge_counters():  # CR 707.10f, 608.3f, 702.33d, 111.13
    g = game()
    g.add_cards(0, "battlefield", ["Island"] * 4)
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
    spell = g.cast(chalice, kick=2)
    cards = len(all_zone_ids(g))
    copy = g.copy_spell(spell)
    g.clear_events()
    g.resolve_top()
    (token,) = [c for c in g.battlefield() if g.name(c) == "Everflowing Chalice"]
    o = g.object(token)
    assert (o.zone, o.owner, o.controller, o.tapped, o.counters) == ("battlefield", 0, 0, False, {"charge": 2})
    assert g.kicked(token)
    assert g.events[-1] == {"kind": "resolved", "spell": copy, "card": token}
    assert g.stack() == [spell] and len(all_zone_ids(g)) == cards + 1  # the token is no card
    g.activate_mana(token)  # {T}: add {C} for each charge counter
    assert g.mana_pool(0)["C"] == 2
    g.resolve_top()
    chalices = [c for c in g.battlefield() if g.name(c) == "Everflowing Chalice"]
    assert len(chalices) == 2 and g.object(chalices[1]).counters == {"charge": 2}
    assert len(all_zone_ids(g)) == cards + 1
    g.check_invariants()


def test_a_token_from_a_copy_enters_under_the_copys_controller():  # CR 707.10, 608.3, 111.2
    g = game()
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    spell = g.cast(bears)
    g.copy_spell(spell, controller=1)
    g.resolve_top()
    token = g.battlefield()[-1]
    o = g.object(token)
    assert (o.name, o.owner, o.controller) == ("Grizzly Bears", 1, 1)
    assert g.power_toughness(token) == (2, 2)


@pytest.mark.parametrize("zone", ["hand", "graveyard", "exile", "library"])
def test_a_token_that_leaves_the_battlefield_ceases_to_exist(zone):  # CR 111.7, 704.5d
    g = game()
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    cards = len(all_zone_ids(g))
    spell = g.cast(bears)
    g.copy_spell(spell)
    g.resolve_top()
    token = g.battlefield()[-1]
    g.move(token, zone)
    assert token not in g.battlefield()
    assert g.hand(0) == [] and g.graveyard(0) == [] and g.exile() == [] and len(g.library(0)) == 10
    assert g.outside(0) == []
    assert len(all_zone_ids(g)) == cards
    g.resolve_top()
    assert names(g, g.battlefield()) == ["Forest", "Forest", "Grizzly Bears"]
    g.check_invariants()


def test_a_token_destroyed_by_lethal_damage_dies_and_ceases_to_exist():  # CR 704.5g, 111.7, 704.5d
    g = game()
    g.add_cards(0, "battlefield", ["Forest", "Forest", "Mountain"])
    bears, bolt = add_hand(g, 0, ["Grizzly Bears", "Lightning Bolt"])
    cards = len(all_zone_ids(g))
    spell = g.cast(bears)
    g.copy_spell(spell)
    g.resolve_top()
    token = g.battlefield()[-1]
    g.cast(bolt, targets=[token])
    g.clear_events()
    g.resolve_top()
    (died,) = [e for e in g.events if e["kind"] == "died"]
    assert died["from_id"] == token and g.card_name(died["card"]) == "Grizzly Bears"
    assert names(g, g.graveyard(0)) == ["Lightning Bolt"]  # no Grizzly Bears there
    g.resolve_top()
    assert names(g, g.battlefield()) == ["Forest", "Forest", "Mountain", "Grizzly Bears"]
    assert len(all_zone_ids(g)) == cards


# ----- what can't be copied (CR 733: nothing happens) --------------------------------------------------------


def test_only_a_spell_on_the_stack_can_be_copied():  # CR 707.10, 733
    g = game()
    (mountain,) = g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    (gy,) = g.add_cards(0, "graveyard", ["Lightning Bolt"])
    for bad in (mountain, bolt, gy):
        with untouched(g, mtgsim.WrongZoneError):
            g.copy_spell(bad)
    spell = g.cast(bolt, targets=[{"player": 1}])
    with untouched(g, mtgsim.NoSuchObjectError):
        g.copy_spell(bolt)  # the card's old id (CR 400.7)
    with untouched(g, mtgsim.NoSuchObjectError):
        g.copy_spell(10**6)
    for bad_player in (2, -1):
        with untouched(g, mtgsim.InvalidPlayerError):
            g.copy_spell(spell, controller=bad_player)


def test_an_ability_on_the_stack_is_not_a_spell_and_cannot_be_copied_as_one():  # CR 707.10, 113.1, 733
    # Before, Ruin Crab's landfall trigger was copied as a "spell" that became a token Ruin Crab.
    g = game()
    g.add_cards(0, "battlefield", ["Ruin Crab"])
    (island,) = add_hand(g, 0, ["Island"])
    g.play_land(island)
    (trigger,) = g.stack()
    with untouched(g, mtgsim.IllegalActionError, match="ability on the stack"):
        g.copy_spell(trigger)
    resolve_all(g)
    assert len(g.library(1)) == 7 and names(g, g.battlefield()).count("Ruin Crab") == 1  # one trigger milled 3; no token


def test_no_copy_while_a_decision_is_pending():  # GUIDE §4, CR 733
    g, spell = bolt_on_stack()
    add_hand(g, 1, ["Island", "Island"])
    g.discard(1, 1)
    assert g.pending is not None
    with untouched(g, mtgsim.DecisionPendingError):
        g.copy_spell(spell)


def test_a_player_who_left_the_game_cannot_control_a_copy():  # CR 800.4a, 733
    g = with_libraries(new_game(3), 10)
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[{"player": 2}])
    g.concede(1)
    with untouched(g, mtgsim.MtgsimError):
        g.copy_spell(spell, controller=1)


# ----- no card is created or lost ------------------------------------------------------------------------------


def test_copies_never_change_the_number_of_cards_in_the_game():  # CR 707.10, 111.6 (a token isn't a card), GUIDE §7
    g = game()
    g.add_cards(0, "battlefield", ["Island"] * 6 + ["Mountain"])
    g.add_cards(1, "battlefield", ["Island", "Island"])
    chalice, bolt = add_hand(g, 0, ["Everflowing Chalice", "Lightning Bolt"])
    (cs,) = add_hand(g, 1, ["Counterspell"])
    cards = len(all_zone_ids(g))
    s_ch = g.cast(chalice, kick=2)
    copies = [g.copy_spell(s_ch), g.copy_spell(s_ch, controller=1)]
    s_bolt = g.cast(bolt, targets=[{"player": 1}])
    copies.append(g.copy_spell(s_bolt))
    assert len(all_zone_ids(g)) == cards + 3
    g.pass_priority()
    g.cast(cs, targets=[copies[2]])  # counter the Bolt's copy
    while g.stack():
        g.resolve_top()
    assert len(all_zone_ids(g)) == cards + 2  # two Chalice tokens; the Bolt copies are gone
    owners = sorted(g.object(c).controller for c in g.battlefield() if g.name(c) == "Everflowing Chalice")
    assert owners == [0, 0, 1]
    assert (g.life(1), names(g, g.graveyard(0)), names(g, g.graveyard(1))) == (17, ["Lightning Bolt"], ["Counterspell"])
    for t in [c for c in g.battlefield() if g.name(c) == "Everflowing Chalice"]:
        g.move(t, "hand")
    assert len(all_zone_ids(g)) == cards  # the card Chalice went to hand; the tokens ceased to exist
    assert names(g, g.hand(0)) == ["Everflowing Chalice"] and g.hand(1) == []
    g.check_invariants()


# ----- findings ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("zone", ["hand", "graveyard"])
def test_a_copy_moved_off_the_stack_ceases_to_exist(zone):  # CR 704.5e, 707.10a
    g, spell = bolt_on_stack()
    cards = len(all_zone_ids(g))
    copy = g.copy_spell(spell)
    g.move(copy, zone)
    assert g.stack() == [spell]
    assert g.hand(0) == [] and g.graveyard(0) == []
    assert len(all_zone_ids(g)) == cards


def test_a_copy_controlled_by_a_player_who_leaves_the_game_ceases_to_exist():  # CR 800.4a
    g = with_libraries(new_game(3), 10)
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[{"player": 2}])
    cards = len(all_zone_ids(g))
    g.copy_spell(spell, controller=1)
    g.concede(1)
    assert g.stack() == [spell]
    assert len(g.outside(1)) == 10  # player 1's library cards, and no copy
    assert len(all_zone_ids(g)) == cards


def test_the_id_of_a_token_that_ceased_to_exist_finds_nothing():  # CR 111.7, 704.5d, 400.7
    g = game()
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    g.copy_spell(g.cast(bears))
    g.resolve_top()
    token = g.battlefield()[-1]
    gone = g.move(token, "graveyard")
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(gone)


def test_a_token_put_into_a_graveyard_is_logged_as_going_there():  # CR 111.7 (it changes zones, then ceases to exist), 700.4
    g = game()
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    g.copy_spell(g.cast(bears))
    g.resolve_top()
    token = g.battlefield()[-1]
    g.clear_events()
    g.move(token, "graveyard")
    (moved,) = [e for e in g.events if e["kind"] == "moved"]
    assert moved["from_id"] == token and moved["to"] == {"kind": "graveyard", "player": 0}
