"""The Gymnasium and PettingZoo environments (mtgsim.envs; the optional ``gym`` extra)."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import mtgsim  # noqa: E402
from mtgsim.envs import ENV_ID, IllegalEnvActionError, MtgAECEnv, MtgEnv  # noqa: E402
from mtgsim.observe import observation_arrays  # noqa: E402
from mtgsim.sim import EXAMPLE_DECKS  # noqa: E402

# An object id's low 32 bits are its slot (the high bits count its zone changes, CR 400.7);
# ``check_hidden`` confirms this on the observer's own hand before relying on it.
SLOT = 0xFFFFFFFF
OPPONENT_CARDS = set(EXAMPLE_DECKS[1]) - set(EXAMPLE_DECKS[0])


def check_hidden(game: mtgsim.Game, player: int, objects: np.ndarray) -> None:
    """The ``objects`` rows ``player`` sees show no card hidden from them: a card in a hand or a
    library (per the full state) is visible only if ``game.observation(player)`` knows it."""
    visible = set(np.flatnonzero(objects[:, 0] == 1).tolist())
    assert not objects[objects[:, 0] == 0].any(), "rows of objects the player can't see are all zeros"
    full, view = game.to_dict(), game.observation(player)
    own = {c["id"] & SLOT for c in full["players"][player]["hand"]}
    assert own <= visible and all(objects[s, 1] == 2 and objects[s, 2] == player for s in own)
    for q, state in enumerate(full["players"]):
        known_hand = {c["id"] for c in view["players"][q]["hand"]}
        known_library = {k["card"]["id"] for k in view["players"][q]["library_known"]}
        for c in state["hand"]:
            if c["id"] not in known_hand:
                assert c["id"] & SLOT not in visible, f"player {player} sees {c['name']} in player {q}'s hand"
        for c in state["library"]:
            if c["id"] not in known_library:
                assert c["id"] & SLOT not in visible, f"player {player} sees {c['name']} in player {q}'s library"


def check_observation(env: MtgEnv, obs: dict[str, np.ndarray], info: dict[str, Any]) -> None:
    assert obs in env.observation_space
    game = env.game
    check_hidden(game, env.seat, obs["objects"])
    # The same arrays as mtgsim.observe (the env builds its mask from the legal codes).
    ref = observation_arrays(game, env.seat, env.space)
    if info["legal_actions"] or game.is_over:
        assert data_equivalence(obs, ref, exact=True)
    assert np.array_equal(info["action_mask"], obs["action_mask"]) and info["action_mask"] is not obs["action_mask"]
    assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == list(info["legal_actions"])


def run_episode(env: MtgEnv, seed: int) -> tuple[float, bool, bool, int]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    check_observation(env, obs, info)
    total = 0.0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0, "the agent is asked only when it has a choice"
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        check_observation(env, obs, info)
        total += reward
        if terminated or truncated:
            return total, terminated, truncated, env.steps
        assert reward == 0.0


# ----- packaging ----------------------------------------------------------------------------


def test_import_mtgsim_does_not_import_gymnasium() -> None:
    code = "import sys, mtgsim; assert 'gymnasium' not in sys.modules and 'mtgsim.envs' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_without_the_extra_the_module_imports_and_making_an_env_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['gymnasium'] = None; sys.modules['pettingzoo'] = None\n"
        "import mtgsim.envs as e\n"
        "for cls in (e.MtgEnv, e.MtgAECEnv):\n"
        "    try:\n"
        "        cls()\n"
        "    except ModuleNotFoundError as err:\n"
        "        assert 'mtgsim[gym]' in str(err), err\n"
        "    else:\n"
        "        raise AssertionError('made an env without gymnasium')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ----- Gymnasium ----------------------------------------------------------------------------


def test_gymnasium_check_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not even a warning
        check_env(MtgEnv().unwrapped, skip_render_check=True)
        env = gymnasium.make(ENV_ID)  # registered: the render modes are checked too
        check_env(env.unwrapped)
        env.close()


def test_spaces_are_fixed_for_the_configuration() -> None:
    env = MtgEnv()
    space = mtgsim.Game.from_decks(EXAMPLE_DECKS, seed=99).action_space(extra=64)
    assert env.space == space and env.action_space.n == space.size
    assert env.observation_space["objects"].shape == (space.slots, 8)
    assert env.observation_space["global"].shape == (7 + 6 * 2,)
    assert env.observation_space["action_mask"].dtype == np.int8
    spaces_before = (env.action_space, env.observation_space)
    env.reset(seed=1)
    env.reset(seed=2)
    assert (env.action_space, env.observation_space) == spaces_before
    assert MtgEnv(extra_slots=10).space.slots == space.slots - 54


@pytest.mark.parametrize(
    ("seat", "opponent"), [(0, "goldfish"), (1, "goldfish"), (0, "random"), (1, "first")]
)
def test_full_episodes_with_random_masked_actions(seat: int, opponent: Any) -> None:
    env = MtgEnv(seat=seat, opponent=opponent)
    for seed in range(3):
        total, terminated, truncated, steps = run_episode(env, seed)
        assert terminated and not truncated
        assert total in (1.0, -1.0, 0.0)
        outcome = env.game.outcome
        assert outcome is not None
        expected = 1.0 if seat in outcome["winners"] else (-1.0 if outcome["winners"] else 0.0)
        assert total == expected
        assert env.max_steps is not None and 0 < steps < env.max_steps


def test_a_callable_opponent_and_three_players() -> None:
    kinds: list[str] = []

    def passer(game: mtgsim.Game, decision: mtgsim.Decision) -> Any:
        """Passes whenever it has priority; the fewest cards when it must choose some."""
        kinds.append(decision.kind)
        if decision.kind == "action":
            return 0  # the index of {"action": "pass"}
        if decision.kind == "choose_cards":
            return decision.options[: decision.min]
        raise AssertionError(f"unexpected decision {decision}")

    env = MtgEnv(opponent=passer)
    total, terminated, _, _ = run_episode(env, 5)
    assert terminated and total in (1.0, -1.0) and "action" in kinds
    decks = [EXAMPLE_DECKS[0], EXAMPLE_DECKS[1], EXAMPLE_DECKS[1]]
    env3 = MtgEnv(decks, seat=2, opponent="random")
    assert env3.space.players == 3 and env3.observation_space["global"].shape == (7 + 6 * 3,)
    total, terminated, truncated, _ = run_episode(env3, 1)
    assert terminated and not truncated and total in (1.0, -1.0, 0.0)


@pytest.mark.parametrize("opponent", ["goldfish", "random"])
def test_reset_with_a_seed_is_reproducible(opponent: Any) -> None:
    env = MtgEnv(opponent=opponent)
    runs = []
    for _ in range(2):
        obs, info = env.reset(seed=7)
        trace = [(obs, info)]
        env.action_space.seed(3)
        for _ in range(25):
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
            trace.append((obs, info))
            if terminated or truncated:
                break
        runs.append(trace)
    assert data_equivalence(runs[0], runs[1], exact=True)
    # reset(seed=s) is the game Game.from_decks(decks, seed=s) ...
    env.reset(seed=7)
    fresh = mtgsim.Game.from_decks(EXAMPLE_DECKS, seed=7)
    assert env.game.seed == 7 and [env.game.hand(p) for p in (0, 1)] == [fresh.hand(p) for p in (0, 1)]
    # ... and resets without a seed continue reproducibly from the seeded generator.
    env.reset(seed=11)
    a = [env.reset()[0] for _ in range(3)]
    env.reset(seed=11)
    b = [env.reset()[0] for _ in range(3)]
    assert data_equivalence(a, b, exact=True)
    assert not data_equivalence(a[0], a[1])
    other = MtgEnv(opponent=opponent)
    assert data_equivalence(other.reset(seed=7), env.reset(seed=7), exact=True)


def test_sample_draws_legal_actions_and_the_space_pickles() -> None:
    env = MtgEnv()
    env.action_space.sample()  # before any reset: uniform, no error
    obs, info = env.reset(seed=2)
    for _ in range(30):
        action = env.action_space.sample()
        assert obs["action_mask"][action] == 1
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    mask = np.zeros(env.action_space.n, dtype=np.int8)
    mask[5] = 1
    assert env.action_space.sample(mask=mask) == 5
    copy = pickle.loads(pickle.dumps(env.action_space))
    assert copy == env.action_space and 0 <= copy.sample() < copy.n
    assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = MtgEnv()
    obs, info = env.reset(seed=3)
    game = env.game
    before, steps = game.to_json(), env.steps
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalEnvActionError) as err:
        env.step(illegal)
    assert isinstance(err.value, ValueError) and isinstance(err.value, mtgsim.IllegalActionError)
    assert "pass priority" in str(err.value)  # it lists what is legal
    # A code for a card in the opponent's hand: the message doesn't name the hidden card.
    hidden = game.to_dict()["players"][1]["hand"][0]
    with pytest.raises(IllegalEnvActionError) as err:
        env.step(4 + (hidden["id"] & SLOT))  # "pick the object in this slot"
    assert not any(name in str(err.value) for name in OPPONENT_CARDS)
    with pytest.raises(IllegalEnvActionError, match="out of range"):
        env.step(env.space.size)
    with pytest.raises(IllegalEnvActionError):
        env.step(-1)
    with pytest.raises(TypeError):
        env.step(3.0)
    with pytest.raises(TypeError):
        env.step(None)
    assert game.to_json() == before and env.steps == steps
    # The same env goes on normally, numpy integers included.
    env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))


def test_illegal_actions_as_noops() -> None:
    env = MtgEnv(illegal_action="noop", illegal_reward=-0.5, max_steps=3)
    obs, info = env.reset(seed=3)
    before = env.game.to_json()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert env.game.to_json() == before and data_equivalence(obs, obs2, exact=True)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-0.5, False, False, True)
    env.step(illegal)
    *_, truncated, _ = env.step(illegal)  # no-ops count toward max_steps
    assert truncated


def test_terminated_and_truncated() -> None:
    env = MtgEnv(max_steps=4)
    obs, _ = env.reset(seed=1)
    for i in range(4):
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not terminated and reward == 0.0
        assert truncated == (i == 3)
    assert not obs["action_mask"].any() and info["legal_actions"] == {}
    with pytest.raises(RuntimeError, match="truncated"):
        env.step(3)
    env = MtgEnv(max_steps=None)
    total, terminated, truncated, _ = run_episode(env, 1)
    assert terminated and not truncated and total != 0.0 and env.game.is_over
    with pytest.raises(mtgsim.GameOverError):
        env.step(3)
    with pytest.raises(RuntimeError, match="reset"):
        MtgEnv().step(3)


def test_render_ansi() -> None:
    env = MtgEnv(render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str)
    assert "turn 1" in text and "you: life 20" in text and "player 1: life 20" in text
    assert all(env.game.name(c) in text for c in env.game.hand(0))
    assert not any(name in text for name in OPPONENT_CARDS)  # nothing of the opponent's hand
    assert MtgEnv().render() is None
    with pytest.raises(ValueError):
        MtgEnv(render_mode="human")


def test_bad_configurations() -> None:
    with pytest.raises(ValueError):
        MtgEnv(opponent="manual")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MtgEnv(seat=2)
    with pytest.raises(ValueError):
        MtgEnv(max_steps=0)
    with pytest.raises(ValueError):
        MtgEnv([EXAMPLE_DECKS[0]])
    with pytest.raises(ValueError):
        MtgEnv(illegal_action="ignore")  # type: ignore[arg-type]


# ----- PettingZoo ---------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Action mask numpy array is all zeros")  # agents that are done
def test_pettingzoo_api_test() -> None:
    api_test(MtgAECEnv(render_mode="ansi"), num_cycles=1000)
    decks = [EXAMPLE_DECKS[0], EXAMPLE_DECKS[1], EXAMPLE_DECKS[1]]
    api_test(MtgAECEnv(decks), num_cycles=1000)


def test_pettingzoo_seed_test() -> None:
    seed_test(MtgAECEnv, num_cycles=200)


def test_aec_full_game() -> None:
    env = MtgAECEnv()
    assert env.metadata["name"] and env.metadata["is_parallelizable"] is False
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        finished: dict[str, float] = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            game = env.game
            if terminated or truncated:
                assert not truncated
                finished[agent] = reward
                env.step(None)
                continue
            player = int(agent.split("_")[1])
            assert game.pending is not None and game.pending.player == player
            assert obs in env.observation_space(agent)
            check_hidden(game, player, obs["objects"])
            for other in env.agents:  # only the deciding agent has a mask
                o = env.observe(other)
                check_hidden(game, int(other.split("_")[1]), o["objects"])
                assert o["action_mask"].any() == (other == agent)
            assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == list(info["legal_actions"])
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.agents == []
        outcome = env.game.outcome
        assert outcome is not None and len(finished) == 2
        for agent, reward in finished.items():
            p = int(agent.split("_")[1])
            assert reward == (1.0 if p in outcome["winners"] else (-1.0 if outcome["winners"] else 0.0))
    assert env.action_space("player_0") is env.action_space("player_0")
    assert env.observation_space("player_1") is env.observation_space("player_1")


def test_aec_truncation_and_illegal_actions() -> None:
    env = MtgAECEnv(max_steps=5)
    env.reset(seed=1)
    obs, *_ = env.last()
    before = env.game.to_json()
    with pytest.raises(IllegalEnvActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    with pytest.raises(ValueError):
        env.step(None)  # None is for agents that are done
    assert env.game.to_json() == before
    for _ in range(5):
        obs, reward, terminated, truncated, _ = env.last()
        assert not truncated
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    while env.agents:
        _, reward, _, truncated, _ = env.last()
        assert truncated and reward == 0.0
        env.step(None)


def test_aec_render_shows_public_information_only() -> None:
    env = MtgAECEnv(render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str) and "player_0: life 20" in text and "player_1: life 20" in text
    game = env.game
    assert not any(game.name(c) in text for p in range(2) for c in game.hand(p))


def test_an_episode_that_outgrows_its_slots_is_truncated_not_failing() -> None:
    # With no extra slots, the first ability or token an action would name can't be coded: that
    # step is taken and the episode ends truncated (info says why); no later step is wanted.
    import random

    truncated_for_slots = 0
    for seed in range(6):
        env = MtgEnv(extra_slots=0)
        obs, info = env.reset(seed=seed)
        pick = random.Random(seed)
        while True:
            obs, reward, terminated, truncated, info = env.step(pick.choice(list(info["legal_actions"])))
            if terminated or truncated:
                break
        if info.get("slots_exhausted"):
            assert truncated and not terminated and info["legal_actions"] == {}
            truncated_for_slots += 1
    assert truncated_for_slots > 0


def test_a_code_for_an_object_slot_not_yet_filled_is_an_illegal_action() -> None:
    """The space keeps room for objects to come (tokens, conjured cards); a code naming one of
    those slots before it is filled is not legal now: refused, or a no-op, like any other."""
    env = MtgEnv()
    obs, _ = env.reset(seed=1)
    code = 4 + 3 * env.space.slots + 130  # "cast the object in slot 130": 120 cards so far
    assert code < env.space.size and not obs["action_mask"][code]
    before = env.game.to_json()
    with pytest.raises(IllegalEnvActionError):
        env.step(code)
    assert env.game.to_json() == before
    noop = MtgEnv(illegal_action="noop", illegal_reward=-1.0)
    noop.reset(seed=1)
    _, reward, terminated, truncated, info = noop.step(code)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, False, False, True)
    aec = MtgAECEnv(illegal_action="noop")
    aec.reset(seed=1)
    aec.step(code)
    assert aec.infos[aec.agent_selection].get("illegal_action") or any(i.get("illegal_action") for i in aec.infos.values())
