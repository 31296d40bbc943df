"""The ``mtgsim`` command.

``mtgsim demo`` replays a seeded demo game of the engine's library actions and prints its
event log: a Fractured Sanity player mills a 60-card opponent out while scrying and
typecycling, until state-based actions end the game (CR 704.5b).
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
    """Plays the scripted demo with the game's built-in random policy answering decisions."""
    game = Game.from_decks([MILL_DECK, OPPONENT_DECK], seed=seed)
    turn = 0
    while not game.is_over and turn < 50:
        turn += 1
        me = 0
        game.draw(me)  # CR 121
        game.scry(me, 2)  # CR 701.22 (Joint Exploration's scry 2)
        hand_names = [game.name(c) for c in game.hand(me)]
        if "Lórien Revealed" in hand_names and "Island" not in hand_names:
            # Islandcycling: discard it, search for an Island, reveal it, shuffle (CR 702.29, 701.23)
            card = game.hand(me)[hand_names.index("Lórien Revealed")]
            game.move(card, "graveyard")
            game.search(me, "Island", reveal=True)
        if "Fractured Sanity" in hand_names:
            card = game.hand(me)[hand_names.index("Fractured Sanity")]
            game.move(card, "graveyard")
            game.mill_opponents(me, 14)  # CR 701.17: each opponent mills fourteen
        if game.is_over:
            break
        game.draw(1)
        if len(game.hand(1)) > 7:
            game.discard(1, len(game.hand(1)) - 7)
    return game


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
    return f"{kind} {json.dumps(fields)}"


def _name(game: Game, obj: int) -> str:
    return game.card_name(obj)  # works for ids of objects that have since moved on (CR 400.7)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mtgsim", description="A fast, rules-exact Magic: The Gathering engine.")
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="replay a seeded demo game and print its event log")
    demo.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    demo.add_argument("--json", action="store_true", help="print events as JSON lines")
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo", *(argv or [])])
    if args.seed < 0:
        parser.error("--seed must be a non-negative integer")
    game = run_demo(args.seed)
    for event in game.events:
        print(json.dumps(event) if args.json else describe(game, event))
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
