"""A trained 2048 Q network at play (PyTorch, imported lazily): reading a DQN checkpoint into
its network, and the Q values of packed boards. The ``dqn`` player acts by these; the trainer
(:mod:`boardai.g2048.train.dqn`) writes the checkpoints and learns through the same forward
pass.

>>> inputs = QInputs.of_run({"planes": 12, "reward": "score", "lr": 1e-3})
>>> inputs
QInputs(planes=12, reward='score', reward_scale=1.0)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from boardai.errors import ModelFileError

CHECKPOINT_FORMAT = "boardai-dqn-2048"
CHECKPOINT_VERSION = 1


class QSettings(Protocol):
    """What the forward pass reads of a run's settings (a trainer's ``DQNConfig`` has them)."""

    @property
    def planes(self) -> int:
        """One-hot planes of the board encoding."""
        ...

    @property
    def reward(self) -> str:
        """The move reward an afterstate net adds to its output: score or log2."""
        ...

    @property
    def reward_scale(self) -> float:
        """The factor of that reward."""
        ...


@dataclass(frozen=True)
class QInputs:
    """The settings of a trained run that its forward pass reads (the defaults are the
    trainer's)."""

    planes: int = 16
    reward: str = "log2"
    reward_scale: float = 1.0

    @classmethod
    def of_run(cls, config: dict[str, Any]) -> QInputs:
        """These settings out of a checkpoint's whole config (other keys are ignored)."""
        return cls(**{f.name: config[f.name] for f in fields(cls) if f.name in config})


def encode_input(boards: np.ndarray, kind: str, planes: int, device: Any) -> Any:
    """A network's input tensor for packed boards ``(n, 2)`` (encoding ``kind``)."""
    import torch

    from boardai.g2048.observations import encode_afterstates, encode_boards

    if kind == "afterstates":
        return torch.from_numpy(encode_afterstates(boards, planes)[0]).to(device)
    return torch.from_numpy(encode_boards(boards, kind, planes)).to(device)


def q_forward(net: Any, boards: np.ndarray, kind: str, cfg: QSettings, device: Any) -> Any:
    """Q values ``(n, 4)`` of packed boards: the net's output, plus the scaled move rewards
    for an afterstate net (whose output is the afterstates' values)."""
    import torch

    if kind != "afterstates":
        return net(encode_input(boards, kind, cfg.planes, device)).float()
    from boardai.g2048.observations import encode_afterstates

    x, r = encode_afterstates(boards, cfg.planes, cfg.reward)
    values = net(torch.from_numpy(x).to(device)).float()
    return values + cfg.reward_scale * torch.from_numpy(r).to(device)


def load_checkpoint(path: str | Path) -> dict[str, Any]:
    """Read a DQN checkpoint (raises ModelFileError naming the file if it is not one).

    The file is read as plain data (tensors, dicts, numbers, strings): a file that would
    run code to load is refused before anything in it runs."""
    from boardai.learn import torch_file

    p = Path(path)
    if not p.is_file():
        raise ModelFileError(p, "no such file")
    state = torch_file.load(p, p)
    if isinstance(state, dict) and state.get("format") == "boardai-othello-dqn":
        raise ModelFileError(
            p, "an Othello DQN model, not a 2048 one (use it with boardai othello ...)"
        )
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise ModelFileError(
            p, f"not a boardai DQN checkpoint (expected format {CHECKPOINT_FORMAT!r})"
        )
    if state.get("version", 0) > CHECKPOINT_VERSION:
        raise ModelFileError(p, f"checkpoint version {state['version']} is newer than this boardai")
    return state


def held_replay_size(state: dict[str, Any], replay_size: int) -> int | None:
    """The capacity of the replay buffer a checkpoint's ``state`` holds, where it is not
    ``replay_size`` (a run cannot take it); None where it holds none or one that size."""
    replay = state.get("replay")
    if replay is None or replay.get("capacity") == replay_size:
        return None
    held: int = replay.get("capacity")
    return held


def load_qnet(path: str | Path, device: str = "cpu") -> tuple[Any, dict[str, Any]]:
    """The trained network of a checkpoint (in eval mode) and the checkpoint's metadata."""
    from boardai.g2048.qnetworks import build_net

    state = load_checkpoint(path)
    try:
        net = build_net(state["net_name"], **state["net_kwargs"])
        net.load_state_dict(state["net"])
    except (KeyError, RuntimeError, ValueError, TypeError) as e:
        raise ModelFileError(path, f"network does not match its settings ({e})") from None
    net.to(device).eval()
    meta = {k: state[k] for k in ("config", "input_kind", "planes", "counters")}
    return net, meta
