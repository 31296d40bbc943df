"""The native core of mtgsim (Rust, via PyO3). Everything here is re-exported by ``mtgsim``.

Conventions:

* Players are numbered from 0; player 0 starts.
* Object ids are ints. A card that changes zones becomes a new object with a new id
  (CR 400.7); an old id then finds nothing (:class:`~mtgsim.errors.NoSuchObjectError`).
* Libraries and graveyards are listed top card first; other zones in arrival order.
* Actions that may stop for a decision return ``None`` when they stop: ``Game.pending`` then
  says who must choose what, and ``Game.answer`` carries on. A decision with exactly one legal
  answer is never asked.
* Every action that raises has changed nothing (CR 733).
"""

import os
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, Union, final

__all__ = [
    "BUILD",
    "Action",
    "ActionSpace",
    "BatchResult",
    "CardDB",
    "CardDef",
    "Decision",
    "Game",
    "GameBatch",
    "GameObject",
    "LOOP_ACTIONS",
    "MAX_TURNS",
    "Op",
    "Rng",
    "__version__",
    "_floor_typecycling",
    "_simulate",
    "_simulate_from",
    "card",
    "card_names",
    "derive_seed",
]

__version__: str
#: How the extension was built: "plain", or "profile-guided" by .ci/build-pgo (as release wheels are).
BUILD: str
#: The most turns a simulated game may last.
MAX_TURNS: int
#: Actions in one step after which the step is taken to be a loop of mandatory actions (CR 104.4b).
LOOP_ACTIONS: int

_ZoneName = Literal["library", "hand", "graveyard", "battlefield", "stack", "exile", "command", "outside"]
_StepName = Literal[
    "untap",
    "upkeep",
    "draw",
    "precombat_main",
    "begin_combat",
    "declare_attackers",
    "declare_blockers",
    "combat_damage",
    "end_combat",
    "postcombat_main",
    "end",
    "cleanup",
]
#: A target: an object id, or a player as ``{"player": p}`` or ``("player", p)``.
_Target = Union[int, dict[str, int], tuple[str, int]]
_Destination = Literal["hand", "battlefield", "graveyard", "exile", "library_top"]
_PolicyName = Literal["random", "first", "goldfish", "manual"]
#: An answer: a list of ids (choose cards), a ``(top, bottom)`` pair of id lists or a dict with
#: those keys (scry; both listed top first), or a bool (yes/no).
_Answer = Union[
    Sequence[int], tuple[Sequence[int], Sequence[int]], dict[str, Sequence[int]], bool, int, Sequence[_Target]
]
_Callback = Callable[["Game", "Decision"], _Answer]

class _HasCards(Protocol):
    def cards(self) -> list[str]: ...

@final
class CardDef:
    """The printed characteristics of a card (immutable)."""

    def __new__(
        cls,
        name: str,
        mana_cost: str,
        type_line: str,
        oracle_text: str = "",
        power: str | None = None,
        toughness: str | None = None,
        loyalty: str | None = None,
    ) -> CardDef:
        """Validates the fields: InvalidCardError names the card and the field;
        MalformedCostError for a bad mana cost."""

    @property
    def name(self) -> str: ...
    @property
    def mana_cost(self) -> str:
        """The mana cost as printed, e.g. ``"{3}{B}"``; ``""`` for lands."""
    @property
    def mana_value(self) -> int:
        """CR 202.3: X counts as 0."""
    @property
    def colors(self) -> list[str]:
        """Color letters in WUBRG order, from the mana cost (CR 202.2)."""
    @property
    def types(self) -> list[str]: ...
    @property
    def supertypes(self) -> list[str]: ...
    @property
    def subtypes(self) -> list[str]: ...
    @property
    def power(self) -> str | None: ...
    @property
    def toughness(self) -> str | None: ...
    @property
    def loyalty(self) -> str | None: ...
    @property
    def type_line(self) -> str: ...
    @property
    def text(self) -> str:
        """Oracle text."""
    @property
    def unsupported(self) -> list[str]:
        """Oracle text this engine doesn't model yet (combat keywords, ...): reported, never
        silently dropped."""
    @property
    def is_token(self) -> bool:
        """A token's definition (CR 111.4): created by effects, never in a deck."""
    def to_dict(self) -> dict[str, Any]:
        """The card as a record of the card format (``docs/card-format.md``), rules included;
        ``CardDef.from_dict`` reads it back to an equal card."""
    @staticmethod
    def from_dict(record: dict[str, Any]) -> CardDef:
        """A card from a record of the card format. InvalidCardError names the card and the
        field (``rules.spell[0]``) of anything invalid."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    @staticmethod
    def _from_json(text: str) -> CardDef: ...

@final
class CardDB:
    """A set of card definitions by name — the built-in cards unless ``builtin=False`` — to
    which users add their own, with the same power as the built-ins. Give it to ``Game(...,
    db=)`` or ``Game.from_decks(..., db=)``; ``Game.add_cards`` then finds cards in it."""

    def __new__(cls, *, builtin: bool = True) -> CardDB: ...
    def add(self, records: dict[str, Any] | Sequence[dict[str, Any]]) -> list[CardDef]:
        """Adds cards given as records of the card format. Nothing is added if any is invalid:
        InvalidCardError names the card and the field; a name already defined is an error."""
    def load(self, path: str | os.PathLike[str]) -> list[str]:
        """Adds the cards of a card file (``{"format": "mtgsim-cards", "version": 1, "cards":
        [...]}``); returns their names."""
    def import_cards(self, records: dict[str, Any] | Sequence[dict[str, Any]]) -> list[tuple[str, list[str]]]:
        """Imports cards in the shape of common public card data (name, mana_cost, type_line,
        oracle_text, power, toughness, loyalty; other fields ignored), recognising from the
        Oracle text the keyword abilities the engine implements: Cycling [cost] (mana or "Pay N
        life"), [type]cycling, basic landcycling, Kicker [cost], Kicker [A] and/or [B],
        Multikicker, Sticker kicker, Flash, Flashback, "enters tapped". Returns, per card, the
        text the engine can't model (evergreen keywords such as Flying are recorded and
        reported here too)."""
    def __getitem__(self, name: str, /) -> CardDef: ...
    def get(self, name: str) -> CardDef:
        """UnknownCardError for a name not in the database (naming the card meant when the name
        differs from one only in case or accents)."""
    def __contains__(self, name: str, /) -> bool: ...
    def __len__(self) -> int: ...
    def names(self) -> list[str]:
        """The cards' names (tokens excluded), in the order added."""
    def tokens(self) -> list[str]:
        """The token definitions' names."""
    def to_json(self) -> str:
        """The whole database as a card file."""
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    @staticmethod
    def _from_json(text: str) -> CardDB: ...

@final
class GameObject:
    """A snapshot of one object as it is now (not a live handle)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def card(self) -> CardDef: ...
    @property
    def owner(self) -> int: ...
    @property
    def controller(self) -> int:
        """Meaningful on the battlefield and the stack; elsewhere the owner."""
    @property
    def zone(self) -> _ZoneName: ...
    @property
    def tapped(self) -> bool: ...
    @property
    def counters(self) -> dict[str, int]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[int, str, int, int, str, bool, list[tuple[str, int]]]]: ...
    @staticmethod
    def _restore(
        id: int, card: str, owner: int, controller: int, zone: str, tapped: bool, counters: Sequence[tuple[str, int]]
    ) -> GameObject: ...

@final
class Decision:
    """A choice the rules give a player, waiting for an answer."""

    @property
    def player(self) -> int:
        """Who decides."""
    @property
    def kind(self) -> Literal["choose_cards", "scry", "yes_no", "number", "targets", "action", "modes", "order"]:
        """order: put every option in an order (answer with all the ids, in that order)."""
    @property
    def purpose(
        self,
    ) -> Literal[
        "discard",
        "search",
        "may_search",
        "scry",
        "kicker",
        "multikicker",
        "x",
        "targets",
        "pay_mana",
        "sticker",
        "put_from_hand",
        "put_from_milled",
        "priority",
        "modes",
        "order_triggers",
        "order_replacements",
        "may",
        "discard_to_library",
        "cost_choice",
        "legend_rule",
        "begin_on_battlefield",
    ]:
        """order_triggers: one player's simultaneous triggered abilities, the first listed put on
        the stack first (CR 603.3b); order_replacements: the permanents whose replacement
        effects change one event, first applied first (CR 616.1); may: whether to do a "you
        may" instruction or pay a "you may pay" cost; discard_to_library: whether a discarded
        card goes on top of the library instead (Library of Leng); cost_choice: the permanent
        to sacrifice or card to discard for a cost; legend_rule: the legendary permanent to keep
        (CR 704.5j); begin_on_battlefield: which cards in an opening hand begin the game on the
        battlefield (Leyline of the Void, CR 103.6a)."""
    @property
    def options(self) -> list[Any]:
        """choose_cards: the ids to choose from; scry: the cards looked at (top first);
        targets: object ids and ``{"player": p}`` entries; order: the ids to order; action:
        ``{"action": "pass"}``, ``{"action": "play_land", "card": id}``, ``{"action": "cast",
        "card": id}``, ``{"action": "activate", "source": id, "index": i}`` (answer with the
        index)."""
    @property
    def min(self) -> int:
        """choose_cards/targets: the fewest to choose; number: the smallest."""
    @property
    def max(self) -> int:
        """choose_cards/targets: the most to choose; number: the largest."""
    @property
    def cards(self) -> list[int]:
        """scry: the cards looked at, top of the library first."""
    @property
    def prompt(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    @staticmethod
    def _from_json(text: str) -> Decision: ...

@final
class Action:
    """One step toward answering the pending decision (from ``Game.legal_actions``)."""

    @property
    def kind(self) -> Literal["priority", "yes", "no", "number", "pick", "pick_player", "pick_mode", "bottom", "done"]: ...
    @property
    def text(self) -> str:
        """A readable description: "cast Fractured Sanity", "kick Monstrous War-Leech with {U}",
        "put Island on the bottom"."""
    def to_dict(self) -> dict[str, Any]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[str, str]]: ...
    @staticmethod
    def _from_json(text: str, description: str) -> Action: ...

@final
class GameBatch:
    """Many single-agent games stepped together (use ``mtgsim.GameBatch``)."""

    def __new__(
        cls,
        decks: Sequence[Sequence[str] | _HasCards],
        games: int,
        seed: int = 0,
        seat: int = 0,
        opponent: str = "goldfish",
        extra: int = 64,
        db: CardDB | None = None,
    ) -> GameBatch: ...
    @property
    def space(self) -> ActionSpace: ...
    def __len__(self) -> int: ...
    def game(self, i: int) -> Game: ...
    def _step(self, codes: Sequence[int]) -> tuple[bytes, bytes]: ...
    def _observe(self) -> tuple[bytes, bytes, bytes]: ...

@final
class ActionSpace:
    """A fixed numbering of every action a game configuration can offer. Layout (N = slots, P =
    players): 0 done, 1 yes, 2 no, 3 pass; pick object slot s: 4+s; put slot s on the bottom:
    4+N+s; play land from slot s: 4+2N+s; cast slot s: 4+3N+s; activate ability i (< 4) of slot
    s: 4+4N+4s+i; then pick player p, mode m (< 16), number n (<= 64)."""

    def __new__(cls, slots: int, players: int) -> ActionSpace: ...
    @property
    def slots(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def size(self) -> int: ...
    def __len__(self) -> int: ...
    def encode(self, action: Action) -> int: ...
    def decode(self, code: int, game: Game) -> Action: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[int, int]]: ...

@final
class Op:
    """One operation for :meth:`Game.run_batch`."""

    @staticmethod
    def draw(player: int, n: int = 1) -> Op: ...
    @staticmethod
    def mill(player: int, n: int) -> Op: ...
    @staticmethod
    def mill_opponents(player: int, n: int) -> Op: ...
    @staticmethod
    def discard(player: int, n: int = 1, random: bool = False) -> Op: ...
    @staticmethod
    def shuffle(player: int) -> Op: ...
    @staticmethod
    def search(
        player: int,
        description: str = "card",
        count: int = 1,
        to: _Destination = "hand",
        reveal: bool = False,
        shuffle: bool = True,
    ) -> Op: ...
    @staticmethod
    def scry(player: int, n: int) -> Op: ...
    @staticmethod
    def cast(card: int, kick: bool | int | Sequence[bool | int] | None = None) -> Op:
        """The player with priority casts ``card``, paying automatically."""
    @staticmethod
    def resolve_top() -> Op: ...
    @staticmethod
    def activate(source: int, index: int = 0) -> Op:
        """The player with priority activates ability ``index`` of ``source``."""
    @staticmethod
    def cycle(card: int) -> Op:
        """The player with priority cycles ``card`` (typecycling included)."""
    @staticmethod
    def play_turn() -> Op:
        """The players' policies play until the current turn ends."""
    @staticmethod
    def cost_of(card: int, kick: bool | int | Sequence[bool | int] | None = None) -> Op:
        """Computes the total cost and whether it can be paid, without casting (a card with no
        mana cost can't be)."""
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    @staticmethod
    def _from_json(text: str) -> Op: ...

@final
class BatchResult:
    """What :meth:`Game.run_batch` did."""

    def __new__(cls, repetitions: int, operations: int, games_over: int, library_cards: int) -> BatchResult: ...
    @property
    def repetitions(self) -> int: ...
    @property
    def operations(self) -> int: ...
    @property
    def games_over(self) -> int: ...
    @property
    def library_cards(self) -> int:
        """Sum over repetitions of every library's final size."""
    def __reduce__(self) -> tuple[Any, tuple[int, int, int, int]]: ...

@final
class Rng:
    """The engine's portable generator (xoshiro256++ seeded by SplitMix64)."""

    def __new__(cls, seed: int) -> Rng: ...
    def next_u64(self) -> int: ...
    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
    def shuffle(self, items: list[Any]) -> None:
        """Shuffles in place exactly as the engine shuffles a library."""
    def __reduce__(self) -> tuple[Any, tuple[tuple[int, int, int, int]]]: ...
    @staticmethod
    def _from_state(state: Sequence[int]) -> Rng: ...

@final
class Game:
    """A game of Magic: players, zones, objects, the pending decision and the event log."""

    def __new__(cls, num_players: int = 2, seed: int | None = None, *, db: CardDB | None = None) -> Game:
        """An empty game (20 life each) for building positions; ``add_cards`` finds cards in
        ``db`` (the built-in cards by default). ``seed=None`` is seed 0: a game is random only
        through its seed, so the same seed always plays the same game."""
    @staticmethod
    def from_decks(
        decks: Sequence[Sequence[str] | _HasCards],
        seed: int | None = None,
        *,
        starting_life: int = 20,
        hand_size: int = 7,
        db: CardDB | None = None,
        policies: Sequence[_PolicyName | _Callback] | None = None,
    ) -> Game:
        """Libraries from decks — lists of card names, or ``mtgsim.DeckList`` objects (their
        main decks) — shuffled in player order by the game's generator; then each player in turn
        order draws a hand (``seed=None`` is seed 0). Cards come from ``db`` (the built-in cards
        by default); a deck has at most 1,000,000 cards. A card that
        may begin the game on the battlefield (CR 103.6a) is offered to its owner as a
        "begin_on_battlefield" decision, answered by the players' policies: ``policies`` (one
        per player, first players first, as ``set_policy`` takes them) are set before the deal;
        players without one keep the default (random). A "manual" player's choice is left
        pending."""
    @property
    def num_players(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def active_player(self) -> int: ...
    @active_player.setter
    def active_player(self, player: int) -> None: ...

    # positions
    def add_cards(self, player: int, zone: _ZoneName, names: Sequence[str], position: Literal["top", "bottom"] = "top") -> list[int]:
        """New cards owned by ``player``. Names are listed top first: with "top" the first name
        ends on top, with "bottom" the last name ends at the very bottom.

        This builds a position: cards are placed, not moved, so nothing triggers and no "as
        enters" effect applies — a land that enters tapped is untapped, and a planeswalker has
        no loyalty counters (add them with ``add_counters(id, "loyalty", n)``, or it is put into
        its owner's graveyard when state-based actions are next checked, CR 704.5i). Use
        ``move`` for a card that enters the battlefield."""
    def library(self, player: int) -> list[int]:
        """Top card first."""
    def hand(self, player: int) -> list[int]: ...
    def graveyard(self, player: int) -> list[int]:
        """Top card first."""
    def outside(self, player: int) -> list[int]: ...
    def battlefield(self) -> list[int]: ...
    def exile(self) -> list[int]: ...
    def stack(self) -> list[int]:
        """Top of the stack first."""
    def command(self) -> list[int]: ...
    def zone(self, zone: _ZoneName, player: int = 0) -> list[int]: ...
    def object(self, id: int) -> GameObject: ...
    def name(self, id: int) -> str:
        """The name of the object with this id (which must still exist)."""
    def card_name(self, id: int) -> str:
        """The name of the card behind an id even if that object has since changed zones:
        for reading event logs."""
    def life(self, player: int) -> int: ...
    def set_life(self, player: int, life: int) -> None: ...
    def player_counters(self, player: int) -> dict[str, int]: ...
    def add_player_counters(self, player: int, kind: str, n: int = 1) -> None: ...
    def remove_player_counters(self, player: int, kind: str, n: int = 1) -> None:
        """Removing more than the player has is an error and removes nothing."""
    def add_counters(self, id: int, kind: str, n: int = 1) -> None: ...
    def remove_counters(self, id: int, kind: str, n: int = 1) -> None: ...
    def set_tapped(self, id: int, tapped: bool = True) -> None: ...
    def concede(self, player: int) -> None:
        """CR 104.3a: at any time, even during a decision. In a multiplayer game that goes on,
        the player's cards leave the game (CR 800.4a), and another player's spell or ability
        waiting on them to discard, search, scry, or order or target their triggers goes on without
        them; any other action waiting on their decision stops where it is. Another player's
        pending choice no longer offers what left; a spell or ability being cast or activated
        whose choice then has nothing legal left is reversed, as if never proposed (CR 601.2)."""

    # actions
    def draw(self, player: int, n: int = 1) -> list[int]:
        """CR 121. Drawing from an empty library marks the player, who loses when state-based
        actions are performed (after every action, CR 704.5b). Returns the new ids in hand."""
    def mill(self, player: int, n: int) -> list[int] | None:
        """CR 701.17: as many as possible. Returns the milled cards' new ids (former top first;
        where they went — exile under Rest in Peace). Replacement effects change the count
        (Bruvac, The Water Crystal); when several apply, the milling player orders them, a
        decision ("order_replacements", CR 616.1), so this returns None if it stops there."""
    def mill_each(self, players: Sequence[int], n: int) -> list[list[int]] | None:
        """The players mill at the same time; results in the order given (None: stopped at a
        decision, see ``mill``)."""
    def mill_opponents(self, player: int, n: int) -> list[list[int]] | None:
        """Each opponent of ``player`` mills ``n`` (APNAP order; None: stopped at a decision)."""
    def pay_mill_cost(self, player: int, n: int) -> list[int] | None:
        """Milling as a cost: raises CannotPayError if the library is short (CR 701.17b).
        Replacements that change how many cards are milled apply (CR 118.11, 614.1a); returns
        None when stopped for their order (CR 616.1)."""
    def discard(self, player: int, n: int = 1, *, random: bool = False, chooser: int | None = None) -> list[int] | None:
        """CR 701.9: chosen by the player, at random, or by ``chooser``. Returns the discarded
        cards' new ids, or None when stopped at a decision."""
    def shuffle(self, player: int) -> None: ...
    def search(
        self,
        player: int,
        description: str = "card",
        *,
        count: int = 1,
        to: _Destination = "hand",
        reveal: bool = False,
        shuffle: bool = True,
        optional: bool = False,
        library: int | None = None,
        tapped: bool = False,
    ) -> list[int] | None:
        """CR 701.23. ``description``: "card", "basic land", "Island", "instant or sorcery",
        "nonland", "name=Card Name" ... A stated quality may go unfound (701.23b); "card" must be
        found if the library has one (701.23d). Returns the found cards' ids where they ended
        up, or None when stopped at a decision."""
    def reveal(self, player: int, cards: Sequence[int]) -> None: ...
    def move(
        self,
        id: int,
        zone: _ZoneName,
        *,
        position: Literal["top", "bottom"] = "top",
        tapped: bool = False,
        controller: int | None = None,
    ) -> int:
        """Moves an object; returns its new id (CR 400.7). Not playing a land."""
    def scry(self, player: int, n: int) -> None:
        """CR 701.22. Scry 0 is no scry event. Check ``pending`` afterwards."""
    def scry_each(self, players: Sequence[int], n: int) -> None:
        """CR 701.22c: decisions in APNAP order, then all cards move at once."""

    # turns, priority, casting
    @property
    def step(self) -> _StepName: ...
    @property
    def priority_player(self) -> int | None:
        """Who has priority (CR 117); None between steps."""
    def pass_priority(self) -> None:
        """The player with priority passes. When all have passed in succession the top of the
        stack resolves (CR 608) or, with an empty stack, the game moves to the next step."""
    def resolve_top(self) -> None:
        """Everyone passes until the top object of the stack has resolved."""
    def advance_to(self, step: _StepName) -> None:
        """Everyone passes with an empty stack until the game reaches ``step``. A step that
        doesn't end after ``LOOP_ACTIONS`` passes is a loop of mandatory actions (CR 104.4b):
        ``IllegalActionError``, and the game is as it was."""
    def next_turn(self) -> None:
        """Passes through the rest of the turn to the next turn's upkeep (a loop of mandatory
        actions is refused as by ``advance_to``)."""
    def cast(
        self,
        card: int,
        *,
        kick: bool | int | Sequence[bool | int] | None = None,
        x: int | None = None,
        targets: Sequence[_Target | Sequence[_Target]] | None = None,
        payment: Sequence[int] | None = None,
        without_paying: bool = False,
        flashback: bool = False,
        sticker: bool | None = None,
        modes: Sequence[int] | None = None,
        discard: int | None = None,
    ) -> int | None:
        """The player with priority casts ``card`` (CR 601.2), from hand (or from the
        graveyard with ``flashback`` or where a permission allows). ``discard``: the card to
        discard for an additional "discard a card" cost. ``kick``: whether (or how many
        times, for multikicker) to pay each kicker ability — one value for the first, or a list
        (printed [A], [B], then granted sticker kicker). ``targets``: one entry per target of the
        spell. ``payment``: the mana sources to tap; automatic if omitted. ``modes``: the modes of
        a modal spell by index (CR 700.2; spree modes add their costs). ``sticker``: put a
        sticker on it for each sticker kicker paid (CR 702.33h). Choices left out are decisions
        for the caster; a choice the spell doesn't offer (modes for a spell without modes, a
        sticker without sticker kicker, a discard without that cost, X without X) raises
        InvalidArgumentError. A multikicker is paid at most 64 times (an engine limit: CR
        702.33c sets none; more raises InvalidArgumentError, and the "kick" decision offers up
        to 64, as an X decision does). Returns the spell's id on the stack, or None when
        stopped at a decision. An illegal cast raises and changes nothing (CR 733)."""
    def play(self, until: str | int = "game_over", *, max_actions: int = 1000000) -> None:
        """Plays on: whoever has priority chooses an action (pass, play a land, cast a spell,
        activate an ability) with their policy; a manual player stops the game at an "action" decision. ``until``:
        "game_over", "end_of_turn", a step name (its next beginning) or a turn number. A play
        that fails part-way (a script's or a Python callback's wrong answer, strict mode) is
        undone whole and raises (CR 733)."""
    def priority_actions(self) -> list[dict[str, Any]]:
        """What the player with priority can do now: pass, lands to play, spells to cast (from
        hand, or the graveyard with a permission), abilities to activate."""
    def copy_spell(self, spell: int, controller: int | None = None) -> int:
        """Puts a copy of a spell on the stack (CR 707.10) with its choices (kicked status, X,
        targets); it is not cast. A copy of a permanent spell becomes a token."""
    def activate(
        self,
        source: int,
        index: int = 0,
        *,
        x: int | None = None,
        targets: Sequence[Sequence[_Target]] | None = None,
        sacrifice: int | None = None,
        discard: int | None = None,
    ) -> int | None:
        """Activates activated ability ``index`` of ``source`` (CR 602; mana abilities are
        ``activate_mana``): X announced, targets chosen, then the costs — mana, {T}, {Q}, life,
        loyalty, counters, "sacrifice a ..." and "discard a ..." — paid at once, and the ability
        is on the stack; returns its id. Choices not given here are decisions ("x",
        "targets", "cost_choice"). Loyalty abilities and "activate only as a sorcery" need your
        main phase and an empty stack, once per planeswalker per turn (CR 606.3). An ability
        activated from a hidden zone (cycling from hand) reveals its card."""
    def cycle(self, card: int) -> int | None:
        """Cycles a card from hand (CR 702.29): pays its cycling cost, discards it, and puts the
        ability on the stack; "when you cycle" triggers go above it. Returns the ability's id."""
    def play_land(self, card: int) -> int:
        """CR 305.1: once per turn, in your main phase with an empty stack. Returns the new id."""
    def activate_mana(self, source: int, mana: str | None = None) -> None:
        """Taps a permanent for mana (CR 605); ``mana`` picks the type ("W" ... "C") when it can
        make several."""
    def mana_pool(self, player: int) -> dict[str, int]: ...
    def set_auto_pay(self, player: int, on: bool) -> None:
        """Off: which mana sources to tap becomes a "pay_mana" decision, for casting and
        activating and for a "you may pay" while an ability resolves (CR 605.3a). Its ``min``
        is a lower bound on the sources any payment taps (the cost's mana, less the pool, over
        the most one source makes); an answer must pay the cost (a choice of that many may
        not). When every source must be tapped, they are, without asking."""
    def auto_pay(self, player: int) -> bool: ...
    def cancel(self) -> None:
        """Cancels a cast or an activation waiting for one of its decisions; nothing happened
        (CR 733). One chosen as a priority action is taken back too: the player still has
        priority, and the game waits for ``play``."""
    def kicked(self, id: int) -> bool:
        """Whether the spell, or the permanent it became, was kicked (CR 702.33d)."""
    def cast_info(self, id: int) -> dict[str, Any]:
        """``{"kicked", "kicks": [A, B], "granted_kicks", "x", "flashback", "modes", "targets"}``."""
    def cost_of(self, card: int, *, kick: bool | int | Sequence[bool | int] | None = None, x: int = 0) -> tuple[str, bool]:
        """The total cost of casting ``card`` now (CR 601.2f) and whether its owner can pay it:
        the mana, and an additional "discard a card" cost if it has one. Kicks the spell can't
        take raise InvalidArgumentError, as ``cast`` would; a card with no mana cost (not even
        ``{0}``) raises CannotPayError, as its cost can't be paid (CR 118.6)."""
    def power_toughness(self, id: int) -> tuple[int, int]: ...
    def gained_keywords(self, id: int) -> list[str]:
        """Keywords the object has gained until end of turn ("first strike", "hexproof",
        "indestructible", "can't be blocked"); they end in the cleanup step (CR 514.2)."""
    def stickers(self, id: int) -> list[str]: ...

    # decisions
    @property
    def pending(self) -> Decision | None: ...
    def answer(self, answer: _Answer) -> list[int] | None:
        """Answers the pending decision. Returns the finished action's result, or None if it
        stopped again. A wrong answer raises InvalidAnswerError and changes nothing. An
        answer the action can't go on with (spree modes whose costs can't be paid, a discard
        that can't pay its cost) raises the error that stops it and also changes nothing: the
        decision is still pending, to answer again (or ``cancel`` the cast or activation).
        Outside strict mode, a cast or activation chosen as a priority action is undone
        instead and its player chooses again, without it (CR 733)."""
    def replay(self) -> dict[str, Any]:
        """The replay of a game made with ``from_decks``: ``{"format": "mtgsim-replay/1",
        "decks", "seed", "setup", "answers": [{"player", "answer"}, ...], "stood", "at"}`` —
        every decision's answer in order (while the log records), and where the game stood:
        its turn and step, and the priority actions taken and whether a decision was waiting.
        Actions called directly (``mill``, ``cast``) are not decisions and are not in it."""
    @staticmethod
    def from_replay(replay: dict[str, Any] | str, db: CardDB | None = None) -> Game:
        """Plays a replay back: the same game, standing where the recorded one stood, every
        player answering manually from there (a random policy's generator isn't part of the
        replay, only its answers)."""
    def observation(self, player: int) -> dict[str, Any]:
        """``player``'s view: public zones whole; hands and libraries as sizes plus only the
        cards that player knows (see ``mtgsim.observe``); the pending decision if it is theirs."""
    def _observation_arrays(self, player: int, slots: int) -> tuple[bytes, bytes]: ...
    def legal_actions(self) -> list[Action]:
        """The steps the deciding player may take now: a whole priority action, yes/no, a
        number, or one card, target or mode added to a selection ("done" finishes it)."""
    def take(self, action: Action | int, space: ActionSpace | None = None) -> list[int] | None:
        """Takes one step at the pending decision (an Action, or its code in ``space``). A
        complete answer is given as with ``answer``; an illegal action raises and changes
        nothing."""
    @property
    def selection(self) -> list[Action]:
        """The selection made so far at the pending decision."""
    def action_space(self, extra: int = 64) -> ActionSpace:
        """An action space for this game: its objects now plus ``extra`` slots to come."""
    def action_mask(self, space: ActionSpace) -> list[bool]:
        """Which codes of ``space`` are legal now."""
    def perft(self, depth: int) -> int:
        """The number of distinct sequences of legal actions ``depth`` steps deep (a sequence
        ending the game or leaving no decision pending counts where it stops)."""
    def set_policy(self, player: int, policy: _PolicyName | _Callback) -> None: ...
    def policy(self, player: int) -> Literal["random", "first", "goldfish", "manual", "callback"]: ...
    def script(self, player: int, answers: Sequence[_Answer]) -> None:
        """Queues answers for the player's next decisions, used before the policy."""
    def script_len(self, player: int) -> int: ...
    def clear_script(self, player: int) -> None: ...
    @property
    def strict(self) -> bool:
        """In strict mode every decision must come from a script."""
    @strict.setter
    def strict(self, on: bool) -> None: ...

    # events and results
    @property
    def events(self) -> list[dict[str, Any]]: ...
    @property
    def recording(self) -> bool: ...
    @recording.setter
    def recording(self, on: bool) -> None: ...
    def clear_events(self) -> None: ...
    @property
    def is_over(self) -> bool: ...
    def holds(self, condition: str) -> bool:
        """Whether a simulation condition holds now: "library_empty:P", "hand_empty:P",
        "life_at_most:P:N", "graveyard_at_least:P:N", "permanents_at_least:P:N", "lost:P",
        "turn:N" (see ``mtgsim.sim.CONDITIONS``)."""
    def stats(self, player: int) -> dict[str, int]:
        """``{"milled", "spells", "kicks", "cycles", "lands"}``: what the player has done so far."""
    @property
    def outcome(self) -> dict[str, Any] | None:
        """``{"winners": [...], "losers": [{"player": p, "reason": ...}]}`` once the game is over."""

    # copies
    def clone(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    @staticmethod
    def _load(state: str) -> Game: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def check_invariants(self) -> None:
        """Raises SnapshotError if an object is not in exactly one zone (never expected)."""

    # bulk
    def run_batch(self, ops: Sequence[Op], repetitions: int, *, restore: bool = True) -> BatchResult:
        """Runs ``ops`` ``repetitions`` times inside Rust with the interpreter released. With
        ``restore`` each repetition starts from this position with a generator reseeded from
        (seed, repetition). This game is not changed."""

def card(name: str) -> CardDef: ...
def card_names() -> list[str]: ...
def _simulate(
    decks: Sequence[Sequence[str] | _HasCards],
    seed: int,
    policies: Sequence[str],
    max_turns: int,
    start: int,
    end: int,
    workers: int,
    starting_life: int = 20,
    hand_size: int = 7,
    db: CardDB | None = None,
    stop: Sequence[str] = [],
    record: Sequence[str] = [],
) -> tuple[int, list[tuple[str, bytes, str]]]:
    """Plays games ``start..end`` of a simulation (use ``mtgsim.simulate``): the number of
    players, and each result column as (little-endian bytes, numpy dtype)."""

def _simulate_from(
    game: Game,
    seed: int,
    policies: Sequence[str],
    max_turns: int,
    start: int,
    end: int,
    workers: int,
    shuffle_libraries: bool,
    stop: Sequence[str] = [],
    record: Sequence[str] = [],
) -> tuple[int, list[tuple[str, bytes, str]]]:
    """Plays continuations ``start..end`` of a position (use ``mtgsim.simulate_from``)."""

def _floor_typecycling(repetitions: int) -> float:
    """Seconds per repetition of typecycling done as straight-line code on plain vectors (find,
    move, shuffle; no rules bookkeeping): the floor benchmarks compare against (GUIDE §8)."""

def derive_seed(seed: int, index: int) -> int: ...
