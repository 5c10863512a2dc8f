"""Hand-made evaluations of 2048 boards.

Two families:

* The row heuristic of nneonneo's 2048-ai, the default leaf evaluation of the expectimax
  search: every row and every column (a row of the transposed board) scores empty cells,
  possible merges, monotonicity and a penalty on large tiles (and, optionally, smoothness:
  rank differences between neighbouring tiles), each looked up in one 65536-entry table
  (:func:`row_heuristic_table`), so a board costs 8 lookups.
* Seed 001's one-move heuristic: weight matrices (snake, corner, left, left-corner) over the
  board, each taken at its best of 8 symmetries, minus a penalty for unequal neighbours, plus a
  merge preference that depends on the number of empty cells (:func:`matrix_score`).

>>> import numpy as np
>>> evaluate_rows(np.uint64(0), row_table_data())  # 8 lines of 4 empty cells
1608640.0
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from boardai._jit import njit
from boardai.g2048.kernels import count_empty, transpose

_ROW = np.uint64(0xFFFF)
_NIB = np.uint64(0xF)


@dataclass(frozen=True)
class RowWeights:
    """Weights of nneonneo's row heuristic (his tuned values are the defaults).

    Attributes:
        lost_penalty: constant per row, so that every live board scores far above a lost one
            (a max node with no move is worth 0).
        monotonicity_power: monotonicity compares ``rank ** power`` of neighbours.
        monotonicity: weight of the smaller of the two monotonicity penalties.
        sum_power: each tile costs ``rank ** sum_power`` ...
        sum: ... times this weight (penalises many large tiles left unmerged).
        merges: weight of the count of neighbouring equal tiles.
        empty: weight per empty cell.
        smoothness: penalty per unit of rank difference between neighbouring tiles (not in
            nneonneo's tuned set, hence 0 by default; ``expectimax:smoothness=...``).
    """

    lost_penalty: float = 200000.0
    monotonicity_power: float = 4.0
    monotonicity: float = 47.0
    sum_power: float = 3.5
    sum: float = 11.0
    merges: float = 700.0
    empty: float = 270.0
    smoothness: float = 0.0


@njit
def _row_table(
    lost: float,
    mono_power: float,
    mono: float,
    sum_power: float,
    sum_w: float,
    merges_w: float,
    empty_w: float,
    smooth_w: float,
) -> np.ndarray:
    table = np.zeros(65536, np.float64)
    line = np.zeros(4, np.int64)
    for row in range(65536):
        for i in range(4):
            line[i] = (row >> (4 * i)) & 0xF
        total = 0.0
        empty = 0
        merges = 0
        prev = 0
        counter = 0
        for i in range(4):
            rank = line[i]
            total += rank**sum_power
            if rank == 0:
                empty += 1
            else:
                if prev == rank:
                    counter += 1
                elif counter > 0:
                    merges += 1 + counter
                    counter = 0
                prev = rank
        if counter > 0:
            merges += 1 + counter
        mono_left = 0.0
        mono_right = 0.0
        for i in range(1, 4):
            a = np.float64(line[i - 1]) ** mono_power
            b = np.float64(line[i]) ** mono_power
            if line[i - 1] > line[i]:
                mono_left += a - b
            else:
                mono_right += b - a
        rough = 0.0
        last = 0
        for i in range(4):
            if line[i] != 0:
                if last != 0:
                    rough += abs(line[i] - last)
                last = line[i]
        table[row] = (
            lost
            + empty_w * empty
            + merges_w * merges
            - mono * min(mono_left, mono_right)
            - sum_w * total
            - smooth_w * rough
        )
    return table


def row_heuristic_table(weights: RowWeights | None = None) -> np.ndarray:
    """The 65536-entry table: row (16 bits, column 0 in the low nibble) -> its score."""
    w = weights or RowWeights()
    return _row_table(
        w.lost_penalty,
        w.monotonicity_power,
        w.monotonicity,
        w.sum_power,
        w.sum,
        w.merges,
        w.empty,
        w.smoothness,
    )


@functools.cache
def row_table_data(weights: RowWeights | None = None) -> tuple[np.ndarray]:
    """The ``data`` that :func:`evaluate_rows` takes: a 1-tuple holding the row table."""
    table = row_heuristic_table(weights)
    table.setflags(write=False)
    return (table,)


@njit
def _rows_sum(b: np.uint64, table: np.ndarray) -> float:
    return (
        table[np.int64(b & _ROW)]
        + table[np.int64((b >> np.uint64(16)) & _ROW)]
        + table[np.int64((b >> np.uint64(32)) & _ROW)]
        + table[np.int64(b >> np.uint64(48))]
    )


@njit
def evaluate_rows(board: np.uint64, data: tuple[np.ndarray]) -> float:
    """Search evaluator: sum of the row table over the 4 rows and the 4 columns."""
    table = data[0]
    return _rows_sum(board, table) + _rows_sum(transpose(board), table)


# ---------------------------------------------------------------------------------------------
# Seed 001: weight matrices, neighbour penalty and merge preference.
# ---------------------------------------------------------------------------------------------

#: Seed 001's snake: the path a well-played game keeps its tiles on.
SNAKE = np.array([[15, 14, 13, 12], [8, 9, 10, 11], [7, 6, 5, 4], [0, 1, 2, 3]], np.float64)
#: Big tiles in the left column (seed 001's "Links").
LEFT = np.array([[3, 2, 1, 0]] * 4, np.float64)
#: Big tiles towards the top-left corner ("Links oben").
LEFT_CORNER = np.array([[6, 5, 4, 3], [5, 4, 3, 2], [4, 3, 2, 1], [3, 2, 1, 0]], np.float64)
#: Big tiles in the corners ("Ecken").
CORNER = np.array([[3, 1, 1, 3], [1, 0, 0, 1], [1, 0, 0, 1], [3, 1, 1, 3]], np.float64)


def _symmetries(m: np.ndarray) -> np.ndarray:
    """The 8 rotations and mirrors of a 4x4 matrix, flattened row-major: shape (8, 16)."""
    out = []
    for k in range(4):
        r = np.rot90(m, k)
        out += [r.ravel(), r.T.ravel()]
    return np.array(out)


def weight_matrices() -> np.ndarray:
    """Snake, left, left-corner and corner, each in its 8 symmetries: shape (4, 8, 16)."""
    return np.stack([_symmetries(m) for m in (SNAKE, LEFT, LEFT_CORNER, CORNER)])


@njit
def _tile_values(b: np.uint64, out: np.ndarray) -> None:
    for i in range(16):
        e = (b >> np.uint64(4 * i)) & _NIB
        out[i] = 0.0 if e == 0 else np.float64(np.uint64(1) << e)


@njit
def matrix_score(
    before: np.uint64, after: np.uint64, reward: np.int64, matrices: np.ndarray, weights: np.ndarray
) -> float:
    """Seed 001's score of a move from ``before`` to afterstate ``after`` (reward ``reward``).

    ``weights`` holds: snake, left, left-corner, corner, neighbour penalty, merge preference.
    Each matrix term is ``max over 8 symmetries of sum(W * tile values)``; the penalty is the
    sum of absolute differences of neighbouring tile values; the merge preference, by the
    number of empty cells after the move, is: more than 9 empty: fewer merged tiles; fewer than
    6: more merged tiles; otherwise: the largest tile made (its exponent).
    """
    values = np.empty(16)
    _tile_values(after, values)
    score = 0.0
    for m in range(matrices.shape[0]):
        if weights[m] == 0.0:
            continue
        best = -np.inf
        for s in range(matrices.shape[1]):
            total = 0.0
            for i in range(16):
                total += matrices[m, s, i] * values[i]
            best = max(best, total)
        score += weights[m] * best
    penalty = 0.0
    for r in range(4):
        for c in range(4):
            v = values[4 * r + c]
            if c < 3:
                penalty += abs(v - values[4 * r + c + 1])
            if r < 3:
                penalty += abs(v - values[4 * r + c + 4])
    score -= weights[4] * penalty
    empty = count_empty(after)
    merged = empty - count_empty(before)  # each merge frees one cell
    if empty > 9:
        score -= weights[5] * merged
    elif empty < 6:
        score += weights[5] * merged
    else:
        top = 0
        x = reward
        while x > 1:  # reward is a sum of tiles made; its top bit is the largest one
            x >>= 1
            top += 1
        score += weights[5] * top
    return score
