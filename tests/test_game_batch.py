"""A batched step over many games in one Rust call (issue 7), for agents that learn from many
games at once."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import mtgsim
from mtgsim import Game
from mtgsim.observe import observation_arrays


def first_legal(mask: np.ndarray) -> list[int]:
    return [int(np.flatnonzero(row)[0]) for row in mask]


def test_the_batch_holds_each_game_of_the_run_at_the_agents_decision() -> None:
    b = mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, 5, seed=3)
    obs = b.observe()
    assert obs["global"].shape == (5, 7 + 12) and obs["objects"].shape == (5, b.space.slots, 8)
    for i in range(5):
        g = b.game(i)
        assert g.pending is not None and g.pending.player == 0
        one = observation_arrays(g, 0, b.space)
        assert np.array_equal(one["global"], obs["global"][i]) and np.array_equal(one["objects"], obs["objects"][i])
        assert np.array_equal(one["action_mask"], obs["action_mask"][i])
        # Game i is the run's game i: the same deal as from_decks with the derived seed.
        h = Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=mtgsim.derive_seed(3, i))
        assert sorted(h.hand(0)) == sorted(g.hand(0)) or g.turn > 1


def test_a_step_equals_taking_the_same_action_in_each_game() -> None:
    b = mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, 4, seed=8)
    before = [b.game(i) for i in range(4)]
    codes = first_legal(b.observe()["action_mask"])
    reward, done = b.step(codes)
    for i, g in enumerate(before):
        g.take(codes[i], b.space)
        if not done[i]:
            assert g.to_json() == b.game(i).to_json()


def test_batches_are_reproducible_and_games_that_end_are_replaced() -> None:
    def run() -> tuple[list[float], int]:
        b = mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, 6, seed=2)
        rng = np.random.default_rng(4)
        total, ended = [], 0
        for _ in range(400):
            mask = b.observe()["action_mask"]
            r, d = b.step([int(rng.choice(np.flatnonzero(row))) for row in mask])
            total.extend(r.tolist())
            ended += int(d.sum())
            assert all(b.game(i).pending is not None for i in range(6))
        return total, ended

    a, b = run(), run()
    assert a == b and a[1] > 0
    assert set(a[0]) <= {-1.0, 0.0, 1.0} and sum(1 for x in a[0] if x != 0) == a[1]


def test_an_illegal_code_changes_no_game() -> None:
    b = mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, 3, seed=1)
    before = [b.game(i).to_json() for i in range(3)]
    codes = first_legal(b.observe()["action_mask"])
    legal = set(np.flatnonzero(b.observe()["action_mask"][2]).tolist())
    codes[2] = next(c for c in range(b.space.size) if c not in legal and c >= 4 + 3 * b.space.slots)
    with pytest.raises(mtgsim.MtgsimError, match="game 2"):
        b.step(codes)
    assert [b.game(i).to_json() for i in range(3)] == before
    with pytest.raises(mtgsim.InvalidArgumentError, match="3 games"):
        b.step(codes[:2])


@pytest.mark.parametrize("kwargs, match", [({"games": 0}, "1 to 100000"), ({"seat": 2}, "seat 2"), ({"opponent": "manual"}, "built-in policy"), ({"opponent": "smart"}, "unknown policy")])
def test_bad_batches_are_clear_errors(kwargs: dict[str, object], match: str) -> None:
    args: dict[str, object] = {"games": 2, **kwargs}
    with pytest.raises(mtgsim.InvalidArgumentError, match=match):
        mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, **args)  # type: ignore[arg-type]


def test_decks_that_never_give_the_agent_a_decision_are_refused_not_played_forever() -> None:
    # Seven Grizzly Bears and no land: the agent can only pass (not asked) and decks out.
    # Before, the batch kept dealing new games forever.
    with pytest.raises(mtgsim.InvalidArgumentError, match="games 0 to 31 of seed 1 all ended"):
        mtgsim.GameBatch([["Grizzly Bears"] * 7, ["Island"] * 60], games=1, seed=1)


def test_observations_too_big_for_memory_are_an_error_not_an_abort() -> None:
    # 100 games of a million slots want 3.2 GB of object rows: under a 3 GiB address-space
    # limit the process used to abort ("memory allocation failed").
    script = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "import mtgsim\n"
        "b = mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, games=100, seed=1, extra=1_000_000)\n"
        "try:\n    b.observe()\nexcept mtgsim.InvalidArgumentError as e:\n    print(e)\n"
    )
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "don't fit in memory" in p.stdout, p.stderr[-500:]


def test_step_takes_integer_codes_only() -> None:
    b = mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, games=2, seed=1)
    before = [b.game(i).to_json() for i in range(2)]
    for codes in ([3.0, 3.7], [True, 3]):  # a bool is not code 1 ("yes"), as in the envs
        with pytest.raises(mtgsim.InvalidArgumentError, match="integer code"):
            b.step(codes)
    assert [b.game(i).to_json() for i in range(2)] == before
