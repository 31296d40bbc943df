"""Deck lists: reading and writing the common text format that MTG Arena, MTGO and most deck
sites export.

>>> from mtgsim.decklist import DeckList
>>> deck = DeckList.parse('''
... Deck
... 4 Fractured Sanity (MH2) 44
... 16x island
...
... Sideboard
... 2 Lorien Revealed
... ''')
>>> deck.main[0]
DeckEntry(count=4, name='Fractured Sanity', set_code='MH2', collector_number='44')
>>> len(deck), deck.sideboard_cards()
(20, ['Lórien Revealed', 'Lórien Revealed'])
>>> import mtgsim
>>> game = mtgsim.Game.from_decks([deck.cards(), deck.cards()], seed=1)
>>> len(game.library(0)) + len(game.hand(0))
20

**The format.** Lines end in ``\\n``, ``\\r\\n`` or ``\\r``; line numbers are 1-based and count
every line (blank and comment lines too). Whitespace at either end of a line is ignored. A line
is one of:

* a card line: a count, an optional ``x`` or ``X`` right after it, whitespace and a card name —
  ``4 Fractured Sanity``, ``4x Fractured Sanity``. The count is a decimal integer from 1 to
  :data:`MAX_COUNT`. The name may end with a set code in parentheses (ASCII letters and digits)
  and then, optionally, a collector number (no whitespace, no parentheses):
  ``4 Fractured Sanity (MH2) 44``, ``1 Island (M21)``. Set code and collector number are kept as
  written; they are not checked.
* blank (empty or only whitespace): see the sideboard rule below;
* a comment: starts with ``#`` or ``//``; ignored. (Only whole lines: ``#`` or ``//`` inside a
  card line is part of the name, as in split cards ``Fire // Ice``.)
* a header (case-insensitive, optional trailing colon): ``Deck`` and ``About`` are ignored;
  ``Name <deck name>`` or ``Name: <deck name>`` gives the deck its name; ``Sideboard`` starts the
  sideboard. ``Deck``, ``About`` and ``Name`` may only come before the first card line (and
  before a ``Sideboard`` header); ``Name`` and ``Sideboard`` may each appear only once.

Anything else (e.g. ``Commander``, ``Companion`` or ``SB:`` lines, a count like ``2.5``) is an
error.

**The sideboard rule.** If the text has a ``Sideboard`` header line anywhere, the sideboard is
exactly the cards after it, and blank lines mean nothing. Otherwise (MTGO and older MTG Arena
exports), the first blank line that comes after a main-deck card line starts the sideboard, and
every card after it is a sideboard card (further blank lines mean nothing). Blank lines before
the first card line are ignored either way.

**Card names.** ``known`` decides which names are valid:

* ``None`` (the default): the built-in card database, :func:`mtgsim.card_names`;
* a ``CardDB``: the names of its cards (the built-in ones and yours), matched as a collection;
* a collection (any iterable) of card names: a name matches if it is one of them exactly, or
  else if exactly one of them has the same *folded* form, which ignores letter case,
  accents and diacritics (``Lorien Revealed`` for ``Lórien Revealed``, ``Troll of Khazad-dum``),
  reads ``æ``/``Æ`` as ``ae`` and ``œ`` as ``oe``, typographic apostrophes as ``'``, runs of
  whitespace as one space and whitespace around ``//`` as one space each side. The entry gets the
  canonical name (the one in the collection). If several names fold alike and none matches
  exactly, the name is ambiguous, an error;
* a predicate ``known(name) -> bool``: the name as written is accepted if the predicate says so
  (``known=lambda name: True`` turns checking off).

Split and double-faced cards are matched by their full name as written, ``Fire // Ice``; a single
face's name is not enough.

**Errors.** A malformed line, an unknown or ambiguous card name, or a count that is not from 1 to
:data:`MAX_COUNT` raises :class:`DeckListError` (an :class:`~mtgsim.errors.InvalidArgumentError`,
so also a :class:`~mtgsim.errors.MtgsimError` and a :class:`ValueError`). Its message, and its
``line_number`` and ``line`` attributes, give the 1-based line number and the line's text.
Unknown and ambiguous names raise the subclass :class:`UnknownDeckCardError`, which is also an
:class:`~mtgsim.errors.UnknownCardError`.

**Writing.** :meth:`DeckList.to_text` writes the MTG Arena import format: an ``About`` /
``Name`` block if the deck has a name, a ``Deck`` header, the main deck, and a ``Sideboard``
header with the sideboard if there is one. Entries are written in order and never merged, so
``DeckList.parse(d.to_text(), known) == d`` for every deck list ``d`` whose names are the
canonical names under ``known`` (for the default: built-in card names).
"""

from __future__ import annotations

import difflib
import os
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Union

from mtgsim._core import CardDB, card_names
from mtgsim.errors import InvalidArgumentError, UnknownCardError

__all__ = [
    "MAX_COUNT",
    "KnownNames",
    "DeckListError",
    "UnknownDeckCardError",
    "DeckEntry",
    "DeckList",
]

#: The largest count a deck-list line may have: the engine's ``MAX_COUNT`` (rust/src/game.rs).
MAX_COUNT = 1_000_000

#: What ``known`` may be: ``None`` (the built-in cards), a ``CardDB`` (its cards), a collection
#: of names, or a predicate.
KnownNames = Union[CardDB, Callable[[str], bool], Iterable[str], None]


class DeckListError(InvalidArgumentError):
    """A deck list that can't be read, or a deck-list value that can't be written.

    ``line_number`` (1-based) and ``line`` (the line's text, without its line break) say where
    (the message shows the line's text cut short to 200 characters, and a card name to 100);
    both are ``None`` for an error that is not about a line (e.g. ``DeckEntry(0, "Island")``).
    ``reason`` is the message without the location."""

    def __init__(self, reason: str, line_number: int | None = None, line: str | None = None) -> None:
        self.reason = reason
        self.line_number = line_number
        self.line = line
        if line_number is None:
            message = reason
        else:
            message = f"line {line_number}: {reason}: {_short(line or '', 200)!r}"
        super().__init__(message)

    def __reduce__(self) -> tuple[type[DeckListError], tuple[str, int | None, str | None]]:
        return (type(self), (self.reason, self.line_number, self.line))


class UnknownDeckCardError(DeckListError, UnknownCardError):
    """A card line whose name is unknown, or ambiguous, under the ``known`` names."""


# ----- the line grammar ---------------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CARD = re.compile(r"(?P<count>-?[0-9]+)[xX]?(?:\s+(?P<rest>.*))?")
_SUFFIX = re.compile(r"\s+\((?P<set>[A-Za-z0-9]+)\)(?:\s+(?P<number>[^\s()]+))?\Z")
_SET_CODE = re.compile(r"[A-Za-z0-9]+")
_COLLECTOR_NUMBER = re.compile(r"[^\s()]+")
_SIDEBOARD = re.compile(r"sideboard\s*:?", re.IGNORECASE)
_DECK = re.compile(r"deck\s*:?", re.IGNORECASE)
_ABOUT = re.compile(r"about\s*:?", re.IGNORECASE)
_NAME = re.compile(r"name(?:[:\s]\s*(?P<value>.*))?", re.IGNORECASE)


def _check_text(value: object, what: str) -> str:
    """A name as a line can hold it: a non-empty string, no whitespace at either end, no line
    break (what parsing a line gives back)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    if not value or value != value.strip() or "\n" in value or "\r" in value:
        raise DeckListError(f"{what} must be non-empty, without line breaks or whitespace at either end: {value!r}")
    return value


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ----- the data model -----------------------------------------------------------------------


@dataclass(frozen=True)
class DeckEntry:
    """One line of a deck list: ``count`` copies of the card ``name``, optionally printed in the
    set ``set_code`` with ``collector_number``.

    The values are checked so that every entry can be written and read back: ``count`` from 1
    to :data:`MAX_COUNT`; ``name`` non-empty with no line break and no whitespace at either end;
    ``set_code`` ASCII letters and digits; ``collector_number`` no whitespace or parentheses, and
    only with a set code. Without a set code, the name may not end like one (``Foo (ABC)``,
    ``Foo (ABC) 12``), which would be read back as a set code. A bad value raises
    :class:`DeckListError` (:class:`TypeError` for a wrong type)."""

    count: int
    name: str
    set_code: str | None = None
    collector_number: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int):
            raise TypeError(f"count must be an int, not {type(self.count).__name__}")
        if not 1 <= self.count <= MAX_COUNT:
            raise DeckListError(f"count must be from 1 to {MAX_COUNT}, not {self.count}")
        _check_text(self.name, "card name")
        if self.set_code is None:
            if self.collector_number is not None:
                raise DeckListError("a collector number needs a set code")
            if _SUFFIX.search(self.name):
                raise DeckListError(f"card name {self.name!r} ends like a set code; give its set code")
        else:
            if not isinstance(self.set_code, str):
                raise TypeError(f"set code must be a str, not {type(self.set_code).__name__}")
            if not _SET_CODE.fullmatch(self.set_code):
                raise DeckListError(f"set code must be ASCII letters and digits: {self.set_code!r}")
        if self.collector_number is not None:
            if not isinstance(self.collector_number, str):
                raise TypeError(f"collector number must be a str, not {type(self.collector_number).__name__}")
            if not _COLLECTOR_NUMBER.fullmatch(self.collector_number):
                raise DeckListError(f"collector number must be non-empty, without whitespace or parentheses: {self.collector_number!r}")

    def to_text(self) -> str:
        """The entry's line: ``4 Fractured Sanity (MH2) 44``."""
        parts = [str(self.count), self.name]
        if self.set_code is not None:
            parts.append(f"({self.set_code})")
        if self.collector_number is not None:
            parts.append(self.collector_number)
        return " ".join(parts)


@dataclass(frozen=True)
class DeckList:
    """A main deck, a sideboard and an optional deck name. Entries keep their order and are never
    merged (``4 Island`` twice is two entries). ``len(deck)`` is the number of cards in the main
    deck, so an empty main deck is falsy. Frozen, hashable, picklable.

    ``main`` and ``sideboard`` accept any iterable of :class:`DeckEntry` and are stored as
    tuples; ``name`` must be non-empty, with no line break and no whitespace at either end."""

    main: tuple[DeckEntry, ...]
    sideboard: tuple[DeckEntry, ...] = ()
    name: str | None = None

    def __post_init__(self) -> None:
        for field in ("main", "sideboard"):
            value = getattr(self, field)
            if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
                raise TypeError(f"{field} must be a tuple of DeckEntry, not {type(value).__name__}")
            entries = tuple(value)
            for entry in entries:
                if not isinstance(entry, DeckEntry):
                    raise TypeError(f"{field} must hold DeckEntry objects, not {type(entry).__name__}")
            object.__setattr__(self, field, entries)
        if self.name is not None:
            _check_text(self.name, "deck name")

    # ----- reading

    @classmethod
    def parse(cls, text: str, known: KnownNames = None) -> DeckList:
        """Reads a deck list (see the module documentation for the format, the sideboard rule
        and name matching). Raises :class:`DeckListError` with the line number and text."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, not {type(text).__name__}")
        resolve = _resolver(known)
        if text.startswith("\ufeff"):
            text = text[1:]
        lines = _LINE_BREAK.split(text)
        has_header = any(_SIDEBOARD.fullmatch(line.strip()) for line in lines)
        main: list[DeckEntry] = []
        sideboard: list[DeckEntry] = []
        in_sideboard = False
        started = False  # a card line or the Sideboard header has been read
        name: str | None = None
        for number, line in enumerate(lines, 1):
            s = line.strip()
            if not s:
                if not has_header and main and not in_sideboard:
                    in_sideboard = True
                continue
            if s.startswith("#") or s.startswith("//"):
                continue
            card = _CARD.fullmatch(s)
            if card:
                entry = _entry(card, resolve, number, line)
                (sideboard if in_sideboard else main).append(entry)
                started = True
            elif _SIDEBOARD.fullmatch(s):
                if in_sideboard:
                    raise DeckListError("a second Sideboard header", number, line)
                in_sideboard = started = True
            elif _DECK.fullmatch(s) or _ABOUT.fullmatch(s):
                if started:
                    raise DeckListError(f"the {s.rstrip(':').strip()!r} header must come before the first card", number, line)
            elif (header := _NAME.fullmatch(s)) is not None:
                if started:
                    raise DeckListError("the deck name must come before the first card", number, line)
                if name is not None:
                    raise DeckListError(f"a second deck name (the first is {name!r})", number, line)
                name = header.group("value")
                if not name:
                    raise DeckListError("the deck name is missing", number, line)
            else:
                raise DeckListError(
                    "not a card line ('<count> <card name>'), a comment or a Deck/Sideboard/About/Name header",
                    number,
                    line,
                )
        return cls(tuple(main), tuple(sideboard), name)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], known: KnownNames = None) -> DeckList:
        """Reads a deck-list file (UTF-8, with or without a byte-order mark) with :meth:`parse`.
        A file that is not UTF-8 raises :class:`DeckListError`; a missing one :class:`OSError`."""
        with open(path, encoding="utf-8-sig") as f:
            try:
                text = f.read()
            except UnicodeDecodeError as e:
                raise DeckListError(f"{os.fspath(path)!r} is not UTF-8 text ({e})") from e
        return cls.parse(text, known)

    # ----- writing and using

    def to_text(self) -> str:
        """The deck list in the MTG Arena import format, ending with a line break.
        ``DeckList.parse(d.to_text(), known) == d`` when ``d``'s names are canonical under
        ``known``."""
        lines: list[str] = []
        if self.name is not None:
            lines += ["About", f"Name {self.name}", ""]
        lines.append("Deck")
        lines += [entry.to_text() for entry in self.main]
        if self.sideboard:
            lines += ["", "Sideboard"]
            lines += [entry.to_text() for entry in self.sideboard]
        return "\n".join(lines) + "\n"

    def cards(self) -> list[str]:
        """The main deck's card names, each repeated ``count`` times, in order: what
        :meth:`mtgsim.Game.from_decks` takes for one player."""
        return _expand(self.main)

    def sideboard_cards(self) -> list[str]:
        """The sideboard's card names, each repeated ``count`` times, in order."""
        return _expand(self.sideboard)

    def __len__(self) -> int:
        """The number of cards in the main deck."""
        return sum(entry.count for entry in self.main)


def _expand(entries: tuple[DeckEntry, ...]) -> list[str]:
    return [entry.name for entry in entries for _ in range(entry.count)]


# ----- reading one card line ----------------------------------------------------------------


class _Unresolved(Exception):
    """A name that ``known`` does not accept; the argument is the reason."""


def _entry(card: re.Match[str], resolve: Callable[[str], str], number: int, line: str) -> DeckEntry:
    count = _count(card.group("count"), number, line)
    rest = card.group("rest")
    if rest is None:
        raise DeckListError("the card name is missing", number, line)
    set_code: str | None = None
    collector_number: str | None = None
    suffix = _SUFFIX.search(rest)
    if suffix is not None:
        set_code, collector_number = suffix.group("set"), suffix.group("number")
        rest = rest[: suffix.start()]
    try:
        name = resolve(rest)
    except _Unresolved as e:
        raise UnknownDeckCardError(str(e), number, line) from None
    try:
        return DeckEntry(count, name, set_code, collector_number)
    except DeckListError as e:  # only a canonical name from `known` that no line can hold
        raise DeckListError(e.reason, number, line) from None


def _count(token: str, number: int, line: str) -> int:
    digits = token.lstrip("-").lstrip("0") or "0"
    if token.startswith("-") and digits != "0":
        raise DeckListError(f"the count must be a positive integer, not {_short(token)}", number, line)
    if len(digits) > len(str(MAX_COUNT)) or int(digits) > MAX_COUNT:
        raise DeckListError(f"the count {_short(token)} is more than the maximum, {MAX_COUNT}", number, line)
    if digits == "0":
        raise DeckListError(f"the count must be a positive integer, not {token}", number, line)
    return int(digits)


# ----- name matching ------------------------------------------------------------------------

_FOLD_EXTRA = str.maketrans({"æ": "ae", "œ": "oe", "\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_SPACED_SLASHES = re.compile(r"\s*//\s*")


def _fold(name: str) -> str:
    """The form names are compared in when they don't match exactly: no case, no accents or
    diacritics, ``æ`` -> ``ae``, one kind of apostrophe, single spaces, `` // `` between faces."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_FOLD_EXTRA)
    return _SPACED_SLASHES.sub(" // ", " ".join(bare.split()))


def _resolver(known: KnownNames) -> Callable[[str], str]:
    """The function from a name as written to its canonical name (raises :class:`_Unresolved`)."""
    if known is None:
        known = card_names()
    if isinstance(known, CardDB):
        known = known.names()  # a database of your own cards: its names
    if isinstance(known, (str, bytes)):
        raise TypeError("known must be a collection of card names or a predicate, not a single string")
    if callable(known):
        predicate = known

        def by_predicate(name: str) -> str:
            if predicate(name):
                return name
            raise _Unresolved(f"unknown card name {_short(name, 100)!r}")

        return by_predicate

    exact: set[str] = set()
    for name in known:
        if not isinstance(name, str):
            raise TypeError(f"known card names must be str, not {type(name).__name__}")
        exact.add(name)
    folded: dict[str, list[str]] = {}
    for name in sorted(exact):
        folded.setdefault(_fold(name), []).append(name)

    def by_collection(name: str) -> str:
        if name in exact:
            return name
        key = _fold(name)
        hits = folded.get(key, [])
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise _Unresolved(f"ambiguous card name {_short(name, 100)!r}: it could be " + " or ".join(map(repr, hits)))
        close = difflib.get_close_matches(key, list(folded), n=1)
        hint = f" (did you mean {folded[close[0]][0]!r}?)" if close else ""
        raise _Unresolved(f"unknown card name {_short(name, 100)!r}{hint}")

    return by_collection
