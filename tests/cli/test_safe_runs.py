"""A command that writes a run or a model never replaces (or adds to) one that is there
unasked: without --resume or --force it says so in one line, exit 2, and touches nothing; and
a budget that cannot train anything is one line too, not a run that saves an untrained model."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardai.cli import main
from tests.cli.errors import one_error_line as _one_error_line


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


DQN = ["2048", "train", "dqn", "--net", "fc", "--planes", "12", "--hidden", "16"]
DQN += ["--fc-layers", "16", "--num-envs", "4", "--warmup", "32", "--batch-size", "16"]
DQN += ["--eval-games", "2", "--eval-every", "0", "--replay-size", "2000"]


def test_a_second_dqn_run_into_its_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It replaced checkpoint.pt and best.pt and appended to the old log.csv."""
    pytest.importorskip("torch")
    out = tmp_path / "d1"
    argv = [*DQN, "--steps", "60", "--out", str(out)]
    assert main(argv) == 0
    before = _files(out)
    assert {"checkpoint.pt", "best.pt", "log.csv"} <= set(before)
    capsys.readouterr()
    assert main(argv) == 2
    line = _one_error_line(capsys)
    assert f"--out {out} holds a run already" in line
    assert "give --resume to go on from it, or --force to replace it" in line
    assert _files(out) == before
    assert main([*argv, "--force"]) == 0  # a new run: its own log, not the old one's rows after
    rows = (out / "log.csv").read_text().splitlines()
    assert rows[0].startswith("env_steps") and sum(r.startswith("env_steps") for r in rows) == 1
    assert len(rows) == len(before["log.csv"].decode().splitlines())


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--evaluate", "0"], "--evaluate must be >= 1 games, got 0"),
        (
            ["--steps", "20"],
            "steps (20) must be more than the 32 transitions collected before learning starts "
            "(warmup)",
        ),
        (["--steps", "40", "--warmup", "8", "--batch-size", "64"], "40 transitions"),
    ],
)
def test_a_dqn_budget_that_trains_nothing_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], says: str
) -> None:
    """--evaluate 0 started a 1,000,000-step run into the folder; --steps under the warm-up
    wrote an untrained best.pt with exit 0."""
    pytest.importorskip("torch")
    out = tmp_path / "run"
    assert main([*DQN, "--out", str(out), *flags]) == 2
    line = _one_error_line(capsys)
    if says.endswith("transitions"):
        says = "more than the 64 transitions"  # the batch, larger than the warm-up here
    assert says in line, line
    assert not out.exists() or not any(out.iterdir())


def test_an_ntuple_model_is_replaced_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.npz"
    argv = ["2048", "train", "ntuple", "--patterns", "0123", "--episodes", "20", "--quiet"]
    argv += ["--out", str(out)]
    assert main(argv) == 0
    before = out.read_bytes()
    capsys.readouterr()
    assert main(argv) == 2
    line = _one_error_line(capsys)
    assert f"--out {out} exists already: give --resume {out} to go on from it, or --force" in line
    other = tmp_path / "other.npz"
    assert main([*argv[:-2], "--out", str(other)]) == 0
    assert main([*argv, "--resume", str(other)]) == 2  # another run's model over this one
    _one_error_line(capsys)
    assert out.read_bytes() == before
    assert main([*argv, "--episodes", "40", "--resume", str(out)]) == 0  # goes on in place
    assert main([*argv, "--force"]) == 0


def test_an_othello_ntuple_model_is_replaced_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o.npz"
    argv = ["othello", "train", "ntuple", "--tuples", "small", "--episodes", "20"]
    argv += ["--eval-every", "20", "--eval-games", "2", "--out", str(out)]
    assert main(argv) == 0
    before = out.read_bytes()
    capsys.readouterr()
    assert main(argv) == 2
    assert "give --resume to go on from it, or --force" in _one_error_line(capsys)
    assert out.read_bytes() == before
    assert main([*argv, "--force"]) == 0


def test_an_othello_dqn_checkpoint_is_not_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "d.pt"
    out.write_bytes(b"a checkpoint")
    assert main(["othello", "train", "dqn", "--games", "2", "--out", str(out)]) == 2
    assert f"--out {out} exists already: give --resume" in _one_error_line(capsys)
    assert out.read_bytes() == b"a checkpoint"


def test_a_new_run_does_not_replace_another_runs_log_or_best_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.csv"
    log.write_text("episodes,mean\n100,1234\n")
    argv = ["2048", "train", "ntuple", "--patterns", "0123", "--episodes", "20", "--quiet"]
    argv += ["--out", str(tmp_path / "m.npz"), "--csv", str(log)]
    assert main(argv) == 2
    assert f"--csv {log} exists already" in _one_error_line(capsys)
    assert main(["othello", "train", "ntuple", "--tuples", "small", "--episodes", "20",
                 "--out", str(tmp_path / "o.npz"), "--csv", str(log)]) == 2  # fmt: skip
    assert f"--csv {log} exists already" in _one_error_line(capsys)
    assert log.read_text() == "episodes,mean\n100,1234\n"
    assert not (tmp_path / "m.npz").exists() and not (tmp_path / "o.npz").exists()
    assert main([*argv, "--force"]) == 0  # asked: the new run's log
    assert log.read_text().startswith("episode,") and "1234" not in log.read_text()
    pytest.importorskip("torch")
    best = tmp_path / "d.best.pt"
    best.write_bytes(b"another run's best")
    assert main(["othello", "train", "dqn", "--games", "2", "--out", str(tmp_path / "d.pt")]) == 2
    assert f"{best} exists already" in _one_error_line(capsys)
    assert best.read_bytes() == b"another run's best"


def test_a_sweep_into_a_folder_of_trials_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = tmp_path / "s.toml"
    sweep.write_text('trainer = "2048-ntuple"\n[base]\npatterns = "0123"\nepisodes = 20\n')
    trials = tmp_path / "s"
    (trials / "base").mkdir(parents=True)
    (trials / "base" / "model.npz").write_bytes(b"trained")
    assert main(["sweep", str(sweep), "--workers", "1"]) == 2
    line = _one_error_line(capsys)
    assert f"--out {trials} holds a run already (base): give --resume" in line
    assert (trials / "base" / "model.npz").read_bytes() == b"trained"


def test_an_empty_output_is_no_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty file (mktemp's) or folder holds nothing to lose."""
    out = tmp_path / "m.npz"
    out.touch()
    argv = ["2048", "train", "ntuple", "--patterns", "0123", "--episodes", "10", "--quiet"]
    assert main([*argv, "--out", str(out)]) == 0
    assert out.stat().st_size > 0


def test_compact_does_not_write_over_a_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardai.g2048.train.config import TrainConfig
    from boardai.g2048.train.trainer import Trainer

    full, out = tmp_path / "full.npz", tmp_path / "c.npz"
    Trainer(TrainConfig(patterns="0123")).save(full)
    out.write_bytes(b"a shipped model")
    assert main(["models", "compact", str(full), str(out)]) == 2
    assert f"OUT {out} exists already: give --force to replace it" in _one_error_line(capsys)
    assert out.read_bytes() == b"a shipped model"
    assert main(["models", "compact", str(full), str(out), "--force"]) == 0
