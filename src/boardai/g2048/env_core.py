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


@njit
def _spawn(lo: np.uint64, hi: np.uint64, bits: np.uint64, p4: float) -> np.uint64:
    if hi == 0:
        return K.spawn(lo, bits, p4)
    empties = K.empty_mask(lo, hi)
    n = 0
    for i in range(16):
        n += (empties >> i) & 1
    if n == 0:
        return lo
    k = np.int64(((bits >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
    exponent = 2 if np.float64(bits & np.uint64(0xFFFF_FFFF)) < p4 * 4294967296.0 else 1
    for i in range(16):
        if (empties >> i) & 1:
            if k == 0:
                return K.spawn_cell(lo, hi, i, exponent)
            k -= 1
    return lo


@njit
def _after(lo: np.uint64, hi: np.uint64, action: np.int64) -> tuple[np.uint64, np.uint64, np.int64]:
    """Exact afterstate: the row tables, or the wide path when a tile passes 32768."""
    if hi == 0:
        out, gain = K.slide(lo, action)
        if gain < K.OVERFLOW:
            return out, np.uint64(0), gain
    return K.move(lo, hi, action)


@njit
def write_mask(lo: np.uint64, hi: np.uint64, mask: np.ndarray) -> int:
    """Kernel: fill ``mask`` (int8, 4) with the legal actions; return how many there are."""
    n = 0
    for a in range(4):
        lo2, hi2, _ = _after(lo, hi, a)
        legal = lo2 != lo or hi2 != hi
        mask[a] = 1 if legal else 0
        n += 1 if legal else 0
    return n


@njit
def reset_board(state: np.ndarray, cfg: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
    """Kernel: a start board drawn from ``state[RNG]``; writes ``obs`` and ``mask``."""
    b, rng = K.start_board(state[RNG], np.int64(cfg[START_TILES]), cfg[START_P4])
    state[LO], state[HI], state[RNG] = b, np.uint64(0), rng
    write_mask(b, np.uint64(0), mask)
    O.write_observation(np.int64(cfg[OBS]), b, np.uint64(0), np.int64(cfg[PLANES]), obs)


@njit
def step_board(
    state: np.ndarray, action: np.int64, cfg: np.ndarray, obs: np.ndarray, mask: np.ndarray
) -> tuple[float, np.int64, bool, bool]:
    """Kernel: play ``action``; returns (reward, score gain, moved, terminated).

    An illegal action leaves the board as it is (no spawn) and gives ``-cfg[INVALID_PENALTY]``;
    it ends the episode when ``cfg[TERMINATE_INVALID]`` is set. ``obs`` and ``mask`` are
    rewritten only when the board changed.
    """
    lo, hi = state[LO], state[HI]
    lo2, hi2, gain = _after(lo, hi, action)
    if lo2 == lo and hi2 == hi:
        return -cfg[INVALID_PENALTY], np.int64(0), False, cfg[TERMINATE_INVALID] != 0.0
    kind = np.int64(cfg[REWARD])
    if kind == R.SCORE:
        reward = np.float64(gain)
    else:
        reward = np.float64(R.log2_reward(lo, hi, lo2, hi2, action))
    rng, bits = K.splitmix64(state[RNG])
    lo3 = _spawn(lo2, hi2, bits, cfg[P4])
    state[LO], state[HI], state[RNG] = lo3, hi2, rng
    if kind == R.SHAPED:
        reward += R.tile_bonus(lo3, hi2, cfg[BONUS512], cfg[BONUS1024], cfg[BONUS2048])
        reward -= cfg[MOVE_PENALTY]
    n_legal = write_mask(lo3, hi2, mask)
    O.write_observation(np.int64(cfg[OBS]), lo3, hi2, np.int64(cfg[PLANES]), obs)
    return reward, gain, True, n_legal == 0
