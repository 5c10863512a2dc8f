"""The compiled step and reset that the single and the vector 2048 environments share.

A board's state is three ``uint64``: ``(lo, hi, rng)``, the packed board (see
:mod:`boardai.g2048.kernels`) and its splitmix64 stream. The options of an environment travel
as one float64 array (:func:`make_config`), so one compiled signature serves every option.
"""

from __future__ import annotations

import numpy as np

from boardai._jit import njit
from boardai.g2048 import kernels as K
from boardai.g2048 import observations as O
from boardai.g2048 import rewards as R

# Slots of the config array.
P4, START_P4, START_TILES, REWARD, MOVE_PENALTY, INVALID_PENALTY, TERMINATE_INVALID = range(7)
OBS, PLANES, BONUS512, BONUS1024, BONUS2048 = range(7, 12)
CONFIG_SIZE = 12

LO, HI, RNG = 0, 1, 2


def make_config(
    *,
    p4: float,
    start_p4: float,
    start_tiles: int,
    reward: int,
    move_penalty: float,
    invalid_penalty: float,
    terminate_invalid: bool,
    observation: int,
    planes: int,
    bonus: tuple[float, float, float] = R.SHAPED_BONUS,
) -> np.ndarray:
    """The config array of one environment (codes from observations/rewards ``kind_code``)."""
    cfg = np.zeros(CONFIG_SIZE, np.float64)
    cfg[P4], cfg[START_P4], cfg[START_TILES] = p4, start_p4, start_tiles
    cfg[REWARD], cfg[MOVE_PENALTY], cfg[INVALID_PENALTY] = reward, move_penalty, invalid_penalty
    cfg[TERMINATE_INVALID] = 1.0 if terminate_invalid else 0.0
    cfg[OBS], cfg[PLANES] = observation, planes
    cfg[BONUS512], cfg[BONUS1024], cfg[BONUS2048] = bonus
    return cfg


_LOW = np.uint64(0x1111_1111_1111_1111)  # bit 0 of every nibble
_COLS_012 = np.uint64(0x0111_0111_0111_0111)  # cells with a right neighbour
_ROWS_012 = np.uint64(0x0000_1111_1111_1111)  # cells with a neighbour below


@njit
def _legal_bits(b: np.uint64) -> tuple[bool, bool, bool, bool]:
    """(up, right, down, left) legal on a board with ``hi == 0``, branch-free: a move is legal
    when a tile has an empty cell on that side or two neighbours along it are equal (cell i's
    right neighbour is nibble i + 1, the one below it nibble i + 4; left and up go towards
    nibble 0, as :data:`boardai.g2048.kernels.LEFT_TABLE` does)."""
    nz = K.nonzero_nibbles(b)
    empty = ~nz & _LOW
    h_pair = ~K.nonzero_nibbles(b ^ (b >> np.uint64(4))) & nz & _COLS_012
    v_pair = ~K.nonzero_nibbles(b ^ (b >> np.uint64(16))) & nz & _ROWS_012
    left = ((empty & (nz >> np.uint64(4)) & _COLS_012) | h_pair) != 0
    right = ((nz & (empty >> np.uint64(4)) & _COLS_012) | h_pair) != 0
    up = ((empty & (nz >> np.uint64(16)) & _ROWS_012) | v_pair) != 0
    down = ((nz & (empty >> np.uint64(16)) & _ROWS_012) | v_pair) != 0
    return up, right, down, left


@njit
def _after(lo: np.uint64, hi: np.uint64, action: np.int64) -> tuple[np.uint64, np.uint64, np.int64]:
    """Exact afterstate: the row tables, or the wide path when a tile passes 32768."""
    if hi == 0:
        out, gain = K.slide(lo, action)
        if gain < K.OVERFLOW:
            return out, np.uint64(0), gain
    return K.move(lo, hi, action)


@njit
def _legal4(lo: np.uint64, hi: np.uint64) -> tuple[bool, bool, bool, bool]:
    """(up, right, down, left) legal: bit tricks when ``hi == 0``, else four slides."""
    if hi == 0:
        return _legal_bits(lo)
    legal = [False, False, False, False]
    for a in range(4):
        lo2, hi2, _ = _after(lo, hi, a)
        legal[a] = lo2 != lo or hi2 != hi
    return legal[K.UP], legal[K.RIGHT], legal[K.DOWN], legal[K.LEFT]


@njit
def write_mask(lo: np.uint64, hi: np.uint64, mask: np.ndarray) -> int:
    """Kernel: fill ``mask`` (int8, 4) with the legal actions; return how many there are."""
    up, right, down, left = _legal4(lo, hi)
    mask[K.UP], mask[K.RIGHT], mask[K.DOWN], mask[K.LEFT] = up, right, down, left
    return int(up) + int(right) + int(down) + int(left)


@njit
def _write_row(
    kind: np.int64, lo: np.uint64, hi: np.uint64, planes: np.int64, obs: np.ndarray, i: np.int64
) -> None:
    """Observation of board ``(lo, hi)`` into row ``i`` of the flat ``(N, size)`` ``obs``:
    exponents and one-hot planes written in place for ``hi == 0`` boards, the rest through
    :func:`boardai.g2048.observations.write_observation`."""
    if hi == 0 and kind == O.EXPONENTS:
        for j in range(16):
            obs[i, j] = (lo >> np.uint64(4 * j)) & np.uint64(0xF)
    elif hi == 0 and kind == O.ONEHOT:
        obs[i, : 16 * planes] = 0
        top = planes - 1
        for j in range(16):
            e = np.int64((lo >> np.uint64(4 * j)) & np.uint64(0xF))
            obs[i, 16 * min(e, top) + j] = 1
    else:
        O.write_observation(kind, lo, hi, planes, obs[i])


@njit
def reset_row(
    states: np.ndarray, i: np.int64, cfg: np.ndarray, obs: np.ndarray, masks: np.ndarray
) -> None:
    """Kernel: board ``i`` of ``states`` ``(N, 3)`` gets a start board drawn from its rng;
    writes row ``i`` of ``obs`` (flat ``(N, size)``) and of ``masks`` ``(N, 4)``."""
    b, rng = K.start_board(states[i, RNG], np.int64(cfg[START_TILES]), cfg[START_P4])
    states[i, LO], states[i, HI], states[i, RNG] = b, np.uint64(0), rng
    up, right, down, left = _legal4(b, np.uint64(0))
    masks[i, K.UP], masks[i, K.RIGHT], masks[i, K.DOWN], masks[i, K.LEFT] = up, right, down, left
    _write_row(np.int64(cfg[OBS]), b, np.uint64(0), np.int64(cfg[PLANES]), obs, i)


@njit
def step_row(
    states: np.ndarray,
    i: np.int64,
    action: np.int64,
    cfg: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
) -> tuple[float, np.int64, bool, bool]:
    """Kernel: play ``action`` on board ``i``; returns (reward, score gain, moved, terminated).

    An illegal action leaves the board as it is (no spawn) and gives ``-cfg[INVALID_PENALTY]``;
    it ends the episode when ``cfg[TERMINATE_INVALID]`` is set, or when no move is legal (a
    step after the end, or a start position with no move: else ``noop`` would never end it).
    Row ``i`` of ``obs`` and ``masks`` is rewritten only when the board changed, so
    ``masks[i]`` is always the current board's. (Rows, not per-board array views, keep the
    vector env's loop free of view bookkeeping.)
    """
    lo, hi = states[i, LO], states[i, HI]
    lo2, hi2, gain = _after(lo, hi, action)
    if lo2 == lo and hi2 == hi:
        dead = (masks[i, 0] | masks[i, 1] | masks[i, 2] | masks[i, 3]) == 0
        return -cfg[INVALID_PENALTY], np.int64(0), False, dead or cfg[TERMINATE_INVALID] != 0.0
    kind = np.int64(cfg[REWARD])
    if kind == R.SCORE:
        reward = np.float64(gain)
    else:
        reward = np.float64(R.log2_reward(lo, hi, lo2, hi2, action))
    rng, bits = K.splitmix64(states[i, RNG])
    lo3 = K.spawn_wide(lo2, hi2, bits, cfg[P4])
    states[i, LO], states[i, HI], states[i, RNG] = lo3, hi2, rng
    if kind == R.SHAPED:
        reward += R.tile_bonus(lo3, hi2, cfg[BONUS512], cfg[BONUS1024], cfg[BONUS2048])
        reward -= cfg[MOVE_PENALTY]
    up, right, down, left = _legal4(lo3, hi2)
    masks[i, K.UP], masks[i, K.RIGHT], masks[i, K.DOWN], masks[i, K.LEFT] = up, right, down, left
    _write_row(np.int64(cfg[OBS]), lo3, hi2, np.int64(cfg[PLANES]), obs, i)
    return reward, gain, True, not (up or right or down or left)


@njit
def reset_board(state: np.ndarray, cfg: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
    """Kernel: :func:`reset_row` for one board: ``state`` (3,), ``obs`` flat, ``mask`` (4,)."""
    reset_row(state.reshape(1, 3), 0, cfg, obs.reshape(1, obs.size), mask.reshape(1, 4))


@njit
def step_board(
    state: np.ndarray, action: np.int64, cfg: np.ndarray, obs: np.ndarray, mask: np.ndarray
) -> tuple[float, np.int64, bool, bool]:
    """Kernel: :func:`step_row` for one board: ``state`` (3,), ``obs`` flat, ``mask`` (4,)."""
    return step_row(
        state.reshape(1, 3), 0, action, cfg, obs.reshape(1, obs.size), mask.reshape(1, 4)
    )
