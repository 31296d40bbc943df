"""CR 613 continuous effects and layer 7 (power/toughness), CR 704 state-based actions, the
legend rule, summoning sickness and how the end of the game is reported:

* layer 7a characteristic-defining P/T (Monstrous War-Leech), 7c counters and modifying effects
  (Joraga Warcaller's "other Elf creatures you control get +1/+1 for each +1/+1 counter",
  Flamespeaker Adept's until-end-of-turn +2/+0, which ends in the cleanup step, CR 514.2);
* 704.5f toughness 0 or less, 704.5q +1/+1 and -1/-1 counter annihilation (Archfiend of Ifnir);
* 704.5j the legend rule: the controller chooses one to keep (a "legend_rule" decision);
* 302.6 summoning sickness for a creature's {T} ability (Fauna Shaman);
* 104 / 704.5a-c winners, losers and their reasons, and a drawn game (104.4a).

Every game is on the manual policy (conftest.new_game). Engine behaviour that contradicts the
rules is pinned with strict xfails and reproduced in /work/notes/findings_replacement.md."""

from __future__ import annotations

import pickle

import pytest

import mtgsim
from conftest import add_hand, kinds, names, new_game, redefine, untouched, with_libraries

# ======================================================================================================
# Layer 7c: Joraga Warcaller
# ======================================================================================================


def elves_game():
    """Player 0: Joraga Warcaller, two other Elves (Fauna Shaman 2/2, Nimrodel Watcher 2/1,
    Elf Wizard Thornscape Battlemage 2/2) and a non-Elf (Grizzly Bears); player 1: an Elf."""
    g = new_game(strict=True)
    (jw,) = g.add_cards(0, "battlefield", ["Joraga Warcaller"])
    shaman, watcher, mage, bears = g.add_cards(0, "battlefield", ["Fauna Shaman", "Nimrodel Watcher", "Thornscape Battlemage", "Grizzly Bears"])
    (theirs,) = g.add_cards(1, "battlefield", ["Fauna Shaman"])
    return g, jw, (shaman, watcher, mage), bears, theirs


@pytest.mark.parametrize("n", [0, 1, 3])
def test_joraga_pumps_only_the_other_elves_you_control_per_counter(n):  # CR 613.4c, 611.3a
    g, jw, (shaman, watcher, mage), bears, theirs = elves_game()
    if n:
        g.add_counters(jw, "+1/+1", n)
    assert g.power_toughness(jw) == (1 + n, 1 + n)  # only its own counters: "other" Elves
    assert g.power_toughness(shaman) == (2 + n, 2 + n)
    assert g.power_toughness(watcher) == (2 + n, 1 + n)
    assert g.power_toughness(mage) == (2 + n, 2 + n)
    assert g.power_toughness(bears) == (2, 2)  # not an Elf
    assert g.power_toughness(theirs) == (2, 2)  # not yours


def test_the_joraga_bonus_follows_its_counters_as_they_change():  # CR 613.4c, 611.3a, 704.5q
    g, jw, (shaman, *_), _, _ = elves_game()
    g.add_counters(jw, "+1/+1", 3)
    assert g.power_toughness(shaman) == (5, 5)
    g.remove_counters(jw, "+1/+1", 1)
    assert g.power_toughness(shaman) == (4, 4)
    g.add_counters(jw, "-1/-1", 1)  # annihilates one +1/+1 counter (704.5q)
    assert g.object(jw).counters == {"+1/+1": 1}
    assert g.power_toughness(shaman) == (3, 3) and g.power_toughness(jw) == (2, 2)
    g.add_counters(shaman, "+1/+1", 2)  # counters on the Elf itself don't feed the bonus
    assert g.power_toughness(shaman) == (5, 5) and g.power_toughness(jw) == (2, 2)


def test_the_joraga_bonus_ends_when_it_leaves_the_battlefield():  # CR 611.3b, 400.7
    g, jw, (shaman, watcher, _), _, _ = elves_game()
    g.add_counters(jw, "+1/+1", 2)
    assert g.power_toughness(watcher) == (4, 3)
    g.move(jw, "graveyard")
    assert g.power_toughness(shaman) == (2, 2) and g.power_toughness(watcher) == (2, 1)


@pytest.mark.parametrize("reloaded", [False, True])
def test_marked_damage_kills_once_the_joraga_bonus_shrinks(reloaded):  # CR 120.3e, 613.4c, 704.5g
    # No damage is dealt as the bonus shrinks: the check must still look at the damage marked
    # earlier this turn, in a game saved and loaded in between too.
    g, jw, (shaman, *_), _, _ = elves_game()
    g.add_counters(jw, "+1/+1", 2)  # Fauna Shaman 4/4
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[shaman])
    g.resolve_top()
    assert shaman in g.battlefield() and g.power_toughness(shaman) == (4, 4)  # 3 damage marked
    if reloaded:
        g = pickle.loads(pickle.dumps(g))
    g.remove_counters(jw, "+1/+1", 1)  # 3/3 with 3 damage
    assert shaman not in g.battlefield() and "Fauna Shaman" in names(g, g.graveyard(0))


def test_a_minus_counter_kills_a_creature_while_a_planeswalker_holds_loyalty():  # CR 704.5f, 122.1
    # Counters on a planeswalker don't let the check pass over creatures with counters of their own.
    g = new_game()
    (jace,) = g.add_cards(0, "battlefield", ["Jace, Wielder of Mysteries"])
    g.add_counters(jace, "loyalty", 3)
    (lions,) = g.add_cards(1, "battlefield", ["Savannah Lions"])  # 2/1
    g.add_counters(lions, "-1/-1", 1)
    assert lions not in g.battlefield() and names(g, g.graveyard(1)) == ["Savannah Lions"]
    assert jace in g.battlefield()


def test_two_warcallers_pump_each_other():  # CR 613.4c, 613.7 (both apply)
    g = new_game(strict=True)
    a, b = g.add_cards(0, "battlefield", ["Joraga Warcaller", "Joraga Warcaller"])
    (shaman,) = g.add_cards(0, "battlefield", ["Fauna Shaman"])
    g.add_counters(a, "+1/+1", 2)
    g.add_counters(b, "+1/+1", 1)
    assert g.power_toughness(a) == (1 + 2 + 1, 1 + 2 + 1)
    assert g.power_toughness(b) == (1 + 1 + 2, 1 + 1 + 2)
    assert g.power_toughness(shaman) == (2 + 3, 2 + 3)


def test_an_opponents_warcaller_pumps_only_its_controllers_elves():  # CR 613.4c ("you control")
    g, jw, (shaman, *_), _, theirs = elves_game()
    (their_jw,) = g.add_cards(1, "battlefield", ["Joraga Warcaller"])
    g.add_counters(their_jw, "+1/+1", 2)
    assert g.power_toughness(theirs) == (4, 4)
    assert g.power_toughness(shaman) == (2, 2)  # player 0's Joraga has no counters


# ======================================================================================================
# Layer 7a + 7c: Monstrous War-Leech's characteristic-defining P/T plus counters
# ======================================================================================================


def test_war_leech_cda_plus_counters_tracks_the_graveyard():  # CR 604.3, 613.4a, 613.4c, 704.5f
    g = new_game(strict=True)
    giant, bears = g.add_cards(0, "graveyard", ["Hill Giant", "Grizzly Bears"])  # mana values 4 and 2
    g.add_cards(1, "graveyard", ["Lórien Revealed"])  # 5, but not in its controller's graveyard
    (leech,) = g.add_cards(0, "battlefield", ["Monstrous War-Leech"])
    assert g.power_toughness(leech) == (4, 4)
    g.add_counters(leech, "+1/+1", 2)
    assert g.power_toughness(leech) == (6, 6)  # 7a sets 4/4, 7c adds +2/+2
    g.add_counters(leech, "-1/-1", 1)
    assert g.object(leech).counters == {"+1/+1": 1} and g.power_toughness(leech) == (5, 5)
    g.move(giant, "exile")
    assert g.power_toughness(leech) == (3, 3)  # now Grizzly Bears is the highest
    g.move(bears, "exile")
    assert g.power_toughness(leech) == (1, 1)  # 0/0 from the empty graveyard, +1/+1: alive
    g.clear_events()
    g.remove_counters(leech, "+1/+1", 1)
    assert g.battlefield() == [] and names(g, g.graveyard(0)) == ["Monstrous War-Leech"]  # 0/0 (704.5f)
    assert kinds(g.events) == ["object_counters_changed", "died"]


def test_war_leech_with_only_lands_in_the_graveyard_is_0_0():  # CR 208.2, 604.3, 704.5f
    # No damage, no counters: whether it lives turns on its own graveyard alone, where lands
    # count 0 (CR 202.3).
    g = new_game(strict=True)
    _, spell = g.add_cards(0, "graveyard", ["Island", "Lórien Revealed"])
    (leech,) = g.add_cards(0, "battlefield", ["Monstrous War-Leech"])
    assert g.power_toughness(leech) == (5, 5)
    g.move(spell, "exile")
    assert g.battlefield() == [] and names(g, g.graveyard(0)) == ["Monstrous War-Leech", "Island"]  # top first


def test_war_leech_cda_works_in_every_zone():  # CR 604.3 ("in all zones")
    g = new_game(strict=True)
    g.add_cards(0, "graveyard", ["Hill Giant"])
    (in_hand,) = add_hand(g, 0, ["Monstrous War-Leech"])
    assert g.power_toughness(in_hand) == (4, 4)
    (in_gy,) = g.add_cards(0, "graveyard", ["Monstrous War-Leech"])
    assert g.power_toughness(in_gy) == (4, 4)


# ======================================================================================================
# Until end of turn: Flamespeaker Adept (CR 611.2a, 613.4c, 514.2)
# ======================================================================================================


def scry_top(g, player=0):
    g.scry(player, 1)
    g.answer(([g.library(player)[0]], []))


def test_flamespeaker_adept_gets_plus_2_plus_0_per_scry_until_cleanup():  # CR 611.2a, 613.4c, 514.2
    g = with_libraries(new_game(), 10)
    (fa,) = g.add_cards(0, "battlefield", ["Flamespeaker Adept"])
    g.add_counters(fa, "+1/+1", 1)
    assert g.power_toughness(fa) == (3, 4)
    g.clear_events()
    scry_top(g)
    (trig,) = [e for e in g.events if e["kind"] == "ability_triggered"]
    assert trig["source"] == fa and g.stack() == [trig["ability"]]
    assert g.power_toughness(fa) == (3, 4)  # nothing until it resolves
    g.resolve_top()
    assert g.power_toughness(fa) == (5, 4)
    scry_top(g)
    g.resolve_top()
    assert g.power_toughness(fa) == (7, 4)
    g.advance_to("end")
    assert g.power_toughness(fa) == (7, 4)  # still this turn
    g.next_turn()  # the cleanup step ends "until end of turn" effects (514.2)
    assert (g.turn, g.step) == (2, "upkeep")
    assert g.power_toughness(fa) == (3, 4)  # the counter stays
    assert g.object(fa).counters == {"+1/+1": 1}


def test_nimrodel_watcher_triggers_only_once_each_turn():  # Oracle "This ability triggers only once each turn" (cf. CR 603.2h), 514.2
    g = with_libraries(new_game(), 10)
    (nw,) = g.add_cards(0, "battlefield", ["Nimrodel Watcher"])
    scry_top(g)
    g.resolve_top()
    scry_top(g)
    assert g.stack() == []  # no second trigger this turn
    assert g.power_toughness(nw) == (3, 1)
    g.next_turn()
    assert g.power_toughness(nw) == (2, 1)
    scry_top(g)  # a new turn: it triggers again
    assert len(g.stack()) == 1


# ======================================================================================================
# 704.5f and 704.5q: -1/-1 counters from Archfiend of Ifnir
# ======================================================================================================


def archfiend_game():
    g = with_libraries(new_game(), 10)
    (fiend,) = g.add_cards(0, "battlefield", ["Archfiend of Ifnir"])
    lions, bears, thopter = g.add_cards(1, "battlefield", ["Savannah Lions", "Grizzly Bears", "Ornithopter"])
    (mine,) = g.add_cards(0, "battlefield", ["Savannah Lions"])
    g.add_counters(bears, "+1/+1", 2)
    (wraith,) = add_hand(g, 0, ["Street Wraith"])
    return g, wraith, lions, bears, thopter, mine


def test_archfiend_counters_kill_a_1_toughness_creature_and_annihilate_with_plus_counters():  # CR 704.5f, 704.5q, 122.3
    g, wraith, lions, bears, thopter, mine = archfiend_game()
    g.strict = True
    g.cycle(wraith)  # "whenever you cycle or discard another card": its trigger goes above the draw
    assert len(g.stack()) == 2
    g.clear_events()
    g.resolve_top()
    (dead,) = g.graveyard(1)
    assert g.name(dead) == "Savannah Lions" and lions not in g.battlefield()
    # One -1/-1 counter on each creature the opponent controls, then state-based actions: the
    # counters annihilate and the 1-toughness Lions dies, all at once (704.3).
    assert g.events[2:] == [
        {"kind": "object_counters_changed", "card": lions, "counter": "-1/-1", "delta": 1},
        {"kind": "object_counters_changed", "card": bears, "counter": "-1/-1", "delta": 1},
        {"kind": "object_counters_changed", "card": thopter, "counter": "-1/-1", "delta": 1},
        {"kind": "resolved", "spell": g.events[-4]["spell"], "card": None},
        {"kind": "object_counters_changed", "card": bears, "counter": "+1/+1", "delta": -1},
        {"kind": "object_counters_changed", "card": bears, "counter": "-1/-1", "delta": -1},
        {"kind": "died", "card": dead, "from_id": lions},
    ]
    assert g.object(bears).counters == {"+1/+1": 1} and g.power_toughness(bears) == (3, 3)
    assert g.object(thopter).counters == {"-1/-1": 1} and g.power_toughness(thopter) == (-1, 1)  # negative power is fine
    assert g.object(mine).counters == {} and g.power_toughness(mine) == (2, 1)  # its controller's creature


def test_a_creature_killed_by_archfiend_counters_triggers_its_dies_ability():  # CR 704.5f, 700.4, 603.10a
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Archfiend of Ifnir"])
    (explorer,) = g.add_cards(1, "battlefield", ["Veteran Explorer"])  # 1/1: "When this creature dies, ..."
    (wraith,) = add_hand(g, 0, ["Street Wraith"])
    g.cycle(wraith)
    g.resolve_top()
    assert names(g, g.graveyard(1)) == ["Veteran Explorer"]
    triggered = [e for e in g.events if e["kind"] == "ability_triggered"]
    assert len(triggered) == 2 and triggered[-1]["player"] == 1  # the dies trigger of player 1's Explorer
    assert len(g.stack()) == 2


def test_annihilation_applies_to_any_permanent_not_only_creatures():  # CR 704.5q ("a permanent")
    g = new_game(strict=True)
    (chalice,) = g.add_cards(0, "battlefield", ["Everflowing Chalice"])
    g.add_counters(chalice, "+1/+1", 3)
    g.add_counters(chalice, "-1/-1", 2)
    assert g.object(chalice).counters == {"+1/+1": 1}


def test_a_creature_with_both_counters_and_toughness_0_dies():  # CR 704.3, 704.5f, 704.5q
    g = new_game(strict=True)
    (lions,) = g.add_cards(0, "battlefield", ["Savannah Lions"])  # 2/1
    g.add_counters(lions, "+1/+1", 1)
    g.clear_events()
    g.add_counters(lions, "-1/-1", 3)  # 0/-1: dies, whatever annihilation would do
    assert g.battlefield() == [] and names(g, g.graveyard(0)) == ["Savannah Lions"]
    assert kinds(g.events)[-1] == "died"


# ======================================================================================================
# 704.5j: the legend rule
# ======================================================================================================


def legend_game():
    g = with_libraries(new_game(), 5)
    (old,) = g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent"])
    g.add_cards(0, "battlefield", ["Island"] * 3)
    (new_card,) = add_hand(g, 0, ["Bruvac the Grandiloquent"])
    return g, old, new_card


@pytest.mark.parametrize("keep_new", [False, True])
def test_the_legend_rule_asks_which_to_keep_and_the_other_dies(keep_new):  # CR 704.5j, 700.4
    g, old, card = legend_game()
    g.cast(card)
    g.clear_events()
    assert g.resolve_top() is None
    new = g.battlefield()[-1]
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "choose_cards", "legend_rule", 1, 1)
    assert sorted(d.options) == sorted([old, new])
    assert g.name(new) == "Bruvac the Grandiloquent"
    keep, other = (new, old) if keep_new else (old, new)
    g.clear_events()
    g.answer([keep])
    assert g.pending is None and keep in g.battlefield() and other not in g.battlefield()
    (gy,) = g.graveyard(0)
    assert g.name(gy) == "Bruvac the Grandiloquent"
    assert g.events == [{"kind": "died", "card": gy, "from_id": other}]
    assert g.priority_player == 0 and g.stack() == []


def test_a_wrong_legend_rule_answer_changes_nothing():  # CR 704.5j, 733
    g, old, card = legend_game()
    g.cast(card)
    g.resolve_top()
    new = g.battlefield()[-1]
    island = g.battlefield()[1]
    for wrong in ([old, new], [], [island]):
        with untouched(g, mtgsim.InvalidAnswerError):
            g.answer(wrong)
    g.answer([old])
    assert [g.name(p) for p in g.battlefield()].count("Bruvac the Grandiloquent") == 1


def test_the_legend_rule_under_rest_in_peace_exiles_the_other_and_it_does_not_die():  # CR 704.5j, 614.1a, 700.4
    g, old, card = legend_game()
    g.add_cards(1, "battlefield", ["Rest in Peace"])
    g.cast(card)
    g.resolve_top()
    g.clear_events()
    g.answer([g.battlefield()[-1]])
    (ex,) = g.exile()
    assert g.graveyard(0) == [] and g.name(ex) == "Bruvac the Grandiloquent"
    assert g.events == [{"kind": "moved", "card": ex, "from_id": old, "from": {"kind": "battlefield", "player": 0}, "to": {"kind": "exile", "player": 0}}]


def test_the_same_legend_under_different_controllers_is_fine():  # CR 704.5j ("controlled by the same player")
    g = with_libraries(new_game(strict=True), 5)
    g.add_cards(1, "battlefield", ["Bruvac the Grandiloquent"])
    g.add_cards(0, "battlefield", ["Island"] * 3)
    (card,) = add_hand(g, 0, ["Bruvac the Grandiloquent"])
    g.cast(card)
    g.resolve_top()
    assert [g.name(p) for p in g.battlefield()].count("Bruvac the Grandiloquent") == 2
    assert g.pending is None and g.graveyard(0) == [] and g.graveyard(1) == []


def test_different_legendary_names_and_nonlegendary_duplicates_are_fine():  # CR 704.5j
    g = with_libraries(new_game(strict=True), 5)
    g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent", "Thrasios, Triton Hero", "Grizzly Bears", "Grizzly Bears"])
    g.add_cards(0, "battlefield", ["Island"] * 4)
    (crystal,) = add_hand(g, 0, ["The Water Crystal"])  # a legendary artifact
    g.cast(crystal)
    g.resolve_top()
    assert g.pending is None and len(g.battlefield()) == 9 and g.graveyard(0) == []


def test_two_legend_groups_at_once_are_asked_one_after_the_other_in_battlefield_order():  # CR 704.5j, 704.3
    # A legendary permanent without a twin comes first; then two groups, each asked in turn
    # (the first in battlefield order first), each answer applied before the next question.
    g = with_libraries(new_game(), 5)
    _, bruvac = g.add_cards(0, "battlefield", ["Thrasios, Triton Hero", "Bruvac the Grandiloquent"])
    (jace,) = g.add_cards(0, "battlefield", ["Jace, Wielder of Mysteries"])
    g.add_counters(jace, "loyalty", 3)
    g.add_cards(0, "battlefield", ["Island"] * 4)
    jace2, bruvac2 = g.add_cards(0, "battlefield", ["Jace, Wielder of Mysteries", "Bruvac the Grandiloquent"])
    g.add_counters(jace2, "loyalty", 3)
    (crab,) = add_hand(g, 0, ["Ruin Crab"])
    g.cast(crab)  # the state-based check before the cast's priority applies the rule
    assert (g.pending.purpose, sorted(g.pending.options)) == ("legend_rule", sorted([bruvac, bruvac2]))
    g.answer([bruvac2])
    assert (g.pending.purpose, sorted(g.pending.options)) == ("legend_rule", sorted([jace, jace2]))
    g.answer([jace])
    assert g.pending is None
    assert {bruvac2, jace} <= set(g.battlefield()) and not {bruvac, jace2} & set(g.battlefield())
    assert sorted(g.name(c) for c in g.graveyard(0)) == ["Bruvac the Grandiloquent", "Jace, Wielder of Mysteries"]


def test_the_legend_rule_for_a_legendary_planeswalker():  # CR 704.5j, 306.5b
    g = with_libraries(new_game(), 5)
    (old,) = g.add_cards(0, "battlefield", ["Jace, Wielder of Mysteries"])
    g.add_counters(old, "loyalty", 2)
    g.add_cards(0, "battlefield", ["Island"] * 4)
    (card,) = add_hand(g, 0, ["Jace, Wielder of Mysteries"])
    g.cast(card)
    g.resolve_top()
    new = g.battlefield()[-1]
    assert g.object(new).counters == {"loyalty": 4}  # enters with its printed loyalty
    assert g.pending.purpose == "legend_rule"
    g.answer([new])
    assert new in g.battlefield() and old not in g.battlefield()
    assert names(g, g.graveyard(0)) == ["Jace, Wielder of Mysteries"]


# ======================================================================================================
# 302.6: summoning sickness
# ======================================================================================================


def shaman_game():
    g = with_libraries(new_game(), 10, "Forest")
    g.add_cards(0, "library", ["Hill Giant"])
    g.add_cards(0, "battlefield", ["Forest"] * 4)
    bears, corpse = add_hand(g, 0, ["Grizzly Bears", "Walking Corpse"])
    return g, bears


def test_a_creatures_tap_ability_cannot_be_activated_the_turn_it_arrives():  # CR 302.6, 602.5a, 733
    g, bears = shaman_game()
    (card,) = add_hand(g, 0, ["Fauna Shaman"])
    g.cast(card)
    g.resolve_top()
    shaman = g.battlefield()[-1]
    assert g.name(shaman) == "Fauna Shaman"
    with untouched(g, mtgsim.CannotPayError, match="302.6"):
        g.activate(shaman, 0, discard=bears)
    assert not any(a.get("source") == shaman for a in g.priority_actions())
    # Still not during the opponent's turn: it hasn't been controlled since *your* turn began.
    g.next_turn()
    g.pass_priority()  # player 1 passes in their upkeep: player 0 has priority
    assert (g.active_player, g.priority_player) == (1, 0)
    with untouched(g, mtgsim.CannotPayError, match="302.6"):
        g.activate(shaman, 0, discard=bears)
    # From its controller's next turn on it can.
    g.next_turn()
    assert (g.turn, g.active_player, g.priority_player) == (3, 0, 0)
    ab = g.activate(shaman, 0, discard=bears)
    assert g.stack() == [ab] and g.object(shaman).tapped
    assert names(g, g.graveyard(0)) == ["Grizzly Bears"]


def test_a_creature_added_with_add_cards_counts_as_there_from_the_start():  # CR 302.6; Game.add_cards (positions)
    g, bears = shaman_game()
    (shaman,) = g.add_cards(0, "battlefield", ["Fauna Shaman"])
    g.strict = True
    ab = g.activate(shaman, 0, discard=bears)
    assert g.stack() == [ab]
    assert {"action": "activate", "source": shaman, "index": 0} not in g.priority_actions()  # tapped now


def test_a_noncreature_artifacts_tap_ability_works_the_turn_it_arrives():  # CR 302.6 (creatures only), 107.5
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 20)
    g.add_cards(0, "battlefield", ["Island"] * 10)  # {2}{U}{U}, then {4}{U}{U}
    (crystal,) = add_hand(g, 0, ["The Water Crystal"])
    add_hand(g, 0, ["Swamp", "Swamp"])
    g.strict = True
    assert g.cost_of(crystal) == ("{2}{U}{U}", True)  # its own cost reduction works only on the battlefield
    g.cast(crystal)
    g.resolve_top()
    perm = g.battlefield()[-1]
    ab = g.activate(perm, 0)  # {4}{U}{U}, {T}: each opponent mills cards equal to your hand size
    assert g.object(perm).tapped and g.stack() == [ab]
    g.resolve_top()
    assert len(g.library(1)) == 20 - (2 + 4)  # and its own +4 replacement applies


# ======================================================================================================
# 104 / 704.5a-c: how the end of the game is reported
# ======================================================================================================


def test_lightning_bolt_to_zero_life_ends_the_game():  # CR 704.5a, 104.3b, 104.2a
    g = with_libraries(new_game(), 5)
    g.set_life(1, 3)
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[{"player": 1}])
    g.clear_events()
    g.resolve_top()
    assert g.life(1) == 0 and g.is_over
    assert kinds(g.events)[-3:] == ["resolved", "player_lost", "game_over"]
    assert g.events[-2:] == [{"kind": "player_lost", "player": 1, "reason": "life"}, {"kind": "game_over", "winners": [0]}]
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "life"}]}


def test_the_draw_step_from_an_empty_library_loses_the_game():  # CR 504.1, 121.4, 704.5b
    g = new_game()
    g.add_cards(0, "library", ["Island"] * 3)  # player 1 has nothing to draw
    g.next_turn()  # player 1's upkeep
    g.advance_to("precombat_main")  # stops at the end of the game
    assert (g.turn, g.active_player) == (2, 1) and g.is_over
    assert g.events[-3:] == [
        {"kind": "drew_from_empty_library", "player": 1},
        {"kind": "player_lost", "player": 1, "reason": "empty_library"},
        {"kind": "game_over", "winners": [0]},
    ]
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "empty_library"}]}


def test_poison_in_a_three_player_game_reports_each_loss():  # CR 704.5c, 800.4, 104.2a
    g = new_game(3, strict=True)
    g.add_player_counters(1, "poison", 10)
    assert not g.is_over and g.outcome is None
    assert g.to_dict()["players"][1]["lost"] == "poison"
    g.add_player_counters(2, "poison", 12)
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "poison"}, {"player": 2, "reason": "poison"}]}
    assert g.events[-2:] == [{"kind": "player_lost", "player": 2, "reason": "poison"}, {"kind": "game_over", "winners": [0]}]


#: Test spells written out through conftest.redefine (placeholder: Lightning Bolt).
EACH_PLAYER_LOSES_20 = {
    "name": "Test Apocalypse",
    "mana_cost": "{0}",
    "type_line": "Sorcery",
    "oracle_text": "Each player loses 20 life.",
    "rules": {"spell": [{"lose_life": {"who": "each_player", "amount": 20}}]},
}
DRAIN_THEN_DRAW = {
    "name": "Test Drain",
    "mana_cost": "{0}",
    "type_line": "Sorcery",
    "oracle_text": "Each opponent loses 5 life. Draw a card.",
    "rules": {"spell": [{"lose_life": {"who": "each_opponent", "amount": 5}}, {"draw": {"count": 1}}]},
}


def cast_test_spell(definition, *, life1=20):
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    g.set_life(1, life1)
    (spell,) = add_hand(g, 0, ["Lightning Bolt"])
    g = redefine(g, "Lightning Bolt", definition)
    g.cast(spell)
    g.clear_events()
    g.resolve_top()
    return g


def test_both_players_at_zero_life_at_once_is_a_draw():  # CR 104.4a, 704.3, 704.5a
    g = cast_test_spell(EACH_PLAYER_LOSES_20)
    assert (g.life(0), g.life(1)) == (0, 0) and g.is_over
    assert g.outcome == {"winners": [], "losers": [{"player": 0, "reason": "life"}, {"player": 1, "reason": "life"}]}
    assert g.events[-3:] == [
        {"kind": "player_lost", "player": 0, "reason": "life"},
        {"kind": "player_lost", "player": 1, "reason": "life"},
        {"kind": "game_over", "winners": []},
    ]


def test_different_losses_in_the_same_state_based_action_check_are_a_draw():  # CR 104.4a, 704.3, 704.5a, 704.5b
    g = cast_test_spell(DRAIN_THEN_DRAW, life1=5)  # player 0's library is empty
    assert g.outcome == {"winners": [], "losers": [{"player": 0, "reason": "empty_library"}, {"player": 1, "reason": "life"}]}
    assert {"kind": "drew_from_empty_library", "player": 0} in g.events
    assert [e for e in g.events if e["kind"] in ("player_lost", "game_over")] == [
        {"kind": "player_lost", "player": 0, "reason": "empty_library"},
        {"kind": "player_lost", "player": 1, "reason": "life"},
        {"kind": "game_over", "winners": []},
    ]


def test_a_loss_that_is_not_simultaneous_is_no_draw():  # CR 704.3 (checked after the spell), 104.2a
    g = cast_test_spell(DRAIN_THEN_DRAW, life1=6)  # player 1 survives at 1; player 0 drew from empty
    assert g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "empty_library"}]}
    assert g.life(1) == 1
