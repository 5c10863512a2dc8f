"""Q-network building blocks shared by both games (PyTorch): :func:`mlp`, the fully connected
stack that the 2048 and Othello fully connected Q nets are made of. Each game's architectures
live with the game (:mod:`boardai.g2048.qnetworks`, :mod:`boardai.othello.qnet`).
"""

from __future__ import annotations

from collections.abc import Sequence

from torch import nn


def mlp(inputs: int, hidden: Sequence[int], outputs: int, flatten: bool = True) -> nn.Sequential:
    """A multilayer perceptron: (``Flatten``), then ``Linear`` + ``ReLU`` for each width of
    ``hidden``, then a ``Linear`` to ``outputs``; the layers are made (and their parameters
    drawn from torch's rng) in that order. Both games' fully connected Q nets are one.

    >>> mlp(8, [4, 4], 2)
    Sequential(
      (0): Flatten(start_dim=1, end_dim=-1)
      (1): Linear(in_features=8, out_features=4, bias=True)
      (2): ReLU()
      (3): Linear(in_features=4, out_features=4, bias=True)
      (4): ReLU()
      (5): Linear(in_features=4, out_features=2, bias=True)
    )
    """
    layers: list[nn.Module] = [nn.Flatten()] if flatten else []
    width = inputs
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, outputs))
    return nn.Sequential(*layers)
