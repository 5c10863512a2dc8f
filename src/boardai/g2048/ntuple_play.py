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
from boardai.g2048.ntuple import feature_board, lookup_indices


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
def greedy_move_into(
    lo: np.uint64, hi: np.uint64, data: Any, dg: np.int64, buf: np.ndarray
) -> tuple[int, np.uint64, np.uint64, int, float]:
    """Greedy move by ``r + V(afterstate)``: (action or -1, after lo, after hi, reward, r + V).

    ``V`` reads the afterstate through :func:`features` (``dg > 0``: downgraded). ``buf``
    (int64, ``(4, n)`` with ``n >= n_lookups``) is scratch: row ``a`` receives the lookups of
    action ``a``'s afterstate (:func:`~boardai.g2048.ntuple.lookup_indices`; zeros when the
    action is illegal). The lookups of every legal afterstate are made once, their weights
    start loading before the first is summed, and the four sums then run side by side, each in
    :func:`~boardai.g2048.ntuple.evaluate`'s order (so every value is the same bit for bit),
    which lets their memory latencies and additions overlap."""
    weights = data[0]
    n_lookups = 8 * data[2].shape[0]
    moves = (move(lo, hi, 0), move(lo, hi, 1), move(lo, hi, 2), move(lo, hi, 3))
    for a in range(4):
        alo, ahi, _ = moves[a]
        row = buf[a]
        if alo != lo or ahi != hi:
            lookup_indices(features(alo, ahi, dg), data, row)  # starts the weights' loads
        else:
            for k in range(n_lookups):
                row[k] = 0
    v0 = v1 = v2 = v3 = 0.0
    r0, r1, r2, r3 = buf[0], buf[1], buf[2], buf[3]  # rows: no 2-D index arithmetic a lookup
    for k in range(n_lookups):
        v0 += weights[np.uint64(r0[k])]
        v1 += weights[np.uint64(r1[k])]
        v2 += weights[np.uint64(r2[k])]
        v3 += weights[np.uint64(r3[k])]
    values = (v0, v1, v2, v3)
    best_a = -1
    best_lo = lo
    best_hi = hi
    best_r = 0
    best_q = -np.inf
    for a in range(4):
        alo, ahi, r = moves[a]
        if alo == lo and ahi == hi:
            continue
        q = r + values[a]
        if q > best_q:
            best_a, best_lo, best_hi, best_r, best_q = a, alo, ahi, r, q
    return best_a, best_lo, best_hi, best_r, best_q


@njit
def greedy_move(
    lo: np.uint64, hi: np.uint64, data: Any, dg: np.int64
) -> tuple[int, np.uint64, np.uint64, int, float]:
    """:func:`greedy_move_into` with scratch of its own (one move at a time: the player); the
    loops that move many times keep one scratch and call :func:`greedy_move_into`."""
    buf = np.empty((4, 8 * data[2].shape[0]), np.int64)
    return greedy_move_into(lo, hi, data, dg, buf)
