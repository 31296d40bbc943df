"""The exception hierarchy (mtgsim.errors) and CR 733: a rejected action raises a documented
exception and leaves the game exactly as it was (zones, ids, life, counters, events, pending
decision, scripts, policies)."""

from __future__ import annotations

import json
import pickle

import re

import pytest

import mtgsim
import mtgsim.errors as errors
from conftest import add_hand, full_state, new_game, rejected, state

# The contract's hierarchy: class -> the classes it must derive from.
HIERARCHY = {
    "MtgsimError": (Exception,),
    "UnknownCardError": (errors.MtgsimError, LookupError),
    "InvalidPlayerError": (errors.MtgsimError, IndexError),
    "NoSuchObjectError": (errors.MtgsimError, LookupError),
    "WrongZoneError": (errors.MtgsimError, LookupError),
    "InvalidArgumentError": (errors.MtgsimError, ValueError),
    "IllegalActionError": (errors.MtgsimError,),
    "CannotPayError": (errors.IllegalActionError,),
    "DecisionPendingError": (errors.IllegalActionError,),
    "NoDecisionPendingError": (errors.IllegalActionError,),
    "GameOverError": (errors.IllegalActionError,),
    "PlayerLeftError": (errors.IllegalActionError,),
    "InvalidAnswerError": (errors.MtgsimError, ValueError),
    "UnscriptedDecisionError": (errors.MtgsimError,),
    "InvalidCardError": (errors.MtgsimError, ValueError),
    "SnapshotError": (errors.MtgsimError, ValueError),
}


@pytest.mark.parametrize("name", sorted(HIERARCHY))
def test_exception_hierarchy_matches_the_contract(name):  # python_api.md, GUIDE §3
    cls = getattr(errors, name)
    assert cls is getattr(mtgsim, name)  # re-exported at top level, same class
    assert name in errors.__all__
    for base in HIERARCHY[name]:
        assert issubclass(cls, base)
    assert issubclass(cls, errors.MtgsimError)


# ----- a populated position that every rejected call must leave untouched ---------------------


@pytest.fixture
def table():
    """Three players (seed 4, all manual). Player 2 has conceded; the game goes on."""
    g = new_game(3, seed=4)
    ids = {}
    ids["lib0"] = g.add_cards(0, "library", ["Island", "Swamp", "Grizzly Bears", "Lightning Bolt", "Mountain"])
    ids["lib1"] = g.add_cards(1, "library", ["Forest", "Plains"])
    ids["hand0"] = add_hand(g, 0, ["Counterspell", "Hill Giant", "Island"])
    ids["yard0"] = g.add_cards(0, "graveyard", ["Swamp"])
    ids["bf0"] = g.add_cards(0, "battlefield", ["Savannah Lions"])
    ids["exile"] = g.add_cards(1, "exile", ["Ornithopter"])
    g.add_counters(ids["bf0"][0], "+1/+1", 1)
    g.add_player_counters(1, "poison", 2)
    g.set_life(0, 17)
    drawn = g.draw(1)
    ids["stale"] = ids["lib1"][0]  # drawn: that library object no longer exists
    ids["hand1"] = drawn
    g.concede(2)
    g.script(1, [[drawn[0]]])
    assert not g.is_over and g.pending is None
    return g, ids


BAD_CALLS = [
    # (label, call, exception)
    ("unknown card name", lambda g, i: g.add_cards(0, "hand", ["Island", "Black Lotus"]), errors.UnknownCardError),
    ("unknown card in a batch is all or nothing", lambda g, i: g.add_cards(0, "library", ["Island", "Nope"]), errors.UnknownCardError),
    ("player index too high", lambda g, i: g.draw(3), errors.InvalidPlayerError),
    ("negative player index", lambda g, i: g.mill(-1, 1), errors.InvalidPlayerError),
    ("bad player in a list", lambda g, i: g.mill_each([0, 7], 1), errors.InvalidPlayerError),
    ("bad player for a zone", lambda g, i: g.hand(3), errors.InvalidPlayerError),
    ("bad player for a policy", lambda g, i: g.set_policy(5, "first"), errors.InvalidPlayerError),
    ("bad player for a script", lambda g, i: g.script(3, []), errors.InvalidPlayerError),
    ("bad chooser", lambda g, i: g.discard(0, 1, chooser=9), errors.InvalidPlayerError),
    ("bad library owner", lambda g, i: g.search(0, "card", library=3), errors.InvalidPlayerError),
    ("bad controller", lambda g, i: g.move(i["hand0"][0], "battlefield", controller=4), errors.InvalidPlayerError),
    ("bad active player", lambda g, i: setattr(g, "active_player", 3), errors.InvalidPlayerError),
    ("stale id moved", lambda g, i: g.move(i["stale"], "exile"), errors.NoSuchObjectError),
    ("stale id looked at", lambda g, i: g.object(i["stale"]), errors.NoSuchObjectError),
    ("stale id given counters", lambda g, i: g.add_counters(i["stale"], "charge"), errors.NoSuchObjectError),
    ("stale id revealed", lambda g, i: g.reveal(1, [i["stale"]]), errors.NoSuchObjectError),
    ("made-up id", lambda g, i: g.name(987654321), errors.NoSuchObjectError),
    ("negative id", lambda g, i: g.object(-1), errors.NoSuchObjectError),
    ("tapping a card in hand", lambda g, i: g.set_tapped(i["hand0"][0]), errors.WrongZoneError),
    ("tapping a card in a library", lambda g, i: g.set_tapped(i["lib0"][0], False), errors.WrongZoneError),
    ("negative draw", lambda g, i: g.draw(0, -1), errors.InvalidArgumentError),
    ("absurd draw", lambda g, i: g.draw(0, 10_000_000), errors.InvalidArgumentError),
    ("negative mill", lambda g, i: g.mill(0, -2), errors.InvalidArgumentError),
    ("absurd mill", lambda g, i: g.mill_opponents(0, 2_000_000), errors.InvalidArgumentError),
    ("negative mill cost", lambda g, i: g.pay_mill_cost(0, -1), errors.InvalidArgumentError),
    ("negative discard", lambda g, i: g.discard(0, -1), errors.InvalidArgumentError),
    ("negative scry", lambda g, i: g.scry(0, -3), errors.InvalidArgumentError),
    ("absurd life", lambda g, i: g.set_life(0, 10**7), errors.InvalidArgumentError),
    ("negative counters", lambda g, i: g.add_counters(i["bf0"][0], "+1/+1", -1), errors.InvalidArgumentError),
    ("absurd counters", lambda g, i: g.add_player_counters(0, "poison", 10**9), errors.InvalidArgumentError),
    ("empty counter name", lambda g, i: g.add_counters(i["bf0"][0], ""), errors.InvalidArgumentError),
    ("unknown zone", lambda g, i: g.add_cards(0, "sideboard", ["Island"]), errors.InvalidArgumentError),
    ("unknown zone to list", lambda g, i: g.zone("nowhere"), errors.InvalidArgumentError),
    ("unknown position", lambda g, i: g.add_cards(0, "library", ["Island"], position="middle"), errors.InvalidArgumentError),
    ("unknown move position", lambda g, i: g.move(i["hand0"][0], "library", position="third"), errors.InvalidArgumentError),
    ("unknown move zone", lambda g, i: g.move(i["hand0"][0], "moon"), errors.InvalidArgumentError),
    ("unreadable search", lambda g, i: g.search(0, "lands?"), errors.InvalidArgumentError),
    ("search for no cards", lambda g, i: g.search(0, "card", count=0), errors.InvalidArgumentError),
    ("unknown search destination", lambda g, i: g.search(0, "card", to="sideboard"), errors.InvalidArgumentError),
    ("tapped search into hand", lambda g, i: g.search(0, "card", tapped=True), errors.InvalidArgumentError),
    ("player listed twice", lambda g, i: g.mill_each([0, 1, 0], 1), errors.InvalidArgumentError),
    ("card revealed twice", lambda g, i: g.reveal(0, [i["hand0"][0], i["hand0"][0]]), errors.InvalidArgumentError),
    ("unknown policy", lambda g, i: g.set_policy(0, "smart"), errors.InvalidArgumentError),
    ("random discard with a chooser", lambda g, i: g.discard(0, 1, random=True, chooser=1), errors.InvalidArgumentError),
    ("negative batch", lambda g, i: g.run_batch([], -1), errors.InvalidArgumentError),
    ("card put onto the stack", lambda g, i: g.add_cards(0, "stack", ["Lightning Bolt"]), errors.IllegalActionError),
    ("card moved onto the stack", lambda g, i: g.move(i["hand0"][0], "stack"), errors.IllegalActionError),
    ("controller outside the battlefield", lambda g, i: g.move(i["hand0"][0], "graveyard", controller=1), errors.IllegalActionError),
    ("batch with a manual player", lambda g, i: g.run_batch([mtgsim.Op.mill(0, 1)], 2), errors.IllegalActionError),
    ("mill cost too large", lambda g, i: g.pay_mill_cost(1, 2), errors.CannotPayError),
    ("too many counters removed", lambda g, i: g.remove_counters(i["bf0"][0], "+1/+1", 2), errors.CannotPayError),
    ("too many poison removed", lambda g, i: g.remove_player_counters(1, "poison", 3), errors.CannotPayError),
    ("answer with nothing pending", lambda g, i: g.answer([i["hand0"][0]]), errors.NoDecisionPendingError),
    ("left player draws", lambda g, i: g.draw(2), errors.PlayerLeftError),
    ("left player's life", lambda g, i: g.set_life(2, 10), errors.PlayerLeftError),
    ("left player mills", lambda g, i: g.mill_each([0, 2], 1), errors.PlayerLeftError),
    ("left player concedes again", lambda g, i: g.concede(2), errors.PlayerLeftError),
    ("left player chooses", lambda g, i: g.discard(0, 1, chooser=2), errors.PlayerLeftError),
    ("left player takes control", lambda g, i: g.move(i["hand0"][0], "battlefield", controller=2), errors.PlayerLeftError),
    ("left player searches", lambda g, i: g.search(2, "card", library=0), errors.PlayerLeftError),
    ("unreadable script", lambda g, i: g.script(0, ["discard the bolt"]), errors.InvalidAnswerError),
]


@pytest.mark.parametrize("label,call,exc", BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
def test_a_rejected_call_raises_its_documented_error_and_changes_nothing(table, label, call, exc):  # CR 733
    g, ids = table
    with rejected(g, exc):
        call(g, ids)


def test_error_messages_name_what_was_wrong(table):
    g, ids = table
    with pytest.raises(errors.InvalidPlayerError, match="player 7"):
        g.draw(7)
    with pytest.raises(errors.UnknownCardError, match="Black Lotus"):
        g.add_cards(0, "hand", ["Black Lotus"])
    with pytest.raises(errors.InvalidArgumentError, match="-1"):
        g.draw(0, -1)
    with pytest.raises(errors.CannotPayError, match="701.17b"):
        g.pay_mill_cost(1, 5)
    with pytest.raises(errors.NoSuchObjectError, match=str(ids["stale"])):
        g.object(ids["stale"])
    with pytest.raises(errors.WrongZoneError, match="hand"):
        g.set_tapped(ids["hand0"][0])


def test_unknown_card_outside_a_game():
    with pytest.raises(errors.UnknownCardError):
        mtgsim.card("Black Lotus")
    assert mtgsim.card("Island").name == "Island"


@pytest.mark.parametrize("n", [0, 1, 17, -2])
def test_a_game_needs_two_to_sixteen_players(n):  # CR 100.1
    with pytest.raises(errors.InvalidArgumentError):
        mtgsim.Game(n)


def test_decision_pending_error_changes_nothing(table):  # CR 733, GUIDE §4
    g, ids = table
    g.discard(0, 1)  # player 0 is manual
    assert g.pending is not None
    for call in (lambda: g.draw(0), lambda: g.mill(1, 1), lambda: g.move(ids["hand1"][0], "graveyard")):
        with rejected(g, errors.DecisionPendingError):
            call()


def test_invalid_answer_error_changes_nothing(table):  # CR 733
    g, ids = table
    g.discard(0, 1)
    for bad in ([ids["hand1"][0]], ids["hand0"][:2], [], True):
        with rejected(g, errors.InvalidAnswerError):
            g.answer(bad)


def test_unscripted_decision_error_changes_nothing(table):  # CR 733, GUIDE §4
    g, ids = table
    g.strict = True
    with rejected(g, errors.UnscriptedDecisionError):
        g.scry(0, 2)


def test_game_over_error_changes_nothing(table):  # CR 104.2a, 733
    g, ids = table
    g.add_player_counters(1, "poison", 8)  # ten poison: player 1 loses, player 0 wins
    assert g.outcome["winners"] == [0]
    for call in (lambda: g.draw(0), lambda: g.scry(0, 1), lambda: g.reveal(0, ids["hand0"][:1]), lambda: g.set_life(0, 1)):
        with rejected(g, errors.GameOverError):
            call()


def test_snapshot_error_for_unreadable_saved_state(table):
    g, _ = table
    with pytest.raises(errors.SnapshotError):
        mtgsim.Game._load("this is not a saved game")
    with pytest.raises(errors.SnapshotError):
        mtgsim.Decision._from_json("{}")
    with pytest.raises(errors.SnapshotError):
        mtgsim.Op._from_json('{"op": "teleport"}')
    with pytest.raises(errors.SnapshotError):
        mtgsim.CardDef._from_json('{"name": "Half a card"}')


def test_snapshot_error_for_a_tampered_state(table):
    g, ids = table
    fn, (saved,) = g.__reduce__()
    data = json.loads(saved)
    # put the same card in two places at once: the loader's invariants must catch it
    data["players"][1]["hand"].append(data["players"][0]["library"][0])
    with pytest.raises(errors.SnapshotError):
        fn(json.dumps(data))
    blob = pickle.dumps(g).replace(b'"life":17', b'"life":1x')  # same length: a valid pickle of a broken state
    with pytest.raises(errors.SnapshotError):
        pickle.loads(blob)
    g.check_invariants()  # the original is fine


def test_snapshot_error_when_the_losers_and_the_players_who_lost_disagree():  # CR 800.4a (a player who lost has left)
    g = mtgsim.Game(3, 1)
    g.set_life(2, 0)  # player 2 loses; the other two play on
    fn, (saved,) = g.__reduce__()
    data = json.loads(saved)
    assert data["losers"] == [[2, "life"]] and data["players"][2]["lost"] == "life"
    fn(saved).check_invariants()
    for tamper in (
        lambda d: d["players"][2].update(lost=None),  # a loser still playing
        lambda d: d["players"][1].update(lost="poison"),  # a player who lost, not listed
        lambda d: d.update(losers=[[2, "poison"]]),  # another reason
        lambda d: d.update(losers=[[2, "life"], [2, "life"]]),  # listed twice
    ):
        broken = json.loads(saved)
        tamper(broken)
        with pytest.raises(errors.SnapshotError, match="losers"):
            fn(json.dumps(broken))


def test_every_reachable_exception_class_is_exercised():
    reached = {exc for _, _, exc in BAD_CALLS} | {
        errors.DecisionPendingError,
        errors.UnscriptedDecisionError,
        errors.GameOverError,
        errors.SnapshotError,
        errors.InvalidCardError,  # test_card_definitions_are_validated_field_by_field
        errors.MalformedCostError,
    }
    everything = {getattr(errors, n) for n in errors.__all__}
    # MtgsimError itself is only a base class.
    assert everything - reached == {errors.MtgsimError}


@pytest.mark.parametrize(
    "fields, exc, words",
    [
        (dict(name="Bad", mana_cost="{Q}", type_line="Instant"), errors.MalformedCostError, "{Q}"),  # CR 107.4
        (dict(name="Bad", mana_cost="2U", type_line="Instant"), errors.MalformedCostError, "braces"),
        (dict(name="Bad", mana_cost="{1}", type_line="Goblin"), errors.InvalidCardError, "type_line"),  # CR 205.2
        (dict(name="", mana_cost="{1}", type_line="Artifact"), errors.InvalidCardError, "name"),
        (dict(name="Bad", mana_cost="{1}{G}", type_line="Creature — Bear", power="2"), errors.InvalidCardError, "power"),
        # Printed values the engine can't read were accepted and played as 0 (CR 208.1, 209.1).
        (dict(name="Bad", mana_cost="{1}", type_line="Creature — Bear", power="abc", toughness="1"), errors.InvalidCardError, '"abc" is not a printed power'),
        (dict(name="Bad", mana_cost="{1}", type_line="Creature — Bear", power="1", toughness="1.5"), errors.InvalidCardError, '"1.5" is not a printed toughness'),
        (dict(name="Bad", mana_cost="{1}", type_line="Creature — Bear", power=str(10**20), toughness="1"), errors.InvalidCardError, "power"),
        (dict(name="Bad", mana_cost="{3}", type_line="Legendary Planeswalker — Jace", loyalty=str(10**20)), errors.InvalidCardError, "loyalty"),
        (dict(name="Bad", mana_cost="{3}", type_line="Legendary Planeswalker — Jace", loyalty="X"), errors.InvalidCardError, "loyalty"),
    ],
)
def test_card_definitions_are_validated_field_by_field(fields, exc, words):
    with pytest.raises(exc, match=re.escape(words)):
        mtgsim.CardDef(**fields)


def test_a_valid_card_definition_has_its_characteristics():  # CR 202.2, 202.3, 205
    c = mtgsim.CardDef("Test Drake", "{2}{U/R}", "Creature — Drake", "Flying", "2", "2")
    assert (c.mana_value, c.colors, c.types, c.subtypes, c.power) == (3, ["U", "R"], ["Creature"], ["Drake"], "2")


# ----- Python ints that don't fit (finding F3) ------------------------------------------------------


def test_an_absurd_count_beyond_64_bits_is_an_invalid_argument():  # contract: bad input -> mtgsim.errors
    g = new_game()
    g.add_cards(0, "library", ["Island"])
    before = state(g)
    with pytest.raises(errors.InvalidArgumentError):
        g.draw(0, 10**30)
    assert state(g) == before


def test_a_player_index_beyond_64_bits_is_an_invalid_player():  # contract: bad input -> mtgsim.errors
    g = new_game()
    with pytest.raises(errors.InvalidPlayerError):
        g.life(2**70)


def test_a_negative_seed_is_an_invalid_argument():  # contract: bad input -> mtgsim.errors
    with pytest.raises(errors.InvalidArgumentError):
        mtgsim.Game(2, seed=-1)


# ----- CR 733: an action that fails part-way is undone whole -------------------------------------
# A scripted answer is checked only when its decision comes up, which may be after the action has
# already passed priority, drawn, moved a card or milled; all of that is undone with it.


def _cleanup_discard_game() -> tuple[mtgsim.Game, list[int]]:
    """Player 0's first main phase (where a game starts) with nine cards in hand: the cleanup step will ask them to
    discard two (CR 514.1)."""
    g = new_game(2, seed=5, manual=False)
    for p in (0, 1):
        g.set_policy(p, "first")
        g.add_cards(p, "library", ["Island"] * 10)
    hand = g.add_cards(0, "hand", ["Island"] * 9)
    assert (g.turn, g.step, g.active_player) == (1, "precombat_main", 0)
    return g, hand


def test_next_turn_that_fails_at_cleanup_changes_nothing():  # CR 733, 514.1
    g, hand = _cleanup_discard_game()
    g.script(0, [7])  # a number where the cleanup discard wants cards
    with rejected(g, errors.InvalidAnswerError, match="discard"):
        g.next_turn()  # passes through combat, the second main phase and the end step first
    assert g.step == "precombat_main" and g.hand(0) == hand


def test_advance_to_that_fails_at_cleanup_changes_nothing():  # CR 733
    g, _ = _cleanup_discard_game()
    g.script(0, [True])
    with rejected(g, errors.InvalidAnswerError):
        g.advance_to("upkeep")


def test_a_correct_script_lets_the_same_turn_end():  # the tests above fail only for the bad answer
    g, hand = _cleanup_discard_game()
    g.script(0, [hand[:2]])
    g.next_turn()
    assert g.turn == 2 and sorted(g.graveyard(0)) != [] and len(g.hand(0)) == 7


def test_resolve_top_that_fails_part_way_changes_nothing():  # CR 733, 608.3, 603.3d
    # Bloodhusk Ritualist resolves and enters; then its enters trigger asks which of the two
    # opponents it targets, and the scripted answer is wrong.
    g = new_game(3, seed=2, manual=False)
    for p in range(3):
        g.set_policy(p, "first")
        g.add_cards(p, "library", ["Swamp"] * 10)
    g.add_cards(0, "battlefield", ["Swamp"] * 4)
    (ritualist,) = g.add_cards(0, "hand", ["Bloodhusk Ritualist"])
    g.cast(ritualist, kick=1)
    g.script(0, [True])
    with rejected(g, errors.InvalidAnswerError, match="target"):
        g.resolve_top()
    assert [g.name(i) for i in g.stack()] == ["Bloodhusk Ritualist"]


def test_move_whose_trigger_fails_changes_nothing():  # CR 733, 603.3d
    g = new_game(3, seed=2, manual=False)
    for p in range(3):
        g.set_policy(p, "first")
    (ritualist,) = g.add_cards(0, "hand", ["Bloodhusk Ritualist"])
    g.script(0, [[ritualist]])  # a card, where the trigger asks which opponent to target
    with rejected(g, errors.InvalidAnswerError):
        g.move(ritualist, "battlefield")
    assert g.zone("hand", 0) == [ritualist]


def _legend_rule_waiting() -> mtgsim.Game:
    """Two Sidisis under player 0's control, put there by setup (which checks nothing): the
    next check of state-based actions asks which one to keep (CR 704.5j)."""
    g = new_game(2, seed=3, manual=False)
    for p in (0, 1):
        g.set_policy(p, "first")
        g.add_cards(p, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Sidisi, Brood Tyrant"] * 2)
    assert g.pending is None
    return g


@pytest.mark.parametrize(
    "action",
    [lambda g: g.draw(0, 2), lambda g: g.mill(1, 3), lambda g: g.mill_opponents(0, 3), lambda g: g.pay_mill_cost(0, 2)],
    ids=["draw", "mill", "mill_opponents", "pay_mill_cost"],
)
def test_an_action_whose_legend_rule_answer_fails_changes_nothing(action):  # CR 733, 704.5j
    g = _legend_rule_waiting()
    g.script(0, [True])  # a yes where the legend rule wants the card to keep
    with rejected(g, errors.InvalidAnswerError, match="legend rule"):
        action(g)


def test_activate_mana_whose_legend_rule_answer_fails_changes_nothing():  # CR 733, 605.3a
    g = _legend_rule_waiting()
    (island,) = g.add_cards(0, "battlefield", ["Island"])
    g.script(0, [True])
    with rejected(g, errors.InvalidAnswerError, match="legend rule"):
        g.activate_mana(island)
    assert not g.object(island).tapped and sum(g.mana_pool(0).values()) == 0


def test_play_land_whose_trigger_order_fails_changes_nothing():  # CR 733, 603.3b
    g = new_game(2, seed=3, manual=False)
    for p in (0, 1):
        g.set_policy(p, "first")
        g.add_cards(p, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Ruin Crab"] * 2)
    (land,) = g.add_cards(0, "hand", ["Island"])
    g.script(0, [True])  # a yes where the two landfall triggers want an order
    with rejected(g, errors.InvalidAnswerError, match="orders"):
        g.play_land(land)
    assert g.hand(0) == [land]


def test_a_rejected_cast_leaves_the_random_players_generator_as_it_was():  # CR 733, GUIDE §3
    # The random policy picks Lightning Bolt's target from its own generator; then the {R} can't
    # be paid. The pick is undone with the cast, or the rest of the game would depend on it.
    g = new_game(2, seed=1, manual=False)
    for p in (0, 1):
        g.set_policy(p, "random")
    g.add_cards(1, "battlefield", ["Savannah Lions"])
    (bolt,) = g.add_cards(0, "hand", ["Lightning Bolt"])
    before = full_state(g)
    with rejected(g, errors.CannotPayError):
        g.cast(bolt)
    assert full_state(g) == before


def test_pass_priority_that_fails_part_way_changes_nothing():  # CR 733, 117.4, 514.1
    # Player 1's pass ends the end step; in the cleanup step player 0's scripted discard is
    # wrong. The pass is undone with the rest: player 1 has priority again, one pass made.
    g, _ = _cleanup_discard_game()
    g.advance_to("end")
    g.pass_priority()  # player 0
    g.script(0, [7])
    before = full_state(g)
    with rejected(g, errors.InvalidAnswerError, match="discard"):
        g.pass_priority()  # player 1
    assert full_state(g) == before and g.priority_player == 1


# ----- choices a spell or ability doesn't offer are refused, not dropped (CR 601.2, 602.2, 733) --------


@pytest.fixture
def caster():
    g = new_game(2)
    g.add_cards(0, "library", ["Island"] * 5)
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Forest"] * 3 + ["Island"] * 3 + ["Plains"] + ["Mountain"] * 2)
    ids = {}
    ids["joint"], ids["necra"], ids["wraith"], ids["bolt"], ids["windfall"], ids["spare"] = add_hand(
        g, 0, ["Joint Exploration", "Necravolver", "Street Wraith", "Lightning Bolt", "Unexpected Windfall", "Island"]
    )
    return g, ids


KICKS_AND_CHOICES = [
    ("a kicker paid twice", lambda g, i: g.cast(i["joint"], kick=2), "at most once"),
    ("a kicker paid twice, priced", lambda g, i: g.cost_of(i["joint"], kick=2), "at most once"),
    ("the second kicker paid twice, priced", lambda g, i: g.cost_of(i["necra"], kick=[0, 2]), "kicker 1 can be paid at most once"),
    ("modes for a spell without modes", lambda g, i: g.cast(i["joint"], modes=[0]), "no modes"),
    ("X for a spell without X, priced", lambda g, i: g.cost_of(i["bolt"], x=3), "no X"),
    ("a negative mode", lambda g, i: g.cast(i["joint"], modes=[-1]), "mode -1"),
    ("a sticker without sticker kicker", lambda g, i: g.cast(i["joint"], sticker=True), "702.33h"),
    ("a discard for a spell without that cost", lambda g, i: g.cast(i["bolt"], targets=[{"player": 1}], discard=i["spare"]), "no additional cost to discard"),
    ("a discard for an ability without that cost", lambda g, i: g.activate(i["wraith"], 0, discard=i["spare"]), "no cost to discard"),
    ("a sacrifice for an ability without that cost", lambda g, i: g.activate(i["wraith"], 0, sacrifice=g.battlefield()[0]), "no cost to sacrifice"),
]


@pytest.mark.parametrize("label,call,message", KICKS_AND_CHOICES, ids=[c[0] for c in KICKS_AND_CHOICES])
def test_a_choice_the_spell_or_ability_does_not_offer_is_refused(caster, label, call, message):  # CR 601.2, 602.2, 702.33c, 733
    g, ids = caster
    with rejected(g, errors.InvalidArgumentError):
        call(g, ids)
    with pytest.raises(errors.InvalidArgumentError, match=message):
        call(g, ids)


def test_a_wrong_player_in_a_target_names_this_games_players(caster):  # CR 733
    g, ids = caster
    for bad in ({"player": -1}, ("player", 2**40)):
        with rejected(g, errors.InvalidPlayerError):
            g.cast(ids["bolt"], targets=[bad])
        with pytest.raises(errors.InvalidPlayerError, match="numbered 0 to 1"):
            g.cast(ids["bolt"], targets=[bad])
    g.cast(ids["bolt"])
    assert g.pending.kind == "targets"
    with pytest.raises(errors.InvalidPlayerError, match="numbered 0 to 1"):
        g.answer([{"player": -5}])
    with pytest.raises(errors.InvalidAnswerError, match="player 5"):
        g.answer([{"player": 5}])  # a number a player could have: not a legal target here


def test_a_negative_number_in_an_answer_is_named_as_given():
    g = new_game(2)
    g.add_cards(0, "battlefield", ["Island"] * 6)
    (spree,) = add_hand(g, 0, ["Smuggler's Surprise"])
    g.add_cards(0, "library", ["Island"] * 10)
    g.cast(spree)
    assert g.pending.kind == "modes"
    with rejected(g, errors.InvalidAnswerError):
        g.answer([-1])
    with pytest.raises(errors.InvalidAnswerError, match="got -1"):
        g.answer([-1])


def test_cost_of_counts_an_additional_discard_cost(caster):  # CR 601.2f, 601.2b
    g, ids = caster
    cost, payable = g.cost_of(ids["windfall"])
    assert payable  # Island is a card to discard
    for c in (ids["joint"], ids["necra"], ids["wraith"], ids["bolt"], ids["spare"]):
        g.move(c, "graveyard")
    cost2, payable2 = g.cost_of(ids["windfall"])
    assert cost2 == cost and not payable2
    assert {"action": "cast", "card": ids["windfall"]} not in g.priority_actions()


@pytest.mark.parametrize(("deck", "match"), [("Island", "deck 1 is a string"), (7, "deck 1 must be a list of card names"), ([1, 2], "deck 1 must be a list of card names")])
def test_a_deck_that_is_not_a_list_of_names_is_a_clear_error(deck, match):
    with pytest.raises(errors.InvalidArgumentError, match=match):
        mtgsim.Game.from_decks([["Island"] * 10, deck])


def test_cost_of_prices_only_what_could_be_cast_from_where_it_is(caster):  # CR 601.2a, 305.9, 733
    # Before, an Everflowing Chalice on the battlefield or a card in the library got a price.
    g, ids = caster
    (chalice,) = g.add_cards(0, "battlefield", ["Everflowing Chalice"])
    (buried,) = g.add_cards(0, "library", ["Lightning Bolt"])
    for card, where in ((chalice, "battlefield"), (buried, "library"), (ids["spare"], "a land")):
        with rejected(g, errors.IllegalActionError, match="land" if where == "a land" else where):
            g.cost_of(card)
    assert g.cost_of(ids["bolt"]) == ("{R}", True)


@pytest.mark.parametrize("call", [lambda g: g.object(-1), lambda g: g.cast(-1), lambda g: g.move(-1, "exile")])
def test_a_negative_object_id_is_named_as_given(call):  # CR 400.7; the message quotes the id the caller passed
    g = new_game()
    with rejected(g, errors.NoSuchObjectError):
        call(g)
    with pytest.raises(errors.NoSuchObjectError, match="no object with id -1 exists"):
        call(g)


@pytest.mark.parametrize(("power", "toughness"), [("-1", "2"), ("*", "*"), ("1+*", "*+1"), ("0", "0")])
def test_printed_power_and_toughness_forms_real_cards_use_are_accepted(power, toughness):  # CR 208.1, 208.2
    card = mtgsim.CardDef("Odd Bear", "{1}", "Creature — Bear", "", power, toughness)
    assert (card.power, card.toughness) == (power, toughness)


def test_a_player_who_left_can_neither_be_made_active_nor_be_given_cards():  # CR 800.4a
    g = new_game(3)
    g.concede(1)
    with rejected(g, errors.PlayerLeftError):
        g.active_player = 1
    for zone in ("battlefield", "hand", "library"):
        with rejected(g, errors.PlayerLeftError):
            g.add_cards(1, zone, ["Grizzly Bears"])
    g.active_player = 2  # a player still in the game can be
    assert g.active_player == 2


def test_a_game_batch_refuses_a_string_for_a_deck():
    with pytest.raises(errors.InvalidArgumentError, match="deck 1 is a string"):
        mtgsim.GameBatch([["Island"] * 40, "Island"], 2)


@pytest.mark.parametrize(
    ("answer", "words"),
    [(([0], 4), "the bottom is 4, not a list"), ((4, [0]), "the top is 4, not a list"), ([[0], [1], []], "(a scry answer is a pair of lists: (top, bottom))")],
)
def test_a_scry_answer_of_the_wrong_shape_says_what_shape_it_needs(answer, words):  # CR 701.22a
    g = new_game()
    g.add_cards(0, "library", ["Island"] * 5)
    g.scry(0, 2)
    with rejected(g, errors.InvalidAnswerError):
        g.answer(answer)
    with pytest.raises(errors.InvalidAnswerError, match=re.escape(words)):
        g.answer(answer)


def test_an_action_code_beyond_64_bits_is_an_invalid_argument():  # contract: bad input -> mtgsim.errors
    g = mtgsim.Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=1)
    space = g.action_space()
    for code in (-1, space.size, 2**64 - 1, 2**80):
        with pytest.raises(errors.InvalidArgumentError, match="out of range"):
            space.decode(code, g)


# ----- numbers in card rules and costs stay in range (they wrapped around) -------------------------


def _card(name: str, type_line: str, rules: dict, mana_cost: str = "{0}") -> dict:
    return {"name": name, "mana_cost": mana_cost, "type_line": type_line, "rules": rules}


@pytest.mark.parametrize(
    "rules, field",
    [
        # 4294967295 damage healed 1; gaining as much lost 1 (CR 120.3a, 119.3).
        ({"targets": [{"kind": "any"}], "spell": [{"damage": {"target": 0, "amount": 2**32 - 1}}]}, "rules.spell[0].damage.amount"),
        ({"spell": [{"gain_life": {"amount": 2**32 - 1}}]}, "rules.spell[0].gain_life.amount"),
        ({"spell": [{"lose_life": {"who": "each_opponent", "amount": 10**6 + 1}}]}, "rules.spell[0].lose_life.amount"),
        # Two "cost {2**31} more" made a spell cost nothing more (CR 601.2f).
        ({"static": [{"cost_increase": {"filter": "card", "amount": 2**31}}]}, "rules.static[0].cost_increase.amount"),
        ({"spell": [{"pump": {"power": -(2**31)}}]}, "rules.spell[0].pump.power"),
        ({"spell": [{"mill": {"who": "you", "count": -1}}]}, "rules.spell[0].mill.count"),
        ({"spell": [{"create_token": {"token": "Treasure", "count": 2**20}}]}, "rules.spell[0].create_token.count"),
        ({"targets": [{"kind": "creature", "count": 2**31}], "spell": []}, "rules.targets[0].count"),
    ],
)
def test_numbers_in_card_rules_are_refused_out_of_range_as_they_load(rules, field):  # bad input -> InvalidCardError naming the field
    db = mtgsim.CardDB()
    with pytest.raises(errors.InvalidCardError, match=re.escape(field) + ".*out of range"):
        db.add([_card("Huge", "Sorcery" if "static" not in rules else "Artifact", rules)])
    assert "Huge" not in db


def test_numbers_in_card_rules_up_to_a_million_and_numbers_read_from_the_game_load():
    db = mtgsim.CardDB()
    db.add([
        _card("Big Gift", "Sorcery", {"spell": [{"gain_life": {"amount": 10**6}}]}),
        _card("X Gift", "Sorcery", {"spell": [{"gain_life": {"amount": "x"}}]}, "{X}"),
        _card("Shrink", "Sorcery", {"spell": [{"pump": {"power": -(10**6)}}]}),
    ])
    g = mtgsim.Game(2, seed=1, db=db)
    for p in (0, 1):
        g.set_policy(p, "first")
        g.add_cards(p, "library", ["Island"] * 5)
    (gift,) = g.add_cards(0, "hand", ["Big Gift"])
    g.cast(gift)
    g.resolve_top()
    assert g.life(0) == 20 + 10**6


def test_x_beyond_a_million_is_refused_and_a_cost_never_wraps():  # CR 601.2f, 107.3
    db = mtgsim.CardDB()
    db.add([
        _card("Double X", "Sorcery", {"spell": [{"mill": {"who": "each_opponent", "count": "x"}}]}, "{X}{X}"),
        _card("Tax", "Artifact", {"static": [{"cost_increase": {"filter": "card", "amount": 10**6}}]}),
    ])
    g = mtgsim.Game(2, seed=1, db=db)
    for p in (0, 1):
        g.set_policy(p, "first")
        g.add_cards(p, "library", ["Island"] * 30)
    (c,) = g.add_cards(0, "hand", ["Double X"])
    g.add_cards(0, "battlefield", ["Island"] * 6)
    assert g.cost_of(c, x=10**6) == ("{2000000}", False)
    with rejected(g, errors.InvalidArgumentError, match="X of 2147483651 is out of range"):
        g.cost_of(c, x=2**31 + 3)
    with rejected(g, errors.InvalidArgumentError, match="out of range"):
        g.cast(c, x=2**31 + 3)  # it was cast for six Islands: 2 * X wrapped to 6
    # Thousands of cost increases add up to more than 32 bits: the cost stays unpayable.
    (bolt,) = g.add_cards(0, "hand", ["Lightning Bolt"])
    g.add_cards(0, "battlefield", ["Tax"] * 4300)
    assert g.cost_of(bolt) == ("{4294967295}{R}", False)


def test_a_mana_cost_number_is_digits_only_and_at_most_a_million_and_snow_is_refused():  # CR 107.4, 107.4h, 202.1
    for cost, words in [("{+1}", "not a color"), ("{+0}{U}", "not a color"), ("{1000001}", "absurdly large"), ("{4294967296}", "absurdly large"), ("{01}", "leading zero"), ("{S}{U}", "snow mana, CR 107.4h")]:
        with pytest.raises(errors.MalformedCostError, match=re.escape(words)):
            mtgsim.CardDef("Bad", cost, "Instant")
    assert mtgsim.CardDef("Big", "{1000000}", "Instant").mana_value == 10**6


def test_the_mana_value_of_a_cost_with_thousands_of_symbols_saturates():  # CR 202.3
    big = mtgsim.CardDef("Big", "{1000000}" * 4295, "Instant")  # 4.295e9 in all: past 32 bits
    assert big.mana_value == 2**32 - 1  # it wrapped to 32704
