"""The DQN loop end to end: checkpoints, resume, legal play, and learning on a toy task."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from boardai.cli import main
from boardai.errors import ModelFileError, UsageError
from boardai.g2048 import Game
from boardai.g2048 import kernels as K
from boardai.g2048.agents import make_agent
from boardai.g2048.board import Board
from boardai.g2048.qnet import QInputs, load_checkpoint, q_forward
from boardai.g2048.rewards import move_log2_reward
from boardai.g2048.train.dqn import DQNConfig, DQNTrainer, preset_config, q_forward_action

#: The command these tests run.
TRAIN = ["2048", "train", "dqn"]

TINY = {
    "net": "fc",
    "planes": 12,
    "hidden": 16,
    "num_envs": 4,
    "warmup": 32,
    "batch_size": 16,
    "eval_games": 3,
    "eval_every": 0,
    "replay_size": 2000,
}


def test_short_run_checkpoints_resumes_evaluates_and_plays_legally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "2048",
            "train",
            "dqn",
            "--steps",
            "200",
            "--out",
            str(out),
            "--json",
            *[x for k, v in TINY.items() for x in (f"--{k.replace('_', '-')}", str(v))],
        ]
    )
    assert code == 0
    for name in ("checkpoint.pt", "best.pt", "log.csv", "curve.png"):
        assert (out / name).is_file(), name
    first = load_checkpoint(out / "checkpoint.pt")["counters"]
    assert first["env_steps"] >= 200 and first["updates"] > 0
    args = [*TRAIN, "--resume", "--steps", "400", "--lr", "0.0005", "--out", str(out)]
    assert main(args) == 0
    state = load_checkpoint(out / "checkpoint.pt")
    assert state["config"]["lr"] == 0.0005  # an option given on --resume applies ...
    assert state["optimizer"]["param_groups"][0]["lr"] == 0.0005  # ... to the optimiser too
    second = state["counters"]
    assert second["env_steps"] >= 400 and second["updates"] > first["updates"]
    evaluations = []
    for seed in ("1000000", "1000000", "7"):
        capsys.readouterr()
        args = [*TRAIN, "--out", str(out), "--evaluate", "6", "--json"]
        assert main([*args, "--evaluate-seed", seed]) == 0
        evaluations.append(json.loads(capsys.readouterr().out))
    assert [e["games"] for e in evaluations] == [6, 6, 6]
    assert all(e["sem"] > 0 for e in evaluations)
    assert evaluations[0] == evaluations[1]  # the same seed, the same games
    assert evaluations[2]["seed"] == 7
    assert main([*args, "--evaluate-seed", "-1"]) == 2
    assert "--evaluate-seed must be" in capsys.readouterr().err
    for spec in (f"dqn:model={out / 'best.pt'}", f"dqn:model={out / 'checkpoint.pt'},lookahead=1"):
        agent = make_agent(spec)
        game = Game(seed=3)
        while not game.is_over() and game.moves < 300:
            a = agent.act(game.board)
            assert a in game.board.legal_actions()
            game.move(a)


def test_episodes_mode_fits_and_saves_replay(tmp_path: Path) -> None:
    cfg = preset_config(
        "action-cnn",
        episodes_per_fit=2,
        warmup=50,
        fit_newest=20,
        fit_older=20,
        fit_epochs=2,
        batch_size=10,
        eval_games=2,
        eval_every=0,
    )
    trainer = DQNTrainer(cfg, tmp_path)
    result = trainer.train(300)
    assert result["updates"] > 0 and result["episodes"] >= 2
    state = load_checkpoint(tmp_path / "checkpoint.pt")
    assert state["replay"] is not None and state["replay"]["size"] == len(trainer.replay)
    again = DQNTrainer(cfg, tmp_path)
    again.load(tmp_path / "checkpoint.pt")
    assert len(again.replay) == len(trainer.replay)


def test_bad_files_and_options_are_clear_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(ModelFileError, match=r"bad\.pt"):
        load_checkpoint(bad)
    with pytest.raises(UsageError):
        make_agent(f"dqn:model={bad}")
    with pytest.raises(ValueError, match="loss"):
        DQNConfig(loss="l1")
    assert main([*TRAIN, "--out", str(tmp_path), "--net", "transformer"]) == 2


def test_toy_immediate_reward_task_loss_falls_and_play_beats_random(tmp_path: Path) -> None:
    """gamma = 0 makes Q(s, a) the immediate log2 merge reward: a plain regression that a
    few hundred updates learn (with the strong net's 1x2/2x1 convolutions, which see the
    pairs that merge); greedy play by Q then takes far bigger merges than random."""
    cfg = DQNConfig(
        net="strong",
        planes=12,
        channels=16,
        hidden=64,
        loss="mse",
        gamma=0.0,
        n_step=1,
        lr=1e-3,
        batch_size=64,
        double=False,
        target_update="none",
        seed=0,
    )
    trainer = DQNTrainer(cfg, tmp_path)
    boards = K.random_game_boards(200, np.uint64(7), 0.1)
    rng = np.random.default_rng(0)
    train, test = boards[: len(boards) // 2], boards[len(boards) // 2 :]

    def transitions(bs: np.ndarray) -> dict[str, np.ndarray]:
        acts = np.array([rng.choice(Board(int(b)).legal_actions()) for b in bs])
        rewards = np.array(
            [move_log2_reward(Board(int(b)), int(a)) for b, a in zip(bs, acts, strict=True)],
            np.float32,
        )
        packed = np.stack([bs, np.zeros_like(bs)], 1)
        return {
            "s": packed,
            "a": acts,
            "r": rewards,
            "s2": packed,
            "m2": np.zeros((len(bs), 4), bool),
            "disc": np.zeros(len(bs), np.float32),
        }

    trainer.replay.add_batch(**transitions(train))
    losses = [trainer.update() for _ in range(800)]
    assert np.mean(losses[-50:]) < 0.5 * np.mean(losses[:20])
    packed = np.stack([test, np.zeros_like(test)], 1)
    q = trainer.q_values(packed)
    greedy, random = [], []
    for b, row in zip(test, q, strict=True):
        board = Board(int(b))
        legal = board.legal_actions()
        greedy.append(move_log2_reward(board, max(legal, key=lambda a: row[a])))
        random.append(np.mean([move_log2_reward(board, a) for a in legal]))
    assert np.mean(greedy) > 1.3 * np.mean(random)


def test_lookahead_mlp_preset_reads_the_two_move_lookahead(tmp_path: Path) -> None:
    cfg = preset_config(
        "lookahead-mlp",
        fc_layers="32",
        warmup=40,
        batch_size=8,
        eval_games=2,
        eval_every=0,
        replay_size=500,
    )
    trainer = DQNTrainer(cfg, tmp_path)
    assert trainer.kind == "lookahead2"
    x = trainer.encode(np.zeros((3, 2), np.uint64))
    assert tuple(x.shape) == (3, 20, 16, 4, 4)
    result = trainer.train(120)
    assert result["updates"] > 0
    with pytest.raises(ValueError, match="lookahead_input"):
        DQNConfig(net="strong", lookahead_input=True)


def test_afterstate_net_q_is_reward_plus_afterstate_value(tmp_path: Path) -> None:
    cfg = DQNConfig(
        net="afterstate",
        channels=4,
        hidden=8,
        **{k: v for k, v in TINY.items() if k not in ("net", "planes", "hidden")},
    )
    trainer = DQNTrainer(cfg, tmp_path)
    board = Board.from_grid([[2, 2, 4, 4], [0] * 4, [0] * 4, [0] * 4])
    packed = np.array([[board.lo, board.hi]], np.uint64)
    q = trainer.q_values(packed)[0]
    x = trainer.encode(packed)  # (1, 4, planes, 4, 4): the four afterstates
    values = trainer.net(x).detach().numpy()[0]
    left_reward = move_log2_reward(board, 3)  # 2+2 -> 4 and 4+4 -> 8: log2 reward 2 + 3
    assert left_reward == 5
    assert q[3] == pytest.approx(values[3] + left_reward)
    assert trainer.train(120)["updates"] > 0
    agent = make_agent(f"dqn:model={tmp_path / 'checkpoint.pt'},lookahead=1")
    assert agent.act(board) in board.legal_actions()


@pytest.mark.parametrize("net", ["afterstate", "action-cnn", "fc"])
def test_q_of_the_taken_action_equals_the_gathered_q(net: str) -> None:
    import torch

    from boardai.g2048.qnetworks import build_net

    cfg = DQNConfig(net=net, channels=4, hidden=8, fc_layers="8", reward_scale=0.5)
    torch.manual_seed(0)
    model = build_net(net, **cfg.net_kwargs())
    lo = K.random_game_boards(1, np.uint64(7), 0.1)[::37][:8]  # positions of a random game
    boards = np.stack([lo, np.zeros_like(lo)], 1)
    a = torch.tensor([0, 1, 2, 3, 1, 2, 3, 0])[: len(boards)]
    kind = str(model.input_kind)
    full = q_forward(model, boards, kind, cfg, "cpu").gather(1, a.unsqueeze(1)).squeeze(1)
    torch.testing.assert_close(q_forward_action(model, boards, a, kind, cfg, "cpu"), full)


def test_augment_trains_the_afterstate_net_and_is_refused_elsewhere(tmp_path: Path) -> None:
    import torch

    cfg = DQNConfig(
        net="afterstate",
        channels=4,
        hidden=8,
        augment=True,
        **{k: v for k, v in TINY.items() if k not in ("net", "planes", "hidden")},
    )
    trainer = DQNTrainer(cfg, tmp_path)
    before = [p.detach().clone() for p in trainer.net.parameters()]
    assert trainer.train(120)["updates"] > 0
    after = list(trainer.net.parameters())
    assert any(not torch.equal(p, q) for p, q in zip(before, after, strict=True))
    with pytest.raises(ValueError, match="augment needs the afterstate net"):
        DQNConfig(net="fc", augment=True)


def test_a_players_inputs_default_as_the_trainers_config() -> None:
    # a checkpoint that leaves a setting out is read by the player as the trainer would
    defaults = DQNConfig()
    assert QInputs() == QInputs.of_run({})
    for name in ("planes", "reward", "reward_scale"):
        assert getattr(QInputs(), name) == getattr(defaults, name)


def test_keep_snapshots_writes_the_network_of_every_evaluation(tmp_path: Path) -> None:
    cfg = DQNConfig(**{**TINY, "eval_every": 100, "eval_games": 2, "keep_snapshots": True})
    trainer = DQNTrainer(cfg, tmp_path)
    trainer.train(250)
    snaps = sorted(tmp_path.glob("step-*.pt"))
    # one a check (at 100 and 200 steps, give or take a batch of envs) and one at the end
    assert len(snaps) == 3
    steps = [load_checkpoint(p)["counters"]["env_steps"] for p in snaps]
    assert steps == sorted(steps) and [int(p.stem[5:]) for p in snaps] == steps
    assert all(load_checkpoint(p)["replay"] is None for p in snaps)  # weights, no replay
    last = load_checkpoint(snaps[-1])["net"]
    final = load_checkpoint(tmp_path / "checkpoint.pt")["net"]
    assert all(np.array_equal(last[k].numpy(), final[k].numpy()) for k in final)
    # a run whose warm-up outlasts an evaluation has nothing new to snapshot there
    late = DQNConfig(**{**TINY, "eval_every": 100, "eval_games": 2, "keep_snapshots": True})
    late.warmup = 220
    DQNTrainer(late, tmp_path / "w").train(250)
    late_snaps = sorted((tmp_path / "w").glob("step-*.pt"))
    assert len(late_snaps) == 1 and int(late_snaps[0].stem[5:]) >= 250
    plain = DQNTrainer(DQNConfig(**{**TINY, "eval_every": 100, "eval_games": 2}), tmp_path / "p")
    plain.train(250)
    assert not list((tmp_path / "p").glob("step-*.pt"))
