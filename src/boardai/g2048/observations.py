"""Observation encodings of a 2048 board: exponents, one-hot planes, two-move lookahead.

Three encodings, all ``uint8`` so replay buffers stay small:

- ``exponents``: the 4x4 grid of exponents (0 empty, 1 = tile 2, ..., 17 = tile 131072).
- ``onehot``: ``planes`` x 4 x 4 binary planes, plane k marking the cells of exponent k (plane 0
  the empty cells). Exponents of ``planes - 1`` and more share the last plane, so seed 003's 12
  planes lump every tile of 2048 and more together; the default 16 planes are exact up to 32768.
- ``lookahead2``: seed 001's input: the one-hot planes of the 20 boards the next two player
  moves reach (no spawns), in the order ``a1, (a1, 0), (a1, 1), (a1, 2), (a1, 3)`` for
  ``a1 = 0..3``; an illegal move leaves its board unchanged. Shape ``(20, planes, 4, 4)``.

>>> from boardai.g2048 import Board
>>> b = Board.from_grid([[2, 2, 0, 0]] + [[0] * 4] * 3)
>>> observe(b, "onehot", planes=4).shape
(4, 4, 4)
>>> int(observe(b, "exponents")[0, 1])
1
"""

from __future__ import annotations

import numpy as np

from boardai._jit import njit
from boardai.g2048 import kernels as K
from boardai.g2048.rewards import log2_reward

#: Encoding names, in the order of their codes in the compiled kernels.
KINDS = ("exponents", "onehot", "lookahead2")
EXPONENTS, ONEHOT, LOOKAHEAD2 = 0, 1, 2
#: Boards in a ``lookahead2`` observation: 4 first moves, each followed by its 4 second moves.
LOOKAHEAD_BOARDS = 20

_NIB = np.uint64(0xF)


def kind_code(kind: str) -> int:
    """The kernel code of encoding ``kind`` (raises ValueError for an unknown name)."""
    if kind not in KINDS:
        raise ValueError(f"unknown observation {kind!r} (choose from {', '.join(KINDS)})")
    return KINDS.index(kind)


def observation_shape(kind: str, planes: int = 16) -> tuple[int, ...]:
    """The array shape of encoding ``kind``."""
    code = kind_code(kind)
    if not 2 <= planes <= K.MAX_EXPONENT + 1:
        raise ValueError(f"planes must be in 2..{K.MAX_EXPONENT + 1}, got {planes}")
    if code == EXPONENTS:
        return (4, 4)
    if code == ONEHOT:
        return (planes, 4, 4)
    return (LOOKAHEAD_BOARDS, planes, 4, 4)


def observation_high(kind: str) -> int:
    """The largest value an element of encoding ``kind`` takes: a board may hold tiles up
    to ``2**MAX_EXPONENT`` and one slide may merge two of them, so exponents reach
    ``MAX_EXPONENT + 1``."""
    return K.MAX_EXPONENT + 1 if kind_code(kind) == EXPONENTS else 1


@njit
def _exponent(lo: np.uint64, hi: np.uint64, i: np.int64) -> np.int64:
    e = np.int64((lo >> np.uint64(4 * i)) & _NIB)
    if hi != 0:
        e += 16 * np.int64((hi >> np.uint64(i)) & np.uint64(1))
    return e


@njit
def _write_onehot(
    lo: np.uint64, hi: np.uint64, planes: np.int64, out: np.ndarray, at: np.int64
) -> None:
    out[at : at + 16 * planes] = 0
    top = planes - 1
    for i in range(16):
        e = _exponent(lo, hi, i)
        out[at + 16 * min(e, top) + i] = 1


@njit
def write_observation(
    kind: np.int64, lo: np.uint64, hi: np.uint64, planes: np.int64, out: np.ndarray
) -> None:
    """Kernel: write encoding ``kind`` of board ``(lo, hi)`` into the flat uint8 ``out``."""
    if kind == EXPONENTS:
        for i in range(16):
            out[i] = _exponent(lo, hi, i)
    elif kind == ONEHOT:
        _write_onehot(lo, hi, planes, out, 0)
    else:
        block = 16 * planes
        at = np.int64(0)
        for a1 in range(4):
            lo1, hi1, _ = K.move(lo, hi, a1)
            _write_onehot(lo1, hi1, planes, out, at)
            at += block
            for a2 in range(4):
                lo2, hi2, _ = K.move(lo1, hi1, a2)
                _write_onehot(lo2, hi2, planes, out, at)
                at += block


def observe(board: object, kind: str = "onehot", planes: int = 16) -> np.ndarray:
    """Encoding ``kind`` of ``board`` (a :class:`~boardai.g2048.Board`) as a new uint8 array."""
    shape = observation_shape(kind, planes)
    out = np.zeros(int(np.prod(shape)), np.uint8)
    write_observation(kind_code(kind), np.uint64(board.lo), np.uint64(board.hi), planes, out)  # type: ignore[attr-defined]
    return out.reshape(shape)


@njit
def _encode_all(kind: np.int64, boards: np.ndarray, planes: np.int64, out: np.ndarray) -> None:
    for i in range(boards.shape[0]):
        write_observation(kind, boards[i, 0], boards[i, 1], planes, out[i])


def encode_boards(boards: np.ndarray, kind: str = "onehot", planes: int = 16) -> np.ndarray:
    """Encoding ``kind`` of many packed boards: ``boards`` is ``(n, 2)`` uint64 ``(lo, hi)``
    (as :meth:`~boardai.g2048.vector_env.Game2048VectorEnv.board_states` gives); returns
    ``(n, *shape)`` uint8."""
    shape = observation_shape(kind, planes)
    boards = np.ascontiguousarray(boards, dtype=np.uint64).reshape(-1, 2)
    out = np.empty((len(boards), int(np.prod(shape))), np.uint8)
    _encode_all(kind_code(kind), boards, planes, out)
    return out.reshape(len(boards), *shape)


@njit
def _afterstates_all(
    boards: np.ndarray, planes: np.int64, log2: bool, out: np.ndarray, rewards: np.ndarray
) -> None:
    for i in range(boards.shape[0]):
        lo, hi = boards[i, 0], boards[i, 1]
        for a in range(4):
            lo2, hi2, gain = K.move(lo, hi, a)
            _write_onehot(lo2, hi2, planes, out[i, a], 0)
            rewards[i, a] = log2_reward(lo, hi, lo2, hi2, a) if log2 else gain


def encode_afterstates(
    boards: np.ndarray, planes: int = 16, reward: str = "log2"
) -> tuple[np.ndarray, np.ndarray]:
    """The one-hot planes of the four afterstates of each packed board, ``(n, 4, planes, 4,
    4)`` uint8 (an illegal move's afterstate is the board itself), and each move's reward
    ``(n, 4)`` float32 (``"score"`` or ``"log2"``)."""
    if reward not in ("score", "log2"):
        raise ValueError(f"afterstate rewards are score or log2, not {reward!r}")
    boards = np.ascontiguousarray(boards, dtype=np.uint64).reshape(-1, 2)
    n = len(boards)
    out = np.empty((n, 4, 16 * planes), np.uint8)
    rewards = np.empty((n, 4), np.float32)
    _afterstates_all(boards, planes, reward == "log2", out, rewards)
    return out.reshape(n, 4, planes, 4, 4), rewards
