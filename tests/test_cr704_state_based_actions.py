"""CR 704 state-based actions (704.5a life, 704.5b empty library, 704.5c poison), CR 104 ending
the game, CR 800.4 multiplayer games going on after a player leaves."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import add_hand, kinds, new_game, rejected


def test_a_player_at_zero_life_loses():  # CR 704.5a, 104.3b
    g = new_game(strict=True)
    g.set_life(1, 0)
    assert g.events == [
        {"kind": "life_changed", "player": 1, "from": 20, "to": 0},
        {"kind": "player_lost", "player": 1, "reason": "life"},
        {"kind": "game_over", "winners": [0]},
    ]
    assert g.is_over
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "life"}]}


def test_a_player_below_zero_life_loses():  # CR 704.5a
    g = new_game(strict=True)
    g.set_life(0, -7)
    assert g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "life"}]}
    assert g.life(0) == -7


def test_a_player_at_one_life_is_still_in_the_game():  # CR 704.5a
    g = new_game(strict=True)
    g.set_life(0, 1)
    assert not g.is_over and g.outcome is None
    assert kinds(g.events) == ["life_changed"]


def test_drawing_from_an_empty_library_loses():  # CR 704.5b
    g = new_game(strict=True)
    g.draw(1)
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "empty_library"}]}
    assert g.to_dict()["players"][1]["lost"] == "empty_library"


def test_ten_poison_counters_lose():  # CR 704.5c, 122.1f
    g = new_game(strict=True)
    g.add_player_counters(1, "poison", 9)
    assert not g.is_over
    g.add_player_counters(1, "poison")
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "poison"}]}
    assert kinds(g.events) == ["player_counters_changed", "player_counters_changed", "player_lost", "game_over"]


def test_other_counters_do_not_lose():  # CR 704.5c
    g = new_game(strict=True)
    g.add_player_counters(0, "ticket", 50)
    g.add_player_counters(0, "energy", 12)
    assert not g.is_over


def test_conceding_loses_at_once():  # CR 104.3a
    g = new_game(strict=True)
    g.concede(0)
    assert g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "conceded"}]}
    assert kinds(g.events) == ["player_lost", "game_over"]


def test_players_who_all_lose_at_once_draw_the_game():  # CR 104.4a, 704.3 (all SBAs at once)
    g = mtgsim.Game.from_decks([[], []], seed=1)  # both draw from empty libraries during setup
    assert g.is_over
    assert g.outcome == {
        "winners": [],
        "losers": [{"player": 0, "reason": "empty_library"}, {"player": 1, "reason": "empty_library"}],
    }
    assert g.events[-3:] == [
        {"kind": "player_lost", "player": 0, "reason": "empty_library"},
        {"kind": "player_lost", "player": 1, "reason": "empty_library"},
        {"kind": "game_over", "winners": []},
    ]


def test_nothing_can_be_done_once_the_game_is_over():  # CR 104.1, 733
    g = new_game()
    g.add_cards(0, "library", ["Island", "Swamp"])
    (card,) = add_hand(g, 0, ["Lightning Bolt"])
    g.set_life(1, 0)
    assert g.is_over
    for action in (
        lambda: g.draw(0),
        lambda: g.mill(0, 1),
        lambda: g.discard(0, 1),
        lambda: g.scry(0, 1),
        lambda: g.search(0, "card"),
        lambda: g.shuffle(0),
        lambda: g.move(card, "graveyard"),
        lambda: g.set_life(0, 5),
        lambda: g.concede(0),
        lambda: g.add_cards(0, "hand", ["Island"]),
    ):
        with rejected(g, mtgsim.GameOverError):
            action()


# ----- multiplayer (CR 800.4, 104.2a) --------------------------------------------------------------


def test_three_player_game_goes_on_after_one_player_loses():  # CR 800.4, 104.2a, 704.5a
    g = new_game(3, strict=True)
    for p in range(3):
        g.add_cards(p, "library", ["Island", "Swamp"])

    g.set_life(1, 0)

    assert not g.is_over and g.outcome is None
    assert g.events == [
        {"kind": "life_changed", "player": 1, "from": 20, "to": 0},
        {"kind": "player_lost", "player": 1, "reason": "life"},
    ]
    assert [p["lost"] for p in g.to_dict()["players"]] == [None, "life", None]

    # the player who left can't act, but the others play on
    for action in (lambda: g.draw(1), lambda: g.set_life(1, 5), lambda: g.mill(1, 1), lambda: g.scry_each([0, 1], 1)):
        with rejected(g, mtgsim.PlayerLeftError):
            action()
    assert len(g.mill_opponents(0, 1)) == 1  # only player 2 is still an opponent

    g.draw(2, 2)  # player 2 draws the last card, then from an empty library
    assert g.is_over
    assert g.outcome == {
        "winners": [0],
        "losers": [{"player": 1, "reason": "life"}, {"player": 2, "reason": "empty_library"}],
    }
    assert g.events[-2:] == [
        {"kind": "player_lost", "player": 2, "reason": "empty_library"},
        {"kind": "game_over", "winners": [0]},
    ]


def test_when_two_of_three_players_lose_at_once_the_last_one_wins():  # CR 104.2a, 704.3
    g = mtgsim.Game.from_decks([[], ["Island"] * 10, []], seed=2)
    assert g.outcome == {
        "winners": [1],
        "losers": [{"player": 0, "reason": "empty_library"}, {"player": 2, "reason": "empty_library"}],
    }


def test_a_player_who_left_cannot_choose_for_a_discard():  # CR 800.4, 701.9b
    g = new_game(3)
    add_hand(g, 0, ["Island", "Swamp"])
    g.concede(2)
    with rejected(g, mtgsim.PlayerLeftError):
        g.discard(0, 1, chooser=2)


def test_objects_of_a_player_who_left_leave_the_game():  # CR 800.4a
    g = new_game(3, strict=True)
    g.add_cards(1, "library", ["Island", "Swamp"])
    add_hand(g, 1, ["Lightning Bolt"])
    g.add_cards(1, "graveyard", ["Counterspell"])
    g.add_cards(1, "exile", ["Forest"])
    (own,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (lent,) = add_hand(g, 1, ["Hill Giant"])
    lent = g.move(lent, "battlefield", controller=2)  # owned by 1, controlled by 2
    (kept,) = g.add_cards(0, "battlefield", ["Savannah Lions"])

    g.set_life(1, 0)

    assert not g.is_over
    # all objects owned by player 1 have left the game
    assert g.library(1) == [] and g.hand(1) == [] and g.graveyard(1) == []
    assert g.battlefield() == [kept]
    assert g.exile() == []
    for card in (own, lent):
        with pytest.raises(mtgsim.NoSuchObjectError):
            g.object(card)


def test_a_player_can_concede_at_any_time_even_during_a_decision():  # CR 104.3a
    g = new_game(2)
    add_hand(g, 0, ["Island", "Swamp"])
    g.discard(0, 1)
    assert g.pending is not None

    g.concede(1)

    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "conceded"}]}


# ----- priority when a player leaves (CR 800.4a, 800.4j) ----------------------------------------------


@pytest.mark.parametrize("who", [0, 1])
def test_a_player_who_leaves_while_holding_priority_passes_it_on(who):  # CR 800.4a, 119.4, 704.5a
    g = new_game(3, strict=True)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 5)
    (wraith,) = add_hand(g, who, ["Street Wraith"])
    after = (who + 1) % 3
    (theirs,) = add_hand(g, after, ["Street Wraith"])
    g.set_life(who, 2)
    if who == 1:
        g.pass_priority()  # player 1 cycles during player 0's turn
    g.cycle(wraith)  # pays the last 2 life (legal, CR 119.4), then loses to 704.5a
    assert [e["player"] for e in g.events if e["kind"] == "player_lost"] == [who] and not g.is_over
    assert g.priority_player == after
    g.cycle(theirs)  # the next player still in the game acts
    assert g.priority_player == after


def test_after_the_active_player_leaves_the_players_still_in_the_game_hold_priority():  # CR 800.4j, 117.4
    g = new_game(3, strict=True)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 5)
    (wraith,) = add_hand(g, 0, ["Street Wraith"])
    g.set_life(0, 2)
    g.cycle(wraith)
    g.clear_events()
    while g.turn == 1:
        g.pass_priority()
    passers = [e["player"] for e in g.events if e["kind"] == "passed_priority"]
    assert set(passers) == {1, 2}
    assert g.active_player == 1


def test_a_pass_by_a_player_who_then_concedes_no_longer_counts():  # CR 800.4a, 117.4
    g = new_game(4, strict=True)
    for p in range(4):
        g.add_cards(p, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[{"player": 2}])
    g.pass_priority()  # player 0 passes
    g.pass_priority()  # player 1 passes; player 2 has priority
    g.concede(1)  # player 1's pass no longer counts: of the three still in, only 0 has passed
    assert g.priority_player == 2
    g.pass_priority()
    assert g.priority_player == 3 and g.stack() != []  # player 3 must still get to act
    g.pass_priority()
    assert g.stack() == [] and g.life(2) == 17


def test_conceding_while_holding_priority_passes_it_to_the_next_player():  # CR 104.3a, 800.4a
    g = new_game(3, strict=True)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 5)
    g.pass_priority()
    g.concede(1)
    assert g.priority_player == 2


def test_state_based_actions_are_checked_again_after_a_player_leaves():  # CR 704.3, 800.4a, 704.5g
    """Player 2's Joraga Warcaller, under player 0's control, makes player 0's Fauna Shaman 5/5;
    Bolted, it has 3 damage. When player 2 leaves, the Warcaller leaves with them, the Shaman
    is 2/2 with lethal damage, and it dies in the same check, before anyone gets priority."""
    for leave in ("concede", "life"):
        g = new_game(3)
        for p in range(3):
            g.add_cards(p, "library", ["Island"] * 10)
        (warcaller,) = add_hand(g, 2, ["Joraga Warcaller"])
        warcaller = g.move(warcaller, "battlefield", controller=0)
        g.add_counters(warcaller, "+1/+1", 3)
        (shaman,) = g.add_cards(0, "battlefield", ["Fauna Shaman"])  # an Elf: 2/2 + 3/3
        g.add_cards(0, "battlefield", ["Mountain"])
        (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
        g.cast(bolt, targets=[shaman])
        g.resolve_top()
        assert g.power_toughness(shaman) == (5, 5) and shaman in g.battlefield()
        if leave == "concede":
            g.concede(2)
        else:
            g.set_life(2, 0)
        assert not g.is_over and shaman not in g.battlefield() and warcaller not in g.battlefield()
        assert [g.name(c) for c in g.graveyard(0)] == ["Fauna Shaman", "Lightning Bolt"]


def test_passing_priority_checks_state_based_actions_before_the_next_player_gets_it():  # CR 117.5, 704.3, 704.5i
    g = new_game(2)
    (jace,) = g.add_cards(0, "battlefield", ["Jace, Wielder of Mysteries"])  # set up with no loyalty
    assert jace in g.battlefield()
    g.pass_priority()
    assert jace not in g.battlefield() and g.priority_player == 1


def test_a_player_who_concedes_while_choosing_for_another_players_ability_is_skipped():  # CR 800.4a, 104.3a
    """Player 0's kicked Bloodhusk Ritualist: player 1 must discard, and concedes while
    choosing. The trigger goes on without them and finishes; it doesn't resolve again."""
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Swamp"] * 4)
    add_hand(g, 1, ["Island"] * 3)
    add_hand(g, 2, ["Island"] * 3)
    (ritualist,) = add_hand(g, 0, ["Bloodhusk Ritualist"])
    g.cast(ritualist, kick=1)
    g.resolve_top()
    g.answer([{"player": 1}])
    for _ in range(3):
        g.pass_priority()
    assert (g.pending.player, g.pending.kind) == (1, "choose_cards")
    g.concede(1)
    assert g.pending is None and g.stack() == [] and g.priority_player == 0
    assert [e["kind"] for e in g.events][-2:] == ["player_lost", "resolved"]
    assert len(g.hand(2)) == 3


def mill_replacement_game() -> tuple[mtgsim.Game, int, int]:
    """Three players; player 0 controls Bruvac the Grandiloquent (opponents mill twice that
    many) and The Water Crystal (that many plus four): each milling opponent orders them."""
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 40)
    bruvac, crystal = g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent", "The Water Crystal"])
    g.add_cards(0, "battlefield", ["Island"] * 4)
    return g, bruvac, crystal


def test_a_player_who_concedes_while_ordering_their_mill_replacements_is_skipped():  # CR 616.1, 800.4a, 608.2
    """Fractured Sanity: player 1 concedes while ordering; player 2 orders next, mills, and the
    spell finishes once (before, it stayed on the stack and resolved again from the start)."""
    g, bruvac, crystal = mill_replacement_game()
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.cast(fs)
    for _ in range(3):
        g.pass_priority()
    assert (g.pending.player, g.pending.purpose) == (1, "order_replacements")
    g.concede(1)
    assert (g.pending.player, g.pending.purpose) == (2, "order_replacements")  # nobody is asked twice
    g.answer([bruvac, crystal])  # 14 doubled, plus four
    assert g.pending is None and g.stack() == [] and g.priority_player == 0
    assert [len(g.graveyard(p)) for p in range(3)] == [1, 0, 32] and len(g.library(2)) == 8
    assert kinds(g.events)[-3:] == ["player_lost", "milled", "resolved"]


def test_a_mill_order_is_asked_afresh_when_one_replacements_controller_leaves():  # CR 616.1, 800.4a
    """Bruvac is player 1's, the Crystal player 2's; player 0 orders them for their own mill.
    Player 2 concedes and the Crystal leaves with them: one effect is left, nothing to order,
    and the mill happens (before, the decision kept offering the departed Crystal)."""
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 30)
    g.add_cards(1, "battlefield", ["Bruvac the Grandiloquent"])
    (crystal,) = g.add_cards(2, "battlefield", ["The Water Crystal"])
    assert g.mill(0, 4) is None and crystal in g.pending.options
    g.concede(2)
    assert g.pending is None and len(g.graveyard(0)) == 8  # Bruvac's alone: twice four


def test_a_mill_order_still_asked_afresh_keeps_the_effects_that_remain():  # CR 616.1, 800.4a
    g, bruvac, crystal = mill_replacement_game()  # player 0's Bruvac and Crystal
    g.add_cards(2, "battlefield", ["Bruvac the Grandiloquent"])
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.cast(fs)
    for _ in range(3):
        g.pass_priority()
    assert (g.pending.player, g.pending.purpose) == (1, "order_replacements") and len(g.pending.options) == 3
    g.concede(2)  # their Bruvac leaves; player 0's two effects still change player 1's mill
    assert (g.pending.player, g.pending.purpose) == (1, "order_replacements")
    assert sorted(g.pending.options) == sorted([bruvac, crystal])
    g.answer([bruvac, crystal])
    assert len(g.graveyard(1)) == 32


def test_the_rest_of_an_ability_happens_after_its_target_concedes_while_ordering_their_mill():  # CR 800.4a, 608.2
    g, _, _ = mill_replacement_game()
    (jace,) = add_hand(g, 0, ["Jace, Wielder of Mysteries"])
    g.cast(jace)
    g.resolve_top()
    jace = next(x for x in g.battlefield() if g.name(x) == "Jace, Wielder of Mysteries")
    hand = len(g.hand(0))
    g.activate(jace, 0, targets=[[{"player": 1}]])  # +1: target player mills two cards. Draw a card.
    for _ in range(3):
        g.pass_priority()
    assert (g.pending.player, g.pending.purpose) == (1, "order_replacements")
    g.concede(1)
    assert g.pending is None and g.stack() == [] and g.priority_player == 0
    assert len(g.hand(0)) == hand + 1  # drew once: the ability finished, and didn't resolve again


def test_a_player_who_concedes_while_ordering_a_mill_action_is_skipped():  # CR 616.1, 800.4a; Game.mill_opponents
    g, bruvac, crystal = mill_replacement_game()
    g.mill_opponents(0, 3)
    assert (g.pending.player, g.pending.purpose) == (1, "order_replacements")
    g.concede(1)
    assert (g.pending.player, g.pending.purpose) == (2, "order_replacements")
    g.answer([crystal, bruvac])  # 3 plus four, doubled
    assert g.pending is None and len(g.graveyard(2)) == 14


def test_a_player_who_concedes_during_a_simultaneous_search_passes_the_choice_on():  # CR 701.23i, 800.4a
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Forest"] * 6 + ["Island"] * 4)
    (vet,) = g.add_cards(0, "battlefield", ["Veteran Explorer"])
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[vet])
    g.resolve_top()
    for _ in range(3):
        g.pass_priority()
    while g.pending is not None and g.pending.player == 0:
        g.answer(True if g.pending.kind == "yes_no" else g.pending.options[: g.pending.max])
    assert g.pending.player == 1
    g.concede(1)
    assert (g.pending.player, g.pending.kind) == (2, "yes_no")  # player 2 decides next; nobody is asked twice
    g.answer(False)
    assert g.pending is None and g.stack() == []
    assert sum(1 for s in g.battlefield() if g.name(s) == "Forest" and g.object(s).controller == 0) == 2


# ----- another player's decision after a concession (CR 800.4a) --------------------------------


def three_manual_players() -> mtgsim.Game:
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 10)
    return g


def test_the_legend_rule_is_asked_afresh_when_one_of_the_legends_leaves_with_its_owner():  # CR 704.5j, 800.4a
    g = three_manual_players()
    g.add_cards(0, "battlefield", ["Forest", "Island"])
    (theirs,) = g.add_cards(2, "hand", ["Thrasios, Triton Hero"])
    theirs = g.move(theirs, "battlefield", controller=0)  # player 2's, controlled by player 0
    (mine,) = add_hand(g, 0, ["Thrasios, Triton Hero"])
    g.cast(mine)
    g.resolve_top()
    assert g.pending.purpose == "legend_rule"
    g.concede(2)  # their Thrasios leaves the game: one is left, the rule no longer applies
    assert g.pending is None
    assert [g.name(c) for c in g.battlefield()].count("Thrasios, Triton Hero") == 1


def test_a_sacrifice_cost_no_longer_offers_a_creature_that_left_the_game():  # CR 800.4a, 602.2b
    g = three_manual_players()
    altar, bears = g.add_cards(0, "battlefield", ["Altar of Dementia", "Grizzly Bears"])
    (giant,) = g.add_cards(2, "hand", ["Hill Giant"])
    giant = g.move(giant, "battlefield", controller=0)
    assert g.activate(altar, targets=[[{"player": 1}]]) is None and giant in g.pending.options
    g.concede(2)
    assert g.pending.options == [bears]
    with rejected(g, mtgsim.InvalidAnswerError):
        g.answer([giant])
    g.answer([bears])
    g.resolve_top()
    assert len(g.graveyard(1)) == 2  # the Bears' power


def test_a_target_choice_no_longer_offers_a_player_or_permanent_that_left():  # CR 601.2c, 800.4a
    g = three_manual_players()
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(2, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt)
    assert g.pending.kind == "targets" and {"player": 2} in g.pending.options and bears in g.pending.options
    g.concede(2)
    assert {"player": 2} not in g.pending.options and bears not in g.pending.options
    with rejected(g, mtgsim.InvalidAnswerError):
        g.answer([{"player": 2}])
    g.answer([{"player": 1}])
    g.resolve_top()
    assert g.life(1) == 17


@pytest.mark.parametrize("scripted", [False, True])
def test_a_search_of_a_library_that_left_with_its_owner_finds_nothing(scripted):  # CR 701.23b, 800.4a
    g = three_manual_players()
    theirs, mine = len(g.library(1)), len(g.library(2))
    if scripted:
        g.script(1, [True])  # a script waiting: the engine can't run the action on inside concede
    g.search(2, "card", library=1)
    assert (g.pending.player, g.pending.min, len(g.pending.options)) == (2, 1, theirs)
    g.concede(1)
    if scripted:
        # Still asked, but for nothing: the library's cards left the game with their owner.
        assert (g.pending.player, g.pending.options, g.pending.min, g.pending.max) == (2, [], 0, 0)
        g.answer([])
    assert g.pending is None and g.hand(2) == [] and len(g.library(2)) == mine


@pytest.mark.parametrize("scripted", [False, True])
def test_a_spell_whose_only_targets_left_the_game_is_reversed_as_if_never_cast(scripted):  # CR 601.2, 733, 800.4a
    g = three_manual_players()
    g.add_cards(2, "battlefield", ["Mountain", "Mountain"])
    bolts = add_hand(g, 2, ["Lightning Bolt", "Lightning Bolt"])
    g.add_cards(0, "battlefield", ["Island", "Island"])
    (cs,) = add_hand(g, 0, ["Counterspell"])
    g.pass_priority()
    g.pass_priority()  # player 2 has priority in player 0's turn
    for b in bolts:
        g.cast(b, targets=[{"player": 1}])
    g.pass_priority()
    if scripted:
        g.script(1, [True])
    before = g.to_dict()
    g.cast(cs)  # two spells to counter: player 0 is asked which
    assert (g.pending.player, g.pending.kind, len(g.pending.options)) == (0, "targets", 2)
    g.concede(2)  # both Bolts leave the stack with their owner
    assert g.pending is None and g.stack() == [] and g.hand(0) == [cs]
    assert not any(g.object(x).tapped for x in g.battlefield() if g.object(x).controller == 0)
    assert g.priority_player == 0 and before["players"][0] == g.to_dict()["players"][0]


def test_a_triggers_target_is_chosen_afresh_when_an_opponent_leaves():  # CR 603.3d, 800.4a
    """Bloodhusk Ritualist kicked twice: "target opponent discards two cards". Player 1 leaves
    while player 0 chooses; player 2 is the only opponent left, chosen without asking."""
    g = three_manual_players()
    g.add_cards(0, "battlefield", ["Swamp"] * 6)
    (br,) = add_hand(g, 0, ["Bloodhusk Ritualist"])
    g.add_cards(1, "hand", ["Island"])
    g.add_cards(2, "hand", ["Island", "Island"])
    g.cast(br, kick=2)
    g.resolve_top()
    assert g.pending.purpose == "targets"
    g.concede(1)
    assert g.pending is None
    g.resolve_top()
    assert g.hand(2) == [] and len(g.graveyard(2)) == 2


GRAVE_GORGER = {"name": "Grave Gorger", "mana_cost": "{3}{B}", "type_line": "Creature — Horror", "power": "*", "toughness": "*",
                "rules": {"as_enters": [{"mill": {"count": 4}}], "power_toughness": "highest_mana_value_in_your_graveyard"}}


def test_a_concession_mid_action_leaves_state_based_actions_for_the_next_priority():  # CR 704.3, 800.4a, 614.1c
    """A War-Leech-like creature searched onto the battlefield is a 0/0 until its "as this enters"
    mill, which waits for player 0 to order player 1's Bruvac and Water Crystal. Player 2
    concedes meanwhile: they leave at once, but no state-based action looks at the creature
    until the mill is done, and it stays, a 5/5 (before, the concession killed it)."""
    db = mtgsim.CardDB()
    db.add([GRAVE_GORGER])
    g = mtgsim.Game(3, 0, db=db)
    for p in range(3):
        g.set_policy(p, "manual")
        g.add_cards(p, "library", ["Island", "Lórien Revealed"] * 5)
    g.add_cards(0, "library", ["Grave Gorger"])
    bruvac, crystal = g.add_cards(1, "battlefield", ["Bruvac the Grandiloquent", "The Water Crystal"])
    assert g.search(0, "creature", to="battlefield") is None
    g.answer(g.pending.options)
    assert g.pending.purpose == "order_replacements"
    g.concede(2)
    assert g.outside(2) != [] and g.pending.purpose == "order_replacements"  # player 2 left at once
    g.answer([bruvac, crystal])
    (gorger,) = [c for c in g.battlefield() if g.name(c) == "Grave Gorger"]
    assert g.power_toughness(gorger) == (5, 5)
