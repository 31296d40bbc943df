"""CR 702.33 kicker, in every corner: kicker (702.33a), "kicker A and/or B" (702.33b, f),
multikicker (702.33c), "kicked" (702.33d), linked abilities (702.33e, 607), kicked-only targets
(702.33g), sticker kicker (702.33h, 123) — and a new object after a zone change is not kicked
(CR 400.7)."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import add_hand, kinds, new_game, redefine, untouched, with_libraries


def resolve_all(g: mtgsim.Game) -> None:
    while g.stack():
        g.resolve_top()


def only_new_permanent(g: mtgsim.Game, before: list[int]) -> int:
    (new,) = [c for c in g.battlefield() if c not in before]
    return new


# ----- 702.33a: kicker ----------------------------------------------------------------------------


def test_kicker_is_a_yes_no_decision_when_it_can_be_paid():  # CR 702.33a, 601.2b
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    assert g.cost_of(jo) == ("{1}{U}", True) and g.cost_of(jo, kick=True) == ("{1}{U}{G}", True)
    assert g.cast(jo) is None
    d = g.pending
    assert (d.player, d.kind, d.purpose) == (0, "yes_no", "kicker")
    (spell,) = g.answer(False)
    assert g.kicked(spell) is False
    assert g.cast_info(spell)["kicks"] == [0, 0]


def test_kicker_that_cannot_be_paid_is_not_offered():  # CR 702.33a, 601.2b (one legal answer: not asked)
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Island", "Island"])  # no {G}
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    spell = g.cast(jo)
    assert spell is not None and not g.kicked(spell)


def test_paying_the_kicker_adds_its_cost_and_the_spell_is_kicked():  # CR 702.33a, 702.33d, 601.2f
    g = with_libraries(new_game(strict=True))
    i1, i2, f = g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    spell = g.cast(jo, kick=True)
    assert all(g.object(c).tapped for c in (i1, i2, f))
    assert g.kicked(spell) is True
    assert g.cast_info(spell) == {"kicked": True, "kicks": [1, 0], "granted_kicks": 0, "x": 0, "flashback": False, "modes": [], "targets": []}
    assert g.events[-1] == {"kind": "spell_cast", "player": 0, "spell": spell, "kicks": [1, 0], "granted_kicks": 0, "x": 0, "targets": []}


def test_an_ordinary_kicker_is_paid_at_most_once():  # CR 702.33a (only multikicker repeats, 702.33c)
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest", "Forest"])
    jo, nec = add_hand(g, 0, ["Joint Exploration", "Necravolver"])
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(jo, kick=2)
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(nec, kick=[2, 0])


def test_kick_values_for_kicker_abilities_the_spell_does_not_have_are_rejected():  # CR 702.33, 733
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Island", "Forest"])
    bolt, jo = add_hand(g, 0, ["Lightning Bolt", "Joint Exploration"])
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(bolt, kick=True, targets=[{"player": 1}])
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(jo, kick=[True, True])
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(jo, kick=-1)
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(jo, kick="yes")


def test_a_kicker_announced_but_unaffordable_undoes_the_cast():  # CR 601.2h, 733.1
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island"])
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    with untouched(g, mtgsim.CannotPayError):
        g.cast(jo, kick=True)


def test_kicked_joint_exploration_may_put_a_land_from_hand_and_it_is_not_a_land_play():  # CR 702.33d, 305.4, 608.2c
    g = new_game()
    lib = g.add_cards(0, "library", ["Swamp", "Mountain", "Plains"])
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    jo, forest, bears, island = add_hand(g, 0, ["Joint Exploration", "Forest", "Grizzly Bears", "Island"])
    spell = g.cast(jo, kick=True)
    g.resolve_top()
    assert (g.pending.purpose, g.pending.cards) == ("scry", lib[:2])  # scry 2
    g.answer(([lib[1]], [lib[0]]))  # Mountain stays on top, Swamp to the bottom
    d = g.pending
    assert (d.kind, d.purpose, d.min, d.max) == ("choose_cards", "put_from_hand", 0, 1)
    assert d.options[:2] == [forest, island] and [g.name(c) for c in d.options] == ["Forest", "Island", "Mountain"]
    g.answer([forest])
    assert [g.name(c) for c in g.hand(0)] == ["Grizzly Bears", "Island", "Mountain"]  # drew the Mountain
    assert [g.name(c) for c in g.battlefield()][-1] == "Forest"
    assert [g.name(c) for c in g.library(0)] == ["Plains", "Swamp"]
    assert "land_played" not in kinds(g.events)
    assert g.play_land(island) is not None  # the land play is still available (305.4)


def test_unkicked_joint_exploration_does_not_offer_a_land():  # CR 702.33d, 608.2c
    g = new_game()
    lib = g.add_cards(0, "library", ["Swamp", "Mountain", "Plains"])
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    jo, forest = add_hand(g, 0, ["Joint Exploration", "Forest"])
    g.cast(jo, kick=False)
    g.resolve_top()
    assert g.pending.purpose == "scry"
    g.answer((lib[:2], []))
    assert g.pending is None  # the spell finished: no put_from_hand decision
    assert g.stack() == []
    assert [g.name(c) for c in g.hand(0)] == ["Forest", "Swamp"]
    assert [g.name(c) for c in g.graveyard(0)] == ["Joint Exploration"]


# ----- 702.33b, f: "kicker A and/or B" ---------------------------------------------------------------------


def test_each_kicker_of_an_and_or_kicker_is_its_own_decision():  # CR 702.33b, 601.2b
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Swamp", "Swamp", "Swamp", "Forest", "Plains", "Mountain"])
    (nec,) = add_hand(g, 0, ["Necravolver"])
    assert g.cast(nec) is None
    assert (g.pending.purpose, g.pending.kind, g.pending.prompt) == ("kicker", "yes_no", "player 0 chooses whether to pay kicker A")
    assert g.answer(True) is None
    assert (g.pending.purpose, g.pending.prompt) == ("kicker", "player 0 chooses whether to pay kicker B")
    (spell,) = g.answer(True)
    assert g.cast_info(spell)["kicks"] == [1, 1]


@pytest.mark.parametrize(
    ("kick", "cost", "counters", "pt"),
    [
        ([False, False], "{2}{B}", {}, (2, 2)),
        ([True, False], "{3}{B}{G}", {"+1/+1": 2}, (4, 4)),  # [A] {1}{G}: two counters
        ([False, True], "{2}{B}{W}", {"+1/+1": 1}, (3, 3)),  # [B] {W} only: only its linked ability
        ([True, True], "{3}{B}{G}{W}", {"+1/+1": 3}, (5, 5)),
    ],
)
def test_necravolver_each_kicker_has_its_own_linked_ability(kick, cost, counters, pt):  # CR 702.33f, 607, 614.1c
    g = with_libraries(new_game(strict=True))
    lands = g.add_cards(0, "battlefield", ["Swamp", "Swamp", "Swamp", "Forest", "Plains", "Mountain"])
    (nec,) = add_hand(g, 0, ["Necravolver"])
    assert g.cost_of(nec, kick=kick) == (cost, True)
    spell = g.cast(nec, kick=kick)
    assert sum(g.object(l).tapped for l in lands) == mtgsim.CardDef("x", cost, "Sorcery").mana_value
    assert g.cast_info(spell)["kicks"] == [int(k) for k in kick]
    assert g.kicked(spell) is any(kick)
    g.resolve_top()
    perm = g.battlefield()[-1]
    assert g.name(perm) == "Necravolver"
    assert g.object(perm).counters == counters
    assert g.power_toughness(perm) == pt
    assert g.cast_info(perm)["kicks"] == [int(k) for k in kick]  # the permanent knows how it was kicked


def test_one_kick_value_means_the_first_kicker():  # Game.cast: "one value for the first"
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Swamp", "Swamp", "Swamp", "Forest", "Plains"])
    (nec,) = add_hand(g, 0, ["Necravolver"])
    spell = g.cast(nec, kick=True)
    assert g.cast_info(spell)["kicks"] == [1, 0]


# ----- 702.33c: multikicker ----------------------------------------------------------------------------------


@pytest.mark.parametrize("times", [0, 1, 3])
def test_everflowing_chalice_multikicker_paid_0_1_and_3_times(times):  # CR 702.33c, 702.33d, 614.1c, 605
    g = with_libraries(new_game(strict=True))
    islands = g.add_cards(0, "battlefield", ["Island"] * 6)
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
    assert g.cost_of(chalice, kick=times) == ("{%d}" % (2 * times) if times else "{0}", True)
    spell = g.cast(chalice, kick=times)
    assert sum(g.object(i).tapped for i in islands) == 2 * times
    assert g.cast_info(spell)["kicks"] == [times, 0]
    assert g.kicked(spell) is (times > 0)  # 702.33d: multikicker paid zero times is not kicked
    g.resolve_top()
    perm = g.battlefield()[-1]
    assert g.name(perm) == "Everflowing Chalice"
    assert g.object(perm).counters == ({"charge": times} if times else {})
    if times:
        g.activate_mana(perm)  # {T}: Add {C} for each charge counter
        assert g.mana_pool(0)["C"] == times


def test_multikicker_is_one_number_decision_bounded_by_what_can_be_paid():  # CR 702.33c, 601.2b
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island"] * 5)
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
    assert g.cast(chalice) is None
    d = g.pending
    assert (d.kind, d.purpose, d.min, d.max) == ("number", "multikicker", 0, 2)  # five Islands: {2} twice
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer(3)
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer(-1)
    (spell,) = g.answer(2)  # decided once: no second multikicker decision
    assert g.cast_info(spell)["kicks"] == [2, 0]


def test_joraga_warcaller_enters_with_a_counter_per_kick():  # CR 702.33c, 614.1c
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Forest"] * 5)
    (jw,) = add_hand(g, 0, ["Joraga Warcaller"])
    assert g.cost_of(jw, kick=2) == ("{2}{G}{G}{G}", True)
    g.cast(jw, kick=2)
    g.resolve_top()
    perm = g.battlefield()[-1]
    assert g.object(perm).counters == {"+1/+1": 2}
    assert g.power_toughness(perm) == (3, 3)


def test_the_number_of_kicks_is_available_to_effects():  # CR 702.33c ("for each time it was kicked")
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Island"] * 8)
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
    spell = g.cast(chalice, kick=4)
    assert g.events[-1]["kicks"] == [4, 0]
    assert g.cast_info(spell)["kicks"] == [4, 0]


# ----- 702.33d: other spells ask whether a spell was kicked --------------------------------------------------


def ertai_setup(kick):
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Swamp", "Swamp", "Swamp", "Forest", "Plains"])
    g.add_cards(1, "battlefield", ["Island"])
    (nec,) = add_hand(g, 0, ["Necravolver"])
    (trick,) = add_hand(g, 1, ["Ertai's Trickery"])
    spell = g.cast(nec, kick=kick)
    g.pass_priority()
    t = g.cast(trick, targets=[spell])
    return g, spell, t


def test_ertais_trickery_counters_a_kicked_spell():  # CR 702.33d, 701.6a
    g, spell, trick = ertai_setup([False, True])
    g.resolve_top()
    assert g.stack() == []
    assert [g.name(c) for c in g.graveyard(0)] == ["Necravolver"]  # its owner's graveyard
    assert [g.name(c) for c in g.graveyard(1)] == ["Ertai's Trickery"]
    assert [e["kind"] for e in g.events[-2:]] == ["countered", "resolved"]
    assert g.events[-2] == {"kind": "countered", "spell": spell, "card": g.graveyard(0)[0]}
    assert "Necravolver" not in [g.name(c) for c in g.battlefield()]


def test_ertais_trickery_does_not_counter_an_unkicked_spell():  # CR 702.33d
    g, spell, trick = ertai_setup([False, False])
    g.resolve_top()  # Trickery resolves and does nothing
    assert g.stack() == [spell]
    assert [g.name(c) for c in g.graveyard(1)] == ["Ertai's Trickery"]
    g.resolve_top()
    assert g.name(g.battlefield()[-1]) == "Necravolver"


def test_ertais_trickery_counters_a_multikicked_spell_but_not_one_kicked_zero_times():  # CR 702.33c, 702.33d
    for times, countered in ((0, False), (1, True)):
        g = with_libraries(new_game())
        g.add_cards(0, "battlefield", ["Island", "Island"])
        g.add_cards(1, "battlefield", ["Island"])
        (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
        (trick,) = add_hand(g, 1, ["Ertai's Trickery"])
        spell = g.cast(chalice, kick=times)
        g.pass_priority()
        g.cast(trick, targets=[spell])
        g.resolve_top()
        assert (g.stack() == []) is countered


# ----- 702.33g: targets that exist only if kicked (custom cards: no built-in card has them) ------------------

KICKED_TARGET = {
    "name": "Test Kicked Strike",
    "mana_cost": "{R}",
    "type_line": "Instant",
    "oracle_text": "Kicker {1}\nTest Kicked Strike deals 3 damage to target player. If this spell was kicked, it also deals 2 damage to target creature.",
    "rules": {
        "kicker": [{"cost": "{1}"}],
        "targets": [{"kind": "player"}, {"kind": "creature", "if_kicked": True}],
        "spell": [{"damage": {"target": 0, "amount": 3}}, {"if": {"cond": "kicked", "then": [{"damage": {"target": 1, "amount": 2}}]}}],
    },
}

AB_TARGETS = {
    "name": "Test Battlemage Spell",
    "mana_cost": "{2}{G}",
    "type_line": "Sorcery",
    "oracle_text": "Kicker {R} and/or {W}\nIf this spell was kicked with its {R} kicker, it deals 2 damage to any target.\nIf this spell was kicked with its {W} kicker, target player mills three cards.",
    "rules": {
        "kicker": [{"cost": "{R}"}, {"cost": "{W}"}],
        "targets": [{"kind": "any", "if_kicked": 0}, {"kind": "player", "if_kicked": 1}],
        "spell": [
            {"if": {"cond": {"kicked_with": 0}, "then": [{"damage": {"target": 0, "amount": 2}}]}},
            {"if": {"cond": {"kicked_with": 1}, "then": [{"mill": {"who": {"target": 1}, "count": 3}}]}},
        ],
    },
}


def kicked_target_game(definition=KICKED_TARGET):
    g = with_libraries(new_game(), 10)
    (card,) = add_hand(g, 0, ["Stabilizer"])
    g.add_cards(0, "battlefield", ["Mountain", "Mountain", "Forest", "Plains", "Forest"])
    bears, giant = g.add_cards(1, "battlefield", ["Grizzly Bears", "Hill Giant"])
    return redefine(g, "Stabilizer", definition), card, bears, giant


def test_a_kicked_only_target_is_not_chosen_when_unkicked():  # CR 702.33g, 601.2c
    g, card, bears, giant = kicked_target_game()
    assert g.cast(card) is None and g.pending.purpose == "kicker"
    assert g.answer(False) is None
    assert g.pending.options == [{"player": 0}, {"player": 1}]  # target 0 only
    (spell,) = g.answer([{"player": 1}])  # no second target decision
    assert g.cast_info(spell)["targets"] == [[{"player": 1}], []]
    g.resolve_top()
    assert g.life(1) == 17 and kinds(g.events).count("damage_dealt") == 1


def test_a_kicked_only_target_is_chosen_when_kicked():  # CR 702.33g, 601.2c
    g, card, bears, giant = kicked_target_game()
    g.cast(card, kick=True)
    assert g.pending.options == [{"player": 0}, {"player": 1}]
    assert g.answer([{"player": 1}]) is None
    d = g.pending
    assert (d.kind, d.purpose, sorted(d.options)) == ("targets", "targets", sorted([bears, giant]))
    (spell,) = g.answer([bears])
    assert g.cast_info(spell)["targets"] == [[{"player": 1}], [bears]]
    g.resolve_top()
    assert g.life(1) == 17
    assert [g.name(c) for c in g.graveyard(1)] == ["Grizzly Bears"]


def test_a_kicked_spell_without_a_legal_kicked_only_target_cannot_be_cast():  # CR 601.2c, 702.33g, 733
    g = with_libraries(new_game(), 10)
    (card,) = add_hand(g, 0, ["Stabilizer"])
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    g = redefine(g, "Stabilizer", KICKED_TARGET)
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(card, kick=True, targets=[{"player": 1}])  # no creature to target
    assert g.cast(card, kick=False, targets=[{"player": 1}]) is not None


def test_a_kicked_spell_with_one_illegal_target_still_resolves_for_the_other():  # CR 608.2b, 702.33g
    g, card, bears, giant = kicked_target_game()
    spell = g.cast(card, kick=True, targets=[{"player": 1}, bears])
    g.move(bears, "hand")  # the creature target becomes illegal; the player target stays legal
    g.clear_events()
    g.resolve_top()
    assert g.life(1) == 17
    assert [e["kind"] for e in g.events][-1] == "resolved" and g.events[-1]["spell"] == spell
    assert [e["target"] for e in g.events if e["kind"] == "damage_dealt"] == [{"player": 1}]


def test_a_kicked_spell_with_all_its_targets_illegal_does_not_resolve():  # CR 608.2b, 702.33g
    g = with_libraries(new_game(3), 10)
    (card,) = add_hand(g, 0, ["Stabilizer"])
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    g = redefine(g, "Stabilizer", KICKED_TARGET)
    spell = g.cast(card, kick=True, targets=[{"player": 2}, bears])
    g.move(bears, "hand")
    g.concede(2)
    g.resolve_top()
    assert g.events[-1] == {"kind": "fizzled", "spell": spell, "card": g.graveyard(0)[0]}
    assert g.life(1) == 20


def test_a_target_given_for_a_target_the_unkicked_spell_does_not_have_is_rejected():  # CR 702.33g, 601.2c; Game.cast docs
    g, card, bears, giant = kicked_target_game()
    with untouched(g, mtgsim.InvalidArgumentError):
        g.cast(card, kick=False, targets=[{"player": 1}, bears])


@pytest.mark.parametrize(
    ("kick", "targets", "life1", "library1"),
    [
        ([False, True], [[], {"player": 1}], 20, 7),  # only [B]: only the player target
        ([True, False], [{"player": 1}, []], 18, 10),  # only [A]: only the "any target"
        ([True, True], [{"player": 1}, {"player": 1}], 18, 7),
    ],
)
def test_targets_linked_to_one_kicker_of_an_and_or_kicker(kick, targets, life1, library1):  # CR 702.33f, 702.33g
    g, card, bears, giant = kicked_target_game(AB_TARGETS)
    spell = g.cast(card, kick=kick, targets=targets)
    expected = [([t] if t != [] else []) for t in targets]
    assert g.cast_info(spell)["targets"] == expected
    g.resolve_top()
    assert (g.life(1), len(g.library(1))) == (life1, library1)


def test_only_the_b_kicked_target_is_asked_when_only_b_is_paid():  # CR 702.33g
    g, card, bears, giant = kicked_target_game(AB_TARGETS)
    g.cast(card, kick=[False, True])
    d = g.pending
    assert (d.purpose, d.options) == ("targets", [{"player": 0}, {"player": 1}])  # players only: the [B] target
    (spell,) = g.answer([{"player": 0}])
    assert g.cast_info(spell)["targets"] == [[], [{"player": 0}]]


# ----- 400.7: a new object is not kicked --------------------------------------------------------------------


def test_a_kicked_permanent_returned_to_hand_is_recast_unkicked():  # CR 400.7, 702.33d
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Swamp"] * 6 + ["Forest", "Forest"])
    (nec,) = add_hand(g, 0, ["Necravolver"])
    g.cast(nec, kick=[True, False])
    g.resolve_top()
    perm = g.battlefield()[-1]
    assert g.kicked(perm) and g.object(perm).counters == {"+1/+1": 2}
    in_hand = g.move(perm, "hand")
    assert g.kicked(in_hand) is False
    assert g.cast_info(in_hand)["kicks"] == [0, 0]
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.kicked(perm)  # the old object is gone
    spell = g.cast(in_hand, kick=[False, False])
    assert g.kicked(spell) is False
    g.resolve_top()
    again = g.battlefield()[-1]
    assert g.object(again).counters == {} and g.power_toughness(again) == (2, 2)
    assert g.kicked(again) is False


def test_a_countered_kicked_spell_is_not_kicked_in_the_graveyard():  # CR 400.7
    g, spell, trick = ertai_setup([True, False])
    g.resolve_top()
    (card,) = g.graveyard(0)
    assert g.kicked(card) is False


# ----- 702.33h: sticker kicker ----------------------------------------------------------------------------------


def test_wicker_picker_grants_sticker_kicker_to_its_controllers_creature_spells():  # CR 702.33h
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Wicker Picker"])
    bears, bolt = add_hand(g, 0, ["Grizzly Bears", "Lightning Bolt"])
    (opp_bears,) = add_hand(g, 1, ["Grizzly Bears"])
    assert g.cost_of(bears) == ("{1}{G}", False)
    assert g.cost_of(bears, kick=True)[0] == "{2}{G}"  # sticker kicker {1}
    with pytest.raises(mtgsim.InvalidArgumentError):
        g.cost_of(bolt, kick=True)  # not a creature spell
    with pytest.raises(mtgsim.InvalidArgumentError):
        g.cost_of(opp_bears, kick=True)  # not cast by Wicker Picker's controller


def test_a_printed_sticker_kicker_gives_its_ticket_and_sticker_too():  # CR 702.33h
    # Before, only granted sticker kickers (Wicker Picker) gave a ticket; a printed one gave none.
    db = mtgsim.CardDB()
    db.add([{"name": "Test Sticker Bear", "mana_cost": "{1}{G}", "type_line": "Creature — Bear", "power": "2", "toughness": "2",
             "oracle_text": "Sticker kicker {1}"}])
    g = mtgsim.Game(2, seed=0, db=db)
    g.add_cards(0, "battlefield", ["Forest"] * 3)
    (bear,) = g.add_cards(0, "hand", ["Test Sticker Bear"])
    spell = g.cast(bear, kick=True, sticker=True)
    assert g.player_counters(0) == {"ticket": 1} and g.stickers(spell) == ["sticker"]


def test_sticker_kicker_paid_gives_a_ticket_and_the_sticker_stays_on_the_permanent():  # CR 702.33h, 123.3, 123.5
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Wicker Picker"])
    forests = g.add_cards(0, "battlefield", ["Forest"] * 3)
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    assert g.cast(bears) is None
    assert (g.pending.kind, g.pending.purpose) == ("yes_no", "kicker")
    assert g.answer(True) is None
    assert (g.pending.kind, g.pending.purpose, g.pending.player) == ("yes_no", "sticker", 0)
    # Announced with the other choices; the ticket counter is part of paying the cost (601.2h),
    # so nothing is paid yet and the cast could still be cancelled without a trace.
    assert g.player_counters(0) == {}
    (spell,) = g.answer(True)
    assert g.player_counters(0) == {"ticket": 1}  # the ticket comes with the kicker, sticker or not
    assert all(g.object(f).tapped for f in forests)
    assert g.stickers(spell) == ["sticker"]
    assert g.cast_info(spell) == {"kicked": True, "kicks": [0, 0], "granted_kicks": 1, "x": 0, "flashback": False, "modes": [], "targets": []}
    assert kinds(g.events)[-3:] == ["player_counters_changed", "sticker_put", "spell_cast"]
    assert g.events[-2] == {"kind": "sticker_put", "player": 0, "card": spell, "sticker": "sticker"}
    g.resolve_top()
    perm = g.battlefield()[-1]
    assert g.stickers(perm) == ["sticker"] and g.kicked(perm)


def test_sticker_kicker_paid_without_putting_a_sticker():  # CR 702.33h ("you may put a sticker")
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Wicker Picker", "Forest", "Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    spell = g.cast(bears, kick=[True], sticker=False)
    assert g.player_counters(0) == {"ticket": 1}
    assert g.stickers(spell) == [] and g.kicked(spell)
    assert "sticker_put" not in kinds(g.events)


def test_sticker_kicker_not_paid_gives_nothing():  # CR 702.33h
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Wicker Picker", "Forest", "Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    spell = g.cast(bears, kick=[False])
    assert g.player_counters(0) == {} and g.stickers(spell) == [] and not g.kicked(spell)


@pytest.mark.parametrize(("zone", "kept"), [("graveyard", True), ("exile", True), ("hand", False), ("library", False)])
def test_stickers_stay_in_public_zones_and_vanish_in_hidden_ones(zone, kept):  # CR 123.5
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Wicker Picker", "Forest", "Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    g.cast(bears, kick=[True], sticker=True)
    g.resolve_top()
    perm = g.battlefield()[-1]
    moved = g.move(perm, zone)
    assert g.stickers(moved) == (["sticker"] if kept else [])
    back = g.move(moved, "battlefield")
    assert g.stickers(back) == (["sticker"] if kept else [])  # once gone, gone


def test_a_countered_stickered_spell_keeps_its_sticker_in_the_graveyard():  # CR 123.5, 701.6a, 702.33d
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Wicker Picker", "Forest", "Forest", "Forest"])
    g.add_cards(1, "battlefield", ["Island"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    (trick,) = add_hand(g, 1, ["Ertai's Trickery"])
    spell = g.cast(bears, kick=[True], sticker=True)
    g.pass_priority()
    g.cast(trick, targets=[spell])  # granted sticker kicker makes it kicked (702.33d)
    g.resolve_top()
    (card,) = g.graveyard(0)
    assert g.name(card) == "Grizzly Bears" and g.stickers(card) == ["sticker"]


def test_granted_sticker_kicker_is_not_linked_to_the_cards_own_kicked_abilities():  # CR 607, 702.33e
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Wicker Picker"] + ["Forest"] * 4)
    (jw,) = add_hand(g, 0, ["Joraga Warcaller"])
    assert g.cast(jw) is None
    assert (g.pending.purpose, g.pending.kind) == ("multikicker", "number")  # the printed multikicker first
    assert g.answer(0) is None
    assert (g.pending.purpose, g.pending.kind) == ("kicker", "yes_no")  # then the granted sticker kicker
    assert g.answer(True) is None
    (spell,) = g.answer(False)  # no sticker
    assert g.cast_info(spell)["kicks"] == [0, 0] and g.cast_info(spell)["granted_kicks"] == 1
    assert g.kicked(spell)
    g.resolve_top()
    perm = g.battlefield()[-1]
    assert g.object(perm).counters == {}  # "for each time it was kicked" counts only its multikicker
    assert g.power_toughness(perm) == (1, 1)


def test_necravolver_with_only_sticker_kicker_gets_no_counters():  # CR 607, 702.33e
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Wicker Picker"] + ["Swamp"] * 4)
    (nec,) = add_hand(g, 0, ["Necravolver"])
    assert g.cost_of(nec, kick=[False, False, True]) == ("{3}{B}", True)
    spell = g.cast(nec, kick=[False, False, True], sticker=True)
    assert g.cast_info(spell)["kicks"] == [0, 0] and g.cast_info(spell)["granted_kicks"] == 1
    g.resolve_top()
    perm = g.battlefield()[-1]
    assert g.object(perm).counters == {} and g.stickers(perm) == ["sticker"]


# ----- built-in policies ---------------------------------------------------------------------------------------


def test_the_first_policy_kicks_whenever_it_can_pay():  # GUIDE §4
    g = with_libraries(new_game())
    g.set_policy(0, "first")
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    spell = g.cast(jo)
    assert g.kicked(spell)


def test_the_first_policy_multikicks_as_often_as_it_can_pay():  # GUIDE §4, CR 702.33c
    g = with_libraries(new_game())
    g.set_policy(0, "first")
    g.add_cards(0, "battlefield", ["Island"] * 7)
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
    spell = g.cast(chalice)
    assert g.cast_info(spell)["kicks"] == [3, 0]


def test_the_first_policy_does_not_kick_what_it_cannot_pay():  # GUIDE §4
    g = with_libraries(new_game())
    g.set_policy(0, "first")
    g.add_cards(0, "battlefield", ["Island", "Island"])
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    assert not g.kicked(g.cast(jo))


def test_scripted_kicker_answers():  # GUIDE §4 (scripts), CR 702.33b
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Swamp", "Swamp", "Swamp", "Forest", "Plains"])
    (nec,) = add_hand(g, 0, ["Necravolver"])
    g.script(0, [False, True])
    spell = g.cast(nec)
    assert g.cast_info(spell)["kicks"] == [0, 1] and g.script_len(0) == 0


# ----- Maddening Cacophony -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kick", "after"), [(False, [20, 3, 12, 0]), (True, [20, 5, 10, 1])])
def test_maddening_cacophony_mills_eight_or_half_rounded_up_when_kicked(kick, after):  # CR 702.33d, 701.17
    g = new_game(4)
    for p, n in enumerate([20, 11, 20, 3]):
        g.add_cards(p, "library", ["Island"] * n)
    g.add_cards(0, "battlefield", ["Island"] * 6)
    (mc,) = add_hand(g, 0, ["Maddening Cacophony"])
    g.cast(mc, kick=kick)
    g.resolve_top()
    assert [len(g.library(p)) for p in range(4)] == after
    assert [len(g.graveyard(p)) for p in range(4)] == [1] + [b - a for b, a in zip([11, 20, 3], after[1:])]


# ----- random policy ---------------------------------------------------------------------------------------------


def test_the_random_policy_kicks_only_as_often_as_it_can_pay():  # GUIDE §4, CR 702.33c, 601.2h
    seen = set()
    for seed in range(12):
        g = with_libraries(new_game(seed=seed))
        g.set_policy(0, "random")
        islands = g.add_cards(0, "battlefield", ["Island"] * 5)
        (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
        spell = g.cast(chalice)
        (n, b) = g.cast_info(spell)["kicks"]
        assert 0 <= n <= 2 and b == 0
        assert sum(g.object(i).tapped for i in islands) == 2 * n
        seen.add(n)
    assert len(seen) > 1  # it really chooses


# ----- the seed card ------------------------------------------------------------------------------------------------


def test_monstrous_war_leech_kicked_mills_four_as_it_enters_and_counts_the_graveyard():  # CR 702.33d, 614.1c, 604.3, 208.2a
    g = new_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "graveyard", ["Lórien Revealed"])  # mana value 5
    g.add_cards(0, "battlefield", ["Swamp"] * 4 + ["Island"])
    (leech,) = add_hand(g, 0, ["Monstrous War-Leech"])
    g.cast(leech, kick=True)
    g.resolve_top()
    assert len(g.library(0)) == 6  # milled four as it entered
    perm = g.battlefield()[-1]
    assert g.name(perm) == "Monstrous War-Leech"
    assert g.power_toughness(perm) == (5, 5)  # the highest mana value in the graveyard


def zap_game() -> tuple[mtgsim.Game, int]:
    """A card of the user's own whose target says ``"if_kicked": false``: chosen kicked or not."""
    db = mtgsim.CardDB()
    db.add({"name": "Zap", "mana_cost": "{R}", "type_line": "Instant",
            "rules": {"kicker": [{"cost": "{R}"}], "targets": [{"kind": "creature", "if_kicked": False}],
                      "spell": [{"damage": {"target": 0, "amount": 2}}]}})
    g = mtgsim.Game(2, seed=0, db=db)
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    (zap,) = g.add_cards(0, "hand", ["Zap"])
    return g, zap


def test_a_target_marked_if_kicked_false_is_required_unkicked_too():  # CR 601.2c, 702.33g
    g, zap = zap_game()
    assert {"action": "cast", "card": zap} not in g.priority_actions()  # no creature to target
    with pytest.raises(mtgsim.IllegalActionError):
        g.cast(zap, kick=False)
    (bear,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    assert {"action": "cast", "card": zap} in g.priority_actions()
    g.cast(zap, kick=False, targets=[[bear]])
    g.resolve_top()
    assert [g.name(c) for c in g.graveyard(1)] == ["Grizzly Bears"]  # 2 damage to a 2/2 (CR 704.5g)


def test_a_kicker_a_cost_reduction_would_pay_for_is_offered():  # CR 601.2f, 702.33a, 601.2b
    # Thrasios {G}{U} under a {1}-less reduction for blue spells, with Wicker Picker granting
    # sticker kicker {1}: the reduction can't lower {G}{U}, so it lowers the kicker, and the
    # total stays {G}{U}: two lands pay it, so the kicker must be offered.
    g = new_game()
    g.add_cards(0, "battlefield", ["The Water Crystal", "Wicker Picker", "Forest", "Island"])
    (thrasios,) = add_hand(g, 0, ["Thrasios, Triton Hero"])
    assert g.cost_of(thrasios, kick=True)[0] == "{G}{U}"
    g.cast(thrasios)
    d = g.pending
    assert d is not None and (d.kind, d.purpose) == ("yes_no", "kicker")
    g.answer(True)
    while g.pending is not None:  # the sticker: whether to put one (no)
        g.answer(False)
    (spell,) = g.stack()
    assert g.cast_info(spell)["granted_kicks"] == 1


def test_a_spree_modes_cost_is_reduced_with_the_rest_of_the_total():  # CR 601.2f, 702.172a
    db = mtgsim.CardDB()
    db.add({"name": "Test Green Reducer", "mana_cost": "{2}", "type_line": "Artifact",
            "rules": {"static": [{"cost_reduction": {"filter": "green", "amount": 1}}]}})
    g = mtgsim.Game(2, seed=1, db=db)
    for p in (0, 1):
        g.set_policy(p, "first")
    g.add_cards(0, "library", ["Island"] * 20)
    g.add_cards(0, "battlefield", ["Test Green Reducer", "Forest", "Forest"])
    (surprise,) = g.add_cards(0, "hand", ["Smuggler's Surprise"])
    g.cast(surprise, modes=[0])  # {G} + spree {2} - {1}: {1}{G}, two Forests
    assert len(g.stack()) == 1 and all(g.object(f).tapped for f in g.battlefield() if g.name(f) == "Forest")


@pytest.mark.parametrize(("kicks", "tickets"), [([True, True], 2), ([True, False], 1), ([False, False], 0)])
def test_each_sticker_kicker_paid_gives_its_own_ticket_and_sticker(kicks, tickets):  # CR 702.33h, 123.3
    """Two Wicker Pickers give a creature spell two sticker kicker abilities; each one paid
    imposes its own additional cost: a ticket counter and "you may put a sticker"."""
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Wicker Picker", "Wicker Picker"] + ["Forest"] * 4)
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    spell = g.cast(bears, kick=kicks, sticker=True if tickets else None)
    assert g.cast_info(spell)["granted_kicks"] == sum(kicks)
    assert g.player_counters(0).get("ticket", 0) == tickets
    assert len(g.stickers(spell)) == tickets


def kicker_x_game(policy: str = "manual") -> tuple[mtgsim.Game, int, list[int]]:
    """A Verdeloth-style "Kicker {X}" (the X is in the kicker cost alone), with four Mountains."""
    db = mtgsim.CardDB()
    db.add({"name": "Test Kicker X", "mana_cost": "{R}", "type_line": "Sorcery",
            "oracle_text": "Kicker {X}\nIf this spell was kicked, each opponent mills X cards.",
            "rules": {"spell": [{"if": {"cond": "kicked", "then": [{"mill": {"who": "each_opponent", "count": "x"}}]}}]}})
    g = mtgsim.Game(2, seed=0, db=db)
    for p in (0, 1):
        g.set_policy(p, policy)
    g.add_cards(1, "library", ["Island"] * 20)
    lands = g.add_cards(0, "battlefield", ["Mountain"] * 4)
    (card,) = g.add_cards(0, "hand", ["Test Kicker X"])
    return g, card, lands


def test_an_x_in_a_kicker_cost_is_announced_when_that_kicker_is_paid():  # CR 107.3, 601.2b, 601.2f
    g, card, lands = kicker_x_game()
    assert g.cost_of(card, kick=True, x=3) == ("{3}{R}", True)
    with untouched(g, mtgsim.InvalidArgumentError, match="kicker cost, which isn't paid"):
        g.cast(card, kick=False, x=3)
    with untouched(g, mtgsim.InvalidArgumentError, match="kicker cost, which isn't paid"):
        g.cost_of(card, x=3)
    spell = g.cast(card, kick=True, x=3)
    assert (g.cast_info(spell)["kicked"], g.cast_info(spell)["x"]) == (True, 3)
    assert sum(g.object(m).tapped for m in lands) == 4
    g.resolve_top()
    assert len(g.library(1)) == 17


def test_the_x_of_a_kicker_is_asked_only_if_it_is_kicked_and_up_to_what_can_be_paid():  # CR 601.2b
    g, card, lands = kicker_x_game()
    g.cast(card)
    assert (g.pending.kind, g.pending.purpose) == ("yes_no", "kicker")
    g.answer(True)
    d = g.pending
    assert (d.kind, d.purpose, d.min, d.max) == ("number", "x", 0, 3)  # {R} + X from four Mountains
    g.answer(2)
    g.resolve_top()
    assert len(g.library(1)) == 18 and sum(g.object(m).tapped for m in lands) == 3

    g, card, lands = kicker_x_game()
    g.cast(card)
    g.answer(False)  # not kicked: no X to announce, X is 0
    assert g.pending is None and sum(g.object(m).tapped for m in lands) == 1
    # An X given up front for a kicker then not paid is a mistake to report, not to drop.
    g, card, lands = kicker_x_game()
    g.cast(card, x=2)
    with pytest.raises(mtgsim.InvalidArgumentError, match="kicker cost, which isn't paid"):
        g.answer(False)
    assert card in g.hand(0) and g.stack() == [] and not any(g.object(m).tapped for m in lands)


def test_a_generic_reduction_left_over_reduces_a_two_hybrid_announced_as_generic():  # CR 601.2b, 118.7a, 107.4e
    db = mtgsim.CardDB()
    db.add([{"name": "Test Hybrid Kick", "mana_cost": "{B}", "type_line": "Sorcery",
             "oracle_text": "Kicker {2/W}\nIf this spell was kicked, each opponent mills two cards.",
             "rules": {"spell": [{"if": {"cond": "kicked", "then": [{"mill": {"who": "each_opponent", "count": 2}}]}}]}},
            {"name": "Test Reducer", "mana_cost": "{2}", "type_line": "Artifact",
             "rules": {"static": [{"cost_reduction": {"filter": "sorcery", "amount": 1}}]}}])
    g = mtgsim.Game(2, seed=0, db=db)
    for p in (0, 1):
        g.set_policy(p, "first")
    g.add_cards(1, "library", ["Island"] * 20)
    g.add_cards(0, "battlefield", ["Test Reducer", "Swamp", "Swamp"])
    (card,) = add_hand(g, 0, ["Test Hybrid Kick"])
    # {B} + {2/W} announced as {2}, minus {1}: {1}{B}, which two Swamps pay.
    assert g.cost_of(card, kick=True) == ("{1}{B}", True)
    g.cast(card, kick=True)
    g.resolve_top()
    assert len(g.library(1)) == 18


def test_multikicker_of_five_two_hybrid_symbols_is_counted_at_once_with_many_lands():  # CR 702.33c, 107.4e
    # Every split of the {2/C} symbols used to be listed: (kicks + 1)^5 of them; with 320
    # Islands reaching this decision took minutes, or aborted the process out of memory.
    db = mtgsim.CardDB()
    db.add({"name": "Test Prism Kicker", "mana_cost": "{1}", "type_line": "Sorcery", "oracle_text": "Multikicker {2/W}{2/U}{2/B}{2/R}{2/G}", "rules": {"spell": []}})
    g = mtgsim.Game(2, seed=1, db=db)
    g.add_cards(0, "battlefield", ["Island"] * 320)
    (card,) = g.add_cards(0, "hand", ["Test Prism Kicker"])
    g.set_policy(0, "manual")
    g.cast(card)
    # Each kick: {U} for {2/U} and eight generic for the rest, nine Islands; 319 after {1}.
    assert (g.pending.kind, g.pending.min, g.pending.max) == ("number", 0, 35)
