"""Static evaluations of Othello positions, from the mover's point of view (numba kernels).

The weighted piece counter (WPC) is the "standard heuristic player" of the Othello League
(Lucas and Runarsson, CEC 2006; weights after Yoshioka et al.), scaled by 100 to integers.
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards, as in the literature)
from __future__ import annotations

import numpy as np

from boardai._jit import njit
from boardai.othello.kernels import (
    CORNERS,
    PASS,
    legal_moves,
    lowest_square,
    play_bit,
    popcount,
    random_below,
)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

#: The Othello League's standard WPC (x100), row-major from a1.
WPC_WEIGHTS = np.array(
    [
        [100, -25, 10, 5, 5, 10, -25, 100],
        [-25, -25, 1, 1, 1, 1, -25, -25],
        [10, 1, 5, 2, 2, 5, 1, 10],
        [5, 1, 2, 1, 1, 2, 1, 5],
        [5, 1, 2, 1, 1, 2, 1, 5],
        [10, 1, 5, 2, 2, 5, 1, 10],
        [-25, -25, 1, 1, 1, 1, -25, -25],
        [100, -25, 10, 5, 5, 10, -25, 100],
    ],
    dtype=np.float64,
).reshape(64)

#: Kinds of 1-ply evaluation for :func:`best_one_ply`.
GREEDY, WPC = 0, 1


@njit
def wpc(P: np.uint64, O: np.uint64, weights: np.ndarray) -> float:
    """Sum of ``weights`` over the mover's discs minus over the opponent's."""
    v = 0.0
    x = P
    while x:
        v += weights[lowest_square(x)]
        x &= x - _ONE
    x = O
    while x:
        v -= weights[lowest_square(x)]
        x &= x - _ONE
    return v


@njit
def classic(P: np.uint64, O: np.uint64) -> float:
    """Mobility, corners and X-squares: a hand-made evaluation without tables."""
    mp = np.float64(popcount(legal_moves(P, O)))
    mo = np.float64(popcount(legal_moves(O, P)))
    mobility = 100.0 * (mp - mo) / (mp + mo + 2.0)
    corners = 25.0 * (np.float64(popcount(P & CORNERS)) - np.float64(popcount(O & CORNERS)))
    empty_corners = CORNERS & ~(P | O)
    near = _ZERO
    for c in (0, 7, 56, 63):
        if empty_corners >> np.uint64(c) & _ONE:
            near |= _near(c)
    xs = -12.0 * (np.float64(popcount(P & near)) - np.float64(popcount(O & near)))
    return mobility + corners + xs


@njit
def _near(corner: np.int64) -> np.uint64:
    """The X-square (b2, g2, b7 or g7) diagonal to ``corner``."""
    if corner == 0:
        return np.uint64(1 << 9)
    if corner == 7:
        return np.uint64(1 << 14)
    if corner == 56:
        return np.uint64(1 << 49)
    return np.uint64(1 << 54)


@njit
def best_one_ply(
    P: np.uint64, O: np.uint64, kind: np.int64, weights: np.ndarray, state: np.uint64
) -> tuple[np.uint64, np.int64]:
    """(new rng state, the move maximising the afterstate value for the mover; ties at random).

    ``kind`` is :data:`GREEDY` (most own discs) or :data:`WPC` (``weights``). PASS when the
    mover has no square.
    """
    moves = legal_moves(P, O)
    if moves == 0:
        return state, np.int64(PASS)
    best = -1e300
    best_sq = np.int64(-1)
    ties = 0
    while moves:
        m = moves & (_ZERO - moves)
        moves ^= m
        O2, P2 = play_bit(m, P, O)  # P2 holds the mover's discs after the move
        v = np.float64(popcount(P2)) if kind == GREEDY else wpc(P2, O2, weights)
        if v > best:
            best = v
            best_sq = np.int64(lowest_square(m))
            ties = 1
        elif v == best:
            ties += 1  # reservoir sampling: each tied move is kept with probability 1/ties
            state, k = random_below(state, np.int64(ties))
            if k == 0:
                best_sq = np.int64(lowest_square(m))
    return state, best_sq


def wpc_data(weights: np.ndarray | None = None) -> tuple[np.ndarray]:
    """The ``data`` that :func:`evaluate_wpc` takes: the weights (default
    :data:`WPC_WEIGHTS`), as a 1-tuple of float64[64]."""
    w = WPC_WEIGHTS if weights is None else np.ascontiguousarray(weights, np.float64)
    return (w,)


@njit
def evaluate_wpc(P: np.uint64, O: np.uint64, data: tuple[np.ndarray]) -> float:
    """Search evaluator (see :mod:`boardai.othello.search`): :func:`wpc` over ``data[0]``."""
    return wpc(P, O, data[0])


#: The ``data`` of :func:`evaluate_classic`: it needs none (an empty tuple is what is passed).
CLASSIC_DATA: tuple[()] = ()


@njit
def evaluate_classic(P: np.uint64, O: np.uint64, data: tuple[()]) -> float:
    """Search evaluator (see :mod:`boardai.othello.search`): :func:`classic`; ``data`` unused."""
    return classic(P, O)
