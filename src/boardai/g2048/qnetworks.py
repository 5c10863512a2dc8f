"""Q networks for 2048 (PyTorch): a CNN Q(s, a) with the action as an input, dense and
convolutional DQNs, and a stronger default. Each maps a batch of encoded boards to Q values
``(B, 4)``.

Each class names the board encoding it reads (``input_kind``: ``"exponents"`` or
``"onehot"``, see :mod:`boardai.g2048.observations`); :func:`build_net` makes one by name, so
a checkpoint that stores the name and its keyword arguments can rebuild it.

>>> import torch
>>> net = build_net("strong", planes=16, channels=8, hidden=16)
>>> net(torch.zeros(2, 16, 4, 4)).shape
torch.Size([2, 4])
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from boardai.learn.qnets import mlp

N_ACTIONS = 4


class ActionInputQNet(nn.Module):
    """A Q(s, a) CNN, after the first DQN write-up boardai grew from: a 3x3 convolution (8
    filters) over the board, flattened and joined with the one-hot action, dense 2048 and
    1024 (ReLU), one output.

    All four actions are scored in one pass: the first dense layer's input is the
    concatenation [board features, one-hot action], so its output is the board part plus
    the column of the action's weights. (The write-up fed raw tile values; this takes exponents.)
    """

    input_kind = "exponents"

    def __init__(self, filters: int = 8, hidden1: int = 2048, hidden2: int = 1024) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, filters, 3, padding=1)
        self.board_in = nn.Linear(16 * filters, hidden1)
        self.action_in = nn.Parameter(torch.zeros(N_ACTIONS, hidden1))
        nn.init.normal_(self.action_in, std=(1.0 / (16 * filters + N_ACTIONS)) ** 0.5)
        self.head = nn.Sequential(
            nn.ReLU(), nn.Linear(hidden1, hidden2), nn.ReLU(), nn.Linear(hidden2, 1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = torch.relu(self.conv(x.float().view(-1, 1, 4, 4))).flatten(1)
        h = self.board_in(f).unsqueeze(1) + self.action_in.unsqueeze(0)  # (B, 4, hidden1)
        return self.head(h).squeeze(-1)

    def forward_action(self, x: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
        """Q of one action per board ``(B,)``: ``forward(x).gather(1, a)`` at a quarter of
        the cost (the dense layers run on B rows, not 4B), which is what a fit needs."""
        f = torch.relu(self.conv(x.float().view(-1, 1, 4, 4))).flatten(1)
        return self.head(self.board_in(f) + self.action_in[a]).squeeze(-1)


class FCQNet(nn.Module):
    """Seed 003's DQN: fully connected layers over the flattened one-hot planes; with
    ``input_kind="lookahead2"``, seed 001's Keras-RL net over the 20 boards two moves ahead."""

    input_kind = "onehot"

    def __init__(
        self, planes: int = 12, hidden: tuple[int, ...] = (256, 256), input_kind: str = "onehot"
    ) -> None:
        super().__init__()
        if input_kind not in ("onehot", "lookahead2"):
            raise ValueError(f"fc net input must be onehot or lookahead2, got {input_kind!r}")
        self.input_kind = input_kind
        self.net = mlp(16 * planes * (20 if input_kind == "lookahead2" else 1), hidden, N_ACTIONS)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x.float())


class ConvQNet(nn.Module):
    """Seed 003's ConvDQN: two 2x2 convolutions over the one-hot planes, then dense layers."""

    input_kind = "onehot"

    def __init__(self, planes: int = 12, channels: int = 128, hidden: int = 256) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(planes, channels, 2),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 2),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(channels * 4, hidden),
            nn.ReLU(),
            nn.Linear(hidden, N_ACTIONS),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x.float())


class PairConvBody(nn.Module):
    """One-hot planes through 1x2 and 2x1 convolutions in two levels (each level sees the
    horizontal and vertical neighbour pairs, where merges happen), all maps flattened, then
    a dense layer: features ``(B, hidden)``."""

    def __init__(self, planes: int, channels: int, hidden: int) -> None:
        super().__init__()
        c = channels
        self.h1, self.v1 = nn.Conv2d(planes, c, (1, 2)), nn.Conv2d(planes, c, (2, 1))
        self.hh, self.hv = nn.Conv2d(c, c, (1, 2)), nn.Conv2d(c, c, (2, 1))
        self.vh, self.vv = nn.Conv2d(c, c, (1, 2)), nn.Conv2d(c, c, (2, 1))
        width = c * (12 + 12 + 8 + 9 + 9 + 8)
        self.dense = nn.Sequential(nn.Linear(width, hidden), nn.ReLU())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.float()
        h, v = torch.relu(self.h1(x)), torch.relu(self.v1(x))
        maps = [h, v, self.hh(h), self.hv(h), self.vh(v), self.vv(v)]
        f = torch.cat(
            [torch.relu(m).flatten(1) if i > 1 else m.flatten(1) for i, m in enumerate(maps)], 1
        )
        return self.dense(f)


class StrongQNet(nn.Module):
    """The pair-convolution body (:class:`PairConvBody`) with a dueling head
    ``Q = V + A - mean(A)``."""

    input_kind = "onehot"

    def __init__(self, planes: int = 16, channels: int = 128, hidden: int = 256) -> None:
        super().__init__()
        self.body = PairConvBody(planes, channels, hidden)
        self.value = nn.Linear(hidden, 1)
        self.advantage = nn.Linear(hidden, N_ACTIONS)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z = self.body(x)
        a = self.advantage(z)
        return self.value(z) + a - a.mean(dim=1, keepdim=True)


class AfterstateQNet(nn.Module):
    """Q(s, a) = r(s, a) + V(afterstate of a): one value net (:class:`PairConvBody` and a
    linear output) scores the four afterstates ``(B, 4, planes, 4, 4)``; the caller adds the
    known rewards. 2048's move is deterministic and only the spawn is random, so learning
    the afterstate's value is the easier problem (as n-tuple TD learning does)."""

    input_kind = "afterstates"

    def __init__(self, planes: int = 16, channels: int = 32, hidden: int = 128) -> None:
        super().__init__()
        self.body = PairConvBody(planes, channels, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b = x.shape[0]
        return self.out(self.body(x.flatten(0, 1))).view(b, N_ACTIONS)

    def forward_action(self, x: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
        """The value of one afterstate per board ``(B,)``: ``forward(x).gather(1, a)`` at a
        quarter of the cost (the net sees B afterstates, not 4B), which is what an update
        needs."""
        return self.out(self.body(x[torch.arange(x.shape[0], device=x.device), a])).squeeze(-1)


NETS: dict[str, type[nn.Module]] = {
    "action-cnn": ActionInputQNet,
    "fc": FCQNet,
    "conv": ConvQNet,
    "strong": StrongQNet,
    "afterstate": AfterstateQNet,
}


#: Old names of networks, still read (checkpoints written under them hold them as data).
NET_ALIASES = {"seed000": "action-cnn"}


def build_net(name: str, **kwargs: Any) -> nn.Module:
    """The network ``name`` (a key of :data:`NETS`, or an old name) built with ``kwargs``."""
    name = NET_ALIASES.get(name, name)
    if name not in NETS:
        raise ValueError(f"unknown network {name!r} (choose from {', '.join(NETS)})")
    return NETS[name](**kwargs)
