"""CR 602 activated abilities through ``Game.activate``: costs (CR 118, 601.2h via 602.2b) of every kind the
card vocabulary has — mana, {T} (107.5, 302.6), {Q} (107.6), sacrificing the permanent itself or
another permanent (701.21a), paying life (119.4), discarding a card (701.9), removing counters,
loyalty (606) — X announced (107.3a, 601.2b), targets chosen on activation (601.2c) and checked
on resolution (608.2b), sacrificed-creature power as it last existed (608.2h), illegal
activations undone (733); mana abilities that skip the stack (605.3b) with Treasure tokens from
Unexpected Windfall's discard-as-a-cost (601.2f-h, 111.7); Thrasios; abilities as priority
actions (117.1b) answered by policies.

Every game is on the manual policy (conftest.new_game), so any unplanned decision shows up as
``pending``; games that should ask nothing are strict."""

from __future__ import annotations

from collections import Counter

import pytest

import mtgsim
from conftest import add_hand, kinds, names, new_game, redefine, untouched, with_libraries

EMPTY_POOL = {"W": 0, "U": 0, "B": 0, "R": 0, "G": 0, "C": 0}
P0, P1, P2 = {"player": 0}, {"player": 1}, {"player": 2}


def activate_action(source: int, index: int = 0) -> dict:
    return {"action": "activate", "source": source, "index": index}


def activations(g: mtgsim.Game) -> list[dict]:
    return [a for a in g.priority_actions() if a["action"] == "activate"]


def jace_game(loyalty: int = 4, library: int = 10, num_players: int = 2) -> tuple[mtgsim.Game, int]:
    """Player 0 (active, first main phase, priority) controls Jace, Wielder of Mysteries with
    ``loyalty`` loyalty counters; every library has ``library`` Islands."""
    g = with_libraries(new_game(num_players), library)
    (j,) = add_hand(g, 0, ["Jace, Wielder of Mysteries"])
    j = g.move(j, "battlefield")  # enters with its printed loyalty 4 (CR 306.5b)
    if loyalty > 4:
        g.add_counters(j, "loyalty", loyalty - 4)
    elif loyalty < 4:
        g.remove_counters(j, "loyalty", 4 - loyalty)
    assert g.object(j).counters == ({"loyalty": loyalty} if loyalty else {})
    return g, j


# Abilities no built-in card has, written out through conftest.redefine (placeholders named).

#: Ornithopter as a noncreature artifact "{Q}: You gain 2 life." (CR 107.6).
UNTAPPER = {
    "name": "Ornithopter", "mana_cost": "{0}", "type_line": "Artifact", "oracle_text": "{Q}: You gain 2 life.",
    "rules": {"activated": [{"cost": {"untap": True}, "effects": [{"gain_life": {"amount": 2}}]}]},
}  # fmt: skip
#: The same ability on a creature (CR 302.6 applies to {Q} too).
UNTAPPER_CREATURE = dict(UNTAPPER, type_line="Artifact Creature — Thopter", power="0", toughness="2")
#: Wicker Picker as "{1}, Remove two charge counters from this: Draw a card."
BATTERY = {
    "name": "Wicker Picker", "mana_cost": "{1}", "type_line": "Artifact",
    "oracle_text": "{1}, Remove two charge counters from this artifact: Draw a card.",
    "rules": {"activated": [{"cost": {"mana": "{1}", "remove_counters": ["charge", 2]}, "effects": [{"draw": {"count": 1}}]}]},
}  # fmt: skip
#: Hill Giant as "Pay 3 life: Draw a card." (CR 119.4).
LIFE_DRAWER = {
    "name": "Hill Giant", "mana_cost": "{3}{R}", "type_line": "Creature — Giant", "power": "3", "toughness": "3",
    "oracle_text": "Pay 3 life: Draw a card.",
    "rules": {"activated": [{"cost": {"pay_life": 3}, "effects": [{"draw": {"count": 1}}]}]},
}  # fmt: skip
#: Canyon Slough as a land with "{X}{1}{U}, Discard this card: Draw X cards." from hand, a
#: cycling ability (CR 107.3a, 702.29a).
X_CYCLER = {
    "name": "Canyon Slough", "mana_cost": "", "type_line": "Land", "oracle_text": "Cycling {X}{1}{U}: draw X cards instead.",
    "rules": {"activated": [{"cost": {"mana": "{X}{1}{U}", "discard_self": True}, "effects": [{"draw": {"count": "x"}}], "zone": "hand", "cycling": True}]},
}  # fmt: skip
#: Savannah Lions as "{R}: Savannah Lions deals 1 damage to target creature." (a target that may
#: not exist, CR 601.2c).
PINGER = {
    "name": "Savannah Lions", "mana_cost": "{W}", "type_line": "Creature — Cat", "power": "2", "toughness": "1",
    "oracle_text": "{R}: This creature deals 1 damage to target creature.",
    "rules": {"activated": [{"cost": {"mana": "{R}"}, "targets": [{"kind": "creature"}], "effects": [{"damage": {"target": 0, "amount": 1}}]}]},
}  # fmt: skip
#: Grizzly Bears as "Sacrifice a creature: You gain 1 life." (Bloodthrone Vampire's kind of cost).
SAC_OUTLET_BEAR = {
    "name": "Grizzly Bears", "mana_cost": "{1}{G}", "type_line": "Creature — Bear", "power": "2", "toughness": "2",
    "oracle_text": "Sacrifice a creature: You gain 1 life.",
    "rules": {"activated": [{"cost": {"sacrifice": "creature"}, "effects": [{"gain_life": {"amount": 1}}]}]},
}  # fmt: skip


# ----- 602.2, 118: mana costs (Thrasios) --------------------------------------------------------------------


def test_thrasios_pays_four_puts_its_ability_on_the_stack_and_a_land_goes_onto_the_battlefield_tapped():  # CR 602.2, 601.2h via 602.2b-i, 117.3c, 701.22
    g = new_game()
    bears, forest, island = g.add_cards(0, "library", ["Grizzly Bears", "Forest", "Island"])
    thrasios, *lands = g.add_cards(0, "battlefield", ["Thrasios, Triton Hero"] + ["Island"] * 5)
    g.clear_events()
    ab = g.activate(thrasios)
    assert ab is not None and g.stack() == [ab]
    o = g.object(ab)
    assert (o.zone, o.name, o.controller, o.owner) == ("stack", "Thrasios, Triton Hero", 0, 0)
    assert [g.object(x).tapped for x in lands] == [True, True, True, True, False]
    assert g.events == [{"kind": "mana_added", "player": 0, "source": x, "mana": "{U}"} for x in lands[:4]] + [
        {"kind": "ability_activated", "player": 0, "source": thrasios, "ability": ab, "cycling": False}
    ]
    assert g.mana_pool(0) == EMPTY_POOL and g.priority_player == 0  # CR 117.3c
    assert g.library(0) == [bears, forest, island]  # nothing happens before it resolves
    # Resolution: scry 1 (the Bears to the bottom), reveal the Forest: a land, onto the battlefield tapped.
    g.clear_events()
    assert g.resolve_top() is None
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.cards) == (0, "scry", "scry", [bears])
    g.answer(([], [bears]))
    assert g.stack() == [] and g.hand(0) == []
    new_forest = g.battlefield()[-1]
    assert g.name(new_forest) == "Forest" and g.object(new_forest).tapped
    assert g.library(0) == [island, bears]
    assert kinds(g.events) == ["passed_priority", "passed_priority", "scried", "revealed", "moved", "resolved"]
    assert g.events[3] == {"kind": "revealed", "player": 0, "cards": [forest]}
    assert g.events[-1] == {"kind": "resolved", "spell": ab, "card": None}
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(ab)


def test_thrasios_draws_a_revealed_nonland_card():  # CR 602.2, 701.20, 121.1
    g = new_game()
    bears, forest = g.add_cards(0, "library", ["Grizzly Bears", "Forest"])
    thrasios, *_ = g.add_cards(0, "battlefield", ["Thrasios, Triton Hero"] + ["Swamp"] * 4)
    g.activate(thrasios)
    g.resolve_top()
    g.clear_events()
    g.answer(([bears], []))  # keep the Bears on top: revealed, not a land, drawn
    (drawn,) = g.hand(0)
    assert g.name(drawn) == "Grizzly Bears" and g.library(0) == [forest]
    assert kinds(g.events) == ["scried", "revealed", "drew", "resolved"]
    assert g.events[1] == {"kind": "revealed", "player": 0, "cards": [bears]}
    assert [g.name(x) for x in g.battlefield()] == ["Thrasios, Triton Hero"] + ["Swamp"] * 4


def test_thrasios_can_be_activated_again_and_again_at_instant_speed():  # CR 602.1, 117.1b (no activation limit)
    g = with_libraries(new_game(), 10)
    thrasios, *lands = g.add_cards(0, "battlefield", ["Thrasios, Triton Hero"] + ["Island"] * 8)
    a1 = g.activate(thrasios)
    a2 = g.activate(thrasios)  # in response to its own ability
    assert g.stack() == [a2, a1] and all(g.object(x).tapped for x in lands)
    with untouched(g, mtgsim.CannotPayError):
        g.activate(thrasios)  # no mana left
    g.pass_priority()
    assert g.priority_player == 1
    with untouched(g, mtgsim.IllegalActionError):
        g.activate(thrasios)  # player 1 has priority and doesn't control Thrasios (CR 602.2)


# ----- 107.5, 302.6: {T}; 701.9: discarding a card as a cost (Fauna Shaman) ----------------------------------------


def test_fauna_shaman_discards_a_creature_card_as_a_cost_and_finds_a_creature():  # CR 601.2h via 602.2b, 701.9, 701.23, 701.24
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Hill Giant", "Lightning Bolt", "Ornithopter", "Forest"])
    shaman, forest = g.add_cards(0, "battlefield", ["Fauna Shaman", "Forest"])
    island, bolt, bears, lions = add_hand(g, 0, ["Island", "Lightning Bolt", "Grizzly Bears", "Savannah Lions"])
    g.clear_events()
    assert g.activate(shaman) is None
    d = g.pending
    # Only the creature cards in hand can pay "Discard a creature card" (CR 118.3).
    assert (d.player, d.kind, d.purpose, d.options, d.min, d.max) == (0, "choose_cards", "cost_choice", [bears, lions], 1, 1)
    assert g.events == [] and not g.object(shaman).tapped and g.stack() == []  # nothing paid yet
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer([bolt])
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer([bears, lions])
    (ab,) = g.answer([lions])
    (gy,) = g.graveyard(0)
    assert g.name(gy) == "Savannah Lions" and g.hand(0) == [island, bolt, bears]
    assert g.object(shaman).tapped and g.object(forest).tapped and g.stack() == [ab]
    assert g.events == [
        {"kind": "mana_added", "player": 0, "source": forest, "mana": "{G}"},
        {"kind": "discarded", "player": 0, "card": gy, "by": 0, "random": False},
        {"kind": "ability_activated", "player": 0, "source": shaman, "ability": ab, "cycling": False},
    ]
    g.clear_events()
    g.resolve_top()
    d = g.pending
    assert (d.purpose, sorted(d.options), d.min, d.max) == ("search", sorted([lib[1], lib[3]]), 0, 1)
    g.answer([lib[1]])
    assert names(g, g.hand(0)) == ["Island", "Lightning Bolt", "Grizzly Bears", "Hill Giant"]
    assert kinds(g.events) == ["passed_priority", "passed_priority", "searched", "revealed", "moved", "shuffled", "resolved"]
    assert g.events[3] == {"kind": "revealed", "player": 0, "cards": [lib[1]]}
    assert Counter(names(g, g.library(0))) == Counter(["Island", "Lightning Bolt", "Ornithopter", "Forest"])


def test_fauna_shaman_with_the_discard_given_up_front_asks_nothing():  # CR 601.2h via 602.2b; Game.activate docs
    g = with_libraries(new_game(strict=True), 3)
    shaman, forest = g.add_cards(0, "battlefield", ["Fauna Shaman", "Forest"])
    bolt, bears = add_hand(g, 0, ["Lightning Bolt", "Grizzly Bears"])
    (theirs,) = add_hand(g, 1, ["Hill Giant"])
    for wrong in (bolt, theirs, shaman, forest):  # a non-creature, the opponent's card, permanents
        with untouched(g, mtgsim.IllegalActionError):
            g.activate(shaman, discard=wrong)
    ab = g.activate(shaman, discard=bears)
    assert g.stack() == [ab] and names(g, g.graveyard(0)) == ["Grizzly Bears"] and g.hand(0) == [bolt]
    g.resolve_top()  # no creature card in the library: nothing to choose, the library is shuffled
    assert g.hand(0) == [bolt] and len(g.library(0)) == 3 and g.stack() == []


def test_fauna_shaman_needs_a_creature_card_an_untapped_shaman_and_green_mana():  # CR 118.3, 107.5, 601.2h via 602.2b, 733
    g = with_libraries(new_game(), 3)
    shaman, forest = g.add_cards(0, "battlefield", ["Fauna Shaman", "Forest"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    assert activations(g) == []
    with untouched(g, mtgsim.CannotPayError):
        g.activate(shaman)  # no creature card in hand
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    assert activations(g) == [activate_action(shaman)]
    g.set_tapped(shaman)
    assert activations(g) == []
    with untouched(g, mtgsim.CannotPayError, match="tapped"):
        g.activate(shaman)  # CR 118.3: a tapped permanent can't be tapped to pay a cost
    g.set_tapped(shaman, False)
    g.set_tapped(forest)
    assert activations(g) == []
    with untouched(g, mtgsim.CannotPayError):
        g.activate(shaman)  # no {G}
    with untouched(g, mtgsim.CannotPayError):
        g.activate(shaman, discard=bears)


def test_a_creature_that_just_arrived_cannot_use_a_tap_ability():  # CR 302.6, 602.5a
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (shaman,) = add_hand(g, 0, ["Fauna Shaman"])
    add_hand(g, 0, ["Grizzly Bears"])
    shaman = g.move(shaman, "battlefield")  # under player 0's control only since this turn
    assert activations(g) == []
    with untouched(g, mtgsim.CannotPayError, match="302.6"):
        g.activate(shaman)
    g.next_turn()  # player 1's turn: still not since player 0's most recent turn began
    g.advance_to("precombat_main")
    assert g.active_player == 1
    g.next_turn()
    g.advance_to("precombat_main")
    assert (g.active_player, g.priority_player) == (0, 0)
    assert activate_action(shaman) in g.priority_actions()
    assert g.activate(shaman) is not None  # the one creature card in hand is the only choice: not asked


# ----- 107.6: {Q} ------------------------------------------------------------------------------------------


def test_the_untap_symbol_untaps_the_permanent_as_a_cost():  # CR 107.6, 601.2h via 602.2b
    g = with_libraries(new_game())
    (thopter,) = g.add_cards(0, "battlefield", ["Ornithopter"])
    g = redefine(g, "Ornithopter", UNTAPPER)
    assert activations(g) == []
    with untouched(g, mtgsim.CannotPayError, match=r"\{Q\}"):
        g.activate(thopter)  # already untapped: can't be untapped again
    g.set_tapped(thopter)
    assert activations(g) == [activate_action(thopter)]
    g.strict = True
    g.clear_events()
    ab = g.activate(thopter)
    assert not g.object(thopter).tapped and g.stack() == [ab] and g.life(0) == 20
    assert g.events[-1] == {"kind": "ability_activated", "player": 0, "source": thopter, "ability": ab, "cycling": False}
    g.resolve_top()
    assert g.life(0) == 22
    with untouched(g, mtgsim.CannotPayError):
        g.activate(thopter)


def test_a_creatures_untap_ability_needs_it_under_control_since_the_turn_began():  # CR 107.6, 302.6
    g = with_libraries(new_game())
    (thopter,) = add_hand(g, 0, ["Ornithopter"])
    g = redefine(g, "Ornithopter", UNTAPPER_CREATURE)
    thopter = g.move(g.hand(0)[0], "battlefield")
    g.set_tapped(thopter)
    with untouched(g, mtgsim.CannotPayError, match="302.6"):
        g.activate(thopter)


def test_a_creatures_mana_ability_waits_for_summoning_sickness_too():  # CR 302.6, 605.1a
    db = mtgsim.CardDB()
    elves = {"name": "Llanowar Elves", "mana_cost": "{G}", "type_line": "Creature — Elf Druid", "oracle_text": "{T}: Add {G}.", "power": "1", "toughness": "1"}  # fmt: skip
    assert db.import_cards([elves]) == [("Llanowar Elves", [])]
    g = mtgsim.Game(2, 0, db=db)
    g.set_policy(0, "manual")
    g.set_policy(1, "manual")
    g.add_cards(0, "battlefield", ["Forest"])
    first, second = add_hand(g, 0, ["Llanowar Elves", "Llanowar Elves"])
    g.cast(first)
    g.resolve_top()
    elf = next(x for x in g.battlefield() if g.name(x) == "Llanowar Elves")
    assert g.cost_of(second) == ("{G}", False)  # the Forest is tapped; the new elf can't pay
    with untouched(g, mtgsim.IllegalActionError, match="302.6"):
        g.activate_mana(elf)
    with untouched(g, mtgsim.CannotPayError):
        g.cast(second)
    with_libraries(g)
    g.next_turn()
    g.next_turn()  # player 0's next turn: the elf has been theirs since it began
    assert g.active_player == 0 and not g.object(elf).tapped
    g.activate_mana(elf)
    assert g.mana_pool(0)["G"] == 1


# ----- 701.21a: sacrificing the permanent itself (Evolving Wilds) ---------------------------------------------


def test_evolving_wilds_sacrifices_itself_and_puts_a_basic_land_onto_the_battlefield_tapped():  # CR 601.2h via 602.2b, 701.21a, 701.23, 701.24
    g = new_game()
    lib = g.add_cards(0, "library", ["Grizzly Bears", "Island", "Canyon Slough", "Forest", "Wastes"])
    (wilds,) = g.add_cards(0, "battlefield", ["Evolving Wilds"])
    g.strict = True
    g.clear_events()
    ab = g.activate(wilds)
    (gy,) = g.graveyard(0)
    assert g.battlefield() == [] and g.name(gy) == "Evolving Wilds" and g.stack() == [ab]
    assert g.events == [
        {"kind": "died", "card": gy, "from_id": wilds},  # CR 700.4: put into a graveyard from the battlefield
        {"kind": "ability_activated", "player": 0, "source": wilds, "ability": ab, "cycling": False},
    ]
    g.strict = False
    g.clear_events()
    g.resolve_top()  # the ability exists independently of its sacrificed source (CR 113.7a)
    d = g.pending
    assert (d.purpose, sorted(d.options), d.min, d.max) == ("search", sorted([lib[1], lib[3], lib[4]]), 0, 1)  # basic land cards only
    g.answer([lib[3]])
    (forest,) = g.battlefield()
    assert g.name(forest) == "Forest" and g.object(forest).tapped and g.object(forest).controller == 0
    assert kinds(g.events) == ["passed_priority", "passed_priority", "searched", "moved", "shuffled", "resolved"]
    assert g.events[3]["from_id"] == lib[3] and g.events[3]["to"] == {"kind": "battlefield", "player": 0}
    assert Counter(names(g, g.library(0))) == Counter(["Grizzly Bears", "Island", "Canyon Slough", "Wastes"])


def test_evolving_wilds_may_find_nothing_and_still_shuffles():  # CR 701.23b, 701.24
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Forest"])
    (wilds,) = g.add_cards(0, "battlefield", ["Evolving Wilds"])
    g.activate(wilds)
    g.resolve_top()
    g.clear_events()
    g.answer([])
    assert g.battlefield() == [] and sorted(g.library(0)) == sorted(lib)
    assert kinds(g.events) == ["searched", "shuffled", "resolved"]


def test_a_tapped_evolving_wilds_cannot_be_activated():  # CR 118.3, 107.5, 733
    g = with_libraries(new_game())
    (wilds,) = g.add_cards(0, "battlefield", ["Evolving Wilds"])
    g.set_tapped(wilds)
    assert activations(g) == []
    with untouched(g, mtgsim.CannotPayError):
        g.activate(wilds)


# ----- 701.21a, 608.2h: sacrificing another permanent (Altar of Dementia) ------------------------------------


def test_altar_target_is_chosen_then_the_creature_to_sacrifice_and_it_mills_that_power():  # CR 602.2b, 601.2c, 601.2h, 701.17
    g = with_libraries(new_game(), 10)
    g.add_cards(1, "library", ["Forest", "Swamp", "Plains"])  # on top of player 1's Islands
    altar, bears, thopter, forest = g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears", "Ornithopter", "Forest"])
    g.add_cards(1, "battlefield", ["Hill Giant"])
    g.clear_events()
    assert g.activate(altar) is None
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.options, d.min, d.max) == (0, "targets", "targets", [P0, P1], 1, 1)
    assert g.answer([P1]) is None
    d = g.pending
    # Only the activator's creatures (not the Altar, the land or the opponent's Hill Giant).
    assert (d.player, d.kind, d.purpose, d.options, d.min, d.max) == (0, "choose_cards", "cost_choice", [bears, thopter], 1, 1)
    assert g.events == [] and g.stack() == []
    (ab,) = g.answer([bears])
    (gy,) = g.graveyard(0)
    assert g.battlefield()[:1] == [altar] and bears not in g.battlefield() and g.name(gy) == "Grizzly Bears"
    assert g.events == [
        {"kind": "died", "card": gy, "from_id": bears},
        {"kind": "ability_activated", "player": 0, "source": altar, "ability": ab, "cycling": False},
    ]
    g.clear_events()
    g.resolve_top()
    assert g.events[2] == {"kind": "milled", "player": 1, "cards": g.graveyard(1)[::-1]}  # the Bears' power: 2
    assert names(g, g.graveyard(1)) == ["Swamp", "Forest"] and names(g, g.library(1)[:1]) == ["Plains"]
    assert len(g.library(1)) == 11 and len(g.library(0)) == 10


def test_altar_with_targets_and_sacrifice_given_asks_nothing_and_may_target_its_controller():  # CR 115.1, 602.2b; Game.activate docs
    g = with_libraries(new_game(strict=True), 10)
    altar, giant = g.add_cards(0, "battlefield", ["Altar of Dementia", "Hill Giant"])
    ab = g.activate(altar, targets=[[P0]], sacrifice=giant)
    assert g.stack() == [ab] and names(g, g.graveyard(0)) == ["Hill Giant"]
    g.resolve_top()
    assert len(g.library(0)) == 7 and names(g, g.graveyard(0)) == ["Island"] * 3 + ["Hill Giant"]
    assert len(g.library(1)) == 10


@pytest.mark.parametrize(
    ("creature", "counters", "milled"),
    [
        ("Grizzly Bears", {}, 2),
        ("Grizzly Bears", {"+1/+1": 3}, 5),
        ("Hill Giant", {"-1/-1": 1}, 2),
        ("Ornithopter", {}, 0),  # power 0: mills nothing
        ("Ornithopter", {"-1/-1": 1}, 0),  # power -1 counts as 0 (CR 107.1b); toughness 1 keeps it alive
    ],
)
def test_altar_mills_the_power_the_sacrificed_creature_last_had(creature, counters, milled):  # CR 608.2h, 701.17a, 107.1b
    g = with_libraries(new_game(strict=True), 10)
    altar, c = g.add_cards(0, "battlefield", ["Altar of Dementia", creature])
    for kind, n in counters.items():
        g.add_counters(c, kind, n)
    g.activate(altar, targets=[[P1]], sacrifice=c)
    g.clear_events()
    g.resolve_top()
    assert len(g.graveyard(1)) == milled and len(g.library(1)) == 10 - milled
    assert ("milled" in kinds(g.events)) == (milled > 0)
    assert g.events[-1]["kind"] == "resolved"


def test_altar_uses_the_power_of_a_creature_pumped_until_end_of_turn():  # CR 608.2h, 611.2a (Flamespeaker Adept after a scry)
    g = with_libraries(new_game(), 10)
    altar, adept = g.add_cards(0, "battlefield", ["Altar of Dementia", "Flamespeaker Adept"])
    g.scry(0, 1)
    g.answer(([g.library(0)[0]], []))
    assert len(g.stack()) == 1  # "whenever you scry": +2/+0 until end of turn
    g.resolve_top()
    assert g.power_toughness(adept) == (4, 3)
    g.activate(altar, targets=[[P1]], sacrifice=adept)
    g.resolve_top()
    assert len(g.graveyard(1)) == 4 and names(g, g.graveyard(0)) == ["Flamespeaker Adept"]


def test_altar_ability_resolves_after_the_altar_is_gone():  # CR 113.7a
    g = with_libraries(new_game(), 10)
    altar, bears = g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears"])
    g.activate(altar, targets=[[P1]], sacrifice=bears)
    g.move(altar, "graveyard")
    g.resolve_top()
    assert len(g.graveyard(1)) == 2 and g.battlefield() == []


def test_altar_sacrifice_must_be_a_creature_the_activator_controls():  # CR 701.21a, 118.3, 733
    g = with_libraries(new_game(), 10)
    altar, forest = g.add_cards(0, "battlefield", ["Altar of Dementia", "Forest"])
    (theirs,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    assert activations(g) == []
    with untouched(g, mtgsim.CannotPayError):
        g.activate(altar)  # no creature to sacrifice
    with untouched(g, mtgsim.CannotPayError):
        g.activate(altar, targets=[[P1]], sacrifice=theirs)
    (mine,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    assert activations(g) == [activate_action(altar)]
    for wrong in (forest, altar, theirs):
        with untouched(g, mtgsim.IllegalActionError):
            g.activate(altar, targets=[[P1]], sacrifice=wrong)
    g.activate(altar, targets=[[P1]], sacrifice=mine)
    assert g.battlefield() == [altar, forest, theirs]


def test_altar_target_is_checked_again_on_resolution():  # CR 608.2b, 800.4a
    g = with_libraries(new_game(3), 10)
    altar, bears = g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears"])
    ab = g.activate(altar, targets=[[P2]], sacrifice=bears)
    g.concede(2)
    g.clear_events()
    g.resolve_top()
    assert g.events[-1] == {"kind": "fizzled", "spell": ab, "card": None}
    assert "milled" not in kinds(g.events) and g.stack() == []
    assert names(g, g.graveyard(0)) == ["Grizzly Bears"]  # the cost stays paid
    assert [len(g.library(p)) for p in (0, 1)] == [10, 10]


def test_a_creature_may_be_sacrificed_to_pay_for_its_own_sacrifice_a_creature_ability():  # CR 602.2b, 601.2h, 701.21a
    # "Sacrifice a creature" means any creature the activator controls, itself included (cards that
    # exclude it say "another creature"; ruling on Bloodthrone Vampire: it may be sacrificed to pay
    # for its own ability).
    g = with_libraries(new_game(strict=True))
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    g = redefine(g, "Grizzly Bears", SAC_OUTLET_BEAR)
    assert activations(g) == [activate_action(bears)]
    ab = g.activate(bears)  # the one creature is the only choice: not asked
    assert g.battlefield() == [] and names(g, g.graveyard(0)) == ["Grizzly Bears"]
    g.resolve_top()
    assert g.stack() == [] and g.life(0) == 21 and ab is not None


def test_a_sacrifice_a_creature_ability_offers_its_own_source_among_the_choices():  # CR 602.2b, 601.2h
    g = with_libraries(new_game())
    bears, thopter = g.add_cards(0, "battlefield", ["Grizzly Bears", "Ornithopter"])
    g = redefine(g, "Grizzly Bears", SAC_OUTLET_BEAR)
    assert g.activate(bears) is None
    assert (g.pending.purpose, g.pending.options) == ("cost_choice", [bears, thopter])
    g.answer([bears])
    g.resolve_top()  # the ability exists without its source (CR 113.7a)
    assert g.battlefield() == [thopter] and g.life(0) == 21


# ----- 119.4: paying life; removing counters ----------------------------------------------------------------


@pytest.mark.parametrize(("life", "ok"), [(20, True), (4, True), (3, True), (2, False), (1, False)])
def test_paying_life_needs_at_least_that_much_life(life, ok):  # CR 119.4, 118.3, 704.5a
    g = with_libraries(new_game(), 5)
    (giant,) = g.add_cards(0, "battlefield", ["Hill Giant"])
    g = redefine(g, "Hill Giant", LIFE_DRAWER)
    g.set_life(0, life)
    if not ok:
        assert activations(g) == []
        with untouched(g, mtgsim.CannotPayError, match="119.4"):
            g.activate(giant)
        return
    g.clear_events()
    ab = g.activate(giant)
    assert g.life(0) == life - 3
    assert g.events[0] == {"kind": "life_changed", "player": 0, "from": life, "to": life - 3}
    if life == 3:  # paid down to 0: the game is over before anyone gets priority (CR 704.5a)
        assert g.is_over and g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "life"}]}
        return
    g.resolve_top()
    assert len(g.hand(0)) == 1 and g.stack() == [] and ab is not None


def test_removing_counters_is_a_cost_that_needs_the_counters():  # CR 601.2h via 602.2b, 118.3, 122
    g = with_libraries(new_game(), 5)
    picker, mountain = g.add_cards(0, "battlefield", ["Wicker Picker", "Mountain"])
    g = redefine(g, "Wicker Picker", BATTERY)
    with untouched(g, mtgsim.CannotPayError, match="charge"):
        g.activate(picker)
    g.add_counters(picker, "charge", 3)
    assert activations(g) == [activate_action(picker)]
    g.clear_events()
    ab = g.activate(picker)
    assert g.object(picker).counters == {"charge": 1} and g.object(mountain).tapped
    assert g.events == [
        {"kind": "mana_added", "player": 0, "source": mountain, "mana": "{R}"},
        {"kind": "object_counters_changed", "card": picker, "counter": "charge", "delta": -2},
        {"kind": "ability_activated", "player": 0, "source": picker, "ability": ab, "cycling": False},
    ]
    g.resolve_top()
    assert len(g.hand(0)) == 1
    g.set_tapped(mountain, False)
    assert activations(g) == []
    with untouched(g, mtgsim.CannotPayError, match="charge"):
        g.activate(picker)  # one counter left


# ----- 606: loyalty abilities (Jace, Wielder of Mysteries) -----------------------------------------------------


def test_jace_plus_one_adds_loyalty_as_its_cost_then_target_player_mills_two_and_you_draw():  # CR 606.4, 601.2h via 602.2b, 701.17
    g, jace = jace_game()
    g.clear_events()
    assert g.activate(jace) is None
    d = g.pending
    assert (d.purpose, d.options) == ("targets", [P0, P1])
    assert g.object(jace).counters == {"loyalty": 4}  # nothing paid while choosing
    (ab,) = g.answer([P1])
    assert g.object(jace).counters == {"loyalty": 5}
    assert g.events == [
        {"kind": "object_counters_changed", "card": jace, "counter": "loyalty", "delta": 1},
        {"kind": "ability_activated", "player": 0, "source": jace, "ability": ab, "cycling": False},
    ]
    g.clear_events()
    g.resolve_top()
    assert kinds(g.events) == ["passed_priority", "passed_priority", "milled", "drew", "resolved"]
    assert (len(g.library(1)), len(g.graveyard(1)), len(g.hand(0)), len(g.library(0))) == (8, 2, 1, 9)


def test_only_one_loyalty_ability_of_a_planeswalker_per_turn():  # CR 606.3
    g, jace = jace_game(loyalty=9)
    g.activate(jace, 0, targets=[[P1]])
    g.resolve_top()
    assert activations(g) == []
    with untouched(g, mtgsim.IllegalActionError, match="606.3"):
        g.activate(jace, 0, targets=[[P1]])
    with untouched(g, mtgsim.IllegalActionError, match="606.3"):
        g.activate(jace, 1)
    g.next_turn()
    g.next_turn()  # player 0's next turn
    g.advance_to("precombat_main")
    assert g.active_player == 0 and activations(g) == [activate_action(jace, 0), activate_action(jace, 1)]
    g.activate(jace, 1)
    assert g.object(jace).counters == {"loyalty": 2}


def test_a_planeswalker_that_returns_is_a_new_object_with_a_fresh_loyalty_activation():  # CR 606.3, 400.7, 306.5b
    g, jace = jace_game()
    g.activate(jace, 0, targets=[[P1]])
    g.resolve_top()
    assert activations(g) == []
    jace = g.move(g.move(jace, "hand"), "battlefield")
    assert g.object(jace).counters == {"loyalty": 4}
    assert activations(g) == [activate_action(jace, 0)]
    g.activate(jace, 0, targets=[[P0]])
    assert g.object(jace).counters == {"loyalty": 5}


@pytest.mark.parametrize("when", ["upkeep", "begin_combat", "declare_attackers", "end_combat", "end", "opponents_main", "stack_not_empty"])
def test_loyalty_abilities_only_at_sorcery_speed(when):  # CR 606.3, 307.1
    g, jace = jace_game(loyalty=9)
    if when == "opponents_main":
        g.next_turn()
        g.advance_to("precombat_main")
        g.pass_priority()
        assert (g.active_player, g.priority_player, g.step) == (1, 0, "precombat_main")
    elif when == "stack_not_empty":
        (thrasios,) = g.add_cards(0, "battlefield", ["Thrasios, Triton Hero"])
        g.add_cards(0, "battlefield", ["Island"] * 4)
        g.activate(thrasios)
        assert len(g.stack()) == 1
    elif when == "upkeep":
        g.next_turn()
        g.next_turn()
        assert (g.step, g.active_player) == ("upkeep", 0)
    else:
        g.advance_to(when)
    assert g.priority_player == 0
    assert all(a.get("source") != jace for a in g.priority_actions())
    for index in (0, 1):
        with untouched(g, mtgsim.IllegalActionError, match="606.3"):
            g.activate(jace, index, targets=[[P1]] if index == 0 else None)


def test_jace_minus_eight_needs_eight_loyalty():  # CR 606.6, 118.3
    g, jace = jace_game(loyalty=7)
    assert activations(g) == [activate_action(jace, 0)]
    with untouched(g, mtgsim.CannotPayError, match="606"):
        g.activate(jace, 1)


def test_jace_minus_eight_draws_seven_and_wins_with_an_empty_library():  # CR 606.4, 104.2b, 121.1
    g, jace = jace_game(loyalty=9, library=7)
    g.clear_events()
    ab = g.activate(jace, 1)
    assert g.object(jace).counters == {"loyalty": 1} and g.stack() == [ab]
    assert g.events[0] == {"kind": "object_counters_changed", "card": jace, "counter": "loyalty", "delta": -8}
    g.clear_events()
    g.resolve_top()
    assert len(g.hand(0)) == 7 and g.library(0) == []
    assert kinds(g.events)[-3:] == ["player_won", "player_lost", "game_over"]
    assert [e for e in g.events if e["kind"] == "drew_from_empty_library"] == []
    assert g.is_over and g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "opponent_won"}]}


def test_jace_minus_eight_with_a_short_library_wins_instead_of_drawing_from_it():  # CR 614.1a, 121.4, 104.2b
    g, jace = jace_game(loyalty=9, library=3)
    g.activate(jace, 1)
    g.clear_events()
    g.resolve_top()
    # Three draws; the fourth, from an empty library, is replaced by winning (Jace's static ability).
    assert kinds(g.events).count("drew") == 3 and "drew_from_empty_library" not in kinds(g.events)
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "opponent_won"}]}


def test_jace_minus_eight_for_all_his_loyalty_still_wins_with_the_game_ending_at_once():  # CR 104.1, 104.2b, 704.5i, 104.3c
    # Jace goes to 0 loyalty and is put into the graveyard before his ability resolves (CR 704.5i), so
    # the draws from the short library are not replaced; but "you win the game" ends the game
    # immediately (CR 104.1), before the state-based action for those draws (104.3c) could apply.
    g, jace = jace_game(loyalty=8, library=3)
    g.activate(jace, 1)
    assert g.battlefield() == [] and names(g, g.graveyard(0)) == ["Jace, Wielder of Mysteries"]
    g.resolve_top()
    assert len(g.hand(0)) == 3 and g.library(0) == []
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "opponent_won"}]}


def test_jace_plus_one_targeting_a_player_who_left_does_not_resolve_but_keeps_the_loyalty():  # CR 608.2b, 606.4, 800.4a
    g, jace = jace_game(num_players=3)
    ab = g.activate(jace, 0, targets=[[P2]])
    g.concede(2)
    g.clear_events()
    g.resolve_top()
    assert g.events[-1] == {"kind": "fizzled", "spell": ab, "card": None}
    assert g.hand(0) == [] and g.object(jace).counters == {"loyalty": 5}  # no draw either: the whole ability didn't resolve


# ----- 107.3a, 601.2b: X in an activation cost --------------------------------------------------------------


def x_game(islands: int = 5, fluctuators: int = 0) -> tuple[mtgsim.Game, int, list[int]]:
    g = with_libraries(new_game(), 10)
    lands = g.add_cards(0, "battlefield", ["Island"] * islands + ["Fluctuator"] * fluctuators)[:islands]
    (c,) = add_hand(g, 0, ["Canyon Slough"])
    return redefine(g, "Canyon Slough", X_CYCLER), c, lands


def test_x_is_chosen_as_a_decision_bounded_by_what_can_be_paid_and_paid_with_the_cost():  # CR 107.3a, 601.2b, 601.2g-h
    g, c, lands = x_game(5)
    assert activate_action(c) in g.priority_actions()
    g.clear_events()
    assert g.cycle(c) is None
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "number", "x", 0, 3)
    assert g.events == [] and g.hand(0) == [c]
    for bad in (4, -1):
        with untouched(g, mtgsim.InvalidAnswerError):
            g.answer(bad)
    (ab,) = g.answer(3)
    assert all(g.object(x).tapped for x in lands) and g.stack() == [ab]
    assert kinds(g.events) == ["revealed"] + ["mana_added"] * 5 + ["discarded", "cycled", "ability_activated"]
    g.resolve_top()
    assert len(g.hand(0)) == 3 and len(g.library(0)) == 7


@pytest.mark.parametrize(("x", "tapped"), [(0, 2), (2, 4), (3, 5)])
def test_x_given_up_front_is_paid_with_the_rest(x, tapped):  # CR 107.3a, 602.2b
    g, c, lands = x_game(5)
    g.strict = True
    g.activate(c, 0, x=x)
    assert sum(g.object(l).tapped for l in lands) == tapped
    g.resolve_top()
    assert len(g.hand(0)) == x


def test_an_unaffordable_or_meaningless_x_is_rejected_and_changes_nothing():  # CR 601.2h, 733
    g, c, _ = x_game(5)
    with untouched(g, mtgsim.CannotPayError):
        g.activate(c, 0, x=4)
    with untouched(g, mtgsim.InvalidArgumentError):
        g.activate(c, 0, x=-1)
    (thrasios,) = g.add_cards(0, "battlefield", ["Thrasios, Triton Hero"])
    with untouched(g, mtgsim.InvalidArgumentError, match="X"):
        g.activate(thrasios, 0, x=1)  # no X in {4}


def test_fluctuator_reduces_the_generic_mana_that_x_adds():  # CR 601.2f (via 602.2b), 107.3a, 118.7a
    # X is announced first (601.2b); the total cost {2}{1}{U} is then reduced by up to {2}.
    g, c, lands = x_game(2, fluctuators=1)
    assert g.cycle(c) is None
    assert (g.pending.purpose, g.pending.max) == ("x", 2)
    g.answer(2)
    assert all(g.object(x).tapped for x in lands)
    g.resolve_top()
    assert len(g.hand(0)) == 2


# ----- 733: illegal activations change nothing ---------------------------------------------------------------


def illegal_position() -> tuple[mtgsim.Game, dict[str, int]]:
    g = with_libraries(new_game(), 10)
    altar, bears, thrasios, _ = g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears", "Thrasios, Triton Hero", "Island"])
    their_altar, their_bears = g.add_cards(1, "battlefield", ["Altar of Dementia", "Grizzly Bears"])
    (in_hand,) = add_hand(g, 0, ["Altar of Dementia"])
    (in_gy,) = g.add_cards(0, "graveyard", ["Altar of Dementia"])
    (in_exile,) = g.add_cards(0, "exile", ["Evolving Wilds"])
    (in_library,) = g.add_cards(0, "library", ["Fauna Shaman"])
    (lions,) = g.add_cards(0, "battlefield", ["Savannah Lions"])
    ids = dict(altar=altar, bears=bears, thrasios=thrasios, their_altar=their_altar, their_bears=their_bears, in_hand=in_hand,
               in_gy=in_gy, in_exile=in_exile, in_library=in_library, lions=lions)  # fmt: skip
    return g, ids


@pytest.mark.parametrize(
    ("what", "source", "kw", "exc"),
    [
        ("in hand", "in_hand", {}, mtgsim.IllegalActionError),  # CR 602.2: its ability works on the battlefield
        ("in graveyard", "in_gy", {}, mtgsim.IllegalActionError),
        ("in exile", "in_exile", {}, mtgsim.IllegalActionError),
        ("in library", "in_library", {}, mtgsim.IllegalActionError),
        ("opponent's permanent", "their_altar", {"targets": [[P1]]}, mtgsim.IllegalActionError),  # CR 602.2 (controller only)
        ("opponent's permanent with its creature", "their_altar", {"targets": [[P1]], "sacrifice": "their_bears"}, mtgsim.IllegalActionError),
        ("can't pay", "thrasios", {}, mtgsim.CannotPayError),  # {4} with one Island
        ("index past the abilities", "altar", {"index": 1}, mtgsim.InvalidArgumentError),
        ("a permanent without abilities", "bears", {}, mtgsim.InvalidArgumentError),
        ("wrong target kind", "altar", {"targets": [["bears"]]}, mtgsim.InvalidAnswerError),  # CR 601.2c: a player
        ("too many targets", "altar", {"targets": [[P0, P1]]}, mtgsim.InvalidAnswerError),
        ("no such player", "altar", {"targets": [[{"player": 5}]]}, mtgsim.InvalidAnswerError),
        ("no target", "altar", {"targets": [[]]}, mtgsim.InvalidAnswerError),
    ],
)
def test_an_illegal_activation_is_rejected_and_changes_nothing(what, source, kw, exc):  # CR 733.1, 602.2
    g, ids = illegal_position()
    kw = dict(kw)
    index = kw.pop("index", 0)
    if "sacrifice" in kw:
        kw["sacrifice"] = ids[kw["sacrifice"]]
    if "targets" in kw:
        kw["targets"] = [[ids[t] if isinstance(t, str) else t for t in row] for row in kw["targets"]]
    with untouched(g, exc):
        g.activate(ids[source], index, **kw)


def test_more_target_rows_than_the_ability_has_targets_are_rejected():  # CR 601.2c via 602.2b, 733; Game.cast docs ("one entry per target")
    g = with_libraries(new_game(), 10)
    altar, bears = g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears"])
    with untouched(g, mtgsim.InvalidArgumentError):
        g.activate(altar, targets=[[P1], [P0]], sacrifice=bears)


def test_an_activation_with_no_legal_target_is_rejected_and_not_offered():  # CR 601.2c, 602.2b, 733
    g = with_libraries(new_game(), 5)
    pinger, _ = g.add_cards(0, "battlefield", ["Savannah Lions", "Mountain"])
    # A noncreature pinger, so that it can't target itself.
    g = redefine(g, "Savannah Lions", dict(PINGER, type_line="Artifact", power=None, toughness=None))
    assert activations(g) == []
    with untouched(g, mtgsim.IllegalActionError, match="target"):
        g.activate(pinger)
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    assert activations(g) == [activate_action(pinger)]
    g.strict = True
    ab = g.activate(pinger)  # the one legal target is not asked (a decision with one legal answer)
    g.clear_events()
    g.resolve_top()
    assert g.events[2] == {"kind": "damage_dealt", "source": g.events[2]["source"], "target": {"object": bears}, "amount": 1}
    assert g.stack() == [] and g.object(bears).zone == "battlefield" and ab is not None


def test_no_activation_while_a_decision_is_pending_or_after_the_game_ended():  # CR 733, 104.1; Game.answer docs
    g = with_libraries(new_game(), 10)
    altar, bears = g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears"])
    add_hand(g, 0, ["Island", "Forest"])
    assert g.discard(0, 1) is None
    with untouched(g, mtgsim.DecisionPendingError):
        g.activate(altar, targets=[[P1]], sacrifice=bears)
    g.answer([g.hand(0)[0]])
    g.concede(1)
    assert g.is_over
    with untouched(g, mtgsim.GameOverError):
        g.activate(altar, targets=[[P1]], sacrifice=bears)


def test_an_activation_stopped_at_a_decision_can_be_answered_wrongly_without_changing_anything():  # CR 733; Game.answer docs
    g = with_libraries(new_game(), 10)
    altar, bears, _ = g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears", "Ornithopter"])
    (theirs,) = g.add_cards(1, "battlefield", ["Hill Giant"])
    g.activate(altar, targets=[[P1]])
    assert g.pending.purpose == "cost_choice"
    for bad in ([theirs], [altar], [], [bears, bears]):
        with untouched(g, mtgsim.InvalidAnswerError):
            g.answer(bad)
    g.answer([bears])
    assert len(g.stack()) == 1


# ----- 605.3b, 111.7: mana abilities, Treasures from Unexpected Windfall ---------------------------------------


def windfall_game() -> tuple[mtgsim.Game, int, list[int]]:
    g = with_libraries(new_game(), 5)
    mountains = g.add_cards(0, "battlefield", ["Mountain"] * 4)
    (uw,) = add_hand(g, 0, ["Unexpected Windfall"])
    return g, uw, mountains


def test_unexpected_windfall_discards_as_a_cost_draws_two_and_makes_two_treasures():  # CR 601.2b, 601.2f-h, 111.2
    g, uw, mountains = windfall_game()
    giant, bolt = add_hand(g, 0, ["Hill Giant", "Lightning Bolt"])
    g.clear_events()
    assert g.cast(uw) is None
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.options, d.min, d.max) == (0, "choose_cards", "cost_choice", [giant, bolt], 1, 1)
    assert g.events == [] and g.hand(0) == [uw, giant, bolt]
    (spell,) = g.answer([giant])
    (gy,) = g.graveyard(0)
    assert g.name(gy) == "Hill Giant" and g.hand(0) == [bolt] and g.stack() == [spell]
    assert kinds(g.events) == ["mana_added"] * 4 + ["discarded", "spell_cast"]  # the discard is paid before it becomes cast
    assert g.events[4] == {"kind": "discarded", "player": 0, "card": gy, "by": 0, "random": False}
    g.clear_events()
    g.resolve_top()
    treasures = g.battlefield()[4:]
    assert names(g, treasures) == ["Treasure", "Treasure"]
    assert all((g.object(t).controller, g.object(t).owner, g.object(t).tapped) == (0, 0, False) for t in treasures)
    assert kinds(g.events) == ["passed_priority", "passed_priority", "drew", "drew", "token_created", "token_created", "resolved"]
    assert len(g.hand(0)) == 3 and names(g, g.graveyard(0)) == ["Unexpected Windfall", "Hill Giant"]
    # Mana abilities are activated with activate_mana, not offered as priority actions (CR 605.3a).
    assert all(a.get("source") not in treasures for a in g.priority_actions())


def test_unexpected_windfall_with_the_discard_given_and_without_a_card_to_discard():  # CR 601.2f-h, 118.3, 733
    g, uw, _ = windfall_game()
    assert all(a["action"] != "cast" for a in g.priority_actions())
    with untouched(g, mtgsim.CannotPayError):
        g.cast(uw)  # the only card in hand is the spell itself
    (theirs,) = add_hand(g, 1, ["Island"])
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(uw, discard=theirs)
    (island,) = add_hand(g, 0, ["Island"])
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(uw, discard=uw)
    g.strict = True
    spell = g.cast(uw, discard=island)
    assert g.stack() == [spell] and names(g, g.graveyard(0)) == ["Island"]


def test_a_treasure_makes_mana_at_once_without_the_stack_and_ceases_to_exist():  # CR 605.3b, 605.1a, 111.7, 704.5d
    g, uw, _ = windfall_game()
    add_hand(g, 0, ["Island"])
    g.cast(uw, discard=g.hand(0)[1])
    g.resolve_top()
    t1, t2 = g.battlefield()[4:]
    (thrasios,) = g.add_cards(0, "battlefield", ["Thrasios, Triton Hero"])
    g.add_cards(0, "battlefield", ["Island"] * 4)
    ab = g.activate(thrasios)
    g.clear_events()
    g.activate_mana(t1, "G")  # with an ability on the stack: the mana ability doesn't go on it
    assert g.mana_pool(0) == dict(EMPTY_POOL, G=1)
    assert g.stack() == [ab] and g.priority_player == 0
    (e1, e2) = g.events
    assert e1 == {"kind": "mana_added", "player": 0, "source": t1, "mana": "{G}"}
    assert e2["kind"] == "died" and e2["from_id"] == t1
    assert t1 not in g.battlefield() and all(g.name(x) != "Treasure" for x in g.graveyard(0))
    for gone in (t1, e2["card"]):  # the token left the battlefield and ceased to exist
        with pytest.raises(mtgsim.NoSuchObjectError):
            g.object(gone)
    assert g.card_name(e2["card"]) == "Treasure"
    with untouched(g, mtgsim.InvalidArgumentError):
        g.activate(t2)  # "{T}, Sacrifice": a mana ability, activated with activate_mana, not activate
    with untouched(g, mtgsim.NoSuchObjectError):
        g.activate_mana(t1)


def test_a_treasure_pays_part_of_an_ability_cost_and_is_sacrificed_while_paying():  # CR 605.3a, 601.2g-h, 111.7
    g, uw, mountains = windfall_game()
    add_hand(g, 0, ["Island"])
    g.cast(uw, discard=g.hand(0)[1])
    g.resolve_top()
    t1, t2 = g.battlefield()[4:]
    shaman, = g.add_cards(0, "battlefield", ["Fauna Shaman"])
    add_hand(g, 0, ["Grizzly Bears"])
    assert all(g.object(m).tapped for m in mountains)
    g.clear_events()
    ab = g.activate(shaman, discard=g.hand(0)[-1])  # {G} from a Treasure: one mana of any color
    assert kinds(g.events)[:2] == ["mana_added", "died"]
    assert g.events[0]["mana"] == "{G}" and g.events[0]["source"] in (t1, t2)
    assert names(g, g.battlefield()).count("Treasure") == 1 and g.mana_pool(0) == EMPTY_POOL
    assert g.stack() == [ab] and all(g.name(x) != "Treasure" for x in g.graveyard(0))


# ----- 117.1b: activated abilities as priority actions; policies ------------------------------------------------


def test_priority_actions_list_the_abilities_that_can_be_activated_and_paid():  # CR 117.1b, 602.2, 606.3; Game.priority_actions docs
    g = with_libraries(new_game(), 10)
    altar, wilds, shaman, thrasios = g.add_cards(0, "battlefield", ["Altar of Dementia", "Evolving Wilds", "Fauna Shaman", "Thrasios, Triton Hero"])
    (their_altar,) = g.add_cards(1, "battlefield", ["Altar of Dementia"])
    (jace,) = add_hand(g, 0, ["Jace, Wielder of Mysteries"])
    jace = g.move(jace, "battlefield")
    # Altar: a creature to sacrifice; Wilds: untapped; Jace: +1 (−8 needs 8); not Fauna Shaman (no
    # {G}, no creature card), not Thrasios ({4}), not the opponent's Altar.
    assert g.priority_actions() == [{"action": "pass"}, activate_action(altar), activate_action(wilds), activate_action(jace, 0)]
    forests = g.add_cards(0, "battlefield", ["Forest"] * 4)
    add_hand(g, 0, ["Grizzly Bears"])
    assert activations(g) == [activate_action(altar), activate_action(wilds), activate_action(shaman),
                              activate_action(thrasios), activate_action(jace, 0)]  # fmt: skip
    # With something on the stack, not Jace (sorcery speed).
    g.activate(thrasios)
    assert activate_action(jace, 0) not in activations(g) and activate_action(altar) in activations(g)
    assert all(g.object(f).tapped for f in forests)
    # The opponent, with priority in player 0's turn, has their Altar once they have a creature.
    g.pass_priority()
    assert g.priority_player == 1 and g.priority_actions() == [{"action": "pass"}]
    g.add_cards(1, "battlefield", ["Grizzly Bears"])
    assert g.priority_actions() == [{"action": "pass"}, activate_action(their_altar)]


def test_a_priority_decision_answered_with_an_activation_activates_it():  # CR 117.1b, 602.2; Game.play docs
    g = with_libraries(new_game(), 10)
    altar, bears = g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears"])
    g.play()
    d = g.pending
    assert (d.kind, d.purpose, d.options) == ("action", "priority", [{"action": "pass"}, activate_action(altar)])
    assert g.answer(1) is None  # the ability's own choices follow: its target
    assert g.pending.purpose == "targets"
    g.answer([P1])  # the sacrifice has one legal choice: not asked
    assert names(g, g.graveyard(0)) == ["Grizzly Bears"] and len(g.stack()) == 1
    assert g.object(g.stack()[0]).name == "Altar of Dementia"


def test_a_random_policy_game_activates_abilities_and_pays_for_them():  # CR 117.1b, 602.2; GUIDE §4 ("random")
    seen = Counter()
    for seed in range(4):
        g = mtgsim.Game.from_decks([["Grizzly Bears"] * 8 + ["Forest"] * 12, ["Island"] * 20], seed=seed)
        g.add_cards(0, "battlefield", ["Altar of Dementia", "Evolving Wilds"])
        g.set_policy(0, "random")
        g.set_policy(1, "random")
        g.play(until=7)
        assert g.pending is None and (g.turn >= 7 or g.is_over)
        ev = g.events
        for i, e in enumerate(ev):
            if e["kind"] == "ability_activated":
                seen[g.card_name(e["source"])] += 1
                if g.card_name(e["source"]) == "Altar of Dementia":  # the cost was paid: a creature died just before
                    assert ev[i - 1]["kind"] == "died" and g.card_name(ev[i - 1]["card"]) == "Grizzly Bears"
        g.check_invariants()
    assert seen["Altar of Dementia"] > 0 and seen["Evolving Wilds"] > 0


def test_the_first_policy_never_activates():  # GUIDE §4 ("first": pass is the first option)
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears"])
    g.set_policy(0, "first")
    g.set_policy(1, "first")
    g.clear_events()
    g.play(until=3)
    assert "ability_activated" not in kinds(g.events) and names(g, g.battlefield()) == ["Altar of Dementia", "Grizzly Bears"]


def test_an_ability_that_works_from_the_graveyard_is_offered_there():  # CR 113.6, 602.2, 117.1b
    db = mtgsim.CardDB()
    db.add([{
        "name": "Restless Bones", "mana_cost": "{B}", "type_line": "Creature — Zombie", "power": "1", "toughness": "1",
        "oracle_text": "{1}: Draw a card. Activate only while this card is in your graveyard.",
        "rules": {"activated": [{"cost": {"mana": "{1}"}, "zone": "graveyard", "effects": [{"draw": {"count": 1}}]}]},
    }])
    g = mtgsim.Game(2, 0, db=db)
    for p in range(2):
        g.set_policy(p, "manual")
        g.add_cards(p, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Swamp", "Swamp"])
    (in_yard,) = g.add_cards(0, "graveyard", ["Restless Bones"])
    (in_hand,) = g.add_cards(0, "hand", ["Restless Bones"])
    (theirs,) = g.add_cards(1, "graveyard", ["Restless Bones"])
    offered = [a for a in g.priority_actions() if a["action"] == "activate"]
    # Not from the hand, nor from another player's graveyard (theirs to activate, on their priority).
    assert offered == [{"action": "activate", "source": in_yard, "index": 0}]
    assert {in_hand, theirs}.isdisjoint(a["source"] for a in offered)
