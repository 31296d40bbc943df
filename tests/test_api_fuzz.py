"""Random calls of the Game API, most of them with bad arguments (GUIDE §5, CR 733).

Seeded random games (2 or 3 players, random deck lists from the whole pool, random built-in or
manual policies) get a few hundred random calls each: ids of real objects and stale ones,
out-of-range and 64-bit-overflowing numbers, unknown zones, steps and card names, wrong answers
to decisions, bad scripts, strict mode switched on and off. After every call:

* a call that raises an mtgsim error (or a TypeError/OverflowError for an argument of the wrong
  type) has left the complete saved state exactly as it was: zones, ids, life, the stack, the
  pending decision, scripts, the generators (CR 733);
* anything else raised (a Rust panic is a ``BaseException``) fails the test;
* a call that succeeds leaves ``check_invariants()`` passing, and the game survives a pickle
  round trip unchanged.

This is how the actions that failed part-way (a bad scripted answer asked after a pass, a draw, a
move) and the random player's generator drawn by a rejected cast were found.
"""

from __future__ import annotations

import pickle
import random
from typing import Any, Callable

import pytest

import mtgsim
from conftest import full_state

POOL = sorted(mtgsim.card_names())
ZONES = ["library", "hand", "graveyard", "battlefield", "stack", "exile", "command", "outside", "deck"]
STEPS = ["upkeep", "draw", "precombat_main", "begin_combat", "end_combat", "postcombat_main", "end", "cleanup", "untap", "main1"]
HUGE = [2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63), -(2**70), 10**30]


class Caller:
    """Draws random calls for one game from one generator."""

    def __init__(self, r: random.Random, g: mtgsim.Game) -> None:
        self.r, self.g = r, g

    def ids(self) -> list[int]:
        g, out = self.g, []
        for p in range(g.num_players):
            for z in ("library", "hand", "graveyard", "outside"):
                out += g.zone(z, p)
        for z in ("battlefield", "stack", "exile", "command"):
            out += g.zone(z)
        return out

    def obj(self) -> int:
        r = self.r
        c = r.random()
        ids = self.ids()
        if c < 0.5 and ids:
            return r.choice(ids)
        if c < 0.6 and ids:
            return r.choice(ids) - 2**32 if r.random() < 0.5 else r.choice(ids) + 1  # stale or unborn
        return r.choice([0, 1, 5, -1, 300, *HUGE])

    def player(self) -> int:
        return self.r.choice([0, 1, 1, self.r.randint(-1, 4), *HUGE[:2]])

    def count(self) -> int:
        return self.r.choice([0, 1, 2, 3, 14, 70, -1, 2**40, 2**64])

    def text(self, good: list[str]) -> str:
        r = self.r
        return r.choice(good) if r.random() < 0.7 else r.choice(POOL + ["", " ", "ISLAND", "Black Lotus", "{1}{", "\x00"])

    def call(self) -> tuple[str, Callable[[], Any]] | None:
        r, g, O, P, N = self.r, self.g, self.obj, self.player, self.count
        kind = r.choice(
            ["draw", "mill", "mill_each", "mill_opponents", "pay_mill_cost", "scry", "scry_each", "discard", "search",
             "shuffle", "cast", "cast", "activate", "activate", "cycle", "activate_mana", "play_land", "move",
             "copy_spell", "cost_of", "pass_priority", "resolve_top", "advance_to", "next_turn", "play", "play",
             "answer", "take", "take", "script", "strict", "policy", "counters", "set_life", "set_tapped", "reveal",
             "run_batch", "perft", "read"]
        )
        calls: dict[str, Callable[[], Any]] = {
            "draw": lambda: g.draw(P(), N()),
            "mill": lambda: g.mill(P(), N()),
            "mill_each": lambda: g.mill_each([P() for _ in range(r.randint(0, 3))], N()),
            "mill_opponents": lambda: g.mill_opponents(P(), N()),
            "pay_mill_cost": lambda: g.pay_mill_cost(P(), N()),
            "scry": lambda: g.scry(P(), N()),
            "scry_each": lambda: g.scry_each([P() for _ in range(r.randint(0, 3))], N()),
            "discard": lambda: g.discard(P(), N(), random=r.random() < 0.5),
            "search": lambda: g.search(P(), r.choice(["card", "Island", "basic land", "creature card", "nonsense", ""]), count=N(), to=self.text(ZONES), optional=r.random() < 0.5),
            "shuffle": lambda: g.shuffle(P()),
            "cast": lambda: g.cast(O(), kick=r.choice([None, True, 0, 1, 3, -1, 2**40, [1], [-1]]), x=r.choice([0, 1, -1, 2**40]), targets=r.choice([None, [[O()]], [[]], [[O(), O()], [O()]]])),
            "activate": lambda: g.activate(O(), r.choice([0, 1, -1, 2**40]), x=r.choice([None, 0, 2, -1]), sacrifice=r.choice([None, O()]), discard=r.choice([None, O()])),
            "cycle": lambda: g.cycle(O()),
            "activate_mana": lambda: g.activate_mana(O(), r.choice([None, "U", "B", "G", "X", "", "UU"])),
            "play_land": lambda: g.play_land(O()),
            "move": lambda: g.move(O(), self.text(ZONES), position=r.choice(["top", "bottom", "middle"]), tapped=r.random() < 0.2),
            "copy_spell": lambda: g.copy_spell(O(), r.choice([None, P()])),
            "cost_of": lambda: g.cost_of(O(), kick=r.choice([None, 1, 3, -1, 2**40]), x=r.choice([0, 1, -1])),
            "pass_priority": lambda: g.pass_priority(),
            "resolve_top": lambda: g.resolve_top(),
            "advance_to": lambda: g.advance_to(self.text(STEPS)),
            "next_turn": lambda: g.next_turn(),
            "play": lambda: g.play(until=r.choice(["end_of_turn", "game_over", r.randint(0, 9), -1, "end", "cleanup", "nonsense"]), max_actions=r.choice([1, 1, 5, 50, 0, -1, 2**64])),
            "answer": lambda: g.answer(r.choice([None, 0, -1, 5, True, "x", [], [O()], [O(), O()], ([O()], []), 2**64])),
            "take": lambda: g.take(r.choice(g.legal_actions()) if g.pending is not None and r.random() < 0.9 else r.choice([0, -1, 2**40, "x"])),
            "script": lambda: g.script(P(), [r.choice([0, 1, True, [O()], -1, ([], [])]) for _ in range(r.randint(0, 3))]),
            "counters": lambda: r.choice([g.add_counters, g.remove_counters])(O(), self.text(["+1/+1", "-1/-1", "loyalty", "charge"]), N()),
            "set_life": lambda: g.set_life(P(), r.choice([20, 1, -5, 2**31, -(2**31) - 1, 2**40])),
            "set_tapped": lambda: g.set_tapped(O(), r.random() < 0.5),
            "reveal": lambda: g.reveal(P(), [O() for _ in range(r.randint(0, 3))]),
            "run_batch": lambda: g.run_batch([mtgsim.Op.resolve_top()] if r.random() < 0.5 else [mtgsim.Op.play_turn()], r.choice([1, 2, 0, -1])),
            "perft": lambda: g.perft(r.choice([0, 1, -1, 2**40])),
            "policy": lambda: g.set_policy(P(), self.text(["goldfish", "random", "first", "manual"])),
            "read": lambda: (g.object(O()), g.power_toughness(O()), g.cast_info(O())),
        }
        if kind == "strict":
            g.strict = r.random() < 0.3
            return None
        return kind, calls[kind]


def new_game(r: random.Random) -> mtgsim.Game:
    n = r.choice([2, 2, 3])
    basics = ["Island", "Swamp", "Forest", "Mountain", "Plains"]
    decks = [[r.choice(POOL) for _ in range(r.randint(5, 20))] + [r.choice(basics)] * r.randint(8, 25) for _ in range(n)]
    g = mtgsim.Game.from_decks(decks, seed=r.randrange(2**32))
    for p in range(n):
        g.set_policy(p, r.choice(["goldfish", "random", "first", "manual"]))
    return g


@pytest.mark.parametrize("seed", range(24))
def test_random_bad_calls_raise_documented_errors_and_change_nothing(seed: int) -> None:  # CR 733
    r = random.Random(seed)
    g = new_game(r)
    for step in range(400):
        if g.is_over or r.random() < 0.02:
            g = new_game(r)
        c = Caller(r, g).call()
        if c is None:
            continue
        kind, call = c
        before = full_state(g)
        try:
            call()
        except (mtgsim.MtgsimError, TypeError, OverflowError) as e:
            assert full_state(g) == before, f"step {step}: {kind} raised {e!r} and changed the game"
            continue
        g.check_invariants()
        assert full_state(pickle.loads(pickle.dumps(g))) == full_state(g), f"step {step}: {kind}"
