"""High-volume simulation: many whole games from deck lists, played inside Rust by built-in
policies, in parallel, with the interpreter released.

>>> import mtgsim
>>> r = mtgsim.simulate(mtgsim.sim.EXAMPLE_DECKS, games=40, seed=1)
>>> r.games, r.players
(40, 2)
>>> bool(r.finished.all())
True

Game ``i`` is played from the seed ``derive_seed(seed, i)``, alone, so the results are the same
whatever the number of workers or how the range is split (``start=`` plays a later slice of the
same run).
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from mtgsim._core import LOOP_ACTIONS, MAX_TURNS, CardDB, Decision, Game, _simulate, _simulate_from, derive_seed
from mtgsim.decklist import DeckList
from mtgsim.errors import InvalidArgumentError
from mtgsim.tally import LOSS_REASONS, Tally

#: A deck: card names, or a parsed deck list.
Deck = Union[Sequence[str], DeckList]

#: A player's policy: a built-in one by name ("goldfish", "random", "first"), or — the slow
#: path — a Python callable ``(game, decision) -> answer`` like ``Game.set_policy`` takes.
Policy = Union[str, Callable[[Game, Decision], Any]]

#: The conditions a simulation can stop at or record (``stop=`` / ``record=``), P a player
#: index and N a number: the same text ``Game.holds`` takes.
CONDITIONS = (
    "library_empty:P",
    "hand_empty:P",
    "life_at_most:P:N",
    "graveyard_at_least:P:N",
    "permanents_at_least:P:N",
    "lost:P",
    "turn:N",
)

#: The built-in example: a Fractured Sanity mill deck against a 60-card creature deck.
EXAMPLE_DECKS: tuple[list[str], list[str]] = (
    ["Island"] * 20
    + ["Swamp"] * 4
    + ["Fractured Sanity"] * 4
    + ["Glimpse the Unthinkable"] * 4
    + ["Maddening Cacophony"] * 4
    + ["Lórien Revealed"] * 4
    + ["Joint Exploration"] * 4
    + ["Monstrous War-Leech"] * 4
    + ["Ruin Crab"] * 4
    + ["Bruvac the Grandiloquent"] * 2
    + ["Jace, Wielder of Mysteries"] * 2
    + ["Street Wraith"] * 4,
    ["Forest"] * 12
    + ["Plains"] * 12
    + ["Grizzly Bears"] * 8
    + ["Savannah Lions"] * 8
    + ["Joraga Warcaller"] * 8
    + ["Hill Giant"] * 4
    + ["Walking Corpse"] * 4
    + ["Ornithopter"] * 4,
)

_COLUMNS = ("winner", "finished", "turns", "loss", "life", "library", "graveyard", "milled", "spells", "kicks", "cycles", "lands", "stopped", "recorded")
_PER_GAME = ("winner", "finished", "turns", "stopped")


@dataclass(frozen=True, eq=False)
class SimResult:
    """One entry per game (per-player columns are ``games x players``): numpy arrays.

    Two results are equal when they hold the same games with the same results: the run's
    parameters, every column (type, shape and values) and the tally, but not ``seconds``."""

    players: int
    seed: int
    start: int
    winner: npt.NDArray[np.int8]
    """The one winner, or -1: a draw, several winners, or a game that didn't finish (stopped by a condition or the turn limit)."""
    finished: npt.NDArray[np.bool_]
    """Whether the game ended (else a stop condition or the turn limit stopped it first)."""
    turns: npt.NDArray[np.uint32]
    """The turn in progress when the game ended (or stopped)."""
    loss: npt.NDArray[np.uint8]
    """Why each player lost (see ``LOSS_REASONS``), 0 if they didn't."""
    life: npt.NDArray[np.int32]
    library: npt.NDArray[np.uint32]
    graveyard: npt.NDArray[np.uint32]
    milled: npt.NDArray[np.uint32]
    """Cards each player milled from their own library."""
    spells: npt.NDArray[np.uint32]
    kicks: npt.NDArray[np.uint32]
    cycles: npt.NDArray[np.uint32]
    lands: npt.NDArray[np.uint32]
    stopped: npt.NDArray[np.int8]
    """Which ``stop`` condition ended the game (its index), or -1."""
    recorded: npt.NDArray[np.uint32]
    """``games x len(record)``: the turn each recorded condition first held, 0 if it never did."""
    stop: tuple[str, ...] = ()
    record: tuple[str, ...] = ()
    seconds: float = 0.0

    tally: Tally | None = None
    """The running summary of the games (counts, sums, histograms); made from the columns if
    not given."""
    kept: bool = True
    """Whether the per-game columns were kept. A run with ``keep_games=False`` keeps only the
    tally, so its memory doesn't grow with the number of games; its columns are empty."""

    def __post_init__(self) -> None:
        if self.tally is None:
            t = Tally(self.players, self.stop, self.record)
            t.add({name: getattr(self, name) for name in _COLUMNS})
            object.__setattr__(self, "tally", t)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimResult):
            return NotImplemented
        if (self.players, self.seed, self.start, self.stop, self.record, self.kept) != (other.players, other.seed, other.start, other.stop, other.record, other.kept):
            return False
        for name in _COLUMNS:
            a, b = getattr(self, name), getattr(other, name)
            if a.dtype != b.dtype or not np.array_equal(a, b):
                return False
        return self._tally == other._tally

    @property
    def _tally(self) -> Tally:
        assert self.tally is not None  # set in __post_init__
        return self.tally

    @property
    def games(self) -> int:
        return self._tally.games

    def win_rate(self, player: int) -> tuple[float, float, float]:
        """The player's win rate with a 95% Wilson confidence interval: (rate, low, high)."""
        return self._tally.win_rate(player)

    def summary(self) -> dict[str, Any]:
        """Means, quantiles (of the turn the game ended and of the turn each recorded
        condition first held), win rates with confidence intervals, losses by reason."""
        return self._tally.summary(self.seconds)

    def to_dict(self) -> dict[str, Any]:
        """Every column as lists (if kept), plus the summary: JSON-ready."""
        d: dict[str, Any] = {"players": self.players, "seed": self.seed, "start": self.start, "stop": list(self.stop), "record": list(self.record), "summary": self.summary()}
        if self.kept:
            for name in _COLUMNS:
                d[name] = getattr(self, name).tolist()
        return d

    def concat(self, other: SimResult) -> SimResult:
        """This run's games followed by ``other``'s (the next slice of the same run). The
        columns are kept only if both kept theirs."""
        if (other.players, other.seed, other.start, other.stop, other.record) != (self.players, self.seed, self.start + self.games, self.stop, self.record):
            raise InvalidArgumentError("only the next slice of the same run (same seed and conditions, starting where this one ends) can follow")
        kept = self.kept and other.kept
        cols = {name: np.concatenate([getattr(self, name), getattr(other, name)]) if kept else getattr(self, name)[:0].copy() for name in _COLUMNS}  # a view would keep the rows
        tally = self._tally.merge(other._tally)
        return SimResult(self.players, self.seed, self.start, stop=self.stop, record=self.record, seconds=self.seconds + other.seconds, tally=tally, kept=kept, **cols)


def _whole(value: object, what: str, lo: int, hi: int | None = None) -> int:
    """An integer argument (a numpy integer too, not a bool) from ``lo`` to ``hi``, as a plain
    ``int``; else an ``InvalidArgumentError`` (a ``ValueError``) saying what was wrong."""
    try:
        v = operator.index(value)  # type: ignore[arg-type]  # anything else raises TypeError
    except TypeError:
        v = None
    if isinstance(value, bool) or v is None or v < lo or (hi is not None and v > hi):
        kind = f"an integer from {lo} to {hi}" if hi is not None else {0: "a non-negative integer", 1: "a positive integer"}.get(lo, f"an integer of at least {lo}")
        raise InvalidArgumentError(f"{what} must be {kind}, not {value!r}")
    return int(v)


def _conditions(conds: Sequence[str], what: str) -> tuple[str, ...]:
    if isinstance(conds, str):
        raise InvalidArgumentError(f"{what} is a list of conditions: [{conds!r}], not the string {conds!r}")
    if len(conds) > 100:  # the Rust path's limit, checked here for the Python path too
        raise InvalidArgumentError(f"at most 100 stop and 100 recorded conditions, not {len(conds)} {what} conditions")
    return tuple(conds)


def _game_range(games: object, start: object) -> tuple[int, int]:
    """``(games, start)`` checked and made plain ints: at least one game, and the whole range
    ``start .. start+games`` within the game indices 0 to 2**64 - 2 (the range's end is a u64)."""
    n, a = _whole(games, "the number of games", 1), _whole(start, "start", 0, 2**64 - 2)
    if a + n > 2**64 - 1:
        raise InvalidArgumentError(f"start + games must be at most 2**64 - 1 (games are numbered 0 to 2**64 - 2), not {a} + {n} = 2**64 - 1 + {a + n - 2**64 + 1}")
    return n, a


def _deck_lists(decks: Sequence[Deck]) -> list[list[str]]:
    """The decks as lists of card names. A string where a deck (or the list of decks) should be
    is an error, not a list of one-letter card names (a ``str`` is a ``Sequence[str]`` too)."""

    def kind(x: object) -> str:
        return "a string" if isinstance(x, str) else f"a {type(x).__name__} object"

    if isinstance(decks, (str, bytes, bytearray)):
        raise InvalidArgumentError(f"decks is {kind(decks)} ({decks[:40]!r}); give a list of decks, each a list of card names (or a DeckList)")
    out = []
    for i, d in enumerate(decks):
        if isinstance(d, (str, bytes, bytearray)):
            raise InvalidArgumentError(f"deck {i} is {kind(d)} ({d[:40]!r}); a deck is a list of card names (or a DeckList)")
        out.append(list(d.cards()) if isinstance(d, DeckList) else list(d))
    return out


def _check_common(games: int, start: int, workers: int | None, seed: int, max_turns: int, chunk: int | None) -> tuple[int, int, int, int, int, int | None]:
    """The run's numbers, checked and made plain ints: (games, start, threads, seed, max_turns, chunk)."""
    games, start = _game_range(games, start)
    return (
        games,
        start,
        0 if workers is None else _whole(workers, "workers (0 or None: one per core)", 0),
        _whole(seed, "seed", 0, 2**64 - 1),
        _whole(max_turns, "the turn limit", 1, MAX_TURNS),
        None if chunk is None else _whole(chunk, "chunk", 1),
    )


def _policies(policies: Policy | Sequence[Policy], n: int) -> list[Policy]:
    pols: list[Policy] = [policies] * n if isinstance(policies, str) or callable(policies) else list(policies)
    if len(pols) != n:
        raise InvalidArgumentError(f"{n} players but {len(pols)} policies: give one policy per player (or one for all)")
    return pols


def _run_chunks(
    play: Callable[[int, int], tuple[int, list[tuple[str, bytes, str]]]],
    games: int,
    start: int,
    chunk: int | None,
    progress: Callable[[int, int], None] | None,
    keep: bool,
    stop: tuple[str, ...],
    record: tuple[str, ...],
) -> tuple[int, dict[str, Any], Tally, float]:
    """Plays ``games`` games from ``start`` in chunks (progress and Ctrl-C between them). Each
    chunk is counted into the tally; its columns are kept only with ``keep``."""
    # Chunks of at most 10,000 games (well under a second on two cores): Python sees Ctrl-C
    # only between them, while the engine plays without the interpreter.
    size = chunk or max(1024, min(10_000, games // 20))
    parts: list[dict[str, Any]] = []
    tally: Tally | None = None
    players = 0
    t0 = time.perf_counter()
    done = 0
    while done < games:
        k = min(size, games - done)
        players, raw = play(start + done, start + done + k)
        cols = _shaped({name: np.frombuffer(data, dtype=dtype) for name, data, dtype in raw}, k, players)
        tally = tally or Tally(players, stop, record)
        tally.add(cols)
        if keep:
            parts.append(cols)
        elif not parts:  # only the columns' types and shapes (a copy: a view would keep the chunk)
            parts.append({name: col[:0].copy() for name, col in cols.items()})
        done += k
        if progress is not None:
            progress(done, games)
    seconds = time.perf_counter() - t0
    assert tally is not None  # games > 0
    merged = {name: np.concatenate([p[name] for p in parts]) if keep else parts[0][name] for name in _COLUMNS}
    return players, merged, tally, seconds


def _shaped(cols: dict[str, Any], games: int, players: int) -> dict[str, Any]:
    """One chunk's flat columns in their shapes: per game, per game and player, per game and
    recorded condition."""
    out = {}
    for name, col in cols.items():
        if name == "recorded":
            out[name] = col.reshape(games, -1) if games else col.reshape(0, 0)
        elif name in _PER_GAME:
            out[name] = col
        else:
            out[name] = col.reshape(games, players)
    return out


def simulate(
    decks: Sequence[Deck] = EXAMPLE_DECKS,
    games: int = 1000,
    *,
    seed: int = 0,
    policies: Policy | Sequence[Policy] = "goldfish",
    max_turns: int = 50,
    stop: Sequence[str] = (),
    record: Sequence[str] = (),
    workers: int | None = None,
    db: CardDB | None = None,
    start: int = 0,
    starting_life: int = 20,
    hand_size: int = 7,
    progress: Callable[[int, int], None] | None = None,
    chunk: int | None = None,
    keep_games: bool = True,
) -> SimResult:
    """Plays games ``start .. start+games`` of the run ``seed``: each a whole game from the
    decks (card names or ``DeckList``s), every decision made by the players' ``policies`` (one
    for all or one per player), up to ``max_turns`` turns (a game still going then stops as turn
    ``max_turns + 1`` begins, and its ``turns`` says so). A game also stops, unfinished, as
    soon as one of the ``stop`` conditions holds (e.g. ``"library_empty:1"``: the opponent is
    milled out); for each ``record`` condition the result gives the turn it first held (see
    ``CONDITIONS``; both are checked before every action). A step that doesn't end after
    ``LOOP_ACTIONS`` actions is a loop of mandatory actions (CR 104.4b): the game stops there,
    unfinished.

    Built-in policies ("goldfish", "random", "first") play inside Rust: ``workers`` threads
    (all cores by default) share the games, with the interpreter released. A Python callable
    as a policy (``(game, decision) -> answer``) is the slow path: the games are played one
    by one from Python, from the same seeds. ``progress(done, total)`` is called between
    chunks; a KeyboardInterrupt stops at the next chunk and nothing is returned.

    With ``keep_games=False`` only the summary's counts and histograms are kept (see
    :mod:`mtgsim.tally`), chunk by chunk: memory stays flat however many games are played,
    and ``summary()`` reports exactly what the kept columns would."""
    games, start, threads, seed, max_turns, chunk = _check_common(games, start, workers, seed, max_turns, chunk)
    deck_lists = _deck_lists(decks)
    n = len(deck_lists)
    pols = _policies(policies, n)
    stop, record = _conditions(stop, "stop"), _conditions(record, "record")
    if all(isinstance(p, str) for p in pols):
        names = [str(p) for p in pols]

        def play(a: int, b: int) -> tuple[int, list[tuple[str, bytes, str]]]:
            return _simulate(deck_lists, seed, names, max_turns, a, b, threads, starting_life, hand_size, db, list(stop), list(record))

    else:

        def play(a: int, b: int) -> tuple[int, list[tuple[str, bytes, str]]]:
            return _play_in_python(deck_lists, seed, pols, max_turns, a, b, starting_life, hand_size, db, stop, record)

    players, cols, tally, seconds = _run_chunks(play, games, start, chunk, progress, keep_games, stop, record)
    return SimResult(players, seed, start, stop=stop, record=record, seconds=seconds, tally=tally, kept=keep_games, **cols)


def simulate_from(
    game: Game,
    games: int = 1000,
    *,
    seed: int = 0,
    policies: str | Sequence[str] = "goldfish",
    max_turns: int = 50,
    stop: Sequence[str] = (),
    record: Sequence[str] = (),
    shuffle_libraries: bool = True,
    workers: int | None = None,
    start: int = 0,
    progress: Callable[[int, int], None] | None = None,
    chunk: int | None = None,
    keep_games: bool = True,
) -> SimResult:
    """Monte Carlo from a position: plays ``games`` continuations of ``game`` (not changed)
    inside Rust, like :func:`simulate`. Continuation ``i`` starts from the position with the
    game's and the players' generators reseeded from ``derive_seed(seed, i)`` and, with
    ``shuffle_libraries`` (the default), every library shuffled — the order no player knows.
    ``max_turns`` is the game's turn number to stop at, as in ``simulate``. The position must
    have nobody's decision pending. ``keep_games=False`` keeps only the summary, as in
    :func:`simulate`."""
    games, start, threads, seed, max_turns, chunk = _check_common(games, start, workers, seed, max_turns, chunk)
    pols = _policies(policies, game.num_players)
    if not all(isinstance(p, str) for p in pols):
        raise InvalidArgumentError("simulate_from plays inside Rust: give built-in policy names (goldfish, random, first)")
    names = [str(p) for p in pols]
    stop, record = _conditions(stop, "stop"), _conditions(record, "record")

    def play(a: int, b: int) -> tuple[int, list[tuple[str, bytes, str]]]:
        return _simulate_from(game, seed, names, max_turns, a, b, threads, shuffle_libraries, list(stop), list(record))

    players, cols, tally, seconds = _run_chunks(play, games, start, chunk, progress, keep_games, stop, record)
    return SimResult(players, seed, start, stop=stop, record=record, seconds=seconds, tally=tally, kept=keep_games, **cols)


_LOSS_CODES = {name: code for code, name in LOSS_REASONS.items() if code}


def _play_in_python(
    decks: list[list[str]],
    seed: int,
    policies: list[Policy],
    max_turns: int,
    a: int,
    b: int,
    starting_life: int,
    hand_size: int,
    db: CardDB | None,
    stop: tuple[str, ...],
    record: tuple[str, ...],
) -> tuple[int, list[tuple[str, bytes, str]]]:
    """The slow path: games ``a..b`` played one action at a time from Python, so Python
    callables can answer; the same seeds, conditions and columns as the Rust path."""
    n = len(decks)
    probe = Game(n)
    for c in stop + record:
        probe.holds(c)  # an impossible condition is an error before any game is played
    rows: dict[str, list[Any]] = {name: [] for name in _COLUMNS}
    for i in range(a, b):
        # The policies answer the opening-hand choices too (CR 103.6), as in the Rust path.
        g = Game.from_decks(decks, seed=derive_seed(seed, i), starting_life=starting_life, hand_size=hand_size, db=db, policies=policies)  # type: ignore[arg-type]
        g.recording = False
        first = [0] * len(record)
        stopped = -1
        at, actions = (g.turn, g.step), 0
        while True:
            for k, c in enumerate(record):
                if first[k] == 0 and g.holds(c):
                    first[k] = g.turn
            if g.is_over or g.turn > max_turns:
                break
            hit = next((k for k, c in enumerate(stop) if g.holds(c)), None)
            if hit is not None:
                stopped = hit
                break
            if (g.turn, g.step) != at:
                at, actions = (g.turn, g.step), 0
            actions += 1
            if actions > LOOP_ACTIONS:
                break  # a loop of mandatory actions (CR 104.4b): unfinished, as in the Rust path
            g.play(max_actions=1)
        out = g.outcome
        rows["winner"].append(out["winners"][0] if out and len(out["winners"]) == 1 else -1)
        rows["finished"].append(out is not None)
        rows["turns"].append(g.turn)
        rows["stopped"].append(stopped)
        rows["recorded"].extend(first)
        d = g.to_dict()
        for p, pl in enumerate(d["players"]):
            stats = g.stats(p)
            rows["loss"].append(_LOSS_CODES.get(pl["lost"], 0) if pl["lost"] else 0)
            rows["life"].append(g.life(p))
            rows["library"].append(len(g.library(p)))
            rows["graveyard"].append(len(g.graveyard(p)))
            for name in ("milled", "spells", "kicks", "cycles", "lands"):
                rows[name].append(stats[name])
    dtypes = {"winner": "<i1", "finished": "|b1", "turns": "<u4", "loss": "<u1", "life": "<i4", "stopped": "<i1"}
    return n, [(name, np.asarray(rows[name], dtype=dtypes.get(name, "<u4")).tobytes(), dtypes.get(name, "<u4")) for name in _COLUMNS]

