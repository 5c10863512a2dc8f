"""Ctrl-C on a run that plays on Ray, end to end: the command stops with exit code 130, the games
finished so far are in its journal, and resuming it (here without Ray) plays only the missing
games and writes the file an uninterrupted run writes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.arena.untimed import RAY_TIMINGS, untimed

# On the worker of the other Ray tests, after or before them, never beside them
# (tests/conftest.py): each of these starts Ray in a child.

#: Seconds a child may take to start Ray and finish its first games on a loaded machine (Ray's
#: start alone may be made three times, 30 s and more each: boardai.arena.ray_backend).
STARTED_S = 480

# Long enough (about 18 CPU-seconds, 16 chunks of 16 games) that Ctrl-C, sent once the first
# chunk is in the journal, lands well before the last one: with 16 games of depth 1 (a quarter
# of a second) a fast machine finished them all before the signal arrived.
GAMES = 256
EVAL = ["2048", "eval", "--agent", "expectimax:depth=2", "--games", str(GAMES), "--seed", "8"]


def _reap(child: subprocess.Popen[str]) -> None:
    """Kill ``child`` if it still runs, and wait for it: a child left unwaited is a
    ResourceWarning ("subprocess ... is still running") when it is collected, an error under
    this suite's ``filterwarnings = error`` in whichever test runs then."""
    if child.poll() is None:
        child.kill()
    child.communicate()


def _boardai(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    """``boardai ARGS`` in a child that takes Ctrl-C as a terminal gives it (a child of a
    background job would otherwise inherit SIGINT ignored)."""
    return subprocess.Popen(
        [sys.executable, "-m", "boardai", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_ctrl_c_on_a_ray_run_stops_it_and_resume_finishes_it(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    journal = tmp_path / "run.jsonl"
    child = _boardai(
        [
            *EVAL,
            "--cluster",
            "local",
            "--workers",
            "2",
            "--json",
            "ray.json",
            "--resume",
            str(journal),
        ],
        tmp_path,
    )
    try:
        deadline = time.monotonic() + STARTED_S  # Ray's start on a loaded machine
        while time.monotonic() < deadline and child.poll() is None:
            if journal.exists() and len(journal.read_text().splitlines()) >= 1 + 2:
                break
            time.sleep(0.1)
        else:
            assert child.poll() is None, child.communicate()[1][-2000:]
            pytest.fail(f"no two games in the journal after {STARTED_S} s: the machine is too busy")
        assert child.poll() is None, child.communicate()[1][-2000:]
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=120)
    finally:
        _reap(child)
    assert child.returncode == 130, err[-2000:]
    assert "Traceback" not in err
    done = [json.loads(line) for line in journal.read_text().splitlines()[1:] if line.strip()]
    assert 2 <= len(done) < GAMES, "stopped part-way"

    whole, resumed = tmp_path / "whole.json", tmp_path / "resumed.json"
    for out, extra in ((whole, []), (resumed, ["--resume", str(journal)])):
        finished = subprocess.run(
            [sys.executable, "-m", "boardai", *EVAL, "--workers", "2", "--json", str(out), *extra],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert finished.returncode == 0, finished.stderr[-2000:]
    assert untimed(resumed, RAY_TIMINGS) == untimed(whole, RAY_TIMINGS)
    indices = [json.loads(line)["index"] for line in journal.read_text().splitlines()[1:]]
    assert sorted(indices) == list(range(GAMES))  # the interrupted games were not played twice


LONG_SWEEP = """trainer = "2048-ntuple"
[base]
patterns = "0123"
episodes = 100000000
report_every = 500
checkpoint_every = 100000000
[grid]
alpha = [0.1, 0.05]
[eval]
games = 4
"""


def test_ctrl_c_on_a_ray_sweep_saves_the_trials_under_way(tmp_path: Path) -> None:
    """Ray's workers get no Ctrl-C: the sweep asks its trials to stop, they save where they
    are (no checkpoint was due), and then it leaves Ray."""
    pytest.importorskip("ray")
    from boardai.g2048.train.trainer import Trainer

    (tmp_path / "long.toml").write_text(LONG_SWEEP)
    out = tmp_path / "sw"
    child = _boardai(
        ["sweep", "long.toml", "--out", str(out), "--cluster", "local", "--workers", "2"], tmp_path
    )
    names = ("alpha-0.1", "alpha-0.05")
    try:
        deadline = time.monotonic() + STARTED_S  # Ray's start on a loaded machine
        while time.monotonic() < deadline and child.poll() is None:
            csvs = [out / name / "progress.csv" for name in names]
            if all(p.exists() and len(p.read_text().splitlines()) >= 2 for p in csvs):
                break
            time.sleep(0.2)
        else:
            assert child.poll() is None, child.communicate()[1][-2000:]
            pytest.fail(f"the trials reported nothing after {STARTED_S} s: the machine is too busy")
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=200)
    finally:
        _reap(child)
    assert child.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "tasks under way to save" in err
    for name in names:
        trained = Trainer.load(out / name / "model.npz").episodes
        assert 500 <= trained < 100000000, name  # saved when stopped, not at a checkpoint
        assert not (out / name / "result.json").exists()
    assert not (out / ".stop").exists()  # the run's request is gone with it
