"""Greedy play by a 2048 n-tuple network, in compiled code: what the ``ntuple`` player and the
TD training loop (:mod:`boardai.g2048.train.episodes`) both move by.

A move picks the action maximising ``r + V(afterstate)`` (Szubert & Jaśkowski's
TD-afterstate learning, seed 004's EVALUATE); ``V`` reads the afterstate's feature board
(:func:`features`), downgraded when the network was trained so.

>>> import numpy as np
>>> from boardai.g2048.ntuple import NTupleNetwork
>>> net = NTupleNetwork.create("0123,4567")
>>> action = greedy_move(np.uint64(0x1100), np.uint64(0), net.data(), 0)[0]
>>> int(action) in (0, 1, 2, 3)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.g2048.downgrade import downgrade
from boardai.g2048.kernels import move
from boardai.g2048.ntuple import evaluate, feature_board, prefetch_value


@njit(inline="always")
def features(lo: np.uint64, hi: np.uint64, dg: np.int64) -> np.uint64:
    """The board the network reads for the exact board ``(lo, hi)``: its feature board,
    downgraded (:func:`~boardai.g2048.downgrade.downgrade`) from tile ``2**dg`` up when
    ``dg > 0``."""
    fb = feature_board(lo, hi)
    if dg > 0:
        fb = downgrade(fb, dg)
    return fb


@njit(inline="always")
def greedy_move(
    lo: np.uint64, hi: np.uint64, data: Any, dg: np.int64
) -> tuple[int, np.uint64, np.uint64, int, float]:
    """Greedy move by ``r + V(afterstate)``: (action or -1, after lo, after hi, reward, r + V).

    ``V`` reads the afterstate through :func:`features` (``dg > 0``: downgraded). The weights
    of all legal afterstates start loading before the first is evaluated, so their memory
    latencies overlap."""
    moves = (move(lo, hi, 0), move(lo, hi, 1), move(lo, hi, 2), move(lo, hi, 3))
    for alo, ahi, _ in moves:
        if alo != lo or ahi != hi:
            prefetch_value(features(alo, ahi, dg), data)
    best_a = -1
    best_lo = lo
    best_hi = hi
    best_r = 0
    best_q = -np.inf
    for a in range(4):
        alo, ahi, r = moves[a]
        if alo == lo and ahi == hi:
            continue
        q = r + evaluate(features(alo, ahi, dg), data)
        if q > best_q:
            best_a, best_lo, best_hi, best_r, best_q = a, alo, ahi, r, q
    return best_a, best_lo, best_hi, best_r, best_q
