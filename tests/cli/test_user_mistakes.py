"""A user's mistake is one line on stderr and exit code 2, never a traceback; output paths are
checked before the work starts, and results are not lost when writing them fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardai.cli import main
from boardai.cli._common import check_output
from boardai.errors import ModelFileError, UsageError


def _one_error_line(err: str) -> str:
    """The single ``boardai: error:`` line of ``err`` (and no traceback)."""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("boardai: error: ")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (
            ["2048", "eval", "--agent", "random", "--games", "3", "--json", "/proc/x/x.json"],
            "--json",
        ),
        (
            ["2048", "eval", "--agent", "random", "--games", "3", "--plot", "/proc/x/p.png"],
            "--plot",
        ),
        (["2048", "compare", "--agents", "random", "greedy", "--json", "/proc/x/c.json"], "--json"),
        (["2048", "train", "ntuple", "--out", "/proc/x/z.npz"], "--out /proc/x/z.npz"),
        (["2048", "train", "dqn", "--out", "/proc/x"], "--out /proc/x"),
        (["othello", "train", "ntuple", "--out", "/proc/x/o.npz"], "--out"),
        (["othello", "perft", "3", "--json", "/proc/x/p.json"], "--json"),
        (["othello", "match", "--black", "random", "--white", "wpc", "--json", "/proc/x/m"], ""),
    ],
)
def test_an_unwritable_output_fails_before_the_work(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    line = _one_error_line(err)
    assert err.strip() == line  # nothing ran: no progress bar, no results
    assert says in line and "cannot write there" in line
    assert out == ""


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["2048", "eval", "--agent", "random", "--record", "-"], "--record writes a file, not"),
        (["2048", "eval", "--agent", "random", "--csv", "-"], "--csv writes a file, not stdout"),
        (["sweep", "x.toml", "--out", "-"], "--out writes a folder, not stdout"),
    ],
)
def test_a_dash_for_a_file_is_refused_where_it_is_not_stdout(
    argv: list[str],
    says: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # it wrote a file called "-" (only --json takes - for stdout)
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert says in _one_error_line(capsys.readouterr().err)
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["2048", "train", "ntuple", "--patterns", "zz"], "--patterns: unknown pattern set 'zz'"),
        (["othello", "train", "ntuple", "--tuples", "zz"], "unknown n-tuple 'zz'"),
    ],
)
def test_a_bad_network_fails_before_the_progress_bar(
    argv: list[str], says: str, tmp_path: Path
) -> None:
    """Run as a command: without a terminal a progress bar still prints its last frame when
    it stops, so one started before the check would show above the error."""
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "boardai", *argv, "--out", str(tmp_path / "m.npz")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"boardai: error: {says}")
    assert len(done.stderr.splitlines()) == 1 and len(done.stderr) < 300, done.stderr


def test_output_checks_name_the_problem(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(UsageError, match="is a folder, not a file"):
        check_output(tmp_path, "--json")
    with pytest.raises(UsageError, match=r"file is not a folder"):
        check_output(tmp_path / "file" / "x.json", "--json")
    with pytest.raises(UsageError, match="is a file, not a folder"):
        check_output(tmp_path / "file", "--out", folder=True)
    check_output(tmp_path / "new" / "deeper" / "x.json", "--json")  # made, and left empty
    assert list((tmp_path / "new" / "deeper").iterdir()) == []
    check_output("/dev/null", "--json")


def test_eval_results_are_not_lost_when_the_write_fails(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["2048", "eval", "--agent", "random", "--games", "3", "--workers", "1"]
    assert main([*argv, "--record", "/dev/full"]) == 2
    out, err = capsys.readouterr()
    line = _one_error_line(err)
    assert "/dev/full: No space left on device" in line and "results above" in line
    assert "random, 3 games" in out  # the summary was shown
    assert main([*argv, "--json", "/dev/null"]) == 0  # a device is written to, not replaced


def test_a_port_out_of_range_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", "--port", "70000"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1  # one line, no usage block
    assert err.startswith("boardai: error: argument --port: 70000 is not a port (0..65535)")


def _othello_model(path: Path) -> Path:
    from boardai.othello.ntuple import NTupleNetwork
    from boardai.othello.ntuple_file import save_network

    save_network(path, NTupleNetwork.create("small"))
    return path


def _2048_model(path: Path) -> Path:
    from boardai.g2048.ntuple import NTupleNetwork
    from boardai.learn.model_file import save_model

    save_model(path, NTupleNetwork.create("0123,4567"))
    return path


def test_a_model_of_the_other_game_says_which_game_it_is(tmp_path: Path) -> None:
    from boardai.g2048.agents import make_agent as make_2048
    from boardai.othello.agents import make_agent as make_othello

    othello = _othello_model(tmp_path / "o.npz")
    with pytest.raises(ModelFileError, match=r"o\.npz: an Othello n-tuple model, not a 2048 one"):
        make_2048(f"ntuple:model={othello}")
    g2048 = _2048_model(tmp_path / "g.npz")
    with pytest.raises(ModelFileError, match=r"g\.npz: a 2048 n-tuple model, not an Othello one"):
        make_othello(f"ntuple:model={g2048}")


def test_othello_match_with_a_bad_model_over_workers_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g2048 = _2048_model(tmp_path / "g.npz")
    argv = ["othello", "match", "--black", f"ntuple:model={g2048}", "--white", "wpc"]
    assert main([*argv, "--games", "4", "--workers", "2"]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert "not an Othello one" in line


def test_a_player_failing_in_a_worker_comes_back_as_its_error(tmp_path: Path) -> None:
    """Past the parent's check (the file changed meanwhile), a worker's UsageError reaches the
    parent as it is, not as a broken process pool."""
    from boardai.arena.match import run_match

    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(ModelFileError, match=r"bad\.npz"):
        run_match(f"ntuple:model={bad}", "wpc", 2, workers=2)


def test_a_missing_optional_dependency_is_one_line_naming_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails, as without the extra
    for argv in (
        ["2048", "watch", "--agent", "dqn:model=2048-dqn"],
        ["othello", "train", "dqn", "--out", str(tmp_path / "o.pt")],  # before its bar
    ):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.strip().splitlines() == [
            'boardai: error: this needs torch, which is not installed: pip install "boardai[dqn]"'
        ]


@pytest.mark.parametrize(
    ("argv", "missing"),
    [
        (["2048", "eval", "--agent", "random", "--games", "2", "--plot", "p.png"], "matplotlib"),
        (
            [
                "2048",
                "train",
                "ntuple",
                "--patterns",
                "0123",
                "--episodes",
                "2",
                "--out",
                "t.npz",
                "--plot",
                "t.png",
            ],
            "matplotlib",
        ),
        (["render", "no-such-record.jsonl", "--png", "x.png"], "PIL"),
        (["render", "no-such-record.jsonl", "--gif", "x.gif"], "imageio"),
    ],
)
def test_an_output_needing_a_missing_extra_fails_before_the_work(
    argv: list[str],
    missing: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A plot or picture asked for without the plot extra: said before the games or the
    # training run (it was said after them, or, for render, a traceback), nothing written
    import sys

    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, missing, None)  # as if not installed
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.strip() == (
        f'boardai: error: this needs {missing}, which is not installed: pip install "boardai[plot]"'
    )
    assert out == "" and list(tmp_path.iterdir()) == []


def test_a_missing_module_that_is_not_optional_is_a_bug_shown_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from boardai.cli.g2048 import random_games

    def broken(args: object) -> int:
        import boardai_no_such_module  # type: ignore[import-not-found]  # noqa: F401

        return 0

    monkeypatch.setattr(random_games, "run", broken)  # registered by main's build_app
    with pytest.raises(ModuleNotFoundError):
        main(["2048", "random", "--games", "1"])


def test_a_2048_training_run_that_diverges_stops_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # alpha 5: the weights overflow within a few episodes; the player would then choose no
    # move (every value NaN) and every game would end at once, learning nothing, silently
    out = tmp_path / "m.npz"
    argv = ["2048", "train", "ntuple", "--patterns", "0123,4567", "--episodes", "300"]
    assert main([*argv, "--alpha", "5", "--out", str(out), "--quiet"]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert "diverged" in line and "lower alpha (was 5)" in line and "nothing saved" in line
    assert not out.exists()
    # a sound rate trains on; resumed with too large a rate, its file stays as it was
    assert main([*argv[:-1], "40", "--alpha", "0.1", "--out", str(out), "--quiet"]) == 0
    before = out.read_bytes()
    resumed = ["--resume", str(out), "--alpha", "5", "--out", str(out), "--quiet"]
    assert main([*argv, *resumed]) == 2
    assert "nothing saved" in _one_error_line(capsys.readouterr().err)
    assert out.read_bytes() == before


def test_a_run_that_diverges_after_a_checkpoint_says_what_the_file_keeps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from boardai.g2048.train.trainer import Chunk, Trainer

    calls: list[int] = []
    train = Trainer.train

    def diverging(self: Trainer, n: int, threads: int = 1) -> Chunk:
        calls.append(n)
        if len(calls) == 3:
            raise FloatingPointError("n-tuple weights diverged: lower alpha")
        return train(self, n, threads)

    monkeypatch.setattr(Trainer, "train", diverging)
    out = tmp_path / "m.npz"
    argv = ["2048", "train", "ntuple", "--patterns", "0123", "--episodes", "100000"]
    assert main([*argv, "--out", str(out), "--checkpoint-every", "1", "--quiet"]) == 2
    line = _one_error_line(capsys.readouterr().err)
    done = calls[0] + calls[1]
    assert f"diverged by episode {done + calls[2]:,}" in line
    assert f"{out} keeps episode {done:,}" in line
    from boardai.learn.model_file import read_meta

    assert read_meta(out)["episodes"] == done
