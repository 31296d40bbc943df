"""CR 702.29 cycling: "Cycling [cost]" is "[cost], Discard this card: Draw a card" activated
only from its owner's hand (702.29a), with mana or life costs (119.4); "when you cycle this
card" triggers from the graveyard (702.29c) and goes on the stack above the cycling ability
(603.3); typecycling searches for a card of its type (702.29e, 701.23b) and always shuffles;
Stabilizer stops every cycling ability (602.5, 702.29f); Fluctuator reduces only the generic
part of its controller's cycling costs (601.2f, 602.2b). Activated abilities follow CR 602.

Every game is on the manual policy (conftest.new_game), so any unplanned decision shows up as
``pending``; games that should ask nothing are strict."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

import mtgsim
from conftest import add_hand, kinds, names, new_game, redefine, untouched, with_libraries

#: Cycling cards, the lands that pay their cycling costs exactly, and what the ability does.
CYCLERS = {
    "Canyon Slough": ["Swamp", "Mountain"],  # Cycling {2}
    "Archfiend of Ifnir": ["Swamp", "Swamp"],  # Cycling {2}
    "Fractured Sanity": ["Mountain", "Island"],  # Cycling {1}{U}
    "Street Wraith": [],  # Cycling—Pay 2 life.
    "Lórien Revealed": ["Forest"],  # Islandcycling {1}
    "Troll of Khazad-dûm": ["Forest"],  # Swampcycling {1}
    "Vedalken AEthermage": ["Forest"] * 3,  # Wizardcycling {3}
    "Ash Barrens": ["Forest"],  # Basic landcycling {1}
    "Ancient Excavation": ["Forest", "Forest"],  # Basic landcycling {2}
}


def without_activation(events):
    """The events other than "ability_activated" and the card's reveal (CR 602.2a): the costs,
    discard and cycled events, in order (where those two fall is tested on their own)."""
    return [e for e in events if e["kind"] not in ("ability_activated", "revealed")]


def activations(events):
    return [e for e in events if e["kind"] == "ability_activated"]


def cycling_game(card: str, lands: list[str] | None = None, *, library: list[str] | None = None, opp_library: int = 10):
    """Player 0 (active, with priority in the first main phase) has ``card`` in hand and the
    lands that pay its cycling cost exactly; player 1 has ``opp_library`` Forests."""
    g = new_game()
    lib = g.add_cards(0, "library", library if library is not None else ["Plains", "Wastes", "Plains"])
    g.add_cards(1, "library", ["Forest"] * opp_library)
    lands = CYCLERS[card] if lands is None else lands
    land_ids = g.add_cards(0, "battlefield", lands) if lands else []
    (c,) = add_hand(g, 0, [card])
    return g, c, land_ids, lib


# ----- 702.29a: cycling --------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["cycle", "activate"])
@pytest.mark.parametrize("card", ["Canyon Slough", "Archfiend of Ifnir"])
def test_cycling_pays_discards_and_puts_a_draw_ability_on_the_stack(card, how):  # CR 702.29a, 602.2, 117.3c
    g, c, lands, lib = cycling_game(card)
    g.strict = True
    assert g.priority_player == 0 and g.step == "precombat_main"
    g.clear_events()
    ab = g.cycle(c) if how == "cycle" else g.activate(c, 0)
    # The costs are paid at once: both lands tapped, the card discarded to the graveyard.
    assert all(g.object(land).tapped for land in lands)
    assert g.hand(0) == [] and g.library(0) == lib  # nothing drawn yet
    (gy,) = g.graveyard(0)
    assert g.name(gy) == card and gy != c
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(c)  # CR 400.7: the discarded card is a new object
    # The ability is an object on the stack, named after its card, controlled by the activator.
    assert g.stack() == [ab]
    o = g.object(ab)
    assert (o.zone, o.name, o.controller, g.name(ab)) == ("stack", card, 0, card)
    # CR 602.2a: activated from a hidden zone (the hand), the card is revealed first.
    assert g.events[0] == {"kind": "revealed", "player": 0, "cards": [c]}
    evs = without_activation(g.events)
    assert sorted(e["source"] for e in evs[:2]) == sorted(lands) and kinds(evs[:2]) == ["mana_added"] * 2
    assert evs[2:] == [
        {"kind": "discarded", "player": 0, "card": gy, "by": 0, "random": False},
        {"kind": "cycled", "player": 0, "card": gy},
    ]
    assert activations(g.events) == [{"kind": "ability_activated", "player": 0, "source": c, "ability": ab, "cycling": True}]
    assert g.priority_player == 0  # the activator gets priority again (CR 117.3c)
    # It resolves when all pass: draw a card.
    g.clear_events()
    g.resolve_top()
    (drawn,) = g.hand(0)
    assert g.name(drawn) == "Plains" and len(g.library(0)) == 2
    assert g.events == [
        {"kind": "passed_priority", "player": 0},
        {"kind": "passed_priority", "player": 1},
        {"kind": "drew", "player": 0, "card": drawn},
        {"kind": "resolved", "spell": ab, "card": None},
    ]
    assert g.stack() == [] and g.priority_player == 0
    assert names(g, g.graveyard(0)) == [card]
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(ab)  # the ability ceased to exist when it resolved


def test_cycling_with_a_life_cost_pays_life_and_taps_nothing():  # CR 702.29a, 119.4, 118.3b
    g, c, _, lib = cycling_game("Street Wraith", ["Swamp", "Swamp"])
    swamps = g.battlefield()
    g.strict = True
    g.clear_events()
    ab = g.cycle(c)
    (gy,) = g.graveyard(0)
    assert g.life(0) == 18 and not any(g.object(s).tapped for s in swamps)
    assert without_activation(g.events) == [
        {"kind": "life_changed", "player": 0, "from": 20, "to": 18},
        {"kind": "discarded", "player": 0, "card": gy, "by": 0, "random": False},
        {"kind": "cycled", "player": 0, "card": gy},
    ]
    assert g.stack() == [ab] and g.name(ab) == "Street Wraith"
    g.resolve_top()
    assert names(g, g.hand(0)) == ["Plains"] and g.library(0) == lib[1:]
    assert g.life(0) == 18


def test_paying_2_life_at_exactly_2_life_is_allowed_and_loses_the_game():  # CR 119.4, 704.5a
    g, c, _, _ = cycling_game("Street Wraith")
    g.set_life(0, 2)
    ab = g.cycle(c)
    assert ab is not None and g.life(0) == 0
    assert names(g, g.graveyard(0)) == ["Street Wraith"]
    assert g.is_over and g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "life"}]}


def test_a_life_cost_cannot_be_paid_with_less_life():  # CR 119.4, 118.3, 602.2, 733
    g, c, _, _ = cycling_game("Street Wraith", ["Swamp"] * 5)  # mana can't stand in for life
    g.set_life(0, 1)
    with untouched(g, mtgsim.CannotPayError, match="119.4"):
        g.cycle(c)
    with untouched(g, mtgsim.CannotPayError):
        g.activate(c, 0)
    assert g.hand(0) == [c] and g.stack() == []


@pytest.mark.parametrize(
    ("card", "lands"),
    [
        ("Canyon Slough", ["Swamp"]),  # {2} with one land
        ("Fractured Sanity", ["Swamp", "Swamp", "Swamp"]),  # {1}{U} without blue
        ("Vedalken AEthermage", ["Island", "Island"]),  # {3} with two
        ("Ancient Excavation", ["Island"]),  # {2} with one
    ],
)
def test_cycling_without_enough_mana_is_illegal_and_changes_nothing(card, lands):  # CR 602.2, 601.2h, 733
    g, c, land_ids, _ = cycling_game(card, lands)
    with untouched(g, mtgsim.CannotPayError):
        g.cycle(c)
    with untouched(g, mtgsim.CannotPayError):
        g.activate(c, 0)
    assert g.hand(0) == [c] and not any(g.object(x).tapped for x in land_ids)


@pytest.mark.parametrize("zone", ["battlefield", "graveyard", "library", "exile"])
def test_cycling_works_only_from_the_hand(zone):  # CR 702.29a, 702.29b
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Swamp", "Swamp", "Swamp"])
    (card,) = g.add_cards(0, zone, ["Ash Barrens"])  # a land: on the battlefield it is still a cycler
    with untouched(g, mtgsim.IllegalActionError):
        g.cycle(card)
    with untouched(g, mtgsim.IllegalActionError):
        g.activate(card, 0)


def test_only_the_player_with_priority_cycles_and_only_from_their_own_hand():  # CR 702.29a, 602.2, 117.1b
    g = with_libraries(new_game(), 3)
    (wraith,) = add_hand(g, 1, ["Street Wraith"])
    assert g.priority_player == 0
    with untouched(g, mtgsim.IllegalActionError):
        g.cycle(wraith)  # player 0 has priority; the card is in player 1's hand
    with untouched(g, mtgsim.IllegalActionError):
        g.activate(wraith, 0)
    g.pass_priority()
    assert g.priority_player == 1
    g.strict = True
    ab = g.cycle(wraith)
    assert (g.life(0), g.life(1)) == (20, 18)
    assert g.object(ab).controller == 1 and g.priority_player == 1
    assert names(g, g.graveyard(1)) == ["Street Wraith"] and g.graveyard(0) == []
    g.resolve_top()
    assert len(g.hand(1)) == 1 and len(g.library(1)) == 2 and g.hand(0) == []


def test_a_card_without_cycling_cannot_be_cycled():  # CR 702.29a, 602.1
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    (wraith,) = add_hand(g, 0, ["Street Wraith"])
    with untouched(g, mtgsim.IllegalActionError):
        g.cycle(bears)
    with untouched(g, mtgsim.InvalidArgumentError):
        g.activate(bears, 0)
    with untouched(g, mtgsim.InvalidArgumentError):
        g.activate(wraith, 1)  # Street Wraith has one activated ability


def test_cycling_while_a_decision_is_pending_is_rejected():  # Game.answer docs, CR 733
    g = with_libraries(new_game())
    wraith, _ = add_hand(g, 0, ["Street Wraith", "Grizzly Bears"])
    assert g.discard(0, 1) is None and g.pending.purpose == "discard"
    with untouched(g, mtgsim.DecisionPendingError):
        g.cycle(wraith)


def test_cycling_at_instant_speed_in_response_before_stabilizer_resolves():  # CR 702.29a, 602.5, 117.3, 608.1
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Plains", "Plains"])
    (stab,) = add_hand(g, 0, ["Stabilizer"])
    w1, w2 = add_hand(g, 1, ["Street Wraith", "Street Wraith"])
    spell = g.cast(stab)
    g.pass_priority()
    assert g.priority_player == 1
    ab = g.cycle(w1)  # Stabilizer is only a spell: nothing stops cycling yet
    assert g.stack() == [ab, spell] and g.life(1) == 18
    g.resolve_top()  # the cycling ability, on top, resolves first
    assert len(g.hand(1)) == 2 and g.stack() == [spell]
    g.resolve_top()
    assert names(g, g.battlefield())[-1] == "Stabilizer"
    g.pass_priority()
    assert g.priority_player == 1
    with untouched(g, mtgsim.IllegalActionError, match="602.5"):
        g.cycle(w2)
    assert g.life(1) == 18


def test_cycling_the_last_draw_from_an_empty_library_loses():  # CR 702.29a, 121.4, 704.5b
    g = new_game()
    g.add_cards(0, "battlefield", ["Swamp", "Swamp"])
    (c,) = add_hand(g, 0, ["Canyon Slough"])
    ab = g.cycle(c)  # legal: drawing is the effect, not a cost
    g.clear_events()
    g.resolve_top()
    assert kinds(g.events) == ["passed_priority", "passed_priority", "drew_from_empty_library", "resolved", "player_lost", "game_over"]
    assert g.events[3] == {"kind": "resolved", "spell": ab, "card": None}
    assert g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "empty_library"}]}


def test_an_ability_on_the_stack_survives_pickling_and_cloning():  # CR 113.7a, 602.2a; Game.__reduce__ docs
    g, c, _, lib = cycling_game("Fractured Sanity")
    ab = g.cycle(c)
    stack = g.stack()
    assert len(stack) == 2 and stack[1] == ab
    copies = [pickle.loads(pickle.dumps(g)), g.clone()]
    for x in [g, *copies]:
        assert x.stack() == stack and [x.name(s) for s in stack] == ["Fractured Sanity"] * 2
        x.clear_events()
        x.resolve_top()
        x.resolve_top()
        assert kinds([e for e in x.events if e["kind"] in ("milled", "drew")]) == ["milled", "drew"]
        assert (len(x.library(1)), names(x, x.hand(0)), x.stack()) == (6, ["Plains"], [])


# ----- 702.29c: "when you cycle this card" ------------------------------------------------------------------


def test_when_you_cycle_triggers_from_the_graveyard_above_the_cycling_ability():  # CR 702.29c, 603.3, 405.2
    g, c, lands, lib = cycling_game("Fractured Sanity")
    opp = g.library(1)
    g.strict = True
    g.clear_events()
    ab = g.cycle(c)
    (gy,) = g.graveyard(0)
    trig = g.stack()[0]
    assert g.stack() == [trig, ab] and trig != ab
    assert (g.name(trig), g.object(trig).controller, g.object(trig).zone) == ("Fractured Sanity", 0, "stack")
    evs = without_activation(g.events)
    assert kinds(evs) == ["mana_added", "mana_added", "discarded", "cycled", "ability_triggered"]
    assert evs[-1] == {"kind": "ability_triggered", "player": 0, "source": gy, "ability": trig}  # from the graveyard
    assert g.priority_player == 0 and len(g.library(1)) == 10  # nothing milled yet
    # The trigger resolves first: the opponent mills four; only then is the card drawn.
    g.clear_events()
    g.resolve_top()
    milled = g.graveyard(1)
    assert len(milled) == 4 and len(g.library(1)) == 6 and g.library(1) == opp[4:]
    assert g.events[2] == {"kind": "milled", "player": 1, "cards": milled[::-1]}  # former top first
    assert g.events[3] == {"kind": "resolved", "spell": trig, "card": None}
    assert g.stack() == [ab] and g.hand(0) == []
    g.resolve_top()
    assert names(g, g.hand(0)) == ["Plains"] and g.library(0) == lib[1:]
    assert kinds(g.events) == ["passed_priority", "passed_priority", "milled", "resolved"] + ["passed_priority", "passed_priority", "drew", "resolved"]
    assert g.life(1) == 20 and g.graveyard(0) == [gy]


def test_the_cycle_trigger_resolves_even_if_the_card_left_the_graveyard():  # CR 113.7a, 702.29c
    g, c, _, _ = cycling_game("Fractured Sanity")
    g.cycle(c)
    (gy,) = g.graveyard(0)
    g.move(gy, "exile")
    g.resolve_top()
    assert len(g.graveyard(1)) == 4 and len(g.library(1)) == 6


def test_a_non_active_player_cycles_fractured_sanity_and_each_opponent_mills_four():  # CR 702.29c, 603.3a, 701.17a
    g = with_libraries(new_game(3), 6, "Plains")
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (fs,) = add_hand(g, 1, ["Fractured Sanity"])
    g.pass_priority()
    assert g.priority_player == 1
    ab = g.cycle(fs)
    trig = g.stack()[0]
    assert g.stack() == [trig, ab] and g.object(trig).controller == 1 and g.object(ab).controller == 1
    g.clear_events()
    g.resolve_top()
    assert [e["player"] for e in g.events if e["kind"] == "milled"] == [0, 2]  # APNAP from the active player
    assert [len(g.library(p)) for p in range(3)] == [2, 6, 2]
    assert [len(g.graveyard(p)) for p in range(3)] == [4, 1, 4]
    g.resolve_top()
    assert [len(g.hand(p)) for p in range(3)] == [0, 1, 0]


def test_the_cycle_trigger_mills_only_what_the_opponent_has():  # CR 701.17b (as many as possible)
    g, c, _, _ = cycling_game("Fractured Sanity", opp_library=2)
    g.cycle(c)
    g.resolve_top()
    assert g.library(1) == [] and len(g.graveyard(1)) == 2 and not g.is_over
    g.resolve_top()
    assert len(g.hand(0)) == 1


# ----- 702.29e: typecycling --------------------------------------------------------------------------------


SEARCH_LIBRARY = [
    "Forest", "Island", "Canyon Slough", "Swamp", "Ash Barrens", "Vedalken AEthermage",
    "Thrasios, Triton Hero", "Grizzly Bears", "Wastes", "Island", "Laboratory Maniac",
]  # fmt: skip

#: What each typecycler may find in SEARCH_LIBRARY (by index).
FINDABLE = {
    "Lórien Revealed": [1, 9],  # Island cards
    "Troll of Khazad-dûm": [2, 3],  # Swamp cards: nonbasic Canyon Slough (Swamp Mountain) too
    "Vedalken AEthermage": [5, 6, 10],  # Wizard cards
    "Ash Barrens": [0, 1, 3, 8, 9],  # basic land cards (Wastes has no land type)
    "Ancient Excavation": [0, 1, 3, 8, 9],
}


@pytest.mark.parametrize("card", list(FINDABLE))
def test_typecycling_searches_for_a_card_of_its_type_reveals_it_and_shuffles(card):  # CR 702.29e, 701.23, 701.24
    g, c, lands, lib = cycling_game(card, library=SEARCH_LIBRARY)
    ab = g.cycle(c)
    (gy,) = g.graveyard(0)
    assert g.stack() == [ab] and g.name(ab) == card and all(g.object(x).tapped for x in lands)
    # Activated once its costs are paid (CR 601.2i via 602.2b): the discard and the cycle come first.
    assert activations(g.events)[-1]["cycling"] is True and g.events[-1]["kind"] == "ability_activated"
    assert {"kind": "cycled", "player": 0, "card": gy} in g.events
    g.clear_events()
    assert g.resolve_top() is None
    d = g.pending
    findable = [lib[i] for i in FINDABLE[card]]
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "choose_cards", "search", 0, 1)
    assert sorted(d.options) == sorted(findable)
    pick = findable[-1]
    picked_name = g.name(pick)
    g.clear_events()
    g.answer([pick])
    (found,) = g.hand(0)
    assert g.name(found) == picked_name
    assert kinds(g.events) == ["searched", "revealed", "moved", "shuffled", "resolved"]
    assert g.events[0] == {"kind": "searched", "player": 0, "library": 0, "found": [pick]}
    assert g.events[1] == {"kind": "revealed", "player": 0, "cards": [pick]}
    assert g.events[2] == {"kind": "moved", "card": found, "from_id": pick, "from": {"kind": "library", "player": 0}, "to": {"kind": "hand", "player": 0}}
    assert g.events[-1] == {"kind": "resolved", "spell": ab, "card": None}
    rest = Counter(SEARCH_LIBRARY)
    rest[picked_name] -= 1
    assert Counter(names(g, g.library(0))) == rest
    assert g.stack() == [] and g.graveyard(0) == [gy] and g.priority_player == 0


@pytest.mark.parametrize("card", list(FINDABLE))
def test_typecycling_may_find_nothing_and_still_shuffles(card):  # CR 701.23b, 702.29e, 701.24
    g, c, _, lib = cycling_game(card, library=SEARCH_LIBRARY)
    ab = g.cycle(c)
    g.resolve_top()
    assert g.pending.purpose == "search" and g.pending.min == 0
    g.clear_events()
    g.answer([])
    assert g.hand(0) == []
    assert kinds(g.events) == ["searched", "shuffled", "resolved"]
    assert g.events[0]["found"] == [] and g.events[-1]["spell"] == ab
    assert sorted(g.library(0)) == sorted(lib) and len(g.library(0)) == len(SEARCH_LIBRARY)
    assert names(g, g.graveyard(0)) == [card]


def test_typecycling_with_nothing_to_find_asks_nothing_and_shuffles():  # CR 701.23b, 702.29e
    g, c, _, lib = cycling_game("Lórien Revealed", library=["Forest", "Swamp", "Plains", "Grizzly Bears"])
    g.strict = True
    g.cycle(c)
    g.clear_events()
    g.resolve_top()
    assert g.pending is None and g.hand(0) == [] and g.stack() == []
    assert kinds(g.events) == ["passed_priority", "passed_priority", "searched", "shuffled", "resolved"]
    assert sorted(g.library(0)) == sorted(lib)


def test_typecycling_rejects_a_card_of_the_wrong_type():  # CR 702.29e, 701.23; Game.answer docs
    g, c, _, lib = cycling_game("Lórien Revealed", library=SEARCH_LIBRARY)
    g.cycle(c)
    g.resolve_top()
    for wrong in ([lib[0]], [lib[3]], [lib[2]], [lib[1], lib[9]]):  # Forest, Swamp, Canyon Slough, two Islands
        with untouched(g, mtgsim.InvalidAnswerError):
            g.answer(wrong)
    g.answer([lib[9]])
    assert names(g, g.hand(0)) == ["Island"] and g.stack() == []


def test_typecycling_with_a_scripted_answer():  # GUIDE §4 (scripts), CR 702.29e
    g, c, _, lib = cycling_game("Vedalken AEthermage", library=SEARCH_LIBRARY)
    g.strict = True
    g.script(0, [[lib[6]]])
    g.cycle(c)
    g.resolve_top()
    assert names(g, g.hand(0)) == ["Thrasios, Triton Hero"] and g.script_len(0) == 0 and g.pending is None


# ----- 602.5: Stabilizer ----------------------------------------------------------------------------------


@pytest.mark.parametrize("controller", [0, 1])
@pytest.mark.parametrize("card", list(CYCLERS))
def test_stabilizer_stops_every_cycling_and_typecycling_ability(card, controller):  # CR 602.5, 702.29f
    g, c, lands, _ = cycling_game(card)
    g.add_cards(controller, "battlefield", ["Stabilizer"])
    with untouched(g, mtgsim.IllegalActionError, match="602.5"):
        g.cycle(c)
    with untouched(g, mtgsim.IllegalActionError, match="602.5"):
        g.activate(c, 0)
    assert g.hand(0) == [c] and g.life(0) == 20 and not any(g.object(x).tapped for x in lands)


def test_stabilizer_stops_the_opponents_cycling_too():  # CR 602.5 ("Players can't cycle cards")
    g = with_libraries(new_game(), 3)
    g.add_cards(0, "battlefield", ["Stabilizer"])
    (wraith,) = add_hand(g, 1, ["Street Wraith"])
    g.pass_priority()
    with untouched(g, mtgsim.IllegalActionError, match="602.5"):
        g.cycle(wraith)


@pytest.mark.parametrize("zone", ["hand", "graveyard", "exile", "library"])
def test_stabilizer_off_the_battlefield_stops_nothing(zone):  # CR 113.6 (static abilities work on the battlefield)
    g, c, _, _ = cycling_game("Street Wraith")
    g.add_cards(0, zone, ["Stabilizer"])
    g.cycle(c)
    assert g.life(0) == 18 and names(g, g.graveyard(0))[0] == "Street Wraith"


# ----- Fluctuator: cycling costs up to {2} less -------------------------------------------------------------


def test_fluctuator_makes_a_cycling_2_free():  # CR 601.2f, 602.2b
    g, c, _, _ = cycling_game("Canyon Slough", [])
    g.add_cards(0, "battlefield", ["Fluctuator"])
    g.strict = True
    g.clear_events()
    ab = g.cycle(c)
    assert "mana_added" not in kinds(g.events) and g.stack() == [ab]
    assert kinds(without_activation(g.events)) == ["discarded", "cycled"]
    g.resolve_top()
    assert names(g, g.hand(0)) == ["Plains"]


def test_fluctuator_reduces_only_generic_mana():  # CR 601.2f, 602.2b
    g, c, _, _ = cycling_game("Fractured Sanity", ["Swamp", "Swamp"])
    g.add_cards(0, "battlefield", ["Fluctuator"])
    with untouched(g, mtgsim.CannotPayError):
        g.cycle(c)  # {1}{U} -> {U}: still blue
    (island, swamp) = g.add_cards(0, "battlefield", ["Island", "Swamp"])
    g.cycle(c)
    assert g.object(island).tapped
    assert [g.object(s).tapped for s in g.battlefield() if g.name(s) == "Swamp"] == [False, False, False]
    assert len(g.stack()) == 2  # the ability and its trigger


def test_fluctuator_reduces_by_at_most_2_and_two_fluctuators_by_4():  # CR 601.2f, 602.2b
    g, c, _, _ = cycling_game("Vedalken AEthermage", ["Forest", "Forest"], library=SEARCH_LIBRARY)
    f1, f2 = g.battlefield()
    g.add_cards(0, "battlefield", ["Fluctuator"])
    g.cycle(c)  # {3} -> {1}
    assert sorted([g.object(f1).tapped, g.object(f2).tapped]) == [False, True]
    g2, c2, _, _ = cycling_game("Vedalken AEthermage", [], library=SEARCH_LIBRARY)
    g2.add_cards(0, "battlefield", ["Fluctuator"])
    with untouched(g2, mtgsim.CannotPayError):
        g2.cycle(c2)  # {1} still to pay
    g2.add_cards(0, "battlefield", ["Fluctuator"])
    assert g2.cycle(c2) is not None  # {3} -> {0}
    assert names(g2, g2.graveyard(0)) == ["Vedalken AEthermage"]


def test_fluctuator_helps_only_its_controller():  # CR 602.2b ("Cycling abilities you activate")
    g, c, _, _ = cycling_game("Canyon Slough", ["Swamp"])
    g.add_cards(1, "battlefield", ["Fluctuator"])
    with untouched(g, mtgsim.CannotPayError):
        g.cycle(c)
    (slough1,) = add_hand(g, 1, ["Canyon Slough"])
    g.pass_priority()
    assert g.cycle(slough1) is not None  # free for player 1
    assert names(g, g.graveyard(1)) == ["Canyon Slough"]


def test_fluctuator_does_not_touch_life_costs_or_spells():  # CR 601.2f (cycling abilities only)
    g, c, _, _ = cycling_game("Street Wraith", ["Island", "Island", "Island"])
    g.add_cards(0, "battlefield", ["Fluctuator"])
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    assert g.cost_of(fs) == ("{U}{U}{U}", True)
    g.cycle(c)
    assert g.life(0) == 18


def test_stabilizer_beats_fluctuator():  # CR 602.5
    g, c, _, _ = cycling_game("Canyon Slough", [])
    g.add_cards(0, "battlefield", ["Fluctuator", "Stabilizer"])
    with untouched(g, mtgsim.IllegalActionError, match="602.5"):
        g.cycle(c)


# ----- 603.3, 702.29d: triggers go on the stack in APNAP order ------------------------------------------------

#: Astral Slide as "Whenever a player cycles a card, you mill a card" and Archfiend of Ifnir as
#: "Whenever you cycle or discard another card, each opponent loses 1 life" (trigger kinds no
#: built-in card carries yet; written out through conftest.redefine).
SLIDE = {
    "name": "Astral Slide",
    "mana_cost": "{2}{W}",
    "type_line": "Enchantment",
    "oracle_text": "Whenever a player cycles a card, you mill a card.",
    "rules": {"triggers": [{"when": "player_cycles", "effects": [{"mill": {"who": "you", "count": 1}}]}]},
}
ARCHFIEND = {
    "name": "Archfiend of Ifnir",
    "mana_cost": "{3}{B}{B}",
    "type_line": "Creature — Demon",
    "oracle_text": "Whenever you cycle or discard another card, each opponent loses 1 life.\nCycling {2}",
    "power": "5",
    "toughness": "4",
    "rules": {
        "triggers": [{"when": {"cycle_or_discard": {"another": True}}, "effects": [{"lose_life": {"who": "each_opponent", "amount": 1}}]}],
        "activated": [{"cost": {"mana": "{2}", "discard_self": True}, "effects": [{"draw": {"count": 1}}], "zone": "hand", "cycling": True}],
    },
}


def test_triggers_of_both_players_go_on_the_stack_in_apnap_order():  # CR 603.3, 603.3b, 702.29c
    g = with_libraries(new_game(), 6, "Plains")
    (slide0,) = g.add_cards(0, "battlefield", ["Astral Slide"])
    (slide1,) = g.add_cards(1, "battlefield", ["Astral Slide"])
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (fs,) = add_hand(g, 1, ["Fractured Sanity"])
    g = redefine(g, "Astral Slide", SLIDE)
    g.pass_priority()  # player 1 cycles on player 0's turn
    g.clear_events()
    assert g.cycle(fs) is None
    # Player 1 has two triggers at once and orders them (CR 603.3b): first listed goes lowest.
    d = g.pending
    assert (d.player, d.purpose, d.kind, d.min, d.max) == (1, "order_triggers", "order", 2, 2)
    cycle_trigger = next(o for o in d.options if g.object(o).controller == 1 and g.name(o) == "Fractured Sanity")
    slide_trigger = next(o for o in d.options if o != cycle_trigger)
    with pytest.raises(mtgsim.InvalidAnswerError):
        g.answer([cycle_trigger])  # every trigger must be placed
    (ab,) = g.answer([cycle_trigger, slide_trigger])
    top = g.stack()
    assert len(top) == 4 and top[-1] == ab
    # The active player's trigger goes on the stack first (lowest); player 1's on top, in the
    # order chosen.
    assert [g.object(s).controller for s in top] == [1, 1, 0, 1]
    assert top[:2] == [slide_trigger, cycle_trigger]
    triggered = [e for e in g.events if e["kind"] == "ability_triggered"]
    assert [e["player"] for e in triggered] == [0, 1, 1]
    assert triggered[0]["source"] == slide0 and top[2] == triggered[0]["ability"]
    assert {e["source"] for e in triggered[1:]} == {slide1, g.graveyard(1)[0]}
    g.clear_events()
    for _ in range(4):
        g.resolve_top()
    milled = [(e["player"], len(e["cards"])) for e in g.events if e["kind"] == "milled"]
    assert sorted(milled[:2]) == [(0, 4), (1, 1)] and milled[2] == (0, 1)
    assert [e["kind"] for e in g.events if e["kind"] in ("milled", "drew")][-1] == "drew"
    assert (len(g.library(0)), len(g.library(1)), len(g.hand(1))) == (1, 4, 1)


def test_cycle_or_discard_triggers_once_per_cycle():  # CR 702.29d
    g = with_libraries(new_game(), 4)
    g.add_cards(0, "battlefield", ["Archfiend of Ifnir", "Swamp", "Swamp"])
    (c,) = add_hand(g, 0, ["Canyon Slough"])
    (other,) = add_hand(g, 0, ["Archfiend of Ifnir"])
    g = redefine(g, "Archfiend of Ifnir", ARCHFIEND)
    g.strict = True
    g.clear_events()
    ab = g.cycle(c)
    assert kinds(g.events).count("ability_triggered") == 1 and len(g.stack()) == 2 and g.stack()[1] == ab
    g.resolve_top()
    assert g.life(1) == 19
    g.resolve_top()
    assert len(g.hand(0)) == 2 and g.life(1) == 19


# ----- findings (see /work/notes/findings_cycling.md) ----------------------------------------------------------


def test_the_ability_is_activated_only_after_all_its_costs_are_paid():  # CR 601.2h, 601.2i (via 602.2b)
    g, c, _, _ = cycling_game("Street Wraith")
    g.clear_events()
    ab = g.cycle(c)
    (gy,) = g.graveyard(0)
    assert g.events == [
        {"kind": "revealed", "player": 0, "cards": [c]},
        {"kind": "life_changed", "player": 0, "from": 20, "to": 18},
        {"kind": "discarded", "player": 0, "card": gy, "by": 0, "random": False},
        {"kind": "cycled", "player": 0, "card": gy},
        {"kind": "ability_activated", "player": 0, "source": c, "ability": ab, "cycling": True},
    ]


def test_auto_pay_off_makes_the_cycling_mana_a_pay_mana_decision():  # CR 602.2b, 601.2g-h; Game.set_auto_pay docs
    g, c, _, _ = cycling_game("Canyon Slough", ["Swamp", "Island", "Island"])
    lands = g.battlefield()
    g.set_auto_pay(0, False)
    assert g.cycle(c) is None
    d = g.pending
    assert (d.player, d.kind, d.purpose, sorted(d.options)) == (0, "choose_cards", "pay_mana", sorted(lands))
    assert g.hand(0) == [c] and g.stack() == [] and not any(g.object(x).tapped for x in lands)
    (ab,) = g.answer([lands[1], lands[2]])
    assert g.object(lands[1]).tapped and g.object(lands[2]).tapped and not g.object(lands[0]).tapped
    assert g.stack() == [ab]


def test_a_pay_mana_answer_that_cannot_pay_an_ability_is_refused_and_changes_nothing():  # CR 601.2h via 602.2b
    g, c, _, _ = cycling_game("Canyon Slough", ["Swamp", "Island", "Island"])
    lands = g.battlefield()
    g.set_auto_pay(0, False)
    assert g.cycle(c) is None
    # One Island can't pay {2}; the legal actions offer "done" only once the picks pay.
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer([lands[1]])
    assert g.pending is not None and g.pending.purpose == "pay_mana"
    g.take(next(a for a in g.legal_actions() if a.kind == "pick" and a.to_dict().get("object") == lands[1]))
    assert not any(a.kind == "done" for a in g.legal_actions())
    g.take(next(a for a in g.legal_actions() if a.kind == "pick" and a.to_dict().get("object") == lands[2]))
    assert any(a.kind == "done" for a in g.legal_actions())
    g.take(next(a for a in g.legal_actions() if a.kind == "done"))
    assert g.object(lands[1]).tapped and g.object(lands[2]).tapped and not g.object(lands[0]).tapped
    assert names(g, g.graveyard(0)) == ["Canyon Slough"]


def test_with_auto_pay_off_an_unpayable_cycling_cost_is_refused_at_once():  # CR 601.2h via 602.2b, 733
    g, c, _, _ = cycling_game("Canyon Slough", ["Swamp"])  # {2}: one land can't pay it
    g.set_auto_pay(0, False)
    with untouched(g, mtgsim.CannotPayError, match="not enough"):
        g.cycle(c)
    assert g.pending is None


@pytest.mark.parametrize("card", ["Drake Haven", "Faith of the Devoted"])
def test_with_auto_pay_off_the_player_chooses_what_pays_a_you_may_pay(card):  # CR 605.3a, 601.2g-h, 603.5
    g = new_game()
    for p in range(2):
        g.add_cards(p, "library", ["Island"] * 8)
    g.add_cards(0, "battlefield", [card])
    island, swamp = g.add_cards(0, "battlefield", ["Island", "Swamp"])
    (wraith,) = add_hand(g, 0, ["Street Wraith"])
    g.set_auto_pay(0, False)
    g.cycle(wraith)  # pay 2 life: nothing to tap
    g.resolve_top()  # the trigger: "you may pay {1}"
    assert g.pending.purpose == "may"
    g.answer(True)
    assert g.pending.purpose == "pay_mana" and sorted(g.pending.options) == sorted([island, swamp])
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer([])  # nothing in the pool: {1} unpaid
    g.answer([swamp])
    assert g.object(swamp).tapped and not g.object(island).tapped
    assert g.pending is None
    if card == "Drake Haven":
        assert [g.name(c) for c in g.battlefield() if g.name(c) == "Drake"] == ["Drake"]
    else:
        assert g.life(1) == 18 and g.life(0) == 20


@pytest.mark.parametrize("x", [0, 3])
def test_a_when_you_cycle_trigger_reads_the_x_paid_to_cycle(x):  # CR 107.3e, 702.29 (Shark Typhoon)
    # Before, the trigger read the card's own X, which is 0: the card was cycled, never cast.
    db = mtgsim.CardDB()
    db.add([{"name": "Shark Test", "mana_cost": "{5}{U}", "type_line": "Enchantment",
             "oracle_text": "Cycling {X}{1}{U}\nWhen you cycle this card, each opponent mills X cards.",
             "rules": {"triggers": [{"when": "cycle_this", "effects": [{"mill": {"who": "each_opponent", "count": "x"}}]}]}}])
    g = mtgsim.Game(2, 0, db=db)
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 20)
    g.add_cards(0, "battlefield", ["Island"] * 5)
    (shark,) = g.add_cards(0, "hand", ["Shark Test"])
    g.activate(shark, 0, x=x)
    while g.stack():
        g.resolve_top()
    assert len(g.library(1)) == 20 - x and len(g.hand(0)) == 1
