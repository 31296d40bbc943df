"""Legal actions for front ends and agents (issue: "For front ends and agents: legal actions ...").

``Game.legal_actions`` lists the steps the deciding player may take at the pending decision: a
whole priority action (CR 117.1: pass, play a land, cast a spell, activate an ability), yes/no, a
number, or one card, target or mode added to a selection, with "done" once the minimum is met.
``Game.take`` takes one step; a complete selection is given as the answer and the game plays on
to the next decision nobody inside the engine answers. ``ActionSpace`` numbers every action a
game configuration can offer; ``action_mask`` marks the legal codes; ``perft`` counts action
sequences (a move-generation check, as in chess engines).

Every position here has every player on the "manual" policy, so each decision with more than
one legal answer shows up as ``game.pending`` (one with a single legal answer is never asked).
A rejected step must change nothing (CR 733): checked on ``to_json()`` and on the complete
saved state (which, unlike ``to_json()``, holds a selection in progress).
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator, Sequence

import pytest

import mtgsim
from conftest import X_DRAW, add_hand, full_state, redefine

# ----- helpers ---------------------------------------------------------------------------------


def manual_game(num_players: int = 2, seed: int = 1) -> mtgsim.Game:
    """An empty game at player 0's turn-1 precombat main phase, every player manual."""
    g = mtgsim.Game(num_players, seed)
    for p in range(num_players):
        g.set_policy(p, "manual")
    return g


def texts(g: mtgsim.Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def action(g: mtgsim.Game, text: str) -> mtgsim.Action:
    """The one legal action with this text."""
    found = [a for a in g.legal_actions() if a.text == text]
    assert len(found) == 1, f"{text!r} among {texts(g)}"
    return found[0]


def take(g: mtgsim.Game, text: str) -> list[int] | None:
    return g.take(action(g, text))


def pick_of(obj: int) -> mtgsim.Action:
    """The action that adds object ``obj`` to a selection (its text is not compared)."""
    return mtgsim.Action._from_json(f'{{"kind": "pick", "object": {obj}}}', "")


def pick(g: mtgsim.Game, obj: int) -> mtgsim.Action:
    """The legal action picking object ``obj``."""
    found = [a for a in g.legal_actions() if a == pick_of(obj)]
    assert len(found) == 1, f"picking {obj} among {texts(g)}"
    return found[0]


def snapshot(g: mtgsim.Game) -> tuple[str, str]:
    """What a rejected step must leave exactly as it was: the public snapshot and the complete
    saved state (the selection in progress included)."""
    return g.to_json(), full_state(g)


def names(g: mtgsim.Game, ids: Sequence[int]) -> list[str]:
    return [g.name(i) for i in ids]


def py_perft(g: mtgsim.Game, depth: int) -> int:
    """perft written independently in Python: clone, take each legal action, recurse."""
    if depth == 0 or g.pending is None or g.is_over:
        return 1
    total = 0
    for a in g.legal_actions():
        child = g.clone()
        child.take(a)
        total += py_perft(child, depth - 1)
    return total


def sanity_position() -> mtgsim.Game:
    """Player 0: three Islands in play, Island and Fractured Sanity ({U}{U}{U}, cycling {1}{U})
    in hand, ten Swamps in library; player 1: twenty Forests in library."""
    g = manual_game(2, 1)
    g.add_cards(0, "library", ["Swamp"] * 10)
    g.add_cards(1, "library", ["Forest"] * 20)
    g.add_cards(0, "battlefield", ["Island"] * 3)
    g.add_cards(0, "hand", ["Island", "Fractured Sanity"])
    g.play()
    return g


def example_game(seed: int) -> mtgsim.Game:
    """A game of the built-in example decks, both players manual, at its first decision."""
    g = mtgsim.Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=seed)
    for p in range(g.num_players):
        g.set_policy(p, "manual")
    g.play()
    return g


MAX_STEPS = 5000  # random games of the example decks take about 40 to 100 steps


def random_walk(g: mtgsim.Game, rng: random.Random) -> Iterator[mtgsim.Game]:
    """Yields ``g`` at each decision of a game played by uniformly random legal actions (the
    consumer inspects it before the walk takes the next step); stops when the game is over."""
    for _ in range(MAX_STEPS):
        if g.is_over:
            return
        assert g.pending is not None, "the game stopped with nothing pending and is not over"
        yield g
        g.take(rng.choice(g.legal_actions()))
    raise AssertionError(f"the game did not end within {MAX_STEPS} steps")


def space_size(slots: int, players: int) -> int:
    """The documented layout: 4 fixed codes, per slot pick, bottom, play, cast and 4 abilities,
    then players, 16 modes and 65 numbers (0 to 64, the largest X or multikicker count offered)."""
    return 4 + slots * (4 + 4) + players + 16 + 65


# ----- texts -----------------------------------------------------------------------------------


def test_priority_actions_read_pass_play_cast_and_cycle() -> None:  # CR 117.1, 305.1, 601, 702.29
    g = sanity_position()
    d = g.pending
    assert d is not None and (d.player, d.kind, d.purpose) == (0, "action", "priority")
    legal = g.legal_actions()
    assert [a.text for a in legal] == ["pass priority", "play Island", "cast Fractured Sanity", "cycle Fractured Sanity"]
    assert [a.kind for a in legal] == ["priority"] * 4
    assert [str(a) for a in legal] == [a.text for a in legal]
    assert repr(legal[0]) == "<Action pass priority>"
    # The priority actions are the decision's options, in the same order.
    assert [a.to_dict()["action"] for a in legal] == d.options
    island, sanity = g.hand(0)
    assert [a.to_dict() for a in legal] == [
        {"kind": "priority", "action": {"action": "pass"}, "text": "pass priority"},
        {"kind": "priority", "action": {"action": "play_land", "card": island}, "text": "play Island"},
        {"kind": "priority", "action": {"action": "cast", "card": sanity}, "text": "cast Fractured Sanity"},
        {"kind": "priority", "action": {"action": "activate", "source": sanity, "index": 0}, "text": "cycle Fractured Sanity"},
    ]


@pytest.mark.parametrize(
    ("lands", "offered"),
    [(["Island", "Swamp"], True), (["Island", "Island"], False), (["Swamp"] * 3, False), (["Island"], False)],
)
def test_a_spell_is_offered_when_the_mana_by_color_pays_it(lands: list[str], offered: bool) -> None:  # CR 601.2f-h, 106.1
    # Glimpse the Unthinkable costs {U}{B}: the amount of mana alone doesn't decide it.
    g = manual_game(2, 1)
    g.add_cards(0, "library", ["Swamp"] * 10)
    g.add_cards(1, "library", ["Forest"] * 20)
    g.add_cards(0, "battlefield", lands)
    g.add_cards(0, "hand", ["Glimpse the Unthinkable"])
    g.play()
    assert ("cast Glimpse the Unthinkable" in texts(g)) == offered


def test_one_land_play_per_turn() -> None:  # CR 305.2
    g = sanity_position()
    assert take(g, "play Island") is None
    assert g.pending is not None and g.pending.player == 0 and g.step == "precombat_main"
    assert texts(g) == ["pass priority", "cast Fractured Sanity", "cycle Fractured Sanity"]
    assert names(g, g.battlefield()) == ["Island"] * 4


def test_cycling_fractured_sanity_mills_four_then_draws() -> None:  # CR 702.29a, 603 (the cycle trigger)
    g = sanity_position()
    take(g, "cycle Fractured Sanity")
    # Cycling ({1}{U}) taps two Islands; the trigger resolves (opponent mills 4) before the draw.
    assert len(g.library(1)) == 16 and len(g.library(0)) == 9
    assert names(g, g.hand(0)) == ["Island", "Swamp"]
    assert names(g, g.graveyard(0)) == ["Fractured Sanity"]
    assert g.pending is not None and g.pending.player == 0 and g.step == "precombat_main"
    assert texts(g) == ["pass priority", "play Island", "play Swamp"]


def test_casting_fractured_sanity_mills_fourteen() -> None:  # CR 601, 608, 701.17
    g = sanity_position()
    take(g, "cast Fractured Sanity")
    assert len(g.library(1)) == 6
    assert names(g, g.graveyard(0)) == ["Fractured Sanity"] and g.stack() == []
    # The game played on to player 0's next real choice: the land drop is still unused.
    assert (g.turn, g.step, g.pending is not None and g.pending.player) == (1, "precombat_main", 0)
    assert texts(g) == ["pass priority", "play Island"]


def test_sorceries_only_at_sorcery_speed_instants_any_time() -> None:  # CR 307.1, 117.1a
    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Mountain", "Island", "Swamp"])
    g.add_cards(0, "hand", ["Lightning Bolt", "Glimpse the Unthinkable"])
    g.play()
    seen: list[tuple[int, str, int, list[str]]] = []
    for _ in range(9):
        assert g.pending is not None
        seen.append((g.turn, g.step, g.pending.player, texts(g)))
        take(g, "pass priority")
    both = ["pass priority", "cast Lightning Bolt", "cast Glimpse the Unthinkable"]
    bolt = ["pass priority", "cast Lightning Bolt"]
    assert seen == [
        (1, "precombat_main", 0, both),
        (1, "begin_combat", 0, bolt),
        (1, "declare_attackers", 0, bolt),  # no attackers: no blockers or damage step (CR 508.8)
        (1, "end_combat", 0, bolt),
        (1, "postcombat_main", 0, both),
        (1, "end", 0, bolt),
        (2, "upkeep", 0, bolt),  # the opponent's turn: only the instant
        (2, "draw", 0, bolt),
        (2, "precombat_main", 1, ["pass priority", "play Island"]),
    ]


def leech_position(lands: list[str]) -> mtgsim.Game:
    """Monstrous War-Leech ({3}{B}, kicker {U}; kicked, it mills four as it enters; */* equal to
    the highest mana value in its owner's graveyard) in hand, Hill Giants (mana value 4) in the
    library and one in the graveyard, so the Leech survives either way."""
    g = manual_game()
    g.add_cards(0, "library", ["Hill Giant"] * 10)
    g.add_cards(0, "graveyard", ["Hill Giant"])
    g.add_cards(1, "library", ["Forest"] * 20)
    g.add_cards(0, "battlefield", lands)
    g.add_cards(0, "hand", ["Monstrous War-Leech"])
    g.play()
    return g


@pytest.mark.parametrize("kick", [True, False])
def test_kicker_decision_reads_kick_and_dont_kick(kick: bool) -> None:  # CR 702.33, 601.2b
    g = leech_position(["Island", "Swamp", "Swamp", "Swamp", "Swamp"])
    assert texts(g) == ["pass priority", "cast Monstrous War-Leech"]
    assert take(g, "cast Monstrous War-Leech") is None
    d = g.pending
    assert d is not None and (d.player, d.kind, d.purpose) == (0, "yes_no", "kicker")
    legal = g.legal_actions()
    assert [(a.kind, a.text) for a in legal] == [("yes", "kick Monstrous War-Leech with {U}"), ("no", "don't kick Monstrous War-Leech")]
    assert [a.to_dict() for a in legal] == [
        {"kind": "yes", "text": "kick Monstrous War-Leech with {U}"},
        {"kind": "no", "text": "don't kick Monstrous War-Leech"},
    ]
    take(g, "kick Monstrous War-Leech with {U}" if kick else "don't kick Monstrous War-Leech")
    (leech,) = [i for i in g.battlefield() if g.name(i) == "Monstrous War-Leech"]
    assert g.kicked(leech) is kick
    assert len(g.library(0)) == (6 if kick else 10)
    assert len(g.graveyard(0)) == (5 if kick else 1)
    assert g.power_toughness(leech) == (4, 4)
    # Played on to the opponent's first real choice (turn 2, a land to play).
    assert g.pending is not None and (g.turn, g.pending.player) == (2, 1)


def test_a_kicker_that_cant_be_paid_is_not_asked() -> None:  # "a decision with one legal answer is never asked"
    g = leech_position(["Swamp"] * 4)
    take(g, "cast Monstrous War-Leech")
    (leech,) = [i for i in g.battlefield() if g.name(i) == "Monstrous War-Leech"]
    assert g.kicked(leech) is False and len(g.library(0)) == 10


def test_joint_exploration_kicker_scry_and_land_from_hand() -> None:  # CR 702.33, 701.22
    g = manual_game()
    g.add_cards(0, "library", ["Swamp", "Island", "Plains", "Mountain"])
    g.add_cards(1, "library", ["Forest"] * 20)
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    g.add_cards(0, "hand", ["Joint Exploration", "Forest"])
    g.play()
    assert texts(g) == ["pass priority", "play Forest", "cast Joint Exploration"]
    take(g, "cast Joint Exploration")
    assert texts(g) == ["kick Joint Exploration with {G}", "don't kick Joint Exploration"]
    take(g, "kick Joint Exploration with {G}")
    assert g.pending is not None and g.pending.purpose == "scry"
    assert texts(g) == ["put Swamp on top", "put Swamp on the bottom", "put Island on top", "put Island on the bottom"]
    take(g, "put Swamp on the bottom")
    assert texts(g) == ["put Island on top", "put Island on the bottom"]
    take(g, "put Island on top")
    # Drew the Island; kicked: "you may put a land card from your hand onto the battlefield".
    d = g.pending
    assert d is not None and (d.kind, d.purpose, d.min, d.max) == ("choose_cards", "put_from_hand", 0, 1)
    assert texts(g) == ["choose Forest", "choose Island", "done"]
    take(g, "choose Forest")
    assert names(g, g.battlefield()) == ["Island", "Island", "Forest", "Forest"]
    assert names(g, g.library(0)) == ["Plains", "Mountain", "Swamp"]
    # Putting a land onto the battlefield is not playing one: the land drop is still there.
    assert texts(g) == ["pass priority", "play Island"]


def test_scry_actions_put_on_top_and_on_the_bottom() -> None:  # CR 701.22a
    g = manual_game()
    top, second, _ = g.add_cards(0, "library", ["Island", "Swamp", "Forest"])
    g.scry(0, 2)
    d = g.pending
    assert d is not None and (d.kind, d.purpose, d.cards) == ("scry", "scry", [top, second])
    legal = g.legal_actions()
    assert [(a.kind, a.text) for a in legal] == [
        ("pick", "put Island on top"),
        ("bottom", "put Island on the bottom"),
        ("pick", "put Swamp on top"),
        ("bottom", "put Swamp on the bottom"),
    ]
    assert [a.to_dict() for a in legal] == [
        {"kind": "pick", "object": top, "text": "put Island on top"},
        {"kind": "bottom", "object": top, "text": "put Island on the bottom"},
        {"kind": "pick", "object": second, "text": "put Swamp on top"},
        {"kind": "bottom", "object": second, "text": "put Swamp on the bottom"},
    ]
    assert "done" not in texts(g)  # every card looked at must be placed


def test_discard_search_and_may_search_texts() -> None:  # CR 701.9, 701.23
    g = manual_game()
    add_hand(g, 0, ["Island", "Swamp", "Forest"])
    g.discard(0, 2)
    assert texts(g) == ["discard Island", "discard Swamp", "discard Forest"]

    g = manual_game()
    g.add_cards(0, "library", ["Island", "Grizzly Bears", "Swamp", "Lightning Bolt", "Mountain"])
    g.search(0, "basic land", count=2)
    d = g.pending
    assert d is not None and (d.purpose, d.min, d.max) == ("search", 0, 2)  # may go unfound (701.23b)
    assert texts(g) == ["find Island", "find Swamp", "find Mountain", "done"]

    g = manual_game()
    g.add_cards(0, "library", ["Island", "Grizzly Bears"])
    g.search(0, "basic land", optional=True)
    assert texts(g) == ["search", "don't search"]
    assert [a.kind for a in g.legal_actions()] == ["yes", "no"]


def test_target_texts_players_and_objects() -> None:  # CR 115, 601.2c
    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 5)
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    g.add_cards(0, "hand", ["Lightning Bolt"])
    g.play()
    take(g, "cast Lightning Bolt")
    d = g.pending
    assert d is not None and (d.kind, d.purpose, d.min, d.max) == ("targets", "targets", 1, 1)
    legal = g.legal_actions()
    assert [(a.kind, a.text) for a in legal] == [
        ("pick_player", "target player 0"),
        ("pick_player", "target player 1"),
        ("pick", "target Grizzly Bears"),
    ]
    assert legal[1].to_dict() == {"kind": "pick_player", "player": 1, "text": "target player 1"}
    assert legal[2].to_dict() == {"kind": "pick", "object": bears, "text": "target Grizzly Bears"}


def test_mode_multikicker_x_order_legend_and_mana_texts() -> None:  # CR 700.2, 702.33c, 107.3, 603.3b, 704.5j
    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Forest"] * 9)
    g.add_cards(0, "hand", ["Smuggler's Surprise"])
    g.play()
    take(g, "cast Smuggler's Surprise")
    assert texts(g) == ["choose mode 1", "choose mode 2", "choose mode 3"]
    assert [a.to_dict()["mode"] for a in g.legal_actions()] == [0, 1, 2]

    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Island"] * 5)
    g.add_cards(0, "hand", ["Everflowing Chalice"])
    g.play()
    take(g, "cast Everflowing Chalice")  # {0}, multikicker {2}: five lands pay it twice
    assert texts(g) == ["pay multikicker 0 time(s)", "pay multikicker 1 time(s)", "pay multikicker 2 time(s)"]
    assert [a.kind for a in g.legal_actions()] == ["number"] * 3

    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Island"] * 3)
    g.add_cards(0, "hand", ["Fractured Sanity"])
    g = redefine(g, "Fractured Sanity", X_DRAW)  # {X}{U}: X is 0 to 2 with three Islands
    g.play()
    take(g, "cast Test X Draw")
    assert texts(g) == ["X = 0", "X = 1", "X = 2"]

    g = manual_game()
    g.add_cards(0, "library", ["Swamp"] * 10)
    g.add_cards(1, "library", ["Forest"] * 20)
    g.add_cards(0, "battlefield", ["Ruin Crab"] * 3)
    g.add_cards(0, "hand", ["Island"])
    g.play()
    take(g, "play Island")  # three landfall triggers at once: their controller orders them
    d = g.pending
    assert d is not None and (d.kind, d.purpose) == ("order", "order_triggers")
    assert texts(g) == ["next: Ruin Crab"] * 3
    assert [a.to_dict()["object"] for a in g.legal_actions()] == d.options

    g = manual_game()
    g.add_cards(0, "library", ["Swamp"] * 10)
    g.add_cards(1, "library", ["Forest"] * 20)
    (old,) = g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent"])
    g.add_cards(0, "battlefield", ["Island"] * 3)
    g.add_cards(0, "hand", ["Bruvac the Grandiloquent"])
    g.play()
    take(g, "cast Bruvac the Grandiloquent")
    d = g.pending
    assert d is not None and d.purpose == "legend_rule"
    assert texts(g) == ["keep Bruvac the Grandiloquent"] * 2
    assert g.legal_actions()[0].to_dict()["object"] == old

    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Island", "Island", "Island", "Swamp"])
    g.add_cards(0, "hand", ["Fractured Sanity"])
    g.set_auto_pay(0, False)
    g.play()
    take(g, "cast Fractured Sanity")
    assert g.pending is not None and g.pending.purpose == "pay_mana"
    assert [t for t in texts(g) if t != "done"] == ["tap Island for mana"] * 3 + ["tap Swamp for mana"]


# ----- the action space ------------------------------------------------------------------------


def test_action_space_layout_and_codes() -> None:  # ActionSpace docstring
    g = sanity_position()
    assert g.action_space(0).slots == 35  # 30 library cards, 3 Islands, 2 cards in hand
    space = g.action_space(extra=64)
    assert (space.slots, space.players) == (99, 2)
    assert space.size == len(space) == space_size(99, 2) == 879
    island, sanity = g.hand(0)
    n = space.slots
    codes = [space.encode(a) for a in g.legal_actions()]
    assert codes == [3, 4 + 2 * n + island, 4 + 3 * n + sanity, 4 + 4 * n + 4 * sanity + 0] == [3, 235, 335, 536]
    for a, code in zip(g.legal_actions(), codes):
        back = space.decode(code, g)
        assert back == a and back.text == a.text
    mask = g.action_mask(space)
    assert len(mask) == space.size and [i for i, on in enumerate(mask) if on] == [3, 235, 335, 536]
    # The fixed codes.
    assert [space.decode(c, g).kind for c in range(4)] == ["done", "yes", "no", "priority"]
    assert space.decode(3, g).text == "pass priority"
    # Then pick player p, mode m, number k.
    base = 4 + 8 * n
    assert [space.decode(base + p, g).to_dict()["player"] for p in range(2)] == [0, 1]
    assert space.decode(base + 2 + 5, g).to_dict()["mode"] == 5
    assert space.decode(base + 2 + 16 + 63, g).to_dict()["n"] == 63
    assert space.decode(space.size - 1, g).kind == "number"


def test_scry_target_and_number_codes() -> None:  # ActionSpace layout for pick, bottom, player, number
    g = manual_game()
    top, second, _ = g.add_cards(0, "library", ["Island", "Swamp", "Forest"])
    g.scry(0, 2)
    space = g.action_space(10)
    n = space.slots
    assert n == 13
    assert [space.encode(a) for a in g.legal_actions()] == [4 + top, 4 + n + top, 4 + second, 4 + n + second]

    g = manual_game(3)
    g.add_cards(0, "battlefield", ["Mountain"])
    g.add_cards(0, "hand", ["Lightning Bolt"])
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 5)
    g.play()
    take(g, "cast Lightning Bolt")
    space = g.action_space(64)
    assert space.players == 3 and space.size == space_size(space.slots, 3)
    base = 4 + 8 * space.slots
    assert [space.encode(a) for a in g.legal_actions()] == [base, base + 1, base + 2]
    assert texts(g) == ["target player 0", "target player 1", "target player 2"]

    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Island"] * 5)
    g.add_cards(0, "hand", ["Everflowing Chalice"])
    g.play()
    take(g, "cast Everflowing Chalice")
    space = g.action_space(64)
    numbers = 4 + 8 * space.slots + 2 + 16
    assert [space.encode(a) for a in g.legal_actions()] == [numbers, numbers + 1, numbers + 2]
    assert g.take(numbers + 2, space) is None  # stopped at the next decision: player 1's turn
    assert g.pending is not None and (g.turn, g.pending.player) == (2, 1)
    (chalice,) = [i for i in g.battlefield() if g.name(i) == "Everflowing Chalice"]
    assert g.object(chalice).counters == {"charge": 2}


SEEDS = list(range(40))


@pytest.mark.parametrize("seed", SEEDS)
def test_encoding_round_trips_along_a_random_game(seed: int) -> None:
    g = example_game(seed)
    start = g.action_space(0)
    assert start.slots == 120  # two 60-card decks
    space = g.action_space(64)
    assert space == mtgsim.ActionSpace(184, 2) and space.size == space_size(184, 2)
    rng = random.Random(seed)
    decisions = 0
    while not g.is_over:
        decisions += 1
        assert decisions < MAX_STEPS
        d = g.pending
        assert d is not None, "the game stopped with nothing pending and is not over"
        legal = g.legal_actions()
        selection = g.selection
        assert legal, "a pending decision always has a legal action"
        if not selection:
            # A decision with exactly one legal answer is never asked.
            assert len(legal) >= 2, (d, [a.text for a in legal])
        if d.kind == "action":
            assert [a.to_dict()["action"] for a in legal] == d.options
        # "done" exactly once a selection has its minimum; nothing picked is offered again.
        done = mtgsim.Action._from_json('{"kind": "done"}', "done")
        if d.kind in ("choose_cards", "targets", "modes"):
            assert (done in legal) == (len(selection) >= d.min), (d, selection)
        else:
            assert done not in legal
        assert not set(selection) & set(legal)
        codes = [space.encode(a) for a in legal]
        assert len(set(codes)) == len(codes), "two legal actions share a code"
        assert all(0 <= c < space.size for c in codes)
        for a, c in zip(legal, codes):
            back = space.decode(c, g)
            assert back == a and back.text == a.text and hash(back) == hash(a)
        mask = g.action_mask(space)
        assert len(mask) == space.size
        assert [i for i, on in enumerate(mask) if on] == sorted(codes)
        # The space made at the start still has room for every object (tokens, abilities).
        assert g.action_space(0).slots <= space.slots
        a = rng.choice(legal)
        g.take(a)
        if g.pending == d and g.selection:  # the same decision, a selection under way
            assert g.selection == selection + [a]
        else:
            assert g.selection == []
    assert g.pending is None and decisions > 10


def stalled_game() -> tuple[mtgsim.Game, mtgsim.ActionSpace]:
    g = sanity_position()
    return g, g.action_space(64)


@pytest.mark.parametrize("code", [879, 880, 10**6, 2**32, -1, -(2**40)])
def test_out_of_range_codes_are_invalid_and_change_nothing(code: int) -> None:
    g, space = stalled_game()
    assert space.size == 879
    before = snapshot(g)
    with pytest.raises(mtgsim.InvalidArgumentError, match="out of range"):
        space.decode(code, g)
    with pytest.raises(mtgsim.InvalidArgumentError, match="out of range"):
        g.take(code, space)
    assert snapshot(g) == before


def test_codes_for_objects_that_dont_exist_are_invalid_and_change_nothing() -> None:
    g, space = stalled_game()
    objects = g.action_space(0).slots  # 35: slots 35..98 are room for objects to come
    n = space.slots
    before = snapshot(g)
    for code, slot in (
        (4 + objects, objects),  # pick
        (4 + n + objects + 3, objects + 3),  # bottom
        (4 + 2 * n + n - 1, n - 1),  # play land
        (4 + 3 * n + objects, objects),  # cast
        (4 + 4 * n + 4 * objects + 2, objects),  # activate ability 2
    ):
        with pytest.raises(mtgsim.InvalidArgumentError, match=f"action code {code} names object slot {slot}, which this game doesn't have"):
            space.decode(code, g)
        with pytest.raises(mtgsim.InvalidArgumentError, match="which this game doesn't have"):
            g.take(code, space)
    assert snapshot(g) == before


def test_a_code_for_a_player_the_game_doesnt_have_is_invalid() -> None:
    # A space for four players decoded "target player 3" in a two-player game (take refused it).
    g, _ = stalled_game()
    wide = mtgsim.ActionSpace(g.action_space(0).slots, 4)
    first_player_code = 4 + 4 * wide.slots + 4 * wide.slots
    assert wide.decode(first_player_code + 1, g).text == "target player 1"
    before = snapshot(g)
    with pytest.raises(mtgsim.InvalidArgumentError, match="names player 3, which this game doesn't have"):
        wide.decode(first_player_code + 3, g)
    with pytest.raises(mtgsim.InvalidArgumentError, match="which this game doesn't have"):
        g.take(first_player_code + 3, wide)
    assert snapshot(g) == before


def test_a_space_too_small_for_the_game_is_an_error() -> None:
    g, _ = stalled_game()
    small = mtgsim.ActionSpace(10, 2)
    before = snapshot(g)
    assert small.encode(action(g, "pass priority")) == 3
    with pytest.raises(mtgsim.InvalidArgumentError, match="beyond this action space's 10 slots"):
        small.encode(action(g, "play Island"))
    with pytest.raises(mtgsim.InvalidArgumentError, match="beyond"):
        g.action_mask(small)
    assert snapshot(g) == before


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ('{"kind": "number", "n": 1000}', "number 1000 is beyond the action space's numbers 0 to 64"),
        ('{"kind": "pick_mode", "mode": 16}', "mode 16 is beyond the action space's 16 modes"),
        ('{"kind": "pick_player", "player": 2}', "player 2 is beyond this action space's 2 players"),
        ('{"kind": "priority", "action": {"action": "activate", "source": 3, "index": 4}}', "ability index 4 is beyond"),
    ],
)
def test_actions_beyond_the_layout_have_no_code(record: str, message: str) -> None:
    space = mtgsim.ActionSpace(100, 2)
    with pytest.raises(mtgsim.InvalidArgumentError, match=message):
        space.encode(mtgsim.Action._from_json(record, "?"))
    last = mtgsim.Action._from_json('{"kind": "number", "n": 64}', "?")
    assert space.encode(last) == space.size - 1


def test_take_by_code_needs_its_space() -> None:
    g, space = stalled_game()
    before = snapshot(g)
    with pytest.raises(TypeError, match="needs its action space"):
        g.take(3)
    with pytest.raises(TypeError):
        g.take("pass priority")  # type: ignore[arg-type]
    assert snapshot(g) == before
    g.take(235, space)  # play Island
    assert names(g, g.battlefield()) == ["Island"] * 4


def test_action_space_values() -> None:
    with pytest.raises(mtgsim.InvalidArgumentError, match="2 to"):
        mtgsim.ActionSpace(10, 1)
    with pytest.raises(mtgsim.InvalidArgumentError, match="out of range"):
        mtgsim.ActionSpace(2_000_000, 2)
    g, space = stalled_game()
    with pytest.raises(mtgsim.InvalidArgumentError, match="out of range"):
        g.action_space(2_000_000)
    assert pickle.loads(pickle.dumps(space)) == space
    assert space != mtgsim.ActionSpace(space.slots, 3) and space != mtgsim.ActionSpace(space.slots + 1, 2)
    assert "879 codes" in repr(space)


def test_action_values_compare_hash_and_pickle_by_what_they_do() -> None:
    g = sanity_position()
    legal = g.legal_actions()
    again = g.clone().legal_actions()
    assert legal == again and {hash(a) for a in legal} == {hash(a) for a in again}
    assert len(set(legal)) == 4
    for a in legal:
        restored = pickle.loads(pickle.dumps(a))
        assert restored == a and restored.text == a.text and restored.kind == a.kind
    assert legal[0] != legal[1] and legal[0] != "pass priority"


# ----- illegal actions -------------------------------------------------------------------------


def test_a_land_play_legal_earlier_is_illegal_now() -> None:  # CR 305.2, 733
    g = sanity_position()
    play_island = action(g, "play Island")
    space = g.action_space(64)
    code = space.encode(play_island)
    g.take(play_island)
    before = snapshot(g)
    with pytest.raises(mtgsim.IllegalActionError, match="not a legal action now"):
        g.take(play_island)
    # Its code now names the same card where it is (CR 400.7: a new object): still not legal.
    assert space.decode(code, g) != play_island
    with pytest.raises(mtgsim.IllegalActionError, match="not a legal action now"):
        g.take(code, space)
    assert snapshot(g) == before
    assert texts(g) == ["pass priority", "cast Fractured Sanity", "cycle Fractured Sanity"]


def test_actions_of_another_decision_are_illegal_and_change_nothing() -> None:  # CR 733
    g = leech_position(["Island", "Swamp", "Swamp", "Swamp", "Swamp"])
    cast = action(g, "cast Monstrous War-Leech")
    take(g, "cast Monstrous War-Leech")
    kick = action(g, "kick Monstrous War-Leech with {U}")
    before = snapshot(g)
    with pytest.raises(mtgsim.IllegalActionError):
        g.take(cast)  # the spell is already being cast
    assert snapshot(g) == before
    take(g, "don't kick Monstrous War-Leech")
    before = snapshot(g)
    assert g.pending is not None and g.pending.player == 1
    for stale in (cast, kick):
        with pytest.raises(mtgsim.IllegalActionError, match="the legal ones: pass priority; play Forest"):
            g.take(stale)
    assert snapshot(g) == before


def test_a_card_already_placed_cannot_be_picked_again() -> None:  # CR 701.22a, 733
    g = manual_game()
    g.add_cards(0, "library", ["Island", "Swamp", "Forest"])
    g.add_cards(0, "hand", ["Plains"])
    g.scry(0, 2)
    island_top, island_bottom = action(g, "put Island on top"), action(g, "put Island on the bottom")
    g.take(island_top)
    before = snapshot(g)
    for stale in (island_top, island_bottom, mtgsim.Action._from_json('{"kind": "done"}', "done")):
        with pytest.raises(mtgsim.IllegalActionError):
            g.take(stale)
    assert snapshot(g) == before and g.selection == [island_top]


def test_an_action_naming_no_object_is_illegal() -> None:
    g, _ = stalled_game()
    before = snapshot(g)
    ghost = mtgsim.Action._from_json('{"kind": "priority", "action": {"action": "cast", "card": 4000}}', "cast a ghost")
    with pytest.raises(mtgsim.IllegalActionError):
        g.take(ghost)
    for kind in ("yes", "no", "done"):
        with pytest.raises(mtgsim.IllegalActionError):
            g.take(mtgsim.Action._from_json(f'{{"kind": "{kind}"}}', kind))
    assert snapshot(g) == before


def test_nothing_pending_raises_no_decision_pending() -> None:  # CR 733
    g = manual_game()
    g.add_cards(0, "hand", ["Island"])
    space = g.action_space()
    assert g.pending is None
    pass_action = mtgsim.Action._from_json('{"kind": "priority", "action": {"action": "pass"}}', "pass priority")
    before = snapshot(g)
    with pytest.raises(mtgsim.NoDecisionPendingError):
        g.legal_actions()
    with pytest.raises(mtgsim.NoDecisionPendingError):
        g.take(pass_action)
    with pytest.raises(mtgsim.NoDecisionPendingError):
        g.take(3, space)
    with pytest.raises(mtgsim.NoDecisionPendingError):
        g.action_mask(space)
    assert g.selection == [] and g.perft(3) == 1
    assert snapshot(g) == before


def test_after_the_game_is_over_nothing_is_legal() -> None:  # CR 104
    g = sanity_position()
    g.concede(1)
    assert g.is_over and g.pending is None
    with pytest.raises(mtgsim.NoDecisionPendingError):
        g.legal_actions()
    with pytest.raises(mtgsim.NoDecisionPendingError):
        g.take(3, g.action_space())
    assert g.perft(5) == 1


# ----- selections built one pick at a time -----------------------------------------------------


def scry_position() -> tuple[mtgsim.Game, list[int]]:
    """Scry 2 of Island, Swamp (Forest below). Player 0 holds a Plains, so after the scry the
    game stops at once at player 0's next priority decision."""
    g = manual_game()
    lib = g.add_cards(0, "library", ["Island", "Swamp", "Forest"])
    g.add_cards(0, "hand", ["Plains"])
    g.scry(0, 2)
    return g, lib


SCRY_SEQUENCES = [
    (["put Island on top", "put Swamp on top"], ["Island", "Swamp", "Forest"]),
    (["put Swamp on top", "put Island on top"], ["Swamp", "Island", "Forest"]),
    (["put Island on the bottom", "put Swamp on the bottom"], ["Forest", "Island", "Swamp"]),
    (["put Swamp on the bottom", "put Island on the bottom"], ["Forest", "Swamp", "Island"]),
    (["put Island on top", "put Swamp on the bottom"], ["Island", "Forest", "Swamp"]),
    (["put Swamp on the bottom", "put Island on top"], ["Island", "Forest", "Swamp"]),
    (["put Island on the bottom", "put Swamp on top"], ["Swamp", "Forest", "Island"]),
    (["put Swamp on top", "put Island on the bottom"], ["Swamp", "Forest", "Island"]),
]


@pytest.mark.parametrize(("steps", "library"), SCRY_SEQUENCES)
def test_scry_by_picks_equals_the_direct_answer(steps: list[str], library: list[str]) -> None:  # CR 701.22a
    g, lib = scry_position()
    direct = g.clone()
    ids = {"Island": lib[0], "Swamp": lib[1]}
    top = [ids[s.split()[1]] for s in steps if s.endswith("on top")]
    bottom = [ids[s.split()[1]] for s in steps if s.endswith("on the bottom")]

    assert g.take(action(g, steps[0])) is None  # half a selection: nothing happened yet
    assert [a.text for a in g.selection] == steps[:1]
    assert g.library(0) == lib and g.events == []
    assert len(g.legal_actions()) == 2
    g.take(action(g, steps[1]))
    assert g.selection == []
    assert names(g, g.library(0)) == library
    assert g.events[0] == {"kind": "scried", "player": 0, "amount": 2, "looked": 2, "to_bottom": len(bottom)}

    direct.answer((top, bottom))
    direct.play()  # take plays on to the next decision; so does the direct path here
    assert names(direct, direct.library(0)) == library
    assert direct.to_json() == g.to_json() and full_state(direct) == full_state(g)
    assert texts(g) == ["pass priority", "play Plains"]


def test_discard_by_picks_equals_the_direct_answer() -> None:  # CR 701.9b
    g = manual_game()
    island, swamp, forest = add_hand(g, 0, ["Island", "Swamp", "Forest"])
    g.discard(0, 2)
    d = g.pending
    assert d is not None and (d.min, d.max) == (2, 2)
    direct = g.clone()
    assert "done" not in texts(g)  # the minimum (two) isn't met
    assert take(g, "discard Forest") is None
    assert [a.text for a in g.selection] == ["discard Forest"]
    assert texts(g) == ["discard Island", "discard Swamp"]  # still no "done"
    assert g.hand(0) == [island, swamp, forest]
    take(g, "discard Island")  # the second pick completes the answer
    # Discarded together in the order chosen, the first chosen lowest (top of the graveyard first).
    assert names(g, g.hand(0)) == ["Swamp"] and names(g, g.graveyard(0)) == ["Island", "Forest"]
    direct.answer([forest, island])
    direct.play()
    assert direct.to_json() == g.to_json()
    assert texts(g) == ["pass priority", "play Swamp"]


def test_cleanup_discard_to_hand_size_by_picks() -> None:  # CR 514.1
    g = manual_game()
    g.add_cards(0, "library", ["Swamp"] * 10)
    g.add_cards(1, "library", ["Forest"] * 20)
    hand = add_hand(g, 0, ["Hill Giant"] * 5 + ["Grizzly Bears"] * 4)
    g.play()  # nothing to do but pass: the game stops at the cleanup discard
    d = g.pending
    assert d is not None and (g.step, d.purpose, d.min, d.max, d.options) == ("cleanup", "discard", 2, 2, hand)
    assert texts(g) == ["discard Hill Giant"] * 5 + ["discard Grizzly Bears"] * 4
    direct = g.clone()
    g.take(pick(g, hand[6]))
    assert "done" not in texts(g) and len(g.legal_actions()) == 8
    assert g.selection == [pick_of(hand[6])]
    g.take(pick(g, hand[0]))
    assert len(g.hand(0)) == 7
    assert names(g, g.hand(0)) == ["Hill Giant"] * 4 + ["Grizzly Bears"] * 3
    direct.answer([hand[6], hand[0]])
    direct.play()
    assert direct.to_json() == g.to_json()
    assert (g.turn, g.pending is not None and g.pending.player) == (2, 1)


def search_position() -> tuple[mtgsim.Game, list[int]]:
    g = manual_game()
    lib = g.add_cards(0, "library", ["Island", "Grizzly Bears", "Swamp", "Lightning Bolt", "Mountain"])
    g.add_cards(0, "hand", ["Plains"])
    g.search(0, "basic land", count=2)
    return g, lib


def test_search_by_picks_equals_the_direct_answer() -> None:  # CR 701.23b: up to two, may find fewer
    g, lib = search_position()
    island, _, swamp, _, mountain = lib
    direct = g.clone()
    assert texts(g) == ["find Island", "find Swamp", "find Mountain", "done"]  # minimum 0: done at once
    take(g, "find Mountain")
    assert texts(g) == ["find Island", "find Swamp", "done"]
    take(g, "find Swamp")  # the maximum: complete
    assert sorted(names(g, g.hand(0))) == ["Mountain", "Plains", "Swamp"]
    assert len(g.library(0)) == 3
    direct.answer([mountain, swamp])
    direct.play()
    assert direct.to_json() == g.to_json()  # the same shuffle too
    assert sorted(names(g, g.library(0))) == ["Grizzly Bears", "Island", "Lightning Bolt"]
    assert island in g.library(0)  # not found: still the same object


def test_search_done_after_one_pick_finds_one() -> None:  # CR 701.23b
    g, lib = search_position()
    direct = g.clone()
    take(g, "find Island")
    take(g, "done")
    assert names(g, g.hand(0)) == ["Plains", "Island"]
    direct.answer([lib[0]])
    direct.play()
    assert direct.to_json() == g.to_json()


def test_search_done_at_once_finds_nothing() -> None:  # CR 701.23b
    g, _ = search_position()
    take(g, "done")
    assert names(g, g.hand(0)) == ["Plains"] and len(g.library(0)) == 5


def test_a_search_for_a_card_must_find_one() -> None:  # CR 701.23d
    g = manual_game()
    g.add_cards(0, "library", ["Island", "Grizzly Bears", "Swamp"])
    g.add_cards(0, "hand", ["Plains"])
    g.search(0, "card", count=2)
    d = g.pending
    assert d is not None and (d.min, d.max) == (2, 2)
    assert texts(g) == ["find Island", "find Grizzly Bears", "find Swamp"]
    take(g, "find Grizzly Bears")
    assert "done" not in texts(g)
    take(g, "find Island")
    assert sorted(names(g, g.hand(0))) == ["Grizzly Bears", "Island", "Plains"]


def smuggler_position() -> mtgsim.Game:
    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Forest"] * 9)
    g.add_cards(0, "hand", ["Smuggler's Surprise"])
    g.play()
    take(g, "cast Smuggler's Surprise")
    return g


def test_modes_by_picks_equal_the_direct_answer() -> None:  # CR 700.2, 702.172 (spree)
    g = smuggler_position()
    d = g.pending
    assert d is not None and (d.kind, d.min, d.max) == ("modes", 1, 3)
    direct = g.clone()
    assert "done" not in texts(g)  # at least one mode
    take(g, "choose mode 3")
    assert texts(g) == ["choose mode 1", "choose mode 2", "done"]
    take(g, "choose mode 1")
    assert texts(g) == ["choose mode 2", "done"]
    take(g, "done")
    (spell,) = g.stack()
    assert g.cast_info(spell)["modes"] == [0, 2]  # in printed order, whatever the picking order
    # Mode 1 is resolving: "mill four, you may put up to two creature and/or land cards ...".
    d = g.pending
    assert d is not None and (d.purpose, d.min, d.max) == ("put_from_milled", 0, 2)
    direct.answer([0, 2])  # the cast is complete; a direct answer doesn't play on ...
    assert direct.pending is None and direct.priority_player == 0
    direct.play()  # ... until asked to: both pass, and it stops at the same decision
    assert direct.to_json() == g.to_json() and full_state(direct) == full_state(g)


def test_picking_every_mode_completes_the_selection() -> None:  # CR 700.2
    g = smuggler_position()
    for mode in ("choose mode 2", "choose mode 1"):
        assert take(g, mode) is None and g.pending is not None and g.pending.kind == "modes"
    take(g, "choose mode 3")  # all three: {G} + {2} + {4}{G} + {1}, nine Forests
    assert g.pending is not None and g.pending.purpose == "put_from_milled"
    (spell,) = g.stack()
    assert g.cast_info(spell)["modes"] == [0, 1, 2]


def test_trigger_order_by_picks_equals_the_direct_answer() -> None:  # CR 603.3b
    g = manual_game()
    g.add_cards(0, "library", ["Swamp"] * 10)
    g.add_cards(1, "library", ["Forest"] * 20)
    g.add_cards(0, "battlefield", ["Ruin Crab"] * 3)
    g.add_cards(0, "hand", ["Island"])
    g.add_cards(1, "battlefield", ["Mountain"])
    g.add_cards(1, "hand", ["Lightning Bolt"])  # player 1 stops the game with the triggers on the stack
    g.play()
    take(g, "play Island")
    d = g.pending
    assert d is not None and d.kind == "order"
    first, second, third = d.options
    direct = g.clone()
    assert "done" not in texts(g)
    g.take(pick(g, third))
    assert [a.to_dict()["object"] for a in g.legal_actions()] == [first, second]
    g.take(pick(g, first))  # the last goes by itself
    # The first in the order went on the stack first, so it is at the bottom (top listed first).
    assert g.stack() == [second, first, third]
    assert g.pending is not None and g.pending.player == 1 and texts(g) == ["pass priority", "cast Lightning Bolt"]
    direct.answer([third, first, second])
    direct.play()
    assert direct.stack() == g.stack() and direct.to_json() == g.to_json()


def test_targets_by_pick() -> None:  # CR 601.2c
    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 5)
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    g.add_cards(0, "hand", ["Lightning Bolt"])
    g.add_cards(1, "battlefield", ["Mountain"])
    g.add_cards(1, "hand", ["Lightning Bolt"])
    g.play()
    take(g, "cast Lightning Bolt")
    direct = g.clone()
    take(g, "target Grizzly Bears")  # one target: complete at once
    (bolt,) = g.stack()
    assert g.cast_info(bolt)["targets"] == [[bears]]
    assert g.pending is not None and g.pending.player == 1  # may respond with their own Bolt
    direct.answer([bears])
    direct.play()
    assert direct.to_json() == g.to_json()
    take(g, "pass priority")
    assert "Grizzly Bears" in names(g, g.graveyard(1))


def test_a_selection_survives_clone_and_pickle() -> None:  # GUIDE: a selection in progress is part of the game
    g, lib = scry_position()
    take(g, "put Swamp on the bottom")
    copies = [g.clone(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g)), mtgsim.Game._load(full_state(g))]
    for c in copies:
        assert c.selection == g.selection and [a.text for a in c.selection] == ["put Swamp on the bottom"]
        assert c.legal_actions() == g.legal_actions() == [action(g, "put Island on top"), action(g, "put Island on the bottom")]
        assert full_state(c) == full_state(g)
    take(g, "put Island on top")
    for c in copies:
        take(c, "put Island on top")
        assert names(c, c.library(0)) == ["Island", "Forest", "Swamp"]
        assert c.to_json() == g.to_json()


def test_a_direct_answer_replaces_a_selection_in_progress() -> None:
    g, lib = scry_position()
    take(g, "put Island on top")
    g.answer(([], [lib[1], lib[0]]))
    assert g.selection == [] and names(g, g.library(0)) == ["Forest", "Swamp", "Island"]


def test_cancelling_a_cast_clears_the_selection() -> None:  # CR 733
    g = smuggler_position()
    take(g, "choose mode 1")
    g.cancel()
    assert g.pending is None and g.selection == []
    g.play()
    take(g, "cast Smuggler's Surprise")
    assert texts(g) == ["choose mode 1", "choose mode 2", "choose mode 3"]


# ----- perft -----------------------------------------------------------------------------------


def test_perft_fixed_position() -> None:
    g = sanity_position()
    assert [g.perft(d) for d in range(5)] == [1, 4, 10, 22, 48]
    assert [py_perft(g, d) for d in range(5)] == [1, 4, 10, 22, 48]


def glimpse_position() -> mtgsim.Game:
    """Player 0: Island and Swamp in play, Glimpse the Unthinkable ({U}{B} sorcery, target player
    mills ten) in hand, five Hill Giants in library; player 1: one Hill Giant in library."""
    g = manual_game()
    g.add_cards(0, "library", ["Hill Giant"] * 5)
    g.add_cards(1, "library", ["Hill Giant"])
    g.add_cards(0, "battlefield", ["Island", "Swamp"])
    g.add_cards(0, "hand", ["Glimpse the Unthinkable"])
    g.play()
    return g


def test_perft_hand_computed_position() -> None:
    """Nobody can do anything but pass except player 0 in their own main phases (M1, M2 on turn
    1; M3, M4 on turn 3), each offering {pass, cast Glimpse}; casting asks for a target player
    (2 choices) and then nothing is ever asked again: the game runs to its end (player 1, with a
    one-card library, loses drawing on turn 4, or a milled player sooner). Passing at M4 also
    runs to that end. With T(d) = 2 for d >= 1 (the target choice, then a finished game):

        M4: d=1: 2, d>=2: 1 (pass: game over) + T = 3
        M3: 2, 2+2=4, 3+2=5, then 5
        M2: 2, 4, 4+2=6, 5+2=7, then 7
        M1: 2, 4, 6, 6+2=8, 7+2=9, then 9 = 4 casting points x 2 targets + passing throughout.
    """
    g = glimpse_position()
    assert texts(g) == ["pass priority", "cast Glimpse the Unthinkable"]
    expected = [1, 2, 4, 6, 8, 9, 9, 9, 9]
    assert [g.perft(d) for d in range(9)] == expected
    assert [py_perft(g, d) for d in range(9)] == expected


def test_every_line_of_the_hand_computed_position_ends_the_game() -> None:
    g = glimpse_position()
    leaves: list[tuple[tuple[str, ...], int, list[int]]] = []

    def walk(g: mtgsim.Game, path: tuple[str, ...]) -> None:
        if g.pending is None or g.is_over:
            assert g.is_over
            outcome = g.outcome
            assert outcome is not None
            leaves.append((path, g.turn, outcome["winners"]))
            return
        for a in g.legal_actions():
            c = g.clone()
            c.take(a)
            walk(c, path + (a.text,))

    walk(g, ())
    P, C = "pass priority", "cast Glimpse the Unthinkable"
    assert sorted(leaves) == sorted(
        [
            ((C, "target player 0"), 3, [1]),  # player 0 milled out, loses drawing on turn 3
            ((C, "target player 1"), 2, [0]),
            ((P, C, "target player 0"), 3, [1]),
            ((P, C, "target player 1"), 2, [0]),
            ((P, P, C, "target player 0"), 4, [0]),  # player 1 decks first anyway
            ((P, P, C, "target player 1"), 4, [0]),
            ((P, P, P, C, "target player 0"), 4, [0]),
            ((P, P, P, C, "target player 1"), 4, [0]),
            ((P, P, P, P), 4, [0]),
        ]
    )


def test_perft_of_a_clone_equals_perft_and_perft_changes_nothing() -> None:
    g = sanity_position()
    before = snapshot(g)
    clone = g.clone()
    assert clone.perft(4) == g.perft(4) == 48
    assert snapshot(g) == before and snapshot(clone) == before
    assert pickle.loads(pickle.dumps(g)).perft(4) == 48


def test_perft_in_the_middle_of_a_selection() -> None:
    g, _ = scry_position()
    # Scry 2: 4 first steps (either card, top or bottom), then 2 for the other card; then the
    # Plains decision (pass or play it).
    assert [g.perft(d) for d in range(3)] == [1, 4, 8]
    take(g, "put Swamp on top")
    before = snapshot(g)
    assert [g.perft(d) for d in range(4)] == [py_perft(g, d) for d in range(4)]
    assert g.perft(1) == 2 and g.perft(2) == 4
    assert snapshot(g) == before and [a.text for a in g.selection] == ["put Swamp on top"]


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_perft_matches_a_python_tree_walk_mid_game(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for i, g in enumerate(random_walk(example_game(seed), rng)):
        if i % 7 == 3:
            before = snapshot(g)
            assert g.perft(3) == py_perft(g, 3)
            assert g.clone().perft(3) == g.perft(3)
            assert snapshot(g) == before
            checked += 1
    assert checked >= 3


def test_perft_depth_limits() -> None:
    g = sanity_position()
    assert g.perft(0) == 1
    with pytest.raises(mtgsim.InvalidArgumentError, match="out of range"):
        g.perft(13)


# ----- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_a_random_agent_plays_whole_games_through_legal_actions(seed: int) -> None:
    g = example_game(seed)
    assert g.pending is not None
    steps = sum(1 for _ in random_walk(g, random.Random(seed)))
    assert g.is_over and g.pending is None
    assert 10 < steps < MAX_STEPS
    outcome = g.outcome
    assert outcome is not None and len(outcome["winners"]) + len(outcome["losers"]) == 2
    g.check_invariants()


@pytest.mark.parametrize("players", [3, 4])
def test_multiplayer_random_games_by_codes(players: int) -> None:  # CR 800
    mill, creatures = mtgsim.EXAMPLE_DECKS
    for seed in range(4):
        decks = [mill, creatures] * (players // 2) + [mill] * (players % 2)
        g = mtgsim.Game.from_decks(decks, seed=seed)
        for p in range(players):
            g.set_policy(p, "manual")
        g.play()
        space = g.action_space(64)
        assert space.players == players and space.size == space_size(60 * players + 64, players)
        rng = random.Random(seed)
        for _ in range(MAX_STEPS):
            if g.is_over:
                break
            assert g.pending is not None
            legal = g.legal_actions()
            codes = sorted(space.encode(a) for a in legal)
            assert [i for i, on in enumerate(g.action_mask(space)) if on] == codes
            g.take(rng.choice(codes), space)
        assert g.is_over
        outcome = g.outcome
        assert outcome is not None and len(outcome["losers"]) >= players - 1


def test_a_random_agent_by_codes_and_masks() -> None:
    seed = 5
    g = example_game(seed)
    space = g.action_space(64)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over:
        assert g.pending is not None
        mask = g.action_mask(space)
        code = rng.choice([i for i, on in enumerate(mask) if on])
        g.take(code, space)
        steps += 1
        assert steps < MAX_STEPS
    assert g.outcome is not None and steps > 10


def test_a_game_replays_from_its_seeds() -> None:
    def play(seed: int) -> tuple[str, int]:
        g = example_game(seed)
        steps = sum(1 for _ in random_walk(g, random.Random(100 + seed)))
        return g.to_json(), steps

    assert play(2) == play(2)
    assert play(2) != play(3)


# ----- engine bugs found while writing these tests ---------------------------------------------


def pay_mana_position() -> mtgsim.Game:
    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Island", "Island", "Island", "Swamp"])
    g.add_cards(0, "hand", ["Fractured Sanity"])
    g.set_auto_pay(0, False)
    g.play()
    take(g, "cast Fractured Sanity")
    assert g.pending is not None and g.pending.purpose == "pay_mana"
    return g


def test_every_legal_action_at_a_pay_mana_decision_can_be_taken() -> None:
    g = pay_mana_position()
    for a in g.legal_actions():
        g.clone().take(a)


def test_perft_at_a_pay_mana_decision() -> None:
    g = pay_mana_position()
    assert g.perft(1) == len(g.legal_actions())
    assert g.perft(2) == py_perft(g, 2)


def test_a_conceding_players_selection_does_not_leak_into_the_next_decision() -> None:  # CR 800.4a
    g = manual_game(3)
    add_hand(g, 0, ["Island", "Swamp", "Forest"])
    add_hand(g, 1, ["Plains", "Mountain"])
    g.discard(0, 2)
    take(g, "discard Island")
    g.concede(0)
    assert not g.is_over and g.pending is None
    g.discard(1, 1)
    assert texts(g) == ["discard Plains", "discard Mountain"]


def test_no_selection_once_the_game_is_over() -> None:
    g = smuggler_position()
    take(g, "choose mode 1")
    g.concede(1)
    assert g.is_over and g.pending is None
    assert g.selection == []


def test_a_multiplayer_game_goes_on_after_the_deciding_player_concedes() -> None:  # CR 104.3a, 800.4a
    g = manual_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Island"] * 3)
    g.add_cards(0, "hand", ["Joint Exploration"])
    g.add_cards(1, "hand", ["Plains"])
    g.add_cards(2, "hand", ["Plains"])
    g.play()
    take(g, "cast Joint Exploration")
    assert g.pending is not None and g.pending.purpose == "scry"
    g.concede(0)
    assert not g.is_over
    g.play()
    assert g.pending is not None and g.pending.player in (1, 2)


def test_the_mask_covers_every_number_the_engine_offers() -> None:
    g = manual_game()
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Island"] * 70)
    g.add_cards(0, "hand", ["Fractured Sanity"])
    g = redefine(g, "Fractured Sanity", X_DRAW)
    g.play()
    take(g, "cast Test X Draw")
    space = g.action_space(64)
    mask = g.action_mask(space)
    assert sum(mask) == len(g.legal_actions())


def test_take_whose_play_on_fails_changes_nothing() -> None:  # CR 733
    # take() answers player 0's cleanup discard, then plays on; in player 1's turn their scripted
    # answer (a yes, where their priority wants an action) is wrong. The discard is undone too,
    # and player 0's decision is pending again, with the same selection.
    g = mtgsim.Game(2, 1)
    g.set_policy(0, "manual")
    g.set_policy(1, "goldfish")
    for p in (0, 1):
        g.add_cards(p, "library", ["Island"] * 5)
    g.add_cards(0, "hand", ["Swamp"] * 8)
    g.play()
    while g.pending is not None and g.pending.purpose == "priority":
        take(g, "pass priority")
    assert g.pending is not None and "discard" in str(g.pending)
    g.script(1, [True])
    before = snapshot(g)
    with pytest.raises(mtgsim.InvalidAnswerError, match="player 1 has priority"):
        g.take(g.legal_actions()[0])
    assert snapshot(g) == before
    g.clear_script(1)
    g.take(g.legal_actions()[0])  # the same answer, with nothing to fail after it
    assert g.turn == 3 and len(g.graveyard(0)) == 1  # played on through player 1's turn
