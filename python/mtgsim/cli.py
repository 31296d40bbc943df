"""The ``mtgsim`` command.

``mtgsim demo`` plays a seeded demo game and prints its event log: a blue mill deck (Fractured
Sanity, Maddening Cacophony, Glimpse the Unthinkable, Joint Exploration) against a 60-card
creature deck, both played by the built-in "goldfish" policy, until state-based actions end the
game (CR 704.5b) or 40 turns pass.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from mtgsim import Game

#: The demo's decks: a blue mill deck and a plain 60-card opponent.
MILL_DECK: list[str] = (
    ["Fractured Sanity"] * 4
    + ["Lórien Revealed"] * 4
    + ["Joint Exploration"] * 4
    + ["Glimpse the Unthinkable"] * 4
    + ["Maddening Cacophony"] * 4
    + ["Ruin Crab"] * 4
    + ["Island"] * 20
    + ["Swamp"] * 8
    + ["Forest"] * 8
)
OPPONENT_DECK: list[str] = ["Grizzly Bears"] * 16 + ["Hill Giant"] * 12 + ["Forest"] * 16 + ["Mountain"] * 16


def run_demo(seed: int) -> Game:
    """Two built-in "goldfish" players play the demo decks to the end (or 40 turns): each plays
    a land when it can and casts what it can pay for; every rule is the engine's."""
    game = Game.from_decks([MILL_DECK, OPPONENT_DECK], seed=seed)
    for player in (0, 1):
        game.set_policy(player, "goldfish")
    game.play(until=41)
    return game


#: Events too routine to print in the demo's log.
QUIET = {"passed_priority", "mana_added", "step_began", "shuffled"}


def describe(game: Game, event: dict[str, Any]) -> str:
    """One event as a line of text."""
    kind = event["kind"]
    fields = {k: v for k, v in event.items() if k != "kind"}

    def named(ids: Sequence[int]) -> str:
        return ", ".join(_name(game, i) for i in ids)

    if kind == "drew":
        return f"player {event['player']} draws {_name(game, event['card'])}"
    if kind == "milled":
        return f"player {event['player']} mills {len(event['cards'])}: {named(event['cards'])}"
    if kind == "discarded":
        return f"player {event['player']} discards {_name(game, event['card'])}"
    if kind == "searched":
        return f"player {event['player']} searches and finds {named(event['found']) or 'nothing'}"
    if kind == "revealed":
        return f"player {event['player']} reveals {named(event['cards'])}"
    if kind == "scried":
        return f"player {event['player']} scries {event['amount']}: {event['to_bottom']} of {event['looked']} to the bottom"
    if kind == "moved":
        return f"{_name(game, event['card'])} moves from {event['from']['kind']} to {event['to']['kind']}"
    if kind == "land_played":
        return f"player {event['player']} plays {_name(game, event['card'])}"
    if kind == "spell_cast":
        kicked = f" (kicked {sum(event['kicks'])}x)" if sum(event["kicks"]) else ""
        return f"player {event['player']} casts {_name(game, event['spell'])}{kicked}"
    if kind == "resolved":
        return f"{_name(game, event['spell'])} resolves"
    return f"{kind} {json.dumps(fields)}"


def _name(game: Game, obj: int) -> str:
    return game.card_name(obj)  # works for ids of objects that have since moved on (CR 400.7)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mtgsim", description="A fast, rules-exact Magic: The Gathering engine.")
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="play a seeded demo game and print its event log")
    demo.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    demo.add_argument("--json", action="store_true", help="print events as JSON lines")
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo", *(argv or [])])
    if args.seed < 0:
        parser.error("--seed must be a non-negative integer")
    game = run_demo(args.seed)
    for event in game.events:
        if args.json:
            print(json.dumps(event))
        elif event["kind"] == "step_began" and event["step"] == "upkeep":
            print(f"-- turn {event['turn']} (player {event['active']}) --")
        elif event["kind"] not in QUIET:
            print(describe(game, event))
    outcome = game.outcome
    if not args.json:
        if outcome is None:
            print("the demo ended without a winner")
        else:
            losers = ", ".join(f"player {x['player']} ({x['reason']})" for x in outcome["losers"])
            print(f"game over: winners {outcome['winners']}; lost: {losers}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
