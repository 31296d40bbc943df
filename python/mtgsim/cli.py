"""The ``mtgsim`` command.

``mtgsim demo`` (and a bare ``mtgsim``) plays a seeded demo game and prints its event log: a
blue mill deck (Fractured Sanity, Maddening Cacophony, Glimpse the Unthinkable, Joint
Exploration, Lórien Revealed, Ruin Crab) against a 60-card creature deck, both played by the
built-in "goldfish" policy, until state-based actions end the game (CR 704.5b) or 40 turns pass.

``mtgsim simulate`` plays many games and prints a summary (see README). Every file it writes is
written whole or not at all; Ctrl-C stops it within about a second.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from mtgsim import Game, MtgsimError
from mtgsim._files import target, write_whole

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
        # A granted sticker kicker paid kicks it too (CR 702.33h).
        times = sum(event["kicks"]) + event.get("granted_kicks", 0)
        kicked = f" (kicked {times}x)" if times else ""
        return f"player {event['player']} casts {_name(game, event['spell'])}{kicked}"
    if kind == "resolved":
        return f"{_name(game, event['spell'])} resolves"
    return f"{kind} {json.dumps(fields)}"


def _name(game: Game, obj: int) -> str:
    return game.card_name(obj)  # works for ids of objects that have since moved on (CR 400.7)


def _load_deck(path: str) -> list[str]:
    """The cards of a deck list file; an error names the file."""
    from mtgsim.decklist import DeckList

    try:
        cards = DeckList.from_file(path).cards()
    except OSError as e:
        raise SystemExit(f"mtgsim simulate: deck {path}: {e.strerror or e}") from None
    except (MtgsimError, ValueError) as e:
        raise SystemExit(f"mtgsim simulate: deck {path}: {e}") from None
    if not cards:
        raise SystemExit(f"mtgsim simulate: deck {path} lists no cards")
    return cards


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _check_output(flag: str, path: str) -> None:
    """Before any game is played: ``path`` can be written (an existing, writable directory to
    put it in; not itself a directory). Else exit with what is wrong."""
    if not path:
        raise SystemExit(f"mtgsim simulate: {flag} needs a file name")
    try:
        path = target(path)  # through a link; never over a device or a pipe
    except OSError as e:
        raise SystemExit(f"mtgsim simulate: {flag} {e.strerror or e}") from None
    parent = os.path.dirname(path) or "."
    if not os.path.exists(parent):
        raise SystemExit(f"mtgsim simulate: {flag} {path}: the directory {parent} does not exist")
    if not os.path.isdir(parent):
        raise SystemExit(f"mtgsim simulate: {flag} {path}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise SystemExit(f"mtgsim simulate: {flag} {path}: the directory {parent} is not writable")


def _write_whole(flag: str, path: str, write: Callable[[IO[bytes]], object]) -> None:
    """Writes ``path`` whole or not at all; an OSError exits saying what failed."""
    try:
        write_whole(path, write)
    except OSError as e:
        raise SystemExit(f"mtgsim simulate: {flag} {path}: can't write it: {e.strerror or e}") from None


def run_simulate(args: argparse.Namespace) -> int:
    from mtgsim._core import MAX_TURNS
    from mtgsim.sim import EXAMPLE_DECKS, simulate

    if not 1 <= args.games < 2**64:
        raise SystemExit("mtgsim simulate: --games must be a whole number from 1 to 2**64 - 1")
    if not 0 <= args.seed < 2**64:
        raise SystemExit("mtgsim simulate: --seed must be an integer from 0 to 2**64 - 1")
    if args.workers is not None and not 1 <= args.workers <= 1024:
        raise SystemExit("mtgsim simulate: --workers must be from 1 to 1024")
    if args.json_columns and args.json is None:
        raise SystemExit("mtgsim simulate: --json-columns goes with --json (it chooses what the JSON holds)")
    if args.plot == "-":
        raise SystemExit("mtgsim simulate: --plot needs a file name ('-', standard output, is for --json only)")
    if not 1 <= args.max_turns <= MAX_TURNS:
        raise SystemExit(f"mtgsim simulate: --max-turns must be from 1 to {MAX_TURNS}")
    # The outputs are checked before the games are played, not found unwritable after them.
    if args.json is not None and args.json != "-":
        _check_output("--json", args.json)
    plot_format = None
    if args.plot is not None:
        _check_output("--plot", args.plot)
        plot_format = _plot_format(args.plot)
        # Compared where they lead: the files are written through links.
        if args.json not in (None, "-") and target(args.json) == target(args.plot):
            raise SystemExit(f"mtgsim simulate: --json and --plot are the same file, {args.plot}")
    show = sys.stderr.isatty() and args.games >= 20_000 and not args.quiet
    # A bad deck file or deck line: say which and what, no traceback.
    mine = _load_deck(args.deck) if args.deck else EXAMPLE_DECKS[0]
    theirs = _load_deck(args.opponent) if args.opponent else EXAMPLE_DECKS[1]
    try:
        result = simulate(
            [mine, theirs],
            args.games,
            seed=args.seed,
            workers=args.workers,
            max_turns=args.max_turns,
            stop=args.stop,
            record=args.record,
            progress=_progress if show else None,
            keep_games=bool(args.json and args.json_columns),  # otherwise memory stays flat
        )
    except (MtgsimError, ValueError, OSError) as e:
        raise SystemExit(f"mtgsim simulate: {e}") from None
    summary = result.summary()
    # The table first: a file that can't be written after all doesn't take the results with it.
    if args.json != "-":
        print(_table(summary))
    if args.json:
        text = json.dumps(result.to_dict() if args.json_columns else summary)
        if args.json == "-":
            print(text)
        else:
            _write_whole("--json", args.json, lambda f: f.write(text.encode("utf-8")))
    if args.plot:
        assert plot_format is not None
        _plot(result, args.plot, plot_format)
    return 0


def _table(summary: dict[str, Any]) -> str:
    lines = [f"{summary['games']} games in {summary['seconds']:.2f} s ({summary['games_per_second']:,.0f} games/s)"]
    et = summary["end_turn"]
    if et["mean"] is not None:
        qs = ", ".join(f"{int(float(k) * 100)}%: {v:g}" for k, v in et["quantiles"].items())
        lines.append(f"turn the game ended: mean {et['mean']:.2f} ({qs})")
    lines.append(f"draws or unfinished: {summary['draws_or_unfinished']}")
    for cond, n in summary.get("stopped", {}).items():
        lines.append(f"stopped at {cond}: {n}")
    for cond, rec in summary.get("recorded", {}).items():
        when = f", mean turn {rec['mean_turn']:.2f}" if rec["mean_turn"] is not None else ""
        lines.append(f"{cond}: held in {rec['held_in']} games ({rec['rate']:.1%}){when}")
    lines.append(f"{'player':<8}{'win rate':>10}{'95% CI':>18}{'milled':>9}{'spells':>9}{'kicks':>8}{'cycles':>8}  losses")
    for p in summary["players"]:
        lo, hi = p["win_rate_95ci"]
        losses = ", ".join(f"{k} {v}" for k, v in p["losses"].items()) or "-"
        lines.append(f"{p['player']:<8}{p['win_rate']:>10.3f}{f'[{lo:.3f}, {hi:.3f}]':>18}{p['milled']:>9.1f}{p['spells']:>9.1f}{p['kicks']:>8.2f}{p['cycles']:>8.2f}  {losses}")
    return "\n".join(lines)


def _plot_format(path: str) -> str:
    """The image format ``--plot`` writes (from the file's extension, else matplotlib's
    default), checked before any game is played: matplotlib is there and can write it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError as e:
        raise SystemExit("mtgsim simulate --plot needs matplotlib (the package's [plot] extra): pip install matplotlib") from e
    ext = os.path.splitext(path)[1][1:].lower()
    fmt = ext or str(matplotlib.rcParams["savefig.format"])
    known = FigureCanvasBase.get_supported_filetypes()
    if fmt not in known:
        raise SystemExit(f"mtgsim simulate: --plot {path}: can't write .{fmt} images; use one of .{', .'.join(sorted(known))}")
    return fmt


def _plot(result: Any, path: str, fmt: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    tally = result.tally  # games won by turn: there whether or not the rows were kept
    for p in range(result.players):
        wins = tally.win_turns[p]
        if wins.sum():
            ax.bar(range(wins.size), wins, width=1.0, alpha=0.6, label=f"player {p} wins")
    ax.set_xlabel("turn the game ended")
    ax.set_ylabel("games")
    if ax.get_legend_handles_labels()[0]:  # no bars when no game was won
        ax.legend()
    fig.tight_layout()
    try:
        _write_whole("--plot", path, lambda f: fig.savefig(f, format=fmt))
    finally:
        plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mtgsim", description="A fast, rules-exact Magic: The Gathering engine.")
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="play a seeded demo game and print its event log")
    demo.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    demo.add_argument("--json", action="store_true", help="print events as JSON lines")
    sim = sub.add_parser("simulate", help="play many games and summarise them (the built-in example without decks)")
    sim.add_argument("deck", nargs="?", help="your deck list file (default: the built-in Fractured Sanity mill deck)")
    sim.add_argument("--opponent", help="the opponent's deck list file (default: a 60-card creature deck)")
    sim.add_argument("--games", type=int, default=10_000, help="how many games (default 10000)")
    sim.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    sim.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    sim.add_argument("--max-turns", type=int, default=50, help="play at most this many turns: a game still going stops as the next turn begins (default 50)")
    sim.add_argument("--stop", action="append", default=[], metavar="COND", help="end a game when this holds, e.g. library_empty:1 (repeatable; see mtgsim.CONDITIONS)")
    sim.add_argument("--record", action="append", default=[], metavar="COND", help="report the turn this first held, e.g. turn:5 (repeatable)")
    sim.add_argument("--json", help="write the results as JSON to this file ('-': standard output)")
    sim.add_argument("--json-columns", action="store_true", help="with --json: every game's row, not just the summary")
    sim.add_argument("--plot", help="write a PNG chart of when the games ended (needs matplotlib)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo"])  # bare `mtgsim`: the demo
    try:
        return run_simulate(args) if args.command == "simulate" else run_demo_command(args)
    except KeyboardInterrupt:
        # Every file is written whole or not at all, so an interrupt leaves none half-written.
        sys.stderr.write("\ninterrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (`mtgsim demo | head`): stop quietly, and keep Python from
        # complaining again as it flushes standard output on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def run_demo_command(args: argparse.Namespace) -> int:
    from mtgsim.replay import events_jsonl

    if not 0 <= args.seed < 2**64:
        raise SystemExit("mtgsim demo: --seed must be an integer from 0 to 2**64 - 1")
    game = run_demo(args.seed)
    if args.json:
        sys.stdout.write(events_jsonl(game))  # as write_events writes them (docs/events.md)
        return 0
    for event in game.events:
        if event["kind"] == "step_began" and event["step"] == "upkeep":
            print(f"-- turn {event['turn']} (player {event['active']}) --")
        elif event["kind"] not in QUIET:
            print(describe(game, event))
    outcome = game.outcome
    if outcome is None:
        print("the demo ended without a winner")
    else:
        losers = ", ".join(f"player {x['player']} ({x['reason']})" for x in outcome["losers"])
        print(f"game over: winners {outcome['winners']}; lost: {losers}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
