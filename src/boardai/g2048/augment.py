"""Symmetry augmentation of board inputs: the 8 rotations and mirror images of the square.

A 2048 board's value does not change when the board is turned or mirrored (the moves turn
with it), so a value net may learn from any of the 8 images of a board: each sample of a
batch is shown in a randomly chosen one, up to 8 times the data (n-tuple networks get the
same effect from their isomorphic lookups). Whether it pays depends on the net and the
budget: for the strong DQN preset it did not (docs/journal/benchmarks-journal.md).

>>> import torch
>>> x = torch.arange(16.0).view(1, 1, 4, 4)
>>> sorted(int(dihedral(x, k)[0, 0, 0, 0]) for k in range(8))  # each corner twice
[0, 0, 3, 3, 12, 12, 15, 15]
"""

from __future__ import annotations

import numpy as np
import torch

#: The number of symmetries of the square.
N_SYMMETRIES = 8


def dihedral(x: torch.Tensor, k: int) -> torch.Tensor:
    """Image ``k`` (0-7) of boards ``(..., 4, 4)``: ``k % 4`` quarter turns, after a mirror
    when ``k >= 4`` (0 is the identity)."""
    if k >= 4:
        x = torch.flip(x, dims=(-1,))
    return torch.rot90(x, k % 4, dims=(-2, -1))


def random_symmetry(x: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """Boards ``(B, ..., 4, 4)``, each in one of its 8 images chosen at random."""
    ks = rng.integers(N_SYMMETRIES, size=x.shape[0])
    out = torch.empty_like(x)
    for k in np.unique(ks):
        idx = torch.from_numpy(np.flatnonzero(ks == k)).to(x.device)
        out[idx] = dihedral(x[idx], int(k))
    return out
