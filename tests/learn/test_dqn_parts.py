"""DQN building blocks: replay buffer, n-step folding, exploration strategies, Q networks."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

from boardai.g2048.qnetworks import NETS, ActionInputQNet, AfterstateQNet, build_net
from boardai.learn.replay import NStep, ReplayBuffer
from boardai.learn.schedules import STRATEGIES, make_strategy, masked_argmax


def test_replay_ring_sample_split_and_state_round_trip() -> None:
    buf = ReplayBuffer(10, {"x": ((), np.int64), "v": ((2,), np.float32)})
    buf.add_batch(x=np.arange(7), v=np.zeros((7, 2), np.float32))
    buf.add_batch(x=np.arange(7, 15), v=np.ones((8, 2), np.float32))
    assert len(buf) == 10 and buf.added == 15
    assert sorted(buf.fields["x"].tolist()) == list(range(5, 15))
    rng = np.random.default_rng(0)
    split = buf.sample_split(3, 4, rng)
    assert {12, 13, 14} <= set(split["x"].tolist()) and len(split["x"]) == 7
    assert len(set(split["x"].tolist())) == 7  # no repeats
    other = ReplayBuffer(10, buf.spec)
    other.load_state_dict(buf.state_dict())
    np.testing.assert_array_equal(other.fields["x"], buf.fields["x"])
    assert (other.next, other.size, other.added) == (buf.next, buf.size, buf.added)
    with pytest.raises(ValueError):
        buf.add_batch(x=np.arange(2))


def test_nstep_returns_match_hand_computation() -> None:
    g = 0.9
    ns = NStep(3, g, streams=2)
    out = []
    rewards = [1.0, 2.0, 3.0, 4.0, 5.0]
    for t, r in enumerate(rewards):
        out += ns.push(0, t, r, t == 4, False)
    assert [(s, k) for s, _, k in out] == [(0, 3), (1, 3), (2, 3), (3, 2), (4, 1)]
    assert out[0][1] == pytest.approx(1 + g * 2 + g * g * 3)
    assert out[3][1] == pytest.approx(4 + g * 5)
    assert ns.push(1, "a", 1.0, False, True) == [("a", 1.0, 1)]  # truncation flushes too


@pytest.mark.parametrize("kind", STRATEGIES)
def test_strategies_never_pick_illegal_moves(kind: str) -> None:
    rng = np.random.default_rng(0)
    s = make_strategy(kind, start=1.0, end=0.1, decay=50)
    for step in range(200):
        legal = rng.random((16, 4)) < 0.5
        legal[np.arange(16), rng.integers(0, 4, 16)] = True
        acts = s.select(rng.normal(size=(16, 4)), legal, step, rng)
        assert legal[np.arange(16), acts].all()
    greedy = s.select(
        np.array([[0.0, 9.0, 1.0, 2.0]]), np.array([[1, 0, 1, 1]], bool), 0, rng, np.array([True])
    )
    assert greedy.tolist() == [3]
    with warnings.catch_warnings():  # a row with no legal move (a finished board): no NaN
        warnings.simplefilter("error")
        s.select(np.zeros((2, 4)), np.array([[0, 0, 0, 0], [0, 1, 0, 0]], bool), 0, rng)


def test_epsilon_schedules() -> None:
    assert make_strategy("linear", start=1.0, end=0.0, decay=10).epsilon(20) == 0.0
    exp = make_strategy("exponential", start=0.9, end=0.05, decay=1000)
    assert exp.epsilon(0) == pytest.approx(0.9)
    assert exp.epsilon(1000) == pytest.approx(0.05 + 0.85 / np.e)
    with pytest.raises(ValueError):
        make_strategy("boltzmann")
    assert masked_argmax(np.array([[5.0, 1.0]]), np.array([[False, True]])).tolist() == [1]


@pytest.mark.parametrize("name", list(NETS))
def test_nets_give_four_q_values(name: str) -> None:
    kwargs = {} if name == "action-cnn" else {"planes": 12}
    net = build_net(name, **kwargs)
    shapes = {"exponents": (3, 4, 4), "onehot": (3, 12, 4, 4), "afterstates": (3, 4, 12, 4, 4)}
    x = torch.zeros(shapes[net.input_kind])
    assert net(x).shape == (3, 4)


def test_action_cnn_equals_concatenated_action_input() -> None:
    torch.manual_seed(0)
    net = ActionInputQNet(filters=2, hidden1=8, hidden2=4)
    x = torch.randint(0, 12, (5, 4, 4)).float()
    q = net(x)
    f = torch.relu(net.conv(x.view(-1, 1, 4, 4))).flatten(1)
    w = torch.cat([net.board_in.weight, net.action_in.T], 1)  # the dense layer over [f, onehot]
    for a in range(4):
        onehot = torch.zeros(5, 4)
        onehot[:, a] = 1
        h = torch.cat([f, onehot], 1) @ w.T + net.board_in.bias
        torch.testing.assert_close(net.head(h).squeeze(-1), q[:, a])


def test_action_cnn_forward_action_equals_gathered_forward() -> None:
    torch.manual_seed(0)
    net = ActionInputQNet(hidden1=32, hidden2=16)
    x = torch.randint(0, 12, (9, 4, 4)).to(torch.uint8)
    a = torch.tensor([0, 1, 2, 3, 3, 2, 1, 0, 2])
    full = net(x).gather(1, a.unsqueeze(1)).squeeze(1)
    torch.testing.assert_close(net.forward_action(x, a), full)
    # and its gradient is the same as through the full forward pass
    g1 = torch.autograd.grad(net.forward_action(x, a).sum(), net.action_in)[0]
    g2 = torch.autograd.grad(full.sum(), net.action_in)[0]
    torch.testing.assert_close(g1, g2)


def test_afterstate_forward_action_equals_gathered_forward() -> None:
    torch.manual_seed(0)
    net = AfterstateQNet(planes=16, channels=4, hidden=8)
    x = (torch.rand(7, 4, 16, 4, 4) < 0.1).to(torch.uint8)
    a = torch.tensor([0, 1, 2, 3, 3, 2, 1])
    full = net(x).gather(1, a.unsqueeze(1)).squeeze(1)
    torch.testing.assert_close(net.forward_action(x, a), full)
    g1 = torch.autograd.grad(net.forward_action(x, a).sum(), net.out.weight)[0]
    g2 = torch.autograd.grad(full.sum(), net.out.weight)[0]
    torch.testing.assert_close(g1, g2)
