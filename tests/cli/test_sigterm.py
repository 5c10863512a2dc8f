"""SIGTERM (kill, timeout, a job scheduler) stops training as Ctrl-C does: the model is saved
and the command exits 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

SRC = Path(__file__).parents[2] / "src"


def _terminate_when(
    argv: list[str], ready: Callable[[], bool], times: int = 1, timeout: float = 180
) -> tuple[int, bytes, bytes]:
    """Run ``boardai ARGV``, send SIGTERM once ``ready()`` (``times`` times, 0.1 s apart: the
    first has begun stopping the work when the next comes), return the exit code, stdout and
    stderr."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardai", *argv],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + timeout  # the first run compiles the kernels
        while not ready():
            assert proc.poll() is None, "the command ended before it was ready"
            assert time.monotonic() < deadline, "not ready in time"
            time.sleep(0.05)
        for k in range(times):
            time.sleep(0.1 if k else 0.0)
            proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert b"Traceback" not in err and b"Exception ignored" not in err, err.decode()
    return proc.returncode, out, err


@pytest.mark.parametrize("times", [1, 2])  # two: as timeout(1) sends them
def test_train_ntuple_saves_on_sigterm(tmp_path: Path, times: int) -> None:
    from boardai.g2048.train.trainer import Trainer

    out = tmp_path / "m.npz"
    argv = ["train", "ntuple", "--patterns", "0123,4567", "--episodes", "100000000"]
    argv += ["--checkpoint-every", "100", "--quiet", "--out", str(out)]
    code, said, err = _terminate_when(argv, out.exists, times=times)
    assert code == 130 and b"interrupted: saved" in said + err, (said + err).decode()
    first = Trainer.load(out).episodes
    assert first >= 100


@pytest.mark.slow
def test_train_othello_ntuple_saves_on_sigterm(tmp_path: Path) -> None:
    from boardai.othello.ntuple_file import load_model

    out = tmp_path / "o.npz"
    argv = ["train", "othello-ntuple", "--episodes", "100000000", "--tuples", "small"]
    argv += ["--eval-every", "200", "--eval-games", "2", "--out", str(out)]
    assert _terminate_when(argv, out.exists)[0] == 130
    _, meta = load_model(out)
    assert meta


@pytest.mark.slow
def test_train_dqn_saves_on_sigterm(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from boardai.g2048.qnet import load_checkpoint

    out = tmp_path / "run"
    argv = ["train", "dqn", "--net", "fc", "--planes", "12", "--hidden", "16", "--num-envs", "4"]
    argv += ["--warmup", "32", "--batch-size", "16", "--eval-games", "2", "--eval-every", "0"]
    argv += ["--save-every", "200", "--steps", "100000000", "--out", str(out)]
    assert _terminate_when(argv, (out / "checkpoint.pt").exists)[0] == 130
    assert load_checkpoint(out / "checkpoint.pt")["counters"]["env_steps"] >= 200


def test_a_second_sigterm_lets_the_first_one_stop_the_work() -> None:
    # timeout(1) sends SIGTERM twice (to the command, then to its process group): the second
    # must not cut short the stopping of the work that the first began.
    from boardai.cli._common import sigterm_as_ctrl_c

    first, second = [], []
    before = signal.getsignal(signal.SIGTERM)
    with sigterm_as_ctrl_c():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        except KeyboardInterrupt:
            first.append(True)
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.2)  # stopping: a KeyboardInterrupt here would leave it half done
            except KeyboardInterrupt:
                second.append(True)
    after = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, before)  # this process (pytest's) goes on
    assert first and not second
    assert after == signal.SIG_IGN  # ignored from then on: the process is stopping


def test_eval_stopped_by_two_sigterms_reports_its_games(tmp_path: Path) -> None:
    # timeout(1) sends two: one to the command, one to its process group
    journal = tmp_path / "run.jsonl"
    argv = ["2048", "eval", "--agent", "greedy", "--games", "100000000", "--workers", "2"]
    argv += ["--resume", str(journal)]

    def two_games() -> bool:
        return journal.exists() and len(journal.read_text().splitlines()) >= 3

    code, out, err = _terminate_when(argv, two_games, times=2)
    assert code == 130 and b"interrupted: reporting the" in err and b"average score" in out


def test_a_sweep_over_a_pool_saves_its_running_trials_on_sigterm(tmp_path: Path) -> None:
    # the parent stops its pool; each worker's trial ends its chunk and saves (no checkpoint
    # was due), so --resume loses nothing
    from boardai.g2048.train.trainer import Trainer

    sweep = tmp_path / "long.toml"
    sweep.write_text(
        'trainer = "2048-ntuple"\n[base]\npatterns = "0123,4567"\nepisodes = 100000000\n'
        "report_every = 100\ncheckpoint_minutes = 0\n[grid]\nalpha = [0.1, 0.05]\n"
    )
    out = tmp_path / "out"
    csvs = [out / name / "progress.csv" for name in ("alpha-0.1", "alpha-0.05")]

    def both_reported() -> bool:
        return all(p.exists() and len(p.read_text().splitlines()) >= 2 for p in csvs)

    argv = ["sweep", str(sweep), "--out", str(out), "--workers", "2"]
    code, said, err = _terminate_when(argv, both_reported)
    assert code == 130, (said + err).decode()
    for p in csvs:
        assert Trainer.load(p.parent / "model.npz").episodes >= 100


def test_a_stopped_tournament_stops_and_reports_what_it_played(tmp_path: Path) -> None:
    # the stop ended only the pairing under way: the others were then played in full, exit 0
    journal = tmp_path / "t.jsonl"
    argv = ["othello", "tournament", "--agents", "random", "wpc", "greedy"]
    argv += ["--games", "100000000", "--workers", "1", "--resume", str(journal)]

    def some_games() -> bool:
        return journal.exists() and len(journal.read_text().splitlines()) >= 20

    code, out, err = _terminate_when(argv, some_games)
    assert code == 130, (out + err).decode()
    assert b"interrupted in pairing 1 of 3" in err
    assert out.count(b" vs ") == 1 and b"greedy" not in out  # the table: those who played


def _after(seconds: float) -> Callable[[], bool]:
    start = time.monotonic()
    return lambda: time.monotonic() - start > seconds


def test_a_long_compiled_count_stops_at_once() -> None:
    # perft 13 is one compiled call of minutes: SIGTERM (or Ctrl-C) waited for all of it
    start = time.monotonic()
    code, _, err = _terminate_when(["othello", "perft", "13", "--force"], _after(3))
    assert code == 130 and b"interrupted" in err
    assert time.monotonic() - start < 60  # (the whole count takes minutes)


def test_random_games_stopped_inside_a_kernel_report_their_games() -> None:
    # a KeyboardInterrupt raised as numba boxed the tuple of arrays a kernel returned was a
    # SystemError
    argv = ["2048", "random", "--games", "100000000"]
    code, out, err = _terminate_when(argv, _after(6))  # (started, and some games played)
    assert code == 130  # and no traceback (_terminate_when)
    if b"interrupted: reporting the" not in err:  # a machine so slow it had not begun: a note
        assert b"boardai: interrupted" in err
    else:
        assert b"average score" in out


def test_a_benchmark_stopped_inside_a_kernel_exits_130() -> None:
    # the same SystemError where the command keeps nothing: one line, exit 130
    argv = ["2048", "bench", "engine", "--games", "200000", "--repeat", "50"]
    code, _, err = _terminate_when(argv, _after(6))
    assert code == 130 and b"boardai: interrupted" in err


def test_a_system_error_of_another_cause_is_still_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardai.cli import main
    from boardai.cli.g2048 import bench_engine

    def broken(*args: object) -> None:
        raise SystemError("a bug")

    monkeypatch.setattr(bench_engine, "measure", broken)
    with pytest.raises(SystemError, match="a bug"):
        main(["2048", "bench", "engine"])


def test_a_stopped_compare_says_so_and_shows_what_it_played(tmp_path: Path) -> None:
    journal = tmp_path / "c.jsonl"
    argv = ["2048", "compare", "--agents", "greedy", "random", "--games", "100000000"]
    argv += ["--workers", "1", "--resume", str(journal)]

    def some_games() -> bool:
        return journal.exists() and len(journal.read_text().splitlines()) >= 5

    code, out, err = _terminate_when(argv, some_games)
    assert code == 130 and b"interrupted: reporting the" in err
    assert b"100000000 games per player asked, stopped early" in out
    assert b"random" not in out.split(b"seed 0", 1)[1]  # the second player never began
