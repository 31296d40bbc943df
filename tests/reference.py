"""A pure-Python reference model of mtgsim's zone actions: the oracle for differential and stateful
tests (GUIDE §7).

Same seed, same game: this model and the Rust core (rust/src) must agree bit for bit on every zone
(object ids, in order), life total, counter, pending decision and outcome. The model is written for
clarity, not speed; where the Rust code is the spec of an arbitrary choice (how a random answer is
drawn, where cards go back after a scry), the docstring says which Rust function it follows.

Conventions shared with the engine:

* Every card has a permanent *slot* (its index in creation order) and a *generation* that goes up by
  one each time it changes zones; its object id is ``slot | generation << 32`` (CR 400.7: a card
  that changes zones becomes a new object with a new id).
* Libraries and graveyards are stored BOTTOM FIRST (the top card is the last element), and shuffles
  apply Fisher–Yates to that bottom-first list. They are *listed* top first. Hands, the battlefield
  and the other zones are stored and listed in arrival order.
* The game owns one generator, ``Rng(seed)`` (shuffles, random discards). Each player's built-in
  policy has its own, ``Rng(derive_seed(seed, 1 + player))``, so who answers never changes the
  shuffles.
* A decision with exactly one legal answer is not asked and uses no randomness
  (``Decision.forced_answer``, the twin of ``decision.rs``).
* A rejected action raises one of the errors below (named like mtgsim's exceptions) and changes
  nothing (CR 733). Public methods check their arguments in the engine's order (python.rs first,
  then game.rs), so that when several things are wrong both raise the same error class.
* State-based actions run after every action: first those for permanents, repeated until none
  apply (toughness 0 or less, CR 704.5f; +1/+1 and -1/-1 counters annihilating, 704.5q), then those
  for players (life, drawing from an empty library, ten poison: 704.5a-c). The game ends when at most
  one player remains (CR 104.2a, 104.4a); in a multiplayer game that goes on, a player who lost leaves
  it and takes everything they own outside the game (CR 800.4a).
* Left out on purpose: planeswalker loyalty, and characteristic-defining power/toughness other than
  Monstrous War-Leech's. A position that needs them raises ``OutsideModelError`` rather than guessing.

``RefGame`` has the same method names and arguments as ``mtgsim.Game``, and ``to_dict()`` gives the
same plain view, so a test can make one call on both and compare the results.
"""

from __future__ import annotations

import copy
import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ref_rng import Rng, derive_seed

MAX_PLAYERS = 16
MAX_COUNT = 1_000_000
GENERATION_SHIFT = 32
SLOT_MASK = (1 << 32) - 1

ZONES = ("library", "hand", "graveyard", "battlefield", "stack", "exile", "command", "outside")
PER_PLAYER_ZONES = ("library", "hand", "graveyard", "outside")
PILES = ("library", "graveyard")  # ordered piles, listed top first
HIDDEN_ZONES = ("library", "hand", "outside")  # CR 400.2; outside the game is seen by nobody


# ----- errors (same names as mtgsim's exception classes) ---------------------------------------


class ModelError(Exception):
    """Base of the model's errors; ``type(e).__name__`` matches the engine's exception class."""


class UnknownCardError(ModelError):
    pass


class InvalidPlayerError(ModelError):
    pass


class NoSuchObjectError(ModelError):
    pass


class WrongZoneError(ModelError):
    pass


class InvalidArgumentError(ModelError):
    pass


class IllegalActionError(ModelError):
    pass


class CannotPayError(IllegalActionError):
    pass


class DecisionPendingError(IllegalActionError):
    pass


class NoDecisionPendingError(IllegalActionError):
    pass


class GameOverError(IllegalActionError):
    pass


class PlayerLeftError(IllegalActionError):
    pass


class InvalidAnswerError(ModelError):
    pass


class UnscriptedDecisionError(ModelError):
    pass


class OutsideModelError(NotImplementedError):
    """The position needs rules the model leaves out on purpose (characteristic-defining P/T,
    planeswalker loyalty). Not a ModelError: a test that reaches it must be changed, not pass."""


# ----- cards ------------------------------------------------------------------------------------

CARD_TYPES = ("artifact", "battle", "creature", "enchantment", "instant", "kindred", "land", "planeswalker", "sorcery")
SUPERTYPES = ("basic", "legendary", "ongoing", "snow", "world")
COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
CARDS_JSON = Path(__file__).resolve().parents[1] / "rust" / "data" / "cards.json"


@dataclass(frozen=True)
class CardDef:
    """The printed characteristics the zone actions look at: types, supertypes, subtypes (CR 205),
    colors from the mana cost (CR 202.2), printed toughness (CR 208) and loyalty."""

    name: str
    types: frozenset[str]
    supertypes: frozenset[str]
    subtypes: tuple[str, ...]
    colors: frozenset[str] = frozenset()
    mana_value: int = 0
    toughness: Optional[str] = None
    loyalty: Optional[str] = None
    power_toughness_rule: Optional[str] = None  # a characteristic-defining ability (CR 604.3)
    enters_tapped: bool = False  # "This land enters tapped." (CR 614.1c; keywords.rs)

    @staticmethod
    def from_record(c: dict[str, Any]) -> "CardDef":
        d = CardDef.from_type_line(c["name"], c["type_line"])
        colors: set[str] = set()
        mana_value = 0
        for symbol in c.get("mana_cost", "").replace("}", "").split("{")[1:]:
            parts = symbol.split("/")
            colors.update(part for part in parts if part and part in "WUBRG")
            if symbol.isdigit():
                mana_value += int(symbol)
            elif parts[0] == "2" and len(parts) == 2:
                mana_value += 2  # {2/W}: the larger component (CR 202.3f)
            elif symbol != "X":
                mana_value += 1  # X is 0 (CR 202.3e); any other symbol is 1
        rule = (c.get("rules") or {}).get("power_toughness")
        tapped = any(
            line.strip().lower() == "this land enters tapped." or line.strip().lower().endswith((" enters tapped.", " enters the battlefield tapped."))
            for line in c.get("oracle_text", "").splitlines()
        )
        return CardDef(d.name, d.types, d.supertypes, d.subtypes, frozenset(colors), mana_value, c.get("toughness"), c.get("loyalty"), rule, tapped)

    @staticmethod
    def from_type_line(name: str, type_line: str) -> "CardDef":
        left, _, right = type_line.replace(" - ", " — ").partition("—")
        types, supers = set(), set()
        for word in left.split():
            w = word.lower()
            if w in CARD_TYPES:
                types.add(w)
            elif w in SUPERTYPES:
                supers.add(w)
            elif w == "tribal":
                types.add("kindred")  # the obsolete name (CR 308)
            else:
                raise ValueError(f"{word!r} in the type line of {name!r}")
        return CardDef(name, frozenset(types), frozenset(supers), tuple(right.split()))

    def has_subtype(self, s: str) -> bool:
        return any(x.lower() == s.lower() for x in self.subtypes)


def load_cards(path: Path = CARDS_JSON) -> dict[str, CardDef]:
    data = json.loads(path.read_text(encoding="utf-8"))
    # Token definitions (CR 111.4) are not cards: effects create them, decks can't hold them.
    return {c["name"]: CardDef.from_record(c) for c in data["cards"] if not c.get("token")}


CARDS: dict[str, CardDef] = load_cards()


@dataclass(frozen=True)
class Quality:
    types: frozenset[str] = frozenset()
    not_types: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    subtypes: tuple[str, ...] = ()
    name: Optional[str] = None
    colors: frozenset[str] = frozenset()

    def is_empty(self) -> bool:
        return not (self.types or self.not_types or self.supertypes or self.subtypes or self.name is not None or self.colors)

    def matches(self, c: CardDef) -> bool:
        return (
            self.types <= c.types
            and not (self.not_types & c.types)
            and self.supertypes <= c.supertypes
            and all(c.has_subtype(s) for s in self.subtypes)
            and (self.name is None or self.name == c.name)
            and self.colors <= c.colors
        )


@dataclass(frozen=True)
class CardFilter:
    """A search description ("basic land", "instant or sorcery", "name=Counterspell"): any one of
    the alternatives. No stated quality means "a card" (CR 701.23d), twin of ``filter.rs``."""

    any_of: tuple[Quality, ...]

    @staticmethod
    def parse(text: str) -> "CardFilter":
        trimmed = text.strip()
        if not trimmed:
            raise InvalidArgumentError("empty card description")
        if trimmed.startswith("name="):
            name = trimmed[len("name=") :].strip()
            if not name:
                raise InvalidArgumentError("name= needs a card name")
            return CardFilter((Quality(name=name),))
        alternatives = []
        for alt in trimmed.split(" or "):
            types, not_types, supers, subs, colors = set(), set(), set(), [], set()
            for word in alt.split():
                w = word.rstrip(",")
                lw = w.lower()
                if lw in ("card", "cards", "a", "an", "spell", "spells"):
                    continue
                if lw in COLOR_WORDS:
                    colors.add(COLOR_WORDS[lw])
                elif lw in CARD_TYPES:
                    types.add(lw)
                elif w.startswith("non") and w[3:].lstrip("-").lower() in CARD_TYPES:
                    not_types.add(w[3:].lstrip("-").lower())
                elif lw in SUPERTYPES:
                    supers.add(lw)
                elif w[:1].isascii() and w[:1].isupper() and all(ch.isalpha() or ch in "-'" for ch in w):
                    subs.append(w)
                else:
                    raise InvalidArgumentError(f"{w!r} is not a card type, supertype or capitalised subtype")
            alternatives.append(Quality(frozenset(types), frozenset(not_types), frozenset(supers), tuple(subs), None, frozenset(colors)))
        if any(q.is_empty() for q in alternatives):
            alternatives = []  # "a card": no stated quality
        return CardFilter(tuple(alternatives))

    def is_any(self) -> bool:
        return not self.any_of

    def matches(self, c: CardDef) -> bool:
        return self.is_any() or any(q.matches(c) for q in self.any_of)


# ----- objects and players ----------------------------------------------------------------------


def make_id(slot: int, generation: int) -> int:
    return (generation << GENERATION_SHIFT) | slot


def slot_of_id(obj_id: int) -> int:
    return obj_id & SLOT_MASK


@dataclass
class Obj:
    """One card and the state it has as the object it currently is."""

    slot: int
    card: CardDef
    owner: int
    zone: str
    zone_player: int  # whose per-player zone; the owner for shared zones
    generation: int = 0
    controller: int = -1
    tapped: bool = False
    counters: dict[str, int] = field(default_factory=dict)  # insertion-ordered, like counters.rs

    def __post_init__(self) -> None:
        if self.controller < 0:
            self.controller = self.owner

    @property
    def id(self) -> int:
        return make_id(self.slot, self.generation)

    def become_new(self, zone: str) -> None:
        """CR 400.7, 122.2: a new object, untapped, no counters, controlled by its owner."""
        self.generation = (self.generation + 1) & SLOT_MASK
        self.zone = zone
        self.zone_player = self.owner
        self.tapped = False
        self.controller = self.owner
        self.counters = {}


@dataclass
class Player:
    life: int
    counters: dict[str, int] = field(default_factory=dict)
    library: list[int] = field(default_factory=list)  # slots, BOTTOM first
    hand: list[int] = field(default_factory=list)  # slots, arrival order
    graveyard: list[int] = field(default_factory=list)  # slots, BOTTOM first
    outside: list[int] = field(default_factory=list)
    drew_from_empty: bool = False
    lost: Optional[str] = None
    left: bool = False  # has left a multiplayer game that went on (CR 800.4a)


@dataclass(frozen=True)
class ObjectView:
    id: int
    name: str
    owner: int
    controller: int
    zone: str
    tapped: bool
    counters: dict[str, int]


# ----- decisions and policies -------------------------------------------------------------------


def _id_list(ob: Any, what: str) -> list[int]:
    if not isinstance(ob, (list, tuple, range)):
        raise InvalidAnswerError(f"{what} must be a list of object ids")
    out = []
    for item in ob:
        if isinstance(item, bool) or not isinstance(item, int) or not -(1 << 63) <= item < (1 << 63):
            raise InvalidAnswerError(f"{what} must hold object ids (ints), got {item!r}")
        out.append(item & ((1 << 64) - 1))  # as python.rs reads them: i64, then as u64
    return out


def _is_i64(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and -(1 << 63) <= x < (1 << 63)


def _target(ob: Any) -> tuple[str, int]:
    """One target as python.rs ``target_from_py`` reads it: an object id, or {"player": p} / ("player", p)."""
    if isinstance(ob, bool):
        raise InvalidArgumentError(f"a target is an object id or {{'player': p}}, not {ob!r}")
    if _is_i64(ob):
        if ob < 0:
            raise NoSuchObjectError(str(ob))
        return ("object", ob)
    p = None
    if isinstance(ob, dict) and len(ob) == 1 and "player" in ob and _is_i64(ob["player"]):
        p = ob["player"]
    elif isinstance(ob, tuple) and len(ob) == 2 and ob[0] == "player" and _is_i64(ob[1]):
        p = ob[1]
    if p is None:
        raise InvalidArgumentError(f"a target is an object id or {{'player': p}}, not {ob!r}")
    if not 0 <= p <= 255:
        raise InvalidPlayerError(f"player {p} does not exist")
    return ("player", p)


def parse_answer(ob: Any) -> tuple[str, Any]:
    """Reads a Python answer as python.rs ``answer_from_py`` does, into a canonical pair:
    ("yes_no", bool) | ("number", n) | ("targets", [...]) | ("scry", (top, bottom)) |
    ("choose_cards", [ids]). Whether it fits the decision is checked later, by
    ``Decision.validate``; the zone actions only ever ask choose_cards, scry and yes_no."""
    if isinstance(ob, bool):
        return ("yes_no", ob)
    if _is_i64(ob):
        if not 0 <= ob < (1 << 32):
            raise InvalidAnswerError(f"{ob} is not a number a decision can take")
        return ("number", ob)
    sequence = isinstance(ob, (list, tuple, range))
    if sequence and any(isinstance(x, (dict, tuple)) for x in ob):
        return ("targets", [_target(x) for x in ob])
    if isinstance(ob, dict):
        for k in ("top", "bottom"):
            if k not in ob:
                raise InvalidAnswerError(f"a scry answer dict needs the key {k!r}")
        return ("scry", (_id_list(ob["top"], "top"), _id_list(ob["bottom"], "bottom")))
    if isinstance(ob, str):
        raise InvalidAnswerError("answers are not strings")
    if sequence:
        if len(ob) == 2 and all(isinstance(x, (list, tuple, range, str)) for x in ob):
            return ("scry", (_id_list(ob[0], "top"), _id_list(ob[1], "bottom")))
        return ("choose_cards", _id_list(ob, "the chosen cards"))
    raise InvalidAnswerError(f"can't read {ob!r} as an answer")


@dataclass
class Decision:
    """A pending choice (decision.rs). ``kind`` is "choose_cards", "scry" or "yes_no"; ``purpose``
    is "discard", "search", "may_search" or "scry"; for a discard, ``discarder`` is whose hand.
    ``options``/``min``/``max`` read as mtgsim.Decision's do (for a scry, options are the cards)."""

    player: int
    kind: str
    purpose: str
    options: list[int] = field(default_factory=list)
    min: int = 0
    max: int = 0
    discarder: Optional[int] = None

    @staticmethod
    def choose_cards(player: int, purpose: str, options: list[int], lo: int, hi: int, discarder: Optional[int] = None) -> "Decision":
        return Decision(player, "choose_cards", purpose, list(options), lo, hi, discarder)

    @staticmethod
    def scry(player: int, cards: list[int]) -> "Decision":
        return Decision(player, "scry", "scry", list(cards), 0, len(cards))

    @staticmethod
    def yes_no(player: int, purpose: str) -> "Decision":
        return Decision(player, "yes_no", purpose, [], 0, 1)

    @property
    def cards(self) -> list[int]:
        return list(self.options) if self.kind == "scry" else []

    def validate(self, answer: tuple[str, Any]) -> None:
        """Raises InvalidAnswerError unless the parsed ``answer`` is legal (``Decision::validate``)."""
        kind, value = answer
        if kind != self.kind:
            raise InvalidAnswerError(f"expected an answer of kind {self.kind}, got {kind}")
        if kind == "choose_cards":
            if not self.min <= len(value) <= self.max:
                raise InvalidAnswerError(f"chose {len(value)} card(s), must choose {self.min} to {self.max}")
            for i, c in enumerate(value):
                if c not in self.options:
                    raise InvalidAnswerError(f"{c} is not one of the options")
                if c in value[:i]:
                    raise InvalidAnswerError(f"{c} is chosen twice")
        elif kind == "scry":
            top, bottom = value
            if sorted(top + bottom) != sorted(self.options):
                raise InvalidAnswerError("top and bottom together must hold each looked-at card exactly once")

    def forced_answer(self) -> Optional[tuple[str, Any]]:
        """The only legal answer when there is exactly one, else None (``Decision::forced_answer``).
        Such decisions are never asked and consume no randomness."""
        if self.kind == "choose_cards":
            if self.min >= len(self.options):
                return ("choose_cards", list(self.options))  # nothing to choose, or all must be chosen
            if self.max == 0:
                return ("choose_cards", [])
        if self.kind == "scry" and not self.options:
            return ("scry", ([], []))
        return None

    @property
    def prompt(self) -> str:
        """The engine's description of the decision (``Display for Decision``)."""
        if self.kind == "choose_cards":
            n = str(self.min) if self.min == self.max else f"{self.min} to {self.max}"
            if self.purpose == "discard":
                what = "to discard" if self.discarder == self.player else f"for player {self.discarder} to discard"
            elif self.purpose == "search":
                what = "to find"
            else:
                what = f"for {self.purpose}"
            return f"player {self.player} chooses {n} card(s) {what}"
        if self.kind == "scry":
            return f"player {self.player} scries: puts {len(self.options)} card(s) on top or bottom"
        if self.purpose == "may_search":
            return f"player {self.player} chooses whether to search"
        return f"player {self.player} answers yes or no ({self.purpose})"

    def view(self) -> dict[str, Any]:
        """The flat form ``to_dict()["pending"]`` shows (``Decision::view``)."""
        return {
            "player": self.player,
            "kind": self.kind,
            "purpose": self.purpose,
            "options": list(self.options),
            "min": self.min,
            "max": self.max,
            "cards": self.cards,
            "prompt": self.prompt,
        }


def first_answer(d: Decision) -> tuple[str, Any]:
    """Policy "first": the first ``max`` options; scry keeps everything on top in order; yes."""
    if d.kind == "choose_cards":
        return ("choose_cards", list(d.options[: d.max]))
    if d.kind == "scry":
        return ("scry", (list(d.options), []))
    return ("yes_no", True)


def random_answer(d: Decision, rng: Rng) -> tuple[str, Any]:
    """Policy "random" (policy.rs ``random_answer``), from the deciding player's own generator.
    Cards: a count uniform in min..=max (drawn even when min == max), then that many by a partial
    Fisher–Yates from the front. Scry: each card (top first) goes to the bottom on a coin flip, then
    each pile is shuffled. Yes/no: a coin flip."""
    if d.kind == "choose_cards":
        hi = min(d.max, len(d.options))
        lo = min(d.min, hi)
        k = lo + rng.below(hi - lo + 1)
        pool = list(d.options)
        for i in range(k):
            j = i + rng.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return ("choose_cards", pool[:k])
    if d.kind == "scry":
        top: list[int] = []
        bottom: list[int] = []
        for c in d.options:
            (bottom if rng.below(2) == 1 else top).append(c)
        rng.shuffle(top)
        rng.shuffle(bottom)
        return ("scry", (top, bottom))
    return ("yes_no", rng.below(2) == 1)


@dataclass
class Seat:
    policy: Any  # "random" | "first" | "manual" | callable(game, decision) -> answer
    rng: Rng
    script: deque[tuple[str, Any]] = field(default_factory=deque)


# ----- actions that may stop for a decision (process.rs frames) ---------------------------------


class Frame:
    """An action that may stop part-way. ``step`` either finishes (returns None) or returns the
    Decision it needs answered; the run loop then resumes it with ``game._take_answer()``."""

    def step(self, g: "RefGame") -> Optional[Decision]:
        raise NotImplementedError


@dataclass
class DiscardFrame(Frame):
    """CR 701.9 (actions/discard.rs)."""

    player: int
    count: int
    mode: str  # "choose" | "random" | "chosen_by"
    chooser: Optional[int] = None
    asked: bool = False

    def step(self, g: "RefGame") -> Optional[Decision]:
        if g.players[self.player].lost is not None:
            return None  # the player left the game (CR 800.4a)
        hand = g.players[self.player].hand
        k = min(self.count, len(hand))
        if k == 0:
            return None
        if self.mode == "random":
            # k draws without replacement from the hand in its listed order, by the GAME's generator
            pool = list(hand)
            chosen = [pool.pop(g.rng.below(len(pool))) for _ in range(k)]
            g._discard_slots(self.player, chosen, by=None, at_random=True)
            return None
        chooser = self.player if self.mode == "choose" else self.chooser
        assert chooser is not None
        if g.players[chooser].lost is not None:
            chooser = g._next_live_player(chooser)  # CR 800.4g-h: the next player chooses instead
        if not self.asked:
            self.asked = True
            options = [g.objects[s].id for s in hand]
            return Decision.choose_cards(chooser, "discard", options, k, k, discarder=self.player)
        cards = g._take_answer()
        g._discard_slots(self.player, [slot_of_id(c) for c in cards], by=chooser, at_random=False)
        return None

    def withdraw_question(self) -> None:
        """The player asked left the game (game.rs concede): asked again, of whoever chooses now."""
        self.asked = False


@dataclass
class SearchFrame(Frame):
    """CR 701.23, with the reveal and shuffle that follow (actions/search.rs)."""

    searcher: int
    library: int
    filter: CardFilter
    max: int
    to: str  # hand | battlefield | graveyard | exile | library_top
    tapped: bool
    reveal: bool
    shuffle: bool
    optional: bool
    stage: str = "start"  # start -> asked_whether -> asked_which

    def step(self, g: "RefGame") -> Optional[Decision]:
        if g.players[self.searcher].lost is not None or g.players[self.library].lost is not None:
            return None  # a player it needs left the game (CR 800.4a)
        if self.stage == "start" and self.optional:
            self.stage = "asked_whether"  # "you may search" (CR 701.23g)
            return Decision.yes_no(self.searcher, "may_search")
        if self.stage == "asked_whether":
            if not g._take_answer():
                return None  # declined: no search, no shuffle
            return self._ask_which(g)
        if self.stage == "start":
            return self._ask_which(g)
        self._finish(g, g._take_answer())
        return None

    def _ask_which(self, g: "RefGame") -> Decision:
        lib = g.players[self.library].library
        options = [g.objects[s].id for s in reversed(lib) if self.filter.matches(g.objects[s].card)]  # top first
        hi = min(self.max, len(options))
        lo = hi if self.filter.is_any() else 0  # CR 701.23d must find / 701.23b may fail to find
        self.stage = "asked_which"
        return Decision.choose_cards(self.searcher, "search", options, lo, hi)

    def _finish(self, g: "RefGame", found: list[int]) -> None:
        g._event(kind="searched", player=self.searcher, library=self.library, found=list(found))
        if self.reveal and found:
            g._event(kind="revealed", player=self.searcher, cards=list(found))
        slots = [slot_of_id(c) for c in found]
        lib = g.players[self.library]
        if self.to == "library_top":
            # CR 701.24b: everything else is shuffled, then the found cards go on top, the first
            # found on the very top. They never leave the library, so they keep their ids.
            lib.library = [s for s in lib.library if s not in slots]
            if self.shuffle:
                g._shuffle_library(self.library)
            lib.library.extend(reversed(slots))
            g._output.extend(found)
            return
        for slot, from_id in zip(slots, found):
            o = g.objects[slot]
            from_zone = g._zone_ref(o)
            new_id = g._move_slot(slot, self.to, "top")
            if self.to == "battlefield":
                # Under the searcher's control, even from another player's library (CR 110.2a),
                # and tapped before it has entered.
                o.controller = self.searcher
                o.tapped = o.tapped or self.tapped
                g._entered_battlefield(slot)
            g._event(kind="moved", from_id=from_id, card=new_id, **{"from": from_zone}, to=g._zone_ref(o))
            g._output.append(new_id)
        if self.shuffle:
            g._shuffle_library(self.library)


@dataclass
class ScryFrame(Frame):
    """CR 701.22 (actions/scry.rs): each player looks at their top cards; they decide in APNAP
    order; then all the cards move at the same time (701.22c)."""

    players: list[int]  # APNAP order
    amount: int
    piles: list[tuple[list[int], list[int]]] = field(default_factory=list)  # slots, top first
    asked: bool = False

    def step(self, g: "RefGame") -> Optional[Decision]:
        if self.asked:
            top, bottom = g._take_answer()
            self.piles.append(([slot_of_id(c) for c in top], [slot_of_id(c) for c in bottom]))
            self.asked = False
        while len(self.piles) < len(self.players) and g.players[self.players[len(self.piles)]].lost is not None:
            self.piles.append(([], []))  # left the game (CR 800.4a): nothing to do
        if len(self.piles) < len(self.players):
            p = self.players[len(self.piles)]
            lib = g.players[p].library
            k = min(self.amount, len(lib))
            looked = [g.objects[s].id for s in reversed(lib[len(lib) - k :])]  # top first
            self.asked = True
            return Decision.scry(p, looked)
        for p, (top, bottom) in zip(self.players, self.piles):
            if g.players[p].lost is not None:
                continue
            lib = g.players[p].library
            del lib[len(lib) - (len(top) + len(bottom)) :]
            # Stored bottom first: the bottom pile's last card goes lowest, the top pile's first
            # card highest.
            lib[0:0] = list(reversed(bottom))
            lib.extend(reversed(top))
        for p, (top, bottom) in zip(self.players, self.piles):
            if g.players[p].lost is not None:
                continue
            g._event(kind="scried", player=p, amount=self.amount, looked=len(top) + len(bottom), to_bottom=len(bottom))
        return None

    def withdraw_question(self) -> None:
        """The player asked left the game: they scry nothing; the others go on (CR 800.4a)."""
        if self.asked:
            self.asked = False
            self.piles.append(([], []))


# ----- the game ----------------------------------------------------------------------------------


class RefGame:
    """The reference game. Method names and arguments follow ``mtgsim.Game`` (notes/python_api.md)."""

    def __init__(self, num_players: int = 2, seed: int = 0) -> None:
        if not 2 <= num_players <= MAX_PLAYERS:
            raise InvalidArgumentError(f"a game needs 2 to {MAX_PLAYERS} players, not {num_players}")
        self.seed = seed
        self.rng = Rng(seed)
        self.players = [Player(life=20) for _ in range(num_players)]
        self.objects: list[Obj] = []
        self.shared: dict[str, list[int]] = {"battlefield": [], "stack": [], "exile": [], "command": []}
        self.active = 0
        self.turn = 1
        self.seats = [Seat("random", Rng(derive_seed(seed, 1 + p))) for p in range(num_players)]
        self.strict = False
        self.recording = True
        self.events: list[dict[str, Any]] = []
        self.pending: Optional[Decision] = None
        self.outcome: Optional[dict[str, Any]] = None
        self.losers: list[tuple[int, str]] = []
        self._frames: list[Frame] = []
        self._answer: Any = None
        self._output: list[int] = []

    @classmethod
    def from_decks(cls, decks: list[list[str]], seed: int = 0, *, starting_life: int = 20, hand_size: int = 7) -> "RefGame":
        """Each deck becomes its owner's library (first name on top); libraries are shuffled in
        player order by the game's generator (not recorded); then each player in turn draws a hand
        (recorded); then state-based actions."""
        hand_size = _check_count(hand_size, "hand size")
        if not 0 < starting_life <= MAX_COUNT:
            raise InvalidArgumentError(f"starting life must be from 1 to {MAX_COUNT}")
        g = cls(len(decks), seed)
        for st in g.players:
            st.life = starting_life
        for p, deck in enumerate(decks):
            g.add_cards(p, "library", list(deck), position="bottom")
        recording, g.recording = g.recording, False
        for p in range(len(decks)):
            g._shuffle_library(p)
        g.recording = recording
        for p in range(len(decks)):
            for _ in range(hand_size):
                g._draw_one(p)
        g._check_state_based_actions()
        if g.outcome is None:
            g._event(kind="step_began", turn=1, step="upkeep", active=g.active)  # the first upkeep begins
        return g

    # ----- inspection ----------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def active_player(self) -> int:
        return self.active

    @active_player.setter
    def active_player(self, p: int) -> None:
        p = self._check_player(p)
        self._ensure_idle()
        self.active = self._check_live_player(p)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def zone(self, zone: str, player: int = 0) -> list[int]:
        self._check_zone_name(zone)
        p = self._check_player(player)
        slots = self._zone_list(zone, p)
        ids = [self.objects[s].id for s in slots]
        return ids[::-1] if zone in PILES else ids

    def library(self, p: int) -> list[int]:
        return self.zone("library", p)

    def hand(self, p: int) -> list[int]:
        return self.zone("hand", p)

    def graveyard(self, p: int) -> list[int]:
        return self.zone("graveyard", p)

    def outside(self, p: int) -> list[int]:
        return self.zone("outside", p)

    def battlefield(self) -> list[int]:
        return self.zone("battlefield")

    def exile(self) -> list[int]:
        return self.zone("exile")

    def stack(self) -> list[int]:
        return self.zone("stack")

    def command(self) -> list[int]:
        return self.zone("command")

    def life(self, p: int) -> int:
        return self.players[self._check_player(p)].life

    def player_counters(self, p: int) -> dict[str, int]:
        return dict(self.players[self._check_player(p)].counters)

    def object(self, obj_id: int) -> ObjectView:
        o = self.objects[self._slot_of(self._check_id(obj_id))]
        return ObjectView(o.id, o.card.name, o.owner, o.controller, o.zone, o.tapped, dict(o.counters))

    def name(self, obj_id: int) -> str:
        return self.objects[self._slot_of(self._check_id(obj_id))].card.name

    def all_zone_ids(self) -> list[int]:
        """Every object id found in some zone (each object must appear exactly once)."""
        ids = []
        for p in range(len(self.players)):
            for z in PER_PLAYER_ZONES:
                ids += self.zone(z, p)
        for z in ("battlefield", "stack", "exile", "command"):
            ids += self.zone(z)
        return ids

    def to_dict(self) -> dict[str, Any]:
        """The plain view of the position, as ``Game.to_dict()`` (snapshot.rs ``view``) gives it."""

        def card(slot: int) -> dict[str, Any]:
            o = self.objects[slot]
            v: dict[str, Any] = {"id": o.id, "name": o.card.name, "owner": o.owner}
            if o.zone == "battlefield":
                v["controller"] = o.controller
                v["tapped"] = o.tapped
            if o.counters:
                v["counters"] = dict(o.counters)
            return v

        return {
            "num_players": len(self.players),
            "seed": self.seed,
            "turn": self.turn,
            "active_player": self.active,
            "players": [
                {
                    "life": st.life,
                    "counters": dict(st.counters),
                    "library": [card(s) for s in reversed(st.library)],
                    "hand": [card(s) for s in st.hand],
                    "graveyard": [card(s) for s in reversed(st.graveyard)],
                    "outside": [card(s) for s in st.outside],
                    "lost": st.lost,
                }
                for st in self.players
            ],
            "battlefield": [card(s) for s in self.shared["battlefield"]],
            "stack": [card(s) for s in self.shared["stack"]],
            "exile": [card(s) for s in self.shared["exile"]],
            "command": [card(s) for s in self.shared["command"]],
            "pending": self.pending.view() if self.pending else None,
            "outcome": copy.deepcopy(self.outcome),
        }

    def clone(self) -> "RefGame":
        return copy.deepcopy(self)

    def clear_events(self) -> None:
        self.events.clear()

    # ----- answering arrangements ------------------------------------------------------------
    # A Python callable policy is, as in python.rs, a "manual" seat inside the rules whose
    # decisions the binding answers by calling it; it sees the same decisions in the same order.

    def set_policy(self, p: int, policy: Any) -> None:
        p = self._check_player(p)
        if isinstance(policy, str):
            if policy not in ("random", "first", "manual"):
                raise InvalidArgumentError(f"unknown policy {policy!r}")
        elif not callable(policy):
            raise TypeError("a policy is a name or a callable")
        self.seats[p].policy = policy

    def policy(self, p: int) -> str:
        pol = self.seats[self._check_player(p)].policy
        return "callback" if callable(pol) else pol

    def script(self, p: int, answers: list[Any]) -> None:
        p = self._check_player(p)
        parsed = [parse_answer(a) for a in answers]  # all read before any is queued
        self.seats[p].script.extend(parsed)

    def script_len(self, p: int) -> int:
        return len(self.seats[self._check_player(p)].script)

    def clear_script(self, p: int) -> None:
        self.seats[self._check_player(p)].script.clear()

    # ----- building positions ----------------------------------------------------------------
    # Each public method checks its arguments in the order python.rs and game.rs do, so the
    # model raises the same error class as the engine when several things are wrong at once:
    # first the binding (player indexes, ids, zone/position names, counts it converts), then the
    # rules (game over / decision pending, players still in the game, counts, legality).

    def add_cards(self, player: int, zone: str, names: list[str], position: str = "top") -> list[int]:
        """New cards, slots in the order listed. Names are listed top first: with "top" the first
        name ends on top, with "bottom" the last name ends at the very bottom."""
        owner = self._check_player(player)
        self._check_zone_name(zone)
        self._check_position(position)
        self._ensure_idle()
        self._check_live_player(owner)
        if zone == "stack":
            raise IllegalActionError("cards can't be put onto the stack directly")
        for n in names:
            if n not in CARDS:
                raise UnknownCardError(n)
        slots = []
        for n in names:
            slot = len(self.objects)
            self.objects.append(Obj(slot, CARDS[n], owner, zone, owner))
            slots.append(slot)
        pile = self._zone_list(zone, owner)
        if zone in PILES:  # stored bottom first: the first-listed name ends nearest the top
            pile[len(pile) if position == "top" else 0 : 0] = list(reversed(slots))
        else:  # other zones list in arrival order: the names arrive in the order given
            pile[len(pile) if position == "top" else 0 : 0] = slots
        return [make_id(s, 0) for s in slots]

    def set_life(self, p: int, life: int) -> None:
        p = self._check_player(p)
        self._ensure_idle()
        p = self._check_live_player(p)
        if abs(life) > MAX_COUNT:
            raise InvalidArgumentError(f"life {life} is out of range")
        before = self.players[p].life
        self.players[p].life = life
        self._event(kind="life_changed", player=p, **{"from": before}, to=life)
        self._check_state_based_actions()

    def add_player_counters(self, p: int, kind: str, n: int = 1) -> None:
        p = self._check_player(p)
        _check_count(n, "number of counters")
        self._change_player_counters(p, kind, n)

    def remove_player_counters(self, p: int, kind: str, n: int = 1) -> None:
        p = self._check_player(p)
        _check_count(n, "number of counters")
        self._change_player_counters(p, kind, -n)

    def _change_player_counters(self, p: int, kind: str, delta: int) -> None:
        self._ensure_idle()
        p = self._check_live_player(p)
        _validate_counter_kind(kind)
        _check_count(abs(delta), "counter change")
        _change_counters(self.players[p].counters, kind, delta)
        self._event(kind="player_counters_changed", player=p, counter=kind, delta=delta)
        self._check_state_based_actions()  # ten poison counters (CR 704.5c)

    def add_counters(self, obj_id: int, kind: str, n: int = 1) -> None:
        _check_count(n, "number of counters")
        self._change_object_counters(self._check_id(obj_id), kind, n)

    def remove_counters(self, obj_id: int, kind: str, n: int = 1) -> None:
        _check_count(n, "number of counters")
        self._change_object_counters(self._check_id(obj_id), kind, -n)

    def _change_object_counters(self, obj_id: int, kind: str, delta: int) -> None:
        self._ensure_idle()
        slot = self._slot_of(obj_id)
        _validate_counter_kind(kind)
        _check_count(abs(delta), "counter change")
        if delta >= 0:
            self._put_counters(slot, kind, delta)
        else:
            self._remove_counters(slot, kind, -delta)
        self._check_state_based_actions()  # counters change toughness (CR 704.5f, 704.5q)

    def _entered_battlefield(self, slot: int) -> None:
        """"Enters tapped" (CR 614.1c); a planeswalker enters with its printed loyalty (306.5b)
        (game.rs entered_battlefield)."""
        o = self.objects[slot]
        if o.card.enters_tapped:
            o.tapped = True
        if "planeswalker" in o.card.types and o.card.loyalty and o.card.loyalty.isdigit():
            self._put_counters(slot, "loyalty", int(o.card.loyalty))

    def _put_counters(self, slot: int, kind: str, n: int) -> None:
        """CR 122.6; putting zero counters is no event (game.rs put_counters)."""
        if n:
            _change_counters(self.objects[slot].counters, kind, n)
            self._event(kind="object_counters_changed", card=self.objects[slot].id, counter=kind, delta=n)

    def _remove_counters(self, slot: int, kind: str, n: int) -> None:
        """Exactly n, or CannotPayError; recorded even for zero (game.rs remove_counters_from)."""
        _change_counters(self.objects[slot].counters, kind, -n)
        self._event(kind="object_counters_changed", card=self.objects[slot].id, counter=kind, delta=-n)

    def set_tapped(self, obj_id: int, tapped: bool = True) -> None:
        obj_id = self._check_id(obj_id)
        self._ensure_idle()
        slot = self._slot_of(obj_id)
        if self.objects[slot].zone != "battlefield":
            raise WrongZoneError(f"{obj_id} is not on the battlefield")
        self.objects[slot].tapped = tapped

    def concede(self, p: int) -> None:
        """CR 104.3a: at any time, even while a decision is pending; an action in progress then
        stops where it is (what it already did stays done)."""
        p = self._check_player(p)
        if self.outcome is not None:
            raise GameOverError("the game is over")
        p = self._check_live_player(p)
        self._lose(p, "conceded")
        if not self._frames and self.pending is None:
            self._check_state_based_actions()
        else:
            self._losers_leave()  # mid-action: state-based actions wait for priority (CR 704.3)
        theirs = self.pending is not None and self.pending.player == p
        # Their choice within a discard, search or scry is skipped (a chooser for another player
        # is replaced), and the action goes on without them (CR 800.4a, 800.4g-h).
        scripted = self.strict or any(seat.script for seat in self.seats)
        if self.outcome is None and theirs and not scripted and isinstance(self._frames[-1], (DiscardFrame, SearchFrame, ScryFrame)):
            top = self._frames[-1]
            if isinstance(top, (DiscardFrame, ScryFrame)):
                top.withdraw_question()
            self.pending, self._answer = None, None
            self._run()
            self._output = []
            return
        # Another player's discard is asked afresh (it ends if the discarder left), and a search
        # of the leaver's library ends (game.rs concede).
        if self.outcome is None and not theirs and not scripted and self.pending is not None:
            top = self._frames[-1]
            gone = lambda q: self.players[q].lost is not None  # noqa: E731
            if isinstance(top, DiscardFrame) or (isinstance(top, SearchFrame) and (gone(top.searcher) or gone(top.library))):
                if isinstance(top, DiscardFrame):
                    top.withdraw_question()
                self.pending, self._answer = None, None
                self._run()
                self._output = []
                return
        # Another player's decision goes on without what left (game.rs drop_departed); a search
        # asks for no more cards than are left to find.
        if self.outcome is None and not theirs and self.pending is not None and self.pending.kind == "choose_cards":
            d = self.pending
            d.options = [o for o in d.options if self._exists(o)]
            if d.purpose == "search":
                d.min, d.max = min(d.min, len(d.options)), min(d.max, len(d.options))
        # Otherwise the action in progress stops if the decision was the leaver's or the game ended.
        if self.outcome is not None or theirs:
            self._frames, self.pending, self._answer, self._output = [], None, None, []
            if self.outcome is None:
                self._check_state_based_actions()

    # ----- actions ----------------------------------------------------------------------------

    def draw(self, p: int, n: int = 1) -> list[int]:
        """CR 121.2: one card at a time. From an empty library: marked, loses at SBA (121.4)."""
        p = self._check_player(p)
        self._ensure_idle()
        p = self._check_live_player(p)
        n = _check_count(n, "number of cards to draw")
        drawn = [c for c in (self._draw_one(p) for _ in range(n)) if c is not None]
        self._check_state_based_actions()
        return drawn

    def mill(self, p: int, n: int) -> list[int]:
        """CR 701.17a-b: as many as possible. Result: new ids, former library-top first."""
        p = self._check_player(p)
        self._ensure_idle()
        p = self._check_live_player(p)
        n = _check_count(n, "number of cards to mill")
        milled = self._mill_cards(p, n)
        self._check_state_based_actions()
        return milled

    def mill_each(self, players: list[int], n: int) -> list[list[int]]:
        """Simultaneous mills, performed in APNAP order; results in the order given."""
        for p in players:
            self._check_player(p)
        self._ensure_idle()
        order = self._check_player_set(players)
        n = _check_count(n, "number of cards to mill")
        by_player = {p: self._mill_cards(p, n) for p in order}
        self._check_state_based_actions()
        return [by_player[p] for p in players]

    def mill_opponents(self, p: int, n: int) -> list[list[int]]:
        """Each opponent still in the game, in APNAP order (Fractured Sanity)."""
        p = self._check_player(p)
        self._ensure_idle()
        p = self._check_live_player(p)
        return self.mill_each(self._opponents_of(p), n)

    def pay_mill_cost(self, p: int, n: int) -> list[int]:
        """CR 701.17b: a mill cost can't be paid with fewer cards in the library."""
        p = self._check_player(p)
        self._ensure_idle()
        p = self._check_live_player(p)
        n = _check_count(n, "number of cards to mill")
        if len(self.players[p].library) < n:
            raise CannotPayError(f"player {p} can't mill {n}")
        milled = self._mill_cards(p, n)
        self._check_state_based_actions()
        return milled

    def discard(self, p: int, n: int = 1, *, random: bool = False, chooser: Optional[int] = None) -> Optional[list[int]]:
        """CR 701.9. None when stopped at a decision. A chooser equal to the discarder is the
        default "the discarding player chooses"."""
        p = self._check_player(p)
        if random and chooser is not None:
            raise InvalidArgumentError("a random discard has no chooser")
        if random:
            mode, by = "random", None
        elif chooser is not None and self._check_player(chooser) != p:
            mode, by = "chosen_by", chooser
        else:
            mode, by = "choose", None
        self._ensure_idle()
        p = self._check_live_player(p)
        count = _check_count(n, "number of cards to discard")
        if mode == "chosen_by":
            by = self._check_live_player(by)
        return self._perform(DiscardFrame(p, count, mode, by))

    def shuffle(self, p: int) -> None:
        """CR 701.24a; a library of 0 or 1 cards is still shuffled (701.24e)."""
        p = self._check_player(p)
        self._ensure_idle()
        p = self._check_live_player(p)
        self._shuffle_library(p)

    def search(
        self,
        p: int,
        description: str = "card",
        *,
        count: int = 1,
        to: str = "hand",
        reveal: bool = False,
        shuffle: bool = True,
        optional: bool = False,
        library: Optional[int] = None,
        tapped: bool = False,
    ) -> Optional[list[int]]:
        """CR 701.23 (and 701.24b for library_top). None when stopped at a decision."""
        p = self._check_player(p)
        owner = self._check_player(p if library is None else library)
        flt = CardFilter.parse(description)
        count = _check_count(count, "number of cards to find")
        if to not in ("hand", "battlefield", "graveyard", "exile", "library_top"):
            raise InvalidArgumentError(f"unknown search destination {to!r}")
        if tapped and to != "battlefield":
            raise InvalidArgumentError("only cards put onto the battlefield can enter tapped")
        self._ensure_idle()
        searcher = self._check_live_player(p)
        owner = self._check_live_player(owner)
        if count == 0:
            raise InvalidArgumentError("a search must look for at least one card")
        return self._perform(SearchFrame(searcher, owner, flt, count, to, tapped, reveal, shuffle, optional))

    def reveal(self, p: int, ids: list[int]) -> None:
        """CR 701.20: nothing moves (701.20b)."""
        p = self._check_player(p)
        ids = [self._check_id(c) for c in ids]
        self._ensure_idle()
        p = self._check_live_player(p)
        for i, c in enumerate(ids):
            o = self.objects[self._slot_of(c)]
            if o.zone in HIDDEN_ZONES and o.zone_player != p:
                raise IllegalActionError(f"player {p} can't reveal a card in another player's {o.zone}")
            if c in ids[:i]:
                raise InvalidArgumentError(f"card {c} is listed twice")
        if ids:
            self._event(kind="revealed", player=p, cards=list(ids))

    def move(self, obj_id: int, zone: str, *, position: str = "top", tapped: bool = False, controller: Optional[int] = None) -> int:
        """Moves an object (to its owner's zone for per-player zones); it becomes a new object,
        even when it stays in the same zone."""
        if controller is not None:
            controller = self._check_player(controller)
        obj_id = self._check_id(obj_id)
        self._check_zone_name(zone)
        self._check_position(position)
        self._ensure_idle()
        slot = self._slot_of(obj_id)
        if zone == "stack":
            raise IllegalActionError("objects get onto the stack by being cast")
        if controller is not None:
            if zone != "battlefield":
                raise IllegalActionError("only a permanent entering the battlefield gets a controller")
            controller = self._check_live_player(controller)
        if tapped and zone != "battlefield":
            raise IllegalActionError("only a permanent entering the battlefield can enter tapped")
        o = self.objects[slot]
        if o.zone == zone:
            if zone != "library":
                raise IllegalActionError(f"object {obj_id} is already in {zone}")
            # Within the library: only its position changes; no zone change, same object.
            lib = self.players[o.zone_player].library
            lib.remove(slot)
            lib[len(lib) if position == "top" else 0 : 0] = [slot]
            return obj_id
        from_zone = self._zone_ref(o)
        new_id = self._move_slot(slot, zone, position)
        if zone == "battlefield":
            self._entered_battlefield(slot)
        o.tapped = o.tapped or tapped
        if controller is not None:
            o.controller = controller
        self._event(kind="moved", from_id=obj_id, card=new_id, **{"from": from_zone}, to=self._zone_ref(o))
        self._check_state_based_actions()
        return new_id

    def scry(self, p: int, n: int) -> None:
        self.scry_each([p], n)

    def scry_each(self, players: list[int], n: int) -> None:
        """CR 701.22; scry 0 is no scry event (701.22b)."""
        for p in players:
            self._check_player(p)
        self._ensure_idle()
        order = self._check_player_set(players)
        amount = _check_count(n, "scry amount")
        if amount == 0:
            return None
        self._perform(ScryFrame(order, amount))
        return None

    # ----- decisions --------------------------------------------------------------------------

    def answer(self, answer: Any) -> Optional[list[int]]:
        """Answers the pending decision; a wrong answer changes nothing and it stays pending."""
        parsed = parse_answer(answer)
        if self.pending is None:
            raise NoDecisionPendingError("no decision is pending")
        self.pending.validate(parsed)
        snapshot = copy.deepcopy(self.__dict__)
        self.pending = None
        self._answer = parsed
        try:
            return self._run()
        except Exception:  # a rejected action, or a failing callback: nothing happened (CR 733)
            self.__dict__ = snapshot
            raise

    def _perform(self, frame: Frame) -> Optional[list[int]]:
        snapshot = copy.deepcopy(self.__dict__)
        self._output = []
        self._frames.append(frame)
        try:
            return self._run()
        except Exception:  # a rejected action, or a failing callback: nothing happened (CR 733)
            self.__dict__ = snapshot
            raise

    def _run(self) -> Optional[list[int]]:
        """The run loop of process.rs: each decision is answered by its forced answer, then the
        script, then the policy; a manual policy stops with the decision pending (returns None)."""
        while self._frames:
            frame = self._frames.pop()
            decision = frame.step(self)
            if decision is None:
                continue
            self._frames.append(frame)
            answer = decision.forced_answer()
            if answer is None:
                answer = self._auto_answer(decision)
            if answer is None:
                self.pending = decision
                return None
            self._answer = answer
        self._check_state_based_actions()
        out, self._output = self._output, []
        return out

    def _auto_answer(self, d: Decision) -> Optional[tuple[str, Any]]:
        seat = self.seats[d.player]
        if seat.script:
            scripted: tuple[str, Any] = seat.script.popleft()
            d.validate(scripted)
            return scripted
        if self.strict:
            raise UnscriptedDecisionError(f"player {d.player} {d.kind} ({d.purpose})")
        if seat.policy == "manual":
            return None
        if seat.policy == "first":
            return first_answer(d)
        if seat.policy == "random":
            return random_answer(d, seat.rng)
        self.pending = d  # a callback sees the decision pending, as it does in the engine
        a = parse_answer(seat.policy(self, copy.deepcopy(d)))
        self.pending = None
        d.validate(a)
        return a

    def _take_answer(self) -> Any:
        (_kind, value), self._answer = self._answer, None
        return value


    # ----- state-based actions (CR 704.5a-c, 104.2a, 104.4a) ---------------------------------

    def _check_state_based_actions(self) -> None:
        if self.outcome is not None:
            return
        while self.shared["battlefield"] and self._permanent_state_based_actions():
            pass  # CR 704.3: repeat until none apply
        for p, st in enumerate(self.players):
            if st.lost is not None:
                continue
            if st.life <= 0:
                self._lose(p, "life")
            elif st.drew_from_empty:
                self._lose(p, "empty_library")
            elif st.counters.get("poison", 0) >= 10:
                self._lose(p, "poison")
            st.drew_from_empty = False
        self._losers_leave()

    def _losers_leave(self) -> None:
        """CR 800.4a, 104.2a (game.rs losers_leave): the players who lost leave, or the game is over."""
        if self.outcome is not None:
            return
        remaining = [p for p, st in enumerate(self.players) if st.lost is None]
        if len(remaining) <= 1:
            self._event(kind="game_over", winners=list(remaining))
            self.outcome = {"winners": remaining, "losers": [{"player": p, "reason": r} for p, r in self.losers]}
            return
        # CR 800.4a: in a multiplayer game that goes on, each player who lost leaves it, and so
        # does everything they own (outside the game, so no card is lost to the count); what
        # they control but don't own is exiled. In slot order, no events.
        for p, _reason in self.losers:
            if self.players[p].left:
                continue
            self.players[p].left = True
            for o in self.objects:
                if o.owner == p and o.zone != "outside":
                    self._move_slot(o.slot, "outside", "top")
                elif o.owner != p and o.controller == p and o.zone == "battlefield":
                    self._move_slot(o.slot, "exile", "top")

    def _permanent_state_based_actions(self) -> bool:
        """CR 704.5f (toughness 0 or less), 704.5i (planeswalker with no loyalty), 704.5q (+1/+1 and
        -1/-1 counters annihilate), all at once, in battlefield order (damage.rs permanent_sbas).
        Zone actions deal no damage, so lethal damage (704.5g) never applies here."""
        dying: list[int] = []
        annihilate: list[tuple[int, int]] = []
        for slot in self.shared["battlefield"]:
            o = self.objects[slot]
            if "creature" in o.card.types and self._toughness(o) <= 0:
                dying.append(slot)
                continue
            if "planeswalker" in o.card.types and o.counters.get("loyalty", 0) == 0:
                dying.append(slot)  # CR 704.5i
                continue
            n = min(o.counters.get("+1/+1", 0), o.counters.get("-1/-1", 0))
            if n > 0:
                annihilate.append((slot, n))
        for slot, n in annihilate:
            self._remove_counters(slot, "+1/+1", n)
            self._remove_counters(slot, "-1/-1", n)
        for slot in dying:
            from_id = self.objects[slot].id
            card = self._move_slot(slot, "graveyard", "top")
            self._event(kind="died", card=card, from_id=from_id)
        return bool(dying or annihilate)

    def _toughness(self, o: Obj) -> int:
        """Printed toughness, or the value of a characteristic-defining ability (CR 208.2a, 604.3,
        layer 7a), plus +1/+1 and minus -1/-1 counters (CR 613.4c)."""
        printed = o.card.toughness
        if o.card.power_toughness_rule == "highest_mana_value_in_your_graveyard":  # Monstrous War-Leech
            base = max((self.objects[s].card.mana_value for s in self.players[o.controller].graveyard), default=0)
        elif printed is not None and printed.strip().lstrip("-").isdigit():
            base = int(printed)
        else:
            raise OutsideModelError(f"{o.card.name}: power/toughness {printed!r} is not modelled")
        return base + o.counters.get("+1/+1", 0) - o.counters.get("-1/-1", 0)

    def _lose(self, p: int, reason: str) -> None:
        self.players[p].lost = reason
        self.losers.append((p, reason))
        self._event(kind="player_lost", player=p, reason=reason)

    # ----- the moves themselves ---------------------------------------------------------------

    def _draw_one(self, p: int) -> Optional[int]:
        lib = self.players[p].library
        if not lib:
            self.players[p].drew_from_empty = True
            self._event(kind="drew_from_empty_library", player=p)
            return None
        card = self._place(lib.pop(), "hand", "top")
        self._event(kind="drew", player=p, card=card)
        return card

    def _mill_cards(self, p: int, n: int) -> list[int]:
        lib = self.players[p].library
        k = min(n, len(lib))
        milled = [self._place(lib.pop(), "graveyard", "top") for _ in range(k)]
        if k:
            self._event(kind="milled", player=p, cards=list(milled))
        return milled

    def _discard_slots(self, p: int, slots: list[int], by: Optional[int], at_random: bool) -> None:
        for slot in slots:
            card = self._move_slot(slot, "graveyard", "top")
            self._output.append(card)
            self._event(kind="discarded", player=p, card=card, by=by, random=at_random)

    def _shuffle_library(self, p: int) -> None:
        self.rng.shuffle(self.players[p].library)  # Fisher-Yates on the BOTTOM-FIRST list
        self._event(kind="shuffled", player=p)

    def _move_slot(self, slot: int, zone: str, position: str) -> int:
        o = self.objects[slot]
        pile = self._zone_list(o.zone, o.zone_player)
        pile.reverse()  # remove the occurrence nearest the end (rposition), as game.rs does
        pile.remove(slot)
        pile.reverse()
        return self._place(slot, zone, position)

    def _place(self, slot: int, zone: str, position: str) -> int:
        o = self.objects[slot]
        o.become_new(zone)
        pile = self._zone_list(zone, o.owner)  # cards go to their owner's zones (CR 400.3)
        if position == "top":
            pile.append(slot)
        else:
            pile.insert(0, slot)
        return o.id

    # ----- helpers ----------------------------------------------------------------------------

    def _event(self, **ev: Any) -> None:
        if self.recording:
            self.events.append(ev)

    def _zone_ref(self, o: Obj) -> dict[str, Any]:
        return {"kind": o.zone, "player": o.zone_player}

    def _zone_list(self, zone: str, player: int) -> list[int]:
        if zone in PER_PLAYER_ZONES:
            pile: list[int] = getattr(self.players[player], zone)
            return pile
        return self.shared[zone]

    def _check_zone_name(self, zone: str) -> None:
        if zone not in ZONES:
            raise InvalidArgumentError(f"unknown zone {zone!r}")

    def _check_position(self, position: str) -> None:
        if position not in ("top", "bottom"):
            raise InvalidArgumentError(f"position must be top or bottom, not {position!r}")

    def _check_player(self, p: int) -> int:
        if not isinstance(p, int) or not 0 <= p < len(self.players):
            raise InvalidPlayerError(f"player {p} does not exist")
        return p

    def _next_live_player(self, p: int) -> int:
        """The next player in turn order still in the game (turn.rs next_live_player)."""
        n = len(self.players)
        q = p
        while True:
            q = (q + 1) % n
            if self.players[q].lost is None or q == p:
                return q

    def _check_live_player(self, p: int) -> int:
        p = self._check_player(p)
        if self.players[p].lost is not None:
            raise PlayerLeftError(f"player {p} has left the game")
        return p

    def _check_player_set(self, players: list[int]) -> list[int]:
        seen: list[int] = []
        for p in players:
            p = self._check_live_player(p)
            if p in seen:
                raise InvalidArgumentError(f"player {p} is listed twice")
            seen.append(p)
        return self._apnap(seen)

    def _apnap(self, players: list[int]) -> list[int]:
        """CR 101.4: the active player first, then the others in turn order."""
        n = len(self.players)
        return sorted(players, key=lambda p: (p - self.active) % n)

    def _opponents_of(self, p: int) -> list[int]:
        return self._apnap([q for q, st in enumerate(self.players) if q != p and st.lost is None])

    def _ensure_idle(self) -> None:
        if self.outcome is not None:
            raise GameOverError("the game is over")
        if self.pending is not None:
            raise DecisionPendingError(str(self.pending))

    def _check_id(self, obj_id: int) -> int:
        """python.rs reads ids as i64; a negative one names no object."""
        if isinstance(obj_id, int) and obj_id < 0:
            raise NoSuchObjectError(str(obj_id))
        return obj_id

    def _exists(self, obj_id: int) -> bool:
        try:
            self._slot_of(obj_id)
        except NoSuchObjectError:
            return False
        return True

    def _slot_of(self, obj_id: int) -> int:
        if not isinstance(obj_id, int) or obj_id < 0:
            raise NoSuchObjectError(str(obj_id))
        slot, generation = obj_id & SLOT_MASK, obj_id >> GENERATION_SHIFT
        if slot >= len(self.objects) or self.objects[slot].generation != generation:
            raise NoSuchObjectError(f"no object with id {obj_id} exists now (CR 400.7)")
        return slot


def _check_count(n: int, what: str) -> int:
    if n < 0:
        raise InvalidArgumentError(f"{what} must not be negative (got {n})")
    if n > MAX_COUNT:
        raise InvalidArgumentError(f"{what} of {n} is out of range")
    return n


def _validate_counter_kind(kind: str) -> None:
    ok = 0 < len(kind) <= 40 and all((ch.isascii() and ch.isalnum()) or ch in "+-/ '" for ch in kind)
    if not ok:
        raise InvalidArgumentError(f"{kind!r} is not a counter name")


def _change_counters(counters: dict[str, int], kind: str, delta: int) -> None:
    """Add (delta >= 0) or remove exactly -delta counters; removing more than there are is a
    CannotPayError and removes nothing (counters.rs)."""
    if delta >= 0:
        if delta:
            counters[kind] = counters.get(kind, 0) + delta
        return
    have = counters.get(kind, 0)
    if have < -delta:
        raise CannotPayError(f"only {have} {kind} counter(s), not {-delta}")
    if kind in counters:
        counters[kind] -= -delta
        if counters[kind] == 0:
            del counters[kind]


MODEL_ERRORS: dict[str, type[ModelError]] = {
    cls.__name__: cls
    for cls in (
        ModelError,
        UnknownCardError,
        InvalidPlayerError,
        NoSuchObjectError,
        WrongZoneError,
        InvalidArgumentError,
        IllegalActionError,
        CannotPayError,
        DecisionPendingError,
        NoDecisionPendingError,
        GameOverError,
        PlayerLeftError,
        InvalidAnswerError,
        UnscriptedDecisionError,
    )
}

__all__ = ["RefGame", "Decision", "CardFilter", "CARDS", "ModelError", "MODEL_ERRORS", "make_id", "slot_of_id"]
