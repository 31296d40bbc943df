"""CR 701.23 Search, CR 701.24 Shuffle, CR 701.20 Reveal."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import add_hand, kinds, names, new_game, rejected

MIXED = ["Island", "Grizzly Bears", "Swamp", "Lightning Bolt", "Vedalken AEthermage"]


def expected_shuffle(listing, seed):
    """The library (listed top first) after the game's first shuffle with a fresh Rng(seed):
    Fisher-Yates over the bottom-first pile."""
    pile = list(reversed(listing))
    mtgsim.Rng(seed).shuffle(pile)
    return list(reversed(pile))


# ----- search --------------------------------------------------------------------------------


def test_search_offers_exactly_the_cards_matching_the_description():  # CR 701.23a
    g = new_game()
    island, bears, swamp, bolt, wizard = g.add_cards(0, "library", MIXED)

    assert g.search(0, "basic land") is None

    d = g.pending
    assert (d.player, d.kind, d.purpose) == (0, "choose_cards", "search")
    assert d.options == [island, swamp]  # top first
    g.answer([])
    g.search(0, "instant or sorcery")
    assert names(g, g.pending.options) == ["Lightning Bolt"]
    g.answer([])
    g.search(0, "Wizard")
    assert names(g, g.pending.options) == ["Vedalken AEthermage"]


def test_a_search_for_a_stated_quality_may_find_nothing():  # CR 701.23b
    g = new_game()
    lib = g.add_cards(0, "library", MIXED)
    g.search(0, "basic land")
    assert (g.pending.min, g.pending.max) == (0, 1)

    result = g.answer([])

    assert result == []
    assert g.hand(0) == []
    assert sorted(g.library(0)) == sorted(lib)  # same objects, shuffled
    assert g.events == [
        {"kind": "searched", "player": 0, "library": 0, "found": []},
        {"kind": "shuffled", "player": 0},
    ]


def test_a_search_for_a_card_with_no_quality_must_find_one():  # CR 701.23d
    g = new_game()
    g.add_cards(0, "library", MIXED)
    g.search(0, "card")
    assert (g.pending.min, g.pending.max) == (1, 1)
    with rejected(g, mtgsim.InvalidAnswerError):
        g.answer([])


def test_a_search_for_n_cards_finds_as_many_as_possible():  # CR 701.23d
    g = new_game(strict=True)  # the only legal answer is "the one card": not asked
    (island,) = g.add_cards(0, "library", ["Island"])

    result = g.search(0, "card", count=3)

    assert names(g, result) == ["Island"]
    assert g.hand(0) == result and g.library(0) == []
    assert g.events[0] == {"kind": "searched", "player": 0, "library": 0, "found": [island]}


def test_a_search_with_no_matching_card_is_not_asked():  # CR 701.23b (one legal answer)
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Island", "Swamp"])
    assert g.search(0, "instant or sorcery") == []
    assert kinds(g.events) == ["searched", "shuffled"]


def test_found_cards_are_not_revealed_unless_the_effect_says_so():  # CR 701.23e
    g = new_game()
    island, bears, swamp, bolt, wizard = g.add_cards(0, "library", MIXED)
    g.search(0, "basic land", reveal=False)

    (card,) = g.answer([swamp])

    assert "revealed" not in kinds(g.events)
    assert g.hand(0) == [card] and g.name(card) == "Swamp"


def test_found_cards_are_revealed_when_the_effect_says_so():  # CR 701.23e, 701.20a, 702.29e
    g = new_game()
    island, bears, swamp, bolt, wizard = g.add_cards(0, "library", MIXED)
    g.search(0, "basic land", reveal=True)  # e.g. basic landcycling

    (card,) = g.answer([swamp])

    assert g.hand(0) == [card] and card != swamp
    assert g.events == [
        {"kind": "searched", "player": 0, "library": 0, "found": [swamp]},
        {"kind": "revealed", "player": 0, "cards": [swamp]},
        {"kind": "moved", "from_id": swamp, "card": card, "from": {"kind": "library", "player": 0}, "to": {"kind": "hand", "player": 0}},
        {"kind": "shuffled", "player": 0},
    ]
    assert sorted(g.library(0)) == sorted([island, bears, bolt, wizard])


def test_search_puts_a_found_card_onto_the_battlefield_tapped():  # CR 701.23a, 110.2
    g = new_game()
    island, bears, swamp, bolt, wizard = g.add_cards(0, "library", MIXED)
    g.search(0, "basic land", to="battlefield", tapped=True)

    (card,) = g.answer([island])

    obj = g.object(card)
    assert (obj.zone, obj.tapped, obj.owner, obj.controller) == ("battlefield", True, 0, 0)
    assert g.battlefield() == [card]


def test_search_without_shuffle_keeps_the_library_order():  # CR 701.23a
    g = new_game()
    island, bears, swamp, bolt, wizard = g.add_cards(0, "library", MIXED)
    g.search(0, "creature", to="graveyard", shuffle=False)

    (card,) = g.answer([wizard])

    assert g.graveyard(0) == [card]
    assert g.library(0) == [island, bears, swamp, bolt]
    assert "shuffled" not in kinds(g.events)


def test_found_cards_put_on_top_are_not_part_of_the_shuffle():  # CR 701.24b
    for seed in range(6):
        g = new_game(seed=seed)
        island, bears, swamp, bolt, wizard = g.add_cards(0, "library", MIXED)
        g.search(0, "card", count=2, to="library_top")

        result = g.answer([bolt, bears])

        assert result == [bolt, bears]  # still in the library: same objects
        lib = g.library(0)
        assert lib[:2] == [bolt, bears]
        assert sorted(lib[2:]) == sorted([island, swamp, wizard])
        assert kinds(g.events) == ["searched", "shuffled"]


def test_you_may_search_declined_does_nothing():  # CR 701.23g ("you may search")
    g = new_game()
    lib = g.add_cards(0, "library", MIXED)

    assert g.search(0, "basic land", optional=True) is None
    d = g.pending
    assert (d.player, d.kind, d.purpose) == (0, "yes_no", "may_search")

    assert g.answer(False) == []
    assert g.pending is None
    assert g.library(0) == lib  # not searched, not shuffled
    assert g.events == []


def test_you_may_search_accepted_then_choose():  # CR 701.23g
    g = new_game()
    island, bears, swamp, bolt, wizard = g.add_cards(0, "library", MIXED)
    g.search(0, "basic land", optional=True)

    assert g.answer(True) is None
    assert g.pending.purpose == "search" and g.pending.options == [island, swamp]
    (card,) = g.answer([island])
    assert g.hand(0) == [card]
    assert kinds(g.events) == ["searched", "moved", "shuffled"]


def test_searching_another_players_library():  # CR 701.23a, 400.3
    g = new_game()
    island, bears, swamp = g.add_cards(1, "library", ["Island", "Grizzly Bears", "Swamp"])

    g.search(0, "creature", library=1, to="exile")
    assert g.pending.player == 0 and g.pending.options == [bears]
    (card,) = g.answer([bears])

    obj = g.object(card)
    assert (obj.zone, obj.owner) == ("exile", 1)
    assert g.events[0] == {"kind": "searched", "player": 0, "library": 1, "found": [bears]}
    assert g.events[-1] == {"kind": "shuffled", "player": 1}
    assert sorted(g.library(1)) == sorted([island, swamp])


def test_search_for_two_cards_into_hand():  # CR 701.23a, 701.23h
    g = new_game()
    island, bears, swamp, bolt, wizard = g.add_cards(0, "library", MIXED)
    g.search(0, "basic land", count=2)
    assert (g.pending.min, g.pending.max) == (0, 2)
    result = g.answer([swamp, island])
    assert names(g, result) == ["Swamp", "Island"]
    assert g.hand(0) == result


@pytest.mark.parametrize("description", ["lands?", "", "  "])
def test_an_unreadable_description_is_rejected(description):  # CR 701.23, 733
    g = new_game()
    g.add_cards(0, "library", MIXED)
    with rejected(g, mtgsim.InvalidArgumentError):
        g.search(0, description)


# ----- shuffle -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 7, 123456789])
def test_shuffle_randomises_with_the_games_generator(seed):  # CR 701.24a
    g = new_game(seed=seed, strict=True)
    lib = g.add_cards(0, "library", ["Island", "Swamp", "Mountain", "Forest", "Plains", "Wastes"])

    g.shuffle(0)

    assert g.library(0) == expected_shuffle(lib, seed)  # same objects, new order
    assert g.events == [{"kind": "shuffled", "player": 0}]


def test_shuffling_an_empty_or_one_card_library_is_still_a_shuffle():  # CR 701.24e
    g = new_game(strict=True)
    (one,) = g.add_cards(1, "library", ["Island"])
    g.shuffle(0)
    g.shuffle(1)
    assert g.library(0) == [] and g.library(1) == [one]
    assert g.events == [{"kind": "shuffled", "player": 0}, {"kind": "shuffled", "player": 1}]


def test_the_same_seed_gives_the_same_shuffles():  # CR 701.24a (portable generator)
    orders = []
    for _ in range(2):
        g = new_game(seed=99)
        g.add_cards(0, "library", ["Island", "Swamp", "Mountain", "Forest", "Plains", "Wastes", "Grizzly Bears"])
        g.shuffle(0)
        g.shuffle(0)
        orders.append(names(g, g.library(0)))
    assert orders[0] == orders[1]


# ----- reveal --------------------------------------------------------------------------------


def test_revealing_a_card_does_not_move_it():  # CR 701.20a, 701.20b
    g = new_game(strict=True)
    bolt, island = add_hand(g, 0, ["Lightning Bolt", "Island"])
    before = g.to_dict()

    g.reveal(0, [bolt])

    assert g.to_dict() == before  # same zones, same ids
    assert g.events == [{"kind": "revealed", "player": 0, "cards": [bolt]}]


def test_a_revealed_card_may_be_revealed_again():  # CR 701.20c
    g = new_game(strict=True)
    (top,) = g.add_cards(0, "library", ["Island"])
    g.reveal(0, [top])
    g.reveal(0, [top])
    assert g.events == [{"kind": "revealed", "player": 0, "cards": [top]}] * 2
    assert g.library(0) == [top]


def test_revealing_a_card_twice_in_one_reveal_is_rejected():  # CR 701.20, 733
    g = new_game()
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    with rejected(g, mtgsim.InvalidArgumentError):
        g.reveal(0, [bolt, bolt])


def test_revealing_a_card_that_no_longer_exists_is_rejected():  # CR 400.7, 733
    g = new_game()
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.move(bolt, "graveyard")
    with rejected(g, mtgsim.NoSuchObjectError):
        g.reveal(0, [bolt])


@pytest.mark.parametrize("exiled_instead", [False, True])
def test_a_search_that_puts_a_card_into_the_graveyard_triggers_library_to_graveyard_abilities(exiled_instead):  # CR 603.2, 603.10a, 614.1a
    # Before, only mills triggered Sidisi; an Entomb-like search put the Bears there unseen.
    db = mtgsim.CardDB()
    db.add([{"name": "Test Entomb", "mana_cost": "{B}", "type_line": "Instant",
             "rules": {"spell": [{"search": {"who": "you", "filter": "creature", "count": 1, "to": "graveyard"}}]}}])
    g = mtgsim.Game(2, 0, db=db)
    for p in (0, 1):
        g.set_policy(p, "first")
    g.add_cards(0, "library", ["Island"] * 5 + ["Grizzly Bears"])
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Swamp", "Sidisi, Brood Tyrant"] + (["Rest in Peace"] if exiled_instead else []))
    (entomb,) = g.add_cards(0, "hand", ["Test Entomb"])
    g.cast(entomb)
    g.resolve_top()
    assert names(g, g.graveyard(0)) == ([] if exiled_instead else ["Test Entomb", "Grizzly Bears"])  # top first
    assert names(g, g.stack()) == ([] if exiled_instead else ["Sidisi, Brood Tyrant"])


@pytest.mark.parametrize("recording", [True, False])
def test_the_instruction_after_a_search_still_runs(recording):  # CR 608.2c
    # With the log off, a first-option searcher's search is done without a frame (the fast path
    # of bulk runs); the instruction after it still follows.
    db = mtgsim.CardDB()
    db.add([{"name": "Test Tutor", "mana_cost": "{U}", "type_line": "Instant",
             "rules": {"spell": [{"search": {"who": "you", "filter": "Island", "count": 1, "to": "hand"}}, {"draw": {"count": 1}}]}}])
    g = mtgsim.Game(2, 0, db=db)
    for p in (0, 1):
        g.set_policy(p, "first")
    g.add_cards(0, "library", ["Swamp"] * 3 + ["Island"] + ["Swamp"] * 2)
    g.add_cards(1, "library", ["Swamp"] * 5)
    g.add_cards(0, "battlefield", ["Island"])
    (tutor,) = g.add_cards(0, "hand", ["Test Tutor"])
    g.recording = recording
    g.cast(tutor)
    g.resolve_top()
    assert sorted(names(g, g.hand(0))) == ["Island", "Swamp"]  # the Island found, then a card drawn
    assert len(g.library(0)) == 4 and names(g, g.graveyard(0)) == ["Test Tutor"]
