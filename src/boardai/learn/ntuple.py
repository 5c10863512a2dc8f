"""The game-free core of n-tuple networks: patterns as cell lists, their symmetric images,
the layout of the weight tables, and the compiled lookup and update kernels.

A game supplies its encoding: which cells a board has, the symmetries of the board as cell
maps, how many values a cell takes, and how a board turns into the table indices of its
patterns (2048: :mod:`boardai.g2048.ntuple`; Othello: :mod:`boardai.othello.ntuple`). What
follows from those is shared:

- a pattern is a tuple of cells; under a symmetry ``maps[i]`` (cell ``c`` goes to
  ``maps[i][c]``) it reads the cells ``maps[i][pattern]`` (:func:`pattern_images`);
- every pattern has one table of ``values_per_cell ** len(pattern)`` float32 entries, all
  tables one after the other in one flat array (:func:`table_offsets`), and a network with
  stages keeps one such block per stage;
- the value of a board is the sum of the entries its indices look up (:func:`sum_at`); a TD
  step adds to every looked-up entry (:func:`add_at`), or with temporal coherence a step
  scaled by each entry's own rate (:func:`add_at_tc`).

>>> pattern_images((0, 1), ((0, 1, 2, 3), (1, 0, 3, 2), (0, 1, 2, 3)))  # the third repeats
[(0, 1), (1, 0)]
>>> table_offsets([(0, 1), (2, 3, 4)], 3).tolist()
[0, 9, 36]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boardai._jit import njit

#: A pattern: the cells it reads, the first cell first.
Pattern = tuple[int, ...]


def pattern_images(pattern: Sequence[int], maps: Sequence[Sequence[int]]) -> list[Pattern]:
    """The distinct images of ``pattern`` under the symmetries ``maps`` (in their order).

    Images are ordered (the k-th cell of an image reads the k-th digit of the index), so a
    pattern that is its own mirror image still gets both readings, which keeps a network's
    value exactly symmetric; only images equal cell for cell are dropped.
    """
    return list(dict.fromkeys(tuple(int(m[c]) for c in pattern) for m in maps))


def table_offsets(patterns: Sequence[Sequence[int]], values_per_cell: int) -> np.ndarray:
    """Where each pattern's table starts in the flat weights, and (last) the size of them
    all: ``offsets[p + 1] - offsets[p] == values_per_cell ** len(patterns[p])``."""
    sizes = [values_per_cell ** len(p) for p in patterns]
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


#: Bytes between the entries :func:`map_pages` touches: the smallest page the OS maps.
PAGE_BYTES = 4096


def map_pages(a: np.ndarray) -> np.ndarray:
    """Have the OS map every page of the contiguous array ``a`` now; its values stay.

    A fresh table from ``np.zeros`` is not in memory yet: the OS maps (and zeroes) each page,
    4 KiB or a 2 MiB huge page, the first time it is written, which then happens inside
    the training loop, at times with the kernel compacting memory for a huge page (0.03 s
    to 0.9 s for a 256 MiB table here, one run to the next), and with threads, one fault at
    a time. TDL2048+ maps its tables when it starts; training here does the same
    (:meth:`~boardai.g2048.train.trainer.Trainer.train`). Costs a few milliseconds for a
    table that is mapped already.
    """
    flat = a.reshape(-1)
    touched = flat[:: max(1, PAGE_BYTES // a.itemsize)]
    touched[...] = touched.copy()  # a copy: numpy skips assigning a view to itself
    return a


@njit(inline="always")
def sum_at(weights: np.ndarray, indices: np.ndarray) -> float:
    """Sum of ``weights`` at ``indices`` (the value of a board whose indices are known)."""
    v = 0.0
    for k in range(indices.shape[0]):
        v += weights[np.uint64(indices[k])]
    return v


@njit(inline="always")
def sum_at_pair(weights: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """:func:`sum_at` of two boards with as many indices, side by side: each sum adds in its
    own order (the same value bit for bit), and the two chains of additions overlap."""
    va = 0.0
    vb = 0.0
    for k in range(a.shape[0]):
        va += weights[np.uint64(a[k])]
        vb += weights[np.uint64(b[k])]
    return va, vb


@njit(inline="always")
def add_at(weights: np.ndarray, indices: np.ndarray, step: np.float64) -> None:
    """Add ``step`` to every looked-up entry (an entry looked up twice gets it twice)."""
    s = np.float32(step)
    for k in range(indices.shape[0]):
        weights[np.uint64(indices[k])] += s


@njit(inline="always")
def add_at_tc(
    weights: np.ndarray,
    tc: np.ndarray,
    indices: np.ndarray,
    step: np.float64,
    error: np.float64,
) -> None:
    """Temporal coherence update (Beal and Smith 1999; Jaśkowski 2016 for 2048): entry i
    moves by ``step * |E_i| / A_i``.

    ``tc[i] = (E_i, A_i)`` (:func:`tc_state`): ``E_i`` accumulates the errors that reached
    entry i and ``A_i`` their absolute values, so weights whose errors keep one sign learn at
    the full rate and noisy ones slow down; an entry never updated (``A_i == 0``) learns at
    the full rate. The two sit side by side, so an update reads one cache line of them, not
    two (TC training on a 5x6 network: docs/journal/benchmarks-journal.md, "temporal coherence a
    quarter faster").
    """
    err = np.float32(error)
    abs_err = np.float32(abs(error))
    for k in range(indices.shape[0]):
        i = np.uint64(indices[k])
        a = tc[i, 1]
        rate = abs(tc[i, 0]) / a if a > 0 else np.float32(1.0)
        weights[i] += np.float32(step * rate)
        tc[i, 0] += err
        tc[i, 1] += abs_err


def tc_state(size: int, saved: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """The temporal coherence state of ``size`` weights for :func:`add_at_tc`: float32
    ``(size, 2)``, the ``E`` and ``A`` of each weight side by side; from a file's ``tc_e`` and
    ``tc_a`` arrays when ``saved`` has them (:func:`tc_arrays` writes them), or from a compact
    file's two bytes a weight (:func:`tc_pack`), else zero.

    Raises:
        ValueError: the saved arrays are not ``size`` long.
    """
    if saved is not None and "tc_log_a" in saved:
        return tc_unpack(saved, size)
    tc = np.zeros((size, 2), np.float32)
    if saved is not None and "tc_e" in saved:
        e, a = saved["tc_e"], saved.get("tc_a")
        if a is None or e.shape != (size,) or a.shape != (size,):
            raise ValueError("temporal coherence arrays must be shaped like the weights")
        tc[:, 0] = e
        tc[:, 1] = a
    return tc


def tc_arrays(tc: np.ndarray) -> dict[str, np.ndarray]:
    """The state of :func:`tc_state` as a file keeps it: ``tc_e`` and ``tc_a``, one array
    each, shaped like the weights (files from before the two sat side by side read the
    same)."""
    return {"tc_e": np.ascontiguousarray(tc[:, 0]), "tc_a": np.ascontiguousarray(tc[:, 1])}


#: Steps per octave of a compact TC state's ``A`` (a quarter octave: within 9% of the value).
TC_LOG_STEPS = 4
#: The code of ``log2(A) == 0`` in a compact TC state (codes 1..255 cover 2^-15.75 .. 2^47.75).
TC_LOG_ZERO = 64
#: Levels of a compact TC state's ``E / A`` on each side of 0.
TC_RATIO_LEVELS = 127


def tc_pack(tc: np.ndarray) -> dict[str, np.ndarray]:
    """The TC state of :func:`tc_state` in two bytes a weight, for a compact training file:
    ``tc_log_a`` (uint8: 0 for a weight never updated, else ``log2(A)`` in quarter octaves)
    and ``tc_ratio`` (int8: ``E / A`` in 127ths). What TC needs to go on learning as it was is
    each weight's rate ``|E| / A`` and how fast the rate still moves, which ``A`` (the errors
    seen so far) sets; both survive, to within a 127th of a rate and 9% of ``A``, where the
    float32 pair takes eight bytes. :func:`tc_unpack` reads them back.
    """
    e, a = tc[:, 0], tc[:, 1]
    log_a = np.zeros(a.shape, np.uint8)
    ratio = np.zeros(a.shape, np.int8)
    seen = a > 0
    steps = np.rint(np.log2(a[seen]) * TC_LOG_STEPS) + TC_LOG_ZERO
    log_a[seen] = np.clip(steps, 1, 255).astype(np.uint8)
    ratio[seen] = np.rint(np.clip(e[seen] / a[seen], -1, 1) * TC_RATIO_LEVELS).astype(np.int8)
    return {"tc_log_a": log_a, "tc_ratio": ratio}


def tc_unpack(packed: dict[str, np.ndarray], size: int) -> np.ndarray:
    """The TC state (:func:`tc_state`) that :func:`tc_pack` wrote, for ``size`` weights.

    Raises:
        ValueError: the arrays are not ``size`` long.
    """
    log_a, ratio = packed["tc_log_a"], packed["tc_ratio"]
    if log_a.shape != (size,) or ratio.shape != (size,):
        raise ValueError("temporal coherence arrays must be shaped like the weights")
    tc = np.zeros((size, 2), np.float32)
    seen = log_a > 0
    a = np.exp2((log_a[seen].astype(np.float32) - TC_LOG_ZERO) / TC_LOG_STEPS)
    tc[seen, 1] = a
    tc[seen, 0] = ratio[seen].astype(np.float32) / TC_RATIO_LEVELS * a
    return tc
