"""Modal spells (CR 700.2) and spree (CR 702.172): the modes are chosen as the spell is cast
(CR 601.2b), each chosen spree mode adds its cost, and the chosen modes happen in printed order."""

from __future__ import annotations

import pytest

import mtgsim
import mtgsim.errors as errors
from conftest import rejected


def surprise_game() -> tuple[mtgsim.Game, int, int]:
    g = mtgsim.Game(2, 3)
    g.add_cards(0, "battlefield", ["Forest"] * 8)
    # Library, top first: what "mill four cards" will mill.
    g.add_cards(0, "library", ["Grizzly Bears", "Island", "Counterspell", "Hill Giant", "Swamp"])
    surprise, giant = g.add_cards(0, "hand", ["Smuggler's Surprise", "Hill Giant"])
    g.set_policy(0, "manual")
    return g, surprise, giant


def tapped(g: mtgsim.Game) -> int:
    return sum(g.object(c).tapped for c in g.battlefield())


def test_modes_are_a_decision_made_first_and_spree_costs_add_up() -> None:  # CR 601.2b, 702.172a
    g, surprise, _ = surprise_game()
    assert g.cast(surprise) is None
    d = g.pending
    assert (d.kind, d.purpose, d.min, d.max, d.options) == ("modes", "modes", 1, 3, [0, 1, 2])
    (spell,) = g.answer([0, 1])
    assert g.cast_info(spell)["modes"] == [0, 1]
    assert tapped(g) == 8  # {G} + {2} + {4}{G}


@pytest.mark.parametrize("modes, cost", [([0], 3), ([2], 2), ([0, 2], 4)])
def test_only_the_chosen_modes_costs_are_paid(modes: list[int], cost: int) -> None:  # CR 702.172a
    g, surprise, _ = surprise_game()
    g.cast(surprise, modes=modes)
    assert tapped(g) == cost


def test_chosen_modes_happen_in_printed_order_with_the_milled_cards() -> None:  # CR 700.2, 701.17c
    g, surprise, giant = surprise_game()
    g.cast(surprise, modes=[0, 1])
    g.resolve_top()
    # Mode 0: mill four, then up to two creature/land cards from among them into hand.
    d = g.pending
    assert (d.purpose, d.min, d.max) == ("put_from_milled", 0, 2)
    assert [g.name(c) for c in d.options] == ["Grizzly Bears", "Island", "Hill Giant"]  # not Counterspell
    bears = d.options[0]
    g.answer([bears, d.options[2]])
    # Mode 1: up to two creature cards from hand onto the battlefield — the Bears just returned.
    d = g.pending
    assert d.purpose == "put_from_hand" and sorted(g.name(c) for c in d.options) == ["Grizzly Bears", "Hill Giant", "Hill Giant"]
    g.answer([giant])
    assert [g.name(c) for c in g.battlefield()][-1] == "Hill Giant"
    assert sorted(g.name(c) for c in g.hand(0)) == ["Grizzly Bears", "Hill Giant"]
    assert [g.name(c) for c in g.library(0)] == ["Swamp"]
    assert sorted(g.name(c) for c in g.graveyard(0)) == ["Counterspell", "Island", "Smuggler's Surprise"]


@pytest.mark.parametrize("modes", [[], [3], [0, 0], [0, 1, 2, 2]])
def test_illegal_mode_choices_are_rejected_and_change_nothing(modes: list[int]) -> None:  # CR 700.2, 733
    g, surprise, _ = surprise_game()
    with rejected(g, errors.InvalidAnswerError):
        g.cast(surprise, modes=modes)


def test_a_wrong_modes_answer_keeps_the_decision() -> None:  # CR 733
    g, surprise, _ = surprise_game()
    g.cast(surprise)
    for bad in ([], [5], [1, 1]):
        with rejected(g, errors.InvalidAnswerError):
            g.answer(bad)
    assert g.pending is not None and g.pending.kind == "modes"
    g.cancel()
    assert g.pending is None and surprise in g.hand(0) and tapped(g) == 0


@pytest.mark.parametrize("via_take", [False, True])
def test_modes_whose_costs_cant_be_paid_are_refused_and_the_decision_stays(via_take: bool) -> None:  # CR 601.2b, 601.2h, 733
    g, surprise, _ = surprise_game()
    for forest in g.battlefield()[4:]:
        g.move(forest, "graveyard")  # four Forests: {G} + {2} + {4}{G} is too much
    assert g.cast(surprise) is None
    if via_take:
        g.take(g.legal_actions()[0])  # mode 1 (index 0), then mode 2
        g.take(next(a for a in g.legal_actions() if a.text == "choose mode 2"))
        assert len(g.selection) == 2
    with rejected(g, errors.CannotPayError):
        if via_take:
            g.take(next(a for a in g.legal_actions() if a.kind == "done"))
        else:
            g.answer([0, 1])
    assert g.pending.purpose == "modes" and g.stack() == [] and len(g.selection) == (2 if via_take else 0)
    (spell,) = g.answer([0])  # a choice they can pay for
    assert g.cast_info(spell)["modes"] == [0] and tapped(g) == 3


BLUE_SPREE = {
    "name": "Test Blue Spree",
    "mana_cost": "{U}",
    "type_line": "Sorcery",
    "oracle_text": "Spree\n+ {2} — Mill two cards.\n+ {1} — Mill one card.",
    "rules": {"choose": [1, 2], "modes": [{"cost": "{2}", "effects": [{"mill": {"count": 2}}]}, {"cost": "{1}", "effects": [{"mill": {"count": 1}}]}]},
}


def test_the_cheapest_spree_mode_is_costed_with_the_reductions_as_a_cast_pays_it() -> None:  # CR 601.2f, 702.172a (custom card)
    from conftest import redefine

    g = mtgsim.Game(2, 3)
    g.add_cards(0, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["The Water Crystal", "Island"])
    (card,) = g.add_cards(0, "hand", ["Stabilizer"])
    g = redefine(g, "Stabilizer", BLUE_SPREE)
    # {U} + the cheapest mode's {1}, one less for The Water Crystal: one Island pays it.
    assert g.cost_of(card) == ("{U}", True)
    g.set_policy(0, "manual")
    assert {"action": "cast", "card": card} in g.priority_actions()
    g.cast(card, modes=[1])
    assert g.object(g.battlefield()[1]).tapped
