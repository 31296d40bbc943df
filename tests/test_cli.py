"""The command line's main job: a seeded demo game, played by the engine, printed as its log."""

import errno
import json
import os
import subprocess
import sys
from typing import Any

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


def _no_games(*args: object, **kwargs: object) -> None:
    raise AssertionError("a game was played before the outputs were checked")


@pytest.mark.parametrize(
    "out, match",
    [
        (["--json", "MISSING/out.json"], "--json {tmp}/missing/out.json: the directory {tmp}/missing does not exist"),
        (["--plot", "MISSING/out.png"], "--plot {tmp}/missing/out.png: the directory {tmp}/missing does not exist"),
        (["--json", "DIR"], "--json {tmp} is a directory, not a file"),
        (["--plot", "DIR"], "--plot {tmp} is a directory, not a file"),
        (["--json", "FILE/out.json"], "--json {tmp}/file/out.json: {tmp}/file is not a directory"),
        (["--json", ""], "--json needs a file name"),
    ],
)
def test_simulate_refuses_an_unwritable_output_before_playing(tmp_path, monkeypatch: pytest.MonkeyPatch, out: list[str], match: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("mtgsim.sim.simulate", _no_games)
    (tmp_path / "file").write_text("x")
    subs = {"MISSING": f"{tmp_path}/missing", "DIR": str(tmp_path), "FILE": f"{tmp_path}/file"}
    for k, v in subs.items():
        out = [a.replace(k, v) for a in out]
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--quiet", "--games", "5", *out])
    assert e.value.code == "mtgsim simulate: " + match.format(tmp=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # nothing written


def test_simulate_refuses_a_plot_format_matplotlib_cannot_write_before_playing(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    monkeypatch.setattr("mtgsim.sim.simulate", _no_games)
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--quiet", "--games", "5", "--plot", str(tmp_path / "turns.xyz")])
    assert str(e.value.code).startswith(f"mtgsim simulate: --plot {tmp_path}/turns.xyz: can't write .xyz images; use one of ")
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--quiet", "--games", "5", "--json", str(tmp_path / "a.png"), "--plot", str(tmp_path / "a.png")])
    assert e.value.code == f"mtgsim simulate: --json and --plot are the same file, {tmp_path}/a.png"
    assert list(tmp_path.iterdir()) == []


def test_simulate_to_a_missing_directory_is_one_line_and_exit_code_1(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # --games is large: the refusal comes before the games, or the test would take minutes.
    for flag in ("--json", "--plot"):
        path = tmp_path / "missing" / "out.png"
        p = subprocess.run([sys.executable, "-m", "mtgsim", "simulate", "--quiet", "--games", "100000000", flag, str(path)], capture_output=True, text=True, timeout=120)
        assert (p.returncode, p.stdout, p.stderr) == (1, "", f"mtgsim simulate: {flag} {path}: the directory {path.parent} does not exist\n")


def test_a_failed_json_write_says_why_and_leaves_the_old_file_whole(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "r.json"
    out.write_text("old results")

    def disk_full(src: str, dst: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), src)

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--quiet", "--games", "5", "--json", str(out)])
    assert e.value.code == f"mtgsim simulate: --json {out}: can't write it: No space left on device"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"] and out.read_text() == "old results"  # no partial file left


def test_a_plot_that_fails_half_written_leaves_nothing(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    def half_then_disk_full(self: Figure, f: Any, **kwargs: Any) -> None:
        f.write(b"\x89PNG\r\n\x1a\n half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Figure, "savefig", half_then_disk_full)
    png = tmp_path / "turns.png"
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--quiet", "--games", "5", "--plot", str(png)])
    assert e.value.code == f"mtgsim simulate: --plot {png}: can't write it: No space left on device"
    assert list(tmp_path.iterdir()) == []


def test_json_and_plot_are_written_whole(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    out, png, bare = tmp_path / "r.json", tmp_path / "turns.png", tmp_path / "turns"
    assert main(["simulate", "--quiet", "--games", "30", "--seed", "2", "--json", str(out), "--plot", str(png)]) == 0
    assert main(["simulate", "--quiet", "--games", "30", "--seed", "2", "--plot", str(bare)]) == 0  # no extension: PNG
    assert json.loads(out.read_text())["games"] == 30
    assert png.read_bytes()[:8] == bare.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "turns", "turns.png"]  # no temporary files left
    assert "30 games" in capsys.readouterr().out


def test_the_event_log_says_a_spell_kicked_by_a_granted_sticker_kicker_was_kicked() -> None:  # CR 702.33h
    import mtgsim
    from mtgsim.cli import describe

    g = mtgsim.Game(2, 0)
    for p in (0, 1):
        g.set_policy(p, "manual")
        g.add_cards(p, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Wicker Picker", "Forest", "Forest", "Forest"])
    (bears,) = g.add_cards(0, "hand", ["Grizzly Bears"])
    g.cast(bears, kick=[True], sticker=False)
    (cast,) = [e for e in g.events if e["kind"] == "spell_cast"]
    assert describe(g, cast).endswith("casts Grizzly Bears (kicked 1x)")


def test_json_lines_of_the_demo_put_kind_first_as_write_events_does(capsys: pytest.CaptureFixture[str]) -> None:  # docs/events.md
    from mtgsim.replay import events_jsonl

    main(["demo", "--seed", "3", "--json"])
    out = capsys.readouterr().out
    assert out == events_jsonl(run_demo(3))
    assert all(line.startswith('{"kind": ') for line in out.splitlines())


@pytest.mark.parametrize(
    "args, message",
    [
        (["--json-columns"], "--json-columns goes with --json (it chooses what the JSON holds)"),
        (["--plot", "-"], "--plot needs a file name ('-', standard output, is for --json only)"),
        (["--workers", "100000"], "--workers must be from 1 to 1024"),
        (["--workers", "0"], "--workers must be from 1 to 1024"),
        (["--games", str(2**70)], "--games must be a whole number from 1 to 2**64 - 1"),
    ],
)
def test_simulate_refuses_options_that_make_no_sense_before_playing(monkeypatch: pytest.MonkeyPatch, args: list[str], message: str) -> None:
    monkeypatch.setattr("mtgsim.sim.simulate", _no_games)
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--quiet", "--games", "5", *args])
    assert e.value.code == f"mtgsim simulate: {message}"


def test_an_output_through_a_link_writes_the_file_it_names_and_special_files_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    real.write_text("old")
    link.symlink_to(real)
    assert main(["simulate", "--quiet", "--games", "5", "--json", str(link)]) == 0
    assert link.is_symlink() and json.loads(real.read_text())["games"] == 5  # the link is kept
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--quiet", "--games", "5", "--json", str(fifo)])
    assert "is not a regular file" in str(e.value.code)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json", "link.json", "real.json"]
    assert not fifo.is_file()  # still the pipe


def test_deck_file_errors_name_the_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    good, bad, empty = tmp_path / "good.txt", tmp_path / "bad.txt", tmp_path / "empty.txt"
    good.write_text("60 Island\n")
    bad.write_text("4 Not A Real Card\n")
    empty.write_text("")
    cases = [
        ([str(good), "--opponent", str(bad)], f"mtgsim simulate: deck {bad}: "),
        ([str(empty)], f"mtgsim simulate: deck {empty} lists no cards"),
        ([str(tmp_path / "missing.txt")], f"mtgsim simulate: deck {tmp_path / 'missing.txt'}: No such file or directory"),
    ]
    for args, start in cases:
        with pytest.raises(SystemExit) as e:
            main(["simulate", "--quiet", "--games", "5", *args])
        assert str(e.value.code).startswith(start), e.value.code


def test_the_demo_stops_quietly_when_its_reader_goes_away() -> None:
    p = subprocess.Popen([sys.executable, "-m", "mtgsim", "demo", "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()  # as `mtgsim demo | head -1` does
    err = p.stderr.read().decode()
    p.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err


def test_a_plot_with_no_wins_warns_of_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    png = tmp_path / "none.png"
    p = subprocess.run([sys.executable, "-W", "error::UserWarning", "-m", "mtgsim", "simulate", "--quiet", "--games", "20", "--max-turns", "1", "--plot", str(png)], capture_output=True, text=True, timeout=120)
    assert (p.returncode, p.stderr) == (0, "") and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_long_runs_are_played_in_chunks_short_enough_to_interrupt() -> None:
    # Python sees Ctrl-C only between chunks (the engine plays without the interpreter); a run
    # of a million games was played 50,000 at a time (seconds between chances to stop).
    from mtgsim.sim import _run_chunks

    class Stop(Exception):
        pass

    asked: list[tuple[int, int]] = []

    def play(start: int, end: int) -> tuple[int, list[tuple[str, bytes, str]]]:
        asked.append((start, end))
        raise Stop

    with pytest.raises(Stop):
        _run_chunks(play, 10**6, 0, None, None, False, (), ())
    assert asked == [(0, 10_000)]


def test_json_and_plot_leading_to_the_same_file_through_a_link_are_refused(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    monkeypatch.setattr("mtgsim.sim.simulate", _no_games)
    real, link = tmp_path / "real.png", tmp_path / "link.png"
    real.write_bytes(b"")
    link.symlink_to(real)
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--quiet", "--games", "5", "--json", str(link), "--plot", str(real)])
    assert str(e.value.code).startswith("mtgsim simulate: --json and --plot are the same file")
