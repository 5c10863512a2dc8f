"""The Othello DQN: batched children and planes against the Board API, the symmetries, the
replay's final results, the presets and a tiny training run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardai.othello import Board
from boardai.othello.kernels import random_positions
from boardai.othello.observations import observe
from boardai.othello.train.dqn_data import INV, SYM, Replay, expand_batch, planes, transform


def _boards(n: int, seed: int) -> list[Board]:
    pos = random_positions(n, np.uint64(seed))
    boards = [Board.from_mover(int(p), int(o), 1) for p, o in pos]
    return [b for b in boards if not b.is_terminal()]


def _bits(plane: np.ndarray) -> int:
    return sum(1 << int(i) for i in np.flatnonzero(plane))


def test_expand_batch_matches_board_play() -> None:
    boards = _boards(300, 3)
    kids = expand_batch(
        np.array([b.mover for b in boards], np.uint64),
        np.array([b.opponent for b in boards], np.uint64),
    )
    assert len(kids.start) == len(boards) + 1
    for i, b in enumerate(boards):
        seg = slice(kids.start[i], kids.start[i + 1])
        assert kids.action[seg].tolist() == b.legal_actions()
        for j in range(seg.start, seg.stop):
            after = b.play(int(kids.action[j]))
            assert (int(kids.P[j]), int(kids.O[j])) == (after.mover, after.opponent)
            assert int(kids.L[j]) == after.legal_moves_mask()
            assert bool(kids.done[j]) == after.is_terminal()
            if after.is_terminal():
                assert kids.reward[j] == np.sign(after.result(b.to_move))


def test_expand_batch_passes_and_endings() -> None:
    # black to move has no square; white does: a forced pass
    must_pass = Board.from_str("\n".join(["O" * 8] * 7 + ["OOOOOOX."]))
    # black fills the last square and wins by wiping white out
    wins = Board.from_str("\n".join(["X" * 8] * 7 + ["XXXXXXO."]))
    boards = [b for b in (must_pass, wins) if not b.is_terminal()]
    assert must_pass.legal_actions() == [64] and wins.legal_actions() == [63]
    kids = expand_batch(
        np.array([b.mover for b in boards], np.uint64),
        np.array([b.opponent for b in boards], np.uint64),
    )
    assert kids.action.tolist() == [64, 63]
    assert not kids.done[0] and kids.done[1] and kids.reward[1] == 1.0


def test_planes_equal_observe() -> None:
    boards = _boards(50, 4)
    x = planes(
        np.array([b.mover for b in boards], np.uint64),
        np.array([b.opponent for b in boards], np.uint64),
        np.array([b.legal_moves_mask() for b in boards], np.uint64),
    )
    assert np.array_equal(x.reshape(-1, 3, 8, 8), np.stack([observe(b) for b in boards]))


def test_symmetries_map_moves_to_moves() -> None:
    assert sorted(map(tuple, SYM.tolist())) == sorted(set(map(tuple, SYM.tolist())))
    assert (INV[:, 64] == 64).all()
    for b in _boards(100, 5):
        x = planes(
            np.array([b.mover] * 8, np.uint64),
            np.array([b.opponent] * 8, np.uint64),
            np.array([b.legal_moves_mask()] * 8, np.uint64),
        )
        acts = np.array([b.legal_actions()[0]] * 8)
        y, moved = transform(x, acts, np.arange(8))
        for k in range(8):
            image = Board.from_mover(_bits(y[k, 0]), _bits(y[k, 1]), 1)
            assert image.legal_moves_mask() == _bits(y[k, 2])
            assert int(moved[k]) in image.legal_actions()
            assert image.play(int(moved[k])).discs() == b.play(int(acts[k])).discs()


def test_replay_returns_skip_overwritten() -> None:
    r = Replay(4)
    z = np.zeros(3)
    first = r.add(np.zeros((3, 6), np.uint64), np.arange(3), z, z.astype(bool))
    r.add(np.zeros((2, 6), np.uint64), np.arange(2), z[:2], z[:2].astype(bool))
    assert len(r) == 4 and first.tolist() == [0, 1, 2]
    r.set_returns(first, np.array([1.0, -1.0, 1.0], np.float32))
    # serial 0 was overwritten by serial 4 (slot 0): only serials 1 and 2 get results
    assert r.fields["has_ret"].tolist() == [False, True, True, False]
    assert r.fields["ret"][1:3].tolist() == [-1.0, 1.0]


def test_strong_preset_trains_and_plays(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from boardai.othello.agents import make_agent
    from boardai.othello.qnet import load_checkpoint
    from boardai.othello.train.dqn import preset_config, train

    small = {"games": 6, "parallel": 4, "warmup": 64, "batch_size": 32, "hidden": 16}
    config = preset_config("strong", **small, eval_every=3, eval_games=2)
    out = tmp_path / "strong.pt"
    meta = train(config, out)
    assert meta["games"] == 6 and meta["updates"] > 0 and len(meta["evals"]) == 2
    assert (tmp_path / "strong.best.pt").is_file()
    _, loaded, _ = load_checkpoint(out)
    assert loaded["net"] == "mlp" and loaded["augment"]
    agent = make_agent(f"dqn:model={out}")
    for b in _boards(20, 6):
        assert agent.act(b) in b.legal_actions()
    again = train(preset_config("strong", **{**vars(config), "games": 9}), out, resume=out)
    assert again["games"] == 9 and again["updates"] > meta["updates"]


def test_a_players_net_shape_defaults_as_the_trainers_config() -> None:
    # a checkpoint that leaves a setting out builds the network the trainer would
    from boardai.othello.qnet import NetShape
    from boardai.othello.train.dqn import DQNConfig

    defaults = DQNConfig()
    assert NetShape() == NetShape.of_run({})
    for name in ("net", "hidden", "layers", "blocks"):
        assert getattr(NetShape(), name) == getattr(defaults, name)
