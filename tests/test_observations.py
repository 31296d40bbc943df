"""What each player's observation may show (CR 400.2: libraries and hands are hidden zones): public
zones whole, hidden zones only as far as the player knows them — their own hand (CR 400.2), cards
revealed to everyone (CR 701.20), cards they looked at while scrying until that library is shuffled
(CR 701.22a, 701.24a), cards put into a hidden zone from a public one, and a drawn card stays
known to whoever knew it. ``Game.observation(p)`` (a dict) and ``mtgsim.observe.observation_arrays``
(numpy arrays) are checked against the full state ``Game.to_dict()``.

1. Whole games (CR 400.2): many seeded games, played step by step with built-in policies and
   decision by decision by a seeded random driver, are compared at every stop with a reference
   model of who knows what (class ``Knowledge``, replayed from the event log independently of the
   engine's bookkeeping). For decks without reveal, scry or search effects nothing in a library
   and nothing in an opponent's hand may appear at all.
2. Counterfactuals (CR 400.2): positions that differ only in what ``p`` can't know give ``p``
   identical observations.
3. Revealing (CR 701.20, 702.29e typecycling), 4. scrying (CR 701.22a) and shuffling (701.24a),
   5. milling (CR 701.17a) and cards moved into hidden zones from public ones.

Engine leaks and knowledge bugs found while writing these are strict xfails (``LEAK_*``/``BUG_*``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterator

import numpy as np
import pytest

import mtgsim
from conftest import STEPS, add_hand, new_game
from mtgsim.observe import OBJECT_FEATURES, observation_arrays, observation_shapes
from mtgsim.sim import EXAMPLE_DECKS

ZONE_CODES = {"library": 1, "hand": 2, "graveyard": 3, "battlefield": 4, "stack": 5, "exile": 6, "command": 7, "outside": 8}
HIDDEN = ("library", "hand", "outside")
SHARED_ZONES = ("battlefield", "stack", "exile", "command")
PLAYER_ZONES = ("library", "hand", "graveyard", "outside")

#: Two decks with nothing that reveals, scries, searches or puts a public card into a hidden
#: zone: in their games nothing in a library and nothing in an opponent's hand may ever appear.
PLAIN_DECKS: tuple[list[str], list[str]] = (
    EXAMPLE_DECKS[1],
    ["Mountain"] * 14 + ["Forest"] * 10 + ["Lightning Bolt"] * 8 + ["Hill Giant"] * 8 + ["Grizzly Bears"] * 8
    + ["Horned Turtle"] * 4 + ["Ornithopter"] * 4 + ["Everflowing Chalice"] * 4,
)
#: Decks with every kind of knowledge the engine tracks: scry (Temple of Malady, Thrasios, Joint
#: Exploration), revealing the top cards (Satyr Wayfinder), searches that reveal (typecyclers,
#: Fauna Shaman, Mystical Tutor) or don't (Demonic Tutor, Gamble, Evolving Wilds), looting.
RICH_DECKS: tuple[list[str], list[str]] = (
    ["Forest"] * 9 + ["Island"] * 9 + ["Swamp"] * 6 + ["Temple of Malady"] * 4 + ["Ash Barrens"] * 2 + ["Evolving Wilds"] * 2
    + ["Thrasios, Triton Hero"] * 3 + ["Satyr Wayfinder"] * 4 + ["Joint Exploration"] * 4 + ["Lórien Revealed"] * 3
    + ["Troll of Khazad-dûm"] * 3 + ["Demonic Tutor"] * 2 + ["Mystical Tutor"] * 2 + ["Fauna Shaman"] * 3 + ["Grizzly Bears"] * 4,
    ["Mountain"] * 8 + ["Swamp"] * 8 + ["Island"] * 6 + ["Faithless Looting"] * 4 + ["Gamble"] * 2 + ["Street Wraith"] * 4
    + ["Ancient Excavation"] * 3 + ["Bloodhusk Ritualist"] * 3 + ["Canyon Slough"] * 3 + ["Lightning Bolt"] * 4
    + ["Hill Giant"] * 5 + ["Walking Corpse"] * 5 + ["Temple of Malady"] * 5,
)


def slot(obj_id: int) -> int:
    """An object id is its slot plus a generation in the high bits (a card keeps its slot)."""
    return obj_id & 0xFFFFFFFF


def full_state(g: mtgsim.Game) -> dict[str, Any]:
    """``to_dict()`` with the stack listed top first, as ``Game.stack()`` and the observation list
    it (``to_dict`` lists it in arrival order)."""
    state = g.to_dict()
    state["stack"] = state["stack"][::-1]
    assert [c["id"] for c in state["stack"]] == g.stack()
    return state


def zone_lists(state: dict[str, Any]) -> Iterator[tuple[str, int | None, list[dict[str, Any]]]]:
    """(zone kind, player or None for shared zones, cards as listed by ``to_dict``)."""
    for p, st in enumerate(state["players"]):
        for kind in PLAYER_ZONES:
            yield kind, p, st.get(kind, [])
    for kind in SHARED_ZONES:
        yield kind, None, state[kind]


# ----- the reference model ----------------------------------------------------------------------------------


class Knowledge:
    """Who knows each card in a hidden zone, replayed from the event log with the rules of this
    module's docstring. Deliberately independent of the engine's own bookkeeping: it learns a
    scry's cards from the library order before the scry, zones from the events, and checks at
    every stop that it followed every card into the hidden zones."""

    def __init__(self, g: mtgsim.Game) -> None:
        self.n = g.num_players
        self.everyone = frozenset(range(self.n))
        self.known: dict[int, set[int]] = {}
        self.zone: dict[int, tuple[str, int | None]] = {}
        self.owner: dict[int, int] = {}
        self.lib: list[list[int] | None] = [None] * self.n
        self.scries = 0  # coverage counters, for the tests to insist the model was exercised
        self.reveals = 0
        self.sync(g)
        for s, (kind, p) in self.zone.items():
            if kind == "hand":
                self.known[s] = {p}  # the opening hand was drawn

    # the events

    def _move(self, s: int, to: tuple[str, int | None], frm: tuple[str, int | None] | None = None) -> None:
        frm = frm or self.zone.get(s)
        if frm is not None and frm[0] == "library" and self.lib[frm[1]] is not None and s in self.lib[frm[1]]:
            self.lib[frm[1]].remove(s)
        if to[0] not in HIDDEN:
            self.known[s] = set()
        else:
            if frm is None or frm[0] not in HIDDEN:
                self.known[s] = set(self.everyone)  # everyone saw where it went
            else:
                self.known.setdefault(s, set())
            if to[0] == "hand":
                self.known[s].add(self.owner.get(s, to[1]))
            if to[0] == "library":
                self.lib[to[1]] = None  # where in the library is not in the event
        self.zone[s] = to

    def _take_top(self, p: int, slots: list[int]) -> None:
        lib = self.lib[p]
        if lib is not None:
            assert lib[: len(slots)] == slots, f"model: player {p}'s top cards were {lib[:len(slots)]}, the events say {slots}"

    def apply(self, events: list[dict[str, Any]]) -> None:
        public: tuple[str, int | None] = ("public", None)
        found: set[int] = set()
        for e in events:
            k = e["kind"]
            if k == "drew":
                s = slot(e["card"])
                self._take_top(e["player"], [s])
                self._move(s, ("hand", e["player"]))
            elif k == "milled":
                ss = [slot(c) for c in e["cards"]]
                self._take_top(e["player"], ss)
                for s in ss:
                    self._move(s, public)
            elif k == "moved":
                fr, to = e["from"], e["to"]
                self._move(slot(e["card"]), (to["kind"], to["player"]), (fr["kind"], fr["player"]))
            elif k in ("discarded", "cycled", "land_played", "died", "token_created"):  # (no Library of Leng here)
                self._move(slot(e.get("card", e.get("token"))), public)
            elif k == "spell_cast":
                self._move(slot(e["spell"]), public)
            elif k in ("resolved", "countered", "fizzled"):
                if e.get("card") is not None:
                    self._move(slot(e["card"]), public)
            elif k == "revealed":
                self.reveals += 1
                for c in e["cards"]:
                    if self.zone.get(slot(c), ("public",))[0] in HIDDEN:
                        self.known[slot(c)] = set(self.everyone)
            elif k == "shuffled":
                p = e["player"]
                for s, z in self.zone.items():
                    if z == ("library", p) and s not in found:
                        self.known[s] = set()  # CR 701.24a: nobody knows the order any more
                self.lib[p] = None
                found = set()
            elif k == "searched":
                # The searcher chose the found cards; nobody else saw which (unless revealed next).
                # Found cards that stay in the library are set aside from the shuffle that
                # follows and go on top (CR 701.24b, Mystical Tutor).
                found = {slot(c) for c in e["found"]}
                for s in found:
                    if self.zone.get(s, ("public",))[0] in HIDDEN:
                        self.known[s] = {e["player"]}
            elif k == "scried":
                q, looked = e["player"], e["looked"]
                lib = self.lib[q]
                if looked == 0:  # an empty library: nothing looked at
                    continue
                assert lib is not None, "model: a scry of a library whose order the model lost in the same action"
                self.scries += 1
                for s in lib[:looked]:
                    # The scrier knows them; if several were looked at, nobody else can follow them.
                    self.known[s] = ({q} | self.known.get(s, set())) if looked == 1 else {q}
                self.lib[q] = None
            elif k == "conjured":
                raise AssertionError("model: conjuring is not modelled (no such card in these decks)")

    def see_pending(self, g: mtgsim.Game) -> None:
        """A scry decision: the scrier is looking at the cards now (CR 701.22a)."""
        d = g.pending
        if d is not None and d.kind == "scry":
            lib = self.lib[d.player]
            assert lib is not None and lib[: len(d.cards)] == [slot(c) for c in d.cards], "model: scry of other than the top cards"
            for c in d.cards:
                self.known.setdefault(slot(c), set()).add(d.player)

    def sync(self, g: mtgsim.Game) -> None:
        """At a stop: check every card in a hidden zone is where the model followed it; take the
        libraries' order and new objects from the state."""
        state = full_state(g)
        seen: set[int] = set()
        for kind, p, cards in zone_lists(state):
            for i, c in enumerate(cards):
                s = slot(c["id"])
                seen.add(s)
                self.owner.setdefault(s, c["owner"])
                z = (kind, p if kind in PLAYER_ZONES else None)
                if kind in HIDDEN:
                    if s in self.zone:
                        assert self.zone[s] == z, f"model lost track of {c['name']} ({c['id']}): thought {self.zone[s]}, is {z}"
                    else:
                        self.known.setdefault(s, set())
                else:
                    self.known[s] = set()
                self.zone[s] = z
        for s in list(self.zone):
            if s not in seen:  # tokens and abilities that ceased to exist
                del self.zone[s]
                self.known.pop(s, None)
        for p, st in enumerate(state["players"]):
            self.lib[p] = [slot(c["id"]) for c in st["library"]]
        self.see_pending(g)

    def step(self, g: mtgsim.Game) -> None:
        self.apply(g.events)
        g.clear_events()
        self.sync(g)

    def visible(self, p: int, s: int) -> bool:
        kind, q = self.zone[s]
        return kind not in HIDDEN or (kind == "hand" and q == p) or p in self.known.get(s, ())


# ----- the checks ------------------------------------------------------------------------------------------------


def decision_ids(d: Any, kind: str | None = None) -> Iterator[int]:
    """Every object id inside a decision's view: options, cards, action sources and targets."""
    if isinstance(d, dict):
        for key, v in d.items():
            if key in ("id", "card", "source", "spell") and isinstance(v, int):
                yield v
            elif key in ("options", "cards") and isinstance(v, list):
                for x in v:
                    if isinstance(x, int) and kind != "modes":
                        yield x
                    else:
                        yield from decision_ids(x, kind)
            elif isinstance(v, (dict, list)):
                yield from decision_ids(v, kind)
    elif isinstance(d, list):
        for x in d:
            yield from decision_ids(x, kind)


def card_ids(v: Any) -> Iterator[int]:
    """Every card's id in an observation (outside the decision)."""
    if isinstance(v, dict):
        if "id" in v and "name" in v:
            yield v["id"]
        for key, x in v.items():
            if key != "decision":
                yield from card_ids(x)
    elif isinstance(v, list):
        for x in v:
            yield from card_ids(x)


def searched_library_slots(g: mtgsim.Game, state: dict[str, Any]) -> set[int]:
    """While a player searches, they look at the whole library (CR 701.23a): its cards may be
    offered to them. Any library: the decision doesn't name which one is searched."""
    d = g.pending
    if d is None or d.purpose not in ("search", "may_search"):
        return set()
    return {slot(c["id"]) for st in state["players"] for c in st["library"]}


class Checker:
    """Compares each player's observation and arrays with ``to_dict`` and the model."""

    def __init__(self, g: mtgsim.Game, model: Knowledge, space: mtgsim.ActionSpace) -> None:
        self.model, self.space = model, space
        self.codes: dict[str, int] = {}
        self.checks = 0
        self.shown_hidden = Counter[str]()  # hidden cards shown to someone other than the hand's owner

    def __call__(self, g: mtgsim.Game) -> None:
        state = full_state(g)
        for p in range(g.num_players):
            self.check_dict(g, state, p)
            self.check_arrays(g, state, p)
        self.checks += 1

    def check_dict(self, g: mtgsim.Game, state: dict[str, Any], p: int) -> None:
        m = self.model
        obs = g.observation(p)
        where = f"player {p}'s observation, turn {state['turn']}"
        assert (obs["player"], obs["turn"], obs["active_player"], obs["over"]) == (p, state["turn"], state["active_player"], g.is_over), where
        assert (obs["step"], obs["priority_player"]) == (g.step, g.priority_player), where
        for kind in SHARED_ZONES:
            assert obs[kind] == state[kind], f"{where}: {kind}"
        for q, (op, st) in enumerate(zip(obs["players"], state["players"])):
            assert op["player"] == q
            assert (op["life"], op["counters"], op["lost"], op["graveyard"]) == (st["life"], st["counters"], st["lost"], st["graveyard"]), where
            assert (op["hand_size"], op["library_size"]) == (len(st["hand"]), len(st["library"])), where
            hand = [c for c in st["hand"] if m.visible(p, slot(c["id"]))]
            assert op["hand"] == hand, f"{where}: player {q}'s hand should show exactly {[c['name'] for c in hand]}"
            lib = [{"position": i, "card": c} for i, c in enumerate(st["library"]) if m.visible(p, slot(c["id"]))]
            assert op["library_known"] == lib, f"{where}: player {q}'s library should show exactly {lib}"
            if q != p:
                self.shown_hidden["hand"] += len(hand)
            self.shown_hidden["library"] += len(lib)
        # No id of an unseen object anywhere — including the decision.
        ids = {c["id"]: (kind, q) for kind, q, cards in zone_lists(state) for c in cards}
        for i in card_ids(obs):
            assert i in ids and m.visible(p, slot(i)), f"{where} shows object {i}"
        d = g.pending
        if d is None:
            assert obs["decision"] is None
        elif d.player != p:
            assert obs["decision"] == {"player": d.player}, f"{where}: another player's decision"
        else:
            view = obs["decision"]
            assert {k: v for k, v in view.items() if k != "legal_actions"} == d.to_dict()
            assert view["legal_actions"] == [a.text for a in g.legal_actions()]
            allowed = searched_library_slots(g, state)
            for i in decision_ids(view, view["kind"]):
                assert i in ids, f"{where}: the decision names {i}, no object"
                assert m.visible(p, slot(i)) or slot(i) in allowed, f"{where}: the decision names {g.name(i)} ({i}), unseen by {p}"

    def code(self, name: str, code: int) -> None:
        assert code >= 1
        assert self.codes.setdefault(name, code) == code, f"{name} has card codes {self.codes[name]} and {code}"

    def check_arrays(self, g: mtgsim.Game, state: dict[str, Any], p: int) -> None:
        m, space = self.model, self.space
        arrays = observation_arrays(g, p, space)
        shapes = observation_shapes(space)
        assert {k: v.shape for k, v in arrays.items()} == shapes
        rows = arrays["objects"]
        expected = np.zeros_like(rows)
        for kind, q, cards in zone_lists(state):
            for pos, c in enumerate(cards):
                s = slot(c["id"])
                if s >= space.slots or not m.visible(p, s):
                    continue
                o = g.object(c["id"])
                counters = o.counters.get("+1/+1", 0) - o.counters.get("-1/-1", 0)
                expected[s] = [1, ZONE_CODES[kind], o.owner, o.controller, rows[s][4], int(o.tapped), pos, counters]
                self.code(c["name"], int(rows[s][4]))
        where = f"player {p}'s arrays, turn {state['turn']}"
        bad = np.flatnonzero((rows != expected).any(axis=1))
        assert bad.size == 0, f"{where}: slot {bad[0]} is {rows[bad[0]].tolist()}, expected {expected[bad[0]].tolist()}"
        d = g.pending
        glob = [state["turn"], STEPS.index(g.step), state["active_player"], -1 if g.priority_player is None else g.priority_player, p]
        glob += [-1 if d is None else d.player, int(g.is_over)]
        for st in state["players"]:
            glob += [st["life"], len(st["library"]), len(st["hand"]), len(st["graveyard"]), st["counters"].get("poison", 0), int(st["lost"] is not None)]
        assert arrays["global"].tolist() == glob, where
        mask = arrays["action_mask"]
        if d is None or d.player != p:
            assert not mask.any(), f"{where}: an action mask for a player who isn't deciding"
        else:
            assert mask.tolist() == [int(b) for b in g.action_mask(space)]
            n = space.slots
            allowed = searched_library_slots(g, state)
            for code in np.flatnonzero(mask):
                if 4 <= code < 4 + 8 * n:  # pick / bottom / play land / cast / activate: a slot
                    s = (code - 4) % n if code < 4 + 4 * n else (code - 4 - 4 * n) // 4
                    if s in m.zone:
                        assert m.visible(p, s) or s in allowed, f"{where}: the action mask names unseen slot {s}"


# ----- 1. whole games --------------------------------------------------------------------------------------------


def play_builtin(decks, seed: int, policies: tuple[str, str], max_stops: int, coarse: bool = False) -> tuple[mtgsim.Game, Knowledge, Checker]:
    """A game on built-in policies, checked at every stop: after every action, or (``coarse``)
    every 1-4 actions and sometimes at a step or the end of a turn. (The model can't follow two
    scries of one library in one stop — it learns a scry's cards from the order before it — so
    games with scries stop after every action.)"""
    rng = random.Random(seed)
    g = mtgsim.Game.from_decks(decks, seed=seed)
    for p, pol in enumerate(policies):
        g.set_policy(p, pol)
    model = Knowledge(g)
    g.clear_events()
    check = Checker(g, model, g.action_space(extra=96))
    check(g)
    for _ in range(max_stops):
        if g.is_over:
            break
        r = rng.random() if coarse else 1.0
        if not coarse:
            g.play(max_actions=1)
        elif r < 0.05:
            g.play(until="end_of_turn", max_actions=400)
        elif r < 0.15:
            g.play(until=rng.choice(["precombat_main", "end", "upkeep", "draw"]), max_actions=400)
        else:
            g.play(max_actions=rng.randint(1, 4))
        model.step(g)
        check(g)
    return g, model, check


def play_driven(decks, seed: int, max_stops: int) -> tuple[mtgsim.Game, Knowledge, Checker]:
    """Both players manual; every decision is answered one legal action at a time by a seeded
    random choice (preferring doing something to passing), and checked before each answer."""
    rng = random.Random(seed)
    g = mtgsim.Game.from_decks(decks, seed=seed)
    for p in range(2):
        g.set_policy(p, "manual")
    model = Knowledge(g)
    g.clear_events()
    check = Checker(g, model, g.action_space(extra=96))
    check(g)
    for _ in range(max_stops):
        if g.is_over:
            break
        if g.pending is None:
            g.play(max_actions=1)
        else:
            actions = g.legal_actions()
            busy = [a for a in actions if a.kind == "priority" and "pass" not in a.text]
            done = [a for a in actions if a.kind == "done"]
            if busy and rng.random() < 0.6:
                a = rng.choice(busy)
            elif done and rng.random() < 0.4:
                a = done[0]
            else:
                a = rng.choice(actions)
            g.take(a)
        model.step(g)
        check(g)
    return g, model, check


def assert_nothing_hidden_shown(g: mtgsim.Game, space: mtgsim.ActionSpace) -> None:
    """For decks without reveal, scry or search: no library card and no opponent's hand card is
    in any observation, and their array rows are all zeros."""
    state = full_state(g)
    for p in range(g.num_players):
        obs = g.observation(p)
        rows = observation_arrays(g, p, space)["objects"]
        for q, (op, st) in enumerate(zip(obs["players"], state["players"])):
            assert op["library_known"] == [], f"player {p} sees into player {q}'s library"
            hidden = st["library"] + (st["hand"] if q != p else [])
            if q != p:
                assert op["hand"] == [], f"player {p} sees into player {q}'s hand"
            for c in hidden:
                if slot(c["id"]) < space.slots:
                    assert not rows[slot(c["id"])].any(), f"player {p}'s array row for hidden {c['name']}"


@pytest.mark.parametrize(
    "seed, policies",
    [(1, ("goldfish", "goldfish")), (2, ("random", "random")), (3, ("goldfish", "random")), (4, ("random", "goldfish")), (5, ("random", "random")), (6, ("goldfish", "goldfish"))],
)
def test_plain_decks_never_show_a_library_card_or_an_opponents_hand_card(seed, policies):  # CR 400.2
    g, model, check = play_builtin(PLAIN_DECKS, seed, policies, max_stops=250, coarse=True)
    assert check.checks > 30
    assert check.shown_hidden == Counter()  # the model agrees: nobody knew anything hidden
    assert_nothing_hidden_shown(g, check.space)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_plain_decks_decision_by_decision(seed):  # CR 400.2
    g, model, check = play_driven(PLAIN_DECKS, seed, max_stops=500)
    assert check.checks > 100 and check.shown_hidden == Counter()
    assert_nothing_hidden_shown(g, check.space)


def test_plain_games_show_nothing_hidden_at_every_stop():  # CR 400.2
    # The blunt check of assert_nothing_hidden_shown at every stop of a few games, to depend on no model.
    for seed in range(20, 24):
        g = mtgsim.Game.from_decks(PLAIN_DECKS, seed=seed)
        g.set_policy(0, "random")
        space = g.action_space(extra=96)
        for _ in range(120):
            if g.is_over:
                break
            g.play(max_actions=3)
            assert_nothing_hidden_shown(g, space)


def test_example_decks_with_builtin_policies():  # CR 400.2, 701.20, 701.22a, 701.24a, 702.29e
    totals = Counter[str]()
    for seed, policies in [(31, ("goldfish", "random")), (32, ("random", "random")), (33, ("goldfish", "goldfish")), (34, ("random", "goldfish")), (35, ("goldfish", "random")), (36, ("random", "random"))]:
        g, model, check = play_builtin(EXAMPLE_DECKS, seed, policies, max_stops=400)
        totals.update(check.shown_hidden)
        totals["scries"] += model.scries
        totals["reveals"] += model.reveals
    # The games did reveal and scry, and the observations showed hidden cards accordingly.
    assert totals["scries"] > 0 and totals["reveals"] > 0 and totals["hand"] > 0 and totals["library"] > 0, totals


def test_example_decks_decision_by_decision():  # CR 400.2, 701.20, 701.22a, 701.23a, 701.24a
    totals = Counter[str]()
    for seed in (41, 42, 43, 44):
        g, model, check = play_driven(EXAMPLE_DECKS, seed, max_stops=600)
        totals.update(check.shown_hidden)
        totals["scries"] += model.scries
        totals["reveals"] += model.reveals
    assert totals["reveals"] > 0 and totals["hand"] > 0, totals


def test_rich_decks_with_builtin_policies():  # CR 400.2, 701.20, 701.22a, 701.23, 701.24a
    totals = Counter[str]()
    for seed, policies in [(51, ("goldfish", "random")), (52, ("random", "random")), (53, ("goldfish", "goldfish")), (54, ("random", "goldfish"))]:
        g, model, check = play_builtin(RICH_DECKS, seed, policies, max_stops=400)
        totals.update(check.shown_hidden)
        totals["scries"] += model.scries
        totals["reveals"] += model.reveals
    assert totals["scries"] > 0 and totals["reveals"] > 0 and totals["hand"] > 0 and totals["library"] > 0, totals


def test_rich_decks_decision_by_decision():  # CR 400.2, 701.20, 701.22a, 701.23, 701.24a
    totals = Counter[str]()
    for seed in (61, 62, 63, 64):
        g, model, check = play_driven(RICH_DECKS, seed, max_stops=600)
        totals.update(check.shown_hidden)
        totals["scries"] += model.scries
    assert totals["scries"] > 0 and totals["library"] > 0, totals


class Leaky:
    """A game whose observations leak the first card of the other player's hand (to test the
    checks): in the dict, or as a visible row of the arrays."""

    def __init__(self, g: mtgsim.Game, in_arrays: bool) -> None:
        self._g, self._in_arrays = g, in_arrays

    def __getattr__(self, name: str) -> Any:
        return getattr(self._g, name)

    def observation(self, p: int) -> dict[str, Any]:
        obs = self._g.observation(p)
        if not self._in_arrays:
            obs["players"][1 - p]["hand"] = full_state(self._g)["players"][1 - p]["hand"][:1]
        return obs

    def _observation_arrays(self, p: int, slots: int) -> tuple[bytes, bytes]:
        glob, rows = self._g._observation_arrays(p, slots)
        if self._in_arrays:
            r = np.frombuffer(rows, dtype="<i4").reshape(slots, len(OBJECT_FEATURES)).copy()
            r[slot(self._g.hand(1 - p)[0])] = [1, 2, 1 - p, 1 - p, 1, 0, 0, 0]
            rows = r.tobytes()
        return glob, rows


@pytest.mark.parametrize("in_arrays", [False, True])
def test_the_checks_catch_a_leak(in_arrays):
    g = mtgsim.Game.from_decks(PLAIN_DECKS, seed=3)
    check = Checker(g, Knowledge(g), g.action_space())
    check(g)
    leaky = Leaky(g, in_arrays)
    with pytest.raises(AssertionError, match="arrays" if in_arrays else "hand should show exactly"):
        check(leaky)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="array row for hidden" if in_arrays else "sees into player"):
        assert_nothing_hidden_shown(leaky, check.space)  # type: ignore[arg-type]


def test_the_checker_catches_a_wrong_model():
    # The comparison is exact: pretending player 1 knows player 0's top card makes it fail.
    g = mtgsim.Game.from_decks(EXAMPLE_DECKS, seed=3)
    model = Knowledge(g)
    check = Checker(g, model, g.action_space())
    check(g)
    model.known[slot(g.library(0)[0])] = {1}
    with pytest.raises(AssertionError, match="library should show exactly"):
        check(g)


# ----- 2. counterfactuals ----------------------------------------------------------------------------------------


def seen(g: mtgsim.Game, viewer: int, owner: int) -> tuple[list[str], list[tuple[int, str]]]:
    """What ``viewer`` sees of ``owner``'s hidden zones: hand names, and (position, name) in the library."""
    op = g.observation(viewer)["players"][owner]
    return [c["name"] for c in op["hand"]], [(e["position"], e["card"]["name"]) for e in op["library_known"]]


def arrays(g: mtgsim.Game, p: int, space: mtgsim.ActionSpace | None = None) -> dict[str, np.ndarray]:
    return observation_arrays(g, p, space or g.action_space())


def row(g: mtgsim.Game, p: int, obj: int) -> list[int]:
    return arrays(g, p)["objects"][slot(obj)].tolist()


def same_view(a: mtgsim.Game, b: mtgsim.Game, p: int, space: mtgsim.ActionSpace) -> bool:
    x, y = arrays(a, p, space), arrays(b, p, space)
    return a.observation(p) == b.observation(p) and all(np.array_equal(x[k], y[k]) for k in x)


def counterfactual(opp_hand: list[str], opp_library: list[str], own_library: list[str]) -> mtgsim.Game:
    """Player 0's view: the same public zones and hand; player 1's hand and both libraries are
    as given (the same sizes in every variant, so every object has the same slot). The visible
    cards are added first: the card table grows in the order cards are added (see
    test_the_card_table_does_not_depend_on_the_opponents_deck)."""
    g = new_game()
    g.add_cards(0, "battlefield", ["Plains", "Forest"])
    g.add_cards(1, "battlefield", ["Mountain", "Grizzly Bears"])
    g.add_cards(0, "graveyard", ["Hill Giant"])
    g.add_cards(1, "graveyard", ["Lightning Bolt"])
    add_hand(g, 0, ["Savannah Lions", "Ornithopter"])
    g.add_cards(0, "library", own_library)
    g.add_cards(1, "library", opp_library)
    add_hand(g, 1, opp_hand)
    return g


VARIANTS = [
    (["Hill Giant", "Island", "Counterspell"], ["Forest"] * 5 + ["Lightning Bolt"], ["Island"] * 6),
    (["Wastes", "Mountain", "Lightning Bolt"], ["Lightning Bolt"] + ["Mountain"] * 5, ["Swamp", "Hill Giant", "Island", "Ornithopter", "Forest", "Swamp"]),
    (["Grizzly Bears", "Grizzly Bears", "Grizzly Bears"], ["Ornithopter", "Hill Giant", "Swamp", "Wastes", "Island", "Forest"], ["Forest"] * 6),
]


def test_what_a_player_cant_know_doesnt_change_their_observation():  # CR 400.2
    games = [counterfactual(*v) for v in VARIANTS]
    space = games[0].action_space()
    for g in games[1:]:
        assert same_view(games[0], g, 0, space)
        assert not same_view(games[0], g, 1, space)  # player 1 sees their own hand: the check can fail
    # The same public actions: player 1 draws, both shuffle, player 1 scries (a decision player 0
    # can't see into) and puts the first card on the bottom; then player 0 has priority.
    for g in games:
        g.draw(1, 2)
        g.shuffle(0)
        g.shuffle(1)
        g.scry(1, 2)
        assert g.observation(0)["decision"] == {"player": 1}
    for g in games[1:]:
        assert same_view(games[0], g, 0, space)
    for g in games:
        first, second = g.pending.cards
        g.answer(([second], [first]))
        g.play(max_actions=1)
        assert g.pending.player == 0 and g.observation(0)["decision"]["legal_actions"]
    for g in games[1:]:
        assert same_view(games[0], g, 0, space)
        assert arrays(g, 0, space)["action_mask"].any()


def test_the_order_of_a_library_is_hidden_even_from_its_owner():  # CR 400.2, 401.2
    a = counterfactual(["Hill Giant"], ["Island", "Forest", "Swamp"], ["Plains", "Mountain", "Wastes"])
    b = counterfactual(["Hill Giant"], ["Swamp", "Island", "Forest"], ["Wastes", "Plains", "Mountain"])
    space = a.action_space()
    assert same_view(a, b, 0, space) and same_view(a, b, 1, space)
    a.scry(0, 1)
    b.scry(0, 1)
    assert same_view(a, b, 1, space) and not same_view(a, b, 0, space)  # player 0 now looks at Plains / Wastes


def test_a_reveal_makes_the_difference_visible():  # CR 400.2, 701.20a
    a, b = counterfactual(*VARIANTS[0]), counterfactual(*VARIANTS[1])
    space = a.action_space()
    a.reveal(1, [a.hand(1)[2]])  # Counterspell
    b.reveal(1, [b.hand(1)[2]])  # Lightning Bolt
    assert not same_view(a, b, 0, space)
    assert seen(a, 0, 1) == (["Counterspell"], []) and seen(b, 0, 1) == (["Lightning Bolt"], [])
    c = counterfactual(["Island", "Hill Giant", "Counterspell"], *VARIANTS[0][1:])
    c.reveal(1, [c.hand(1)[2]])
    assert same_view(a, c, 0, space)  # the same card revealed, the rest of the hand different


def test_the_card_table_does_not_depend_on_the_opponents_deck():  # CR 400.2
    mine = ["Forest"] * 20 + ["Grizzly Bears"] * 20 + ["Hill Giant"] * 20
    a = mtgsim.Game.from_decks([["Island"] * 60, mine], seed=7)
    b = mtgsim.Game.from_decks([["Island"] * 30 + ["Swamp"] * 30, mine], seed=7)  # same size: same shuffles
    space = a.action_space()
    assert a.observation(1) == b.observation(1)  # the dict view is the same...
    assert same_view(a, b, 1, space)  # ...the arrays are not


# ----- 3. revealing ----------------------------------------------------------------------------------------------


def test_a_revealed_hand_card_is_seen_by_everyone_and_the_rest_of_the_hand_is_not():  # CR 701.20a, 400.2
    g = new_game()
    g.add_cards(0, "library", ["Island"] * 3)
    giant, spell, land = add_hand(g, 0, ["Hill Giant", "Counterspell", "Island"])
    assert seen(g, 1, 0) == ([], [])
    assert row(g, 1, spell) == [0] * 8
    g.reveal(0, [spell])
    assert g.observation(1)["players"][0]["hand"] == [{"id": spell, "name": "Counterspell", "owner": 0}]
    r = row(g, 1, spell)
    assert r[:4] == [1, ZONE_CODES["hand"], 0, 0] and r[5:] == [0, 1, 0]  # visible, in hand at index 1
    assert r == row(g, 0, spell)  # exactly what the owner sees
    assert row(g, 1, giant) == row(g, 1, land) == [0] * 8
    assert seen(g, 0, 0)[0] == ["Hill Giant", "Counterspell", "Island"]
    g.draw(0, 2)  # it stays known in the hand
    assert seen(g, 1, 0) == (["Counterspell"], [])
    assert g.observation(1)["players"][0]["hand_size"] == 5


def test_a_revealed_library_card_is_known_in_place_until_drawn_or_shuffled():  # CR 701.20a, 701.24a, 400.2
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Swamp", "Hill Giant", "Forest"])
    g.reveal(0, [lib[2]])
    assert seen(g, 1, 0) == seen(g, 0, 0) == ([], [(2, "Hill Giant")])
    assert row(g, 1, lib[2])[:2] == [1, ZONE_CODES["library"]] and row(g, 1, lib[2])[6] == 2
    g.draw(0, 3)  # drawn: known to whoever knew it (everyone)
    assert seen(g, 1, 0) == (["Hill Giant"], [])
    h = g.add_cards(0, "library", ["Forest", "Swamp"])
    g.reveal(0, [h[1]])
    assert seen(g, 1, 0)[1] == [(1, "Swamp")]
    g.shuffle(0)
    assert seen(g, 1, 0)[1] == seen(g, 0, 0)[1] == []
    assert all(row(g, p, c) == [0] * 8 for p in (0, 1) for c in g.library(0))


def test_islandcycling_reveals_the_found_island_but_not_the_rest_of_the_hand():  # CR 702.29e, 701.23, 701.20a, 400.2
    g = new_game()
    lib = g.add_cards(0, "library", ["Plains", "Island", "Swamp", "Thrasios, Triton Hero", "Grizzly Bears"])
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Forest"])
    lorien, giant, bolt = add_hand(g, 0, ["Lórien Revealed", "Hill Giant", "Lightning Bolt"])
    assert seen(g, 1, 0) == ([], [])
    g.cycle(lorien)  # activated from the hand: revealed, then discarded (public)
    assert [c["name"] for c in g.observation(1)["players"][0]["graveyard"]] == ["Lórien Revealed"]
    g.resolve_top()
    d = g.pending
    assert (d.player, d.purpose) == (0, "search")
    # The searcher looks at the library (CR 701.23a); the other player only sees who decides.
    assert g.observation(0)["decision"]["options"] == [lib[1]]
    assert g.observation(1)["decision"] == {"player": 0}
    assert not arrays(g, 1)["action_mask"].any()
    assert seen(g, 1, 0) == ([], [])
    g.answer([lib[1]])
    (island,) = [c for c in g.hand(0) if g.name(c) == "Island"]
    assert seen(g, 1, 0) == (["Island"], [])
    assert g.observation(1)["players"][0]["hand"] == [{"id": island, "name": "Island", "owner": 0}]
    assert row(g, 1, island)[:2] == [1, ZONE_CODES["hand"]]
    assert row(g, 1, giant) == row(g, 1, bolt) == [0] * 8
    assert seen(g, 0, 0) == (["Hill Giant", "Lightning Bolt", "Island"], [])  # shuffled: no library card known
    assert all(row(g, p, c) == [0] * 8 for p in (0, 1) for c in g.library(0))


def test_a_cycled_card_is_revealed_as_the_cycling_ability_is_activated():  # CR 602.2a, 701.20a, 702.29a
    g = new_game()
    g.add_cards(0, "library", ["Island"] * 3)
    (wraith,) = add_hand(g, 0, ["Street Wraith"])
    g.clear_events()
    ability = g.cycle(wraith)
    assert g.events[0] == {"kind": "revealed", "player": 0, "cards": [wraith]}
    obs = g.observation(1)
    assert [c["name"] for c in obs["players"][0]["graveyard"]] == ["Street Wraith"]
    assert [c["id"] for c in obs["stack"]] == [ability]
    g.resolve_top()  # draws an Island: the owner's, not revealed
    assert seen(g, 1, 0) == ([], []) and seen(g, 0, 0) == (["Island"], [])


# ----- 4. scrying and shuffling ----------------------------------------------------------------------------------


def test_the_scrying_player_knows_the_cards_looked_at_until_the_library_is_shuffled():  # CR 701.22a, 701.24a
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Swamp", "Forest", "Plains", "Mountain", "Wastes"])
    g.add_cards(1, "library", ["Island"] * 5)
    g.scry(0, 2)
    # While deciding, player 0 is looking at them: in the decision and in the library view.
    assert g.observation(0)["decision"]["cards"] == lib[:2]
    assert seen(g, 0, 0) == ([], [(0, "Island"), (1, "Swamp")])
    assert g.observation(1)["decision"] == {"player": 0} and seen(g, 1, 0) == ([], [])
    g.answer(([lib[1]], [lib[0]]))  # Swamp on top, Island on the bottom
    size = g.observation(0)["players"][0]["library_size"]
    assert size == 6
    known = g.observation(0)["players"][0]["library_known"]
    assert known == [
        {"position": 0, "card": {"id": lib[1], "name": "Swamp", "owner": 0}},
        {"position": size - 1, "card": {"id": lib[0], "name": "Island", "owner": 0}},
    ]
    assert seen(g, 1, 0) == ([], [])
    assert row(g, 0, lib[1]) == [1, ZONE_CODES["library"], 0, 0, row(g, 0, lib[1])[4], 0, 0, 0]
    assert row(g, 0, lib[0])[6] == size - 1
    assert row(g, 1, lib[0]) == row(g, 1, lib[1]) == [0] * 8
    assert all(row(g, 0, c) == [0] * 8 for c in lib[2:])  # not looked at
    # Drawing the top card: in the hand; the bottom card is still known, one place higher.
    g.draw(0)
    assert seen(g, 0, 0) == (["Swamp"], [(size - 2, "Island")]) and seen(g, 1, 0) == ([], [])
    g.shuffle(0)
    assert seen(g, 0, 0) == (["Swamp"], []) and seen(g, 1, 0) == ([], [])
    assert all(row(g, p, c) == [0] * 8 for p in (0, 1) for c in g.library(0))


def test_scry_each_shows_each_player_only_their_own_cards():  # CR 701.22a, 701.22c
    g = new_game()
    mine = g.add_cards(0, "library", ["Island", "Swamp", "Forest"])
    theirs = g.add_cards(1, "library", ["Plains", "Mountain", "Wastes"])
    g.scry_each([0, 1], 1)
    assert g.pending.player == 0 and g.observation(1)["decision"] == {"player": 0}
    assert seen(g, 0, 0)[1] == [(0, "Island")] and seen(g, 1, 1)[1] == []
    g.answer(([], [mine[0]]))
    assert g.pending.player == 1
    assert seen(g, 1, 1)[1] == [(0, "Plains")]
    g.answer(([theirs[0]], []))
    assert seen(g, 0, 0)[1] == [(2, "Island")] and seen(g, 0, 1)[1] == []
    assert seen(g, 1, 1)[1] == [(0, "Plains")] and seen(g, 1, 0)[1] == []


def test_shuffling_another_library_forgets_nothing_here():  # CR 701.24a
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Swamp", "Forest"])
    g.add_cards(1, "library", ["Plains"] * 3)
    g.scry(0, 1)
    g.answer(([lib[0]], []))
    g.shuffle(1)
    assert seen(g, 0, 0)[1] == [(0, "Island")]
    g.shuffle(0)
    assert seen(g, 0, 0)[1] == []


def test_a_scry_hides_where_a_publicly_known_card_went():  # CR 701.22a, 400.2
    g = new_game()
    g.add_cards(0, "library", ["Island", "Swamp", "Forest", "Plains"])
    (giant,) = g.add_cards(0, "graveyard", ["Hill Giant"])
    giant = g.move(giant, "library", position="top")  # everyone saw it go on top
    assert seen(g, 1, 0)[1] == [(0, "Hill Giant")]
    g.scry(0, 2)
    first, second = g.pending.cards
    g.answer(([second], [first]))  # the Giant to the bottom, the Island stays on top
    assert seen(g, 0, 0)[1] == [(0, "Island"), (4, "Hill Giant")]
    # Player 1 saw one of the two go to the bottom, not which.
    assert seen(g, 1, 0)[1] == []


@pytest.mark.parametrize("where", ["top", "bottom"])
def test_a_publicly_known_card_scried_alone_stays_known_to_everyone(where):  # CR 701.22a, 400.2
    g = new_game()
    g.add_cards(0, "library", ["Island", "Swamp", "Forest", "Plains"])
    (giant,) = g.add_cards(0, "graveyard", ["Hill Giant"])
    giant = g.move(giant, "library", position="top")  # everyone saw it go on top
    g.scry(0, 1)
    # While player 0 looks at it, it is still where everyone saw it go.
    assert seen(g, 1, 0)[1] == [(0, "Hill Giant")]
    g.answer(([giant], []) if where == "top" else ([], [giant]))
    # One card: everyone sees whether it went to the top or the bottom.
    assert seen(g, 1, 0)[1] == [(0 if where == "top" else 4, "Hill Giant")]


# ----- 5. milling, and cards moved into hidden zones from public ones -------------------------------------------


def test_milled_cards_are_public():  # CR 701.17a, 400.2
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Hill Giant", "Swamp", "Forest"])
    milled = g.mill(0, 2)
    for p in (0, 1):
        obs = g.observation(p)["players"][0]
        assert [c["name"] for c in obs["graveyard"]] == ["Hill Giant", "Island"]
        assert obs["library_known"] == [] and obs["library_size"] == 2
        assert [row(g, p, c)[:2] + row(g, p, c)[6:7] for c in milled] == [[1, 3, 1], [1, 3, 0]]
        assert all(row(g, p, c) == [0] * 8 for c in lib[2:])


@pytest.mark.parametrize("where", ["top", "bottom"])
def test_a_card_put_into_a_library_from_a_graveyard_is_known_to_everyone(where):  # CR 400.2, 400.7
    g = new_game()
    g.add_cards(0, "library", ["Island", "Swamp", "Forest"])
    (giant,) = g.add_cards(0, "graveyard", ["Hill Giant"])
    new = g.move(giant, "library", position=where)
    pos = 0 if where == "top" else 3
    for p in (0, 1):
        assert seen(g, p, 0) == ([], [(pos, "Hill Giant")])
        assert g.observation(p)["players"][0]["library_known"][0]["card"]["id"] == new
        assert row(g, p, new)[:3] + row(g, p, new)[5:] == [1, ZONE_CODES["library"], 0, 0, pos, 0]
    g.draw(0, 4 if where == "bottom" else 1)  # drawn: still known to everyone
    for p in (0, 1):
        assert "Hill Giant" in seen(g, p, 0)[0]
    assert seen(g, 1, 0)[0] == ["Hill Giant"]  # and nothing else of the hand


def test_a_shuffle_forgets_a_card_put_into_the_library_from_a_public_zone():  # CR 701.24a
    g = new_game()
    g.add_cards(0, "library", ["Island", "Swamp", "Forest"])
    (giant,) = g.add_cards(0, "graveyard", ["Hill Giant"])
    g.move(giant, "library", position="top")
    g.shuffle(0)
    assert seen(g, 0, 0) == seen(g, 1, 0) == ([], [])


def test_a_card_returned_to_hand_from_the_battlefield_is_known_to_everyone():  # CR 400.2, 400.7
    g = new_game()
    g.add_cards(0, "library", ["Island"] * 3)
    add_hand(g, 0, ["Counterspell"])
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    back = g.move(bears, "hand")
    assert g.observation(1)["players"][0]["hand"] == [{"id": back, "name": "Grizzly Bears", "owner": 0}]
    assert row(g, 1, back)[:2] == [1, ZONE_CODES["hand"]]
    g.move(back, "library", position="top")  # from hand to library: still known (hidden to hidden)
    assert seen(g, 1, 0) == ([], [(0, "Grizzly Bears")])
    g.shuffle(0)
    assert seen(g, 1, 0) == ([], [])


def test_a_card_exiled_then_put_into_the_hand_is_known_to_everyone():  # CR 400.2
    g = new_game()
    (c,) = add_hand(g, 0, ["Hill Giant"])
    ex = g.move(c, "exile")
    assert [x["name"] for x in g.observation(1)["exile"]] == ["Hill Giant"]
    back = g.move(ex, "hand")
    assert seen(g, 1, 0) == (["Hill Giant"], []) and g.observation(1)["players"][0]["hand"][0]["id"] == back


def test_an_unrevealed_search_hides_which_card_was_found():  # CR 701.23a, 701.23e, 400.2
    g = new_game()
    g.add_cards(0, "library", ["Island", "Swamp", "Forest", "Plains"])
    (giant,) = g.add_cards(0, "graveyard", ["Hill Giant"])
    giant = g.move(giant, "library", position="top")
    g.search(0, "card")
    g.answer([giant])
    assert seen(g, 0, 0) == (["Hill Giant"], [])
    assert seen(g, 1, 0) == ([], [])  # a card was found, not shown


def test_an_unrevealed_card_put_on_top_by_a_search_is_hidden_from_the_opponent():  # CR 701.23a, 701.24b, 400.2
    g = new_game()
    g.add_cards(0, "library", ["Island", "Swamp", "Forest", "Plains"])
    (giant,) = g.add_cards(0, "graveyard", ["Hill Giant"])
    giant = g.move(giant, "library", position="bottom")
    assert seen(g, 1, 0)[1] == [(4, "Hill Giant")]
    g.search(0, "card", to="library_top")
    g.answer([giant])
    assert seen(g, 1, 0)[1] == []


def test_the_searcher_knows_the_card_they_put_on_top():  # CR 701.23a, 701.24b
    g = new_game()
    g.add_cards(0, "library", ["Island", "Swamp", "Forest", "Plains"])
    g.search(0, "name=Forest", to="library_top")
    if g.pending is not None:
        g.answer(g.pending.options)
    assert g.name(g.library(0)[0]) == "Forest" and seen(g, 1, 0)[1] == []
    assert seen(g, 0, 0)[1] == [(0, "Forest")]


def test_the_owner_still_knows_a_card_they_put_from_hand_into_their_library():  # CR 400.2
    g = new_game()
    g.add_cards(0, "library", ["Island"] * 3)
    (giant,) = add_hand(g, 0, ["Hill Giant"])
    g.move(giant, "library", position="top")
    assert seen(g, 1, 0)[1] == []
    assert seen(g, 0, 0)[1] == [(0, "Hill Giant")]


def test_a_drawn_card_put_back_into_the_library_stays_known_to_its_owner():  # CR 400.2
    # The same as above for a card that was drawn: this works.
    g = new_game()
    g.add_cards(0, "library", ["Island", "Island", "Hill Giant"][::-1])
    (giant,) = g.draw(0)
    g.move(giant, "library", position="bottom")
    assert seen(g, 0, 0)[1] == [(2, "Hill Giant")] and seen(g, 1, 0)[1] == []


def test_a_player_choosing_another_players_discard_sees_the_cards_offered():  # CR 701.9b, 400.2
    g = new_game()
    hand = add_hand(g, 1, ["Hill Giant", "Island", "Counterspell"])
    g.discard(1, 1, chooser=0)
    d = g.observation(0)["decision"]
    assert d["options"] == hand and d["legal_actions"] == ["discard Hill Giant", "discard Island", "discard Counterspell"]
    assert seen(g, 0, 1)[0] == ["Hill Giant", "Island", "Counterspell"]


def leng_discard(discard_the_known_card: bool, *, bolts: int = 1) -> mtgsim.Game:
    """Player 0 has Library of Leng, a Grizzly Bears everyone saw go back to their hand and
    unknown Lightning Bolts; they discard one card to the top of their library, unrevealed."""
    g = new_game()
    g.add_cards(0, "library", ["Island"] * 5)
    g.add_cards(1, "library", ["Forest"] * 5)
    g.add_cards(0, "battlefield", ["Library of Leng"])
    (first_bolt,) = g.add_cards(0, "hand", ["Lightning Bolt"])
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    known = g.move(bears, "hand")  # everyone saw it go back to the hand
    g.add_cards(0, "hand", ["Lightning Bolt"] * (bolts - 1))
    card = known if discard_the_known_card else first_bolt
    g.discard(0, 1)
    g.answer([card])
    assert g.pending.purpose == "discard_to_library"
    g.answer([card])  # Library of Leng: on top of the library instead, not revealed (CR 701.9c)
    return g


@pytest.mark.parametrize("bolts", [1, 2])
def test_a_card_discarded_unrevealed_to_the_library_leaves_the_others_guessing(bolts):  # CR 701.9c, 400.2
    """Whichever card went, player 1's view is the same: they lose track of the Bears they knew
    in the hand (any card could have gone) and don't know the library's top card."""
    a, b = leng_discard(True, bolts=bolts), leng_discard(False, bolts=bolts)
    va, vb = a.observation(1)["players"][0], b.observation(1)["players"][0]
    assert (va["hand"], va["library_known"]) == (vb["hand"], vb["library_known"]) == ([], [])
    space = a.action_space()
    assert np.array_equal(observation_arrays(a, 1, space)["objects"], observation_arrays(b, 1, space)["objects"])
    assert [c["card"]["name"] for c in a.observation(0)["players"][0]["library_known"]] == ["Grizzly Bears"]  # its owner knows


def test_the_counters_column_saturates_instead_of_wrapping():  # observation arrays are int32
    g = new_game()
    (bear,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    for _ in range(2148):
        g.add_counters(bear, "+1/+1", 10**6)  # the per-call maximum; the total passes 2**31
    assert g.object(bear).counters["+1/+1"] == 2_148_000_000
    assert row(g, 0, bear)[7] == 2**31 - 1  # it read -2146967296
