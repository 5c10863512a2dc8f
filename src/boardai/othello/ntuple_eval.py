"""An n-tuple network as the evaluator of :mod:`boardai.othello.search`.

The search takes an ``@njit`` evaluator and its data; for a network the data is its
``(squares, offsets, weights)`` (:meth:`boardai.othello.ntuple.NTupleNetwork.data`) and the
value is the network's (``tanh`` of the sum of its weights, in (-1, 1)) scaled by 100, the
range of the hand-made evaluations.
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

import numpy as np

from boardai._jit import njit
from boardai.othello.ntuple import value

#: Search units per unit of network value.
SCALE = 100.0


@njit
def evaluate_ntuple(
    P: np.uint64, O: np.uint64, data: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> float:
    """Search evaluator: ``SCALE`` times the network's value for the mover."""
    squares, offsets, weights = data
    return SCALE * value(P, O, squares, offsets, weights)
