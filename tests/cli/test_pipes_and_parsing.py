"""The command line under a closed pipe, with a mistyped option, and with more --workers than
the machine has: the run finishes and keeps its files, the mistake is one line, the
processes stay within the cores."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from boardai.cli import main
from boardai.cli._common import cap_workers

BOARDAI = [sys.executable, "-m", "boardai"]


def test_a_closed_stdout_still_writes_the_files(tmp_path: Path) -> None:
    """``boardai 2048 eval ... | head -1`` exited 1 with nothing said and no record file."""
    record, doc = tmp_path / "games.jsonl", tmp_path / "run.json"
    argv = ["2048", "eval", "--agent", "greedy", "--games", "3", "--workers", "1"]
    argv += ["--record", str(record), "--json", str(doc)]
    with subprocess.Popen(
        [*BOARDAI, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()  # as head -1 does: one line, then the pipe is gone
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=300) == 0, err
    assert b"greedy, 3 games" in first
    assert "Traceback" not in err and "Broken pipe" not in err and "error" not in err
    assert len(record.read_text().splitlines()) == 3
    assert len(json.loads(doc.read_text())["results"]) == 3


def test_a_write_to_a_closed_stdout_in_process_goes_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Closed:
        """A pipe whose reader has gone."""

        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

        def isatty(self) -> bool:
            return False

    monkeypatch.setattr(sys, "stdout", Closed())
    record = tmp_path / "games.jsonl"
    argv = ["2048", "eval", "--agent", "greedy", "--games", "2", "--workers", "1"]
    assert main([*argv, "--record", str(record)]) == 0
    assert len(record.read_text().splitlines()) == 2
    assert isinstance(sys.stdout, Closed)  # given back as it was


@pytest.mark.parametrize(
    ("argv", "says", "hint"),
    [
        (["2048", "eval", "--games", "x"], "argument --games: 'x' is not an integer", "2048 eval"),
        (
            ["othello", "match", "--black", "random", "--white", "wpc", "--bogus", "x"],
            "unrecognized arguments: --bogus x",
            "see boardai othello match --help",
        ),
        (["2048", "train", "ntuple"], "the following arguments are required: --out", "2048 train"),
        (["nosuchcommand"], "invalid choice: 'nosuchcommand'", "boardai --help"),
        (["train", "ntuple", "--episodes", "0"], "--episodes: 0 is not >= 1", "ntuple --help"),
    ],
)
def test_an_argparse_mistake_is_one_line_without_the_usage_block(
    argv: list[str], says: str, hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "usage:" not in err, err
    assert err.startswith("boardai: error: ") and says in err
    assert err.rstrip().endswith("--help)") and hint in err


def _workers(argv: list[str], tmp_path: Path) -> int:
    doc = tmp_path / "run.json"
    assert main([*argv, "--json", str(doc)]) == 0
    return int(json.loads(doc.read_text())["workers"])


def test_more_workers_than_cores_are_capped_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--workers 64 on 2 cores started 64 processes (about 10 GB)."""
    monkeypatch.setattr("boardai.cli._common.default_workers", lambda: 1)
    argv = ["2048", "eval", "--agent", "random", "--games", "2"]
    assert _workers([*argv, "--workers", "64"], tmp_path) == 1
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert warnings == [
        "boardai: warning: --workers 64 is more than the 1 core this process may use: using 1"
    ]
    assert _workers([*argv, "--workers", "1"], tmp_path) == 1
    assert "warning" not in capsys.readouterr().err


def test_a_ray_cluster_keeps_the_workers_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("boardai.cli._common.default_workers", lambda: 2)
    for cluster, kept in (("auto", 64), ("HOST:6379", 64), ("local", 2), (None, 2)):
        args = argparse.Namespace(workers=64, cluster=cluster, _workers_option=True)
        cap_workers(args)
        assert args.workers == kept, cluster


@pytest.mark.parametrize(
    "command", [["2048", "eval"], ["2048", "compare"], ["othello", "match"], ["sweep"]]
)
def test_every_workers_option_is_the_capped_one(command: list[str]) -> None:
    from boardai.cli import build_app

    parser = build_app().find(" ".join(command))
    assert parser.get_default("_workers_option") is True
