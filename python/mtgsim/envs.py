"""Reinforcement-learning environments: Gymnasium (one agent against built-in opponents) and
PettingZoo AEC (every player an agent). Optional: ``pip install 'mtgsim[gym]'``. ::

    from mtgsim.envs import MtgEnv
    env = MtgEnv()                    # seat 0 against "goldfish", with the example decks
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

``import mtgsim`` never imports this module (nor gymnasium); importing this module works without
gymnasium and pettingzoo, and making an environment then raises ``ModuleNotFoundError`` naming
the extra to install.

Observations are :func:`mtgsim.observe.observation_arrays` — ``{"global": float32,
"objects": int32 (slots x 8), "action_mask": int8}`` — from the observing player's point of view:
hidden cards (the opponent's hand, libraries) show nothing that player doesn't know.

Actions are codes of a fixed :class:`mtgsim.ActionSpace` (``env.space``): one step toward
answering the pending decision. Composite answers (several targets, a scry, ...) are built one
pick per step, ending with "done"; a decision with a single legal answer is never asked. The
legal codes are ``obs["action_mask"]`` (and ``info["legal_actions"]``, code -> readable text).

Illegal actions: by default (``illegal_action="raise"``) a code that is not legal now raises
:class:`IllegalEnvActionError` (an :class:`mtgsim.IllegalActionError` and a ``ValueError``) and
changes nothing — not the game, not the step count. With ``illegal_action="noop"`` the step
changes nothing in the game, counts toward ``max_steps``, returns ``illegal_reward`` and sets
``info["illegal_action"] = True``. A value that is not an integer raises ``TypeError``.

The action space's ``sample()`` with no mask draws among the legal actions of whoever the space
belongs to (the agent; in the AEC environment, that agent), so ``env.action_space.sample()`` is
always a legal action while the agent is deciding; with an explicit ``mask`` it is Gymnasium's
``Discrete.sample``. Copies and pickles of the space sample uniformly.

``env.game`` is the live game (its event log is off: ``env.game.recording = True`` turns it on).
"""

from __future__ import annotations

import importlib
import weakref
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from mtgsim._core import ActionSpace, Decision, Game, derive_seed
from mtgsim.errors import GameOverError, IllegalActionError, InvalidArgumentError
from mtgsim.observe import OBJECT_FEATURES, action_code, observation_shapes
from mtgsim.sim import EXAMPLE_DECKS, Deck

if TYPE_CHECKING:
    from mtgsim._core import CardDB

__all__ = ["IllegalEnvActionError", "MtgAECEnv", "MtgEnv", "ENV_ID"]

#: The id :class:`MtgEnv` is registered under (``gymnasium.make(ENV_ID, ...)`` once this module
#: is imported, or ``gymnasium.make("mtgsim.envs:mtgsim/Mtg-v0")``).
ENV_ID = "mtgsim/Mtg-v0"

#: An observation: the arrays of :func:`mtgsim.observe.observation_arrays`.
Observation = dict[str, npt.NDArray[Any]]

_BUILTIN_OPPONENTS = ("goldfish", "random", "first")
_EXTRA_HINT = "install the extra: pip install 'mtgsim[gym]'"
# Bounds of the observation arrays (observe.py's layout); BIG bounds a count or a number that
# has no fixed limit (life, turn, library size, card index, ...).
_BIG_F = float(2**31)
_BIG_I = int(np.iinfo(np.int32).max)
# A game that ends before its first decision (it never does with real decks) is replaced by the
# next one from derived seeds; this many tries, then an error.
_RESET_TRIES = 32


def _optional(name: str) -> tuple[ModuleType | None, ImportError | None]:
    try:
        return importlib.import_module(name), None
    except ImportError as e:
        return None, e


_gymnasium, _gymnasium_error = _optional("gymnasium")
_pettingzoo, _pettingzoo_error = _optional("pettingzoo") if _gymnasium is not None else (None, None)


def _require(name: Literal["gymnasium", "pettingzoo"]) -> ModuleType:
    module, error = (_gymnasium, _gymnasium_error) if name == "gymnasium" else (_pettingzoo, _pettingzoo_error)
    if module is None:
        raise ModuleNotFoundError(f"mtgsim.envs needs {name}: {_EXTRA_HINT}", name=name) from error
    return module


if TYPE_CHECKING:
    # What this module uses of the base classes, for type checking only: the real bases are
    # gymnasium.Env and pettingzoo.AECEnv (object when those aren't installed), so the module
    # type-checks the same whether or not they are.

    class _GymEnvBase:
        metadata: dict[str, Any]
        render_mode: str | None
        spec: Any
        action_space: Any
        observation_space: Any
        np_random: np.random.Generator

        @property
        def np_random_seed(self) -> int:
            raise NotImplementedError

        @property
        def unwrapped(self) -> Any:
            raise NotImplementedError

        def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
            raise NotImplementedError

    class _AECEnvBase:
        metadata: dict[str, Any]
        possible_agents: list[str]
        agents: list[str]
        observation_spaces: dict[str, Any]
        action_spaces: dict[str, Any]
        rewards: dict[str, float]
        _cumulative_rewards: dict[str, float]
        terminations: dict[str, bool]
        truncations: dict[str, bool]
        infos: dict[str, dict[str, Any]]
        agent_selection: str

        @property
        def num_agents(self) -> int:
            raise NotImplementedError

        @property
        def max_num_agents(self) -> int:
            raise NotImplementedError

        @property
        def unwrapped(self) -> Any:
            raise NotImplementedError

        def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
            raise NotImplementedError

        def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
            raise NotImplementedError

        def _was_dead_step(self, action: Any) -> None:
            raise NotImplementedError

        def _deads_step_first(self) -> str:
            raise NotImplementedError

        def _clear_rewards(self) -> None:
            raise NotImplementedError

        def _accumulate_rewards(self) -> None:
            raise NotImplementedError

else:
    _GymEnvBase = _gymnasium.Env if _gymnasium is not None else object
    _AECEnvBase = _pettingzoo.AECEnv if _pettingzoo is not None else object


class IllegalEnvActionError(IllegalActionError, ValueError):
    """An action code that is not legal now (see ``info["legal_actions"]`` or the mask). Nothing
    has changed. The message never names the card behind the code (it may be hidden)."""


_legal_discrete: Any = None


def _legal_space(n: int, mask: Callable[[], npt.NDArray[np.int8] | None] | None, start: int = 0) -> Any:
    """A ``gymnasium.spaces.Discrete(n)`` whose ``sample()`` without a mask draws among the
    codes ``mask()`` marks (uniformly when it marks none, or ``mask`` is None). Holds ``mask``
    weakly when it is a bound method; copies and pickles drop it."""
    global _legal_discrete
    if _legal_discrete is None:
        discrete: Any = _require("gymnasium").spaces.Discrete

        class _LegalDiscrete(discrete):  # type: ignore[misc]
            _legal_mask: Callable[[], Callable[[], npt.NDArray[np.int8] | None] | None] | None = None

            def sample(self, mask: Any = None, probability: Any = None) -> Any:
                if mask is None and probability is None and self._legal_mask is not None:
                    fn = self._legal_mask()
                    m = fn() if fn is not None else None
                    if m is not None and m.any():
                        mask = m
                return super().sample(mask=mask, probability=probability)

            def __reduce__(self) -> tuple[Any, ...]:
                state = dict(self.__dict__)
                state.pop("_legal_mask", None)
                return (_legal_space, (int(self.n), None, int(self.start)), state)

        _legal_discrete = _LegalDiscrete
    space = _legal_discrete(n, start=start)
    if mask is None:
        pass
    elif hasattr(mask, "__self__"):
        space._legal_mask = weakref.WeakMethod(mask)
    else:
        space._legal_mask = lambda: mask
    return space


def _observation_space(space: ActionSpace) -> Any:
    """The ``spaces.Dict`` of :func:`mtgsim.observe.observation_arrays` for games of
    ``space``: bounds the values always satisfy, exact where the layout fixes them (flags,
    steps, players)."""
    gym_spaces = _require("gymnasium").spaces
    p = space.players
    shapes = observation_shapes(space)
    low_g = [0.0, 0.0, 0.0, -1.0, 0.0, -1.0, 0.0] + [-_BIG_F, 0.0, 0.0, 0.0, 0.0, 0.0] * p
    high_g = [_BIG_F, 11.0, p - 1.0, p - 1.0, p - 1.0, p - 1.0, 1.0] + [_BIG_F, _BIG_F, _BIG_F, _BIG_F, _BIG_F, 1.0] * p
    per_column = {
        "visible": (0, 1),
        "zone": (0, 8),
        "owner": (0, p - 1),
        "controller": (0, p - 1),
        "card": (0, _BIG_I),
        "tapped": (0, 1),
        "position": (0, _BIG_I),
        "counters": (-_BIG_I - 1, _BIG_I),
    }
    low_o = np.array([per_column[c][0] for c in OBJECT_FEATURES], dtype=np.int32)
    high_o = np.array([per_column[c][1] for c in OBJECT_FEATURES], dtype=np.int32)
    n_obj = shapes["objects"]
    return gym_spaces.Dict(
        {
            "global": gym_spaces.Box(np.array(low_g, dtype=np.float32), np.array(high_g, dtype=np.float32), dtype=np.float32),
            "objects": gym_spaces.Box(np.broadcast_to(low_o, n_obj).copy(), np.broadcast_to(high_o, n_obj).copy(), dtype=np.int32),
            "action_mask": gym_spaces.Box(0, 1, shape=shapes["action_mask"], dtype=np.int8),
        }
    )


def _result(game: Game, player: int) -> float | None:
    """The player's final reward once their game is over — +1 win, -1 loss, 0 draw — else None."""
    if game.is_over:
        outcome = game.outcome  # slow (~0.2 ms): only read once the game is over
        assert outcome is not None
        winners = outcome["winners"]
        if player in winners:
            return 1.0
        return -1.0 if winners else 0.0
    if game.holds(f"lost:{player}"):  # a multiplayer game goes on without them (CR 800.4a)
        return -1.0
    return None


def _deciding(game: Game, player: int) -> bool:
    pending = game.pending
    return pending is not None and pending.player == player and not game.is_over


def _legal_actions(game: Game, space: ActionSpace) -> dict[int, str]:
    """The legal codes now, in order, with their texts."""
    if game.pending is None:
        return {}
    return dict(sorted((space.encode(a), a.text) for a in game.legal_actions()))


def _mask(space: ActionSpace, codes: Iterable[int]) -> npt.NDArray[np.int8]:
    mask = np.zeros(space.size, dtype=np.int8)
    mask[list(codes)] = 1
    return mask


def _observe(game: Game, player: int, space: ActionSpace, legal: Iterable[int]) -> Observation:
    """:func:`mtgsim.observe.observation_arrays` with the mask made from ``legal`` (the codes
    that player may take now; none when not deciding): the same arrays, made faster (the mask
    from a list of codes rather than a list of ``space.size`` booleans)."""
    g, rows = game._observation_arrays(player, space.slots)
    return {
        "global": np.frombuffer(g, dtype="<f4").astype(np.float32),
        "objects": np.frombuffer(rows, dtype="<i4").astype(np.int32).reshape(space.slots, len(OBJECT_FEATURES)),
        "action_mask": _mask(space, legal),
    }


def _take(game: Game, code: int, space: ActionSpace) -> bool:
    """Takes the action; False (and nothing changed) if it isn't legal now."""
    if not 0 <= code < space.size:
        return False
    try:
        # A code in range may still name an object slot no object fills yet (room kept for
        # tokens and conjured cards): not a legal action now either.
        action = space.decode(code, game)
    except InvalidArgumentError:
        return False
    try:
        game.take(action)
    except IllegalActionError:  # the engine changed nothing (CR 733)
        return False
    return True


def _settle(game: Game) -> None:
    """Plays on until someone outside the engine must decide or the game is over (the engine
    normally stops there by itself after an answer)."""
    if game.pending is None and not game.is_over:
        game.play()


def _render(game: Game, viewer: int | None, names: Sequence[str]) -> str:
    """A few lines of text: what ``viewer`` sees (only public information when None)."""
    view = game.observation(viewer if viewer is not None else 0)
    lines = [f"turn {view['turn']}, {view['step']}, active: {names[view['active_player']]}"]
    for p in view["players"]:
        who = names[p["player"]]
        state = f" (lost: {p['lost']})" if p["lost"] else ""
        lines.append(
            f"{who}: life {p['life']}, library {p['library_size']}, hand {p['hand_size']}, "
            f"graveyard {len(p['graveyard'])}{state}"
        )
        if viewer is not None and p["player"] == viewer:
            lines.append(f"  hand: {', '.join(c['name'] for c in p['hand']) or '-'}")
        mine = [o for o in view["battlefield"] if o.get("controller", o.get("owner")) == p["player"]]
        if mine:
            lines.append("  battlefield: " + ", ".join(o["name"] + (" (tapped)" if o.get("tapped") else "") for o in mine))
    if view["stack"]:
        lines.append("stack: " + ", ".join(str(o.get("name", "?")) for o in view["stack"]))
    pending = game.pending
    if game.is_over:
        lines.append(f"game over: {game.outcome}")
    elif pending is not None:
        lines.append(f"{names[pending.player]} to decide: {pending.prompt}")
    return "\n".join(lines)


class _GameMaker:
    """Makes the games of one configuration and the fixed action space they share."""

    def __init__(self, decks: Sequence[Deck] | None, extra_slots: int, starting_life: int, hand_size: int, db: CardDB | None):
        self.decks: tuple[Deck, ...] = tuple(EXAMPLE_DECKS if decks is None else decks)
        if len(self.decks) < 2:
            raise ValueError(f"a game needs at least two decks, not {len(self.decks)}")
        if extra_slots < 0:
            raise ValueError(f"extra_slots must be at least 0, not {extra_slots}")
        self.starting_life = starting_life
        self.hand_size = hand_size
        self.db = db
        # Every game of these decks starts with the same objects (the cards), so one game made
        # here fixes the space for all of them; ``extra_slots`` leaves room for tokens, copies
        # and abilities on the stack.
        self.space = self.make(0).action_space(extra=extra_slots)

    def make(self, seed: int) -> Game:
        return Game.from_decks(self.decks, seed=seed, starting_life=self.starting_life, hand_size=self.hand_size, db=self.db)

    def start(self, seed: int, policies: Sequence[Any], ready: Callable[[Game], bool]) -> Game:
        """The game from ``seed`` with these policies, played on to its first decision for an
        agent (``ready``). A game that ends first (never seen with real decks) is replaced by
        the next from seeds derived from ``seed``, reproducibly."""
        for attempt in range(_RESET_TRIES):
            g = self.make(seed if attempt == 0 else derive_seed(seed, attempt))
            g.recording = False
            for p, policy in enumerate(policies):
                g.set_policy(p, policy)
            g.play()
            if ready(g):
                return g
        raise RuntimeError(f"{_RESET_TRIES} games from seed {seed} ended before an agent had a decision")


def _game_seed(seed: int | None, rng: np.random.Generator) -> int:
    """The game's seed: ``seed`` itself when given (``reset(seed=s)`` plays the game
    ``Game.from_decks(decks, seed=s)``), else drawn from the environment's generator."""
    return seed if seed is not None else int(rng.integers(0, 2**63))


class MtgEnv(_GymEnvBase):
    """One agent at seat ``seat`` against built-in opponents (every other seat plays
    ``opponent``: "goldfish", "random", "first" or a callable ``(game, decision) -> answer``).

    * ``reset(seed=s)`` starts ``Game.from_decks(decks, seed=s)`` (without a seed, one drawn
      from ``self.np_random``) and plays to the agent's first decision.
    * ``step(code)`` takes one step at the agent's decision, then the game plays on by itself
      (the opponents answer their own decisions inside the engine) to the agent's next one.
    * Reward: +1 win, -1 loss, 0 draw, 0 on every other step. ``terminated`` when the agent's
      game is over (in a multiplayer game, when the agent has lost), ``truncated`` after
      ``max_steps`` agent steps (None: never). Stepping after either raises until ``reset``.
    * ``info``: ``action_mask`` (int8, as in the observation), ``legal_actions`` (code ->
      text, in code order), ``decision`` (the purpose of the agent's pending decision, or
      None), ``turn``, ``outcome`` (``Game.outcome`` once the game is over, else None).
    * ``render()`` with ``render_mode="ansi"``: turn, life totals, the agent's hand, permanents.
    * ``action_masks()``: the legal codes as booleans (for ``MaskablePPO``).

    ``extra_slots``: object slots beyond the decks' cards, for tokens, copies and abilities on
    the stack (an episode whose legal actions outgrow them is truncated, with
    ``info["slots_exhausted"]``). See the
    module's documentation for illegal actions and the action space's ``sample()``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        decks: Sequence[Deck] | None = None,
        *,
        seat: int = 0,
        opponent: Literal["goldfish", "random", "first"] | Callable[[Game, Decision], Any] = "goldfish",
        max_steps: int | None = 2000,
        extra_slots: int = 64,
        illegal_action: Literal["raise", "noop"] = "raise",
        illegal_reward: float = 0.0,
        render_mode: str | None = None,
        starting_life: int = 20,
        hand_size: int = 7,
        db: CardDB | None = None,
    ) -> None:
        _require("gymnasium")
        _check_options(max_steps, illegal_action, render_mode, self.metadata)
        self._maker = _GameMaker(decks, extra_slots, starting_life, hand_size, db)
        n = len(self._maker.decks)
        if not 0 <= seat < n:
            raise ValueError(f"seat must be a player of the game (0 to {n - 1}), not {seat}")
        if not callable(opponent) and opponent not in _BUILTIN_OPPONENTS:
            raise ValueError(f"opponent must be one of {_BUILTIN_OPPONENTS} or a callable, not {opponent!r}")
        self.seat = seat
        self.opponent = opponent
        self.max_steps = max_steps
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = _observation_space(self._maker.space)
        self.action_space = _legal_space(self._maker.space.size, self._sample_mask)
        self._game: Game | None = None
        self._steps = 0
        self._ended = False

    @property
    def space(self) -> ActionSpace:
        """The action space: ``action_space`` codes are its codes (``space.decode(code, game)``)."""
        return self._maker.space

    @property
    def decks(self) -> tuple[Deck, ...]:
        return self._maker.decks

    @property
    def game(self) -> Game:
        """The current game (live: changing it changes the episode)."""
        if self._game is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._game

    @property
    def steps(self) -> int:
        """Agent steps taken this episode."""
        return self._steps

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal codes now, as booleans (all False once the episode has ended)."""
        return _mask(self.space, self._legal()).astype(bool)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """A new game from the decks; ``options`` are not used."""
        super().reset(seed=seed)
        policies: list[Any] = [self.opponent] * len(self.decks)
        policies[self.seat] = "manual"
        self._game = self._maker.start(_game_seed(seed, self.np_random), policies, lambda g: _deciding(g, self.seat))
        self._steps = 0
        self._ended = False
        return self._observation()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        g = self.game
        if self._ended:
            if g.is_over:
                raise GameOverError("the game is over: call reset()")
            raise RuntimeError("the episode was truncated: call reset()")
        code = action_code(action)
        if not (_deciding(g, self.seat) and _take(g, code, self.space)):
            if self.illegal_action == "raise":
                raise IllegalEnvActionError(_illegal_message(code, g, self.space))
            self._steps += 1
            truncated = self.max_steps is not None and self._steps >= self.max_steps
            self._ended = truncated
            obs, info = self._observation()
            info["illegal_action"] = True
            return obs, self.illegal_reward, False, truncated, info
        self._steps += 1
        _settle(g)
        result = _result(g, self.seat)
        terminated = result is not None
        stalled = not terminated and not _deciding(g, self.seat)
        truncated = not terminated and (stalled or (self.max_steps is not None and self._steps >= self.max_steps))
        self._ended = terminated or truncated
        try:
            obs, info = self._observation()
        except InvalidArgumentError:
            # A legal action names an object beyond the space's slots (more tokens and abilities
            # than `extra_slots` allowed for): the action was taken, but the episode can't go on
            # in this space, so it is truncated here instead of failing every later step.
            truncated, self._ended = True, True
            obs, info = self._observation()
            info["slots_exhausted"] = True
        if stalled:
            info["stalled"] = True  # nobody outside the engine has a decision: not expected
        return obs, result if result is not None else 0.0, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        names = [("you" if p == self.seat else f"player {p}") for p in range(self.space.players)]
        return _render(self.game, self.seat, names)

    def close(self) -> None:
        self._game = None

    def _legal(self) -> dict[int, str]:
        g = self.game
        return _legal_actions(g, self.space) if not self._ended and _deciding(g, self.seat) else {}

    def _sample_mask(self) -> npt.NDArray[np.int8] | None:
        return _mask(self.space, self._legal()) if self._game is not None else None

    def _observation(self) -> tuple[Observation, dict[str, Any]]:
        g = self.game
        legal = self._legal()
        obs = _observe(g, self.seat, self.space, legal)
        pending = g.pending
        info = {
            "action_mask": obs["action_mask"].copy(),
            "legal_actions": legal,
            "decision": pending.purpose if legal and pending is not None else None,
            "turn": g.turn,
            "outcome": g.outcome if g.is_over else None,
        }
        return obs, info


def _check_options(max_steps: int | None, illegal_action: str, render_mode: str | None, metadata: dict[str, Any]) -> None:
    if max_steps is not None and max_steps < 1:
        raise ValueError(f"max_steps must be at least 1 (or None), not {max_steps}")
    if illegal_action not in ("raise", "noop"):
        raise ValueError(f'illegal_action must be "raise" or "noop", not {illegal_action!r}')
    if render_mode is not None and render_mode not in metadata["render_modes"]:
        raise ValueError(f"render_mode must be None or one of {metadata['render_modes']}, not {render_mode!r}")


def _illegal_message(code: int, game: Game, space: ActionSpace) -> str:
    # Never decodes ``code``: the card in its slot may be hidden from the player.
    legal = _legal_actions(game, space)
    shown = "; ".join(f"{c} {t}" for c, t in list(legal.items())[:12]) + ("; ..." if len(legal) > 12 else "")
    if not 0 <= code < space.size:
        return f"action {code} is out of range (the space has {space.size} codes); legal now: {shown}"
    return f"action {code} is not legal now; legal now: {shown}"


class MtgAECEnv(_AECEnvBase):
    """Every player an agent ("player_0", "player_1", ...), for PettingZoo's AEC API.

    ``agent_selection`` is whoever must decide now (the same agent again while it builds a
    composite answer); ``observe(agent)`` is that agent's view, its action mask all zeros
    unless it is the one deciding. Rewards come at the end: +1 win, -1 loss, 0 draw. All agents
    are truncated after ``max_steps`` steps (all agents' together; None: never). Agents that are
    done are stepped with ``None``, as the AEC API requires. ``infos[agent]``:
    ``legal_actions`` (code -> text; empty unless deciding) and ``outcome`` (once over).
    ``reset(seed=s)`` starts ``Game.from_decks(decks, seed=s)``; ``options`` are not used.
    Illegal actions are handled as in :class:`MtgEnv`; ``render()`` ("ansi") shows public
    information only.
    """

    metadata: dict[str, Any] = {"name": "mtgsim_v0", "is_parallelizable": False, "render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        decks: Sequence[Deck] | None = None,
        *,
        max_steps: int | None = 4000,
        extra_slots: int = 64,
        illegal_action: Literal["raise", "noop"] = "raise",
        illegal_reward: float = 0.0,
        render_mode: str | None = None,
        starting_life: int = 20,
        hand_size: int = 7,
        db: CardDB | None = None,
    ) -> None:
        _require("pettingzoo")
        super().__init__()
        _check_options(max_steps, illegal_action, render_mode, self.metadata)
        self._maker = _GameMaker(decks, extra_slots, starting_life, hand_size, db)
        self.max_steps = max_steps
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(len(self._maker.decks))]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: _observation_space(self._maker.space) for a in self.possible_agents}
        self.action_spaces = {a: _legal_space(self._maker.space.size, self._sample_mask(a)) for a in self.possible_agents}
        self.np_random = np.random.default_rng()
        self._game: Game | None = None
        self._steps = 0
        self.agents = []
        self.rewards = {}
        self._cumulative_rewards = {}
        self.terminations = {}
        self.truncations = {}
        self.infos = {}

    @property
    def space(self) -> ActionSpace:
        """The action space: ``action_space(agent)`` codes are its codes."""
        return self._maker.space

    @property
    def decks(self) -> tuple[Deck, ...]:
        return self._maker.decks

    @property
    def game(self) -> Game:
        """The current game (live: changing it changes the episode)."""
        if self._game is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._game

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game from the decks; ``options`` are not used."""
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        g = self._maker.start(_game_seed(seed, self.np_random), ["manual"] * len(self.decks), lambda g: g.pending is not None and not g.is_over)
        self._game = g
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        pending = g.pending
        assert pending is not None
        self.agent_selection = self.possible_agents[pending.player]
        self._update_infos()

    def observe(self, agent: str) -> Observation:
        return _observe(self.game, self._index[agent], self.space, self._legal(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        if action is None:
            raise ValueError(f"{agent} is deciding: None is the action of agents that are done only")
        code = action_code(action)
        legal = _deciding(g, self._index[agent]) and _take(g, code, self.space)
        if not legal and self.illegal_action == "raise":
            raise IllegalEnvActionError(_illegal_message(code, g, self.space))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._steps += 1
        if not legal:
            self.rewards[agent] = self.illegal_reward
        else:
            _settle(g)
        self._after_step()
        if not legal and agent in self.infos:
            self.infos[agent]["illegal_action"] = True

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return _render(self.game, None, self.possible_agents)

    def close(self) -> None:
        pass

    def _live(self, agent: str) -> bool:
        return agent in self.terminations and not (self.terminations[agent] or self.truncations[agent])

    def _legal(self, agent: str) -> dict[int, str]:
        g = self.game
        return _legal_actions(g, self.space) if self._live(agent) and _deciding(g, self._index[agent]) else {}

    def _sample_mask(self, agent: str) -> Callable[[], npt.NDArray[np.int8] | None]:
        ref = weakref.ref(self)

        def mask() -> npt.NDArray[np.int8] | None:
            env = ref()
            return _mask(env.space, env._legal(agent)) if env is not None and env._game is not None else None

        return mask

    def _after_step(self) -> None:
        g = self.game
        for a in self.agents:
            if not (self.terminations[a] or self.truncations[a]):
                result = _result(g, self._index[a])
                if result is not None:
                    self.terminations[a] = True
                    self.rewards[a] += result
        live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
        pending = g.pending
        stalled = bool(live) and (pending is None or g.is_over)
        if live and (stalled or (self.max_steps is not None and self._steps >= self.max_steps)):
            for a in live:
                self.truncations[a] = True
        elif live and pending is not None:
            self.agent_selection = self.possible_agents[pending.player]
        self._update_infos()
        if stalled:
            for a in live:
                self.infos[a]["stalled"] = True  # nobody has a decision: not expected
        self._accumulate_rewards()
        self._deads_step_first()

    def _update_infos(self) -> None:
        g = self.game
        outcome = g.outcome if g.is_over else None
        self.infos = {a: {"legal_actions": self._legal(a), "outcome": outcome} for a in self.agents}


if _gymnasium is not None and ENV_ID not in _gymnasium.registry:
    _gymnasium.register(id=ENV_ID, entry_point="mtgsim.envs:MtgEnv")
