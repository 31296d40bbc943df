"""Typecycling (CR 702.29e-f) beyond tests/test_cr702_29_cycling.py — as priority actions, by the
non-active player, searching at resolution, and as cycling for every "cycle" and "discard"
ability of the card pool (Astral Slide, Faith of the Devoted, Archfiend of Ifnir, Waste Not,
Stabilizer, Fluctuator, Abandoned Sarcophagus) — and the turn structure (CR 500-514): each step
that gives priority, the beginning phase (502-504, 103.8a), combat steps without attackers
(506-511), the cleanup step (514), mana emptying (500.5, 106.4), ``next_turn`` and
``play(until=...)`` with policies.

Every game is on the manual policy (conftest.new_game), so any unplanned decision shows up as
``pending``; games that should ask nothing are strict."""

from __future__ import annotations

from collections import Counter

import pytest

import mtgsim
from conftest import add_hand, kinds, names, new_game, untouched, with_libraries

EMPTY_POOL = {"W": 0, "U": 0, "B": 0, "R": 0, "G": 0, "C": 0}
P0, P1 = {"player": 0}, {"player": 1}

#: Each typecycler, its cycling cost's generic mana and what it finds.
TYPECYCLERS = {
    "Lórien Revealed": (1, "Island"),  # Islandcycling {1}
    "Troll of Khazad-dûm": (1, "Swamp"),  # Swampcycling {1}
    "Ash Barrens": (1, "basic land"),  # Basic landcycling {1}
    "Ancient Excavation": (2, "basic land"),  # Basic landcycling {2}
    "Vedalken AEthermage": (3, "Wizard"),  # Wizardcycling {3}
}
LIBRARY = ["Plains", "Island", "Swamp", "Thrasios, Triton Hero", "Grizzly Bears"]
FINDS = {"Island": ["Island"], "Swamp": ["Swamp"], "basic land": ["Plains", "Island", "Swamp"], "Wizard": ["Thrasios, Triton Hero"]}


def activate_action(source: int, index: int = 0) -> dict:
    return {"action": "activate", "source": source, "index": index}


def typecycling_game(card: str, lands: int | None = None, player: int = 0):
    """``player`` has ``card`` in hand, ``lands`` Forests (default: exactly the cost) and LIBRARY;
    the other player has ten Islands. Player 0 is active, in the first main phase, with priority."""
    g = new_game()
    lib = g.add_cards(player, "library", LIBRARY)
    g.add_cards(1 - player, "library", ["Island"] * 10)
    n = TYPECYCLERS[card][0] if lands is None else lands
    forests = g.add_cards(player, "battlefield", ["Forest"] * n)
    (c,) = add_hand(g, player, [card])
    return g, c, forests, lib


# ----- 702.29e: typecycling as a priority action; searching on resolution -----------------------------------


@pytest.mark.parametrize("card", list(TYPECYCLERS))
def test_a_typecycler_is_offered_only_when_its_cycling_cost_can_be_paid(card):  # CR 117.1b, 702.29a, 702.29e
    g, c, _, _ = typecycling_game(card, lands=TYPECYCLERS[card][0] - 1)
    assert activate_action(c) not in g.priority_actions()
    g.add_cards(0, "battlefield", ["Forest"])
    actions = g.priority_actions()
    assert activate_action(c) in actions
    # A land with basic landcycling may be played or cycled; the others can't be cast for {1}.
    assert ({"action": "play_land", "card": c} in actions) == (card == "Ash Barrens")
    assert {"action": "cast", "card": c} not in actions


@pytest.mark.parametrize("card", list(TYPECYCLERS))
def test_typecycling_reveals_the_cycled_card_then_finds_only_its_type(card):  # CR 602.2a, 702.29e, 701.23, 701.20
    g, c, forests, lib = typecycling_game(card)
    g.clear_events()
    ab = g.cycle(c)
    assert g.events[0] == {"kind": "revealed", "player": 0, "cards": [c]}  # activated from a hidden zone
    assert all(g.object(f).tapped for f in forests) and g.stack() == [ab]
    g.resolve_top()
    d = g.pending
    wanted = FINDS[TYPECYCLERS[card][1]]
    assert (d.player, d.purpose, d.min, d.max) == (0, "search", 0, 1)
    assert sorted(names(g, d.options)) == sorted(wanted)
    pick = d.options[-1]
    g.clear_events()
    g.answer([pick])
    assert kinds(g.events) == ["searched", "revealed", "moved", "shuffled", "resolved"]
    assert g.events[1] == {"kind": "revealed", "player": 0, "cards": [pick]}
    assert names(g, g.hand(0)) == [g.card_name(pick)] and len(g.library(0)) == 4
    assert names(g, g.graveyard(0)) == [card]


def test_the_non_active_player_typecycles_at_instant_speed_searching_only_their_library():  # CR 702.29a, 117.1b, 701.23a
    g, c, forests, lib = typecycling_game("Troll of Khazad-dûm", player=1)
    mine = g.library(0)
    g.pass_priority()
    assert (g.active_player, g.priority_player) == (0, 1)
    ab = g.cycle(c)
    assert g.object(ab).controller == 1 and g.priority_player == 1
    g.resolve_top()
    d = g.pending
    assert d.player == 1 and names(g, d.options) == ["Swamp"]
    g.clear_events()
    g.answer(d.options)
    assert names(g, g.hand(1)) == ["Swamp"] and g.hand(0) == []
    assert [e for e in g.events if e["kind"] == "shuffled"] == [{"kind": "shuffled", "player": 1}]
    assert g.library(0) == mine  # player 0's library is neither searched nor shuffled
    assert g.priority_player == 0  # after resolving, the active player gets priority (CR 117.3b)


def test_typecycling_searches_the_library_as_it_is_on_resolution():  # CR 608.2, 702.29e, 701.23b
    # Player 0 Islandcycles; player 1 responds with Altar of Dementia, milling the only Island.
    g = new_game()
    g.add_cards(0, "library", ["Island", "Grizzly Bears", "Forest"])
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Forest"])
    (lr,) = add_hand(g, 0, ["Lórien Revealed"])
    altar, giant = g.add_cards(1, "battlefield", ["Altar of Dementia", "Hill Giant"])
    cycling = g.cycle(lr)
    g.pass_priority()
    mill = g.activate(altar, targets=[[P0]], sacrifice=giant)  # Hill Giant: power 3
    assert g.stack() == [mill, cycling]
    g.resolve_top()
    assert g.library(0) == [] and names(g, g.graveyard(0)) == ["Forest", "Grizzly Bears", "Island", "Lórien Revealed"]
    g.strict = True
    g.clear_events()
    g.resolve_top()  # nothing to find: no decision, still a shuffle of the (empty) library
    assert kinds(g.events) == ["passed_priority", "passed_priority", "searched", "shuffled", "resolved"]
    assert g.hand(0) == [] and g.stack() == []


# ----- 702.29f: typecycling is cycling for everything that looks at cycling ---------------------------------------


def test_astral_slide_triggers_on_typecycling_and_the_exiled_creature_returns_at_the_next_end_step():  # CR 702.29f, 603.2, 603.7, 610.3
    g, c, _, lib = typecycling_game("Troll of Khazad-dûm")
    (slide,) = g.add_cards(0, "battlefield", ["Astral Slide"])
    (giant,) = g.add_cards(1, "battlefield", ["Hill Giant"])
    g.clear_events()
    ab = g.cycle(c)  # the only creature is the one target: not asked
    (trigger, _) = g.stack()
    assert g.stack() == [trigger, ab] and g.name(trigger) == "Astral Slide"
    assert g.events[-1] == {"kind": "ability_triggered", "player": 0, "source": slide, "ability": trigger}
    g.resolve_top()
    assert (g.pending.player, g.pending.purpose, g.pending.kind) == (0, "may", "yes_no")
    g.answer(True)
    (exiled,) = g.exile()
    assert g.name(exiled) == "Hill Giant" and giant not in g.battlefield() and g.stack() == [ab]
    g.resolve_top()
    g.answer([lib[2]])
    assert names(g, g.hand(0)) == ["Swamp"]
    g.advance_to("postcombat_main")
    assert g.exile() == [exiled]  # not before the end step
    g.advance_to("end")
    (returning,) = g.stack()
    assert g.name(returning) == "Astral Slide" and g.object(returning).controller == 0
    g.resolve_top()
    back = g.battlefield()[-1]
    assert g.name(back) == "Hill Giant" and back not in (giant, exiled) and g.object(back).controller == 1
    assert g.exile() == []


def test_the_delayed_return_is_an_ability_of_astral_slide():  # CR 603.7e (source of a delayed trigger)
    g, c, _, lib = typecycling_game("Troll of Khazad-dûm")
    (slide,) = g.add_cards(0, "battlefield", ["Astral Slide"])
    g.add_cards(1, "battlefield", ["Hill Giant"])
    g.cycle(c)
    g.resolve_top()
    g.answer(True)
    g.resolve_top()
    g.answer([])
    g.clear_events()
    g.advance_to("end")
    (returning,) = g.stack()
    assert g.events[-1] == {"kind": "ability_triggered", "player": 0, "source": slide, "ability": returning}


def test_cycle_or_discard_abilities_trigger_once_for_a_typecycled_card():  # CR 702.29d, 702.29f, 603.3b
    g, c, forests, lib = typecycling_game("Ash Barrens")
    faith, archfiend, spare = g.add_cards(0, "battlefield", ["Faith of the Devoted", "Archfiend of Ifnir", "Forest"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    g.clear_events()
    assert g.cycle(c) is None  # two triggers of one player at once: they order them (CR 603.3b)
    d = g.pending
    assert (d.purpose, d.kind, sorted(names(g, d.options))) == ("order_triggers", "order", ["Archfiend of Ifnir", "Faith of the Devoted"])
    faith_trigger = next(o for o in d.options if g.name(o) == "Faith of the Devoted")
    arch_trigger = next(o for o in d.options if o != faith_trigger)
    (ab,) = g.answer([faith_trigger, arch_trigger])  # Archfiend's on top
    assert g.stack() == [arch_trigger, faith_trigger, ab]
    triggered = [e for e in g.events if e["kind"] == "ability_triggered"]
    assert sorted((e["source"], e["ability"]) for e in triggered) == sorted([(faith, faith_trigger), (archfiend, arch_trigger)])
    assert kinds(g.events).count("discarded") == 1
    g.resolve_top()
    assert g.object(bears).counters == {"-1/-1": 1} and g.power_toughness(bears) == (1, 1)
    g.resolve_top()
    assert g.pending.purpose == "may"
    g.answer(True)  # pay {1} with the spare Forest
    assert (g.life(0), g.life(1)) == (22, 18) and g.object(spare).tapped
    g.resolve_top()
    g.answer([lib[0]])
    assert names(g, g.hand(0)) == ["Plains"] and g.stack() == []
    assert (g.life(0), g.life(1), g.object(bears).counters) == (22, 18, {"-1/-1": 1})  # nothing triggered twice


def test_typecycling_a_creature_card_is_discarding_it_for_waste_not():  # CR 702.29e ("Discard this card"), 701.9
    g, c, _, _ = typecycling_game("Troll of Khazad-dûm", player=1)
    (waste_not,) = g.add_cards(0, "battlefield", ["Waste Not"])
    g.pass_priority()
    g.clear_events()
    ab = g.cycle(c)
    (trigger, _) = g.stack()
    assert g.stack() == [trigger, ab] and g.object(trigger).controller == 0 and g.name(trigger) == "Waste Not"
    assert g.events[-1] == {"kind": "ability_triggered", "player": 0, "source": waste_not, "ability": trigger}
    g.resolve_top()
    (zombie,) = [x for x in g.battlefield() if g.name(x) == "Zombie"]
    assert g.object(zombie).controller == 0 and g.power_toughness(zombie) == (2, 2)


def test_stabilizer_takes_typecycling_out_of_the_priority_actions():  # CR 602.5, 702.29f, 117.1b
    g = new_game()
    g.add_cards(0, "library", LIBRARY)
    g.add_cards(0, "battlefield", ["Forest"] * 3)
    cards = add_hand(g, 0, list(TYPECYCLERS))
    offered = {a["source"] for a in g.priority_actions() if a["action"] == "activate"}
    assert offered == set(cards)
    (stab,) = g.add_cards(1, "battlefield", ["Stabilizer"])
    assert [a for a in g.priority_actions() if a["action"] == "activate"] == []
    ash = cards[2]
    assert {"action": "play_land", "card": ash} in g.priority_actions()  # playing Ash Barrens isn't cycling
    with untouched(g, mtgsim.IllegalActionError, match="602.5"):
        g.cycle(ash)
    g.move(stab, "graveyard")
    assert {a["source"] for a in g.priority_actions() if a["action"] == "activate"} == set(cards)


@pytest.mark.parametrize("card", list(TYPECYCLERS))
def test_fluctuator_reduces_typecycling_costs_by_up_to_two(card):  # CR 702.29f, 601.2f, 118.7a
    generic = TYPECYCLERS[card][0]
    g, c, forests, _ = typecycling_game(card, lands=max(0, generic - 2))
    g.add_cards(0, "battlefield", ["Fluctuator"])
    g.strict = True
    g.clear_events()
    ab = g.cycle(c)  # Islandcycling {1} costs 0; Wizardcycling {3} costs {1}
    assert g.stack() == [ab] and all(g.object(f).tapped for f in forests)
    assert kinds(g.events).count("mana_added") == max(0, generic - 2)


def test_abandoned_sarcophagus_sees_typecyclers_as_cards_with_cycling():  # CR 702.29b, 702.29f, 614.1a, 601.2a
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Swamp", "Plains", "Forest", "Island"])
    g.add_cards(1, "library", ["Island"] * 5)
    (sarcophagus,) = g.add_cards(0, "battlefield", ["Abandoned Sarcophagus"])
    islands = g.add_cards(0, "battlefield", ["Island"] * 7)
    lr, troll, ash = add_hand(g, 0, ["Lórien Revealed", "Troll of Khazad-dûm", "Ash Barrens"])
    # Discarded without cycling: a card with (Swamp)cycling is exiled instead.
    g.discard(0, 1)
    g.answer([troll])
    assert names(g, g.exile()) == ["Troll of Khazad-dûm"] and g.graveyard(0) == []
    # Cycled: it stays in the graveyard ...
    g.cycle(lr)
    g.resolve_top()
    g.answer([])
    (lr_gy,) = g.graveyard(0)
    assert g.name(lr_gy) == "Lórien Revealed"
    # ... and, a nonland card with cycling, may be cast from there (CR 601.2a permission).
    assert {"action": "cast", "card": lr_gy} in g.priority_actions()
    spell = g.cast(lr_gy)
    assert g.stack() == [spell]
    g.resolve_top()
    assert len(g.hand(0)) == 4  # Ash Barrens and three drawn cards
    assert g.graveyard(0) == [] and names(g, g.exile()) == ["Troll of Khazad-dûm", "Lórien Revealed"]  # not cycled this time
    # A land with basic landcycling: cycled into the graveyard, it can't be cast (a land) or played from there.
    g.cycle(ash)
    g.resolve_top()
    g.answer([])
    (ash_gy,) = g.graveyard(0)
    assert all(a.get("card") != ash_gy for a in g.priority_actions())
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(ash_gy)
    assert sarcophagus in g.battlefield() and len(islands) == 7


# ----- CR 500-514: the turn ----------------------------------------------------------------------------------

PRIORITY_STEPS = ["upkeep", "draw", "precombat_main", "begin_combat", "declare_attackers", "end_combat", "postcombat_main", "end"]


@pytest.mark.parametrize("step", PRIORITY_STEPS)
def test_advance_to_reaches_each_step_that_gives_priority_with_the_active_player_holding_it(step):  # CR 500.1, 117.3a
    g = with_libraries(new_game(), 10)
    assert (g.turn, g.step, g.active_player) == (1, "precombat_main", 0)
    g.advance_to(step)
    turn = 1 if PRIORITY_STEPS.index(step) > PRIORITY_STEPS.index("precombat_main") else 2
    assert (g.turn, g.step, g.active_player, g.priority_player) == (turn, step, turn - 1, turn - 1)
    assert g.stack() == [] and g.pending is None
    # Passing goes to the other player in the same step (CR 117.3d), who may act there.
    g.pass_priority()
    assert (g.step, g.priority_player) == (step, 2 - turn)


def test_a_whole_turn_gives_priority_in_every_step_but_untap_and_cleanup():  # CR 500.1, 502.4, 514.3, 117.3a
    g = with_libraries(new_game(), 10)
    g.advance_to("end")
    g.clear_events()
    g.advance_to("end")  # from turn 1's end step to turn 2's
    passes = [e for e in g.events if e["kind"] in ("step_began", "passed_priority")]
    given: list[str] = []
    step = "end"
    for e in passes:
        if e["kind"] == "step_began":
            step = e["step"]
        elif not given or given[-1] != step:
            given.append(step)
    assert given == ["end"] + PRIORITY_STEPS[:-1]
    assert (g.turn, g.step, g.active_player) == (2, "end", 1)
    assert [e["player"] for e in g.events if e["kind"] == "drew"] == [1]


def test_without_attackers_the_declare_blockers_and_combat_damage_steps_are_skipped():  # CR 508.8, 500.1
    g = with_libraries(new_game(), 10)
    g.clear_events()
    g.advance_to("postcombat_main")
    steps = [e["step"] for e in g.events if e["kind"] == "step_began"]
    assert steps == ["begin_combat", "declare_attackers", "end_combat", "postcombat_main"]


def test_abilities_can_be_activated_in_the_combat_steps_and_resolve_there():  # CR 506-511, 117.1b, 117.3b
    g = with_libraries(new_game(), 10)
    (altar,) = g.add_cards(1, "battlefield", ["Altar of Dementia"])
    g.add_cards(1, "battlefield", ["Grizzly Bears", "Hill Giant", "Savannah Lions"])
    for step, victim in [("begin_combat", "Grizzly Bears"), ("declare_attackers", "Hill Giant"), ("end_combat", "Savannah Lions")]:
        g.advance_to(step)
        g.pass_priority()
        assert (g.step, g.priority_player) == (step, 1)
        (c,) = [x for x in g.battlefield() if g.name(x) == victim]
        g.activate(altar, targets=[[P0]], sacrifice=c)
        g.resolve_top()
        assert (g.turn, g.step, g.priority_player, g.stack()) == (1, step, 0, [])  # the active player gets priority
    assert len(g.graveyard(0)) == 2 + 3 + 2 and len(g.library(0)) == 3


def test_the_beginning_phase_untaps_then_upkeep_triggers_then_the_draw():  # CR 502.3, 503.1a, 504.1, 117.3a
    g = with_libraries(new_game(), 10)
    (orb,) = g.add_cards(0, "battlefield", ["Mesmeric Orb"])
    mine = g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (theirs,) = g.add_cards(1, "battlefield", ["Island"])
    for x in (*mine, theirs):
        g.set_tapped(x)
    g.clear_events()
    g.next_turn()  # player 1's turn: only their Island untaps; the Orb's trigger waits for the upkeep
    assert (g.turn, g.step, g.active_player, g.priority_player) == (2, "upkeep", 1, 1)
    assert [g.object(x).tapped for x in (*mine, theirs)] == [True, True, False]
    tail = [e for e in g.events if e["kind"] in ("step_began", "ability_triggered")][-3:]
    assert [(e["kind"], e.get("step")) for e in tail] == [("step_began", "untap"), ("step_began", "upkeep"), ("ability_triggered", None)]
    (trigger,) = g.stack()
    assert g.object(trigger).controller == 0 and tail[-1]["source"] == orb and tail[-1]["ability"] == trigger
    g.resolve_top()
    assert len(g.graveyard(1)) == 1 and g.graveyard(0) == []  # the untapped Island's controller mills
    g.clear_events()
    g.advance_to("draw")
    assert kinds(g.events) == ["passed_priority", "passed_priority", "step_began", "drew"]  # drawn before priority
    assert (g.step, g.priority_player, len(g.hand(1))) == ("draw", 1, 1)
    g.next_turn()  # player 0's: both Forests untap, two triggers
    assert [g.object(x).tapped for x in (*mine, theirs)] == [False, False, False]
    assert (g.turn, g.step, len(g.stack())) == (3, "upkeep", 2)


def test_the_starting_player_skips_the_draw_of_the_first_turn_so_the_first_draw_step_is_the_opponents():  # CR 103.8a, 504.1
    g = mtgsim.Game.from_decks([["Island"] * 20, ["Swamp"] * 20], seed=3)
    g.set_policy(0, "manual")
    g.set_policy(1, "manual")
    assert (g.turn, g.step, g.active_player) == (1, "upkeep", 0)
    g.clear_events()
    g.advance_to("draw")
    assert (g.turn, g.step, g.active_player) == (2, "draw", 1)
    began = [(e["turn"], e["step"]) for e in g.events if e["kind"] == "step_began" and e["step"] in ("upkeep", "draw")]
    assert began == [(2, "upkeep"), (2, "draw")]
    assert [len(g.hand(p)) for p in (0, 1)] == [7, 8]


@pytest.mark.parametrize("start", PRIORITY_STEPS)
def test_mana_empties_when_each_step_ends(start):  # CR 500.5, 106.4
    g = with_libraries(new_game(), 10)
    forests = g.add_cards(0, "battlefield", ["Forest", "Forest"])
    g.advance_to(start)
    p = g.active_player
    (mine,) = g.add_cards(p, "battlefield", ["Mountain"])
    g.activate_mana(mine)
    assert g.mana_pool(p) == dict(EMPTY_POOL, R=1)
    g.pass_priority()
    assert g.mana_pool(p) == dict(EMPTY_POOL, R=1) and g.step == start  # not when passing
    g.pass_priority()
    assert g.step != start and g.mana_pool(p) == EMPTY_POOL
    assert len(forests) == 2


def test_the_cleanup_step_discards_to_seven_then_until_end_of_turn_effects_end():  # CR 514.1, 514.2, 611.2a, 402.2
    g = with_libraries(new_game(), 10, "Savannah Lions")
    (adept,) = g.add_cards(0, "battlefield", ["Flamespeaker Adept"])
    for _ in range(2):
        g.scry(0, 1)
        g.answer(([g.library(0)[0]], []))
        g.resolve_top()
    assert g.power_toughness(adept) == (6, 3)  # two triggers: +4/+0
    hand = add_hand(g, 0, ["Hill Giant"] * 9)
    g.advance_to("end")
    assert g.power_toughness(adept) == (6, 3)  # still this turn
    g.pass_priority()
    g.pass_priority()
    d = g.pending
    assert (g.step, d.player, d.purpose, d.min, d.max, d.options) == ("cleanup", 0, "discard", 2, 2, hand)
    assert g.power_toughness(adept) == (6, 3) and g.priority_player is None
    g.answer(hand[:2])
    assert len(g.hand(0)) == 7 and names(g, g.graveyard(0)) == ["Hill Giant"] * 2
    assert g.power_toughness(adept) == (2, 3)
    assert (g.turn, g.step) == (2, "upkeep")


@pytest.mark.parametrize(("extra", "library_of_leng", "asked"), [(7, False, False), (8, False, True), (12, True, False)])
def test_the_cleanup_discard_happens_only_above_the_maximum_hand_size(extra, library_of_leng, asked):  # CR 514.1, 402.2
    g = with_libraries(new_game(), 10, "Savannah Lions")
    if library_of_leng:
        g.add_cards(0, "battlefield", ["Library of Leng"])  # "You have no maximum hand size."
    add_hand(g, 0, ["Hill Giant"] * extra)
    add_hand(g, 1, ["Hill Giant"] * 9)  # not the active player: no discard
    result = g.next_turn()
    assert (g.pending is not None) == asked
    if asked:
        assert result is None and g.pending.min == extra - 7
        g.answer(g.pending.options[: extra - 7])
    assert (g.turn, g.step) == (2, "upkeep")
    assert [len(g.hand(p)) for p in (0, 1)] == [min(extra, 7) if not library_of_leng else extra, 9]


def test_a_trigger_during_cleanup_gives_priority_and_another_cleanup_step_follows():  # CR 514.3a
    g = with_libraries(new_game(), 10, "Savannah Lions")
    (faith,) = g.add_cards(0, "battlefield", ["Faith of the Devoted"])  # whenever you cycle or discard a card
    hand = add_hand(g, 0, ["Hill Giant"] * 8)
    g.advance_to("end")
    g.pass_priority()
    g.pass_priority()
    g.answer([hand[0]])
    (trigger,) = g.stack()
    assert (g.turn, g.step, g.priority_player) == (1, "cleanup", 0)
    g.resolve_top()  # no mana: the {1} can't be paid
    g.pass_priority()
    g.pass_priority()
    cleanups = [e for e in g.events if e["kind"] == "step_began" and e["step"] == "cleanup"]
    assert len(cleanups) == 2 and (g.turn, g.step) == (2, "upkeep") and trigger is not None


def test_next_turn_resolves_what_is_on_the_stack_and_stops_at_the_next_upkeep():  # Game.next_turn docs, CR 500.2
    g = with_libraries(new_game(), 10)
    thrasios, *islands = g.add_cards(0, "battlefield", ["Thrasios, Triton Hero"] + ["Island"] * 4)
    g.activate(thrasios)
    assert g.next_turn() is None and g.pending.purpose == "scry"  # stops at the ability's decision
    g.answer(([g.library(0)[0]], []))
    assert g.turn == 1 and g.stack() == []
    revealed = g.battlefield()[-1]  # the top Island was revealed: a land, onto the battlefield tapped
    assert g.name(revealed) == "Island" and g.object(revealed).tapped and g.hand(0) == []
    g.next_turn()
    assert (g.turn, g.step, g.active_player, g.priority_player) == (2, "upkeep", 1, 1)
    assert all(g.object(x).tapped for x in islands)  # player 0's Islands stay tapped in player 1's untap step
    g.next_turn()
    assert (g.turn, g.active_player) == (3, 0) and not any(g.object(x).tapped for x in islands)


def test_the_untap_step_untaps_what_abilities_tapped_for_the_active_player_only():  # CR 502.3, 107.5
    g = with_libraries(new_game(), 10)
    shaman, forest = g.add_cards(0, "battlefield", ["Fauna Shaman", "Forest"])
    thrasios, *islands = g.add_cards(1, "battlefield", ["Thrasios, Triton Hero"] + ["Island"] * 4)
    add_hand(g, 0, ["Grizzly Bears"])
    g.activate(shaman)  # {G}, {T}: the Shaman and the Forest tapped
    g.resolve_top()
    g.advance_to("end")
    g.pass_priority()
    g.activate(thrasios)  # player 1 taps four Islands in player 0's end step
    g.resolve_top()
    if g.pending is not None:
        g.answer((g.pending.cards, []))
    tapped = lambda: [g.object(x).tapped for x in (shaman, forest, *islands)]  # noqa: E731
    assert tapped() == [True] * 6
    g.next_turn()
    assert g.active_player == 1 and tapped() == [True, True] + [False] * 4
    g.next_turn()
    assert g.active_player == 0 and tapped() == [False] * 6


@pytest.mark.parametrize("policy", ["random", "goldfish"])
def test_play_with_policies_reaches_the_steps_and_turns_asked_for(policy):  # Game.play docs, CR 500.1, 103.8a
    deck = ["Forest"] * 8 + ["Island"] * 6
    deck += ["Ash Barrens", "Lórien Revealed", "Evolving Wilds", "Grizzly Bears", "Troll of Khazad-dûm", "Fauna Shaman"]
    g = mtgsim.Game.from_decks([deck, deck], seed=11)
    g.set_policy(0, policy)
    g.set_policy(1, policy)
    g.clear_events()
    expected = [(1, "declare_attackers"), (1, "end"), (2, "precombat_main"), (2, "end_combat"), (3, "upkeep"), (3, "draw")]
    for turn, step in expected:
        g.play(until=step if step != "upkeep" else turn)
        assert (g.turn, g.step, g.active_player) == (turn, step, (turn - 1) % 2)
        assert g.priority_player == g.active_player and g.pending is None
    g.play(until=6)
    assert (g.turn, g.step) == (6, "upkeep") or g.is_over
    # Steps began in the order of CR 500.1 every turn; the first player drew nothing on turn 1.
    order = ["untap", *PRIORITY_STEPS[:5], "declare_blockers", "combat_damage", *PRIORITY_STEPS[5:], "cleanup"]
    began = [(e["turn"], e["step"]) for e in g.events if e["kind"] == "step_began"]
    assert began == sorted(began, key=lambda ts: (ts[0], order.index(ts[1])))
    assert (1, "draw") not in began and (2, "draw") in began
    g.check_invariants()
    assert Counter(kinds(g.events))["step_began"] > 40


def test_a_creature_dying_in_the_cleanup_step_gives_priority_and_another_cleanup_follows():  # CR 514.3a, 514.2, 704.5f
    # A 1/1 pumped +0/+1 until end of turn, with a -1/-1 counter: 0/1 until the pump ends in the
    # cleanup step, then 0/0. A state-based action performed in cleanup gives the active player
    # priority (no trigger needed), and another cleanup step follows.
    db = mtgsim.CardDB()
    db.add({"name": "Test Pumper", "mana_cost": "{1}", "type_line": "Creature — Test", "power": "1", "toughness": "1",
            "rules": {"activated": [{"cost": {"mana": "{0}"}, "effects": [{"pump": {"power": 0, "toughness": 1}}]}]}})
    g = mtgsim.Game(2, seed=1, db=db)
    for p in (0, 1):
        g.add_cards(p, "library", ["Island"] * 5)
    (pumper,) = g.add_cards(0, "battlefield", ["Test Pumper"])
    g.activate(pumper)
    g.resolve_top()
    g.add_counters(pumper, "-1/-1", 1)
    assert g.power_toughness(pumper) == (0, 1)
    g.advance_to("end")
    g.clear_events()
    g.pass_priority()
    g.pass_priority()
    assert [e["kind"] for e in g.events][-2:] == ["step_began", "died"]
    assert (g.turn, g.step, g.priority_player) == (1, "cleanup", 0)
    g.pass_priority()
    g.pass_priority()
    cleanups = [e for e in g.events if e["kind"] == "step_began" and e["step"] == "cleanup"]
    assert len(cleanups) == 2 and g.turn == 2
