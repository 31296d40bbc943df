"""CR 614-616 replacement effects from static abilities of permanents, with 701.9c, 701.17b
and 121.4:

* mill counts (614.1a): Bruvac the Grandiloquent ("twice that many") and The Water Crystal
  ("that many plus four") change only what an opponent of their controller mills, and only
  when one or more cards would be milled; with both, the milling player orders them (616.1);
* graveyard redirection (614.1a): Rest in Peace (anything, anyone's graveyard), Leyline of the
  Void (cards bound for an opponent's graveyard), Abandoned Sarcophagus (its controller's cards
  with cycling that weren't cycled) and its permission to cast cyclers from the graveyard;
* draws from an empty library replaced by a win (Laboratory Maniac; Jace, Wielder of Mysteries);
* Library of Leng: a discard caused by an effect may go on top of the library (701.9c), and no
  maximum hand size (402.2, 514.1); the CR 701.9c cost rule through a variant that applies to
  costs;
* "as enters" / "enters with" replacements (614.1c) of Monstrous War-Leech, Everflowing
  Chalice and Joraga Warcaller (corners not in test_cr702_33_kicker.py).

Every game is on the manual policy (conftest.new_game): a decision nobody planned shows up as
``pending``. Engine behaviour that contradicts the rules is pinned with strict xfails and
reproduced in /work/notes/findings_replacement.md (R-numbers)."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import add_hand, full_state, kinds, names, new_game, redefine, untouched, with_libraries

# ======================================================================================================
# Mill count replacements: Bruvac the Grandiloquent, The Water Crystal (CR 614.1a, 616.1, 701.17b)
# ======================================================================================================


def mill_game(n_players: int = 2, permanents: tuple[str, ...] = ("Bruvac the Grandiloquent",), *, library: int = 40, controller: int = 0):
    """Player ``controller`` controls ``permanents`` (returned in order); every player has
    ``library`` Islands."""
    g = new_game(n_players)
    for p in range(n_players):
        g.add_cards(p, "library", ["Island"] * library)
    ids = g.add_cards(controller, "battlefield", list(permanents))
    return g, ids


def milled_events(g):
    return [(e["player"], len(e["cards"])) for e in g.events if e["kind"] == "milled"]


@pytest.mark.parametrize("n", [1, 3, 7])
def test_bruvac_makes_an_opponent_mill_twice_that_many(n):  # CR 614.1a
    g, _ = mill_game()
    g.strict = True  # one replacement: nothing to order, nothing asked
    lib = g.library(1)
    g.clear_events()
    milled = g.mill(1, n)
    assert len(milled) == 2 * n
    assert g.library(1) == lib[2 * n :] and g.graveyard(1) == milled[::-1]  # former top card lowest
    assert g.events == [{"kind": "milled", "player": 1, "cards": milled}]


@pytest.mark.parametrize("n", [1, 3, 7])
def test_the_water_crystal_makes_an_opponent_mill_that_many_plus_four(n):  # CR 614.1a
    g, _ = mill_game(permanents=("The Water Crystal",))
    g.strict = True
    milled = g.mill(1, n)
    assert len(milled) == n + 4 and len(g.library(1)) == 40 - n - 4
    assert milled_events(g) == [(1, n + 4)]


@pytest.mark.parametrize("card", ["Bruvac the Grandiloquent", "The Water Crystal"])
def test_mill_replacements_do_not_touch_their_controller(card):  # CR 614.1a ("If an opponent would mill")
    g, _ = mill_game(permanents=(card,))
    g.strict = True
    assert len(g.mill(0, 3)) == 3
    assert (len(g.library(0)), len(g.graveyard(0))) == (37, 3)


@pytest.mark.parametrize("card", ["Bruvac the Grandiloquent", "The Water Crystal"])
@pytest.mark.parametrize("zone", ["hand", "graveyard", "exile"])
def test_mill_replacements_work_only_from_the_battlefield(card, zone):  # CR 113.6, 614.1a
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, zone, [card])
    g.strict = True
    assert len(g.mill(1, 2)) == 2


def test_glimpse_the_unthinkable_doubled_by_bruvac_mills_twenty():  # CR 614.1a, 608.2c
    g, _ = mill_game()
    g.add_cards(0, "battlefield", ["Island", "Swamp"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    g.strict = True
    g.cast(glimpse, targets=[{"player": 1}])
    g.clear_events()
    g.resolve_top()
    assert milled_events(g) == [(1, 20)] and len(g.library(1)) == 20
    assert names(g, g.graveyard(0)) == ["Glimpse the Unthinkable"]


def test_glimpse_the_unthinkable_on_yourself_is_not_doubled_by_your_own_bruvac():  # CR 614.1a
    g, _ = mill_game()
    g.add_cards(0, "battlefield", ["Island", "Swamp"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    g.strict = True
    g.cast(glimpse, targets=[{"player": 0}])
    g.resolve_top()
    assert milled_events(g) == [(0, 10)] and len(g.library(0)) == 30 and len(g.library(1)) == 40


@pytest.mark.parametrize("card", ["Bruvac the Grandiloquent", "The Water Crystal"])
def test_milling_zero_cards_is_not_replaced(card):  # CR 614.1a ("one or more cards"), 614.7
    g, _ = mill_game(permanents=(card,))
    g.strict = True
    g.clear_events()
    assert g.mill(1, 0) == []
    assert g.events == [] and len(g.library(1)) == 40


def test_both_replacements_and_a_zero_mill_ask_nothing_even_of_a_manual_player():  # CR 614.7, 616.1
    g, _ = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"))
    g.clear_events()
    assert g.mill(1, 0) == [] and g.pending is None and g.events == []


@pytest.mark.parametrize(("hand", "milled"), [(0, 0), (1, 5), (3, 7)])
def test_the_water_crystal_activation_mills_hand_size_plus_four_but_nothing_for_an_empty_hand(hand, milled):  # CR 614.1a, 614.7
    g, (crystal,) = mill_game(permanents=("The Water Crystal",))
    g.add_cards(0, "battlefield", ["Island"] * 6)
    add_hand(g, 0, ["Swamp"] * hand)
    g.strict = True
    ab = g.activate(crystal, 0)  # {4}{U}{U}, {T}: each opponent mills cards equal to your hand size
    assert g.object(crystal).tapped and g.stack() == [ab]
    g.clear_events()
    g.resolve_top()
    assert len(g.library(1)) == 40 - milled
    assert milled_events(g) == ([(1, milled)] if milled else [])


# ----- CR 616.1: both replacements, the milling player chooses the order -----------------------------------


@pytest.mark.parametrize(("first", "count"), [("Bruvac the Grandiloquent", 24), ("The Water Crystal", 28)])
def test_the_milling_player_orders_bruvac_and_the_water_crystal(first, count):  # CR 616.1, 616.1e-f
    g, (bruvac, crystal) = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"))
    g.add_cards(0, "battlefield", ["Island", "Swamp"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    g.cast(glimpse, targets=[{"player": 1}])
    assert g.resolve_top() is None
    d = g.pending
    # The affected player chooses (player 1), not the controller of the spell and permanents.
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (1, "order", "order_replacements", 2, 2)
    assert sorted(d.options) == sorted([bruvac, crystal])
    assert len(g.library(1)) == 40 and g.stack() != []  # nothing milled yet
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer([bruvac])  # every replacement must be placed
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer([bruvac, bruvac])
    order = [bruvac, crystal] if first.startswith("Bruvac") else [crystal, bruvac]
    g.clear_events()
    g.answer(order)  # 10 x 2 + 4 = 24, or (10 + 4) x 2 = 28
    assert g.pending is None and g.stack() == []
    assert milled_events(g) == [(1, count)]
    assert len(g.library(1)) == 40 - count and len(g.graveyard(1)) == count
    assert g.events[-1]["kind"] == "resolved"


def test_each_opponent_orders_for_themselves_in_apnap_order():  # CR 616.1 (APNAP), 101.4, 701.17a
    g, (bruvac, crystal) = mill_game(3, ("Bruvac the Grandiloquent", "The Water Crystal"))
    g.add_cards(0, "battlefield", ["Island"] * 3)
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.cast(fs)  # each opponent mills fourteen
    g.resolve_top()
    assert (g.pending.player, g.pending.purpose) == (1, "order_replacements")
    g.answer([bruvac, crystal])  # 14 x 2 + 4 = 32
    assert (g.pending.player, g.pending.purpose) == (2, "order_replacements")
    assert len(g.library(1)) == 40  # the players mill at the same time, after both chose
    g.answer([crystal, bruvac])  # (14 + 4) x 2 = 36
    assert g.pending is None
    assert milled_events(g) == [(1, 32), (2, 36)]
    assert [len(g.library(p)) for p in range(3)] == [40, 8, 4]


def test_two_bruvacs_quadruple_and_their_order_is_not_asked():  # CR 616.1 (order can't matter), 614.1a
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 45)
    g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent", "Island", "Swamp"])
    g.add_cards(2, "battlefield", ["Bruvac the Grandiloquent"])  # legendary: two controllers
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    g.strict = True
    g.cast(glimpse, targets=[{"player": 1}])
    g.resolve_top()
    assert milled_events(g) == [(1, 40)]
    # Each Bruvac's controller mills past only the other one.
    assert (len(g.mill(0, 3)), len(g.mill(2, 3))) == (6, 6)


def test_two_water_crystals_add_eight_without_a_question():  # CR 616.1, 614.1a
    g = new_game(3)
    g.add_cards(1, "library", ["Island"] * 20)
    g.add_cards(0, "battlefield", ["The Water Crystal"])
    g.add_cards(2, "battlefield", ["The Water Crystal"])
    g.strict = True
    assert len(g.mill(1, 1)) == 9


def test_a_replaced_mill_still_mills_only_as_many_as_possible():  # CR 701.17b, 614.1a
    g, (bruvac, crystal) = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"), library=15)
    g.add_cards(0, "battlefield", ["Island", "Swamp"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    g.cast(glimpse, targets=[{"player": 1}])
    g.resolve_top()
    g.answer([crystal, bruvac])  # 28 asked for, 15 there
    assert g.library(1) == [] and len(g.graveyard(1)) == 15
    assert milled_events(g) == [(1, 15)]
    assert not g.is_over  # milling out is no draw from an empty library (CR 704.5b)


# ----- Game.mill: the order comes from the script or the policy -----------------------------------------------


@pytest.mark.parametrize(("order", "count"), [((0, 1), 10), ((1, 0), 14)])
def test_game_mill_takes_the_order_from_the_script(order, count):  # CR 616.1; Game.script docs
    g, perms = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"))
    g.strict = True
    g.script(1, [[perms[i] for i in order]])
    assert len(g.mill(1, 3)) == count  # 3 x 2 + 4, or (3 + 4) x 2
    assert g.script_len(1) == 0 and g.pending is None
    assert milled_events(g) == [(1, count)]


@pytest.mark.parametrize("policy", ["first", "random", "goldfish"])
def test_game_mill_asks_a_built_in_policy(policy):  # CR 616.1; Game.set_policy docs
    g, _ = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"))
    g.set_policy(1, policy)
    n = len(g.mill(1, 3))
    assert n in (10, 14) and g.pending is None and len(g.library(1)) == 40 - n
    if policy == "first":
        assert n == 10  # options are listed in timestamp order: Bruvac first


def test_game_mill_with_a_manual_player_who_must_order_stops_at_the_decision():  # CR 616.1, GUIDE §4
    g, _ = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"))
    assert g.mill(1, 3) is None  # stopped: nothing milled yet
    d = g.pending
    assert (d.player, d.kind, d.purpose) == (1, "order", "order_replacements") and len(g.library(1)) == 40
    bruvac, crystal = d.options
    milled = g.answer([crystal, bruvac])  # (3 + 4) x 2
    assert milled is not None and len(milled) == 14 and len(g.library(1)) == 26


def test_game_mill_in_strict_mode_without_a_script_raises_and_changes_nothing():  # CR 616.1, 733; Game.strict docs
    g, _ = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"))
    g.strict = True
    with untouched(g, mtgsim.UnscriptedDecisionError):
        g.mill(1, 3)


def test_game_mill_asks_a_callback_policy():  # CR 616.1; Game.set_policy docs (callbacks)
    g, (bruvac, crystal) = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"))
    asked = []
    g.set_policy(1, lambda game, d: asked.append(d.purpose) or [crystal, bruvac])
    assert len(g.mill(1, 3)) == 14
    assert asked == ["order_replacements"]


def test_game_mill_with_an_invalid_scripted_order_changes_nothing():  # CR 733; Game.answer docs
    g, (bruvac, _) = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"))
    g.script(1, [[bruvac]])
    with untouched(g, mtgsim.InvalidAnswerError):
        g.mill(1, 3)
    assert g.script_len(1) == 1


def test_mill_each_uses_one_players_script_and_stops_for_the_manual_player():  # CR 616.1, GUIDE §4
    g, (bruvac, crystal) = mill_game(3, ("Bruvac the Grandiloquent", "The Water Crystal"))
    g.script(1, [[crystal, bruvac]])
    assert g.mill_each([1, 2], 3) is None  # player 2 is manual: stopped at their order
    assert g.script_len(1) == 0 and (g.pending.player, g.pending.purpose) == (2, "order_replacements")
    assert len(g.library(1)) == len(g.library(2)) == 40  # nobody has milled yet (simultaneous)
    g.answer([bruvac, crystal])  # player 2: 3 x 2 + 4 = 10
    assert (len(g.library(1)), len(g.library(2))) == (40 - 14, 40 - 10)


def test_an_empty_library_mills_nothing_and_no_order_is_asked():  # CR 701.17b, 614.7 ("would mill one or more cards")
    g, _ = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"), library=0)
    g.clear_events()
    assert g.mill(1, 3) == []
    assert g.events == [] and not g.is_over


# ======================================================================================================
# Graveyard redirection: Rest in Peace, Leyline of the Void, Abandoned Sarcophagus (CR 614.1a, 614.6)
# ======================================================================================================


@pytest.mark.parametrize("controller", [0, 1])
def test_rest_in_peace_exiles_milled_cards_and_they_were_still_milled(controller):  # CR 614.1a, 614.6, 701.17c
    g = new_game(strict=True)
    lib = g.add_cards(0, "library", ["Island", "Swamp", "Plains"])
    g.add_cards(controller, "battlefield", ["Rest in Peace"])
    g.clear_events()
    milled = g.mill(0, 2)
    assert names(g, milled) == ["Island", "Swamp"]
    assert g.graveyard(0) == [] and g.exile() == milled and g.library(0) == lib[2:]
    assert all(g.object(m).zone == "exile" for m in milled)
    assert g.events == [{"kind": "milled", "player": 0, "cards": milled}]


@pytest.mark.parametrize("controller", [0, 1])
def test_rest_in_peace_exiles_a_discarded_card(controller):  # CR 614.1a, 701.9a
    g = new_game(strict=True)
    g.add_cards(controller, "battlefield", ["Rest in Peace"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    g.clear_events()
    (gone,) = g.discard(0, 1)
    assert g.exile() == [gone] and g.graveyard(0) == [] and g.hand(0) == []
    assert g.events == [{"kind": "discarded", "player": 0, "card": gone, "by": 0, "random": False}]


def test_rest_in_peace_exiles_a_resolved_instant_and_the_creature_it_killed():  # CR 608.2n, 704.5g, 614.1a
    g = with_libraries(new_game(), 5)
    g.add_cards(1, "battlefield", ["Rest in Peace"])
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[bears])
    g.clear_events()
    g.resolve_top()
    assert names(g, g.exile()) == ["Lightning Bolt", "Grizzly Bears"]
    assert g.graveyard(0) == [] and g.graveyard(1) == [] and bears not in g.battlefield()
    resolved = next(e for e in g.events if e["kind"] == "resolved")
    assert resolved["card"] == g.exile()[0]  # the card the spell became, in exile


def test_a_creature_killed_by_a_state_based_action_under_rest_in_peace_does_not_die():  # CR 700.4, 614.6, 704.5g
    g = with_libraries(new_game(), 5)
    g.add_cards(1, "battlefield", ["Rest in Peace"])
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[bears])
    g.clear_events()
    g.resolve_top()
    exiled = g.exile()[1]
    assert "died" not in kinds(g.events)
    assert {"kind": "moved", "card": exiled, "from_id": bears, "from": {"kind": "battlefield", "player": 1}, "to": {"kind": "exile", "player": 1}} in g.events


def test_rest_in_peace_exiles_a_countered_spell_and_the_counterspell():  # CR 701.6a, 608.2n, 614.1a
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Rest in Peace", "Mountain"])
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    (cs,) = add_hand(g, 1, ["Counterspell"])
    spell = g.cast(bolt, targets=[{"player": 1}])
    g.pass_priority()
    g.cast(cs, targets=[spell])
    g.resolve_top()
    assert g.stack() == [] and g.life(1) == 20
    assert sorted(names(g, g.exile())) == ["Counterspell", "Lightning Bolt"]
    assert g.graveyard(0) == [] and g.graveyard(1) == []


@pytest.mark.parametrize(("permanent", "controller", "died"), [(None, 0, True), ("Rest in Peace", 1, False), ("Leyline of the Void", 1, True)])
def test_a_sacrificed_token_is_exiled_by_rest_in_peace_but_not_by_leyline(permanent, controller, died):  # CR 111.1, 111.7, 614.1a, 700.4
    # Leyline of the Void says "a card"; a token isn't a card, so it goes to the graveyard (it
    # dies) and then ceases to exist. Rest in Peace says "a card or token".
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Mountain"] * 4)
    island, windfall = add_hand(g, 0, ["Island", "Unexpected Windfall"])
    g.cast(windfall, discard=island)
    g.resolve_top()
    treasure = next(t for t in g.battlefield() if g.name(t) == "Treasure")
    if permanent:
        g.add_cards(controller, "battlefield", [permanent])
    graveyard, exile = g.graveyard(0), g.exile()
    g.clear_events()
    g.activate_mana(treasure, "B")
    assert g.mana_pool(0)["B"] == 1
    assert g.graveyard(0) == graveyard and g.exile() == exile  # the token ceased to exist (CR 704.5d)
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(treasure)
    (left,) = [e for e in g.events if e["kind"] in ("died", "moved")]
    assert left["from_id"] == treasure
    if died:
        assert left["kind"] == "died"
    else:
        assert left["kind"] == "moved" and left["to"] == {"kind": "exile", "player": 0}


def test_rest_in_peace_entering_exiles_every_graveyard():  # CR 603.6a, 614.1a
    g = with_libraries(new_game(strict=True), 5)
    g.add_cards(0, "graveyard", ["Island"])
    g.add_cards(1, "graveyard", ["Swamp", "Grizzly Bears"])
    g.add_cards(0, "battlefield", ["Plains", "Plains"])
    (rip,) = add_hand(g, 0, ["Rest in Peace"])
    g.cast(rip)
    g.pass_priority()
    g.pass_priority()  # the enchantment enters; its trigger goes on the stack
    assert len(g.stack()) == 1 and g.name(g.stack()[0]) == "Rest in Peace"
    assert len(g.graveyard(1)) == 2 and g.priority_player == 0
    g.resolve_top()
    assert g.graveyard(0) == [] and g.graveyard(1) == []
    assert sorted(names(g, g.exile())) == ["Grizzly Bears", "Island", "Swamp"]
    assert [g.name(p) for p in g.battlefield()][-1] == "Rest in Peace"


def test_resolve_top_stops_after_the_top_object_even_if_it_triggered():  # Game.resolve_top docs, CR 117.3b, 603.3
    g = with_libraries(new_game(strict=True), 5)
    g.add_cards(0, "graveyard", ["Island"])
    g.add_cards(0, "battlefield", ["Plains", "Plains"])
    (rip,) = add_hand(g, 0, ["Rest in Peace"])
    g.cast(rip)
    g.resolve_top()
    assert len(g.stack()) == 1 and g.priority_player == 0  # the enters trigger waits, its controller has priority
    assert len(g.graveyard(0)) == 1


@pytest.mark.parametrize("zone", ["hand", "graveyard", "exile"])
def test_rest_in_peace_off_the_battlefield_replaces_nothing(zone):  # CR 113.6, 114.4
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Island", "Swamp"])
    g.add_cards(1, zone, ["Rest in Peace"])
    milled = g.mill(0, 2)
    assert g.graveyard(0) == milled[::-1]


def test_leyline_of_the_void_exiles_only_cards_bound_for_an_opponents_graveyard():  # CR 614.1a
    g = new_game(strict=True)
    for p in range(2):
        g.add_cards(p, "library", ["Island", "Swamp", "Plains"])
    g.add_cards(0, "battlefield", ["Leyline of the Void"])
    mine, theirs = g.mill_each([0, 1], 2)
    assert g.graveyard(0) == mine[::-1] and g.graveyard(1) == []
    assert g.exile() == theirs
    (a,) = add_hand(g, 0, ["Grizzly Bears"])
    (b,) = add_hand(g, 1, ["Grizzly Bears"])
    (da,) = g.discard(0, 1)
    (db,) = g.discard(1, 1)
    assert g.graveyard(0)[0] == da and g.exile()[-1] == db


def test_leyline_of_the_void_exiles_an_opponents_dying_creature_and_spell():  # CR 614.1a, 608.2n
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Leyline of the Void"])
    g.add_cards(1, "battlefield", ["Mountain"])
    (lions,) = g.add_cards(0, "battlefield", ["Savannah Lions"])
    (bolt,) = add_hand(g, 1, ["Lightning Bolt"])
    g.pass_priority()
    g.cast(bolt, targets=[lions])  # player 1's spell kills player 0's creature
    g.resolve_top()
    assert names(g, g.exile()) == ["Lightning Bolt"]  # the opponent's card
    assert names(g, g.graveyard(0)) == ["Savannah Lions"]  # the Leyline's controller's own card
    assert g.graveyard(1) == []


# ----- Abandoned Sarcophagus ------------------------------------------------------------------------------


def sarcophagus_game(controller: int = 0):
    g = with_libraries(new_game(), 10, "Plains")
    (sar,) = g.add_cards(controller, "battlefield", ["Abandoned Sarcophagus"])
    return g, sar


def test_sarcophagus_exiles_your_discarded_cards_with_cycling_only():  # CR 614.1a, 702.29
    g, _ = sarcophagus_game()
    wraith, slough, bears = add_hand(g, 0, ["Street Wraith", "Canyon Slough", "Grizzly Bears"])
    gone = g.discard(0, 3)  # the whole hand: one legal answer, not asked
    assert len(gone) == 3 and g.hand(0) == []
    assert names(g, g.exile()) == ["Street Wraith", "Canyon Slough"]  # a land with cycling too
    assert names(g, g.graveyard(0)) == ["Grizzly Bears"]
    assert sorted(gone) == sorted(g.exile() + g.graveyard(0))  # the new ids, wherever they went
    assert [e["card"] for e in g.events if e["kind"] == "discarded"] == gone


def test_sarcophagus_exiles_milled_cards_with_cycling():  # CR 614.1a, 701.17a
    g = new_game(strict=True)
    g.add_cards(0, "battlefield", ["Abandoned Sarcophagus"])
    g.add_cards(0, "library", ["Fractured Sanity", "Island", "Ash Barrens", "Hill Giant"])
    milled = g.mill(0, 4)
    assert names(g, g.exile()) == ["Fractured Sanity", "Ash Barrens"]
    assert names(g, g.graveyard(0)) == ["Hill Giant", "Island"]
    assert sorted(milled) == sorted(g.exile() + g.graveyard(0))


@pytest.mark.parametrize(("card", "lands"), [("Canyon Slough", ["Swamp", "Swamp"]), ("Street Wraith", []), ("Lórien Revealed", ["Island"])])
def test_sarcophagus_lets_a_cycled_card_go_to_the_graveyard(card, lands):  # CR 614.1a ("and it wasn't cycled"), 702.29a, 702.29e
    g, _ = sarcophagus_game()
    g.add_cards(0, "library", ["Island"])
    if lands:
        g.add_cards(0, "battlefield", lands)
    (c,) = add_hand(g, 0, [card])
    g.cycle(c)
    assert names(g, g.graveyard(0)) == [card] and g.exile() == []


def test_sarcophagus_watches_only_its_controllers_graveyard():  # CR 614.1a ("your graveyard")
    g, _ = sarcophagus_game(controller=1)
    (wraith,) = add_hand(g, 0, ["Street Wraith"])
    g.discard(0, 1)
    assert names(g, g.graveyard(0)) == ["Street Wraith"] and g.exile() == []


def test_sarcophagus_exiles_a_sorcery_with_cycling_cast_from_hand():  # CR 608.2n, 614.1a
    g, _ = sarcophagus_game()
    g.add_cards(0, "battlefield", ["Island"] * 3)
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.strict = True
    g.cast(fs)
    g.resolve_top()
    assert len(g.library(1)) == 0 and names(g, g.exile()) == ["Fractured Sanity"] and g.graveyard(0) == []


def test_sarcophagus_lets_you_cast_nonland_cyclers_from_your_graveyard():  # CR 601.2a (permission), 601.2f
    g, _ = sarcophagus_game()
    g.add_cards(0, "battlefield", ["Island"] * 3 + ["Swamp"] * 5)
    fs, wraith, barrens, slough, bears = g.add_cards(0, "graveyard", ["Fractured Sanity", "Street Wraith", "Ash Barrens", "Canyon Slough", "Grizzly Bears"])
    casts = sorted(a["card"] for a in g.priority_actions() if a["action"] == "cast")
    assert casts == sorted([fs, wraith])
    plays = [a for a in g.priority_actions() if a["action"] == "play_land"]
    assert plays == []  # "cast": lands with cycling can't be played from there
    assert g.cost_of(fs) == ("{U}{U}{U}", True)  # its mana cost
    assert g.cost_of(wraith) == ("{3}{B}{B}", True)
    for land in (barrens, slough):
        with untouched(g, mtgsim.IllegalActionError):
            g.play_land(land)
        with untouched(g, mtgsim.IllegalActionError):
            g.cast(land)
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(bears)  # no cycling
    g.strict = True
    spell = g.cast(wraith)
    assert g.stack() == [spell] and wraith not in g.graveyard(0)
    g.resolve_top()
    assert [g.name(p) for p in g.battlefield()][-1] == "Street Wraith"


def test_a_card_cast_from_the_graveyard_through_sarcophagus_is_exiled_when_it_resolves():  # CR 608.2n, 614.1a
    g, _ = sarcophagus_game()
    g.add_cards(0, "battlefield", ["Island"] * 3)
    (fs,) = g.add_cards(0, "graveyard", ["Fractured Sanity"])
    g.strict = True
    g.cast(fs)
    g.resolve_top()
    assert len(g.library(1)) == 0 and names(g, g.exile()) == ["Fractured Sanity"]


def test_cycle_then_cast_the_cycled_card_from_the_graveyard():  # CR 702.29a, 702.29c, 601.2a
    g, _ = sarcophagus_game()
    g.add_cards(1, "library", ["Plains"] * 10)  # 20 in all
    g.add_cards(0, "battlefield", ["Island"] * 5)
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.strict = True
    g.cycle(fs)
    g.resolve_top()  # the cycle trigger: each opponent mills four
    g.resolve_top()  # draw a card
    (gy,) = g.graveyard(0)
    assert g.name(gy) == "Fractured Sanity" and len(g.library(1)) == 16
    g.cast(gy)
    g.resolve_top()
    assert len(g.library(1)) == 2 and names(g, g.exile()) == ["Fractured Sanity"]


@pytest.mark.parametrize("whose", ["opponents_sarcophagus", "opponents_graveyard"])
def test_the_sarcophagus_permission_is_only_for_your_own_graveyard(whose):  # CR 601.2a
    g = with_libraries(new_game(), 10)
    if whose == "opponents_sarcophagus":
        g.add_cards(1, "battlefield", ["Abandoned Sarcophagus"])
        (fs,) = g.add_cards(0, "graveyard", ["Fractured Sanity"])
    else:
        g.add_cards(0, "battlefield", ["Abandoned Sarcophagus"])
        (fs,) = g.add_cards(1, "graveyard", ["Fractured Sanity"])
    g.add_cards(0, "battlefield", ["Island"] * 3)
    with untouched(g, mtgsim.IllegalActionError):
        g.cast(fs)
    assert {"action": "cast", "card": fs} not in g.priority_actions()


def test_fractured_sanity_cycled_under_rest_in_peace_triggers_from_exile_before_the_draw():  # CR 702.29c, 603.3, 614.1a
    g = new_game(strict=True)
    lib = g.add_cards(0, "library", ["Plains", "Wastes"])
    g.add_cards(1, "library", ["Forest"] * 10)
    g.add_cards(1, "battlefield", ["Rest in Peace"])
    g.add_cards(0, "battlefield", ["Island", "Mountain"])
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.clear_events()
    ab = g.cycle(fs)
    (exiled,) = g.exile()
    assert g.name(exiled) == "Fractured Sanity" and g.graveyard(0) == []
    assert {"kind": "discarded", "player": 0, "card": exiled, "by": 0, "random": False} in g.events
    assert {"kind": "cycled", "player": 0, "card": exiled} in g.events
    trig = next(e for e in g.events if e["kind"] == "ability_triggered")
    assert trig["source"] == exiled  # it triggers from exile, where the card went
    assert g.stack() == [trig["ability"], ab]  # above the cycling ability
    g.clear_events()
    g.resolve_top()
    assert milled_events(g) == [(1, 4)] and g.hand(0) == []  # mill first, nothing drawn yet
    assert len(g.exile()) == 5 and g.graveyard(1) == []  # the milled cards are exiled too
    g.resolve_top()
    assert names(g, g.hand(0)) == ["Plains"] and g.library(0) == lib[1:]


# ======================================================================================================
# Drawing from an empty library: Laboratory Maniac, Jace, Wielder of Mysteries (CR 614.1a, 121.4, 104.2b)
# ======================================================================================================


def maniac_game(card: str, n_players: int = 2):
    g = new_game(n_players, strict=True)
    (m,) = g.add_cards(0, "battlefield", [card])
    if card.startswith("Jace"):
        g.add_counters(m, "loyalty", 4)  # add_cards gives a planeswalker no loyalty (see findings)
    g.clear_events()
    return g, m


@pytest.mark.parametrize("card", ["Laboratory Maniac", "Jace, Wielder of Mysteries"])
def test_drawing_from_an_empty_library_wins_instead(card):  # CR 614.1a, 121.4, 104.2b
    g, _ = maniac_game(card)
    assert g.draw(0) == []
    assert g.events == [
        {"kind": "player_won", "player": 0},
        {"kind": "player_lost", "player": 1, "reason": "opponent_won"},
        {"kind": "game_over", "winners": [0]},
    ]
    assert g.is_over and g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "opponent_won"}]}
    assert g.to_dict()["players"][0]["lost"] is None


@pytest.mark.parametrize("card", ["Laboratory Maniac", "Jace, Wielder of Mysteries"])
def test_only_the_controller_wins_an_opponent_drawing_from_an_empty_library_loses(card):  # CR 614.1a ("you"), 704.5b
    g, _ = maniac_game(card)
    g.add_cards(0, "library", ["Island"])
    g.draw(1)
    assert g.events == [
        {"kind": "drew_from_empty_library", "player": 1},
        {"kind": "player_lost", "player": 1, "reason": "empty_library"},
        {"kind": "game_over", "winners": [0]},
    ]
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "empty_library"}]}


def test_a_library_with_cards_is_drawn_from_normally_and_the_win_comes_at_the_first_empty_draw():  # CR 121.2, 614.11a
    g, _ = maniac_game("Laboratory Maniac")
    (island,) = g.add_cards(0, "library", ["Island"])
    g.clear_events()
    (drawn,) = g.draw(0, 3)
    assert g.name(drawn) == "Island" and g.hand(0) == [drawn]
    assert kinds(g.events) == ["drew", "player_won", "player_lost", "game_over"]


def test_in_multiplayer_every_opponent_loses_when_the_controller_wins():  # CR 104.2b, 104.2a (every opponent loses: "opponent_won")
    g, _ = maniac_game("Laboratory Maniac", 3)
    g.draw(0)
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "opponent_won"}, {"player": 2, "reason": "opponent_won"}]}


@pytest.mark.parametrize("zone", ["hand", "graveyard", "exile"])
def test_laboratory_maniac_off_the_battlefield_does_not_save_you(zone):  # CR 113.6, 704.5b
    g = new_game(strict=True)
    g.add_cards(0, zone, ["Laboratory Maniac"])
    g.draw(0)
    assert g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "empty_library"}]}


def test_jaces_plus_one_mills_yourself_out_and_its_draw_wins():  # CR 606.3, 614.1a, 121.4
    g, jace = maniac_game("Jace, Wielder of Mysteries")
    g.add_cards(0, "library", ["Island", "Swamp"])
    g.add_cards(1, "library", ["Island"] * 5)
    ab = g.activate(jace, 0, targets=[[{"player": 0}]])  # +1: target player mills two cards. Draw a card.
    assert g.object(jace).counters == {"loyalty": 5} and g.stack() == [ab]
    g.clear_events()
    g.resolve_top()
    assert kinds(g.events)[2:] == ["milled", "player_won", "player_lost", "game_over"]
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "opponent_won"}]}


#: "You lose 3 life, then draw a card." (written out through conftest.redefine)
LOSE_THEN_DRAW = {
    "name": "Test Bargain",
    "mana_cost": "{0}",
    "type_line": "Sorcery",
    "oracle_text": "You lose 3 life, then draw a card.",
    "rules": {"spell": [{"lose_life": {"amount": 3}}, {"draw": {"count": 1}}]},
}


def test_a_win_by_laboratory_maniac_ends_the_game_before_state_based_actions():  # CR 104.1, 104.2b, 704.3
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Laboratory Maniac"])
    g.set_life(0, 3)
    (spell,) = add_hand(g, 0, ["Lightning Bolt"])
    g = redefine(g, "Lightning Bolt", LOSE_THEN_DRAW)
    g.cast(spell)
    g.resolve_top()  # 0 life, then the draw wins before any state-based action is checked
    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "opponent_won"}]}


# ======================================================================================================
# Library of Leng (CR 701.9c, 402.2, 514.1)
# ======================================================================================================


def leng_game(hand: list[str], *, controller: int = 0):
    g = with_libraries(new_game(), 5, "Plains")
    g.add_cards(controller, "battlefield", ["Library of Leng"])
    ids = add_hand(g, 0, hand)
    return g, ids


def test_library_of_leng_asks_per_discarded_card_and_yes_puts_it_on_top():  # CR 701.9c, 614.1a
    g, (bears, giant, bolt) = leng_game(["Grizzly Bears", "Hill Giant", "Lightning Bolt"])
    lib = g.library(0)
    g.clear_events()
    assert g.discard(0, 2) is None
    assert g.pending.purpose == "discard"
    assert g.answer([bears, giant]) is None
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "choose_cards", "discard_to_library", 0, 1)
    assert g.answer(True) is None  # Grizzly Bears: on top of the library
    assert (g.pending.player, g.pending.purpose) == (0, "discard_to_library")
    (to_top,) = [e["card"] for e in g.events if e["kind"] == "discarded"]
    assert g.library(0) == [to_top] + lib and g.name(to_top) == "Grizzly Bears"
    result = g.answer(False)  # Hill Giant: to the graveyard
    (to_gy,) = g.graveyard(0)
    assert result == [to_top, to_gy] and g.name(to_gy) == "Hill Giant"
    assert g.hand(0) == [bolt] and g.pending is None
    assert [e for e in g.events if e["kind"] == "discarded"] == [
        {"kind": "discarded", "player": 0, "card": to_top, "by": 0, "random": False},
        {"kind": "discarded", "player": 0, "card": to_gy, "by": 0, "random": False},
    ]


def test_a_draw_from_an_empty_library_still_loses_after_a_discard_refills_it():  # CR 704.5b, 701.9c
    # Faithless Looting with one card left: the second draw finds nothing; a discarded card
    # goes on top of the library before state-based actions are checked, and the player still
    # loses, for the draw was attempted since the last check.
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "library", ["Swamp"])
    g.add_cards(0, "battlefield", ["Library of Leng"] + ["Mountain"])
    (looting,) = add_hand(g, 0, ["Faithless Looting"])
    g.cast(looting)
    g.resolve_top()
    # It drew the Swamp, then nothing; discarding two from a hand of one discards it.
    assert g.pending.purpose == "discard_to_library" and names(g, g.hand(0)) == ["Swamp"]
    assert g.library(0) == [] and g.outcome is None
    g.answer(True)
    assert g.library(0) != []  # the Swamp is back on top
    assert g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "empty_library"}]}


@pytest.mark.parametrize(("to_library", "zombies"), [(True, 0), (False, 1)])
def test_waste_not_does_not_see_a_creature_card_discarded_into_the_library(to_library, zombies):  # CR 701.9c
    g, (bears,) = leng_game(["Grizzly Bears"])
    g.add_cards(1, "battlefield", ["Waste Not"])
    g.discard(0, 1)
    g.answer(to_library)
    assert len(g.stack()) == zombies
    while g.stack():
        g.resolve_top()
    assert [g.name(p) for p in g.battlefield()].count("Zombie") == zombies


def test_a_card_discarded_into_the_library_is_still_a_discard_for_cycle_or_discard_triggers():  # CR 701.9c, 702.29d
    g, (bears,) = leng_game(["Grizzly Bears"])
    (haven,) = g.add_cards(0, "battlefield", ["Drake Haven"])
    g.discard(0, 1)
    g.clear_events()
    g.answer(True)
    (trig,) = [e for e in g.events if e["kind"] == "ability_triggered"]
    assert trig["source"] == haven and g.stack() == [trig["ability"]]
    assert names(g, g.library(0))[0] == "Grizzly Bears"


def test_a_random_discard_by_an_effect_is_offered_too():  # CR 701.9b, 701.9c
    g, (bears,) = leng_game(["Grizzly Bears"])
    assert g.discard(0, 1, random=True) is None
    assert g.pending.purpose == "discard_to_library"
    (card,) = g.answer(True)
    assert g.library(0)[0] == card


def test_a_discard_chosen_by_an_opponent_is_still_offered_to_the_discarding_player():  # CR 701.9b, 701.9c ("you may")
    g, (island, swamp) = leng_game(["Island", "Swamp"])
    g.discard(0, 1, chooser=1)
    assert (g.pending.player, g.pending.purpose) == (1, "discard")
    g.answer([swamp])
    assert (g.pending.player, g.pending.purpose) == (0, "discard_to_library")
    g.answer(True)
    assert names(g, g.library(0))[0] == "Swamp" and g.hand(0) == [island]


def test_faithless_looting_discards_are_offered_one_by_one():  # CR 608.2c, 701.9c
    g, (looting, bears) = leng_game(["Faithless Looting", "Grizzly Bears"])
    g.add_cards(0, "battlefield", ["Mountain"])
    g.cast(looting)
    g.resolve_top()  # draw two Plains, then discard two cards
    d = g.pending
    assert (d.purpose, d.min, d.max) == ("discard", 2, 2) and len(d.options) == 3
    plains = [o for o in d.options if o != bears]
    g.answer([bears, plains[0]])
    assert g.pending.purpose == "discard_to_library"
    g.answer(True)  # Grizzly Bears on top
    assert g.pending.purpose == "discard_to_library"
    g.answer(False)  # the Plains to the graveyard
    assert g.pending is None and g.stack() == [] and g.hand(0) == [plains[1]]
    assert names(g, g.library(0))[0] == "Grizzly Bears" and len(g.library(0)) == 4
    assert names(g, g.graveyard(0)) == ["Faithless Looting", "Plains"]


def test_an_opponents_library_of_leng_does_nothing_for_you():  # CR 614.1a ("you")
    g, (bears,) = leng_game(["Grizzly Bears"], controller=1)
    g.strict = True
    (gone,) = g.discard(0, 1)
    assert g.graveyard(0) == [gone]


def test_discards_to_pay_costs_are_not_offered():  # CR 701.9c, 118 (a cost isn't an effect)
    g, (slough, island, windfall) = leng_game(["Canyon Slough", "Island", "Unexpected Windfall"])
    g.add_cards(0, "battlefield", ["Mountain"] * 6)
    g.strict = True
    g.cycle(slough)
    assert names(g, g.graveyard(0)) == ["Canyon Slough"]
    g.cast(windfall, discard=island)
    assert names(g, g.graveyard(0)) == ["Island", "Canyon Slough"]


def test_no_maximum_hand_size_means_no_cleanup_discard():  # CR 402.2, 514.1
    g, _ = leng_game(["Island"] * 9)
    g.advance_to("end")
    g.pass_priority()
    g.pass_priority()
    assert g.pending is None and (g.turn, g.active_player) == (2, 1)
    assert len(g.hand(0)) == 9 and g.graveyard(0) == []


#: Library of Leng without "You have no maximum hand size" (the replacement alone).
LENG_ONLY_REPLACEMENT = {
    "name": "Library of Leng",
    "mana_cost": "{1}",
    "type_line": "Artifact",
    "oracle_text": "If an effect causes you to discard a card, discard it, but you may put it on top of your library instead of into your graveyard.",
    "rules": {"static": [{"discard_to_library_top": {}}]},
}


def test_the_cleanup_discard_is_not_caused_by_an_effect():  # CR 514.1, 701.9c ("If an effect causes you to discard")
    g, hand = leng_game(["Island"] * 9)
    g = redefine(g, "Library of Leng", LENG_ONLY_REPLACEMENT)
    g.advance_to("end")
    g.pass_priority()
    g.pass_priority()
    d = g.pending
    assert (d.player, d.purpose, d.min, d.max, g.step) == (0, "discard", 2, 2, "cleanup")
    g.answer(hand[:2])
    assert g.pending is None  # no discard_to_library question
    assert len(g.graveyard(0)) == 2 and len(g.hand(0)) == 7 and len(g.library(0)) == 5
    assert (g.turn, g.active_player) == (2, 1)


#: A variant whose replacement also applies to discards paid as costs (the engine's
#: ``{"discard_to_library_top": {"costs": true}}``).
LENG_FOR_COSTS = {
    "name": "Library of Leng",
    "mana_cost": "{1}",
    "type_line": "Artifact",
    "oracle_text": "If you would discard a card, you may put it on top of your library instead of into your graveyard.",
    "rules": {"static": [{"discard_to_library_top": {"costs": True}}]},
}


def fauna_shaman_game():
    g = with_libraries(new_game(), 5, "Plains")
    g.add_cards(0, "library", ["Hill Giant"])
    g.add_cards(0, "battlefield", ["Library of Leng", "Forest"])
    (shaman,) = g.add_cards(0, "battlefield", ["Fauna Shaman"])
    bears, bolt = add_hand(g, 0, ["Grizzly Bears", "Lightning Bolt"])
    return redefine(g, "Library of Leng", LENG_FOR_COSTS), shaman, bears


def test_a_creature_card_discarded_into_the_library_cannot_pay_fauna_shamans_cost():  # CR 701.9c, 733
    g, shaman, bears = fauna_shaman_game()
    assert g.activate(shaman, 0) is None  # {G}, {T}, Discard a creature card
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "choose_cards", "discard_to_library", 0, 1)
    # Into a hidden zone it is no longer "a creature card": the answer is refused, nothing of
    # the activation has happened, and the decision is still waiting.
    with untouched(g, mtgsim.IllegalActionError, match="701.9c"):
        g.answer(True)
    assert g.pending == d and g.stack() == [] and bears in g.hand(0)
    assert not g.object(shaman).tapped
    (ab,) = g.answer(False)  # into the graveyard it pays
    assert g.stack() == [ab] and g.object(shaman).tapped


def test_an_activation_waiting_for_a_decision_can_be_cancelled():  # CR 733, Game.cancel docs
    g, shaman, bears = fauna_shaman_game()
    before = full_state(g)
    g.activate(shaman, 0)
    assert g.pending.purpose == "discard_to_library"
    g.cancel()
    assert full_state(g) == before  # the saved state whole, the record of answers included
    with untouched(g, mtgsim.IllegalActionError, match="nothing to cancel"):
        g.cancel()


def test_fauna_shamans_cost_paid_into_the_graveyard_under_the_variant_is_fine():  # CR 701.9c, 601.2h via 602.2b
    g, shaman, bears = fauna_shaman_game()
    g.activate(shaman, 0)
    (ab,) = g.answer(False)
    assert g.stack() == [ab] and g.object(shaman).tapped
    assert names(g, g.graveyard(0)) == ["Grizzly Bears"]


def test_the_printed_library_of_leng_does_not_touch_fauna_shamans_cost():  # CR 701.9c ("If an effect causes")
    g = with_libraries(new_game(strict=True), 5, "Plains")
    g.add_cards(0, "battlefield", ["Library of Leng", "Forest"])
    (shaman,) = g.add_cards(0, "battlefield", ["Fauna Shaman"])
    add_hand(g, 0, ["Grizzly Bears"])
    ab = g.activate(shaman, 0)
    assert g.stack() == [ab] and names(g, g.graveyard(0)) == ["Grizzly Bears"]


def test_the_costs_variant_also_offers_a_spells_additional_discard():  # CR 701.9c, 601.2h
    g = with_libraries(new_game(), 5, "Plains")
    g.add_cards(0, "battlefield", ["Library of Leng"] + ["Mountain"] * 4)
    island, windfall = add_hand(g, 0, ["Island", "Unexpected Windfall"])
    g = redefine(g, "Library of Leng", LENG_FOR_COSTS)
    assert g.cast(windfall, discard=island) is None
    assert g.pending.purpose == "discard_to_library"
    g.answer(True)  # "discard a card" names no characteristic: still paid
    assert names(g, g.library(0))[0] == "Island" and len(g.stack()) == 1


#: Grizzly Bears with "{1}, Discard this card: Draw a card." from hand: a "discard this card" cost
#: that isn't cycling's, paid with generic mana alone and with no choice before paying.
HAND_DRAWER = {
    "name": "Grizzly Bears", "mana_cost": "{1}{G}", "type_line": "Creature — Bear", "power": "2", "toughness": "2",
    "oracle_text": "{1}, Discard this card: Draw a card.",
    "rules": {"activated": [{"cost": {"mana": "{1}", "discard_self": True}, "effects": [{"draw": {"count": 1}}], "zone": "hand"}]},
}  # fmt: skip


def test_the_costs_variant_offers_a_discard_this_card_cost_with_nothing_else_to_choose():  # CR 701.9c, 601.2h via 602.2b
    g = with_libraries(new_game(), 5, "Plains")
    g.add_cards(0, "battlefield", ["Library of Leng", "Island"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    g = redefine(redefine(g, "Library of Leng", LENG_FOR_COSTS), "Grizzly Bears", HAND_DRAWER)
    assert g.activate(bears, 0) is None
    d = g.pending
    assert (d.player, d.purpose, d.options) == (0, "discard_to_library", [bears])
    g.answer(True)
    assert names(g, g.library(0))[0] == "Grizzly Bears" and g.graveyard(0) == [] and len(g.stack()) == 1


@pytest.mark.parametrize("to_library", [True, False])
def test_the_costs_variant_also_offers_cyclings_own_discard(to_library):  # CR 701.9c, 702.29a, 601.2h via 602.2b
    g = with_libraries(new_game(), 5, "Plains")
    g.add_cards(0, "battlefield", ["Library of Leng", "Island", "Island"])
    (sanity,) = add_hand(g, 0, ["Fractured Sanity"])  # Cycling {1}{U}; "when you cycle": each opponent mills four
    g = redefine(g, "Library of Leng", LENG_FOR_COSTS)
    assert g.cycle(sanity) is None
    d = g.pending
    assert (d.player, d.purpose, d.options) == (0, "discard_to_library", [sanity])
    g.answer(to_library)
    # The cycling ability is paid: both Islands tapped.
    assert all(g.object(c).tapped for c in g.battlefield() if g.name(c) == "Island")
    if to_library:
        # On top of the library it has no characteristics (CR 701.9c): no "when you cycle this
        # card" of its own triggers; the cycling draw then draws it again.
        assert len(g.stack()) == 1 and g.graveyard(0) == []
        assert names(g, g.library(0))[0] == "Fractured Sanity"
        g.resolve_top()
        assert names(g, g.hand(0)) == ["Fractured Sanity"] and len(g.library(1)) == 5
    else:
        # From the graveyard its cycle trigger goes on the stack above the cycling ability.
        assert len(g.stack()) == 2 and names(g, g.graveyard(0)) == ["Fractured Sanity"]
        g.resolve_top()
        assert len(g.library(1)) == 1 and g.hand(0) == []  # each opponent milled four first
        g.resolve_top()
        assert len(g.hand(0)) == 1


# ======================================================================================================
# "As enters" and "enters with" (CR 614.1c): corners beyond test_cr702_33_kicker.py
# ======================================================================================================


def leech_game(library: list[str], *, graveyard: tuple[str, ...] = (), opponent: tuple[str, ...] = ()):
    g = new_game()
    g.add_cards(0, "library", library)
    g.add_cards(1, "library", ["Island"] * 10)
    if graveyard:
        g.add_cards(0, "graveyard", list(graveyard))
    if opponent:
        g.add_cards(1, "battlefield", list(opponent))
    g.add_cards(0, "battlefield", ["Swamp"] * 4 + ["Island"])
    (leech,) = add_hand(g, 0, ["Monstrous War-Leech"])
    return g, leech


def the_leech(g):
    return [p for p in g.battlefield() if g.name(p) == "Monstrous War-Leech"]


def test_an_unkicked_war_leech_with_an_empty_graveyard_is_0_0_and_dies():  # CR 604.3, 704.5f
    g, leech = leech_game(["Island"] * 6)
    g.cast(leech, kick=False)
    g.clear_events()
    g.resolve_top()
    assert the_leech(g) == [] and names(g, g.graveyard(0)) == ["Monstrous War-Leech"]
    assert "milled" not in kinds(g.events) and kinds(g.events)[-1] == "died"
    assert len(g.library(0)) == 6


def test_the_cards_milled_as_the_leech_enters_count_before_state_based_actions():  # CR 614.1c, 614.12, 604.3
    library = ["Island", "Lórien Revealed", "Island", "Island", "Fractured Sanity", "Island"]
    g, leech = leech_game(library)  # empty graveyard: unkicked it would be 0/0
    g.cast(leech, kick=True)
    g.resolve_top()
    (perm,) = the_leech(g)
    assert g.power_toughness(perm) == (5, 5)  # Lórien Revealed, milled as it entered
    assert names(g, g.graveyard(0)) == ["Island", "Island", "Lórien Revealed", "Island"]
    assert names(g, g.library(0)) == ["Fractured Sanity", "Island"]


def test_the_leechs_own_mill_is_doubled_by_an_opponents_bruvac():  # CR 614.1a, 614.1c, 701.17b
    library = ["Island", "Lórien Revealed", "Island", "Island", "Fractured Sanity", "Island"]
    g, leech = leech_game(library, opponent=("Bruvac the Grandiloquent",))
    g.strict = True
    g.cast(leech, kick=True)
    g.resolve_top()
    assert g.library(0) == [] and len(g.graveyard(0)) == 6  # 8 asked for, as many as possible
    (perm,) = the_leech(g)
    assert g.power_toughness(perm) == (5, 5)


def test_under_rest_in_peace_the_kicked_leech_mills_into_exile_and_is_0_0():  # CR 614.1a, 604.3, 704.5f
    library = ["Island", "Lórien Revealed", "Island", "Island", "Fractured Sanity", "Island"]
    g, leech = leech_game(library, opponent=("Rest in Peace",))
    g.cast(leech, kick=True)
    g.resolve_top()
    assert the_leech(g) == [] and g.graveyard(0) == []
    assert names(g, g.exile()) == ["Island", "Lórien Revealed", "Island", "Island", "Monstrous War-Leech"]


def leech_with_ordered_mill() -> tuple[mtgsim.Game, int, int]:
    """Three players; player 1's Bruvac and Water Crystal both change player 0's mill, so the
    kicked Leech's own mill waits for player 0 to order them (CR 616.1)."""
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island", "Swamp", "Lórien Revealed"] * 5)
    g.add_cards(0, "battlefield", ["Swamp"] * 4 + ["Island"])
    bruvac, crystal = g.add_cards(1, "battlefield", ["Bruvac the Grandiloquent", "The Water Crystal"])
    (leech,) = add_hand(g, 0, ["Monstrous War-Leech"])
    g.cast(leech, kick=True)
    g.resolve_top()
    assert (g.pending.player, g.pending.purpose) == (0, "order_replacements")
    return g, bruvac, crystal


def test_the_kicked_leech_is_still_the_resolving_spell_while_its_mill_is_ordered():  # CR 614.1c, 614.12, 616.1
    g, bruvac, crystal = leech_with_ordered_mill()
    assert the_leech(g) == [] and names(g, g.stack()) == ["Monstrous War-Leech"]  # not yet entered
    g.clear_events()
    g.answer([bruvac, crystal])  # twice four, plus four
    (perm,) = the_leech(g)
    assert len(g.graveyard(0)) == 12 and g.power_toughness(perm) == (5, 5)
    assert kinds(g.events) == ["milled", "resolved"]  # it enters once the mill is done


def test_a_concession_while_the_leechs_mill_is_ordered_does_not_judge_it_half_made():  # CR 104.3a, 704.3, 800.4a
    """Player 2 concedes while player 0 orders: no state-based action looks at anything until
    a player would receive priority, and the Leech enters a 5/5 after its mill."""
    g, bruvac, crystal = leech_with_ordered_mill()
    g.concede(2)
    assert (g.pending.player, g.pending.purpose) == (0, "order_replacements")
    g.answer([bruvac, crystal])
    (perm,) = the_leech(g)
    assert g.power_toughness(perm) == (5, 5) and names(g, g.graveyard(0)).count("Monstrous War-Leech") == 0


def test_the_leechs_mill_is_ordered_afresh_when_a_replacements_controller_leaves():  # CR 616.1, 800.4a
    """Player 1 (Bruvac's and the Crystal's owner) concedes: both effects leave with them, so
    nothing is left to order and the Leech mills four."""
    g, _, _ = leech_with_ordered_mill()
    g.concede(1)
    assert g.pending is None
    (perm,) = the_leech(g)
    assert len(g.graveyard(0)) == 4 and g.power_toughness(perm) == (5, 5)


def test_everflowing_chalice_added_to_the_battlefield_was_not_kicked_and_has_no_counters():  # CR 614.1c, 702.33d
    g = new_game(strict=True)
    (chalice,) = g.add_cards(0, "battlefield", ["Everflowing Chalice"])
    assert g.object(chalice).counters == {} and g.kicked(chalice) is False
    g.add_counters(chalice, "charge", 2)  # the mana ability reads counters, not kicks
    g.activate_mana(chalice)
    assert g.mana_pool(0)["C"] == 2 and g.object(chalice).tapped


def test_an_everflowing_chalice_without_counters_can_still_be_tapped_for_no_mana():  # CR 605.1a, 106.1
    g = new_game(strict=True)
    (chalice,) = g.add_cards(0, "battlefield", ["Everflowing Chalice"])
    g.activate_mana(chalice)
    assert g.object(chalice).tapped and g.mana_pool(0).get("C", 0) == 0


@pytest.mark.parametrize("kicks", [0, 1, 3])
def test_joraga_warcaller_kicked_pumps_the_other_elves_as_soon_as_it_enters(kicks):  # CR 614.1c, 613.4c, 702.33c
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Forest"] * 7)
    (shaman,) = g.add_cards(0, "battlefield", ["Fauna Shaman"])
    (jw,) = add_hand(g, 0, ["Joraga Warcaller"])
    g.cast(jw, kick=kicks)
    g.resolve_top()
    perm = g.battlefield()[-1]
    assert g.object(perm).counters == ({"+1/+1": kicks} if kicks else {})
    assert g.power_toughness(perm) == (1 + kicks, 1 + kicks)
    assert g.power_toughness(shaman) == (2 + kicks, 2 + kicks)


# A permanent's own "enters with" and "as enters" apply however it enters, not only when it
# resolves as a spell (CR 614.1c, 614.12). No built-in card shows this (theirs count kicks,
# which only a cast has), so these use cards of the user's own.
COUNTED_BEAR = {"name": "Counted Bear", "mana_cost": "{1}{G}", "type_line": "Creature — Bear", "power": "2", "toughness": "2",
                "rules": {"enters_with_counters": [{"counter": "+1/+1", "count": 2}]}}
MILLING_RELIC = {"name": "Milling Relic", "mana_cost": "{2}", "type_line": "Artifact", "rules": {"as_enters": [{"mill": {"count": 2}}]}}
CHARGED_VALE = {"name": "Charged Vale", "type_line": "Land", "rules": {"enters_with_counters": [{"counter": "charge", "count": 1}]}}


def custom_game() -> mtgsim.Game:
    db = mtgsim.CardDB()
    for card in (COUNTED_BEAR, MILLING_RELIC, CHARGED_VALE):
        db.add(card)
    g = mtgsim.Game(2, seed=0, db=db)
    for p in (0, 1):
        g.set_policy(p, "manual")
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Counted Bear"] + ["Island"] * 9)
    return g


def test_a_permanent_moved_onto_the_battlefield_enters_with_its_counters():  # CR 614.1c, 614.12
    g = custom_game()
    (bear,) = add_hand(g, 0, ["Counted Bear"])
    perm = g.move(bear, "battlefield")
    assert g.object(perm).counters == {"+1/+1": 2} and g.power_toughness(perm) == (4, 4)


def test_a_land_played_enters_with_its_counters():  # CR 614.1c, 305.1
    g = custom_game()
    (vale,) = add_hand(g, 0, ["Charged Vale"])
    g.play_land(vale)
    (perm,) = g.battlefield()
    assert g.object(perm).counters == {"charge": 1}


def test_a_cast_permanent_still_enters_with_its_counters_once():  # CR 614.1c, 608.3
    g = custom_game()
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (bear,) = add_hand(g, 0, ["Counted Bear"])
    g.cast(bear)
    g.resolve_top()
    perm = g.battlefield()[-1]
    assert g.object(perm).counters == {"+1/+1": 2}


def test_as_enters_instructions_run_for_a_moved_permanent_and_the_game_goes_on():  # CR 614.1c, 701.17a
    g = custom_game()
    (relic,) = add_hand(g, 0, ["Milling Relic"])
    g.move(relic, "battlefield")
    assert len(g.library(0)) == 8 and names(g, g.graveyard(0)) == ["Island", "Island"]
    assert g.pending is None
    g.draw(0)  # nothing was left waiting: the game takes the next action
    assert len(g.library(0)) == 7


def test_a_card_searched_onto_the_battlefield_from_anothers_library_is_the_searchers():  # CR 110.2a, 701.23, 614.1c
    g = custom_game()
    assert g.search(0, "creature", library=1, to="battlefield", tapped=True) is None
    g.answer(g.pending.options)
    (perm,) = g.battlefield()
    o = g.object(perm)
    assert (o.owner, o.controller, o.tapped, o.counters) == (1, 0, True, {"+1/+1": 2})


def test_a_borrowed_creature_exiled_by_rest_in_peace_is_logged_leaving_the_battlefield_as_zones_are_named():  # CR 614.1a, 700.4, 108.3
    # The battlefield is shared: an event names it with the permanent's owner, like every other
    # zone change (not its controller), and the exile it really went to.
    g = new_game()
    g.add_cards(0, "battlefield", ["Rest in Peace"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    perm = g.move(bears, "battlefield", controller=1)
    g.clear_events()
    g.add_counters(perm, "-1/-1", 2)  # 0/0: put into a graveyard (CR 704.5f), exiled instead
    (moved,) = [e for e in g.events if e["kind"] == "moved"]
    assert moved["from"] == {"kind": "battlefield", "player": 0} and moved["to"] == {"kind": "exile", "player": 0}
    assert "died" not in kinds(g.events)


@pytest.mark.parametrize("empty_library", [True, False])
def test_a_card_that_mills_no_card_asks_no_order_of_the_replacements(empty_library):  # CR 614.7, 616.1
    """Altar of Dementia sacrificing a 0-power creature, or any mill from an empty library: no
    card would be milled, so neither replacement applies and there is nothing to order."""
    g, _ = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"), library=40)
    if empty_library:
        g.mill(1, 40)  # "mill 40": the order is asked, then the library is empty
        g.answer(g.pending.options)
        assert g.library(1) == []
    altar, thopter = g.add_cards(0, "battlefield", ["Altar of Dementia", "Ornithopter"])
    g.activate(altar, targets=[[{"player": 1}]], sacrifice=thopter)
    g.strict = True  # a decision now would raise
    g.resolve_top()
    assert g.pending is None and g.stack() == []
    g.strict = False
    if empty_library:
        (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
        g.add_cards(0, "battlefield", ["Island", "Swamp"])
        g.cast(glimpse, targets=[{"player": 1}])
        g.strict = True
        g.resolve_top()
        assert g.pending is None and g.library(1) == []


def test_milling_as_a_cost_is_milling_all_the_same():  # CR 118.11, 614.1a, 616.1, 701.17b
    g, _ = mill_game()  # player 0's Bruvac: player 1 mills twice that many
    g.strict = True
    assert len(g.pay_mill_cost(1, 2)) == 4 and len(g.library(1)) == 36
    with pytest.raises(mtgsim.CannotPayError):
        g.pay_mill_cost(1, 37)  # the cost is what it says: 37 > 36, even though 2x would be milled
    g, (bruvac, crystal) = mill_game(permanents=("Bruvac the Grandiloquent", "The Water Crystal"))
    assert g.pay_mill_cost(1, 2) is None and g.pending.kind == "order"
    g.answer([crystal, bruvac])  # (2 + 4) x 2
    assert len(g.library(1)) == 40 - 12
