"""The shipped DQN models are whole training checkpoints: both games' trainers take them up
again (network, target, optimizer and counters as saved), so a shipped run can go on."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardai.learn import torch_file  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"


def _same(a: dict[str, object], b: dict[str, object]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_the_2048_trainer_takes_up_the_shipped_checkpoint(tmp_path: Path) -> None:
    from boardai.g2048.qnet import load_checkpoint, q_forward
    from boardai.g2048.train.dqn import DQNConfig, DQNTrainer
    from boardai.g2048.train.dqn_run import fit_here

    path = MODELS / "2048-dqn.pt"
    state = load_checkpoint(path)
    trainer = DQNTrainer(DQNConfig(**{**fit_here(state["config"]), "threads": 1}), tmp_path)
    trainer.load(path)
    assert _same(trainer.net.state_dict(), state["net"])
    assert _same(trainer.target.state_dict(), state["target"])
    c = state["counters"]
    assert (trainer.env_steps, trainer.updates, trainer.best_score) == (
        c["env_steps"],
        c["updates"],
        c["best_eval"],
    )
    assert trainer.opt.state_dict()["state"].keys() == state["optimizer"]["state"].keys()
    boards = np.array([[0x0000_0000_1122_1233, 0], [0x1234_0000_0000_0001, 0]], np.uint64)
    with torch.no_grad():
        want = q_forward(trainer.net, boards, trainer.kind, trainer.cfg, "cpu").numpy()
    np.testing.assert_array_equal(trainer.q_values(boards), want)


def test_the_othello_trainer_takes_up_the_shipped_checkpoint(tmp_path: Path) -> None:
    import shutil

    from boardai.othello.qnet import load_checkpoint
    from boardai.othello.train.dqn import DQNTrainer, resumed_config

    out = tmp_path / "dqn.pt"
    shutil.copy(MODELS / "othello-dqn.pt", out)
    net, _, meta = load_checkpoint(out)
    trainer = DQNTrainer(resumed_config(out), out, resume=out)
    assert _same(trainer.net.state_dict(), net.state_dict())
    assert _same(trainer.target.state_dict(), net.state_dict())
    assert (trainer.done, trainer.learner.updates) == (meta["games"], meta["updates"])
    assert trainer.best_score == max(e["score_vs_wpc"] for e in meta["evals"])
    saved_opt = torch_file.load(out, out)["opt"]
    assert trainer.learner.opt.state_dict()["param_groups"] == saved_opt["param_groups"]
