"""CR 701.9 Discard: chosen by the discarding player, at random, or by another player."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import add_hand, kinds, names, new_game, rejected


def test_discard_is_chosen_by_the_discarding_player():  # CR 701.9a, 701.9b
    g = new_game()
    island, swamp, mountain = add_hand(g, 0, ["Island", "Swamp", "Mountain"])

    assert g.discard(0, 1) is None  # stopped at a decision
    d = g.pending
    assert (d.player, d.kind, d.purpose) == (0, "choose_cards", "discard")
    assert d.options == [island, swamp, mountain]
    assert (d.min, d.max) == (1, 1)
    assert g.hand(0) == [island, swamp, mountain] and g.events == []  # nothing moved yet

    result = g.answer([swamp])

    assert g.pending is None
    assert len(result) == 1 and names(g, result) == ["Swamp"]
    assert g.hand(0) == [island, mountain]
    assert g.graveyard(0) == result
    assert g.object(result[0]).zone == "graveyard"
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(swamp)
    assert g.events == [{"kind": "discarded", "player": 0, "card": result[0], "by": 0, "random": False}]


def test_discarding_two_cards_moves_them_in_the_chosen_order():  # CR 701.9a
    g = new_game()
    bolt, bears, island = add_hand(g, 0, ["Lightning Bolt", "Grizzly Bears", "Island"])
    g.discard(0, 2)
    assert (g.pending.min, g.pending.max) == (2, 2)

    result = g.answer([island, bolt])

    assert names(g, result) == ["Island", "Lightning Bolt"]
    assert g.hand(0) == [bears]
    assert g.graveyard(0) == [result[1], result[0]]  # last discarded on top
    assert [(e["card"], e["by"]) for e in g.events] == [(result[0], 0), (result[1], 0)]


def test_asked_to_discard_more_than_the_hand_holds_discards_the_whole_hand():  # CR 701.9 (issue), decision with one legal answer
    g = new_game(strict=True)  # no script: there must be no decision to ask
    add_hand(g, 0, ["Island", "Swamp"])

    result = g.discard(0, 3)

    assert names(g, result) == ["Island", "Swamp"]
    assert g.hand(0) == []
    assert sorted(g.graveyard(0)) == sorted(result)
    assert kinds(g.events) == ["discarded", "discarded"]
    assert {e["card"] for e in g.events} == set(result)


def test_discarding_from_an_empty_hand_does_nothing():  # CR 701.9a
    g = new_game(strict=True)
    assert g.discard(0, 2) == []
    assert g.events == [] and g.graveyard(0) == []


def test_discarding_zero_cards_is_not_asked():  # CR 701.9a
    g = new_game(strict=True)
    hand = add_hand(g, 0, ["Island", "Swamp"])
    assert g.discard(0, 0) == []
    assert g.hand(0) == hand and g.events == []


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 17])
def test_random_discard_uses_the_games_own_generator(seed):  # CR 701.9b
    # The game's generator is Rng(seed) until something uses it; a random discard of k cards
    # draws k times without replacement from the hand in its listed order.
    hand_names = ["Island", "Swamp", "Mountain", "Forest", "Plains"]
    g = new_game(seed=seed, strict=True)  # strict, no script: nobody is asked
    hand = add_hand(g, 0, hand_names)
    label = dict(zip(hand, hand_names))

    result = g.discard(0, 2, random=True)

    rng = mtgsim.Rng(seed)
    pool = list(hand)
    expected = [pool.pop(rng.below(len(pool))) for _ in range(2)]
    assert names(g, result) == [label[c] for c in expected]
    assert g.hand(0) == pool
    assert g.events == [
        {"kind": "discarded", "player": 0, "card": result[0], "by": None, "random": True},
        {"kind": "discarded", "player": 0, "card": result[1], "by": None, "random": True},
    ]


def test_random_discard_is_reproducible_from_the_seed():  # CR 701.9b
    results = []
    for _ in range(2):
        g = new_game(seed=42, strict=True)
        add_hand(g, 0, ["Island", "Swamp", "Mountain", "Forest", "Plains", "Wastes"])
        results.append(names(g, g.discard(0, 3, random=True)))
    assert results[0] == results[1]


def test_random_discard_of_more_than_the_hand_discards_all():  # CR 701.9b
    g = new_game(seed=3, strict=True)
    hand = add_hand(g, 1, ["Island", "Swamp"])
    result = g.discard(1, 5, random=True)
    assert sorted(names(g, result)) == ["Island", "Swamp"]
    assert g.hand(1) == [] and all(g.object(c).zone == "graveyard" for c in result)
    assert all(e["random"] and e["by"] is None for e in g.events)
    assert len(hand) == 2


def test_discard_chosen_by_another_player():  # CR 701.9b
    g = new_game()
    island, bolt, bears = add_hand(g, 0, ["Island", "Lightning Bolt", "Grizzly Bears"])

    assert g.discard(0, 1, chooser=1) is None

    d = g.pending
    assert (d.player, d.purpose) == (1, "discard")  # player 1 chooses ...
    assert d.options == [island, bolt, bears]  # ... from player 0's hand
    assert "player 1" in d.prompt and "player 0" in d.prompt

    result = g.answer([bolt])

    assert names(g, result) == ["Lightning Bolt"]
    assert g.graveyard(0) == result and g.graveyard(1) == []  # the owner's graveyard (701.9a)
    assert g.hand(0) == [island, bears]
    assert g.events == [{"kind": "discarded", "player": 0, "card": result[0], "by": 1, "random": False}]


def test_naming_the_discarding_player_as_chooser_is_an_ordinary_discard():  # CR 701.9b
    g = new_game()
    add_hand(g, 0, ["Island", "Swamp"])
    g.discard(0, 1, chooser=0)
    assert g.pending.player == 0


def test_a_random_discard_has_no_chooser():  # CR 701.9b, 733
    g = new_game()
    add_hand(g, 0, ["Island", "Swamp"])
    with rejected(g, mtgsim.InvalidArgumentError):
        g.discard(0, 1, random=True, chooser=1)


@pytest.mark.parametrize(
    "bad_answer",
    [
        [],  # too few
        "two cards",  # not ids
        True,  # wrong kind of answer
        ([], []),  # a scry answer
    ],
)
def test_a_wrong_discard_answer_changes_nothing_and_the_decision_stays(bad_answer):  # CR 733
    g = new_game()
    hand = add_hand(g, 0, ["Island", "Swamp", "Mountain"])
    g.discard(0, 2)
    with rejected(g, mtgsim.InvalidAnswerError):
        g.answer(bad_answer)
    assert g.pending is not None and g.hand(0) == hand


def test_discard_answers_must_be_distinct_cards_from_the_hand():  # CR 701.9a, 733
    g = new_game()
    island, swamp, mountain = add_hand(g, 0, ["Island", "Swamp", "Mountain"])
    (other,) = add_hand(g, 1, ["Forest"])
    g.discard(0, 2)
    for bad in ([island, island], [island, other], [island, swamp, mountain]):
        with rejected(g, mtgsim.InvalidAnswerError):
            g.answer(bad)
    assert g.answer([mountain, island]) is not None
    assert g.hand(0) == [swamp]


def _peek_and_draw_game() -> tuple[mtgsim.Game, int]:
    """A custom sorcery: reveal your top card, discard the remembered cards still in hand, draw."""
    db = mtgsim.CardDB()
    db.add({"name": "Peek and Draw", "mana_cost": "{U}", "type_line": "Sorcery",
            "rules": {"spell": [{"reveal_top": {"count": 1}}, "discard_remembered", {"draw": {"count": 1}}]}})
    g = mtgsim.Game(2, seed=1, db=db)
    g.add_cards(0, "library", ["Swamp"] * 10)
    g.add_cards(1, "library", ["Swamp"] * 10)
    g.add_cards(0, "battlefield", ["Island"])
    (card,) = g.add_cards(0, "hand", ["Peek and Draw"])
    return g, card


def test_discarding_remembered_cards_none_of_which_is_in_hand_does_nothing():  # CR 701.9, 608.2c, 608.2n
    # The revealed card is still in the library, so there is nothing to discard; the spell's
    # next instruction follows at once, and the spell is put into the graveyard last. (The
    # engine used to run whatever was waiting below the spell's instructions here: with the
    # built-in players choosing, the spell finished resolving before its own draw.)
    g, card = _peek_and_draw_game()
    for p in (0, 1):
        g.set_policy(p, "goldfish")
    g.play(max_actions=3)  # cast, both pass, it resolves
    assert kinds(g.events)[-3:] == ["revealed", "drew", "resolved"]
    assert g.hand(0) != [] and len(g.library(0)) == 9 and names(g, g.graveyard(0)) == ["Peek and Draw"]


def test_when_the_chooser_leaves_the_next_player_chooses_the_discard():  # CR 800.4g-h, 701.9a
    """Player 1 chooses what player 0 discards and concedes while choosing: player 2, next in
    turn order, chooses instead (before, the engine panicked resuming without an answer)."""
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 5)
    hand = g.add_cards(0, "hand", ["Island", "Swamp", "Forest"])
    assert g.discard(0, 1, chooser=1) is None and g.pending.player == 1
    g.concede(1)
    assert (g.pending.player, g.pending.purpose, sorted(g.pending.options)) == (2, "discard", sorted(hand))
    g.answer([hand[1]])
    assert names(g, g.graveyard(0)) == ["Swamp"] and g.events[-1]["by"] == 2
