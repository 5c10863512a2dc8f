"""``boardai 2048 train dqn`` refuses bad options, and mismatched resumes, in one line before
training (exit 2), instead of a traceback mid-run or a run that can never learn; an
interrupted run is saved before its final evaluation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")

from boardai.cli import main
from boardai.errors import ModelFileError
from boardai.g2048.qnet import load_checkpoint
from boardai.g2048.train.dqn import DQNConfig, DQNTrainer

TRAIN = ["2048", "train", "dqn"]
TINY = {
    "net": "fc",
    "planes": 12,
    "hidden": 16,
    "fc_layers": "16",
    "num_envs": 4,
    "warmup": 32,
    "batch_size": 16,
    "eval_games": 2,
    "eval_every": 0,
    "replay_size": 2000,
}
TINY_FLAGS = [x for k, v in TINY.items() for x in (f"--{k.replace('_', '-')}", str(v))]


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"batch_size": 5000}, r"batch_size \(5000\) must not exceed replay_size \(2000\)"),
        ({"warmup": 3000}, r"warmup \(3000\) .* must not exceed replay_size"),
        ({"eval_games": 0}, "eval_games must be >= 1"),
        ({"target_update": "hard", "target_period": 0}, "target_period must be >= 1"),
        ({"p4": 1.5}, r"p4 must be in \[0, 1\]"),
        ({"eps_start": 2.0}, "eps_start and eps_end must be in"),
        ({"eps_decay": 0.0}, "eps_decay must be > 0"),
        ({"eval_every": -5}, "eval_every and save_every must be >= 0"),
        ({"threads": 0}, r"threads must be in 1\.\."),
        ({"threads": 10**5}, r"threads must be in 1\.\.\d+ \(the cores here\)"),
        ({"seed": -1}, "seed must be >= 0"),
        ({"fit_mode": "episodes", "episodes_per_fit": 0}, "episodes_per_fit"),
        ({"fit_mode": "episodes", "warmup": 3000}, r"warmup \(3000\) must not exceed"),
        ({"device": "banana"}, "device 'banana' is not one of auto, cpu, cuda"),
        ({"device": "meta"}, "device 'meta' is not one of"),
        ({"device": "cuda:99"}, "device 'cuda:99': this machine has"),
    ],
)
def test_bad_hyperparameters_are_refused_when_the_config_is_made(
    change: dict[str, object], match: str
) -> None:
    # each of these, let through here, would fail mid-run with a traceback (eval_games 0
    # after the whole training, before the checkpoint is written), or train with no update
    with pytest.raises(ValueError, match=match):
        DQNConfig(**{**TINY, **change})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--batch-size", "5000"], "must not exceed replay_size"),
        (["--eval-games", "0"], "eval_games must be >= 1"),
        (["--device", "cuda:99"], "device 'cuda:99'"),
        (["--evaluate", "-1"], "--evaluate must be >= 1"),
    ],
)
def test_cli_refuses_bad_options_before_training(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    out = tmp_path / "run"
    assert main([*TRAIN, *TINY_FLAGS, "--steps", "60", "--out", str(out), *flags]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1, err
    assert not (out / "checkpoint.pt").exists()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny trained run whose checkpoint holds its replay buffer."""
    out = tmp_path_factory.mktemp("dqn") / "run"
    argv = [*TRAIN, *TINY_FLAGS, "--steps", "80", "--save-replay", "true", "--out", str(out)]
    assert main(argv) == 0
    return out


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--planes", "16"], "planes cannot change on a resumed run"),
        (["--net", "conv"], "net cannot change on a resumed run"),
        (["--fc-layers", "32,32"], "fc_layers cannot change"),
        (["--replay-size", "3000"], "replay_size cannot change"),
    ],
)
def test_resume_refuses_options_the_checkpoint_cannot_take(
    run_dir: Path, capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    before = (run_dir / "checkpoint.pt").read_bytes()
    argv = [*TRAIN, "--resume", "--out", str(run_dir), "--steps", "200", *flags]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err, err
    assert (run_dir / "checkpoint.pt").read_bytes() == before


def test_trainer_load_of_another_network_is_a_model_file_error(
    run_dir: Path, tmp_path: Path
) -> None:
    other = DQNTrainer(DQNConfig(**{**TINY, "fc_layers": "8"}), tmp_path)
    with pytest.raises(ModelFileError, match="does not match this run"):
        other.load(run_dir / "checkpoint.pt")
    bigger = DQNTrainer(DQNConfig(**{**TINY, "replay_size": 3000}), tmp_path)
    with pytest.raises(ModelFileError, match="replay buffer holds 2000"):
        bigger.load(run_dir / "checkpoint.pt")


def test_a_run_trained_on_a_missing_gpu_evaluates_on_the_cpu(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardai.learn import torch_file

    state = load_checkpoint(run_dir / "best.pt")
    state["config"]["device"] = "cuda:99"  # no machine here has a hundredth GPU
    state["config"]["threads"] = 10**4  # nor ten thousand cores: evaluated with those here
    moved = tmp_path / "gpu-run"
    moved.mkdir()
    for name in ("best.pt", "checkpoint.pt"):
        with (moved / name).open("wb") as f:
            torch_file.save(state, f)
    assert main([*TRAIN, "--out", str(moved), "--evaluate", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2  # the JSON alone
    assert (
        main([*TRAIN, "--out", str(moved), "--evaluate", "2", "--json", str(moved / "e.json")]) == 0
    )
    assert "2 greedy games" in capsys.readouterr().out  # the line, and the file
    assert json.loads((moved / "e.json").read_text())["games"] == 2
    assert main([*TRAIN, "--out", str(moved), "--resume", "--steps", "200"]) == 2
    assert "device 'cuda:99'" in capsys.readouterr().err


def test_interrupted_run_is_saved_before_its_final_evaluation(tmp_path: Path) -> None:
    # a second Ctrl-C during the final evaluation must not lose every step since the last
    # periodic save (here: all of them)
    trainer = DQNTrainer(DQNConfig(**TINY), tmp_path)

    def evaluate(games: int, seed: int = 0) -> dict[str, object]:
        raise KeyboardInterrupt

    trainer.evaluate = evaluate  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        trainer.train(10_000, should_stop=lambda: trainer.env_steps >= 100)
    counters = load_checkpoint(tmp_path / "checkpoint.pt")["counters"]
    assert counters["env_steps"] >= 100 and counters["updates"] > 0
