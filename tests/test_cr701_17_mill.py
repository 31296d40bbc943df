"""CR 701.17 Mill (a–d), including "each player / each opponent mills N" (Fractured Sanity)."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import kinds, names, new_game, rejected


def test_mill_puts_the_top_cards_into_the_graveyard():  # CR 701.17a
    g = new_game(strict=True)
    island, swamp, mountain, forest = g.add_cards(0, "library", ["Island", "Swamp", "Mountain", "Forest"])

    milled = g.mill(0, 2)

    # result: the new graveyard objects, former library-top first
    assert names(g, milled) == ["Island", "Swamp"]
    assert island not in milled and swamp not in milled  # CR 400.7: new objects
    # graveyard listed top first: milled together, the former top card ends lowest
    assert g.graveyard(0) == [milled[1], milled[0]]
    assert g.library(0) == [mountain, forest]
    assert g.events == [{"kind": "milled", "player": 0, "cards": milled}]
    assert g.graveyard(1) == [] and not g.is_over


def test_mill_instruction_mills_as_many_as_possible():  # CR 701.17b
    g = new_game(strict=True)
    g.add_cards(1, "library", ["Island", "Swamp", "Mountain"])

    milled = g.mill(1, 14)

    assert names(g, milled) == ["Island", "Swamp", "Mountain"]
    assert g.library(1) == []
    assert g.graveyard(1) == milled[::-1]
    assert g.events == [{"kind": "milled", "player": 1, "cards": milled}]
    # milling is not drawing: an empty library loses only on a draw (CR 704.5b)
    assert not g.is_over


def test_milling_an_empty_library_mills_nothing():  # CR 701.17b
    g = new_game(strict=True)
    assert g.mill(0, 5) == []
    assert g.events == []
    assert g.graveyard(0) == []
    assert not g.is_over


def test_mill_zero_is_nothing():  # CR 701.17a
    g = new_game(strict=True)
    ids = g.add_cards(0, "library", ["Island"])
    assert g.mill(0, 0) == []
    assert g.library(0) == ids and g.events == []


def test_a_mill_cost_larger_than_the_library_cannot_be_paid():  # CR 701.17b, 118.3, 733
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Island", "Swamp"])
    g.draw(0)  # some history that must survive the failed payment
    with rejected(g, mtgsim.CannotPayError):
        g.pay_mill_cost(0, 2)
    assert isinstance(mtgsim.CannotPayError("x"), mtgsim.IllegalActionError)


def test_a_mill_cost_equal_to_the_library_can_be_paid():  # CR 701.17b
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Island", "Swamp"])

    milled = g.pay_mill_cost(0, 2)

    assert names(g, milled) == ["Island", "Swamp"]
    assert g.library(0) == [] and g.graveyard(0) == milled[::-1]
    assert g.events == [{"kind": "milled", "player": 0, "cards": milled}]


def test_a_mill_cost_of_zero_can_always_be_paid():  # CR 701.17b, 118.3
    g = new_game(strict=True)
    assert g.pay_mill_cost(0, 0) == []
    assert g.events == []


def test_milled_cards_are_found_in_the_public_zone_they_went_to():  # CR 701.17c, 400.2
    g = new_game(strict=True)
    old = g.add_cards(0, "library", ["Grizzly Bears", "Lightning Bolt"])

    milled = g.mill(0, 2)

    for card in milled:
        obj = g.object(card)
        assert obj.zone == "graveyard" and obj.owner == 0
    for card in old:  # the library objects no longer exist (CR 400.7)
        with pytest.raises(mtgsim.NoSuchObjectError):
            g.object(card)


def test_a_remembered_milled_card_is_not_found_after_it_moves_on():  # CR 701.17c, 400.7
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Grizzly Bears"])
    (milled,) = g.mill(0, 1)

    exiled = g.move(milled, "exile")

    assert exiled != milled
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(milled)
    assert g.exile() == [exiled] and g.graveyard(0) == []


def test_information_about_several_milled_cards_is_one_answer_each_and_sums():  # CR 701.17d
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Lightning Bolt", "Counterspell", "Grizzly Bears", "Island"])

    milled = g.mill(0, 3)

    answers = [g.object(c).card.mana_value for c in milled]
    assert answers == [1, 2, 2]  # one answer per milled card
    assert sum(answers) == 5  # a variable uses the sum
    assert names(g, g.library(0)) == ["Island"]


def test_each_opponent_mills_and_the_results_are_in_apnap_order():  # CR 701.17a, 101.4
    g = new_game(3, strict=True)
    libs = [g.add_cards(p, "library", ["Island", "Swamp", "Mountain"]) for p in range(3)]

    result = g.mill_opponents(0, 2)  # Fractured Sanity cast by player 0 (active)

    assert [names(g, r) for r in result] == [["Island", "Swamp"], ["Island", "Swamp"]]
    assert g.graveyard(1) == result[0][::-1]
    assert g.graveyard(2) == result[1][::-1]
    assert g.library(0) == libs[0] and g.graveyard(0) == []
    assert g.library(1) == libs[1][2:] and g.library(2) == libs[2][2:]
    assert g.events == [
        {"kind": "milled", "player": 1, "cards": result[0]},
        {"kind": "milled", "player": 2, "cards": result[1]},
    ]


def test_each_opponent_mills_in_apnap_order_from_the_active_player():  # CR 101.4
    g = new_game(3, strict=True)
    for p in range(3):
        g.add_cards(p, "library", ["Island", "Swamp"])
    g.active_player = 2

    result = g.mill_opponents(0, 1)

    # active player 2 first, then the next in turn order (0 is the caster, so 1)
    assert [g.object(r[0]).owner for r in result] == [2, 1]
    assert [e["player"] for e in g.events] == [2, 1]


def test_each_player_mills_at_once_each_as_many_as_possible():  # CR 701.17b, 101.4
    g = new_game(2, strict=True)
    g.add_cards(0, "library", ["Island"])
    g.add_cards(1, "library", ["Swamp", "Mountain", "Forest"])

    result = g.mill_each([1, 0], 2)  # result in the order the players were given

    assert [names(g, r) for r in result] == [["Swamp", "Mountain"], ["Island"]]
    assert g.library(0) == [] and names(g, g.library(1)) == ["Forest"]
    # events in APNAP order (player 0 is active)
    assert g.events == [
        {"kind": "milled", "player": 0, "cards": result[1]},
        {"kind": "milled", "player": 1, "cards": result[0]},
    ]
    assert not g.is_over


def test_each_player_mills_rejects_a_player_listed_twice():  # CR 733
    g = new_game(2, strict=True)
    g.add_cards(0, "library", ["Island", "Swamp"])
    with rejected(g, mtgsim.InvalidArgumentError):
        g.mill_each([0, 0], 1)


def test_each_player_mills_validates_every_player_before_milling_anyone():  # CR 733
    g = new_game(2, strict=True)
    g.add_cards(0, "library", ["Island", "Swamp"])
    with rejected(g, mtgsim.InvalidPlayerError):
        g.mill_each([0, 2], 1)


def test_mill_opponents_skips_a_player_who_has_left():  # CR 800.4, 701.17a
    g = new_game(3, strict=True)
    for p in range(3):
        g.add_cards(p, "library", ["Island", "Swamp"])
    g.set_life(1, 0)  # player 1 loses; the three-player game goes on
    g.clear_events()

    result = g.mill_opponents(0, 1)

    assert len(result) == 1
    assert g.object(result[0][0]).owner == 2
    assert kinds(g.events) == ["milled"]
