"""CR 400 zones, CR 400.7 object identity, CR 108.3 / 110.2 owner and controller, CR 122
counters, CR 103 starting a game from decks."""

from __future__ import annotations

from collections import Counter

import pytest

import mtgsim
from conftest import add_hand, kinds, names, new_game, rejected

DECK0 = ["Island"] * 6 + ["Lightning Bolt", "Counterspell", "Grizzly Bears", "Hill Giant"] * 2 + ["Swamp"] * 6
DECK1 = ["Forest"] * 8 + ["Savannah Lions", "Horned Turtle", "Walking Corpse", "Ornithopter"] * 3


# ----- zones and positions -------------------------------------------------------------------


def test_cards_added_on_top_or_at_the_bottom_of_a_library():  # CR 401.1, 400.5
    g = new_game()
    a, b = g.add_cards(0, "library", ["Island", "Swamp"])
    c, d = g.add_cards(0, "library", ["Mountain", "Forest"])  # on top, Mountain topmost
    e, f = g.add_cards(0, "library", ["Plains", "Wastes"], position="bottom")  # Wastes lowest
    assert g.library(0) == [c, d, a, b, e, f]
    assert names(g, g.library(0)) == ["Mountain", "Forest", "Island", "Swamp", "Plains", "Wastes"]
    assert g.zone("library", 0) == g.library(0)
    assert g.library(1) == []


def test_every_zone_can_be_listed():  # CR 400.1, 400.11
    g = new_game()
    ids = {}
    for zone in ("library", "hand", "graveyard", "outside"):
        ids[zone] = g.add_cards(1, zone, ["Island"])
    for zone in ("battlefield", "exile", "command"):
        ids[zone] = g.add_cards(1, zone, ["Island"])
    assert g.library(1) == ids["library"] and g.hand(1) == ids["hand"]
    assert g.graveyard(1) == ids["graveyard"] and g.outside(1) == ids["outside"]
    assert g.battlefield() == ids["battlefield"] and g.exile() == ids["exile"]
    assert g.command() == ids["command"] and g.stack() == []
    for zone, (card,) in ids.items():
        assert g.zone(zone, 1) == [card]
        assert g.object(card).zone == zone and g.object(card).owner == 1
    for zone in ("library", "hand", "graveyard", "outside"):
        assert g.zone(zone, 0) == []


def test_cards_cannot_be_put_onto_the_stack_directly():  # CR 405.1, 601.2a (cast, not put)
    g = new_game()
    (card,) = add_hand(g, 0, ["Lightning Bolt"])
    with rejected(g, mtgsim.IllegalActionError):
        g.add_cards(0, "stack", ["Lightning Bolt"])
    with rejected(g, mtgsim.IllegalActionError):
        g.move(card, "stack")


# ----- identity (CR 400.7) ---------------------------------------------------------------------


def test_a_card_that_changes_zones_becomes_a_new_object_with_a_new_id():  # CR 400.7
    g = new_game()
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])

    new = g.move(bolt, "graveyard")

    assert new != bolt
    assert g.graveyard(0) == [new] and g.hand(0) == []
    assert g.name(new) == "Lightning Bolt"
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(bolt)
    assert g.events == [
        {"kind": "moved", "from_id": bolt, "card": new, "from": {"kind": "hand", "player": 0}, "to": {"kind": "graveyard", "player": 0}}
    ]


def test_moving_a_card_back_does_not_bring_back_the_old_object():  # CR 400.7
    g = new_game()
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    in_yard = g.move(bolt, "graveyard")
    back = g.move(in_yard, "hand")
    assert len({bolt, in_yard, back}) == 3
    assert g.hand(0) == [back]
    for stale in (bolt, in_yard):
        with pytest.raises(mtgsim.NoSuchObjectError):
            g.object(stale)
        with pytest.raises(mtgsim.NoSuchObjectError):
            g.move(stale, "exile")


def test_a_new_object_forgets_tapped_status_counters_and_controller():  # CR 400.7, 122.2
    g = new_game()
    (bears,) = add_hand(g, 1, ["Grizzly Bears"])
    on_bf = g.move(bears, "battlefield", tapped=True, controller=0)
    g.add_counters(on_bf, "+1/+1", 2)
    obj = g.object(on_bf)
    assert (obj.tapped, obj.controller, obj.owner, obj.counters) == (True, 0, 1, {"+1/+1": 2})

    exiled = g.move(on_bf, "exile")
    obj = g.object(exiled)
    assert (obj.tapped, obj.controller, obj.owner, obj.counters) == (False, 1, 1, {})

    back = g.move(exiled, "battlefield")
    obj = g.object(back)
    assert (obj.tapped, obj.controller, obj.owner, obj.counters) == (False, 1, 1, {})


def test_object_ids_are_unique_across_the_game():  # CR 109.1, 400.7
    g = new_game(3)
    seen = []
    for p in range(3):
        seen += g.add_cards(p, "library", ["Island", "Swamp"])
        seen += add_hand(g, p, ["Mountain"])
    seen += g.add_cards(0, "battlefield", ["Forest"])
    seen += [g.move(seen[0], "graveyard")]
    assert len(set(seen)) == len(seen)


# ----- moving objects ------------------------------------------------------------------------


def test_move_to_the_top_or_bottom_of_a_library():  # CR 401.1, 400.7
    g = new_game()
    a, b = g.add_cards(0, "library", ["Island", "Swamp"])
    bolt, bears = add_hand(g, 0, ["Lightning Bolt", "Grizzly Bears"])

    top = g.move(bolt, "library")  # default position: top
    bottom = g.move(bears, "library", position="bottom")

    assert g.library(0) == [top, a, b, bottom]
    assert names(g, [top, bottom]) == ["Lightning Bolt", "Grizzly Bears"]
    assert g.hand(0) == []


def test_a_card_goes_to_its_owners_library_hand_and_graveyard():  # CR 400.3
    g = new_game()
    (giant,) = g.add_cards(1, "hand", ["Hill Giant"])
    stolen = g.move(giant, "battlefield", controller=0)
    assert g.object(stolen).controller == 0 and g.object(stolen).owner == 1

    dead = g.move(stolen, "graveyard")

    assert g.graveyard(1) == [dead] and g.graveyard(0) == []
    assert g.events[-1]["to"] == {"kind": "graveyard", "player": 1}
    in_hand = g.move(dead, "hand")
    assert g.hand(1) == [in_hand] and g.hand(0) == []


def test_owner_and_controller_are_tracked_separately():  # CR 108.3, 108.4, 110.2
    g = new_game()
    (turtle,) = add_hand(g, 1, ["Horned Turtle"])
    (lions,) = add_hand(g, 0, ["Savannah Lions"])

    t = g.move(turtle, "battlefield", controller=0)
    l = g.move(lions, "battlefield")

    assert (g.object(t).owner, g.object(t).controller) == (1, 0)
    assert (g.object(l).owner, g.object(l).controller) == (0, 0)  # by default its owner
    bf = {o["id"]: o for o in g.to_dict()["battlefield"]}
    assert (bf[t]["owner"], bf[t]["controller"]) == (1, 0)
    assert "controller 0" in repr(g.object(t)) and "Horned Turtle" in repr(g.object(t))


def test_a_permanent_can_enter_tapped():  # CR 110.5
    g = new_game()
    (forest,) = add_hand(g, 0, ["Forest"])
    card = g.move(forest, "battlefield", tapped=True)
    assert g.object(card).tapped
    g.set_tapped(card, False)
    assert not g.object(card).tapped


def test_only_permanents_entering_the_battlefield_get_a_controller_or_enter_tapped():  # CR 110.2, 733
    g = new_game()
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    with rejected(g, mtgsim.IllegalActionError):
        g.move(bolt, "graveyard", controller=1)
    with rejected(g, mtgsim.IllegalActionError):
        g.move(bolt, "exile", tapped=True)


def test_bringing_a_card_from_outside_the_game():  # CR 400.11b, 108.3
    g = new_game()
    (wish,) = g.add_cards(0, "outside", ["Counterspell"])
    card = g.move(wish, "hand")
    assert g.outside(0) == [] and g.hand(0) == [card]
    assert g.object(card).owner == 0


# ----- counters (CR 122) -------------------------------------------------------------------------


def test_counters_on_a_player():  # CR 122.1, 122.1f
    g = new_game()
    g.add_player_counters(0, "poison", 3)
    g.add_player_counters(0, "poison")
    g.add_player_counters(0, "ticket", 2)
    assert g.player_counters(0) == {"poison": 4, "ticket": 2}
    assert g.player_counters(1) == {}

    g.remove_player_counters(0, "ticket", 2)

    assert g.player_counters(0) == {"poison": 4}
    assert g.events == [
        {"kind": "player_counters_changed", "player": 0, "counter": "poison", "delta": 3},
        {"kind": "player_counters_changed", "player": 0, "counter": "poison", "delta": 1},
        {"kind": "player_counters_changed", "player": 0, "counter": "ticket", "delta": 2},
        {"kind": "player_counters_changed", "player": 0, "counter": "ticket", "delta": -2},
    ]
    assert g.to_dict()["players"][0]["counters"] == {"poison": 4}


def test_counters_on_an_object():  # CR 122.1, 122.1a
    g = new_game()
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    g.add_counters(bears, "+1/+1", 2)
    g.add_counters(bears, "charge")
    g.remove_counters(bears, "+1/+1")
    assert g.object(bears).counters == {"+1/+1": 1, "charge": 1}
    assert g.events == [
        {"kind": "object_counters_changed", "card": bears, "counter": "+1/+1", "delta": 2},
        {"kind": "object_counters_changed", "card": bears, "counter": "charge", "delta": 1},
        {"kind": "object_counters_changed", "card": bears, "counter": "+1/+1", "delta": -1},
    ]
    assert g.to_dict()["battlefield"][0]["counters"] == {"+1/+1": 1, "charge": 1}


def test_counters_with_the_same_name_are_interchangeable():  # CR 122.1
    g = new_game()
    (orb,) = g.add_cards(0, "battlefield", ["Everflowing Chalice"])
    for _ in range(3):
        g.add_counters(orb, "charge")
    assert g.object(orb).counters == {"charge": 3}


def test_counters_do_not_survive_a_zone_change():  # CR 122.2, 400.7
    g = new_game()
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    g.add_counters(bears, "+1/+1", 3)
    card = g.move(bears, "hand")
    assert g.object(card).counters == {}
    assert "object_counters_changed" not in kinds(g.events[1:])


def test_removing_more_counters_than_there_are_removes_none():  # CR 122, 118.3, 733
    g = new_game()
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    g.add_counters(bears, "+1/+1", 1)
    g.add_player_counters(1, "ticket", 1)
    with rejected(g, mtgsim.IllegalActionError):
        g.remove_counters(bears, "+1/+1", 2)
    with rejected(g, mtgsim.IllegalActionError):
        g.remove_player_counters(1, "ticket", 2)
    with rejected(g, mtgsim.IllegalActionError):
        g.remove_player_counters(0, "poison", 1)


# ----- players and setup (CR 103) ----------------------------------------------------------------


def test_a_game_has_n_players_at_twenty_life():  # CR 103.4, 800.1
    for n in (2, 3, 4, 16):
        g = mtgsim.Game(n)
        assert g.num_players == n
        assert [g.life(p) for p in range(n)] == [20] * n
        assert g.active_player == 0 and g.turn == 1 and not g.is_over


def test_life_totals_are_per_player():  # CR 119.1
    g = new_game(3)
    g.set_life(1, 7)
    assert [g.life(p) for p in range(3)] == [20, 7, 20]
    assert g.events == [{"kind": "life_changed", "player": 1, "from": 20, "to": 7}]


def test_game_setup_from_decks():  # CR 103.3, 103.4, 103.5, 108.3
    g = mtgsim.Game.from_decks([DECK0, DECK1], seed=11)

    assert g.num_players == 2 and [g.life(p) for p in range(2)] == [20, 20]
    for p, deck in enumerate([DECK0, DECK1]):
        assert len(g.hand(p)) == 7
        assert len(g.library(p)) == len(deck) - 7
        everything = g.hand(p) + g.library(p)
        assert Counter(names(g, everything)) == Counter(deck)
        assert all(g.object(c).owner == p for c in everything)  # CR 108.3
        assert all(g.object(c).zone == "hand" for c in g.hand(p))
        assert g.graveyard(p) == []
    assert not g.is_over and g.pending is None


def test_decks_are_shuffled_with_the_games_generator_then_hands_drawn():  # CR 103.3, 103.5
    seed = 11
    g = mtgsim.Game.from_decks([DECK0, DECK1], seed=seed)

    rng = mtgsim.Rng(seed)  # player 0's deck is shuffled first, then player 1's
    for p, deck in enumerate([DECK0, DECK1]):
        pile = list(reversed(deck))  # bottom first
        rng.shuffle(pile)
        expected_hand = list(reversed(pile))[:7]
        expected_library = list(reversed(pile))[7:]
        assert names(g, g.hand(p)) == expected_hand
        assert names(g, g.library(p)) == expected_library


def test_setup_is_reproducible_from_the_seed():  # CR 103.3 (portable generator)
    a = mtgsim.Game.from_decks([DECK0, DECK1], seed=5)
    b = mtgsim.Game.from_decks([DECK0, DECK1], seed=5)
    c = mtgsim.Game.from_decks([DECK0, DECK1], seed=6)
    assert a.to_dict()["players"] == b.to_dict()["players"]
    assert names(a, a.library(0)) != names(c, c.library(0))


def test_setup_options_starting_life_and_hand_size():  # CR 103.4, 103.5
    g = mtgsim.Game.from_decks([DECK0, DECK1, DECK1], seed=1, starting_life=40, hand_size=5)
    assert g.num_players == 3
    assert [g.life(p) for p in range(3)] == [40, 40, 40]
    assert [len(g.hand(p)) for p in range(3)] == [5, 5, 5]


def test_setup_rejects_unknown_cards_and_bad_options():  # CR 100.2 (deck contents), 733
    with pytest.raises(mtgsim.UnknownCardError):
        mtgsim.Game.from_decks([DECK0, DECK1 + ["No Such Card"]])
    with pytest.raises(mtgsim.InvalidArgumentError):
        mtgsim.Game.from_decks([DECK0])  # one player
    with pytest.raises(mtgsim.InvalidArgumentError):
        mtgsim.Game.from_decks([DECK0, DECK1], starting_life=0)
    with pytest.raises(mtgsim.InvalidArgumentError):
        mtgsim.Game.from_decks([DECK0, DECK1], hand_size=-1)


def test_readable_reprs():  # inspection
    g = new_game()
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    g.set_tapped(bears)
    assert repr(g.object(bolt)) == f'<GameObject {bolt} "Lightning Bolt" in player 0\'s hand>'
    assert "Grizzly Bears" in repr(g.object(bears)) and "tapped" in repr(g.object(bears))
    r = repr(g)
    assert "2 players" in r and "P0: life 20" in r and "hand 1" in r
    assert repr(mtgsim.card("Lightning Bolt")) == "<CardDef Lightning Bolt {R} (Instant)>"
    obj = g.object(bolt)
    assert (obj.id, obj.name, obj.card.name, obj.card.mana_value) == (bolt, "Lightning Bolt", "Lightning Bolt", 1)


def test_moving_a_permanent_to_the_battlefield_it_is_on_is_no_zone_change():  # CR 400.7 ("from one zone to another"), 122.2
    g = new_game()
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    g.add_counters(bears, "+1/+1", 2)
    g.set_tapped(bears)
    before = g.to_dict()
    try:
        result = g.move(bears, "battlefield")
    except mtgsim.MtgsimError:
        assert g.to_dict() == before  # rejected: nothing changed
        return
    # or accepted as no zone change: still the same object, counters and tapped status kept
    assert result == bears
    assert g.object(bears).counters == {"+1/+1": 2} and g.object(bears).tapped


def test_add_cards_places_a_permanent_while_move_makes_it_enter():  # CR 614.1c, 306.5b; add_cards builds positions
    g = new_game()
    placed_land, placed_jace = g.add_cards(0, "battlefield", ["Canyon Slough", "Jace, Wielder of Mysteries"])
    assert not g.object(placed_land).tapped and g.object(placed_jace).counters == {}
    g = new_game()  # a second Jace in the same game would bring in the legend rule
    land, jace = add_hand(g, 0, ["Canyon Slough", "Jace, Wielder of Mysteries"])
    entered_land, entered_jace = g.move(land, "battlefield"), g.move(jace, "battlefield")
    assert g.object(entered_land).tapped  # "This land enters tapped"
    assert g.object(entered_jace).counters == {"loyalty": 4}  # its printed loyalty
