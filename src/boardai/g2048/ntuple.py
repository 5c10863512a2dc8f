"""N-tuple networks over the packed 2048 board: weight tables shared by the 8 symmetries.

The value of a board is the sum, over every pattern and each of the 8 symmetric images of the
board, of one weight: the entry of that pattern's table indexed by the pattern's cells read as
base-16 digits, the first cell the lowest digit (``sum_j exponent(cell_j) * 16**j``). So a
network of ``P`` patterns makes ``8 * P`` lookups per evaluation (:attr:`NTupleNetwork.n_lookups`).
An evaluation first makes the 8 symmetric images of the board with a few bit operations
(:func:`images`: a transpose, two mirrors, four flips); a pattern then reads the same cells of
every image, as runs of consecutive cells (:func:`run_table`: ``012345`` is one run, ``012456``
two), so a lookup is one or two shift-and-mask steps and one memory access. Networks of large
tables read their indices by code compiled for their own patterns, with every shift, mask
and offset a constant (:mod:`boardai.g2048.ntuple_index`). The small kernels are inlined into
their callers (``inline="always"``): training runs 15-20% faster that way.

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
``(weights, runs, n_runs, offsets, stage_masks, layout)``, where ``layout`` is the
:class:`~boardai.g2048.ntuple_index.IndexLayout` that picks the index code. :func:`evaluate`
has the signature the expectimax search expects of a leaf evaluation:
``evaluate(afterstate: uint64, data) -> float``.

>>> net = NTupleNetwork.create("4x6")
>>> net.n_lookups, net.weights.nbytes // 2**20
(32, 256)
>>> net.value(0x1234)
0.0
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from boardai._jit import njit
from boardai.errors import UsageError
from boardai.g2048.kernels import capped, transpose
from boardai.g2048.ntuple_index import SPECIALISE_MIN_CELLS, IndexLayout, sum_weights, write_indices
from boardai.g2048.patterns import Pattern, parse_patterns, pattern_names
from boardai.intrinsics import borrow
from boardai.learn.ntuple import table_offsets

if TYPE_CHECKING:
    from boardai.g2048.board import Board

_NIB = np.uint64(0xF)

#: How a pattern's cells make a table index, as model files say it: base-16 digits, the
#: first cell the lowest.
INDEX_ORDER = "first cell lowest"

#: Weight entries per cell value: exponents 0..15 (15 also stands for every larger tile).
VALUES_PER_CELL = 16


@njit
def borrow_data(data: Any) -> Any:
    """``data`` with every array :func:`borrow`-ed (for the hot loops that take ``data``)."""
    weights, runs, n_runs, offsets, masks, layout = data
    return (borrow(weights), borrow(runs), borrow(n_runs), borrow(offsets), borrow(masks), layout)


@njit(inline="always")
def feature_board(lo: np.uint64, hi: np.uint64) -> np.uint64:
    """The board the features read: cells of 65536 and up (``hi`` bits) saturate to 15
    (inlined: the usual board, with no such cell, costs no call)."""
    return lo if hi == 0 else capped(lo, hi)


@njit(inline="always")
def tile_presence(board: np.uint64) -> np.int64:
    """Bit ``e`` set when the feature board holds a tile of exponent ``e >= 1`` (2^e)."""
    m = np.int64(0)
    for i in range(16):
        m |= np.int64(1) << np.int64((board >> np.uint64(4 * i)) & _NIB)
    return m & ~np.int64(1)


@njit(inline="always")
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


_ROW_LO_NIBS = np.uint64(0x000F_000F_000F_000F)


@njit(inline="always")
def _mirror(b: np.uint64) -> np.uint64:
    """Left-right mirror: cell (r, c) goes to (r, 3 - c)."""
    return (
        ((b & _ROW_LO_NIBS) << np.uint64(12))
        | ((b & (_ROW_LO_NIBS << np.uint64(4))) << np.uint64(4))
        | ((b >> np.uint64(4)) & (_ROW_LO_NIBS << np.uint64(4)))
        | ((b >> np.uint64(12)) & _ROW_LO_NIBS)
    )


@njit(inline="always")
def _flip(b: np.uint64) -> np.uint64:
    """Up-down flip: cell (r, c) goes to (3 - r, c)."""
    return (
        (b << np.uint64(48))
        | ((b & np.uint64(0xFFFF_0000)) << np.uint64(16))
        | ((b >> np.uint64(16)) & np.uint64(0xFFFF_0000))
        | (b >> np.uint64(48))
    )


@njit(inline="always")
def images(b: np.uint64) -> tuple[np.uint64, ...]:
    """The 8 symmetric images of a board: image ``i`` holds in cell ``c`` the board's cell
    :func:`~boardai.g2048.patterns.isomorphisms` ``[i][c]``, so a pattern read on image ``i`` is
    that pattern seen through
    symmetry ``i``."""
    b = np.uint64(b)
    t = transpose(b)
    m = _mirror(b)
    tm = _mirror(t)
    return (b, _flip(t), _flip(m), tm, m, _flip(tm), _flip(b), t)


@njit(inline="always")
def _stage_base(board: np.uint64, data: Any) -> np.int64:
    """Where the weights of the board's stage start: stage times the entries of one stage."""
    masks = data[4]
    if masks.shape[0] == 0:
        return np.int64(0)
    return np.int64(stage_of(board, masks) * data[3][data[2].shape[0]])


@njit(inline="always")
def lookup_indices_at(board: np.uint64, stage_board: np.uint64, data: Any, out: np.ndarray) -> None:
    """Write the ``8 * P`` weight indices of a feature board into ``out``, in the weights of
    the stage of ``stage_board``: ``out[8 * p + i]`` is pattern ``p`` seen through symmetry
    ``i``. Each weight starts loading as its index is written
    (:func:`~boardai.intrinsics.prefetch`), for the sum that reads them next
    (:func:`~boardai.g2048.ntuple_index.write_indices`). A downgraded board
    (:mod:`boardai.g2048.downgrade`) reads its features from the downgraded board and its
    stage from the board as it is."""
    write_indices(images(np.uint64(board)), _stage_base(np.uint64(stage_board), data), data, out)


@njit(inline="always")
def evaluate_at(afterstate: np.uint64, stage_board: np.uint64, data: Any) -> float:
    """Value of a feature board in the weights of the stage of ``stage_board`` (as
    :func:`lookup_indices_at`): the sum of lookups
    (:func:`~boardai.g2048.ntuple_index.sum_weights`)."""
    base = _stage_base(np.uint64(stage_board), data)
    return sum_weights(images(np.uint64(afterstate)), base, data)


@njit(inline="always")
def evaluate(afterstate: np.uint64, data: Any) -> float:
    """Value of a feature board (for most boards the packed board itself) in its own stage."""
    return evaluate_at(afterstate, afterstate, data)


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


def run_table(patterns: Sequence[Pattern]) -> tuple[np.ndarray, np.ndarray]:
    """Each pattern as runs of consecutive cells, from its last cells (highest digits) to its
    first, ``runs[p, r] = (source shift, mask, width)``; and the number of runs of each
    pattern. The index of a pattern on an image is built run by run as
    ``index = (index << width) | ((image >> source) & mask)``.

    >>> runs, n = run_table([(0, 1, 2, 4, 5, 6)])  # cells 456 are digits 3..5, cells 012 0..2
    >>> n.tolist(), runs[0, :2].tolist()
    ([2], [[16, 4095, 12], [0, 4095, 12]])
    """
    split = []
    for pattern in patterns:
        pattern_runs: list[list[int]] = []  # [first cell, length]
        for cell in pattern:
            if pattern_runs and cell == sum(pattern_runs[-1]):
                pattern_runs[-1][1] += 1
            else:
                pattern_runs.append([cell, 1])
        split.append(pattern_runs[::-1])
    runs = np.zeros((len(patterns), max(len(r) for r in split), 3), np.uint64)
    for p, pattern_runs in enumerate(split):
        for r, (cell, length) in enumerate(pattern_runs):
            runs[p, r] = (4 * cell, (1 << (4 * length)) - 1, 4 * length)
    return runs, np.array([len(r) for r in split], np.int64)


class NTupleNetwork:
    """Patterns, stage thresholds and one flat float32 weight array.

    The weights of stage ``s``, pattern ``p`` are ``weights[s * size + offsets[p] :][:16**k]``
    where ``size`` is the entries of one stage.

    Args:
        patterns: tuples of cell indices 0..15.
        stages: increasing thresholds where a new stage starts (empty: one stage), in any form
            :func:`parse_stages` reads: ``(14,)``, ``"14,14+13"``, ``[14, [14, 13]]``.
        weights: the flat table (zeros of the right size when None).
        specialise: read indices by code compiled for these patterns
            (:mod:`boardai.g2048.ntuple_index`); left out, when a pattern has at least
            :data:`~boardai.g2048.ntuple_index.SPECIALISE_MIN_CELLS` cells. The values are
            the same either way; only the speed and the first compilation differ.
    """

    def __init__(
        self,
        patterns: Sequence[Sequence[int]],
        stages: str | Sequence[int | str | Sequence[int]] = (),
        weights: np.ndarray | None = None,
        specialise: bool | None = None,
    ) -> None:
        self.patterns: tuple[Pattern, ...] = tuple(tuple(int(c) for c in p) for p in patterns)
        if not self.patterns:
            raise UsageError("an n-tuple network needs at least one pattern")
        for p in self.patterns:
            if not p or len(set(p)) != len(p) or not all(0 <= c < 16 for c in p):
                raise UsageError(f"pattern {p} must list distinct cells 0..15")
        self.stages: tuple[Stage, ...] = parse_stages(stages)
        self.offsets = table_offsets(self.patterns, VALUES_PER_CELL)
        self.runs, self.n_runs = run_table(self.patterns)
        self.stage_masks = np.array([stage_mask(s) for s in self.stages], np.int64)
        if specialise is None:
            specialise = max(len(p) for p in self.patterns) >= SPECIALISE_MIN_CELLS
        self.index_layout = (
            IndexLayout.of(self.runs, self.n_runs, self.offsets, self.n_stages > 1)
            if specialise
            else IndexLayout(None)
        )
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

    #: The game, as model files name it (:mod:`boardai.learn.model_file`).
    GAME: ClassVar[str] = "2048"

    def layout(self) -> dict[str, Any]:
        """The metadata that describes the tables in a model file: patterns as hex strings,
        the index order, stage thresholds (see :func:`stages_to_json`)."""
        return {
            "patterns": pattern_names(self.patterns),
            "index_order": INDEX_ORDER,
            "stages": stages_to_json(self.stages),
        }

    @classmethod
    def _from_meta(cls, layout: Mapping[str, Any]) -> tuple[list[Pattern], Any]:
        if layout.get("index_order", INDEX_ORDER) != INDEX_ORDER:
            raise ValueError(f"unknown weight index order {layout['index_order']!r}")
        try:
            patterns = [tuple(int(ch, 16) for ch in p) for p in layout["patterns"]]
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"bad patterns {e}") from None
        return patterns, layout.get("stages", [])

    @classmethod
    def weights_size(cls, layout: Mapping[str, Any]) -> int:
        """The number of weights of the network a model file's ``layout`` describes."""
        patterns, stages = cls._from_meta(layout)
        for p in patterns:
            if not p or len(set(p)) != len(p) or not all(0 <= c < 16 for c in p):
                raise UsageError(f"pattern {p} must list distinct cells 0..15")
        n_stages = len(parse_stages(stages)) + 1
        return n_stages * int(table_offsets(patterns, VALUES_PER_CELL)[-1])

    @classmethod
    def from_layout(cls, layout: Mapping[str, Any], weights: np.ndarray) -> NTupleNetwork:
        """The network a model file's ``layout`` describes, holding ``weights``."""
        patterns, stages = cls._from_meta(layout)
        return cls(patterns, stages, weights)

    @property
    def n_stages(self) -> int:
        """Number of stages (1 for an ordinary network)."""
        return len(self.stages) + 1

    @property
    def n_lookups(self) -> int:
        """Weights summed per evaluation: 8 symmetries times the patterns."""
        return 8 * len(self.patterns)

    def data(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, IndexLayout]:
        """The tuple the compiled functions take (shares this network's weight array)."""
        return (
            self.weights,
            self.runs,
            self.n_runs,
            self.offsets,
            self.stage_masks,
            self.index_layout,
        )

    def fill(self, value: float) -> None:
        """Set every weight so that every board is worth ``value`` (optimistic start)."""
        self.weights[:] = np.float32(value / self.n_lookups)

    def value(self, board: Board | int) -> float:
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
