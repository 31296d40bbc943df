"""Replays (issue 7): a game from decks is reproduced exactly by its decks, seed and setup plus
the answers to its decisions; the event log as JSON lines in the schema of docs/events.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import mtgsim
from mtgsim import Game
from mtgsim.replay import events_jsonl, load_replay, save_replay, write_events

DOC = Path(__file__).resolve().parent.parent / "docs" / "events.md"


def played(policies: tuple[str, str], until: int | str, seed: int = 5) -> Game:
    g = Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=seed)
    for p, pol in enumerate(policies):
        g.set_policy(p, pol)
    g.play(until=until)
    return g


@pytest.mark.parametrize("policies", [("random", "goldfish"), ("goldfish", "first"), ("random", "random")])
@pytest.mark.parametrize("until", [3, 9, "game_over"])
def test_a_replay_reproduces_the_game_exactly(policies: tuple[str, str], until: int | str) -> None:
    g = played(policies, until)
    r = g.replay()
    assert r["format"] == "mtgsim-replay/1" and r["seed"] == 5 and len(r["answers"]) > 0
    h = Game.from_replay(json.dumps(r))
    assert h.events == g.events
    for p, pol in enumerate(policies):
        h.set_policy(p, pol)  # the replay is played back by manual players
    assert h.to_json() == g.to_json()


def test_a_replay_can_be_continued_and_saved(tmp_path: Path) -> None:
    g = played(("random", "random"), 4)
    path = tmp_path / "game.json"
    save_replay(g, path)
    h = load_replay(path)
    assert h.pending is None and h.turn == g.turn
    # Played on by the same deterministic policy, the two go on the same way. (A random
    # policy's own generator isn't part of the replay: its answers are.)
    for x in (g, h):
        x.set_policy(0, "goldfish")
        x.set_policy(1, "goldfish")
        x.play(until=8)
    assert h.events == g.events


def by_hand(seed: int) -> Game:
    """The example game with every player answering by hand, at its first decision."""
    g = Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=seed)
    for p in (0, 1):
        g.set_policy(p, "manual")
    g.play()
    return g


def test_a_replay_made_step_by_step_through_legal_actions() -> None:
    import random

    g = by_hand(11)
    rng = random.Random(3)
    for _ in range(150):
        if g.is_over:
            break
        g.take(rng.choice(g.legal_actions()))
    h = Game.from_replay(g.replay())
    assert h.to_json() == g.to_json()


@pytest.mark.parametrize("seed", [8, 11, 36])
def test_a_replay_stands_where_the_game_stood_after_every_action(seed: int) -> None:
    """Not only at the end: after each action taken by hand, and after each action of a policy
    (passes that were the only choice, which are no answers, included), the replayed game is
    the same game, waiting for the same decision."""
    import random

    rng = random.Random(seed)
    g = by_hand(seed)
    for _ in range(60):
        if g.is_over:
            break
        g.take(rng.choice(g.legal_actions()))
        h = Game.from_replay(g.replay())
        assert h.to_json() == g.to_json()
        assert (h.pending is None) == (g.pending is None) and h.observation(1) == g.observation(1)
    g = Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=seed)
    g.set_policy(0, "random")
    g.set_policy(1, "manual")
    for _ in range(40):
        if g.is_over:
            break
        if g.pending is not None:
            g.take(rng.choice(g.legal_actions()))
        else:
            g.play(max_actions=1)
        h = Game.from_replay(json.loads(json.dumps(g.replay())))
        assert (h.turn, h.step, h.priority_player) == (g.turn, g.step, g.priority_player)
        assert h.to_json() == g.to_json()


@pytest.mark.parametrize(
    "mutate, match",
    [
        (lambda r: r.update(format="other/9"), "unknown replay format"),
        (lambda r: r["answers"].insert(0, {"player": 1, "answer": {"type": "action", "index": 0}}), "player 1's, but player 0"),
        (lambda r: r["answers"].__setitem__(0, {"player": 0, "answer": {"type": "action", "index": 99}}), "doesn't fit"),
        (lambda r: r.pop("seed"), "not a replay"),
        (lambda r: r["decks"][0].__setitem__(0, "Islnd"), "Islnd"),
        (lambda r: r.update(setup={"hand_size": 2**31, "starting_life": 20}), "hand size of 2147483648 is out of range"),  # was an abort
        (lambda r: r.update(setup={"hand_size": 7, "starting_life": 0}), "starting life"),
    ],
)
def test_a_bad_replay_is_a_clear_error(mutate, match: str) -> None:  # type: ignore[no-untyped-def]
    r = played(("random", "random"), 4).replay()
    mutate(r)
    with pytest.raises(mtgsim.MtgsimError, match=match):
        Game.from_replay(r)


def test_only_games_from_decks_have_replays() -> None:
    with pytest.raises(mtgsim.InvalidArgumentError, match="from_decks"):
        Game(2, 1).replay()


def test_a_cancelled_cast_leaves_nothing_in_the_record() -> None:  # CR 733
    g = Game.from_decks(list(mtgsim.EXAMPLE_DECKS), seed=2)
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest", "Island"])  # a choice of sources
    (jo,) = g.add_cards(0, "hand", ["Joint Exploration"])
    g.set_auto_pay(0, False)
    g.set_policy(0, "manual")
    before = g.replay()["answers"]
    g.cast(jo)
    g.answer(True)  # kicked: recorded while the cast goes on
    assert g.pending is not None and g.pending.purpose == "pay_mana"
    assert g.replay()["answers"] == before + [{"player": 0, "answer": {"type": "yes_no", "yes": True}}]
    g.cancel()
    assert g.replay()["answers"] == before


def documented_fields() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (`[a-z_]+`(?: / `[a-z_]+`)*) \| ([^|]*) \|", line)
        if not m:
            continue
        fields = {f.strip() for f in m.group(2).split(",") if f.strip()}
        for kind in re.findall(r"`([a-z_]+)`", m.group(1)):
            out[kind] = fields
    return out


def test_events_are_json_lines_with_the_documented_fields(tmp_path: Path) -> None:
    doc = documented_fields()
    assert len(doc) >= 30
    seen: set[str] = set()
    for seed in range(6):
        g = played(("random", "random"), "game_over", seed=seed)
        text = events_jsonl(g)
        lines = text.splitlines()
        assert len(lines) == len(g.events) and text.endswith("\n")
        for line, event in zip(lines, g.events):
            e = json.loads(line)
            assert e == event and next(iter(e)) == "kind"
            assert e["kind"] in doc, e
            assert set(e) - {"kind"} == doc[e["kind"]], e
            seen.add(e["kind"])
    assert {"drew", "milled", "shuffled", "step_began", "spell_cast", "game_over", "player_lost"} <= seen
    path = tmp_path / "events.jsonl"
    write_events(g, path)
    assert path.read_text(encoding="utf-8") == events_jsonl(g)


def test_a_replay_of_a_game_with_a_cancelled_cast_stands_where_the_game_stood() -> None:  # CR 733
    import random

    for seed in range(60):
        rng = random.Random(seed)
        g = by_hand(seed)
        for _ in range(400):
            if g.is_over or g.pending is None:
                break
            actions = g.legal_actions()
            casts = [a for a in actions if "cast" in a.text] if g.pending.kind == "action" else []
            g.take(casts[0] if casts else rng.choice(actions))
            if casts and g.pending is not None and g.pending.kind != "action" and g.stack() == []:
                g.cancel()  # a cast waiting for its first decision: taken back whole
                h = Game.from_replay(g.replay())
                assert h.to_json() == g.to_json()
                return
            if g.pending is None and not g.is_over:
                g.play()
    pytest.fail("no cast with a decision of its own was found to cancel")


LEYLINE_DECKS = [["Leyline of the Void"] * 4 + ["Swamp"] * 16, ["Island"] * 20]


@pytest.mark.parametrize("policies", [["first", "first"], ["random", "goldfish"], ["manual", "random"]])
def test_a_replay_reproduces_the_opening_hand_choices_whoever_made_them(policies: list[str]) -> None:  # CR 103.6a
    for seed in range(4):
        g = Game.from_decks(LEYLINE_DECKS, seed=seed, policies=policies)  # type: ignore[arg-type]
        while g.pending is not None and g.pending.purpose == "begin_on_battlefield":
            g.answer(g.pending.options[: seed % 3])  # a manual player's choice
        g.set_policy(0, "goldfish")
        g.set_policy(1, "goldfish")
        g.play(until=3)
        h = Game.from_replay(g.replay())
        assert h.events == g.events
        h.set_policy(0, "goldfish")
        h.set_policy(1, "goldfish")
        assert h.to_json() == g.to_json()


def test_a_game_with_answers_given_while_the_log_was_off_has_no_replay() -> None:
    g = played(("random", "random"), 2)
    g.recording = False
    g.play(until=3)
    g.recording = True
    with pytest.raises(mtgsim.InvalidArgumentError, match="log was off"):
        g.replay()


def test_a_game_where_a_player_conceded_has_no_replay() -> None:  # CR 104.3a
    g = Game.from_decks([list(mtgsim.EXAMPLE_DECKS[0])] * 3, seed=2)
    g.play(until=2)
    g.concede(2)
    with pytest.raises(mtgsim.InvalidArgumentError, match="conceded"):
        g.replay()


def test_a_replay_file_that_is_not_json_is_an_invalid_argument(tmp_path: Path) -> None:  # every error is an MtgsimError
    path = tmp_path / "r.json"
    path.write_text("{bad")
    with pytest.raises(mtgsim.InvalidArgumentError, match="is not a replay: not JSON"):
        load_replay(path)


def test_a_replay_or_log_that_fails_to_write_leaves_no_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    g = Game.from_decks([["Island"] * 40, ["Swamp"] * 40], seed=1)
    old = tmp_path / "r.json"
    old.write_text("old")

    def disk_full(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    for write in (save_replay, write_events):
        with pytest.raises(OSError):
            write(g, old)
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"] and old.read_text() == "old"
