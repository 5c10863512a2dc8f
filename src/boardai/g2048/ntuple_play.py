"""Greedy play by a 2048 n-tuple network, in compiled code: what the ``ntuple`` player and the
TD training loop (:mod:`boardai.g2048.train.episodes`) both move by.

A move picks the action maximising ``r + V(afterstate)`` (Szubert & Jaśkowski's
TD-afterstate learning, seed 004's EVALUATE); ``V`` reads the afterstate's feature board
(:func:`lookup_read`), downgraded when the network was trained so, in the stage of the
afterstate as it is.

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
from boardai.g2048.ntuple import evaluate_at, feature_board, lookup_indices_at


@njit(inline="always")
def lookup_read(fb: np.uint64, dg: np.int64, data: Any, out: np.ndarray) -> None:
    """The lookups of feature board ``fb`` as the network reads it
    (:func:`~boardai.g2048.ntuple.lookup_indices_at`): downgraded from tile ``2**dg`` up when
    ``dg > 0``, in the weights of the stage of ``fb`` as it is (a multi-stage network keeps its
    late stages for the late boards that downgrading reads as earlier ones)."""
    fb = np.uint64(fb)
    lookup_indices_at(downgrade(fb, dg) if dg > 0 else fb, fb, data, out)


@njit(inline="always")
def _sum_rows(weights: np.ndarray, buf: np.ndarray, n: int) -> tuple[float, float, float, float]:
    """The four sums of the weights that rows 0..3 of ``buf`` index (``n`` lookups each), side
    by side: each row in :func:`~boardai.g2048.ntuple.evaluate`'s order, so each sum is that
    value bit for bit, while their loads and additions overlap."""
    v0 = v1 = v2 = v3 = 0.0
    r0, r1, r2, r3 = buf[0], buf[1], buf[2], buf[3]  # rows: no 2-D index arithmetic a lookup
    for k in range(n):
        v0 += weights[np.uint64(r0[k])]
        v1 += weights[np.uint64(r1[k])]
        v2 += weights[np.uint64(r2[k])]
        v3 += weights[np.uint64(r3[k])]
    return v0, v1, v2, v3


@njit(inline="always")
def greedy_move_into(
    lo: np.uint64, hi: np.uint64, data: Any, dg: np.int64, buf: np.ndarray
) -> tuple[int, np.uint64, np.uint64, int, float]:
    """Greedy move by ``r + V(afterstate)``: (action or -1, after lo, after hi, reward, r + V).

    ``V`` reads the afterstate through :func:`lookup_read` (``dg > 0``: downgraded). ``buf``
    (int64, ``(4, n)`` with ``n >= n_lookups``) is scratch: row ``a`` receives the lookups of
    action ``a``'s afterstate (:func:`lookup_read`; zeros when the
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
            lookup_read(feature_board(alo, ahi), dg, data, row)  # starts the weights' loads
        else:
            for k in range(n_lookups):
                row[k] = 0
    values = _sum_rows(weights, buf, n_lookups)
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


def search_data(network_data: Any, dg: int) -> Any:
    """The data of :func:`evaluate_leaf` and :func:`evaluate_leaves` (the search's evaluator
    and its batch form, :mod:`boardai.g2048.search`) for a network's
    :meth:`~boardai.g2048.ntuple.NTupleNetwork.data`, read downgraded from tile ``2**dg`` up
    (``dg`` 0: as it is), with the batch's scratch (one per searcher: not for threads)."""
    scratch = np.empty((4, 8 * network_data[2].shape[0]), np.int64)
    return network_data, np.int64(dg), scratch


@njit
def evaluate_leaf(after: np.uint64, data: Any) -> float:
    """The network's value of afterstate ``after`` (:func:`search_data`'s data)."""
    network, dg, _ = data
    board = np.uint64(after)
    return evaluate_at(downgrade(board, dg) if dg > 0 else board, board, network)


@njit
def evaluate_leaves(
    evaluate_one: Any, outs: tuple[np.uint64, ...], need: np.int64, data: Any, vals: np.ndarray
) -> None:
    """:func:`evaluate_leaf` of ``outs[a]`` into ``vals[a]`` for each bit ``a`` of ``need``,
    the same values bit for bit, as :func:`greedy_move_into` evaluates: every afterstate's
    lookups written (their loads started) before the four sums run side by side. The search's
    batch form (the contract in :mod:`boardai.g2048.search`; ``evaluate_one`` is
    not called)."""
    network, dg, buf = data
    n = 8 * network[2].shape[0]
    for a in range(4):
        row = buf[a]
        if (need >> a) & 1:
            lookup_read(np.uint64(outs[a]), dg, network, row)
        else:
            for k in range(n):
                row[k] = 0
    v0, v1, v2, v3 = _sum_rows(network[0], buf, n)
    if need & 1:
        vals[0] = v0
    if need & 2:
        vals[1] = v1
    if need & 4:
        vals[2] = v2
    if need & 8:
        vals[3] = v3
