"""Replays and the event log as files.

A game made with ``Game.from_decks`` is reproduced exactly by its decks, seed and setup plus the
answers to its decisions in order (``Game.replay()``; played back by ``Game.from_replay``). The
event log (``Game.events``) is written as JSON lines, one event per line, in the schema of
``docs/events.md``.
"""

from __future__ import annotations

import json
import os
from typing import Any

from mtgsim._core import CardDB, Game
from mtgsim._files import write_whole
from mtgsim.errors import InvalidArgumentError

__all__ = ["events_jsonl", "load_replay", "save_replay", "write_events"]


def events_jsonl(game: Game) -> str:
    """The event log as JSON lines (one object per line, ``"kind"`` first)."""
    return "".join(json.dumps({"kind": e["kind"], **{k: v for k, v in e.items() if k != "kind"}}) + "\n" for e in game.events)


def write_events(game: Game, path: str | os.PathLike[str]) -> None:
    """Writes the event log as JSON lines, whole or not at all."""
    _write(path, events_jsonl(game))


def save_replay(game: Game, path: str | os.PathLike[str]) -> None:
    """Writes ``game.replay()`` as JSON, whole or not at all."""
    _write(path, json.dumps(game.replay()))


def load_replay(path: str | os.PathLike[str], db: CardDB | None = None) -> Game:
    """Reads a replay file and plays it back (see ``Game.from_replay``)."""
    with open(path, encoding="utf-8") as f:
        try:
            data: Any = json.load(f)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise InvalidArgumentError(f"{os.fspath(path)} is not a replay: not JSON ({e})") from None
    return Game.from_replay(data, db)


def _write(path: str | os.PathLike[str], text: str) -> None:
    data = text.encode("utf-8")
    write_whole(path, lambda f: f.write(data))
