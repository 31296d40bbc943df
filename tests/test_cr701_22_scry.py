"""CR 701.22 Scry (a–d), with APNAP order for simultaneous scries (CR 101.4)."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import names, new_game, rejected


def five_card_library(g, player=0):
    return g.add_cards(player, "library", ["Island", "Swamp", "Mountain", "Forest", "Plains"])


def test_scry_zero_is_no_event():  # CR 701.22b
    g = new_game(strict=True)  # strict and no script: any decision would raise
    lib = five_card_library(g)
    assert g.scry(0, 0) is None
    assert g.pending is None
    assert g.events == []
    assert g.library(0) == lib


def test_scry_each_zero_is_no_event_for_anyone():  # CR 701.22b
    g = new_game(3, strict=True)
    for p in range(3):
        five_card_library(g, p)
    g.scry_each([0, 1, 2], 0)
    assert g.events == [] and g.pending is None


def test_scry_looks_at_the_top_n_cards():  # CR 701.22a
    g = new_game()
    a, b, c, d, e = five_card_library(g)

    assert g.scry(0, 3) is None

    dec = g.pending
    assert (dec.player, dec.kind, dec.purpose) == (0, "scry", "scry")
    assert dec.cards == [a, b, c]  # top first
    assert g.events == []  # the scried event comes only after the whole process (701.22d)
    assert g.library(0) == [a, b, c, d, e]


def test_scry_puts_any_number_on_the_bottom_in_any_order_and_the_rest_on_top():  # CR 701.22a
    g = new_game()
    a, b, c, d, e = five_card_library(g)
    g.scry(0, 3)

    g.answer(([c, a], [b]))  # top pile top-first, bottom pile top-first

    assert g.pending is None
    # cards stay in the library: no zone change, same objects (CR 400.7)
    assert g.library(0) == [c, a, d, e, b]
    assert names(g, g.library(0)) == ["Mountain", "Island", "Forest", "Plains", "Swamp"]
    assert g.events == [{"kind": "scried", "player": 0, "amount": 3, "looked": 3, "to_bottom": 1}]


def test_scry_orders_the_bottom_pile_as_chosen():  # CR 701.22a
    g = new_game()
    a, b, c, d, e = five_card_library(g)
    g.scry(0, 3)

    g.answer(([b], [c, a]))

    assert g.library(0) == [b, d, e, c, a]  # a is now the very bottom card
    assert g.events[-1] == {"kind": "scried", "player": 0, "amount": 3, "looked": 3, "to_bottom": 2}


def test_scry_may_keep_everything_on_top_in_a_new_order():  # CR 701.22a
    g = new_game()
    a, b, c, d, e = five_card_library(g)
    g.scry(0, 2)
    g.answer({"top": [b, a], "bottom": []})  # the dict form of an answer
    assert g.library(0) == [b, a, c, d, e]
    assert g.events[-1]["to_bottom"] == 0


def test_scry_may_put_everything_on_the_bottom():  # CR 701.22a
    g = new_game()
    a, b, c, d, e = five_card_library(g)
    g.scry(0, 2)
    g.answer(([], [a, b]))
    assert g.library(0) == [c, d, e, a, b]


def test_scry_more_than_the_library_looks_at_the_whole_library():  # CR 701.22a, 701.22d
    g = new_game()
    a, b = g.add_cards(0, "library", ["Island", "Swamp"])
    g.scry(0, 5)
    assert g.pending.cards == [a, b]

    g.answer(([b], [a]))

    assert g.library(0) == [b, a]
    # the event records the scry amount and how many cards were actually looked at
    assert g.events == [{"kind": "scried", "player": 0, "amount": 5, "looked": 2, "to_bottom": 1}]


def test_scry_with_an_empty_library_is_still_a_scry_event():  # CR 701.22d
    g = new_game(strict=True)  # nothing to decide, so nobody is asked
    g.scry(0, 2)
    assert g.pending is None
    assert g.events == [{"kind": "scried", "player": 0, "amount": 2, "looked": 0, "to_bottom": 0}]


def test_several_players_scry_deciding_in_apnap_order_and_cards_move_at_once():  # CR 701.22c, 101.4
    g = new_game(3)
    libs = [five_card_library(g, p) for p in range(3)]
    g.active_player = 1

    assert g.scry_each([0, 1, 2], 2) is None

    # active player (1) decides first, then the next in turn order (2), then 0
    assert g.pending.player == 1 and g.pending.cards == libs[1][:2]
    assert g.answer(([], libs[1][:2])) is None
    # nothing has moved yet: the cards move at the same time, after everyone decided
    assert g.library(1) == libs[1]
    assert g.events == []

    assert g.pending.player == 2 and g.pending.cards == libs[2][:2]
    assert g.answer(([libs[2][1]], [libs[2][0]])) is None
    assert g.library(2) == libs[2] and g.events == []

    assert g.pending.player == 0 and g.pending.cards == libs[0][:2]
    assert g.answer(([libs[0][1], libs[0][0]], [])) is not None

    assert g.pending is None
    assert g.library(1) == libs[1][2:] + libs[1][:2]
    assert g.library(2) == [libs[2][1]] + libs[2][2:] + [libs[2][0]]
    assert g.library(0) == [libs[0][1], libs[0][0]] + libs[0][2:]
    # one scried event per player, after the whole process, in APNAP order
    assert g.events == [
        {"kind": "scried", "player": 1, "amount": 2, "looked": 2, "to_bottom": 2},
        {"kind": "scried", "player": 2, "amount": 2, "looked": 2, "to_bottom": 1},
        {"kind": "scried", "player": 0, "amount": 2, "looked": 2, "to_bottom": 0},
    ]


def test_simultaneous_scry_where_one_library_is_empty():  # CR 701.22c, 701.22d
    g = new_game(2)
    a, b = g.add_cards(1, "library", ["Island", "Swamp"])

    g.scry_each([0, 1], 1)  # player 0's library is empty: nothing to decide for them

    assert g.pending.player == 1 and g.pending.cards == [a]
    g.answer(([], [a]))
    assert g.library(1) == [b, a]
    assert g.events == [
        {"kind": "scried", "player": 0, "amount": 1, "looked": 0, "to_bottom": 0},
        {"kind": "scried", "player": 1, "amount": 1, "looked": 1, "to_bottom": 1},
    ]


def test_scripted_simultaneous_scry_answers_are_used_in_apnap_order():  # CR 701.22c, 101.4
    g = new_game(2, strict=True)
    l0 = five_card_library(g, 0)
    l1 = five_card_library(g, 1)
    g.active_player = 1
    g.script(1, [([], [l1[0]])])
    g.script(0, [([l0[0]], [])])

    g.scry_each([0, 1], 1)

    assert g.library(1) == l1[1:] + [l1[0]]
    assert g.library(0) == l0
    assert [e["player"] for e in g.events] == [1, 0]
    assert g.script_len(0) == g.script_len(1) == 0


@pytest.mark.parametrize(
    "bad",
    [
        "missing",  # a card left out
        "twice",  # a card in both piles
        "stranger",  # a card that was not looked at
        "bool",  # not a scry answer
    ],
)
def test_a_wrong_scry_answer_changes_nothing(bad):  # CR 701.22a, 733
    g = new_game()
    a, b, c, d, e = five_card_library(g)
    g.scry(0, 2)
    answer = {
        "missing": ([a], []),
        "twice": ([a, b], [a]),
        "stranger": ([a, c], [b]),
        "bool": True,
    }[bad]
    with rejected(g, mtgsim.InvalidAnswerError):
        g.answer(answer)
    assert g.pending is not None and g.pending.cards == [a, b]


def test_scry_rejects_a_player_listed_twice():  # CR 733
    g = new_game(2)
    five_card_library(g, 0)
    with rejected(g, mtgsim.InvalidArgumentError):
        g.scry_each([0, 0], 1)


def test_scry_rejects_a_negative_amount():  # CR 733
    g = new_game(2)
    five_card_library(g, 0)
    with rejected(g, mtgsim.InvalidArgumentError):
        g.scry(0, -1)


EACH_SCRIES_HALF = {
    "name": "Test Each Player Scries Half",
    "mana_cost": "{U}",
    "type_line": "Sorcery",
    "oracle_text": "Each player scries X, where X is half the number of cards in their library, rounded up.",
    "rules": {"spell": [{"scry": {"who": "each_player", "count": "half_library_rounded_up"}}]},
}


def test_each_player_scries_their_own_amount_and_one_told_to_scry_0_does_not_scry():  # CR 701.22c, 701.22b, 101.4 (custom card)
    from conftest import add_hand, redefine

    g = new_game(3)
    libs = [g.add_cards(0, "library", ["Island"] * 4), g.add_cards(1, "library", ["Swamp"]), []]
    g.add_cards(0, "battlefield", ["Island"])
    (card,) = add_hand(g, 0, ["Stabilizer"])
    g = redefine(g, "Stabilizer", EACH_SCRIES_HALF)
    g.cast(card)
    g.resolve_top()
    assert (g.pending.player, g.pending.cards) == (0, libs[0][:2])  # half of 4
    g.answer(([], libs[0][:2]))
    assert (g.pending.player, g.pending.cards) == (1, libs[1][:1])  # half of 1, rounded up
    g.answer((libs[1][:1], []))
    assert g.pending is None
    scried = [e for e in g.events if e["kind"] == "scried"]
    assert [(e["player"], e["amount"]) for e in scried] == [(0, 2), (1, 1)]  # player 2 scried 0: no scry (701.22b)
    assert g.library(0) == libs[0][2:] + libs[0][:2]


def test_a_player_who_concedes_while_scrying_with_others_is_skipped():  # CR 701.22c, 800.4a
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island", "Swamp", "Forest"])
    lib0, lib2 = g.library(0), g.library(2)
    g.scry_each([0, 1, 2], 2)
    g.answer(([], lib0[:2]))  # player 0: both to the bottom
    assert g.pending.player == 1
    g.concede(1)
    assert (g.pending.player, g.pending.kind) == (2, "scry")  # the others go on
    g.answer((lib2[:2], []))
    assert g.pending is None
    assert g.library(0) == [lib0[2], *lib0[:2]] and g.library(2) == lib2
    assert [e["player"] for e in g.events if e["kind"] == "scried"] == [0, 2]
