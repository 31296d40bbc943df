"""The training run of the profile-guided build (`.ci/build-pgo`): what users run the package
for, so the compiler lays the code out for it. Whole games of the built-in example with each
built-in policy; the library actions, typecycling and casting, in batch and per Python call;
goldfish turns; agent steps. Not a benchmark: it only has to exercise the paths in proportion.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mtgsim
from mtgsim import Game, Op

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benches"))
from positions import casting_position, library_position, typecycling_position  # noqa: E402

REPS = 20_000


def whole_games() -> None:
    for policy, games in (("goldfish", 40_000), ("random", 4_000), ("first", 4_000)):
        mtgsim.simulate(games=games, seed=7, policies=policy, workers=1)
    mtgsim.simulate(games=4_000, seed=8, stop=["library_empty:1"], record=["turn:5"], workers=1)


def library_actions() -> None:
    g = library_position()
    for op in (Op.mill(1, 14), Op.draw(1), Op.shuffle(1), Op.search(1, "basic land", reveal=True), Op.scry(1, 2)):
        g.run_batch([op], REPS)
    for _ in range(2_000):
        x = g.clone()
        x.mill(1, 14)
        x.draw(1)
        x.search(1, "basic land", reveal=True)
        x.scry(1, 2)


def typecycling() -> None:
    g, card = typecycling_position()
    g.run_batch([Op.cycle(card), Op.resolve_top()], 5 * REPS)
    for _ in range(4_000):
        x = g.clone()
        x.cycle(card)
        x.resolve_top()


def casting() -> None:
    g, chalice = casting_position()
    g.run_batch([Op.cast(chalice, kick=3), Op.resolve_top()], REPS)
    for _ in range(4_000):
        x = g.clone()
        x.cast(chalice, kick=3)
        x.resolve_top()


def turns_and_agents() -> None:
    g = Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=11)
    g.recording = False
    for p in (0, 1):
        g.set_policy(p, "goldfish")
    g.run_batch([Op.play_turn(), Op.play_turn()], 4_000)
    batch = mtgsim.GameBatch(mtgsim.EXAMPLE_DECKS, games=64, seed=1)
    for _ in range(200):
        mask = batch.observe()["action_mask"]
        batch.step(mask.argmax(axis=1))  # each game's first legal action


if __name__ == "__main__":
    whole_games()
    library_actions()
    typecycling()
    casting()
    turns_and_agents()
