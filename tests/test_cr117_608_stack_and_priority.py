"""Priority (CR 117), the stack (CR 405) and resolving spells (CR 608): passing in turn order,
last in first out, targets checked again on resolution (608.2b), instants and sorceries to
their owner's graveyard (608.2n), permanent spells onto the battlefield (608.3), countering
(701.6a), damage (120) and lethal damage (704.5g); what the spells of the card pool do."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import add_hand, full_state, kinds, new_game, untouched, with_libraries


def passes(g: mtgsim.Game) -> list[int]:
    return [e["player"] for e in g.events if e["kind"] == "passed_priority"]


# ----- CR 117: priority ---------------------------------------------------------------------------


def test_priority_passes_in_turn_order_and_the_top_resolves_when_all_have_passed():  # CR 117.3d, 117.4, 405.5
    g = with_libraries(new_game(3))
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[{"player": 2}])
    g.clear_events()
    order = []
    for _ in range(3):
        order.append(g.priority_player)
        assert g.stack() == [spell] and g.life(2) == 20  # nothing resolves before everyone passed
        g.pass_priority()
    assert order == [0, 1, 2]
    assert g.stack() == [] and g.life(2) == 17
    assert kinds(g.events) == ["passed_priority"] * 3 + ["life_changed", "damage_dealt", "resolved"]
    assert g.priority_player == 0  # 117.3b: the active player after resolution


def test_priority_order_starts_from_the_active_player_in_the_opponents_turn():  # CR 117.3a, 117.3d
    g = with_libraries(new_game(3))
    g.next_turn()
    g.next_turn()  # turn 3: player 2's
    assert (g.turn, g.active_player, g.priority_player, g.step) == (3, 2, 2, "upkeep")
    g.clear_events()
    g.pass_priority()
    g.pass_priority()
    assert passes(g) == [2, 0] and g.priority_player == 1
    g.pass_priority()
    assert g.step == "draw" and g.priority_player == 2


def test_all_passing_with_an_empty_stack_ends_the_step():  # CR 117.4, 500.2
    g = with_libraries(new_game())
    g.clear_events()
    g.pass_priority()
    assert (g.step, g.priority_player) == ("precombat_main", 1)
    g.pass_priority()
    assert (g.step, g.priority_player) == ("begin_combat", 0)
    assert g.events[-1] == {"kind": "step_began", "turn": 1, "step": "begin_combat", "active": 0}


def test_casting_a_spell_restarts_the_round_of_passing():  # CR 117.3c, 117.4
    g = with_libraries(new_game())
    g.add_cards(1, "battlefield", ["Mountain"])
    g.add_cards(0, "battlefield", ["Mountain"])
    (b0,) = add_hand(g, 0, ["Lightning Bolt"])
    (b1,) = add_hand(g, 1, ["Lightning Bolt"])
    g.cast(b0, targets=[{"player": 1}])
    g.pass_priority()  # player 0 passed ...
    g.cast(b1, targets=[{"player": 0}])  # ... but player 1 acted, and gets priority
    assert g.priority_player == 1
    g.pass_priority()
    assert len(g.stack()) == 2 and g.priority_player == 0  # not resolved: player 0 hasn't passed since
    g.pass_priority()
    assert len(g.stack()) == 1 and g.life(0) == 17 and g.priority_player == 0


def test_activating_a_mana_ability_between_passes_restarts_the_round():  # CR 117.3c, 117.4 ("without taking any actions")
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (island,) = g.add_cards(1, "battlefield", ["Island"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[{"player": 1}])
    g.pass_priority()
    g.activate_mana(island)  # player 1 takes an action ...
    g.pass_priority()  # ... so the two passes were not in succession
    assert g.stack() != [] and g.priority_player == 0


def test_advance_to_the_current_step_leaves_the_active_player_with_priority_at_a_step_start():  # CR 117.3a; Game.advance_to docs
    g = with_libraries(new_game())
    assert (g.step, g.priority_player) == ("precombat_main", 0)
    g.advance_to("precombat_main")
    # Either nothing to do (already there) or the next precombat main phase (turn 2): in both
    # cases the active player has priority, as at the start of any step.
    assert g.step == "precombat_main"
    assert g.priority_player == g.active_player


def test_nobody_can_pass_for_the_player_without_priority_and_resolving_needs_a_stack():  # CR 117, 733
    g = with_libraries(new_game())
    with untouched(g, mtgsim.IllegalActionError):
        g.resolve_top()  # the stack is empty
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[{"player": 1}])
    with untouched(g, mtgsim.IllegalActionError):
        g.advance_to("end")  # the stack isn't empty


# ----- CR 405, 608: the stack and resolution ----------------------------------------------------------------


def test_the_last_spell_cast_resolves_first():  # CR 405.5, 608.1
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Swamp", "Island"])
    g.add_cards(1, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    (opp_bolt,) = add_hand(g, 1, ["Lightning Bolt"])
    s_glimpse = g.cast(glimpse, targets=[{"player": 1}])
    s_bolt = g.cast(bolt, targets=[{"player": 1}])
    g.pass_priority()
    s_opp = g.cast(opp_bolt, targets=[{"player": 0}])
    assert g.stack() == [s_opp, s_bolt, s_glimpse]  # top first
    g.clear_events()
    while g.stack():
        g.resolve_top()
    resolved = [e["spell"] for e in g.events if e["kind"] == "resolved"]
    assert resolved == [s_opp, s_bolt, s_glimpse]
    assert (g.life(0), g.life(1), len(g.library(1))) == (17, 17, 0)


def test_an_instant_or_sorcery_goes_to_its_owners_graveyard_after_resolving():  # CR 608.2n
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Swamp", "Swamp"])
    bolt, tutor = add_hand(g, 0, ["Lightning Bolt", "Demonic Tutor"])
    spell = g.cast(bolt, targets=[{"player": 1}])
    g.resolve_top()
    (card,) = g.graveyard(0)
    assert g.name(card) == "Lightning Bolt" and card != spell and g.graveyard(1) == []
    assert g.events[-1] == {"kind": "resolved", "spell": spell, "card": card}
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(spell)


def test_a_spell_cast_by_a_player_goes_to_its_owners_graveyard_when_an_opponent_casts_it():  # CR 608.2n, 108.3
    g = with_libraries(new_game())
    g.add_cards(1, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 1, ["Lightning Bolt"])
    g.pass_priority()
    g.cast(bolt, targets=[{"player": 0}])
    g.resolve_top()
    assert [g.name(c) for c in g.graveyard(1)] == ["Lightning Bolt"] and g.graveyard(0) == []


def test_a_permanent_spell_enters_the_battlefield_under_its_controller():  # CR 608.3, 110.2
    g = with_libraries(new_game())
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (ved,) = add_hand(g, 1, ["Vedalken AEthermage"])  # flash: cast in player 0's turn
    g.pass_priority()
    spell = g.cast(ved)
    assert g.object(spell).controller == 1
    g.resolve_top()
    perm = g.battlefield()[-1]
    o = g.object(perm)
    assert (o.name, o.zone, o.owner, o.controller, o.tapped) == ("Vedalken AEthermage", "battlefield", 1, 1, False)
    resolved = [e for e in g.events if e["kind"] == "resolved"]
    assert resolved[-1] == {"kind": "resolved", "spell": spell, "card": perm}
    # Its "enters" trigger targets a Sliver; with none, it leaves the stack at once (CR 603.3d).
    assert g.events[-1]["kind"] == "ability_triggered" and g.stack() == []
    assert g.priority_player == 0  # 117.3b


# ----- 608.2b: illegal targets ------------------------------------------------------------------------------


def test_a_spell_whose_only_target_left_the_battlefield_does_not_resolve():  # CR 608.2b, 400.7
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[bears])
    returned = g.move(bears, "hand")  # in response, it leaves
    g.clear_events()
    g.resolve_top()
    (card,) = g.graveyard(0)
    assert g.name(card) == "Lightning Bolt"
    assert kinds(g.events) == ["passed_priority", "passed_priority", "fizzled"]
    assert g.events[-1] == {"kind": "fizzled", "spell": spell, "card": card}
    assert g.hand(1) == [returned] and (g.life(0), g.life(1)) == (20, 20)


def test_a_creature_returned_to_the_battlefield_is_a_new_object_and_not_the_target():  # CR 608.2b, 400.7
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[bears])
    again = g.move(g.move(bears, "hand"), "battlefield")
    g.resolve_top()
    assert g.battlefield()[-1] == again and "damage_dealt" not in kinds(g.events)


def test_a_spell_targeting_a_player_who_left_the_game_does_not_resolve():  # CR 608.2b, 800.4a
    g = with_libraries(new_game(3), 12)
    g.add_cards(0, "battlefield", ["Island", "Swamp"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    spell = g.cast(glimpse, targets=[{"player": 2}])
    g.concede(2)
    g.resolve_top()
    assert g.events[-1]["kind"] == "fizzled" and g.events[-1]["spell"] == spell
    assert [g.name(c) for c in g.graveyard(0)] == ["Glimpse the Unthinkable"]
    assert len(g.library(1)) == 12


def test_a_counterspell_whose_target_was_already_countered_does_not_resolve():  # CR 608.2b, 701.6a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    g.add_cards(1, "battlefield", ["Island"] * 4)
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    cs1, cs2 = add_hand(g, 1, ["Counterspell", "Counterspell"])
    s_bolt = g.cast(bolt, targets=[{"player": 1}])
    g.pass_priority()
    s1 = g.cast(cs1, targets=[s_bolt])
    s2 = g.cast(cs2, targets=[s_bolt])
    g.clear_events()
    g.resolve_top()  # cs2 counters the Bolt
    assert g.stack() == [s1]
    g.resolve_top()  # cs1's target is gone
    assert [(e["kind"], e["spell"]) for e in g.events if e["kind"] in ("countered", "resolved", "fizzled")] == [
        ("countered", s_bolt),
        ("resolved", s2),
        ("fizzled", s1),
    ]
    assert [g.name(c) for c in g.graveyard(1)] == ["Counterspell", "Counterspell"]
    assert [g.name(c) for c in g.graveyard(0)] == ["Lightning Bolt"]
    assert g.life(1) == 20


# ----- 701.6a: Counterspell -----------------------------------------------------------------------------------


def test_counterspell_puts_the_countered_spell_into_its_owners_graveyard():  # CR 701.6a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"] * 4)
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (giant,) = add_hand(g, 0, ["Hill Giant"])
    (cs,) = add_hand(g, 1, ["Counterspell"])
    s_giant = g.cast(giant)
    g.pass_priority()
    s_cs = g.cast(cs, targets=[s_giant])
    assert g.cast_info(s_cs)["targets"] == [[s_giant]]
    g.clear_events()
    g.resolve_top()
    (card,) = g.graveyard(0)
    assert g.name(card) == "Hill Giant" and g.battlefield()[-1] != card
    assert [g.name(c) for c in g.graveyard(1)] == ["Counterspell"]
    assert g.events[-2:] == [
        {"kind": "countered", "spell": s_giant, "card": card},
        {"kind": "resolved", "spell": s_cs, "card": g.graveyard(1)[0]},
    ]
    assert g.stack() == [] and g.priority_player == 0
    assert "Hill Giant" not in [g.name(c) for c in g.battlefield()]


def test_counterspell_on_a_counterspell_lets_the_first_spell_resolve():  # CR 701.6a, 405.5
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Island", "Island"])
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (bolt, cs0) = add_hand(g, 0, ["Lightning Bolt", "Counterspell"])
    (cs1,) = add_hand(g, 1, ["Counterspell"])
    s_bolt = g.cast(bolt, targets=[{"player": 1}])
    g.pass_priority()
    s1 = g.cast(cs1, targets=[s_bolt])
    g.pass_priority()
    g.cast(cs0, targets=[s1])
    while g.stack():
        g.resolve_top()
    assert g.life(1) == 17
    assert sorted(g.name(c) for c in g.graveyard(0)) == ["Counterspell", "Lightning Bolt"]
    assert [g.name(c) for c in g.graveyard(1)] == ["Counterspell"]


def test_counterspell_can_only_target_a_spell():  # CR 115.1, 601.2c
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    (cs,) = add_hand(g, 1, ["Counterspell"])
    g.cast(bolt, targets=[{"player": 1}])
    g.pass_priority()
    for bad in ([bears], [{"player": 0}], [cs]):
        with untouched(g, mtgsim.InvalidAnswerError):
            g.cast(cs, targets=[bad])


# ----- damage and 704.5g -------------------------------------------------------------------------------------


def test_lightning_bolt_to_a_player_is_life_loss():  # CR 120.3a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[{"player": 1}])
    g.resolve_top()
    assert (g.life(0), g.life(1)) == (20, 17)
    assert {"kind": "damage_dealt", "source": spell, "target": {"player": 1}, "amount": 3} in g.events


def test_lethal_damage_destroys_a_creature_by_state_based_action():  # CR 120.3e, 704.5g
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (giant,) = g.add_cards(1, "battlefield", ["Hill Giant"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[giant])
    g.resolve_top()
    (dead,) = g.graveyard(1)
    assert g.name(dead) == "Hill Giant" and giant not in g.battlefield()
    assert {"kind": "died", "card": dead, "from_id": giant} in g.events
    assert g.life(1) == 20


def test_damage_short_of_lethal_stays_marked_until_cleanup():  # CR 120.3e, 704.5g, 514.2
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    (turtle,) = g.add_cards(1, "battlefield", ["Horned Turtle"])  # 1/4
    b1, b2 = add_hand(g, 0, ["Lightning Bolt", "Lightning Bolt"])
    g.cast(b1, targets=[turtle])
    g.resolve_top()
    assert turtle in g.battlefield()  # 3 < 4
    g.cast(b2, targets=[turtle])
    g.resolve_top()  # 6 >= 4 this turn
    assert turtle not in g.battlefield() and [g.name(c) for c in g.graveyard(1)] == ["Horned Turtle"]


def test_marked_damage_wears_off_in_the_cleanup_step():  # CR 514.2
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    (turtle,) = g.add_cards(1, "battlefield", ["Horned Turtle"])
    b1, b2 = add_hand(g, 0, ["Lightning Bolt", "Lightning Bolt"])
    g.cast(b1, targets=[turtle])
    g.resolve_top()
    g.next_turn()
    g.pass_priority()  # player 1's upkeep: player 0 gets priority
    g.cast(b2, targets=[turtle])  # the Mountains untap only in player 0's turn: one is still untapped
    g.resolve_top()
    assert turtle in g.battlefield()  # 3 damage this turn, not 6


# ----- what the card pool's spells do (608.2c) ------------------------------------------------------------------


def test_glimpse_the_unthinkable_target_player_mills_ten():  # CR 701.17a
    for n, left in ((12, 2), (7, 0)):
        g = new_game()
        g.add_cards(0, "library", ["Swamp"] * 5)
        g.add_cards(1, "library", ["Island"] * n)
        g.add_cards(0, "battlefield", ["Island", "Swamp"])
        (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
        g.cast(glimpse, targets=[{"player": 1}])
        g.resolve_top()
        assert (len(g.library(1)), len(g.graveyard(1)), len(g.library(0))) == (left, n - left, 5)
        assert not g.is_over  # milling out is no loss by itself


def test_glimpse_can_target_its_caster():  # CR 115.1 ("target player")
    g = with_libraries(new_game(), 12)
    g.add_cards(0, "battlefield", ["Island", "Swamp"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    g.cast(glimpse, targets=[{"player": 0}])
    g.resolve_top()
    assert (len(g.library(0)), len(g.library(1))) == (2, 12)


def test_fractured_sanity_each_opponent_mills_fourteen():  # CR 701.17a
    g = new_game(3)
    for p, n in enumerate([20, 20, 9]):
        g.add_cards(p, "library", ["Island"] * n)
    g.add_cards(0, "battlefield", ["Island"] * 3)
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.cast(fs)
    g.resolve_top()
    assert [len(g.library(p)) for p in range(3)] == [20, 6, 0]


def test_lorien_revealed_draws_three():  # CR 121.1
    g = new_game()
    lib = g.add_cards(0, "library", ["Swamp", "Plains", "Forest", "Mountain"])
    g.add_cards(1, "library", ["Island"] * 3)
    g.add_cards(0, "battlefield", ["Island"] * 5)
    (lr,) = add_hand(g, 0, ["Lórien Revealed"])
    g.cast(lr)
    g.resolve_top()
    assert [g.name(c) for c in g.hand(0)] == ["Swamp", "Plains", "Forest"]
    assert g.library(0) == [lib[3]]


def test_demonic_tutor_puts_the_chosen_card_into_hand_and_shuffles():  # CR 701.23, 701.24
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Lightning Bolt", "Grizzly Bears", "Swamp"])
    g.add_cards(0, "battlefield", ["Swamp", "Swamp"])
    (dt,) = add_hand(g, 0, ["Demonic Tutor"])
    g.cast(dt)
    g.resolve_top()
    d = g.pending
    assert (d.purpose, d.options, d.min, d.max) == ("search", lib, 1, 1)
    g.answer([lib[2]])
    assert [g.name(c) for c in g.hand(0)] == ["Grizzly Bears"]
    assert sorted(g.name(c) for c in g.library(0)) == ["Island", "Lightning Bolt", "Swamp"]
    assert kinds(g.events)[-4:] == ["searched", "moved", "shuffled", "resolved"]


def test_mystical_tutor_puts_an_instant_or_sorcery_on_top_after_shuffling():  # CR 701.23, 701.24, 701.20
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Lightning Bolt", "Grizzly Bears", "Demonic Tutor", "Swamp"])
    g.add_cards(0, "battlefield", ["Island"])
    (mt,) = add_hand(g, 0, ["Mystical Tutor"])
    g.cast(mt)
    g.resolve_top()
    d = g.pending
    assert (d.purpose, d.options) == ("search", [lib[1], lib[3]])  # instants and sorceries only
    g.answer([lib[3]])
    assert g.library(0)[0] == lib[3] and g.name(g.library(0)[0]) == "Demonic Tutor"
    assert len(g.library(0)) == 5 and g.hand(0) == []
    assert kinds(g.events)[-4:] == ["searched", "revealed", "shuffled", "resolved"]


def test_gamble_finds_a_card_then_discards_one_at_random():  # CR 701.23, 701.9a
    g = new_game(seed=3)
    lib = g.add_cards(0, "library", ["Island", "Lightning Bolt", "Grizzly Bears", "Demonic Tutor", "Swamp"])
    g.add_cards(0, "battlefield", ["Mountain"])
    (gamble,) = add_hand(g, 0, ["Gamble"])
    add_hand(g, 0, ["Forest", "Plains"])
    g.cast(gamble)
    g.resolve_top()
    assert g.pending.purpose == "search"
    g.answer([lib[3]])
    assert g.pending is None  # the discard is random: no decision
    hand = sorted(g.name(c) for c in g.hand(0))
    gy = [g.name(c) for c in g.graveyard(0)]
    assert len(hand) == 2 and len(gy) == 2 and gy[0] == "Gamble"  # top first: Gamble went last
    assert sorted(hand + gy[1:]) == ["Demonic Tutor", "Forest", "Plains"]
    (discard,) = [e for e in g.events if e["kind"] == "discarded"]
    assert discard["random"] is True and discard["by"] is None
    assert kinds(g.events)[-3:] == ["discarded", "shuffled", "resolved"]
    assert len(g.library(0)) == 4


def test_faithless_looting_draws_two_then_discards_two():  # CR 121.1, 701.9
    g = new_game()
    g.add_cards(0, "library", ["Swamp", "Plains", "Forest"])
    g.add_cards(0, "battlefield", ["Mountain"])
    (fl,) = add_hand(g, 0, ["Faithless Looting"])
    (island,) = add_hand(g, 0, ["Island"])
    g.cast(fl)
    g.resolve_top()
    d = g.pending
    assert (d.purpose, d.min, d.max) == ("discard", 2, 2)
    assert [g.name(c) for c in d.options] == ["Island", "Swamp", "Plains"]
    g.answer([d.options[1], d.options[2]])
    assert g.hand(0) == [island]
    assert [g.name(c) for c in g.graveyard(0)] == ["Faithless Looting", "Plains", "Swamp"]


# ----- the stack's bookkeeping ----------------------------------------------------------------------------------


def test_a_spell_moved_off_the_stack_leaves_no_stack_entry():  # CR 400.7, 405.1
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[{"player": 1}])
    card = g.move(spell, "graveyard")
    assert g.stack() == []
    assert g.cast_info(card)["targets"] == []  # a card in a graveyard has no targets
    import json

    assert json.loads(full_state(g))["stack_items"] == []
