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
  nothing (CR 733).
"""

from __future__ import annotations

import copy
import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from ref_rng import Rng, derive_seed

MAX_PLAYERS = 16
MAX_COUNT = 1_000_000
GENERATION_SHIFT = 32
SLOT_MASK = (1 << 32) - 1

ZONES = ("library", "hand", "graveyard", "battlefield", "stack", "exile", "command", "outside")
PER_PLAYER_ZONES = ("library", "hand", "graveyard", "outside")
PILES = ("library", "graveyard")  # ordered piles, listed top first


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


# ----- cards ------------------------------------------------------------------------------------

CARD_TYPES = ("artifact", "battle", "creature", "enchantment", "instant", "kindred", "land", "planeswalker", "sorcery")
SUPERTYPES = ("basic", "legendary", "ongoing", "snow", "world")
CARDS_JSON = Path(__file__).resolve().parents[1] / "rust" / "data" / "cards.json"


@dataclass(frozen=True)
class CardDef:
    """The printed characteristics a search looks at (CR 205): types, supertypes, subtypes."""

    name: str
    types: frozenset[str]
    supertypes: frozenset[str]
    subtypes: tuple[str, ...]

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
    return {c["name"]: CardDef.from_type_line(c["name"], c["type_line"]) for c in data["cards"]}


CARDS: dict[str, CardDef] = load_cards()


@dataclass(frozen=True)
class Quality:
    types: frozenset[str] = frozenset()
    not_types: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    subtypes: tuple[str, ...] = ()
    name: Optional[str] = None

    def is_empty(self) -> bool:
        return not (self.types or self.not_types or self.supertypes or self.subtypes or self.name is not None)

    def matches(self, c: CardDef) -> bool:
        return (
            self.types <= c.types
            and not (self.not_types & c.types)
            and self.supertypes <= c.supertypes
            and all(c.has_subtype(s) for s in self.subtypes)
            and (self.name is None or self.name == c.name)
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
            types, not_types, supers, subs = set(), set(), set(), []
            for word in alt.split():
                w = word.rstrip(",")
                lw = w.lower()
                if lw in ("card", "cards", "a", "an"):
                    continue
                if lw in CARD_TYPES:
                    types.add(lw)
                elif w.startswith("non") and w[3:].lstrip("-").lower() in CARD_TYPES:
                    not_types.add(w[3:].lstrip("-").lower())
                elif lw in SUPERTYPES:
                    supers.add(lw)
                elif w[:1].isascii() and w[:1].isupper() and all(ch.isalpha() or ch in "-'" for ch in w):
                    subs.append(w)
                else:
                    raise InvalidArgumentError(f"{w!r} is not a card type, supertype or capitalised subtype")
            alternatives.append(Quality(frozenset(types), frozenset(not_types), frozenset(supers), tuple(subs)))
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


@dataclass
class Decision:
    """A pending choice (decision.rs). ``kind`` is "choose_cards", "scry" or "yes_no"; ``purpose``
    is "discard", "search", "may_search" or "scry"; for a discard, ``discarder`` is whose hand."""

    player: int
    kind: str
    purpose: str
    options: list[int] = field(default_factory=list)
    min: int = 0
    max: int = 0
    cards: list[int] = field(default_factory=list)
    discarder: Optional[int] = None

    def validate(self, answer: Any) -> None:
        """Raises InvalidAnswerError unless ``answer`` is legal (``Decision::validate``)."""
        if self.kind == "choose_cards":
            if not isinstance(answer, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in answer):
                raise InvalidAnswerError(f"expected a list of card ids, got {answer!r}")
            if not self.min <= len(answer) <= self.max:
                raise InvalidAnswerError(f"chose {len(answer)} card(s), must choose {self.min}..{self.max}")
            seen = set()
            for c in answer:
                if c not in self.options:
                    raise InvalidAnswerError(f"{c} is not one of the options")
                if c in seen:
                    raise InvalidAnswerError(f"{c} is chosen twice")
                seen.add(c)
        elif self.kind == "scry":
            if not (isinstance(answer, tuple) and len(answer) == 2 and all(isinstance(pile, list) for pile in answer)):
                raise InvalidAnswerError(f"expected (top, bottom), got {answer!r}")
            top, bottom = answer
            if sorted(top + bottom) != sorted(self.cards):
                raise InvalidAnswerError("top and bottom together must hold each looked-at card exactly once")
        else:
            if not isinstance(answer, bool):
                raise InvalidAnswerError(f"expected True or False, got {answer!r}")

    def forced_answer(self) -> Any:
        """The only legal answer when there is exactly one, else None (``Decision::forced_answer``).
        Such decisions are never asked and consume no randomness."""
        if self.kind == "choose_cards":
            if self.min >= len(self.options):
                return list(self.options)  # nothing to choose, or everything must be chosen
            if self.max == 0:
                return []
        if self.kind == "scry" and not self.cards:
            return ([], [])
        return None

    def as_dict(self) -> dict[str, Any]:
        """The serialised form (serde of ``Decision``), as ``to_dict()["pending"]`` shows it."""
        purpose: Any = {"discard": {"player": self.discarder}} if self.purpose == "discard" else self.purpose
        if self.kind == "choose_cards":
            choice = {"type": "cards", "options": list(self.options), "min": self.min, "max": self.max}
        elif self.kind == "scry":
            choice = {"type": "scry", "cards": list(self.cards)}
        else:
            choice = {"type": "yes_no"}
        return {"player": self.player, "purpose": purpose, "choice": choice}


def first_answer(d: Decision) -> Any:
    """Policy "first": the first ``max`` options; scry keeps everything on top in order; yes."""
    if d.kind == "choose_cards":
        return list(d.options[: d.max])
    if d.kind == "scry":
        return (list(d.cards), [])
    return True


def random_answer(d: Decision, rng: Rng) -> Any:
    """Policy "random" (policy.rs ``random_answer``). Cards: a count uniform in min..=max, then that
    many by a partial Fisher–Yates from the front. Scry: each card (top first) to the bottom on a
    coin flip, then each pile shuffled. Yes/no: a coin flip."""
    if d.kind == "choose_cards":
        hi = min(d.max, len(d.options))
        lo = min(d.min, hi)
        k = lo + rng.below(hi - lo + 1)
        pool = list(d.options)
        for i in range(k):
            j = i + rng.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
    if d.kind == "scry":
        top, bottom = [], []
        for c in d.cards:
            (bottom if rng.below(2) == 1 else top).append(c)
        rng.shuffle(top)
        rng.shuffle(bottom)
        return (top, bottom)
    return rng.below(2) == 1


@dataclass
class Seat:
    policy: Any  # "random" | "first" | "manual" | callable(game, decision) -> answer
    rng: Rng
    script: deque = field(default_factory=deque)


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
        if not self.asked:
            self.asked = True
            options = [g.objects[s].id for s in hand]
            return Decision(chooser, "choose_cards", "discard", options=options, min=k, max=k, discarder=self.player)
        cards = g._take_answer()
        g._discard_slots(self.player, [slot_of_id(c) for c in cards], by=chooser, at_random=False)
        return None


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
        if self.stage == "start" and self.optional:
            self.stage = "asked_whether"  # "you may search" (CR 701.23g)
            return Decision(self.searcher, "yes_no", "may_search")
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
        return Decision(self.searcher, "choose_cards", "search", options=options, min=lo, max=hi)

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
                o.tapped = self.tapped
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
        if len(self.piles) < len(self.players):
            p = self.players[len(self.piles)]
            lib = g.players[p].library
            k = min(self.amount, len(lib))
            looked = [g.objects[s].id for s in reversed(lib[len(lib) - k :])]  # top first
            self.asked = True
            return Decision(p, "scry", "scry", cards=looked)
        for p, (top, bottom) in zip(self.players, self.piles):
            lib = g.players[p].library
            del lib[len(lib) - (len(top) + len(bottom)) :]
            # Stored bottom first: the bottom pile's last card goes lowest, the top pile's first
            # card highest.
            lib[0:0] = list(reversed(bottom))
            lib.extend(reversed(top))
        for p, (top, bottom) in zip(self.players, self.piles):
            g._event(kind="scried", player=p, amount=self.amount, looked=len(top) + len(bottom), to_bottom=len(bottom))
        return None


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
        g = cls(len(decks), seed)
        if not 0 < starting_life <= MAX_COUNT:
            raise InvalidArgumentError(f"starting life must be from 1 to {MAX_COUNT}")
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
        self._ensure_idle()
        self.active = self._check_player(p)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def zone(self, zone: str, player: int = 0) -> list[int]:
        p = self._check_player(player)
        if zone not in ZONES:
            raise InvalidArgumentError(f"unknown zone {zone!r}")
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
        o = self.objects[self._slot_of(obj_id)]
        return ObjectView(o.id, o.card.name, o.owner, o.controller, o.zone, o.tapped, dict(o.counters))

    def name(self, obj_id: int) -> str:
        return self.objects[self._slot_of(obj_id)].card.name

    def object_ids(self) -> list[int]:
        return [o.id for o in self.objects]

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
            "pending": self.pending.as_dict() if self.pending else None,
            "outcome": copy.deepcopy(self.outcome),
        }

    def clone(self) -> "RefGame":
        return copy.deepcopy(self)

    def clear_events(self) -> None:
        self.events.clear()

    # ----- answering arrangements ------------------------------------------------------------

    def set_policy(self, p: int, policy: Any) -> None:
        p = self._check_player(p)
        if not callable(policy) and policy not in ("random", "first", "manual"):
            raise InvalidArgumentError(f"unknown policy {policy!r}")
        self.seats[p].policy = policy

    def policy(self, p: int) -> str:
        pol = self.seats[self._check_player(p)].policy
        return "callback" if callable(pol) else pol

    def script(self, p: int, answers: list[Any]) -> None:
        self.seats[self._check_player(p)].script.extend(answers)

    def script_len(self, p: int) -> int:
        return len(self.seats[self._check_player(p)].script)

    def clear_script(self, p: int) -> None:
        self.seats[self._check_player(p)].script.clear()

    # ----- building positions ----------------------------------------------------------------

    def add_cards(self, player: int, zone: str, names: list[str], position: str = "top") -> list[int]:
        """New cards, slots in the order listed. Names are listed top first: with "top" the first
        name ends on top, with "bottom" the last name ends at the very bottom."""
        self._ensure_idle()
        owner = self._check_player(player)
        self._check_zone_name(zone)
        self._check_position(position)
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
        if position == "top":
            pile.extend(reversed(slots))
        else:
            pile[0:0] = list(reversed(slots))
        return [make_id(s, 0) for s in slots]

    def set_life(self, p: int, life: int) -> None:
        self._ensure_idle()
        p = self._check_live_player(p)
        if abs(life) > MAX_COUNT:
            raise InvalidArgumentError(f"life {life} is out of range")
        before = self.players[p].life
        self.players[p].life = life
        self._event(kind="life_changed", player=p, **{"from": before}, to=life)
        self._check_state_based_actions()

    def add_player_counters(self, p: int, kind: str, n: int = 1) -> None:
        self._change_player_counters(p, kind, n)

    def remove_player_counters(self, p: int, kind: str, n: int = 1) -> None:
        self._change_player_counters(p, kind, -n)

    def _change_player_counters(self, p: int, kind: str, delta: int) -> None:
        self._ensure_idle()
        p = self._check_live_player(p)
        _validate_counter_kind(kind)
        _check_count(abs(delta), "counter change")
        _change_counters(self.players[p].counters, kind, delta)
        self._event(kind="player_counters_changed", player=p, counter=kind, delta=delta)
        self._check_state_based_actions()

    def add_counters(self, obj_id: int, kind: str, n: int = 1) -> None:
        self._change_object_counters(obj_id, kind, n)

    def remove_counters(self, obj_id: int, kind: str, n: int = 1) -> None:
        self._change_object_counters(obj_id, kind, -n)

    def _change_object_counters(self, obj_id: int, kind: str, delta: int) -> None:
        self._ensure_idle()
        slot = self._slot_of(obj_id)
        _validate_counter_kind(kind)
        _check_count(abs(delta), "counter change")
        _change_counters(self.objects[slot].counters, kind, delta)
        self._event(kind="object_counters_changed", card=obj_id, counter=kind, delta=delta)

    def set_tapped(self, obj_id: int, tapped: bool = True) -> None:
        self._ensure_idle()
        slot = self._slot_of(obj_id)
        if self.objects[slot].zone != "battlefield":
            raise WrongZoneError(f"{obj_id} is not on the battlefield")
        self.objects[slot].tapped = tapped

    def concede(self, p: int) -> None:
        """CR 104.3a."""
        self._ensure_idle()
        p = self._check_live_player(p)
        self._lose(p, "conceded")
        self._check_state_based_actions()

    # ----- actions ----------------------------------------------------------------------------

    def draw(self, p: int, n: int = 1) -> list[int]:
        """CR 121.2: one card at a time. From an empty library: marked, loses at SBA (121.4)."""
        self._ensure_idle()
        p = self._check_live_player(p)
        n = _check_count(n, "number of cards to draw")
        drawn = [c for c in (self._draw_one(p) for _ in range(n)) if c is not None]
        self._check_state_based_actions()
        return drawn

    def mill(self, p: int, n: int) -> list[int]:
        """CR 701.17a-b: as many as possible. Result: new ids, former library-top first."""
        self._ensure_idle()
        p = self._check_live_player(p)
        n = _check_count(n, "number of cards to mill")
        milled = self._mill_cards(p, n)
        self._check_state_based_actions()
        return milled

    def mill_each(self, players: list[int], n: int) -> list[list[int]]:
        """Simultaneous mills, performed in APNAP order; results in the order given."""
        self._ensure_idle()
        order = self._check_player_set(players)
        n = _check_count(n, "number of cards to mill")
        by_player = {p: self._mill_cards(p, n) for p in order}
        self._check_state_based_actions()
        return [by_player[p] for p in players]

    def mill_opponents(self, p: int, n: int) -> list[list[int]]:
        """Each opponent still in the game, in APNAP order (Fractured Sanity)."""
        p = self._check_live_player(p)  # checked before the game is known to be idle, as mill.rs does
        return self.mill_each(self._opponents_of(p), n)

    def pay_mill_cost(self, p: int, n: int) -> list[int]:
        """CR 701.17b: a mill cost can't be paid with fewer cards in the library."""
        self._ensure_idle()
        p = self._check_live_player(p)
        n = _check_count(n, "number of cards to mill")
        if len(self.players[p].library) < n:
            raise CannotPayError(f"player {p} can't mill {n}")
        milled = self._mill_cards(p, n)
        self._check_state_based_actions()
        return milled

    def discard(self, p: int, n: int = 1, *, random: bool = False, chooser: Optional[int] = None) -> Optional[list[int]]:
        """CR 701.9. None when stopped at a decision."""
        self._ensure_idle()
        p = self._check_live_player(p)
        count = _check_count(n, "number of cards to discard")
        if random and chooser is not None:
            raise InvalidArgumentError("a random discard has no chooser")
        if chooser is not None:
            frame = DiscardFrame(p, count, "chosen_by", self._check_live_player(chooser))
        else:
            frame = DiscardFrame(p, count, "random" if random else "choose")
        return self._perform(frame)

    def shuffle(self, p: int) -> None:
        """CR 701.24a; a library of 0 or 1 cards is still shuffled (701.24e)."""
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
        flt = CardFilter.parse(description)
        if to not in ("hand", "battlefield", "graveyard", "exile", "library_top"):
            raise InvalidArgumentError(f"unknown search destination {to!r}")
        if tapped and to != "battlefield":
            raise InvalidArgumentError("only cards put onto the battlefield can enter tapped")
        self._ensure_idle()
        searcher = self._check_live_player(p)
        owner = self._check_live_player(p if library is None else library)
        count = _check_count(count, "number of cards to find")
        if count == 0:
            raise InvalidArgumentError("a search must look for at least one card")
        return self._perform(SearchFrame(searcher, owner, flt, count, to, tapped, reveal, shuffle, optional))

    def reveal(self, p: int, ids: list[int]) -> None:
        """CR 701.20: nothing moves (701.20b)."""
        self._ensure_idle()
        p = self._check_live_player(p)
        for i, c in enumerate(ids):
            self._slot_of(c)
            if c in ids[:i]:
                raise InvalidArgumentError(f"card {c} is listed twice")
        self._event(kind="revealed", player=p, cards=list(ids))

    def move(self, obj_id: int, zone: str, *, position: str = "top", tapped: bool = False, controller: Optional[int] = None) -> int:
        """Moves an object (to its owner's zone for per-player zones); it becomes a new object."""
        self._check_zone_name(zone)
        self._check_position(position)
        self._ensure_idle()
        slot = self._slot_of(obj_id)
        if zone == "stack":
            raise IllegalActionError("objects get onto the stack by being cast")
        new_controller = None
        if controller is not None:
            if zone != "battlefield":
                raise IllegalActionError("only a permanent entering the battlefield gets a controller")
            new_controller = self._check_live_player(controller)
        if tapped and zone != "battlefield":
            raise IllegalActionError("only a permanent entering the battlefield can enter tapped")
        o = self.objects[slot]
        from_zone = self._zone_ref(o)
        new_id = self._move_slot(slot, zone, position)
        o.tapped = tapped
        if new_controller is not None:
            o.controller = new_controller
        self._event(kind="moved", from_id=obj_id, card=new_id, **{"from": from_zone}, to=self._zone_ref(o))
        self._check_state_based_actions()
        return new_id

    def scry(self, p: int, n: int) -> None:
        self.scry_each([p], n)

    def scry_each(self, players: list[int], n: int) -> None:
        """CR 701.22; scry 0 is no scry event (701.22b)."""
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
        if self.pending is None:
            raise NoDecisionPendingError("no decision is pending")
        self.pending.validate(answer)
        snapshot = copy.deepcopy(self.__dict__)
        self.pending = None
        self._answer = answer
        try:
            return self._run()
        except ModelError:
            self.__dict__ = snapshot
            raise

    def _perform(self, frame: Frame) -> Optional[list[int]]:
        snapshot = copy.deepcopy(self.__dict__)
        self._output = []
        self._frames.append(frame)
        try:
            return self._run()
        except ModelError:
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

    def _auto_answer(self, d: Decision) -> Any:
        seat = self.seats[d.player]
        if seat.script:
            a = seat.script.popleft()
            d.validate(a)
            return a
        if self.strict:
            raise UnscriptedDecisionError(str(d))
        if seat.policy == "manual":
            return None
        if seat.policy == "first":
            return first_answer(d)
        if seat.policy == "random":
            return random_answer(d, seat.rng)
        a = seat.policy(self, d)  # a Python callable
        d.validate(a)
        return a

    def _take_answer(self) -> Any:
        a, self._answer = self._answer, None
        return a

    # ----- state-based actions (CR 704.5a-c, 104.2a, 104.4a) ---------------------------------

    def _check_state_based_actions(self) -> None:
        if self.outcome is not None:
            return
        for p, st in enumerate(self.players):
            if st.lost is not None:
                continue
            if st.life <= 0:
                self._lose(p, "life")
            elif st.drew_from_empty:
                self._lose(p, "empty_library")
            elif st.counters.get("poison", 0) >= 10:
                self._lose(p, "poison")
        for st in self.players:
            st.drew_from_empty = False
        remaining = [p for p, st in enumerate(self.players) if st.lost is None]
        if len(remaining) <= 1:
            self._event(kind="game_over", winners=list(remaining))
            self.outcome = {"winners": remaining, "losers": [{"player": p, "reason": r} for p, r in self.losers]}

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
            return getattr(self.players[player], zone)
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
