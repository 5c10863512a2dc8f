"""A trained Othello Q network at play (PyTorch, imported lazily): the networks, reading a
checkpoint into one, and the Q values of boards. The ``dqn`` player acts by these; the
self-play trainer (:mod:`boardai.othello.train.dqn`) builds the same networks and writes the
checkpoints.

>>> NetShape.of_run({"net": "mlp", "hidden": 512, "layers": 2, "lr": 1e-3})
NetShape(net='mlp', hidden=512, layers=2, blocks=0)
>>> masked_argmax(np.array([3.0, 1.0, 2.0]), np.array([0, 1, 1], np.int8))
2
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from boardai.errors import ModelFileError
from boardai.learn import schedules
from boardai.othello.board import Board
from boardai.othello.observations import observe

FORMAT = "boardai-othello-dqn"


class NetSettings(Protocol):
    """What :func:`build_net` reads of a run's settings (a trainer's ``DQNConfig`` has them)."""

    @property
    def net(self) -> str:
        """``fc``, ``mlp`` or ``conv``."""
        ...

    @property
    def hidden(self) -> int:
        """Units of each hidden layer (fc, mlp) or channels (conv)."""
        ...

    @property
    def layers(self) -> int:
        """Hidden layers (mlp)."""
        ...

    @property
    def blocks(self) -> int:
        """Residual blocks (conv)."""
        ...


@dataclass(frozen=True)
class NetShape:
    """The settings of a trained run that shape its network (the defaults are the trainer's)."""

    net: str = "fc"
    hidden: int = 64
    layers: int = 1
    blocks: int = 0

    @classmethod
    def of_run(cls, config: dict[str, Any]) -> NetShape:
        """These settings out of a checkpoint's whole config (other keys are ignored)."""
        return cls(**{f.name: config[f.name] for f in fields(cls) if f.name in config})


def build_net(config: NetSettings) -> Any:
    """The Q network: board planes (3, 8, 8) -> 65 action values."""
    import torch
    from torch import nn

    from boardai.learn.qnets import mlp

    if config.net == "fc":
        # seed 002: the board (+1 own, -1 opponent) flattened, one ReLU layer, 65 outputs.
        class FC(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.body = mlp(64, [config.hidden], 65, flatten=False)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                board = (x[:, 0] - x[:, 1]).flatten(1)
                return self.body(board)

        return FC()

    if config.net == "mlp":
        return mlp(3 * 64, [config.hidden] * config.layers, 65)

    class Block(nn.Module):
        def __init__(self, c: int) -> None:
            super().__init__()
            self.a = nn.Conv2d(c, c, 3, padding=1)
            self.b = nn.Conv2d(c, c, 3, padding=1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.relu(x + self.b(torch.relu(self.a(x))))

    class Conv(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c = config.hidden
            self.stem = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU())
            self.blocks = nn.Sequential(*[Block(c) for _ in range(config.blocks)])
            self.squares = nn.Conv2d(c, 1, 1)
            self.pass_head = nn.Linear(c, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            h = self.blocks(self.stem(x))
            squares = self.squares(h).flatten(1)
            return torch.cat([squares, self.pass_head(h.mean((2, 3)))], 1)

    return Conv()


def masked_argmax(q: np.ndarray, mask: np.ndarray) -> int:
    """The legal action of highest value (one board's row of
    :func:`boardai.learn.schedules.masked_argmax`)."""
    return int(schedules.masked_argmax(q[None, :], mask[None, :] > 0)[0])


def load_checkpoint(path: str | Path) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """(network in eval mode, the run's config as saved, meta) of a checkpoint;
    ModelFileError if unusable."""
    from boardai.learn import torch_file

    p = Path(path)
    if not p.is_file():
        raise ModelFileError(p, "no such model file")
    data = torch_file.load(p, p)
    if isinstance(data, dict) and data.get("format") == "boardai-dqn-2048":
        raise ModelFileError(
            p,
            "a 2048 DQN checkpoint, not an Othello one (use it with boardai 2048 eval, compare or "
            "watch)",
        )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ModelFileError(p, "not an Othello DQN model")
    config = data["config"]
    net = build_net(NetShape.of_run(config))
    try:
        net.load_state_dict(data["state"])
    except RuntimeError as e:
        raise ModelFileError(
            p, f"weights do not fit its config ({str(e).splitlines()[0]})"
        ) from None
    net.eval()
    return net, config, data.get("meta", {})


def q_values(net: Any, boards: list[Board]) -> np.ndarray:
    """Q values (n, 65) of boards, each from its mover's view."""
    import torch

    with torch.no_grad():
        x = torch.from_numpy(np.stack([observe(b) for b in boards]).astype(np.float32))
        return net(x).numpy()
