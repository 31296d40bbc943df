"""Priority actions as decisions (CR 117.1, 117.3, 116) and the play loop: what the player with
priority may do (pass, play a land — CR 305.2, 116.2a —, cast a spell — CR 117.1a, 307.1 —),
answered by a policy ("random", "first", "goldfish"), a script, a callback or the caller;
``Game.play(until=...)`` running turns (CR 500-514: the starting player's skipped draw 103.8a,
untap 502.3, mana emptying 500.5, cleanup discard 514.1); ``Op.play_turn`` in batches."""

from __future__ import annotations

from collections import Counter

import pytest

import mtgsim
from conftest import add_hand, all_zone_ids, full_state, kinds, names, new_game, state, untouched, with_libraries

PASS = {"action": "pass"}


def land(card: int) -> dict:
    return {"action": "play_land", "card": card}


def cast(card: int) -> dict:
    return {"action": "cast", "card": card}


def activate(source: int, index: int = 0) -> dict:
    return {"action": "activate", "source": source, "index": index}


def quiet(g: mtgsim.Game, n: int = 10) -> mtgsim.Game:
    """Libraries of a card nobody in these tests can cast (no Plains anywhere), so that draws
    never add a choice to a manual player's priority decisions."""
    return with_libraries(g, n, "Savannah Lions")


def steps_began(g: mtgsim.Game) -> list[tuple[int, str, int]]:
    return [(e["turn"], e["step"], e["active"]) for e in g.events if e["kind"] == "step_began"]


RED = ["Mountain"] * 16 + ["Lightning Bolt"] * 12 + ["Hill Giant"] * 4 + ["Savannah Lions"] * 4 + ["Everflowing Chalice"] * 4
BLUE = ["Island"] * 10 + ["Swamp"] * 8 + ["Glimpse the Unthinkable"] * 12 + ["Counterspell"] * 6 + ["Fractured Sanity"] * 4


def goldfish_game(seed: int) -> mtgsim.Game:
    g = mtgsim.Game.from_decks([RED, BLUE], seed=seed)
    g.set_policy(0, "goldfish")
    g.set_policy(1, "goldfish")
    return g


# ----- CR 117.1: what the player with priority can do ------------------------------------------------------


def test_priority_actions_pass_first_then_lands_then_castable_spells_in_hand_order():  # CR 117.1, 117.1a, 116.2a
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Forest"])
    island, bolt, bears, giant, cs = add_hand(g, 0, ["Island", "Lightning Bolt", "Grizzly Bears", "Hill Giant", "Counterspell"])
    # Hill Giant ({3}{R}) can't be paid with two lands; Counterspell has no spell to target.
    assert g.priority_actions() == [PASS, land(island), cast(bolt), cast(bears)]


def test_lands_are_offered_before_spells_whatever_the_hand_order():  # Game.priority_actions docs ("pass, lands to play, spells to cast")
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    bolt, island = add_hand(g, 0, ["Lightning Bolt", "Island"])
    assert g.priority_actions() == [PASS, land(island), cast(bolt)]


def test_only_pass_with_an_empty_hand():  # CR 117.3d
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Mountain"] * 3)
    assert g.priority_actions() == [PASS]


def test_outside_a_main_phase_only_instants_and_flash_spells_are_offered():  # CR 117.1a, 307.1, 305.1, 702.8a
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Island", "Mountain"])
    island, bolt, giant, ved, fs = add_hand(g, 0, ["Island", "Lightning Bolt", "Hill Giant", "Vedalken AEthermage", "Fractured Sanity"])
    # Cycling is an activated ability, activated from hand at instant speed (CR 702.29a, 602.2):
    # Wizardcycling {3} and Cycling {1}{U} are offered after the spells.
    cycles = [activate(ved), activate(fs)]
    assert g.priority_actions() == [PASS, land(island), cast(bolt), cast(giant), cast(ved), cast(fs), *cycles]  # main phase
    g.advance_to("begin_combat")
    assert (g.step, g.priority_player) == ("begin_combat", 0)
    assert g.priority_actions() == [PASS, cast(bolt), cast(ved), *cycles]


def test_with_a_spell_on_the_stack_no_land_and_no_sorcery_speed_spell_is_offered():  # CR 117.1a, 307.1, 116.2a
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Mountain", "Forest", "Forest"])
    island, b1, b2, bears = add_hand(g, 0, ["Island", "Lightning Bolt", "Lightning Bolt", "Grizzly Bears"])
    assert g.priority_actions() == [PASS, land(island), cast(b1), cast(b2), cast(bears)]
    g.cast(b1, targets=[{"player": 1}])
    assert g.priority_player == 0  # CR 117.3c
    assert g.priority_actions() == [PASS, cast(b2)]
    g.resolve_top()
    assert g.stack() == [] and g.priority_player == 0  # 117.3b
    assert g.priority_actions() == [PASS, land(island), cast(b2), cast(bears)]


def test_the_non_active_player_is_offered_only_instants_and_flash_spells():  # CR 117.1a, 307.1, 305.2 ("during their turn")
    g = quiet(new_game())
    g.add_cards(1, "battlefield", ["Island", "Island", "Mountain", "Forest"])
    island, bolt, bears, ved = add_hand(g, 1, ["Island", "Lightning Bolt", "Grizzly Bears", "Vedalken AEthermage"])
    g.pass_priority()  # player 0's main phase, player 1 has priority
    assert g.priority_player == 1
    assert g.priority_actions() == [PASS, cast(bolt), cast(ved), activate(ved)]  # and Wizardcycling {3}


def test_counterspell_is_offered_only_when_a_spell_is_on_the_stack():  # CR 601.2c, 115.1 (a target must exist)
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    (cs,) = add_hand(g, 1, ["Counterspell"])
    g.pass_priority()
    assert g.priority_actions() == [PASS]  # player 1: nothing to counter
    g.pass_priority()  # to begin_combat
    g.cast(bolt, targets=[{"player": 1}])
    g.pass_priority()
    assert g.priority_player == 1 and g.priority_actions() == [PASS, cast(cs)]


def test_a_spell_is_offered_by_its_unkicked_cost():  # CR 601.2f, 702.33a (kicker is optional)
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Swamp", "Swamp", "Swamp"])
    nec, giant = add_hand(g, 0, ["Necravolver", "Hill Giant"])  # {2}{B} (kicker {1}{G} / {W}); {3}{R}
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])  # {0}
    assert g.priority_actions() == [PASS, cast(nec), cast(chalice)]


def test_no_land_is_offered_after_a_land_was_played_this_turn():  # CR 305.2, 305.2b
    g = quiet(new_game())
    i1, i2 = add_hand(g, 0, ["Island", "Island"])
    assert g.priority_actions() == [PASS, land(i1), land(i2)]
    g.play_land(i1)
    assert g.priority_actions() == [PASS]


def test_a_finished_game_is_not_played_on():  # CR 104.1, 733
    g = quiet(new_game())
    (island,) = add_hand(g, 0, ["Island"])
    g.concede(1)
    assert g.is_over
    with untouched(g, mtgsim.GameOverError):
        g.play()
    with untouched(g, mtgsim.GameOverError):
        g.play_land(island)


def test_nobody_is_offered_an_action_in_a_finished_game():  # CR 104.1 (the game ends immediately), 117.1
    g = quiet(new_game())
    add_hand(g, 0, ["Island"])
    g.concede(1)
    assert g.is_over
    assert all(a["action"] == "pass" for a in g.priority_actions())  # play_land would raise GameOverError


# ----- priority as a decision ----------------------------------------------------------------------------


def test_a_manual_player_stops_play_with_a_priority_decision():  # CR 117.1, GUIDE §4
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    island, bolt = add_hand(g, 0, ["Island", "Lightning Bolt"])
    g.clear_events()
    assert g.play() is None
    d = g.pending
    assert (d.player, d.kind, d.purpose) == (0, "action", "priority")
    assert d.options == [PASS, land(island), cast(bolt)] == g.priority_actions()
    assert g.events == []  # nothing happened before the decision
    with untouched(g, mtgsim.DecisionPendingError):
        g.play()


def test_answering_with_the_index_of_play_land_plays_it_and_the_player_keeps_priority():  # CR 116.2a, 116.3, 305.1
    g = quiet(new_game())
    (island,) = add_hand(g, 0, ["Island"])
    g.add_cards(0, "battlefield", ["Mountain"])
    add_hand(g, 0, ["Lightning Bolt"])
    g.play()
    g.clear_events()
    g.answer(1)
    (perm,) = [c for c in g.battlefield() if g.name(c) == "Island"]
    assert g.events == [{"kind": "land_played", "player": 0, "card": perm}]
    assert g.hand(0) and "Island" not in names(g, g.hand(0))
    assert (g.step, g.priority_player, g.pending) == ("precombat_main", 0, None)  # 116.3
    assert land(island) not in g.priority_actions()  # 305.2: the land drop is used up
    (swamp,) = add_hand(g, 0, ["Swamp"])
    assert land(swamp) not in g.priority_actions()
    with untouched(g, mtgsim.IllegalActionError):
        g.play_land(swamp)


def test_the_land_drop_is_used_up_for_the_turn_and_comes_back_next_turn():  # CR 305.2, 305.2b
    g = quiet(new_game())
    i1, i2 = add_hand(g, 0, ["Island", "Island"])
    g.play()
    g.answer(1)  # plays i1
    assert g.priority_actions() == [PASS]
    with untouched(g, mtgsim.IllegalActionError):
        g.play_land(i2)
    g.play(until=3)  # player 0's next turn
    assert (g.turn, g.step, g.active_player) == (3, "upkeep", 0)
    g.play(until="precombat_main")  # stops as the main phase begins, before anyone chooses
    assert (g.turn, g.step, g.pending) == (3, "precombat_main", None)
    assert g.priority_actions() == [PASS, land(i2)]
    g.play()
    assert g.pending.options == [PASS, land(i2)]


def test_answering_cast_casts_the_spell_and_its_own_choices_are_decisions():  # CR 117.1a, 601.2c, 117.3c
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.play()
    assert g.pending.options == [PASS, cast(bolt)]
    assert g.answer(1) is None
    d = g.pending
    assert (d.player, d.kind, d.purpose) == (0, "targets", "targets")
    g.answer([{"player": 1}])
    (spell,) = g.stack()
    assert g.name(spell) == "Lightning Bolt" and g.priority_player == 0  # 117.3c
    assert [e["kind"] for e in g.events if e["kind"] == "spell_cast"] == ["spell_cast"]
    g.play(until="begin_combat")  # only "pass" is left for both: never asked
    assert g.life(1) == 17 and (g.step, g.pending) == ("begin_combat", None)


@pytest.mark.parametrize("bad", [3, -1, "pass", [0], True, None])
def test_a_wrong_answer_to_a_priority_decision_changes_nothing(bad):  # CR 733
    g = quiet(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    add_hand(g, 0, ["Island", "Lightning Bolt"])
    g.play()
    with untouched(g, (mtgsim.InvalidAnswerError, mtgsim.InvalidArgumentError, TypeError)):
        g.answer(bad)
    assert g.pending.purpose == "priority"


def test_a_priority_decision_with_only_pass_is_not_asked():  # GUIDE §4 (one legal answer), CR 117.3d
    g = quiet(new_game(strict=True))  # no script: any decision would raise
    g.add_cards(0, "hand", ["Hill Giant"])  # uncastable: no lands
    g.clear_events()
    g.play(until="end_of_turn")
    assert (g.turn, g.step, g.active_player, g.pending) == (2, "upkeep", 1, None)
    # every step that gives priority saw both players pass, in turn order from the active player
    assert kinds(g.events).count("passed_priority") == 2 * 6  # main, begin combat, attackers, end combat, main 2, end


def test_scripted_answers_drive_priority_decisions_in_strict_mode():  # GUIDE §4 (scripts, strict mode)
    g = quiet(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Mountain"])
    (island,) = add_hand(g, 0, ["Island"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    # main: play the Island (option 1), then cast Bolt (now option 1) at player 1. After that
    # only "pass" is legal, which is never asked: the last scripted answer stays unused.
    g.script(0, [1, 1, [{"player": 1}], 0])
    g.play(until="begin_combat")
    assert g.script_len(0) == 1
    assert g.life(1) == 17 and "Island" in names(g, g.battlefield())
    assert (g.step, g.priority_player) == ("begin_combat", 0)


def test_strict_mode_refuses_an_unscripted_priority_decision():  # GUIDE §4, CR 733
    g = quiet(new_game(strict=True))
    add_hand(g, 0, ["Island"])
    with untouched(g, mtgsim.UnscriptedDecisionError):
        g.play()


def test_a_script_running_out_midway_through_play_undoes_the_whole_call():  # CR 733, _core.pyi ("every action that raises has changed nothing")
    g = quiet(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Mountain"])
    add_hand(g, 0, ["Lightning Bolt"])
    g.script(0, [0])  # pass in the main phase; the Bolt makes begin_combat a decision too
    before, full = state(g), full_state(g)
    with pytest.raises(mtgsim.UnscriptedDecisionError):
        g.play(until="end_of_turn")
    assert full_state(g) == full and state(g) == before


# ----- policies -------------------------------------------------------------------------------------------


def test_the_first_policy_always_passes():  # GUIDE §4 ("first": the first legal option)
    g = quiet(new_game())
    g.set_policy(0, "first")
    g.set_policy(1, "first")
    g.add_cards(0, "battlefield", ["Mountain"])
    add_hand(g, 0, ["Island", "Lightning Bolt"])
    g.clear_events()
    g.play(until="end_of_turn")
    assert (g.turn, g.step) == (2, "upkeep")
    assert not {"land_played", "spell_cast"} & set(kinds(g.events))
    assert names(g, g.hand(0)) == ["Island", "Lightning Bolt"]


def test_set_policy_goldfish_is_reported_back():  # Game.set_policy / Game.policy
    g = new_game()
    g.set_policy(0, "goldfish")
    assert (g.policy(0), g.policy(1)) == ("goldfish", "manual")
    with untouched(g, mtgsim.InvalidArgumentError):
        g.set_policy(0, "goldfishh")


def test_the_stub_declares_goldfish_as_a_policy_game_policy_returns():  # GUIDE §5 (stubs are the documentation)
    import ast
    import pathlib

    stub = pathlib.Path(mtgsim.__file__).with_name("_core.pyi").read_text()
    (fn,) = [n for n in ast.walk(ast.parse(stub)) if isinstance(n, ast.FunctionDef) and n.name == "policy"]
    assert "goldfish" in ast.unparse(fn.returns)


def test_goldfish_plays_a_land_before_casting():  # goldfish policy
    g = quiet(new_game())
    g.set_policy(0, "goldfish")
    g.set_policy(1, "first")
    g.add_cards(0, "battlefield", ["Swamp"])
    bears, island = add_hand(g, 0, ["Grizzly Bears", "Island"])  # the spell comes first in hand
    g.clear_events()
    g.play(max_actions=1)
    assert kinds(g.events) == ["land_played"]


def test_goldfish_casts_the_first_castable_spell_and_aims_at_the_opponent():  # goldfish policy, CR 115.1
    g = quiet(new_game(), 12)
    g.set_policy(0, "goldfish")
    g.set_policy(1, "first")
    g.add_cards(0, "battlefield", ["Island", "Swamp", "Mountain"])
    giant, glimpse, bolt = add_hand(g, 0, ["Hill Giant", "Glimpse the Unthinkable", "Lightning Bolt"])
    g.clear_events()
    g.play(max_actions=1)
    (cast_event,) = [e for e in g.events if e["kind"] == "spell_cast"]
    assert g.card_name(cast_event["spell"]) == "Glimpse the Unthinkable"  # Hill Giant can't be paid
    assert cast_event["targets"] == [{"player": 1}]  # the first target option would be player 0
    g.play(until="begin_combat")  # next: Bolt at player 1 (its target options begin with player 0)
    assert (len(g.library(0)), len(g.library(1)), g.life(0), g.life(1)) == (12, 2, 20, 17)
    assert names(g, g.hand(0)) == ["Hill Giant"]


def test_goldfish_aims_any_target_at_the_opponent_not_at_creatures():  # goldfish policy
    g = quiet(new_game())
    g.set_policy(0, "goldfish")
    g.set_policy(1, "first")
    g.add_cards(0, "battlefield", ["Mountain"])
    mine = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    theirs = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    add_hand(g, 0, ["Lightning Bolt"])
    g.play(until="begin_combat")
    assert g.life(1) == 17 and g.life(0) == 20
    assert mine[0] in g.battlefield() and theirs[0] in g.battlefield()


def in_the_opponents_upkeep(db: mtgsim.CardDB | None = None) -> mtgsim.Game:
    """Player 1's first upkeep, both players goldfish, player 0 with three untapped lands."""
    g = mtgsim.Game(2, 0) if db is None else mtgsim.Game(2, 0, db=db)
    for p in (0, 1):
        g.add_cards(p, "library", ["Savannah Lions"] * 10)
        g.set_policy(p, "manual")
    g.advance_to("upkeep")
    assert g.active_player == 1
    for p in (0, 1):
        g.set_policy(p, "goldfish")
    g.add_cards(0, "battlefield", ["Mountain", "Island", "Island"])
    return g


def test_goldfish_casts_an_instant_in_the_opponents_turn_but_not_a_creature():  # goldfish policy, CR 117.1a, 307.1
    g = in_the_opponents_upkeep()
    (giant, _) = add_hand(g, 0, ["Hill Giant", "Lightning Bolt"])
    g.play(until="end_of_turn")
    assert g.life(1) == 17 and names(g, g.graveyard(0)) == ["Lightning Bolt"]
    assert giant in g.hand(0)  # a creature waits for its own main phase


def test_goldfish_flashes_back_an_instant_in_the_opponents_turn():  # goldfish policy, CR 117.1a, 702.34a
    db = mtgsim.CardDB()
    db.add([{"name": "Test Flashback Insight", "mana_cost": "{U}", "type_line": "Instant", "oracle_text": "Draw a card.\nFlashback {1}{U}", "rules": {"flashback": "{1}{U}", "spell": [{"draw": {"count": 1}}]}}])
    g = in_the_opponents_upkeep(db)
    g.add_cards(0, "graveyard", ["Test Flashback Insight"])
    g.play(until="end_of_turn")
    assert names(g, g.exile()) == ["Test Flashback Insight"] and len(g.hand(0)) == 1


def test_goldfish_kicks_as_often_as_it_can_pay():  # goldfish policy, CR 702.33c
    g = quiet(new_game())
    g.set_policy(0, "goldfish")
    g.set_policy(1, "first")
    g.add_cards(0, "battlefield", ["Island"] * 7)
    add_hand(g, 0, ["Everflowing Chalice"])
    g.play(until="begin_combat")
    (chalice,) = [c for c in g.battlefield() if g.name(c) == "Everflowing Chalice"]
    assert g.object(chalice).counters == {"charge": 3}  # {0} + 3 x {2} out of 7 lands


def test_the_random_policy_picks_among_legal_actions_and_is_reproducible():  # GUIDE §4 ("random"), CR 117.1
    picks = []
    for seed in range(16):
        runs = []
        for _ in range(2):
            g = quiet(new_game(seed=seed))
            g.set_policy(0, "random")
            g.add_cards(0, "battlefield", ["Mountain"])
            add_hand(g, 0, ["Island", "Lightning Bolt"])
            g.clear_events()
            g.play(max_actions=1)
            runs.append(g.events)
        assert runs[0] == runs[1]  # same seed, same choice
        first = runs[0][0]["kind"]
        assert first in ("passed_priority", "land_played", "mana_added")  # a Bolt cast begins by paying
        picks.append(first)
    assert len(set(picks)) == 3  # all three actions happen


def test_a_callback_policy_answers_priority_decisions():  # GUIDE §4 (a Python callable)
    g = quiet(new_game())
    seen = []

    def always_land_else_pass(game, d):
        seen.append((d.player, d.purpose, list(d.options)))
        return next((i for i, a in enumerate(d.options) if a["action"] == "play_land"), 0)

    g.set_policy(0, always_land_else_pass)
    g.set_policy(1, "first")
    (island,) = add_hand(g, 0, ["Island"])
    g.play(max_actions=1)
    assert seen == [(0, "priority", [PASS, land(island)])]
    assert names(g, g.battlefield()) == ["Island"]


def test_play_goes_on_after_a_callback_answers():  # GUIDE §4 (callbacks are policies), Game.play docs
    g = quiet(new_game())
    calls = []
    g.set_policy(0, lambda game, d: calls.append(d.purpose) or 0)  # always pass
    g.set_policy(1, "first")
    add_hand(g, 0, ["Island"])
    g.play(until="end_of_turn")
    assert (g.turn, g.step, g.pending) == (2, "upkeep", None)
    assert calls == ["priority", "priority"]  # both main phases (the Island is playable); elsewhere only "pass"


# ----- Game.play: until and max_actions ------------------------------------------------------------------


def test_until_a_step_name_stops_the_next_time_that_step_begins():  # Game.play docs, CR 500.1
    g = quiet(new_game())
    g.play(until="end")
    assert (g.turn, g.step, g.priority_player) == (1, "end", 0)
    g.play(until="postcombat_main")  # already past it this turn: the next turn's
    assert (g.turn, g.step, g.active_player) == (2, "postcombat_main", 1)
    g.play(until="postcombat_main")  # "the next time": not the current one again
    assert (g.turn, g.step, g.active_player) == (3, "postcombat_main", 0)


def test_until_end_of_turn_and_a_turn_number_stop_at_an_upkeep():  # Game.play docs, CR 503
    g = quiet(new_game())
    g.play(until="end_of_turn")
    assert (g.turn, g.step, g.active_player) == (2, "upkeep", 1)
    g.play(until=5)
    assert (g.turn, g.step, g.active_player) == (5, "upkeep", 0)
    g.clear_events()
    g.play(until=5)  # already there: nothing happens
    g.play(until=2)
    assert g.events == [] and g.turn == 5


@pytest.mark.parametrize("bad", ["untap", "cleanup", "declare_blockers", "combat_damage", "upkeepp", -1, 2.5])
def test_an_impossible_until_is_rejected_and_changes_nothing(bad):  # CR 502.4, 514.3, 508.8, 733
    g = quiet(new_game())
    with untouched(g, mtgsim.InvalidArgumentError):
        g.play(until=bad)


def test_max_actions_bounds_the_number_of_priority_actions():  # Game.play docs
    g = quiet(new_game())
    g.clear_events()
    g.play(max_actions=0)
    assert g.events == []
    g.play(max_actions=3)
    assert kinds(g.events) == ["passed_priority", "passed_priority", "step_began", "passed_priority"]
    assert (g.step, g.priority_player) == ("begin_combat", 1)
    with untouched(g, mtgsim.InvalidArgumentError):
        g.play(max_actions=-1)


# ----- the turn structure (CR 500-514) ----------------------------------------------------------------------


def test_the_starting_player_skips_the_first_draw_and_the_active_player_alternates():  # CR 103.8a, 504.1, 500.1
    g = mtgsim.Game.from_decks([["Island"] * 20, ["Swamp"] * 20], seed=7)
    g.set_policy(0, "first")
    g.set_policy(1, "first")
    assert (g.turn, g.step, g.active_player) == (1, "upkeep", 0)
    g.clear_events()
    g.play(until=5)
    draws = [(e["player"], g.card_name(e["card"])) for e in g.events if e["kind"] == "drew"]
    assert draws == [(1, "Swamp"), (0, "Island"), (1, "Swamp")]  # turns 2, 3, 4; none in turn 1
    assert [len(g.library(p)) for p in range(2)] == [12, 11]
    assert [len(g.hand(p)) for p in range(2)] == [7, 7]  # 514.1: each discarded the eighth card
    assert [len(g.graveyard(p)) for p in range(2)] == [1, 2]
    untaps = [(t, a) for t, s, a in steps_began(g) if s == "untap"]
    assert untaps == [(2, 1), (3, 0), (4, 1), (5, 0)]


def test_in_a_multiplayer_game_nobody_skips_the_first_draw():  # CR 103.8c
    g = mtgsim.Game.from_decks([["Island"] * 20] * 3, seed=5)
    for p in range(3):
        g.set_policy(p, "first")
    g.play(until="precombat_main")
    assert [len(g.hand(p)) for p in range(3)] == [8, 7, 7]


def test_the_skipped_draw_step_does_not_happen():  # CR 103.8a ("skips the draw step"), 614.10
    g = mtgsim.Game.from_decks([["Island"] * 20, ["Swamp"] * 20], seed=7)
    g.set_policy(0, "first")
    g.set_policy(1, "first")
    g.clear_events()
    g.play(until="precombat_main")
    assert [s for t, s, a in steps_began(g)] == ["precombat_main"]


def test_the_untap_step_untaps_the_active_players_permanents_only():  # CR 502.3
    g = quiet(new_game())
    g.set_policy(0, "first")
    g.set_policy(1, "first")
    (m,) = g.add_cards(0, "battlefield", ["Mountain"])
    (i,) = g.add_cards(1, "battlefield", ["Island"])
    g.set_tapped(m)
    g.set_tapped(i)
    g.play(until="end_of_turn")  # player 1's untap step
    assert (g.turn, g.object(m).tapped, g.object(i).tapped) == (2, True, False)
    g.set_tapped(i)
    g.play(until="end_of_turn")  # player 0's
    assert (g.turn, g.object(m).tapped, g.object(i).tapped) == (3, False, True)


def test_no_player_gets_priority_in_the_untap_step():  # CR 502.4
    g = quiet(new_game())
    g.set_policy(0, "first")
    g.set_policy(1, "first")
    g.clear_events()
    g.play(until="end_of_turn")
    ev = g.events
    untap = next(i for i, e in enumerate(ev) if e.get("step") == "untap")
    assert ev[untap + 1] == {"kind": "step_began", "turn": 2, "step": "upkeep", "active": 1}


def test_unspent_mana_empties_when_the_step_ends_not_when_a_player_passes():  # CR 500.5, 106.4
    g = quiet(new_game())
    (m,) = g.add_cards(0, "battlefield", ["Mountain"])
    g.activate_mana(m)
    assert g.mana_pool(0)["R"] == 1
    g.pass_priority()
    assert g.priority_player == 1 and g.mana_pool(0)["R"] == 1  # same step
    g.play(until="begin_combat")  # player 1 passes (only option), the main phase ends
    assert g.step == "begin_combat" and sum(g.mana_pool(0).values()) == 0


def test_cleanup_discards_down_to_seven_as_the_active_players_decision():  # CR 514.1, 402.2, 701.9
    g = quiet(new_game())
    mine = add_hand(g, 0, ["Hill Giant"] * 9)  # no lands: nothing to cast, only "pass"
    theirs = add_hand(g, 1, ["Hill Giant"] * 9)
    g.play(until="end_of_turn")
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "choose_cards", "discard", 2, 2)
    assert d.options == mine and g.step == "cleanup" and g.priority_player is None
    g.answer([mine[0], mine[5]])
    assert g.hand(0) == [c for c in mine if c not in (mine[0], mine[5])]
    assert len(g.graveyard(0)) == 2 and g.hand(1) == theirs  # the non-active player keeps 9
    assert (g.turn, g.step, g.active_player) == (2, "upkeep", 1)


def test_first_policies_play_until_a_library_runs_out():  # CR 504.1, 514.1, 704.5b, 104.3c
    g = quiet(new_game(), 10)  # turn 1, player 0's main phase; empty hands
    g.set_policy(0, "first")
    g.set_policy(1, "first")
    g.play()
    # Player 1 draws on turns 2, 4, ..., 20 and draws from an empty library on turn 22; player 0
    # drew on turns 3 ... 21. Each discarded one card in each of their last three cleanups.
    assert g.is_over and (g.turn, g.step, g.active_player) == (22, "draw", 1)
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "empty_library"}]}
    assert [(len(g.library(p)), len(g.hand(p)), len(g.graveyard(p))) for p in range(2)] == [(0, 7, 3), (0, 7, 3)]


# ----- whole games ------------------------------------------------------------------------------------------


def test_a_goldfish_game_is_determined_by_its_seed():  # GUIDE §3 (randomness is explicit)
    a, b, c = goldfish_game(1), goldfish_game(1), goldfish_game(2)
    for g in (a, b, c):
        g.play()
        assert g.is_over and len(all_zone_ids(g)) == 80  # no card created or lost
    assert a.events == b.events and a.outcome == b.outcome and a.turn == b.turn
    assert a.to_json() == b.to_json()
    assert c.events != a.events


def test_a_goldfish_game_follows_the_rules_of_turns():  # CR 103.8a, 305.2, 117.1a, 104.3c
    g = goldfish_game(3)
    g.play()
    assert g.is_over
    turn = active = 0
    lands = Counter()
    for e in g.events:
        if e["kind"] == "step_began":
            turn, active = e["turn"], e["active"]
            assert active == (turn - 1) % 2  # players alternate, player 0 starts
        elif e["kind"] == "land_played":
            assert e["player"] == active  # only in your own turn
            lands[turn] += 1
        elif e["kind"] == "drew" and turn == 1:
            pytest.fail("the starting player drew in turn 1")  # 103.8a
    assert lands and max(lands.values()) == 1  # one land per turn (305.2)
    (loser,) = g.outcome["losers"]
    assert g.outcome["winners"] == [1 - loser["player"]]
    if loser["reason"] == "empty_library":
        assert g.library(loser["player"]) == []
    else:
        assert loser["reason"] == "life" and g.life(loser["player"]) <= 0


def test_play_turn_in_a_batch_plays_whole_turns():  # Op.play_turn, Game.run_batch
    g = mtgsim.Game.from_decks([["Island"] * 20, ["Swamp"] * 20], seed=3)
    g.set_policy(0, "first")
    g.set_policy(1, "first")
    before = full_state(g)
    r = g.run_batch([mtgsim.Op.play_turn()] * 4, 3)
    # Turns 1-4: player 1 draws in turns 2 and 4, player 0 in turn 3 (13 + 13 cards before).
    assert (r.repetitions, r.operations, r.games_over, r.library_cards) == (3, 12, 0, 3 * (12 + 11))
    assert full_state(g) == before  # the game itself is not changed
    direct = g.clone()
    for _ in range(4):
        direct.play(until="end_of_turn")
    assert (direct.turn, len(direct.library(0)) + len(direct.library(1))) == (5, 23)


def test_play_turn_batches_run_goldfish_games_to_the_end():  # Op.play_turn, Game.run_batch
    g = goldfish_game(1)
    direct = g.clone()
    turns = 0
    while not direct.is_over:
        direct.play(until="end_of_turn")
        turns += 1
    r = g.run_batch([mtgsim.Op.play_turn()] * 40, 2)
    # Without shuffles or random choices every repetition plays the same game as ``direct``.
    libs = len(direct.library(0)) + len(direct.library(1))
    assert (r.repetitions, r.operations, r.games_over, r.library_cards) == (2, 2 * turns, 2, 2 * libs)


def test_a_batch_refuses_manual_players():  # Game.run_batch docs, CR 733
    g = quiet(new_game())
    with untouched(g, mtgsim.IllegalActionError):
        g.run_batch([mtgsim.Op.play_turn()], 1)


# ----- a loop of mandatory actions (CR 104.4b) ------------------------------------------------

SCRY_ENGINE = {
    "name": "Test Scry Engine",
    "mana_cost": "{0}",
    "type_line": "Enchantment",
    "rules": {"triggers": [{"when": "enters_battlefield", "effects": [{"scry": {"who": "you", "count": 1}}]}, {"when": "you_scry", "effects": [{"scry": {"who": "you", "count": 1}}]}]},
}


def scry_loop_game() -> tuple[mtgsim.Game, int]:
    db = mtgsim.CardDB()
    db.add(SCRY_ENGINE)
    g = mtgsim.Game(2, seed=1, db=db)
    for p in (0, 1):
        g.add_cards(p, "library", ["Island"] * 20)
        g.set_policy(p, "first")
    (engine,) = g.add_cards(0, "hand", ["Test Scry Engine"])
    return g, engine


def test_next_turn_refuses_a_loop_of_mandatory_actions_and_changes_nothing():  # CR 104.4b, 733
    # "Whenever you scry, scry 1": the step never ends. Before, next_turn never returned.
    g, engine = scry_loop_game()
    g.cast(engine)
    before = full_state(g)
    with pytest.raises(mtgsim.IllegalActionError, match="loop of mandatory actions"):
        g.next_turn()
    assert full_state(g) == before
    g.resolve_top()  # the game itself goes on, one action at a time
    assert len(g.stack()) == 1 and g.step == "precombat_main"


def test_a_simulated_game_stuck_in_a_loop_of_mandatory_actions_stops_unfinished():  # CR 104.4b
    db = mtgsim.CardDB()
    db.add(SCRY_ENGINE)
    decks = [["Test Scry Engine"] * 20 + ["Island"] * 20, ["Island"] * 40]
    r = mtgsim.simulate(decks, 2, seed=1, workers=1, max_turns=5, db=db)
    assert not r.finished.any() and (r.turns <= 2).all()  # stopped in turn 1 or 2, not at the turn limit
    assert mtgsim._core.LOOP_ACTIONS == 1_000_000


def test_the_goldfish_counts_the_mana_in_its_pool_as_mana_it_could_pay_with():  # CR 106.4, 601.2g-h
    # Its only land already tapped for {W}: the pool alone pays for Savannah Lions, which the
    # goldfish casts (its untapped lands alone make nothing).
    g = with_libraries(new_game())
    g.set_policy(0, "goldfish")
    (plains,) = g.add_cards(0, "battlefield", ["Plains"])
    (lions,) = add_hand(g, 0, ["Savannah Lions"])
    g.activate_mana(plains)
    assert g.mana_pool(0)["W"] == 1
    g.play(max_actions=1)
    assert [g.name(c) for c in g.stack()] == ["Savannah Lions"] and lions not in g.hand(0)
    assert sum(g.mana_pool(0).values()) == 0
