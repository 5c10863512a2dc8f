"""N-tuple networks over the packed 2048 board: weight tables shared by the 8 symmetries.

The value of a board is the sum, over every pattern and each of the 8 symmetric images of the
board, of one weight: the entry of that pattern's table indexed by the pattern's cells read as
base-16 digits, the first cell the lowest digit (``sum_j exponent(cell_j) * 16**j``). So a
network of ``P`` patterns makes ``8 * P`` lookups per evaluation (:attr:`NTupleNetwork.n_lookups`).
Each (pattern, symmetry) pair has its precomputed list of cell shifts (:func:`shift_table`), so
a lookup is a few shift-and-mask steps on the packed board, then one memory access. (Reading the
8 symmetric boards once and patterns as runs of cells was tried and was slower in numba.)

Features saturate: a cell holding 32768 or more (exponent >= 15) reads as 15. The board itself
stays exact (the engine keeps 65536 and 131072); only the network cannot tell those apart from
32768. Use :func:`feature_board` to turn an exact ``(lo, hi)`` board into the feature board.

Multi-stage networks keep a separate copy of every table per stage; the stage of a board is the
number of stage thresholds it reaches (:func:`stage_of`). A threshold is a tile, or a
combination of tiles written largest first (:data:`Stage`): ``"14,14+13"`` gives stage 0 below
16384, stage 1 once a 16384 is on the board, stage 2 once 16384 and 8192 both are (as in the
multi-stage TD papers). A board reaches a threshold when its distinct tiles, largest first, are
at least the threshold's in lexicographic order: it holds all of the threshold's tiles, or is
further on (a 32768 reaches 16384+8192; 16384 with 4096 does not). For one tile that is "the
largest tile reaches it". In compiled code this is one integer comparison per threshold
between the board's tile-presence mask (bit e set when a tile 2^e is on the board,
:func:`tile_presence`) and the threshold's mask (:func:`stage_mask`).

>>> parse_stages("14,14+13")
((14,), (14, 13))
>>> [stage_mask(s) for s in parse_stages("14,14+13")] == [2**14, 2**14 + 2**13]
True

The compiled functions take the network as a tuple ``data`` (:meth:`NTupleNetwork.data`):
``(weights, shifts, lengths, offsets, stage_masks)``. :func:`evaluate` has the signature the
expectimax search expects of a leaf evaluation: ``evaluate(afterstate: uint64, data) -> float``.

>>> net = NTupleNetwork.create("4x6")
>>> net.n_lookups, net.weights.nbytes // 2**20
(32, 256)
>>> net.value(0x1234)
0.0
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.errors import UsageError
from boardai.learn.patterns import Pattern, isomorphisms, parse_patterns

_NIB = np.uint64(0xF)

#: Weight entries per cell value: exponents 0..15 (15 also stands for every larger tile).
VALUES_PER_CELL = 16


@njit
def feature_board(lo: np.uint64, hi: np.uint64) -> np.uint64:
    """The board the features read: cells of 65536 and up (``hi`` bits) saturate to 15."""
    if hi == 0:
        return lo
    for i in range(16):
        if (hi >> np.uint64(i)) & np.uint64(1):
            lo |= _NIB << np.uint64(4 * i)
    return lo


@njit
def tile_presence(board: np.uint64) -> np.int64:
    """Bit ``e`` set when the feature board holds a tile of exponent ``e >= 1`` (2^e)."""
    m = np.int64(0)
    for i in range(16):
        m |= np.int64(1) << np.int64((board >> np.uint64(4 * i)) & _NIB)
    return m & ~np.int64(1)


@njit
def stage_of(board: np.uint64, masks: np.ndarray) -> int:
    """The stage of a feature board: how many thresholds (as :func:`stage_mask` masks) it
    reaches; a board reaches a mask when its tile-presence mask is at least as large."""
    n = masks.shape[0]
    if n == 0:
        return 0
    present = tile_presence(board)
    s = 0
    for k in range(n):
        if present >= masks[k]:
            s += 1
    return s


@njit
def lookup_indices(board: np.uint64, data: Any, out: np.ndarray) -> None:
    """Write the ``8 * P`` weight indices of a feature board into ``out`` (stage included)."""
    _, shifts, lengths, offsets, masks = data
    board = np.uint64(board)
    n_pat = lengths.shape[0]
    base = 0
    if masks.shape[0] > 0:
        base = stage_of(board, masks) * offsets[n_pat]
    for p in range(n_pat):
        length = lengths[p]
        start = base + offsets[p]
        for i in range(8):
            row = 8 * p + i
            idx = np.uint64(0)
            for j in range(length):
                idx |= ((board >> shifts[row, j]) & _NIB) << np.uint64(4 * j)
            out[row] = start + np.int64(idx)


@njit
def evaluate(afterstate: np.uint64, data: Any) -> float:
    """Value of a feature board (for most boards the packed board itself): the sum of lookups."""
    weights, shifts, lengths, offsets, masks = data
    afterstate = np.uint64(afterstate)
    n_pat = lengths.shape[0]
    base = 0
    if masks.shape[0] > 0:
        base = stage_of(afterstate, masks) * offsets[n_pat]
    v = 0.0
    for p in range(n_pat):
        length = lengths[p]
        start = base + offsets[p]
        for i in range(8):
            row = 8 * p + i
            idx = np.uint64(0)
            for j in range(length):
                idx |= ((afterstate >> shifts[row, j]) & _NIB) << np.uint64(4 * j)
            v += weights[start + np.int64(idx)]
    return v


@njit
def sum_at(weights: np.ndarray, indices: np.ndarray) -> float:
    """Sum of ``weights`` at ``indices`` (the value of a board whose indices are known)."""
    v = 0.0
    for k in range(indices.shape[0]):
        v += weights[indices[k]]
    return v


@njit
def add_at(weights: np.ndarray, indices: np.ndarray, step: np.float64) -> None:
    """Add ``step`` to every looked-up entry (an entry looked up twice gets it twice)."""
    s = np.float32(step)
    for k in range(indices.shape[0]):
        weights[indices[k]] += s


@njit
def add_at_tc(
    weights: np.ndarray,
    tc_e: np.ndarray,
    tc_a: np.ndarray,
    indices: np.ndarray,
    step: np.float64,
    error: np.float64,
) -> None:
    """Temporal coherence update (Jaśkowski 2016): entry i moves by ``step * |E_i| / A_i``.

    ``E_i`` accumulates the errors that reached entry i and ``A_i`` their absolute values, so
    weights whose errors keep one sign learn at the full rate and noisy ones slow down; an
    entry never updated (``A_i == 0``) learns at the full rate.
    """
    err = np.float32(error)
    abs_err = np.float32(abs(error))
    for k in range(indices.shape[0]):
        i = indices[k]
        a = tc_a[i]
        rate = abs(tc_e[i]) / a if a > 0 else np.float32(1.0)
        weights[i] += np.float32(step * rate)
        tc_e[i] += err
        tc_a[i] += abs_err


#: A stage threshold: tile exponents, largest first (``(14,)`` is 16384, ``(14, 13)`` is 16384
#: and 8192 on the board together).
Stage = tuple[int, ...]

#: Largest exponent a threshold may name: the features cannot tell tiles above 32768 apart.
MAX_STAGE_EXPONENT = 15


def _one_stage(item: int | str | Sequence[int]) -> Stage:
    if isinstance(item, str):
        try:
            exps = [int(x) for x in item.split("+")]
        except ValueError:
            raise UsageError(
                f"stage {item!r}: expected exponents joined by '+', like 14 or 14+13"
            ) from None
    elif isinstance(item, (int, np.integer)):
        exps = [int(item)]
    else:
        exps = [int(x) for x in item]
    if not exps or any(not 1 <= e <= MAX_STAGE_EXPONENT for e in exps):
        raise UsageError(f"stage {item!r}: exponents must be in 1..{MAX_STAGE_EXPONENT}")
    if len(set(exps)) != len(exps):
        raise UsageError(f"stage {item!r} names a tile twice")
    return tuple(sorted(exps, reverse=True))


def parse_stages(spec: str | Sequence[int | str | Sequence[int]]) -> tuple[Stage, ...]:
    """Stage thresholds from ``"14,14+13"`` (commas or spaces between thresholds, ``+`` inside
    a combination) or a sequence of ints, ``"a+b"`` strings and exponent lists (the form of
    model files); they must increase (each reached only after the one before).

    Raises:
        UsageError: bad exponents, a tile named twice, or thresholds out of order.
    """
    items = spec.replace(",", " ").split() if isinstance(spec, str) else list(spec)
    stages = tuple(_one_stage(item) for item in items)
    masks = [stage_mask(s) for s in stages]
    if any(a >= b for a, b in itertools.pairwise(masks)):
        raise UsageError(
            f"stage thresholds {format_stages(stages)} must increase (e.g. 14,14+13,15)"
        )
    return stages


def stage_mask(stage: Stage) -> int:
    """The threshold's tile-presence mask: bit ``e`` for each exponent ``e``."""
    return sum(1 << e for e in stage)


def format_stages(stages: Sequence[Stage]) -> str:
    """The ``--stages`` text of thresholds (``"14,14+13"``); inverse of :func:`parse_stages`."""
    return ",".join("+".join(str(e) for e in s) for s in stages)


def stages_to_json(stages: Sequence[Stage]) -> list[int | list[int]]:
    """Thresholds as model files store them: an int for one tile, a list for a combination
    (files with single-tile stages stay readable by older boardai versions)."""
    return [s[0] if len(s) == 1 else list(s) for s in stages]


def shift_table(patterns: Sequence[Pattern]) -> tuple[np.ndarray, np.ndarray]:
    """Per (pattern, symmetry) row ``8 * p + i``, the bit shift of each cell; and the lengths.

    Row ``8 * p + i`` reads pattern ``p`` through symmetry ``i`` of
    :func:`~boardai.learn.patterns.isomorphisms`: its j-th cell is board cell ``iso[cell_j]``.
    """
    isos = isomorphisms()
    kmax = max(len(p) for p in patterns)
    shifts = np.zeros((8 * len(patterns), kmax), np.uint64)
    for p, pattern in enumerate(patterns):
        for i, iso in enumerate(isos):
            for j, cell in enumerate(pattern):
                shifts[8 * p + i, j] = 4 * iso[cell]
    return shifts, np.array([len(p) for p in patterns], np.int64)


class NTupleNetwork:
    """Patterns, stage thresholds and one flat float32 weight array.

    The weights of stage ``s``, pattern ``p`` are ``weights[s * size + offsets[p] :][:16**k]``
    where ``size`` is the entries of one stage.

    Args:
        patterns: tuples of cell indices 0..15.
        stages: increasing thresholds where a new stage starts (empty: one stage), in any form
            :func:`parse_stages` reads: ``(14,)``, ``"14,14+13"``, ``[14, [14, 13]]``.
        weights: the flat table (zeros of the right size when None).
    """

    def __init__(
        self,
        patterns: Sequence[Sequence[int]],
        stages: str | Sequence[int | str | Sequence[int]] = (),
        weights: np.ndarray | None = None,
    ) -> None:
        self.patterns: tuple[Pattern, ...] = tuple(tuple(int(c) for c in p) for p in patterns)
        if not self.patterns:
            raise UsageError("an n-tuple network needs at least one pattern")
        for p in self.patterns:
            if not p or len(set(p)) != len(p) or not all(0 <= c < 16 for c in p):
                raise UsageError(f"pattern {p} must list distinct cells 0..15")
        self.stages: tuple[Stage, ...] = parse_stages(stages)
        sizes = [VALUES_PER_CELL ** len(p) for p in self.patterns]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.shifts, self.lengths = shift_table(self.patterns)
        self.stage_masks = np.array([stage_mask(s) for s in self.stages], np.int64)
        total = self.n_stages * int(self.offsets[-1])
        if weights is None:
            weights = np.zeros(total, np.float32)
        if weights.dtype != np.float32 or weights.shape != (total,):
            raise UsageError(
                f"weights must be float32 of shape ({total},), got {weights.dtype} {weights.shape}"
            )
        self.weights = weights

    @classmethod
    def create(
        cls,
        patterns: str | Sequence[Sequence[int]],
        stages: str | Sequence[int | str | Sequence[int]] = (),
    ) -> NTupleNetwork:
        """A zero network from a pattern spec (``"4x6"``, ``"0123,4567"``) or cell tuples."""
        if isinstance(patterns, str):
            patterns = parse_patterns(patterns)
        return cls(patterns, stages)

    @property
    def n_stages(self) -> int:
        """Number of stages (1 for an ordinary network)."""
        return len(self.stages) + 1

    @property
    def n_lookups(self) -> int:
        """Weights summed per evaluation: 8 symmetries times the patterns."""
        return 8 * len(self.patterns)

    def data(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The tuple the compiled functions take (shares this network's weight array)."""
        return (self.weights, self.shifts, self.lengths, self.offsets, self.stage_masks)

    def fill(self, value: float) -> None:
        """Set every weight so that every board is worth ``value`` (optimistic start)."""
        self.weights[:] = np.float32(value / self.n_lookups)

    def value(self, board: Any) -> float:
        """The network's value of a board (a :class:`~boardai.g2048.Board` or a packed int)."""
        packed = int(board)
        lo, hi = np.uint64(packed & 0xFFFF_FFFF_FFFF_FFFF), np.uint64(packed >> 64)
        return float(evaluate(np.uint64(feature_board(lo, hi)), self.data()))

    def values(self, boards: np.ndarray) -> np.ndarray:
        """Values of many feature boards (``uint64`` array)."""
        return _evaluate_many(np.ascontiguousarray(boards, np.uint64), self.data())

    def __repr__(self) -> str:
        names = ",".join("".join(f"{c:x}" for c in p) for p in self.patterns)
        return f"NTupleNetwork({names!r}, stages={format_stages(self.stages)!r})"


@njit
def _evaluate_many(boards: np.ndarray, data: Any) -> np.ndarray:
    out = np.empty(boards.shape[0], np.float64)
    for i in range(boards.shape[0]):
        out[i] = evaluate(boards[i], data)
    return out
