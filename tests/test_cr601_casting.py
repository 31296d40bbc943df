"""Casting spells (CR 601.2a-i): proposal, announcements, targets, total cost, payment, becoming
cast; timing (CR 117.1a, 307.1, 702.8a); illegal casts undone (CR 733) and cancel(); casting
without paying the mana cost (CR 118.9, 601.2f) and flashback (CR 702.34a). Ends with a
hypothesis property: a rejected cast never changes anything."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import mtgsim
from conftest import X_DRAW, add_hand, full_state, new_game, redefine, rejected, state, untouched, with_libraries

EMPTY_POOL = {"W": 0, "U": 0, "B": 0, "R": 0, "G": 0, "C": 0}


# ----- 601.2a-i: what a cast does -------------------------------------------------------------------


def test_a_cast_moves_the_card_to_the_stack_pays_and_becomes_cast():  # CR 601.2a, 601.2h, 601.2i, 400.7
    g = with_libraries(new_game(strict=True))
    forest, mountain = g.add_cards(0, "battlefield", ["Forest", "Mountain"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    spell = g.cast(bears)
    assert spell is not None and spell != bears  # a new object on the stack
    assert g.hand(0) == [] and g.stack() == [spell]
    o = g.object(spell)
    assert (o.zone, o.owner, o.controller, o.name) == ("stack", 0, 0, "Grizzly Bears")
    assert g.object(forest).tapped and g.object(mountain).tapped
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(bears)
    assert g.events == [
        {"kind": "mana_added", "player": 0, "source": forest, "mana": "{G}"},
        {"kind": "mana_added", "player": 0, "source": mountain, "mana": "{R}"},
        {"kind": "spell_cast", "player": 0, "spell": spell, "kicks": [0, 0], "granted_kicks": 0, "x": 0, "targets": []},
    ]
    assert g.priority_player == 0  # 601.2i: the caster had priority, so gets it again
    assert g.cast_info(spell) == {"kicked": False, "kicks": [0, 0], "granted_kicks": 0, "x": 0, "flashback": False, "modes": [], "targets": []}


def test_the_spell_cast_event_records_the_chosen_targets():  # CR 601.2c, 601.2i
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[bears])
    assert g.events[-1]["kind"] == "spell_cast" and g.events[-1]["spell"] == spell
    assert g.events[-1]["targets"] == [{"object": bears}]
    assert g.cast_info(spell)["targets"] == [[bears]]


def test_choices_left_out_are_asked_in_the_order_of_601_2():  # CR 601.2b (kicker), 601.2c (targets), 601.2g-h (payment)
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Swamp", "Island", "Island"])
    g.add_cards(0, "hand", ["Island"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    g.set_auto_pay(0, False)
    assert g.cast(glimpse) is None
    assert (g.pending.kind, g.pending.purpose, g.pending.options) == ("targets", "targets", [{"player": 0}, {"player": 1}])
    assert g.answer([{"player": 1}]) is None
    assert g.pending.purpose == "pay_mana"
    assert g.stack() == [] and g.hand(0)[-1] == glimpse  # nothing has moved before payment
    (spell,) = g.answer(g.pending.options[:2])  # Island + Swamp
    assert g.stack() == [spell] and g.cast_info(spell)["targets"] == [[{"player": 1}]]


def test_a_target_given_as_a_tuple_or_a_dict_names_a_player():  # CR 601.2c (API forms of a player target)
    for target in ({"player": 1}, ("player", 1)):
        g = with_libraries(new_game(strict=True), 12)
        g.add_cards(0, "battlefield", ["Island", "Swamp"])
        (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
        g.cast(glimpse, targets=[target])
        g.resolve_top()
        assert (len(g.library(0)), len(g.library(1)), len(g.graveyard(1))) == (12, 2, 10)


def test_a_spell_needs_a_legal_target_for_each_target_it_requires():  # CR 601.2c, 733
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island"])
    (cs,) = add_hand(g, 0, ["Counterspell"])
    with untouched(g, mtgsim.IllegalActionError, match="legal target"):
        g.cast(cs)  # the stack is empty: there is no spell to target


def test_an_illegal_target_is_rejected_and_nothing_happens():  # CR 601.2c, 115.1, 733
    g = with_libraries(new_game())
    (m,) = g.add_cards(0, "battlefield", ["Mountain"])
    (wp,) = g.add_cards(1, "battlefield", ["Wicker Picker"])  # an artifact creature: a legal "any target"
    (chalice,) = g.add_cards(1, "battlefield", ["Everflowing Chalice"])  # noncreature artifact: not "any target"
    (in_hand,) = add_hand(g, 1, ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    for bad in ([chalice], [in_hand], [m, wp], [{"player": 2}], [99999]):
        with untouched(g, mtgsim.InvalidAnswerError):
            g.cast(bolt, targets=[bad])
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(bolt, targets=[wp, wp])  # two entries for a spell with one target
    g.cast(bolt, targets=[wp])
    g.resolve_top()
    assert g.graveyard(1)[0] != wp and g.name(g.graveyard(1)[0]) == "Wicker Picker"  # 3 damage to a 2/3


# ----- timing -------------------------------------------------------------------------------------


def test_a_sorcery_speed_spell_is_cast_in_the_casters_main_phase_with_an_empty_stack():  # CR 307.1, 117.1a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Forest", "Forest", "Swamp", "Swamp", "Mountain"])
    bears, tutor = add_hand(g, 0, ["Grizzly Bears", "Demonic Tutor"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    # main phase, but a spell on the stack
    g.cast(bolt, targets=[{"player": 1}])
    with untouched(g, mtgsim.IllegalActionError, match="307.1"):
        g.cast(bears)
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(tutor)
    g.resolve_top()
    # beginning of combat: not a main phase
    g.advance_to("begin_combat")
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(bears)
    g.advance_to("end")
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(tutor)
    # the second main phase is a main phase
    g2 = with_libraries(new_game())
    g2.add_cards(0, "battlefield", ["Forest", "Forest"])
    (b2,) = add_hand(g2, 0, ["Grizzly Bears"])
    g2.advance_to("postcombat_main")
    assert g2.cast(b2) is not None


def test_a_sorcery_cannot_be_cast_in_another_players_main_phase():  # CR 307.1 ("of their turn"), 117.1a
    g = with_libraries(new_game())
    g.add_cards(1, "battlefield", ["Swamp", "Swamp"])
    (tutor,) = add_hand(g, 1, ["Demonic Tutor"])
    g.pass_priority()  # player 1 has priority in player 0's main phase, stack empty
    assert (g.priority_player, g.active_player, g.step, g.stack()) == (1, 0, "precombat_main", [])
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(tutor)


def test_an_instant_is_cast_whenever_its_caster_has_priority():  # CR 117.1a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Mountain", "Mountain"])
    g.add_cards(1, "battlefield", ["Mountain"])
    b1, b2 = add_hand(g, 0, ["Lightning Bolt", "Lightning Bolt"])
    (b3,) = add_hand(g, 1, ["Lightning Bolt"])
    g.advance_to("begin_combat")
    g.cast(b1, targets=[{"player": 1}])  # in combat
    g.cast(b2, targets=[{"player": 1}])  # in response to its own spell
    g.pass_priority()
    g.cast(b3, targets=[{"player": 0}])  # the non-active player, in response
    assert [g.object(s).controller for s in g.stack()] == [1, 0, 0]
    while g.stack():
        g.resolve_top()
    assert (g.life(0), g.life(1)) == (17, 14)


def test_an_instant_in_the_opponents_turn():  # CR 117.1a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.next_turn()  # turn 2, player 1's upkeep
    assert (g.active_player, g.priority_player) == (1, 1)
    g.pass_priority()
    assert g.priority_player == 0
    spell = g.cast(bolt, targets=[{"player": 1}])
    assert g.stack() == [spell] and g.priority_player == 0
    g.resolve_top()
    assert g.life(1) == 17
    assert g.priority_player == 1  # 117.3b: the active player after resolution


def test_a_creature_with_flash_is_cast_any_time_an_instant_could_be():  # CR 702.8a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Mountain"])
    vedalken, bears = add_hand(g, 0, ["Vedalken AEthermage", "Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.advance_to("begin_combat")
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(bears)
    g.cast(bolt, targets=[{"player": 1}])
    spell = g.cast(vedalken)  # in combat, on top of another spell
    assert g.stack()[0] == spell
    g.resolve_top()
    assert [g.name(c) for c in g.battlefield()][-1] == "Vedalken AEthermage"


def test_only_the_player_with_priority_casts():  # CR 117.1, 601.3
    g = with_libraries(new_game())
    g.add_cards(1, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 1, ["Lightning Bolt"])
    assert g.priority_player == 0
    with untouched(g, mtgsim.IllegalActionError, match="priority"):
        g.cast(bolt, targets=[{"player": 0}])


@pytest.mark.parametrize("zone", ["library", "graveyard", "battlefield", "exile"])
def test_a_spell_is_cast_from_its_owners_hand(zone):  # CR 601.2a, 601.3
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (bears,) = g.add_cards(0, zone, ["Grizzly Bears"])
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(bears)


def test_a_card_in_an_opponents_hand_cannot_be_cast():  # CR 601.3
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 1, ["Lightning Bolt"])
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(bolt, targets=[{"player": 1}])


def test_a_land_is_played_not_cast():  # CR 305.1, 116.2a
    g = with_libraries(new_game())
    (island,) = add_hand(g, 0, ["Island"])
    with untouched(g, mtgsim.IllegalActionError, match="land"):
        g.cast(island)


def test_a_card_id_that_no_longer_exists_is_rejected():  # CR 400.7, 733
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    new = g.move(bears, "graveyard")
    g.move(new, "hand")
    with untouched(g, mtgsim.NoSuchObjectError):
        g.cast(bears)


# ----- 601.2f: the total cost -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kick", "cost"),
    [
        ("Lórien Revealed", None, "{2}{U}{U}"),  # {3}{U}{U} - {1}
        ("Maddening Cacophony", None, "{U}"),  # {1}{U} - {1}
        ("Maddening Cacophony", True, "{3}{U}{U}"),  # {1}{U} + {3}{U} - {1}: the kicker's generic is reduced too
        ("Joint Exploration", True, "{U}{G}"),  # {1}{U} + {G} - {1}
        ("Counterspell", None, "{U}{U}"),  # no generic mana: nothing to reduce
        ("Fractured Sanity", None, "{U}{U}{U}"),
        ("Mystical Tutor", None, "{U}"),
        ("Lightning Bolt", None, "{R}"),  # not blue
        ("Grizzly Bears", None, "{1}{G}"),
        ("Glimpse the Unthinkable", None, "{U}{B}"),  # blue (and black)
    ],
)
def test_the_water_crystal_reduces_only_the_generic_part_of_blue_spells(name, kick, cost):  # CR 601.2f
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["The Water Crystal"])
    (card,) = add_hand(g, 0, [name])
    assert g.cost_of(card, kick=kick)[0] == cost


def test_a_reduced_cost_is_what_gets_paid():  # CR 601.2f-h
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["The Water Crystal"])
    islands = g.add_cards(0, "battlefield", ["Island"] * 4)
    (lorien,) = add_hand(g, 0, ["Lórien Revealed"])
    assert g.cost_of(lorien) == ("{2}{U}{U}", True)
    g.cast(lorien)  # four Islands pay {2}{U}{U}; {3}{U}{U} would need five
    assert all(g.object(i).tapped for i in islands)
    g.resolve_top()
    assert len(g.hand(0)) == 3  # 608.2c: draw three


def test_a_spell_costing_more_than_all_their_mana_is_offered_when_a_reduction_brings_it_in_reach():  # CR 601.2f, 117.1a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent"] + ["Island"] * 4)  # a static that changes no cost
    (lorien,) = add_hand(g, 0, ["Lórien Revealed"])
    assert {"action": "cast", "card": lorien} not in g.priority_actions()  # {3}{U}{U}: five mana, four Islands
    g.add_cards(0, "battlefield", ["The Water Crystal"])
    assert {"action": "cast", "card": lorien} in g.priority_actions()  # {2}{U}{U} now


def test_a_cost_reduction_applies_only_to_its_controllers_spells():  # CR 601.2f, 611.3
    g = with_libraries(new_game())
    g.add_cards(1, "battlefield", ["The Water Crystal"])
    g.add_cards(0, "battlefield", ["Island"] * 4)
    (lorien,) = add_hand(g, 0, ["Lórien Revealed"])
    assert g.cost_of(lorien) == ("{3}{U}{U}", False)
    with untouched(g, mtgsim.CannotPayError):
        g.cast(lorien)


def test_two_cost_reductions_add_up_but_never_below_zero_generic():  # CR 601.2f ("can't be reduced to less than {0}")
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["The Water Crystal", "The Water Crystal"])
    mc, mt = add_hand(g, 0, ["Maddening Cacophony", "Mystical Tutor"])
    assert g.cost_of(mc)[0] == "{U}"  # {1}{U} - {2}
    assert g.cost_of(mc, kick=True)[0] == "{2}{U}{U}"
    assert g.cost_of(mt)[0] == "{U}"


# ----- 733: any failure undoes the whole cast; cancel() ------------------------------------------------------


def test_a_cast_that_fails_at_payment_is_undone_completely():  # CR 601.2h, 733.1
    g = with_libraries(new_game())
    i1, i2 = g.add_cards(0, "battlefield", ["Island", "Island"])
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    g.activate_mana(i1)  # some mana already in the pool
    with untouched(g, mtgsim.CannotPayError):
        g.cast(jo, kick=True)  # {1}{U}{G}: no {G}
    assert g.hand(0) == [jo]  # back where it was, with the same id
    assert g.object(jo).zone == "hand"
    assert g.object(i2).tapped is False
    assert g.mana_pool(0) == {**EMPTY_POOL, "U": 1}
    assert g.cast(jo) is not None  # the same card can be cast afterwards, unkicked


def test_a_cast_that_fails_at_a_later_target_is_undone_completely():  # CR 601.2c, 733.1
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Swamp"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    with untouched(g, mtgsim.InvalidAnswerError):
        g.cast(glimpse, targets=[{"player": 7}])


@pytest.mark.parametrize("stage", ["kicker", "multikicker", "targets", "pay_mana"])
def test_cancel_during_a_cast_decision_leaves_no_trace(stage):  # CR 733.1
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest", "Mountain", "Swamp"])
    g.add_cards(1, "battlefield", ["Grizzly Bears", "Hill Giant"])
    jo, chalice, bolt = add_hand(g, 0, ["Joint Exploration", "Everflowing Chalice", "Lightning Bolt"])
    g.activate_mana(g.battlefield()[4])  # {B} in the pool must survive
    if stage == "pay_mana":
        g.set_auto_pay(0, False)
    g.clear_events()
    before, full = state(g), full_state(g)
    card = {"kicker": jo, "multikicker": chalice, "targets": bolt, "pay_mana": bolt}[stage]
    kw = {"targets": [{"player": 1}]} if stage == "pay_mana" else {}
    assert g.cast(card, **kw) is None
    assert g.pending.purpose == stage
    g.cancel()
    assert g.pending is None
    assert state(g) == before and full_state(g) == full
    assert g.events == [] and g.hand(0) == [jo, chalice, bolt]


def test_cancel_after_some_answers_leaves_no_trace():  # CR 733.1
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest", "Island"])  # a choice of sources
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    g.set_auto_pay(0, False)
    before = full_state(g)
    g.cast(jo)
    g.answer(True)  # kicked
    assert g.pending.purpose == "pay_mana"
    g.cancel()
    assert full_state(g) == before
    assert g.cast(jo, kick=False, payment=g.battlefield()[:2]) is not None


def test_cancelling_a_cast_chosen_as_a_priority_action_takes_the_choice_back_too():  # CR 733.1, Game.cancel docs
    import json

    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    g.play()
    record = json.loads(full_state(g))["history"]
    options = g.pending.options
    g.answer(options.index({"action": "cast", "card": jo}))
    assert g.pending.purpose == "kicker"
    g.cancel()
    assert json.loads(full_state(g))["history"] == record  # the choice to cast is not in the record
    assert g.pending is None and g.priority_player == 0 and g.stack() == []
    g.play()
    assert g.pending.purpose == "priority" and g.pending.options == options


def test_cancel_with_no_cast_waiting_is_an_error():  # CR 733
    g = with_libraries(new_game())
    with untouched(g, mtgsim.IllegalActionError):
        g.cancel()
    add_hand(g, 0, ["Island", "Swamp"])
    g.discard(0, 1)  # a decision, but not a cast's
    with untouched(g, mtgsim.IllegalActionError):
        g.cancel()


def test_cancel_during_the_sticker_decision_leaves_no_trace():  # CR 601.2h, 702.33h, 733.1
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Wicker Picker", "Forest", "Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    before = full_state(g)
    g.cast(bears, kick=[True])
    assert g.pending.purpose == "sticker"  # still part of paying the cost: the spell isn't cast yet
    g.cancel()
    assert full_state(g) == before


def test_nothing_else_happens_while_a_cast_waits_for_a_decision():  # CR 601.2, GUIDE §4
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest", "Mountain"])
    jo, bolt, land = add_hand(g, 0, ["Joint Exploration", "Lightning Bolt", "Plains"])
    g.cast(jo)
    for action in (lambda: g.pass_priority(), lambda: g.cast(bolt, targets=[{"player": 1}]), lambda: g.play_land(land), lambda: g.resolve_top(), lambda: g.advance_to("end")):
        with untouched(g, mtgsim.DecisionPendingError):
            action()


def test_a_wrong_answer_to_a_cast_decision_changes_nothing():  # CR 733, Game.answer
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest", "Mountain"])
    g.add_cards(1, "battlefield", ["Grizzly Bears", "Hill Giant"])
    jo, bolt = add_hand(g, 0, ["Joint Exploration", "Lightning Bolt"])
    g.cast(jo)
    for bad in (2, [1], "yes", None):
        with untouched(g, mtgsim.InvalidAnswerError):
            g.answer(bad)
    g.cancel()
    g.cast(bolt)
    for bad in ([], [jo], [{"player": 5}], [g.battlefield()[0]], True):
        with untouched(g, mtgsim.InvalidAnswerError):
            g.answer(bad)


# ----- without paying the mana cost; flashback --------------------------------------------------------------


def test_without_paying_its_mana_cost_taps_nothing_when_not_kicked():  # CR 118.9, 601.2f
    g = with_libraries(new_game(), 20)
    islands = g.add_cards(0, "battlefield", ["Island"] * 4)
    (mc,) = add_hand(g, 0, ["Maddening Cacophony"])
    spell = g.cast(mc, without_paying=True, kick=False)
    assert not any(g.object(i).tapped for i in islands)
    assert not g.kicked(spell)
    g.resolve_top()
    assert (len(g.library(1)), len(g.library(0))) == (12, 20)  # each opponent mills eight


def test_without_paying_its_mana_cost_the_kicker_can_still_be_paid():  # CR 118.9d, 601.2f, 702.33a
    g = with_libraries(new_game(), 11)
    islands = g.add_cards(0, "battlefield", ["Island"] * 4)
    (mc,) = add_hand(g, 0, ["Maddening Cacophony"])
    assert g.cast(mc, without_paying=True) is None
    assert (g.pending.kind, g.pending.purpose) == ("yes_no", "kicker")
    (spell,) = g.answer(True)
    assert all(g.object(i).tapped for i in islands)  # {3}{U}: the kicker alone
    assert g.cast_info(spell)["kicks"] == [1, 0] and g.kicked(spell)
    g.resolve_top()
    assert len(g.library(1)) == 5  # half of 11, rounded up (6), milled


def test_without_paying_a_kicker_that_cannot_be_paid_is_not_offered():  # CR 601.2b, 702.33a
    g = with_libraries(new_game(strict=True))
    (mc,) = add_hand(g, 0, ["Maddening Cacophony"])
    spell = g.cast(mc, without_paying=True)  # no lands: no decision, cast unkicked for nothing
    assert g.stack() == [spell] and not g.kicked(spell)
    g2 = with_libraries(new_game())
    (mc2,) = add_hand(g2, 0, ["Maddening Cacophony"])
    with untouched(g2, mtgsim.CannotPayError):
        g2.cast(mc2, without_paying=True, kick=True)


def test_flashback_casts_from_the_graveyard_for_the_flashback_cost_then_exiles():  # CR 702.34a
    g = new_game()
    lib = g.add_cards(0, "library", ["Swamp", "Plains", "Forest"])
    g.add_cards(1, "library", ["Island"] * 5)
    mountains = g.add_cards(0, "battlefield", ["Mountain"] * 3)
    (island,) = add_hand(g, 0, ["Island"])
    (looting,) = g.add_cards(0, "graveyard", ["Faithless Looting"])
    spell = g.cast(looting, flashback=True)
    assert all(g.object(m).tapped for m in mountains)  # {2}{R}, not {R}
    assert g.cast_info(spell)["flashback"] is True
    assert g.graveyard(0) == []
    g.resolve_top()
    assert g.pending.purpose == "discard"
    options = g.pending.options
    assert options[0] == island and [g.name(c) for c in options] == ["Island", "Swamp", "Plains"]  # drew two
    g.answer([options[0], options[2]])
    assert [g.card_name(c) for c in g.hand(0)] == ["Swamp"]
    assert [g.name(c) for c in g.graveyard(0)] == ["Plains", "Island"]
    assert [g.name(c) for c in g.exile()] == ["Faithless Looting"]  # exiled, not put into the graveyard
    assert g.events[-1] == {"kind": "resolved", "spell": spell, "card": g.exile()[0]}


def test_flashback_only_from_the_graveyard_and_only_for_cards_with_flashback():  # CR 702.34a, 601.3
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"] * 3)
    (in_hand,) = add_hand(g, 0, ["Faithless Looting"])
    (bolt,) = g.add_cards(0, "graveyard", ["Lightning Bolt"])
    (opp_looting,) = g.add_cards(1, "graveyard", ["Faithless Looting"])
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(in_hand, flashback=True)
    with untouched(g, mtgsim.IllegalActionError, match="flashback"):
        g.cast(bolt, flashback=True, targets=[{"player": 1}])
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(opp_looting, flashback=True)  # only its owner's graveyard
    in_graveyard = g.move(in_hand, "graveyard")
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(in_graveyard)  # from the graveyard needs flashback
    assert g.cast(in_graveyard, flashback=True) is not None


def test_flashback_and_without_paying_cannot_be_combined():  # CR 118.9a, 601.2b ("can't apply two alternative ... costs"), 702.34a
    g = with_libraries(new_game())
    (looting,) = g.add_cards(0, "graveyard", ["Faithless Looting"])
    with untouched(g, (mtgsim.IllegalActionError, mtgsim.InvalidArgumentError)):
        g.cast(looting, flashback=True, without_paying=True)


def test_no_spell_is_cast_once_the_game_is_over():  # CR 104.1, 733
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.set_life(1, 0)
    assert g.is_over
    with untouched(g, mtgsim.GameOverError):
        g.cast(bolt, targets=[{"player": 1}])


def test_flashback_keeps_sorcery_timing():  # CR 702.34a, 307.1
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"] * 3)
    (looting,) = g.add_cards(0, "graveyard", ["Faithless Looting"])
    g.advance_to("begin_combat")
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(looting, flashback=True)


def test_a_flashback_spell_that_is_countered_is_exiled():  # CR 702.34a ("any time it would leave the stack"), 701.6a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"] * 3)
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (looting,) = g.add_cards(0, "graveyard", ["Faithless Looting"])
    (cs,) = add_hand(g, 1, ["Counterspell"])
    spell = g.cast(looting, flashback=True)
    g.pass_priority()
    g.cast(cs, targets=[spell])
    g.resolve_top()
    assert g.stack() == [] and g.graveyard(0) == []
    assert [g.name(c) for c in g.exile()] == ["Faithless Looting"]
    assert [g.name(c) for c in g.graveyard(1)] == ["Counterspell"]


KICKER_FLASHBACK = {
    "name": "Test Kicked Flashback Mill",
    "mana_cost": "{R}",
    "type_line": "Sorcery",
    "oracle_text": "Kicker {1}\nTarget player mills two cards. If this spell was kicked, that player mills four cards instead.\nFlashback {2}{R}",
    "rules": {
        "kicker": [{"cost": "{1}"}],
        "flashback": "{2}{R}",
        "targets": [{"kind": "player"}],
        "spell": [{"if": {"cond": "kicked", "then": [{"mill": {"who": {"target": 0}, "count": 4}}], "else": [{"mill": {"who": {"target": 0}, "count": 2}}]}}],
    },
}


def test_flashback_still_lets_the_caster_pay_kicker():  # CR 702.34a, 118.9d, 702.33a (custom card: none built in has both)
    g = with_libraries(new_game(), 10)
    (card,) = g.add_cards(0, "graveyard", ["Stabilizer"])
    mountains = g.add_cards(0, "battlefield", ["Mountain"] * 4)
    g = redefine(g, "Stabilizer", KICKER_FLASHBACK)
    assert g.cast(card, flashback=True, targets=[{"player": 1}]) is None
    assert g.pending.purpose == "kicker"
    (spell,) = g.answer(True)
    assert all(g.object(m).tapped for m in mountains)  # {2}{R} + {1}
    assert g.cast_info(spell) == {"kicked": True, "kicks": [1, 0], "granted_kicks": 0, "x": 0, "flashback": True, "modes": [], "targets": [[{"player": 1}]]}
    g.resolve_top()
    assert len(g.library(1)) == 6
    assert [g.name(c) for c in g.exile()] == ["Test Kicked Flashback Mill"]


def cast_action(card: int) -> dict:
    return {"action": "cast", "card": card}


def test_a_flashback_card_in_the_graveyard_is_offered_when_its_flashback_cost_can_be_paid():  # CR 702.34a, 117.1a, 601.2f
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"] * 2)
    (looting,) = g.add_cards(0, "graveyard", ["Faithless Looting"])
    (bolt,) = g.add_cards(0, "graveyard", ["Lightning Bolt"])  # no flashback, no permission
    (theirs,) = g.add_cards(1, "graveyard", ["Faithless Looting"])
    assert g.cost_of(looting) == ("{2}{R}", False)  # costed for flashback, not for {R}
    assert cast_action(looting) not in g.priority_actions()  # two Mountains can't pay {2}{R}
    g.add_cards(0, "battlefield", ["Mountain"])
    assert g.cost_of(looting) == ("{2}{R}", True)
    actions = g.priority_actions()
    assert cast_action(looting) in actions
    assert cast_action(bolt) not in actions and cast_action(theirs) not in actions  # only their own graveyard
    g.advance_to("begin_combat")
    assert g.priority_actions() == [{"action": "pass"}]  # a sorcery keeps sorcery timing (307.1)


def test_taking_the_cast_action_of_a_flashback_card_casts_it_with_flashback():  # CR 702.34a, 117.1a
    g = with_libraries(new_game())
    mountains = g.add_cards(0, "battlefield", ["Mountain"] * 3)
    add_hand(g, 0, ["Island", "Island"])
    (looting,) = g.add_cards(0, "graveyard", ["Faithless Looting"])
    g.play()
    assert g.pending.purpose == "priority" and cast_action(looting) in g.pending.options
    g.answer(g.pending.options.index(cast_action(looting)))
    (spell,) = g.stack()
    assert g.cast_info(spell)["flashback"] is True and all(g.object(m).tapped for m in mountains)
    g.resolve_top()
    g.answer(g.pending.options[:2])
    assert [g.name(c) for c in g.exile()] == ["Faithless Looting"]


def test_the_goldfish_player_flashes_back_a_spell_it_can_pay_for():  # CR 702.34a; goldfish casts what it can
    g = with_libraries(new_game(manual=False))
    g.set_policy(0, "goldfish")
    g.set_policy(1, "goldfish")
    g.add_cards(0, "battlefield", ["Mountain"] * 3)
    g.add_cards(0, "graveyard", ["Faithless Looting"])
    g.play(until="end_of_turn")
    assert [g.name(c) for c in g.exile()] == ["Faithless Looting"]
    assert g.stats(0)["spells"] == 1


CYCLING_FLASHBACK = {
    "name": "Test Cycling Flashback Mill",
    "mana_cost": "{U}",
    "type_line": "Sorcery",
    "oracle_text": "Target player mills two cards.\nFlashback {3}{U}\nCycling {2}",
    "rules": {
        "flashback": "{3}{U}",
        "targets": [{"kind": "player"}],
        "spell": [{"mill": {"who": {"target": 0}, "count": 2}}],
        "activated": [{"cost": {"mana": "{2}", "discard_self": True}, "effects": [{"draw": {"count": 1}}], "zone": "hand", "cycling": True}],
    },
}


def test_a_permission_to_cast_from_the_graveyard_is_used_before_flashback():  # CR 601.2a, 601.2b, 702.34a (custom card: none built in has both)
    g = with_libraries(new_game(), 10)
    (card,) = g.add_cards(0, "graveyard", ["Stabilizer"])
    g.add_cards(0, "battlefield", ["Abandoned Sarcophagus", "Island"])
    g = redefine(g, "Stabilizer", CYCLING_FLASHBACK)
    assert g.cost_of(card) == ("{U}", True)  # the permission: its mana cost, which one Island pays
    g.play()
    assert cast_action(card) in g.pending.options
    g.answer(g.pending.options.index(cast_action(card)))
    g.answer([{"player": 1}])
    (spell,) = g.stack()
    assert g.cast_info(spell)["flashback"] is False
    g.resolve_top()
    assert len(g.library(1)) == 8
    # Cast for its mana cost, it isn't exiled by flashback; the Sarcophagus exiles it as a card
    # with cycling that wasn't cycled.
    assert [g.name(c) for c in g.exile()] == ["Test Cycling Flashback Mill"]


# ----- X (custom card: no built-in card has {X}) -------------------------------------------------------------



def x_game(islands: int = 4) -> tuple[mtgsim.Game, int]:
    g = with_libraries(new_game(), 10)
    (card,) = add_hand(g, 0, ["Stabilizer"])
    g.add_cards(0, "battlefield", ["Island"] * islands)
    return redefine(g, "Stabilizer", X_DRAW), card


def test_x_is_announced_as_a_number_and_adds_that_much_generic_mana():  # CR 107.3a, 601.2b, 601.2f
    g, card = x_game(4)
    assert g.cost_of(card, x=3) == ("{3}{U}", True)
    assert g.cost_of(card, x=4) == ("{4}{U}", False)
    assert g.cast(card) is None
    d = g.pending
    assert (d.kind, d.purpose, d.min, d.max) == ("number", "x", 0, 3)  # four Islands: X up to 3
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer(4)
    assert g.answer(2) is None  # then the target
    (spell,) = g.answer([{"player": 0}])
    assert g.cast_info(spell)["x"] == 2 and g.events[-1]["x"] == 2
    g.resolve_top()
    assert len(g.hand(0)) == 2


def test_the_first_policy_picks_the_largest_x():  # GUIDE §4 (built-in policy)
    g, card = x_game(4)
    g.set_policy(0, "first")
    spell = g.cast(card, targets=[{"player": 0}])
    assert g.cast_info(spell)["x"] == 3


def test_x_is_zero_for_a_spell_cast_without_paying_its_mana_cost():  # CR 107.3b
    g, card = x_game(4)
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(card, without_paying=True, x=2, targets=[{"player": 0}])
    spell = g.cast(card, without_paying=True, targets=[{"player": 0}])
    assert g.cast_info(spell)["x"] == 0


def test_x_on_a_spell_without_x_is_rejected():  # CR 107.3
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(bolt, x=1, targets=[{"player": 1}])
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(bolt, x=-1, targets=[{"player": 1}])


# ----- property: a rejected cast changes nothing -------------------------------------------------------------

HAND0 = ["Lightning Bolt", "Necravolver", "Everflowing Chalice", "Joint Exploration", "Counterspell", "Grizzly Bears", "Island"]  # seven: no cleanup discard


@lru_cache(maxsize=None)
def _position(timing: str) -> str:
    """A varied position, saved: lands (some tapped, one dual), Wicker Picker, mana in the pool,
    creatures and spells to target; then one of several timings."""
    g = with_libraries(new_game(), 8)
    add_hand(g, 0, HAND0)
    g.add_cards(0, "graveyard", ["Faithless Looting", "Lightning Bolt"])
    lands = g.add_cards(0, "battlefield", ["Island", "Island", "Mountain", "Forest", "Swamp", "Plains", "Temple of Malady", "Wicker Picker"])
    g.set_tapped(lands[1])
    g.activate_mana(lands[2])  # {R} floating
    g.add_cards(1, "battlefield", ["Island", "Island", "Grizzly Bears", "Hill Giant"])
    add_hand(g, 1, ["Lightning Bolt", "Counterspell", "Grizzly Bears"])
    if timing == "combat":
        g.advance_to("begin_combat")
    elif timing == "stack":
        g.cast(g.hand(0)[0], targets=[{"player": 1}], payment=[lands[0]])  # Lightning Bolt, paid with an Island + the pool's {R}
    elif timing == "opponent_priority":
        g.pass_priority()
    elif timing == "opponent_turn":
        g.next_turn()
        g.advance_to("precombat_main")
    g.clear_events()
    return full_state(g)


def _all_ids(g: mtgsim.Game) -> list[int]:
    ids = list(g.battlefield()) + list(g.stack()) + list(g.exile())
    for p in range(g.num_players):
        ids += g.hand(p) + g.graveyard(p) + g.library(p)[:2]
    return ids


_small = st.one_of(st.booleans(), st.booleans(), st.integers(0, 3), st.integers(-2, 70))
_kick = st.one_of(st.none(), st.none(), _small, st.lists(_small, max_size=4))
_rarely = st.sampled_from([False, False, False, True])


@st.composite
def _cast_attempts(draw):
    timing = draw(st.sampled_from(["main", "main", "main", "combat", "stack", "opponent_priority", "opponent_turn"]))
    g = mtgsim.Game._load(_position(timing))
    ids = _all_ids(g)
    castable = [*g.hand(g.priority_player), *g.graveyard(g.priority_player)]
    some_id = st.one_of(st.sampled_from(ids), st.integers(-3, 10**6))
    players = st.one_of(st.integers(0, 1), st.integers(0, 1), st.integers(-1, 3))
    target = st.one_of(st.sampled_from(ids), st.builds(lambda p: {"player": p}, players), some_id)
    targets = st.one_of(st.none(), st.none(), st.lists(target, max_size=2), st.lists(st.one_of(target, st.lists(target, max_size=3)), max_size=3))
    sources = g.battlefield()
    payment = st.one_of(st.none(), st.lists(st.sampled_from(sources), max_size=6), st.lists(some_id, max_size=4))
    kwargs = {
        "kick": draw(_kick),
        "x": draw(st.one_of(st.none(), st.none(), st.integers(-1, 5))),
        "targets": draw(targets),
        "payment": draw(payment),
        "without_paying": draw(_rarely),
        "flashback": draw(_rarely),
        "sticker": draw(st.one_of(st.none(), st.booleans())),
    }
    card = draw(st.one_of(st.sampled_from(castable), st.sampled_from(castable), some_id))
    return timing, g, card, kwargs


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_cast_attempts())
def test_a_rejected_cast_never_changes_the_state(attempt):  # CR 733.1, 601.2
    timing, g, card, kwargs = attempt
    before = state(g)
    full = full_state(g)
    try:
        result = g.cast(card, **kwargs)
    except mtgsim.MtgsimError as e:
        event(f"rejected {type(e).__name__}")
        assert state(g) == before  # to_dict(), events, pending, policies ...
        assert full_state(g) == full  # ... and pools, tapped, step, priority, stickers, counters
        return
    # Not rejected: a cast that stops at a decision (the sticker decision included, since it is
    # chosen before the payment) can be cancelled without a trace.
    event("paused" if result is None else "cast")
    if result is None and g.pending is not None:
        g.cancel()
        assert state(g) == before and full_state(g) == full
    else:
        g.check_invariants()
        assert g.stack() and g.stack()[0] == (result if result is not None else g.stack()[0])


def test_the_property_positions_offer_real_casts():  # guards the property test against testing nothing
    outcomes = {}
    for timing in ["main", "combat", "stack", "opponent_priority", "opponent_turn"]:
        g = mtgsim.Game._load(_position(timing))
        bears = [c for c in g.hand(0) if g.name(c) == "Grizzly Bears"][0]
        try:
            g.cast(bears, kick=[False])
            outcomes[timing] = "cast"
        except mtgsim.IllegalActionError:
            outcomes[timing] = "illegal"
    assert outcomes == {"main": "cast", "combat": "illegal", "stack": "illegal", "opponent_priority": "illegal", "opponent_turn": "illegal"}


def test_a_card_with_no_mana_cost_is_cast_only_without_paying_it():  # CR 202.1b, 118.6, 118.6a
    db = mtgsim.CardDB()
    db.add([{"name": "Costless Vision", "mana_cost": "", "type_line": "Sorcery", "rules": {"spell": [{"draw": {"count": 3}}]}}])
    g = mtgsim.Game(2, 1, db=db)
    for p in (0, 1):
        g.set_policy(p, "first")
        g.add_cards(p, "library", ["Island"] * 10)
    (c,) = g.add_cards(0, "hand", ["Costless Vision"])
    assert db["Costless Vision"].mana_cost == "" and db["Ornithopter"].mana_cost == "{0}"
    # It was cast for {0}: no mana cost is an unpayable cost.
    with rejected(g, mtgsim.CannotPayError, match="no mana cost, which is an unpayable cost"):
        g.cast(c)
    with pytest.raises(mtgsim.CannotPayError, match="unpayable"):
        g.cost_of(c)
    assert not any(a["action"] == "cast" for a in g.priority_actions())
    assert g.run_batch([mtgsim.Op.cost_of(c)], 1).operations == 1  # priced as unpayable, no error
    spell = g.cast(c, without_paying=True)  # an alternative cost casts it (CR 118.6a)
    g.resolve_top()
    assert spell is not None and len(g.hand(0)) == 3 and len(g.graveyard(0)) == 1


def test_flashback_casts_a_card_with_no_mana_cost_even_where_a_permission_applies():  # CR 118.6, 702.34a
    # The permission casts for the mana cost, which this card can't pay: flashback is the way.
    db = mtgsim.CardDB()
    db.add([{"name": "Costless Echo", "mana_cost": "", "type_line": "Sorcery", "oracle_text": "Draw a card.\nCycling {2}\nFlashback {U}", "rules": {"spell": [{"draw": {"count": 1}}]}}])
    g = mtgsim.Game(2, 1, db=db)
    for p in (0, 1):
        g.set_policy(p, "manual")
        g.add_cards(p, "library", ["Island"] * 10)
    g.advance_to("precombat_main")
    me = g.priority_player
    g.add_cards(me, "battlefield", ["Island", "Island", "Abandoned Sarcophagus"])
    (c,) = g.add_cards(me, "graveyard", ["Costless Echo"])
    assert {"action": "cast", "card": c} in g.priority_actions()
    assert g.cost_of(c) == ("{U}", True)
