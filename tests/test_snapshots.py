"""Inspecting, copying and saving state: clone / copy / deepcopy independence, pickle round trips
(including a game paused at a decision, which must resume identically), to_dict / to_json."""

from __future__ import annotations

import contextlib
import copy
import json
import pickle

import pytest

import mtgsim
from conftest import add_hand, names, new_game, state, with_libraries

LIBRARY = ["Island", "Grizzly Bears", "Swamp", "Lightning Bolt", "Mountain", "Counterspell", "Forest"]

COPIES = {
    "clone": lambda g: g.clone(),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda g: pickle.loads(pickle.dumps(g)),
}


def position(seed=3):
    g = new_game(2, seed=seed)
    g.add_cards(0, "library", LIBRARY)
    g.add_cards(1, "library", LIBRARY)
    add_hand(g, 0, ["Hill Giant", "Savannah Lions", "Ornithopter"])
    (bf,) = g.add_cards(1, "battlefield", ["Horned Turtle"])
    g.add_counters(bf, "+1/+1", 2)
    g.set_tapped(bf)
    g.add_player_counters(1, "poison", 3)
    g.set_life(0, 12)
    g.mill(1, 2)
    g.draw(0)
    return g


# ----- copies are complete and independent -------------------------------------------------------


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_copy_is_equal_to_the_original(how):
    g = position()
    g.strict = True
    g.script(1, [[0]])
    g.set_policy(0, "first")
    c = COPIES[how](g)
    assert state(c) == state(g)
    assert c.seed == g.seed and c.num_players == g.num_players and c.turn == g.turn
    c.check_invariants()


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_copy_is_independent_of_the_original(how):
    g = position()
    before = state(g)
    c = COPIES[how](g)

    c.mill(0, 3)
    c.set_life(1, 1)
    c.add_player_counters(0, "poison")
    c.recording = False
    c.set_policy(1, "first")

    assert state(g) == before
    g.draw(1)
    assert len(c.hand(1)) == 0 and len(g.hand(1)) == 1


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_copy_continues_the_same_random_stream(how):  # CR 701.24a (portable generator)
    g = position()
    c = COPIES[how](g)
    g.shuffle(0)
    c.shuffle(0)
    assert c.library(0) == g.library(0)
    g.discard(0, 2, random=True)
    c.discard(0, 2, random=True)
    assert c.graveyard(0) == g.graveyard(0)


def test_policy_random_stream_is_copied_too():  # GUIDE §3
    g = position()
    g.set_policy(0, "random")
    c = pickle.loads(pickle.dumps(g))
    assert c.policy(0) == "random"
    assert g.discard(0, 2) == c.discard(0, 2)
    assert g.scry(0, 3) is None and c.scry(0, 3) is None
    assert g.library(0) == c.library(0)


# ----- paused games ------------------------------------------------------------------------------


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_paused_game_copies_and_resumes_identically(how):  # GUIDE §4
    g = position()
    g.scry(0, 3)
    d = g.pending
    c = COPIES[how](g)
    assert c.pending == d

    answer = (d.cards[2:], d.cards[:2])
    rg = g.answer(answer)
    rc = c.answer(answer)

    assert rg == rc
    assert state(c) == state(g)
    assert g.events[-1] == {"kind": "scried", "player": 0, "amount": 3, "looked": 3, "to_bottom": 2}


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_paused_copy_can_be_answered_differently(how):  # CR 701.9b, GUIDE §4
    g = position()
    hand = g.hand(0)
    g.discard(0, 1)
    c = COPIES[how](g)
    a = g.answer([hand[0]])
    b = c.answer([hand[1]])
    assert names(g, a) == ["Hill Giant"] and names(c, b) == ["Savannah Lions"]
    assert g.hand(0) == [hand[1], hand[2], hand[3]]
    assert c.hand(0) == [hand[0], hand[2], hand[3]]


def test_a_game_pickled_in_the_middle_of_a_simultaneous_scry_resumes_identically():  # CR 701.22c
    g = new_game(3, seed=2)
    libs = [g.add_cards(p, "library", LIBRARY) for p in range(3)]
    g.active_player = 1
    g.scry_each([0, 1, 2], 2)
    g.answer(([], libs[1][:2]))  # player 1 has decided; player 2 is being asked
    assert g.pending.player == 2

    c = pickle.loads(pickle.dumps(g))

    for game in (g, c):
        game.answer((libs[2][:1], libs[2][1:2]))
        game.answer((libs[0][1::-1], []))
    assert state(c) == state(g)
    assert [e["player"] for e in c.events] == [1, 2, 0]
    assert c.library(1) == libs[1][2:] + libs[1][:2]


def test_a_paused_may_search_pickles_and_resumes():  # CR 701.23g
    g = position()
    g.search(0, "basic land", optional=True, reveal=True)
    c = pickle.loads(pickle.dumps(g))
    for game in (g, c):
        assert game.pending.kind == "yes_no"
        game.answer(True)
        game.answer(game.pending.options[:1])
    assert state(c) == state(g)


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_game_paused_inside_an_if_branch_copies_and_resumes_there(how):  # CR 608.2c, 702.33d
    # Kicked Joint Exploration stops at its last instruction's "you may", inside the "if this
    # spell was kicked" branch: the copy must resume in that branch, not at the spell's start.
    g = _paused_games()["kicked Joint Exploration's if branch"]
    assert g.pending.purpose == "put_from_hand"
    (land,) = [c for c in g.hand(0) if g.name(c) == "Mountain"]
    c = COPIES[how](g)
    assert c.pending == g.pending
    for game in (g, c):
        game.answer([land])
        assert names(game, game.battlefield()).count("Mountain") == 1 and game.pending is None
        assert names(game, game.graveyard(0)) == ["Joint Exploration"] and names(game, game.library(0)) == ["Forest", "Island"]
    assert state(c) == state(g)


def test_scripts_and_strict_mode_survive_pickling():
    g = position()
    hand = g.hand(0)
    g.strict = True
    g.script(0, [[hand[2]]])
    c = pickle.loads(pickle.dumps(g))
    assert c.strict and c.script_len(0) == 1
    assert names(c, c.discard(0, 1)) == ["Ornithopter"]


def test_callbacks_are_not_pickled_and_those_players_become_manual():
    g = position()
    g.set_policy(0, lambda game, d: d.options[: d.max])
    assert g.clone().policy(0) == "callback"  # a clone in the same process keeps it
    c = pickle.loads(pickle.dumps(g))
    assert c.policy(0) == "manual"
    assert c.discard(0, 1) is None and c.pending.player == 0


def test_a_finished_game_pickles_as_finished():  # CR 104
    g = position()
    g.set_life(0, 0)
    c = pickle.loads(pickle.dumps(g))
    assert c.is_over and c.outcome == g.outcome == {"winners": [1], "losers": [{"player": 0, "reason": "life"}]}
    with pytest.raises(mtgsim.GameOverError):
        c.draw(1)


def test_recording_flag_and_event_log_survive_pickling():
    g = position()
    g.recording = False
    c = pickle.loads(pickle.dumps(g))
    assert not c.recording and c.events == g.events and len(c.events) > 0
    c.mill(0, 1)
    assert c.events == g.events


def test_events_can_be_cleared_and_recording_turned_off():  # GUIDE §3 (optional event log)
    g = position()
    g.clear_events()
    assert g.events == []
    g.recording = False
    g.mill(0, 1)
    g.draw(0)
    assert g.events == []
    g.recording = True
    (card,) = g.mill(0, 1)
    assert g.events == [{"kind": "milled", "player": 0, "cards": [card]}]


# ----- value objects -----------------------------------------------------------------------------


def test_decisions_pickle_and_compare():
    g = position()
    g.scry(0, 2)
    d = g.pending
    d2 = pickle.loads(pickle.dumps(d))
    assert d2 == d
    assert (d2.player, d2.kind, d2.purpose, d2.cards, d2.prompt) == (d.player, d.kind, d.purpose, d.cards, d.prompt)
    assert d2.to_dict() == d.to_dict()


OPS = [
    mtgsim.Op.draw(0),
    mtgsim.Op.draw(1, 3),
    mtgsim.Op.mill(1, 14),
    mtgsim.Op.mill_opponents(0, 14),
    mtgsim.Op.discard(0, 2),
    mtgsim.Op.discard(0, 1, random=True),
    mtgsim.Op.shuffle(1),
    mtgsim.Op.search(0, "basic land", count=2, to="battlefield", reveal=True, shuffle=False),
    mtgsim.Op.scry(0, 2),
]


@pytest.mark.parametrize("op", OPS, ids=repr)
def test_ops_pickle_and_compare(op):
    op2 = pickle.loads(pickle.dumps(op))
    assert op2 == op and repr(op2) == repr(op)
    assert op != (mtgsim.Op.draw(1, 99))


@pytest.mark.parametrize("name", ["Lightning Bolt", "Vedalken AEthermage", "Island", "Fractured Sanity", "Troll of Khazad-dûm"])
def test_card_definitions_pickle_and_compare(name):
    c = mtgsim.card(name)
    c2 = pickle.loads(pickle.dumps(c))
    assert c2 == c and hash(c2) == hash(c)
    for attr in ("name", "mana_cost", "mana_value", "colors", "types", "supertypes", "subtypes", "power", "toughness", "loyalty", "type_line", "text"):
        assert getattr(c2, attr) == getattr(c, attr)
    assert c != mtgsim.card("Counterspell")


def test_batch_results_pickle():
    g = position()
    g.set_policy(0, "random")
    g.set_policy(1, "random")
    before = state(g)
    r = g.run_batch([mtgsim.Op.mill(1, 2), mtgsim.Op.scry(0, 1)], 5)
    assert state(g) == before  # a batch runs on a copy
    r2 = pickle.loads(pickle.dumps(r))
    assert (r2.repetitions, r2.operations, r2.games_over, r2.library_cards) == (r.repetitions, r.operations, r.games_over, r.library_cards) == (5, 10, 0, 5 * (6 + 3))


def test_game_objects_pickle():  # GUIDE §5: everything users hold can be pickled
    g = position()
    obj = g.object(g.battlefield()[0])
    obj2 = pickle.loads(pickle.dumps(obj))
    assert (obj2.id, obj2.name, obj2.owner, obj2.controller, obj2.zone, obj2.tapped, obj2.counters) == (
        obj.id, obj.name, obj.owner, obj.controller, obj.zone, obj.tapped, obj.counters)


def test_rng_pickles_mid_stream():  # GUIDE §5
    r = mtgsim.Rng(5)
    r.next_u64()
    r2 = pickle.loads(pickle.dumps(r))
    assert r2.next_u64() == r.next_u64()


# ----- export ------------------------------------------------------------------------------------


def test_to_dict_lists_every_zone_in_order():
    g = position()
    d = g.to_dict()
    assert set(d) >= {"num_players", "seed", "turn", "active_player", "players", "battlefield", "stack", "exile", "command", "pending", "outcome"}
    assert (d["num_players"], d["seed"], d["turn"], d["active_player"]) == (2, 3, 1, 0)
    for p, pd in enumerate(d["players"]):
        for zone in ("library", "hand", "graveyard", "outside"):
            assert [o["id"] for o in pd[zone]] == g.zone(zone, p)
            assert all(o["owner"] == p for o in pd[zone])
            assert [o["name"] for o in pd[zone]] == names(g, g.zone(zone, p))
    assert [p["life"] for p in d["players"]] == [12, 20]
    assert d["players"][1]["counters"] == {"poison": 3}
    (turtle,) = d["battlefield"]
    assert turtle == {"id": g.battlefield()[0], "name": "Horned Turtle", "owner": 1, "controller": 1, "tapped": True, "counters": {"+1/+1": 2}}
    assert d["pending"] is None and d["outcome"] is None


def test_to_json_is_the_dict_as_json():
    g = position()
    assert json.loads(g.to_json()) == g.to_dict()
    g.discard(0, 1)
    assert json.loads(g.to_json()) == g.to_dict()
    assert g.to_dict()["pending"]["player"] == 0


def test_check_invariants_holds_after_every_kind_of_action():  # CR 400.1, 400.7 (one zone each)
    g = position()
    g.set_policy(0, "random")
    g.set_policy(1, "random")
    g.check_invariants()
    g.mill_opponents(0, 2)
    g.discard(0, 1)
    g.scry(1, 2)
    g.search(0, "basic land")
    g.move(g.hand(0)[0], "exile")
    g.check_invariants()
    assert sum(len(g.zone(z, p)) for p in range(2) for z in ("library", "hand", "graveyard")) + len(g.battlefield()) + len(g.exile()) == 2 * len(LIBRARY) + 4


def test_an_unpickled_game_keeps_mana_abilities_and_statics():  # GUIDE §5: pickling keeps the whole game
    g = mtgsim.Game(2, 1)
    g.add_cards(0, "battlefield", ["Island", "Island", "The Water Crystal"])
    (spell,) = g.add_cards(0, "hand", ["Counterspell"])
    g2 = pickle.loads(pickle.dumps(g))
    # Derived caches are rebuilt: the Islands still make mana; the Crystal still reduces
    # generic mana only, so {U}{U} stays {U}{U} (CR 601.2f).
    assert g2.cost_of(spell) == g.cost_of(spell) == ("{U}{U}", True)
    island = g2.battlefield()[0]
    g2.activate_mana(island)
    assert g2.mana_pool(0)["U"] == 1


def _paused_state() -> tuple[object, dict]:
    g = mtgsim.Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=3)
    g.set_policy(0, "random")
    g.set_policy(1, "manual")
    g.play(until=3)
    assert g.pending is not None
    loader, (saved,) = g.__reduce__()
    return loader, json.loads(saved)


@pytest.mark.parametrize(
    "label, mutate",
    [
        ("a paused action without its decision", lambda d: d.__setitem__("pending", None)),
        ("a decision without its paused action", lambda d: d.__setitem__("frames", [])),
        ("a priority option naming no object", lambda d: d["pending"]["choice"]["options"].append({"action": "cast", "card": 99999999})),
        ("priority for a player the game lacks", lambda d: d.__setitem__("priority", 9)),
        ("a decision for a player the game lacks", lambda d: d["pending"].__setitem__("player", 5)),
        ("a decision the paused action doesn't ask", lambda d: d.__setitem__("pending", {"player": 1, "purpose": "order_triggers", "choice": {"type": "yes_no"}})),
    ],
)
def test_a_saved_game_whose_paused_action_doesnt_fit_is_refused_on_load(label, mutate):  # GUIDE §3: no panic crosses
    loader, saved = _paused_state()
    assert loader(json.dumps(saved)).to_json() is not None  # the saved state itself loads
    bad = copy.deepcopy(saved)
    mutate(bad)
    with pytest.raises(mtgsim.SnapshotError):
        loader(json.dumps(bad))


def test_a_decision_offering_what_a_player_who_left_took_with_them_still_saves():  # CR 800.4a
    g = new_game(3)
    for p in range(3):
        g.add_cards(p, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Mountain"])
    (bears,) = g.add_cards(2, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt)
    assert bears in g.pending.options
    g.concede(2)  # the Bears leave the game; player 0's decision stays
    h = pickle.loads(pickle.dumps(g))
    assert h.to_json() == g.to_json()
    h.answer([{"player": 1}])
    assert h.stack() != []


# ----- what a paused action refers to is checked on load (GUIDE §3: no panic crosses) -----------


def _paused_games() -> dict[str, mtgsim.Game]:
    """One game paused in each kind of action, at a decision the action asked."""
    out = {}
    g = new_game()
    g.add_cards(0, "library", ["Swamp", "Forest", "Island"])
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    je, _ = add_hand(g, 0, ["Joint Exploration", "Mountain"])
    g.cast(je, kick=True)
    g.resolve_top()
    out["kicked Joint Exploration's scry"] = g.clone()
    g.answer((g.pending.cards, []))
    out["kicked Joint Exploration's if branch"] = g  # CR 608.2c, 702.33d
    g = with_libraries(new_game(), 10)
    g.scry(0, 2)
    out["scry"] = g  # CR 701.22
    g = new_game()
    g.add_cards(0, "library", ["Island", "Forest", "Swamp"] * 3)
    g.search(0, "basic land", reveal=True)
    out["search"] = g  # CR 701.23
    g = new_game()
    add_hand(g, 0, ["Island", "Forest", "Swamp"])
    g.discard(0, 1)
    out["discard"] = g  # CR 701.9
    g = new_game()
    g.add_cards(0, "battlefield", ["Island"] * 6)
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
    g.cast(chalice)
    out["multikicker"] = g  # CR 702.33c
    g = with_libraries(new_game(), 10)
    add_hand(g, 0, ["Island"])
    g.play("end_of_turn")
    assert g.pending.purpose == "priority"
    out["priority"] = g  # CR 117.3
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Ruin Crab"])
    (temple,) = add_hand(g, 0, ["Temple of Malady"])
    g.play("end_of_turn")
    g.answer(g.pending.options.index({"action": "play_land", "card": temple}))
    out["trigger order"] = g  # CR 603.3b
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent"] + ["Island"] * 3)
    (bruvac,) = add_hand(g, 0, ["Bruvac the Grandiloquent"])
    g.cast(bruvac)
    g.resolve_top()
    out["legend rule"] = g  # CR 704.5j
    g = with_libraries(new_game(), 20)
    g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent", "The Water Crystal"])
    g.mill(1, 3)
    out["mill order"] = g  # CR 616.1
    for name, game in out.items():
        assert game.pending is not None, name
    return out


def _numbers(node, path=()):
    """The paths to every integer in a JSON value."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _numbers(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _numbers(v, (*path, i))
    elif isinstance(node, int) and not isinstance(node, bool):
        yield path


def _load_changed(loader, saved: str, path: tuple, value: int):
    """The saved game with the integer at `path` set to `value`, loaded; None if it is refused."""
    bad = json.loads(saved)
    node = bad
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        return loader(json.dumps(bad))
    except mtgsim.SnapshotError:
        return None


def _answer_on(g: mtgsim.Game) -> None:
    """Answers a few decisions with legal-looking answers; the engine may refuse them."""
    for _ in range(5):
        d = g.pending
        if d is None:
            return
        answer = {"scry": lambda: (d.cards, []), "yes_no": lambda: True, "number": lambda: d.max, "action": lambda: 0}.get(d.kind, lambda: list(d.options[: max(d.min, 1)]))
        try:
            g.answer(answer())
        except mtgsim.MtgsimError:
            return


def test_a_saved_game_with_a_number_of_its_paused_action_changed_is_refused_or_plays_on():  # GUIDE §3
    # Each integer inside the paused frames, set to each of a few values: the game is refused
    # with a SnapshotError, or it loads and its decisions can be answered. A PanicException (a
    # BaseException, not an MtgsimError) fails the test.
    refused = set()
    for name, g in _paused_games().items():
        loader, (saved,) = g.__reduce__()
        paths = list(_numbers(json.loads(saved)["frames"], ("frames",)))
        assert paths, name
        for path in paths:
            for value in (0, 1, 2, 3, 7, 255, 65535, 2**32 + 5, -1):
                h = _load_changed(loader, saved, path, value)
                if h is None:
                    refused.add(name)
                else:
                    _answer_on(h)
    assert refused == set(_paused_games())


def _games_in_play() -> dict[str, mtgsim.Game]:
    """Games with something on the stack, waiting to trigger or lasting a while: a spell, an
    activated and a triggered ability, delayed triggers, counters, a sticker, a legend, an "until
    end of turn" effect, and a three-player game some way in."""
    out = {}
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Mountain"] * 2)
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[bears])
    out["a spell with a target"] = g  # CR 601.2c
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "library", ["Swamp", "Island"])
    g.add_cards(0, "battlefield", ["Island", "Island"])
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.cycle(fs)
    out["cycling and its trigger"] = g  # CR 702.29, 603.3
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "library", ["Island"] * 5)
    (jace,) = g.add_cards(0, "battlefield", ["Jace, Wielder of Mysteries"])
    g.add_counters(jace, "loyalty", 8)
    g.activate(jace, 0, targets=[[{"player": 1}]])
    out["a loyalty ability"] = g  # CR 606.3
    g = mtgsim.Game(2, 3)
    g.add_cards(0, "battlefield", ["Mountain", "Island", "Mountain", "Island"])
    for p in (0, 1):
        g.add_cards(p, "library", ["Island"] * 10)
        g.set_policy(p, "manual")
    scatter, bolt = g.add_cards(0, "hand", ["Spellchain Scatter", "Lightning Bolt"])
    g.cast(scatter, kick=False)
    g.resolve_top()
    out["Spellchain Scatter's delayed trigger"] = g.clone()  # CR 603.7
    g.cast(bolt, targets=[{"player": 1}])
    out["a delayed trigger on the stack"] = g
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Astral Slide", "Swamp", "Mountain", "Swamp", "Mountain"])
    (card,) = g.add_cards(1, "hand", ["Grizzly Bears"])
    bears = g.move(card, "battlefield", controller=0, tapped=True)
    g.add_counters(bears, "+1/+1", 1)
    (slough,) = add_hand(g, 0, ["Canyon Slough"])
    g.cycle(slough)
    if g.pending is not None:  # the Slide's target, if more than one could be
        g.answer([bears])
    g.resolve_top()
    g.answer(True)
    out["Astral Slide's delayed return"] = g  # CR 603.7
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent", "Wicker Picker", "Forest", "Forest", "Forest", "Mountain"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    g.cast(bears, kick=[True], sticker=True)
    out["a legend, and a kicked spell with a sticker"] = g  # CR 702.33h
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Flamespeaker Adept"])
    g.scry(0, 1)
    g.answer(([], g.pending.cards))
    g.resolve_top()
    out["until end of turn"] = g  # CR 611.2a
    deck = ["Island", "Lightning Bolt", "Grizzly Bears", "Forest", "Mountain", "Fractured Sanity"] * 7
    g = mtgsim.Game.from_decks([deck] * 3, seed=5, policies=["random"] * 3)
    g.play(max_actions=60)
    out["three players"] = g
    return out


def _drive(g: mtgsim.Game) -> None:
    """A few actions on a loaded game: the decision answered with a legal action, the top of the
    stack resolved, priority passed, a few actions of the built-in policies; each looked at. The
    engine may refuse any of them with an MtgsimError."""
    for i in range(6):
        if g.is_over:
            return
        for act in (g.check_invariants, g.to_dict, lambda: g.observation(0), lambda: g.step):
            with contextlib.suppress(mtgsim.MtgsimError):
                act()
        try:
            if g.pending is not None:
                legal = g.legal_actions()
                if not legal:
                    return  # a tampered decision may have no legal answer (min above max)
                g.take(legal[0])
            elif i % 3 == 0 and g.stack():
                g.resolve_top()
            elif i % 3 == 1:
                g.pass_priority()
            else:
                for p in range(g.num_players):
                    g.set_policy(p, "first")
                g.play(max_actions=3)
        except mtgsim.MtgsimError:
            pass


def test_a_saved_game_with_any_number_changed_is_refused_or_plays_on():  # GUIDE §3
    # Each integer outside the paused frames (and the log, the card definitions and the replay
    # record, which are data), set to each of a few values: the game is refused with a
    # SnapshotError, or it loads and plays on. A PanicException (a BaseException, not an
    # MtgsimError) fails the test. Of the integers at the same place in each element of a list
    # (every object's "damage"), the last is changed (the newest object: the ability on the
    # stack), to keep the test quick.
    games = {**_paused_games(), **_games_in_play()}
    refused = set()
    for name, g in games.items():
        loader, (saved,) = g.__reduce__()
        chosen: dict[tuple, tuple] = {}
        for key, value in json.loads(saved).items():
            if key not in ("frames", "log", "defs", "history", "origin"):
                for path in _numbers(value, (key,)):
                    chosen[tuple(k if isinstance(k, str) else 0 for k in path)] = path
        for path in chosen.values():
            for value in (0, 1, 7, 255, 65535, -1, 2**32 + 5, 10**6):
                h = _load_changed(loader, saved, path, value)
                if h is None:
                    refused.add(name)
                else:
                    _drive(h)
    assert refused == set(games)


def test_a_stack_item_naming_a_missing_object_or_ability_is_refused():  # CR 608.2, GUIDE §3
    loader, (saved,) = _games_in_play()["cycling and its trigger"].__reduce__()
    for change, message in [
        (lambda it: it.__setitem__("slot", 99), r"stack item 1 names slot 99, and the game has \d+ objects"),
        (lambda it: it.__setitem__("controller", 7), "stack item 1 names player 7 in a 2-player game"),
        (lambda it: it["ability"][0].__setitem__("triggered", 3), "stack item 1 is triggered ability 3 of a card with 1"),
    ]:
        bad = json.loads(saved)
        change(bad["stack_items"][1])
        with pytest.raises(mtgsim.SnapshotError, match=message):
            loader(json.dumps(bad))


def test_a_delayed_trigger_naming_a_missing_player_is_refused():  # CR 603.7, GUIDE §3
    loader, (saved,) = _games_in_play()["Astral Slide's delayed return"].__reduce__()
    bad = json.loads(saved)
    bad["delayed"][0]["controller"] = 7
    with pytest.raises(mtgsim.SnapshotError, match="delayed trigger 0 names player 7 in a 2-player game"):
        loader(json.dumps(bad))


def test_a_paused_scry_naming_a_missing_player_is_refused():  # CR 701.22, GUIDE §3
    g = with_libraries(new_game(), 10)
    g.scry(0, 2)
    loader, (saved,) = g.__reduce__()
    bad = json.loads(saved)
    bad["frames"][0]["Scry"]["players"] = [7]
    with pytest.raises(mtgsim.SnapshotError, match="the paused scry names player 7 in a 2-player game"):
        loader(json.dumps(bad))


def test_a_paused_effect_whose_position_isnt_an_if_branch_is_refused():  # CR 608.2c, GUIDE §3
    g = _paused_games()["kicked Joint Exploration's if branch"]
    loader, (saved,) = g.__reduce__()
    (effect,) = [f["Effect"] for f in json.loads(saved)["frames"] if "Effect" in f]
    assert effect["path"] and effect["choosing"]
    for change, message in [
        (lambda e: e["path"][0].__setitem__(0, 0), "isn't an \"if\""),  # Joint Exploration's first instruction mills
        (lambda e: e["path"][0].__setitem__(0, 9), "isn't an \"if\""),
        (lambda e: e.__setitem__("pc", 0), "is at instruction 0"),
        (lambda e: e.__setitem__("def", 99), "names card definition 99"),
    ]:
        bad = json.loads(saved)
        change([f["Effect"] for f in bad["frames"] if "Effect" in f][0])
        with pytest.raises(mtgsim.SnapshotError, match=message):
            loader(json.dumps(bad))


def test_a_paused_cast_whose_kicker_count_isnt_its_cards_is_refused():  # CR 702.33c, GUIDE §3
    loader, (saved,) = _paused_games()["multikicker"].__reduce__()
    bad = json.loads(saved)
    bad["frames"][0]["Cast"]["printed_kickers"] = 2
    with pytest.raises(mtgsim.SnapshotError, match="counts 2 printed kickers, and its card has 1"):
        loader(json.dumps(bad))


def test_deepcopy_takes_its_memo_by_the_name_the_stub_gives() -> None:  # _core.pyi: __deepcopy__(self, memo)
    g = mtgsim.Game(2, 1)
    g.add_cards(0, "library", ["Island"])
    copy_ = g.__deepcopy__(memo={})
    assert copy_.library(0) == g.library(0) and copy_ is not g


@pytest.mark.parametrize("bounds", [(0, 10**6), (3, 2)])
def test_a_paused_number_choice_with_bounds_the_engine_never_asks_is_refused(bounds):  # CR 702.33c, GUIDE §3
    # A multikicker count is offered up to 64 at most: a million would offer a million answers,
    # and a minimum above the maximum none.
    g = _paused_games()["multikicker"]
    loader, (saved,) = g.__reduce__()
    bad = json.loads(saved)
    bad["pending"]["choice"]["min"], bad["pending"]["choice"]["max"] = bounds
    with pytest.raises(mtgsim.SnapshotError, match="multikicker decision asks for"):
        loader(json.dumps(bad))
