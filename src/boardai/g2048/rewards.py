"""Reward options of the 2048 environments, as compiled kernels.

- ``score``: the game's reward, the sum of the tiles a move makes (merging two 8s gives 16).
- ``log2``: seed 003's ``log_rewards``: the sum of log2 of the tiles a move makes (two 8s give 4).
- ``shaped``: seed 003's progressive log reward: ``log2`` plus, on every move, a bonus of
  ``n512 + 2.5 * n1024 + 6 * n2048`` for the tiles of 512, 1024 and 2048 or more on the board,
  minus an optional per-move penalty.

>>> from boardai.g2048 import Board, LEFT
>>> b = Board.from_grid([[8, 8, 2, 2]] + [[0] * 4] * 3)
>>> move_log2_reward(b, LEFT)
6
"""

from __future__ import annotations

import numpy as np

from boardai._jit import njit
from boardai.g2048 import kernels as K

#: Reward names, in the order of their codes in the compiled kernels.
KINDS = ("score", "log2", "shaped")
SCORE, LOG2, SHAPED = 0, 1, 2
#: Seed 003's per-move bonus weights for tiles of 512, 1024, and 2048 or more.
SHAPED_BONUS = (1.0, 2.5, 6.0)

_ROW = np.uint64(0xFFFF)
_NIB = np.uint64(0xF)


def kind_code(kind: str) -> int:
    """The kernel code of reward ``kind`` (raises ValueError for an unknown name)."""
    if kind not in KINDS:
        raise ValueError(f"unknown reward {kind!r} (choose from {', '.join(KINDS)} or a callable)")
    return KINDS.index(kind)


LOG_TABLE = K.LOG_REWARD_TABLE


@njit
def _rows_log(b: np.uint64) -> np.int64:
    return (
        np.int64(LOG_TABLE[b & _ROW])
        + np.int64(LOG_TABLE[(b >> np.uint64(16)) & _ROW])
        + np.int64(LOG_TABLE[(b >> np.uint64(32)) & _ROW])
        + np.int64(LOG_TABLE[b >> np.uint64(48)])
    )


@njit
def log2_reward(
    lo: np.uint64, hi: np.uint64, lo2: np.uint64, hi2: np.uint64, action: np.int64
) -> int:
    """Kernel: sum of log2 of the tiles ``action`` made, taking ``(lo, hi)`` to ``(lo2, hi2)``."""
    if hi == 0 and hi2 == 0:
        return _rows_log(lo if action == K.LEFT or action == K.RIGHT else K.transpose(lo))
    # Wide boards: count tiles per exponent; merges making exponent k satisfy
    # after[k] = before[k] + made[k] - 2 * made[k + 1], solved from the top down.
    before = np.zeros(K.MAX_EXPONENT + 2, np.int64)
    after = np.zeros(K.MAX_EXPONENT + 2, np.int64)
    cb = K.unpack(lo, hi)
    ca = K.unpack(lo2, hi2)
    for i in range(16):
        before[cb[i]] += 1
        after[ca[i]] += 1
    total = 0
    made_above = 0
    for k in range(K.MAX_EXPONENT, 1, -1):
        made = after[k] - before[k] + 2 * made_above
        total += k * made
        made_above = made
    return total


@njit
def tile_bonus(lo: np.uint64, hi: np.uint64, w512: float, w1024: float, w2048: float) -> float:
    """Kernel: seed 003's bonus ``w512 * n512 + w1024 * n1024 + w2048 * n(>=2048)``."""
    bonus = 0.0
    for i in range(16):
        e = np.int64((lo >> np.uint64(4 * i)) & _NIB)
        if hi != 0 and (hi >> np.uint64(i)) & np.uint64(1):
            e += 16
        if e == 9:
            bonus += w512
        elif e == 10:
            bonus += w1024
        elif e >= 11:
            bonus += w2048
    return bonus


def move_log2_reward(board: object, action: int) -> int:
    """The ``log2`` reward of playing ``action`` on ``board`` (0 for an illegal move)."""
    lo, hi = np.uint64(board.lo), np.uint64(board.hi)  # type: ignore[attr-defined]
    lo2, hi2, _ = K.move(lo, hi, action)
    return int(log2_reward(lo, hi, np.uint64(lo2), np.uint64(hi2), action))
