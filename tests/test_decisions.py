"""Decisions (GUIDE §4): where the rules give a player a choice the engine never chooses silently.
Built-in policies ("random", "first", "manual"), Python callbacks, scripts, strict mode, the
step-by-step API, and wrong answers (CR 733: nothing changes)."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import add_hand, assert_unchanged, kinds, names, new_game, rejected, state

HAND = ["Island", "Swamp", "Mountain", "Forest", "Plains"]
LIBRARY = ["Island", "Grizzly Bears", "Swamp", "Lightning Bolt", "Mountain"]


# ----- step by step ----------------------------------------------------------------------------


def test_manual_player_gets_a_pending_decision_and_the_action_finishes_on_answer():  # CR 701.9b
    g = new_game()
    island, swamp, mountain = add_hand(g, 0, ["Island", "Swamp", "Mountain"])
    assert g.policy(0) == "manual"

    assert g.discard(0, 1) is None

    d = g.pending
    assert isinstance(d, mtgsim.Decision)
    assert (d.player, d.kind, d.purpose, d.options, d.min, d.max) == (0, "choose_cards", "discard", [island, swamp, mountain], 1, 1)
    assert d.prompt == "player 0 chooses 1 card(s) to discard"
    assert "discard" in repr(d)
    assert g.to_dict()["pending"] is not None
    result = g.answer([mountain])
    assert names(g, result) == ["Mountain"] and g.pending is None
    assert g.to_dict()["pending"] is None


def test_nothing_else_can_happen_while_a_decision_is_pending():  # GUIDE §4, CR 733
    g = new_game()
    g.add_cards(0, "library", ["Island", "Swamp"])
    add_hand(g, 0, ["Island", "Swamp"])
    g.discard(0, 1)
    for action in (
        lambda: g.draw(0),
        lambda: g.mill(1, 1),
        lambda: g.scry(0, 1),
        lambda: g.shuffle(0),
        lambda: g.discard(0, 1),
        lambda: g.set_life(0, 3),
        lambda: g.add_cards(0, "hand", ["Island"]),
    ):
        with rejected(g, mtgsim.DecisionPendingError):
            action()


def test_answering_when_nothing_is_pending_is_an_error():  # CR 733
    g = new_game()
    add_hand(g, 0, ["Island"])
    with rejected(g, mtgsim.NoDecisionPendingError):
        g.answer([0])


def test_a_yes_no_decision_takes_a_bool():  # CR 701.23g
    g = new_game()
    g.add_cards(0, "library", LIBRARY)
    g.search(0, "basic land", optional=True)
    for bad in ([], [1], ([], []), "yes"):
        with rejected(g, mtgsim.InvalidAnswerError):
            g.answer(bad)
    assert g.answer(False) == []


# ----- built-in policies -------------------------------------------------------------------------


def test_default_policy_is_random():  # python_api.md
    g = mtgsim.Game(2)
    assert g.policy(0) == g.policy(1) == "random"


def test_first_policy_discards_the_first_cards_of_the_hand():  # CR 701.9b
    g = new_game()
    g.set_policy(0, "first")
    add_hand(g, 0, HAND)
    result = g.discard(0, 2)
    assert names(g, result) == ["Island", "Swamp"]
    assert g.pending is None


def test_first_policy_scry_keeps_everything_on_top_in_order():  # CR 701.22a
    g = new_game()
    g.set_policy(0, "first")
    lib = g.add_cards(0, "library", HAND)
    g.scry(0, 3)
    assert g.library(0) == lib
    assert g.events == [{"kind": "scried", "player": 0, "amount": 3, "looked": 3, "to_bottom": 0}]


def test_first_policy_search_finds_the_topmost_match():  # CR 701.23a
    g = new_game()
    g.set_policy(0, "first")
    g.add_cards(0, "library", LIBRARY)
    assert names(g, g.search(0, "basic land")) == ["Island"]


def test_random_policy_is_seeded_and_reproducible():  # GUIDE §3 (portable randomness)
    def play(seed):
        g = mtgsim.Game(2, seed)
        g.set_policy(0, "random")
        add_hand(g, 0, HAND)
        g.add_cards(0, "library", LIBRARY)
        out = names(g, g.discard(0, 2))
        g.scry(0, 4)
        return out, names(g, g.library(0))

    assert play(3) == play(3)
    assert len({repr(play(s)) for s in range(8)}) > 1  # and it really is random


def test_random_policy_gives_legal_answers():  # CR 701.9a, 701.23b
    for seed in range(20):
        g = mtgsim.Game(2, seed)
        hand = add_hand(g, 0, HAND)
        lib = g.add_cards(0, "library", LIBRARY)
        discarded = g.discard(0, 2)
        assert len(discarded) == 2 and len(g.hand(0)) == 3
        assert set(g.hand(0)) < set(hand)
        found = g.search(0, "basic land", count=2)
        assert len(found) <= 2 and all(g.object(c).card.supertypes == ["Basic"] for c in found)
        assert len(g.library(0)) == len(lib) - len(found)


def test_who_answers_does_not_change_the_games_own_shuffles():  # GUIDE §3
    libraries = []
    for policy in ("random", "first"):
        g = mtgsim.Game(2, seed=8)
        g.set_policy(0, policy)
        add_hand(g, 0, HAND)
        g.add_cards(0, "library", LIBRARY)
        g.discard(0, 2)
        g.shuffle(0)
        libraries.append(names(g, g.library(0)))
    assert libraries[0] == libraries[1]


def test_an_unknown_policy_name_is_rejected():  # CR 733
    g = new_game()
    with rejected(g, mtgsim.InvalidArgumentError):
        g.set_policy(0, "greedy")
    with pytest.raises(TypeError):
        g.set_policy(0, 42)
    assert g.policy(0) == "manual"


# ----- callbacks ---------------------------------------------------------------------------------


def test_a_callback_answers_for_its_player():  # GUIDE §4
    g = new_game()
    calls = []

    def last_card(game, decision):
        calls.append((game is g, decision.player, decision.kind, decision.purpose, decision.options, decision.min, decision.max))
        return [decision.options[-1]]

    g.set_policy(0, last_card)
    assert g.policy(0) == "callback"
    island, swamp = add_hand(g, 0, ["Island", "Swamp"])

    result = g.discard(0, 1)

    assert names(g, result) == ["Swamp"] and g.pending is None
    assert calls == [(True, 0, "choose_cards", "discard", [island, swamp], 1, 1)]


def test_callbacks_for_several_players_are_called_in_apnap_order():  # CR 701.22c, 101.4
    g = new_game(3)
    order = []

    def bottom_all(game, d):
        order.append(d.player)
        return ([], d.cards)

    libs = []
    for p in range(3):
        g.set_policy(p, bottom_all)
        libs.append(g.add_cards(p, "library", ["Island", "Swamp", "Mountain"]))
    g.active_player = 2

    g.scry_each([0, 1, 2], 1)

    assert order == [2, 0, 1]
    assert [g.library(p) for p in range(3)] == [lib[1:] + lib[:1] for lib in libs]


def test_a_callback_that_raises_leaves_the_game_unchanged():  # CR 733
    g = new_game()
    add_hand(g, 0, HAND)
    g.add_cards(0, "library", LIBRARY)
    g.draw(0)

    def boom(game, decision):
        raise RuntimeError("the bot crashed")

    g.set_policy(0, boom)
    before = state(g)
    with pytest.raises(RuntimeError, match="the bot crashed"):
        g.discard(0, 2)
    assert_unchanged(g, before)
    assert g.pending is None


def test_a_callback_that_raises_on_the_second_decision_undoes_the_first():  # CR 701.22c, 733
    g = new_game(2)
    l0 = g.add_cards(0, "library", ["Island", "Swamp"])
    g.add_cards(1, "library", ["Mountain", "Forest"])
    g.set_policy(0, lambda game, d: ([], d.cards))

    def boom(game, d):
        raise KeyError("no")

    g.set_policy(1, boom)
    before = state(g)
    with pytest.raises(KeyError):
        g.scry_each([0, 1], 1)
    assert_unchanged(g, before)
    assert g.library(0) == l0


def test_a_callback_giving_a_wrong_answer_leaves_the_game_unchanged():  # CR 733
    g = new_game()
    add_hand(g, 0, HAND)
    g.set_policy(0, lambda game, d: d.options[:3])  # three cards for a discard of two
    with rejected(g, mtgsim.InvalidAnswerError):
        g.discard(0, 2)
    g.set_policy(0, lambda game, d: "nonsense")
    with rejected(g, mtgsim.InvalidAnswerError):
        g.discard(0, 2)


def _wrong(game: mtgsim.Game, decision: mtgsim.Decision) -> bool:
    return True  # a yes/no where cards or an order are wanted


def _legend_rule_waiting() -> mtgsim.Game:
    """Two Sidisis on player 0's battlefield: the legend rule asks them at the next check."""
    g = new_game()
    for p in (0, 1):
        g.add_cards(p, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Sidisi, Brood Tyrant"] * 2)
    g.set_policy(0, _wrong)
    return g


def test_actions_a_callback_answers_afterwards_are_undone_whole_when_it_answers_wrongly():  # CR 733, 704.5j, 603.3b
    # move, draw, activate_mana and play_land return their own result and then let callbacks
    # answer what they set off: a wrong answer there undoes the action too.
    g = new_game()
    g.add_cards(0, "battlefield", ["Thrasios, Triton Hero"])
    (second,) = g.add_cards(0, "hand", ["Thrasios, Triton Hero"])
    g.set_policy(0, _wrong)
    with rejected(g, mtgsim.InvalidAnswerError):
        g.move(second, "battlefield")
    assert g.pending is None

    g = _legend_rule_waiting()
    with rejected(g, mtgsim.InvalidAnswerError):
        g.draw(0, 2)

    g = _legend_rule_waiting()
    (island,) = g.add_cards(0, "battlefield", ["Island"])
    with rejected(g, mtgsim.InvalidAnswerError):
        g.activate_mana(island)
    assert g.mana_pool(0)["U"] == 0

    g = new_game()
    for p in (0, 1):
        g.add_cards(p, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Ruin Crab"] * 2)  # two landfall triggers to order
    (land,) = g.add_cards(0, "hand", ["Island"])
    g.set_policy(0, _wrong)
    with rejected(g, mtgsim.InvalidAnswerError):
        g.play_land(land)
    assert g.hand(0) == [land]

    # The same with a callback that answers: the actions happen and the decisions are answered.
    g = _legend_rule_waiting()
    g.set_policy(0, lambda game, d: d.options[:1])
    assert len(g.draw(0, 2)) == 2 and g.pending is None and len(g.battlefield()) == 1


def test_a_play_with_callbacks_that_fails_part_way_is_undone_whole():  # CR 733; Game.play docs
    g = new_game()
    for p in (0, 1):
        g.add_cards(p, "library", ["Island"] * 10)
    g.set_policy(0, "first")
    g.set_policy(1, lambda game, d: "garbage")  # player 1's first priority decision fails
    with rejected(g, mtgsim.InvalidAnswerError):
        g.play(until="game_over")
    assert g.turn == 1

    def boom(game: mtgsim.Game, d: mtgsim.Decision) -> object:
        raise RuntimeError("the bot crashed")

    g.set_policy(1, boom)
    with rejected(g, RuntimeError, match="the bot crashed"):
        g.play(until="game_over")
    g.set_policy(1, "first")
    g.play(until=3)
    assert g.turn == 3


def test_a_callback_for_the_player_who_chooses_another_players_discard():  # CR 701.9b
    g = new_game()
    island, bolt = add_hand(g, 0, ["Island", "Lightning Bolt"])
    seen = []

    def pick_bolt(game, d):
        seen.append(d.player)
        return [bolt]

    g.set_policy(1, pick_bolt)
    result = g.discard(0, 1, chooser=1)
    assert seen == [1]
    assert names(g, result) == ["Lightning Bolt"]
    assert g.events[-1]["by"] == 1


def test_a_callback_can_be_replaced_by_a_built_in_policy():
    g = new_game()
    g.set_policy(0, lambda game, d: [d.options[0]])
    g.set_policy(0, "first")
    assert g.policy(0) == "first"


# ----- scripts and strict mode -------------------------------------------------------------------


def test_scripted_answers_are_used_in_order():  # GUIDE §4
    g = new_game(strict=True)
    island, swamp, mountain, forest, plains = add_hand(g, 0, HAND)
    g.script(0, [[forest], [island, plains]])
    assert g.script_len(0) == 2

    first = g.discard(0, 1)
    assert g.script_len(0) == 1
    second = g.discard(0, 2)

    assert names(g, first) == ["Forest"]
    assert names(g, second) == ["Island", "Plains"]
    assert g.hand(0) == [swamp, mountain]
    assert g.script_len(0) == 0


def test_a_script_is_used_before_the_policy():  # GUIDE §4
    g = new_game()
    g.set_policy(0, "first")
    island, swamp = add_hand(g, 0, ["Island", "Swamp"])
    g.script(0, [[swamp]])
    assert names(g, g.discard(0, 1)) == ["Swamp"]


def test_scripts_belong_to_one_player():  # GUIDE §4
    g = new_game(strict=True)
    add_hand(g, 0, ["Island", "Swamp"])
    g.script(1, [[0]])
    with rejected(g, mtgsim.UnscriptedDecisionError):
        g.discard(0, 1)


def test_strict_mode_refuses_an_unscripted_decision_and_changes_nothing():  # GUIDE §4, CR 733
    g = new_game(strict=True)
    g.set_policy(0, "first")  # even a built-in policy is not allowed to answer
    add_hand(g, 0, HAND)
    g.add_cards(0, "library", LIBRARY)
    g.draw(0)  # some history that must survive
    with rejected(g, mtgsim.UnscriptedDecisionError):
        g.discard(0, 1)
    assert g.pending is None


def test_strict_mode_does_not_ask_decisions_with_one_legal_answer():  # GUIDE §4
    g = new_game(strict=True)
    add_hand(g, 0, ["Island"])
    g.add_cards(0, "library", ["Swamp"])
    assert names(g, g.discard(0, 1)) == ["Island"]
    assert names(g, g.search(0, "card")) == ["Swamp"]
    g.scry(0, 1)  # empty library: nothing to decide
    assert kinds(g.events) == ["discarded", "searched", "moved", "shuffled", "scried"]


def test_strict_mode_script_running_out_midway_undoes_the_whole_action():  # CR 701.22c, 733
    g = new_game(2, strict=True)
    l0 = g.add_cards(0, "library", ["Island", "Swamp"])
    g.add_cards(1, "library", ["Mountain", "Forest"])
    g.script(0, [([], [l0[0]])])  # player 0 (active) is scripted, player 1 is not
    before = state(g)
    with pytest.raises(mtgsim.UnscriptedDecisionError):
        g.scry_each([0, 1], 1)
    assert_unchanged(g, before)
    assert g.script_len(0) == 1  # the consumed answer is given back


def test_a_wrong_scripted_answer_is_rejected_when_used_and_changes_nothing():  # CR 733
    g = new_game(strict=True)
    island, swamp, mountain = add_hand(g, 0, ["Island", "Swamp", "Mountain"])
    g.script(0, [[island, swamp]])  # two cards for a discard of one
    with rejected(g, mtgsim.InvalidAnswerError):
        g.discard(0, 1)
    assert g.script_len(0) == 1


def test_an_unreadable_scripted_answer_is_rejected_up_front():  # CR 733
    g = new_game()
    with rejected(g, mtgsim.InvalidAnswerError):
        g.script(0, ["not an answer"])
    with rejected(g, mtgsim.InvalidAnswerError):
        g.script(0, [[1], 2.5])
    assert g.script_len(0) == 0


def test_clear_script():
    g = new_game()
    g.script(0, [[1], [2]])
    g.clear_script(0)
    assert g.script_len(0) == 0


def test_strict_mode_allows_answering_a_decision_by_hand():  # GUIDE §4
    g = new_game()
    island, swamp = add_hand(g, 0, ["Island", "Swamp"])
    g.discard(0, 1)
    g.strict = True
    assert names(g, g.answer([island])) == ["Island"]


# ----- wrong answers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [[], "nonsense", 3, True, None, {"top": [], "bottom": []}, [1.5], [-1]],
)
def test_wrong_answers_raise_and_leave_the_decision_pending(answer):  # CR 733
    g = new_game()
    add_hand(g, 0, HAND)
    g.discard(0, 2)
    pending = g.pending
    with rejected(g, mtgsim.InvalidAnswerError):
        g.answer(answer)
    assert g.pending == pending


def test_a_callback_that_changes_policies_and_then_raises_leaves_everything_unchanged():  # CR 733
    g = new_game()
    add_hand(g, 0, ["Island", "Swamp"])

    def fickle(game, decision):
        game.set_policy(0, "first")
        raise RuntimeError("changed my mind")

    g.set_policy(0, fickle)
    before = state(g)
    with pytest.raises(RuntimeError):
        g.discard(0, 1)
    assert g.policy(0) == "callback"
    assert_unchanged(g, before)
