"""The command line's main job: a seeded demo game, played by the engine, printed as its log."""

import json

import pytest

from mtgsim.cli import main, run_demo


def test_demo_plays_a_real_game_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:  # CR 704.5b
    assert main(["demo", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "player 0 casts Fractured Sanity" in out or "player 0 casts Maddening Cacophony" in out
    assert out.strip().splitlines()[-1].startswith("game over: winners [0]")


def test_demo_is_the_same_for_the_same_seed_and_differs_for_another() -> None:
    a, b, c = run_demo(5), run_demo(5), run_demo(6)
    assert a.events == b.events
    assert a.events != c.events
    assert a.is_over and a.outcome is not None


def test_demo_json_lines_are_the_event_log(capsys: pytest.CaptureFixture[str]) -> None:
    main(["demo", "--seed", "3", "--json"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert [json.loads(line) for line in lines] == run_demo(3).events


def test_a_negative_seed_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--seed", "-1"])
