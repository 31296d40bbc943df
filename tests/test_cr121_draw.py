"""CR 121 Drawing a card; CR 104.3c / 121.4 / 704.5b drawing from an empty library."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import kinds, names, new_game


def test_draw_puts_top_card_into_hand_as_a_new_object():  # CR 121.1, 400.7
    g = new_game(strict=True)
    island, swamp, mountain = g.add_cards(0, "library", ["Island", "Swamp", "Mountain"])

    drawn = g.draw(0)

    assert len(drawn) == 1
    card = drawn[0]
    assert card != island  # a new object: the library card's id is gone
    assert g.hand(0) == [card]
    assert g.name(card) == "Island"
    assert g.object(card).zone == "hand" and g.object(card).owner == 0
    assert g.library(0) == [swamp, mountain]  # untouched cards keep their ids
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(island)
    assert g.events == [{"kind": "drew", "player": 0, "card": card}]
    assert g.hand(1) == [] and g.library(1) == []


def test_drawing_several_cards_is_that_many_individual_draws():  # CR 121.2
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Island", "Swamp", "Mountain"])

    drawn = g.draw(0, 2)

    assert names(g, drawn) == ["Island", "Swamp"]
    assert g.hand(0) == drawn  # hand lists cards in arrival order
    assert g.events == [
        {"kind": "drew", "player": 0, "card": drawn[0]},
        {"kind": "drew", "player": 0, "card": drawn[1]},
    ]
    assert names(g, g.library(0)) == ["Mountain"]


def test_drawing_zero_cards_draws_nothing_even_from_an_empty_library():  # CR 121.2, 121.4
    g = new_game(strict=True)
    assert g.draw(0, 0) == []
    assert g.events == []
    assert not g.is_over and g.outcome is None


def test_drawing_exactly_the_whole_library_does_not_lose():  # CR 121.4, 704.5b
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Island", "Swamp"])

    drawn = g.draw(0, 2)

    assert names(g, drawn) == ["Island", "Swamp"]
    assert g.library(0) == []
    assert not g.is_over
    assert g.to_dict()["players"][0]["lost"] is None
    assert "drew_from_empty_library" not in kinds(g.events)


def test_drawing_from_an_empty_library_loses_at_the_next_sba_check():  # CR 121.4, 104.3c, 704.5b
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Island"])
    g.add_cards(1, "library", ["Swamp"])

    drawn = g.draw(0, 3)  # one real draw, then two attempts from an empty library

    assert names(g, drawn) == ["Island"]  # 104.3c: they draw the remaining cards
    assert g.hand(0) == drawn
    assert g.events == [
        {"kind": "drew", "player": 0, "card": drawn[0]},
        {"kind": "drew_from_empty_library", "player": 0},
        {"kind": "drew_from_empty_library", "player": 0},
        {"kind": "player_lost", "player": 0, "reason": "empty_library"},
        {"kind": "game_over", "winners": [1]},
    ]
    assert g.is_over
    assert g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "empty_library"}]}
    assert g.to_dict()["players"][0]["lost"] == "empty_library"
    assert g.to_dict()["players"][1]["lost"] is None


def test_single_draw_from_empty_library_loses_the_two_player_game():  # CR 121.4, 704.5b, 104.2a
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Island"])

    assert g.draw(1) == []

    assert g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "empty_library"}]}
    assert kinds(g.events) == ["drew_from_empty_library", "player_lost", "game_over"]


def test_draw_from_empty_library_still_loses_with_recording_off():  # CR 704.5b
    g = new_game(strict=True)
    g.recording = False

    g.draw(0)

    assert g.events == []
    assert g.is_over
    assert g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "empty_library"}]}


def test_no_draws_after_the_game_is_over():  # CR 104.1 (the game ends), 733
    g = new_game(strict=True)
    g.add_cards(1, "library", ["Island"])
    g.draw(0)  # player 0 loses
    assert g.is_over
    before = (g.to_dict(), g.events)
    with pytest.raises(mtgsim.GameOverError):
        g.draw(1)
    assert (g.to_dict(), g.events) == before


def test_drawn_ids_are_the_ids_in_hand_and_in_the_events():  # CR 400.7
    g = new_game(strict=True)
    g.add_cards(0, "library", ["Lightning Bolt", "Counterspell", "Grizzly Bears", "Island"])
    first = g.draw(0, 1)
    second = g.draw(0, 2)
    assert g.hand(0) == first + second
    assert [e["card"] for e in g.events] == first + second
    assert names(g, g.hand(0)) == ["Lightning Bolt", "Counterspell", "Grizzly Bears"]
    assert all(g.object(c).zone == "hand" for c in g.hand(0))
