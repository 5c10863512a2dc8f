"""N-tuple networks for Othello: weight tables over small sets of squares, shared by the 8
symmetries of the board, valued from the mover's point of view.

A tuple is a list of squares. Each of its 8 symmetric images reads its squares as base-3
digits (0 empty, 1 the mover's disc, 2 the opponent's; first square most significant) and
indexes the tuple's table; the value of a position is ``tanh`` of the sum of those weights
(Lucas 2008; Jaśkowski, Szubert et al. for the Othello League). Images equal square for
square are kept once.

A network's output kind (:data:`OUTPUTS`, kept in its model file's layout) says what the sum
means: ``tanh`` (TD self-play, the default and every older file's), a value in (-1, 1) from
``tanh`` of the sum; ``linear`` (fitted by regression, :mod:`boardai.othello.train.fit`), the
sum itself is the predicted final disc difference for the mover, clipped to
±:data:`DISC_CLIP` where it is used as a value.

A network may also have counts (:data:`FEATURES`: mobility and potential mobility, as in
Buro's Logistello, and the empty squares): each a table per stage indexed by a count of the
position, such as the mover's legal moves, whose weight joins the sum like an image's. Their
rows in ``squares`` hold a code instead of squares (:func:`feature_index`), after every
image, so every compiled function that takes the network reads them.

A network may have stages (Buro's Logistello): separate tables for each phase of the game,
the phase being the number of discs on the board (4..64) cut into equal bands
(:func:`stage_of`). One stage is the classic network.

The compiled functions take the network as ``(squares, offsets, weights)``: ``squares``
int64[n_images, max_len] padded with -1 (a count's row: its code, see
:func:`feature_index`), ``offsets`` int64[n_stages, n_images] (start of the
image's table for each stage in the flat ``weights`` float32 array).

>>> net = NTupleNetwork.create("corner3x3,edge2x")
>>> net.n_images, net.weights.size
(16, 78732)
>>> NTupleNetwork.create("corner3x3,edge2x", stages=3).weights.size
236196
>>> net = NTupleNetwork.create("corner3x3,edge2x", features="mobility")
>>> net.n_images, net.weights.size, net.features
(18, 78862, ['mobility'])
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from boardai._jit import njit
from boardai.errors import UsageError
from boardai.learn.ntuple import add_at, add_at_tc, pattern_images, table_offsets
from boardai.othello.kernels import (
    NOT_COL_A,
    NOT_COL_H,
    PASS,
    final_score,
    legal_moves,
    lowest_square,
    play_bit,
    popcount,
)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def _sq(text: str) -> int:
    return 8 * (int(text[1]) - 1) + "abcdefgh".index(text[0])


def _squares(text: str) -> tuple[int, ...]:
    return tuple(_sq(w) for w in text.split())


#: Named tuples (squares as text). The 'standard' set covers corners, edges, diagonals and
#: lines like the hand-made patterns of Logistello, in sizes that learn fast.
TUPLES: dict[str, tuple[int, ...]] = {
    "corner3x3": _squares("a1 b1 c1 a2 b2 c2 a3 b3 c3"),
    "edge2x": _squares("a1 b1 c1 d1 e1 f1 g1 h1 b2 g2"),
    "corner2x5": _squares("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2"),
    "line2": _squares("a2 b2 c2 d2 e2 f2 g2 h2"),
    "line3": _squares("a3 b3 c3 d3 e3 f3 g3 h3"),
    "line4": _squares("a4 b4 c4 d4 e4 f4 g4 h4"),
    "diag8": _squares("a1 b2 c3 d4 e5 f6 g7 h8"),
    "diag7": _squares("b1 c2 d3 e4 f5 g6 h7"),
    "diag6": _squares("c1 d2 e3 f4 g5 h6"),
    "diag5": _squares("d1 e2 f3 g4 h5"),
    "diag4": _squares("e1 f2 g3 h4"),
}
TUPLE_SETS: dict[str, str] = {
    "standard": "corner3x3,edge2x,corner2x5,line2,line3,line4,diag8,diag7,diag6,diag5,diag4",
    "small": "corner3x3,edge2x,line2,diag8",
}


def _transforms(sq: int) -> list[int]:
    r, c = divmod(sq, 8)
    images = []
    for rr, cc in ((r, c), (c, r)):  # identity and the main-diagonal transpose
        for fr in (False, True):
            for fc in (False, True):
                images.append(8 * (7 - rr if fr else rr) + (7 - cc if fc else cc))
    return images


#: The 8 symmetries of the board as square maps: square ``s`` goes to ``SYMMETRIES[k][s]``.
SYMMETRIES: tuple[tuple[int, ...], ...] = tuple(
    tuple(_transforms(sq)[k] for sq in range(64)) for k in range(8)
)


def symmetric_images(squares: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct images of a tuple under the 8 symmetries of the board (see
    :func:`boardai.learn.ntuple.pattern_images`: ordered, only repeats dropped)."""
    return pattern_images(squares, SYMMETRIES)


#: Systematic shapes (Jaśkowski 2014, "Systematic n-tuple networks for Othello position
#: evaluation"): every placement of a small rectangle or straight line, one tuple per class of
#: placements equal under the board's symmetries. (row step, column step) per line shape.
_RECTS = {"2x2": (2, 2), "2x3": (2, 3), "3x3": (3, 3)}
_LINES = {"h": (0, 1), "v": (1, 0), "d": (1, 1), "u": (1, -1)}


def _name(sq: int) -> str:
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def _canonical(squares: tuple[int, ...]) -> tuple[int, ...]:
    return min(tuple(sorted(t[k] for t in map(_transforms, squares))) for k in range(8))


def _systematic(placements: list[tuple[str, tuple[int, ...]]]) -> list[str]:
    """Register one tuple per symmetry class of ``placements``; their names in scan order."""
    seen: set[tuple[int, ...]] = set()
    names = []
    for name, squares in placements:
        key = _canonical(squares)
        if key not in seen:
            seen.add(key)
            TUPLES[name] = squares
            names.append(name)
    return names


def _rect_placements(h: int, w: int) -> list[tuple[str, tuple[int, ...]]]:
    return [
        (
            f"r{h}x{w}_{_name(8 * r + c)}",
            tuple(8 * (r + i) + c + j for i in range(h) for j in range(w)),
        )
        for r in range(9 - h)
        for c in range(9 - w)
    ]


def _line_placements(n: int) -> list[tuple[str, tuple[int, ...]]]:
    out = []
    for d, (dr, dc) in _LINES.items():
        for r in range(8):
            for c in range(8):
                cells = [(r + k * dr, c + k * dc) for k in range(n)]
                if all(0 <= rr < 8 and 0 <= cc < 8 for rr, cc in cells):
                    out.append(
                        (f"{d}{n}_{_name(8 * r + c)}", tuple(8 * rr + cc for rr, cc in cells))
                    )
    return out


for _shape, (_h, _w) in _RECTS.items():
    TUPLE_SETS[f"all{_shape}"] = ",".join(_systematic(_rect_placements(_h, _w)))
for _n in (2, 3, 4):
    TUPLE_SETS[f"all{_n}"] = ",".join(_systematic(_line_placements(_n)))


def parse_tuples(text: str) -> list[str]:
    """Tuple names from ``"standard"``, ``"corner3x3,edge2x"`` or ``"all2x3,all4"`` (sets and
    tuples may be mixed; a tuple named twice is kept once)."""
    items = [n.strip() for n in text.split(",") if n.strip()]
    names = list(dict.fromkeys(n for i in items for n in TUPLE_SETS.get(i, i).split(",")))
    for n in names:
        if n not in TUPLES:
            named = ", ".join(t for t in TUPLES if "_" not in t)  # the systematic ones: too many
            raise UsageError(
                f"unknown n-tuple {n!r} (tuples: {named}, or one of a set's, such as r2x3_b2 or"
                f" h4_a1; sets: {', '.join(TUPLE_SETS)})"
            )
    if not names:
        raise UsageError("no n-tuples given")
    return names


#: Weight entries per square: empty, the mover's disc, the opponent's.
VALUES_PER_SQUARE = 3

#: Most stages a network may have (a stage needs a band of at least 2 disc counts).
MAX_STAGES = 30

#: Output kinds: what the sum of a network's weights means (see the module docstring).
OUTPUTS = ("tanh", "linear")

#: A linear network's values are clipped to ± this many discs (a final disc difference lies
#: within it).
DISC_CLIP = 64.0

#: A linear network's weights scaled by this for the compiled 1-ply functions (:meth:`data`):
#: a power of two, so the scaling is exact in float32.
_LINEAR_PLAY_SCALE = 1.0 / 64.0


#: Counts a network may add to its tuples (``features``): a name to its counts' codes
#: (:func:`count_value`), each one table per stage of :data:`COUNT_VALUES` weights.
#: ``mobility``: the mover's legal moves, the opponent's; ``potential``: the empty squares next
#: to an opponent's disc (where the mover may come to play), next to a mover's disc;
#: ``empties``: the empty squares (a weight a ply within the stage: who moves last, parity).
FEATURES: dict[str, tuple[int, ...]] = {"mobility": (0, 1), "potential": (2, 3), "empties": (4,)}

#: Entries of a count's table: every count is 0..64 (64: the empty squares of an empty board),
#: so none is clipped.
COUNT_VALUES = 65

#: A count's row in ``squares`` starts with ``COUNT_CODE - code``: below the padding's -1, so
#: never a square.
COUNT_CODE = -2


def parse_features(text: str) -> list[str]:
    """Feature names from ``"mobility"``, ``"mobility,potential"`` or ``""`` (none), in
    :data:`FEATURES`' order, each once.

    >>> parse_features("potential, mobility,potential")
    ['mobility', 'potential']
    """
    items = {n.strip() for n in text.split(",") if n.strip()}
    unknown = sorted(items - set(FEATURES))
    if unknown:
        raise UsageError(
            f"unknown feature {unknown[0]!r} (features: {', '.join(FEATURES)}, comma-separated)"
        )
    return [n for n in FEATURES if n in items]


def check_output(output: object) -> str:
    """``output`` if it is one of :data:`OUTPUTS`, else UsageError."""
    if output not in OUTPUTS:
        raise UsageError(f"output must be one of {', '.join(OUTPUTS)}, got {output!r}")
    return str(output)


@dataclass
class NTupleNetwork:
    """The tuples (by name), their symmetric images, one weight table per tuple and stage, and
    the output kind (:data:`OUTPUTS`)."""

    names: list[str]
    squares: np.ndarray
    offsets: np.ndarray
    weights: np.ndarray
    output: str = "tanh"
    #: (weights array, its scaled read-only copy) for :meth:`data` of a linear network.
    _play: tuple[np.ndarray, np.ndarray] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @classmethod
    def create(
        cls, tuples: str = "standard", stages: int = 1, output: str = "tanh", features: str = ""
    ) -> NTupleNetwork:
        """A zero network of the named tuples (see :data:`TUPLES`, :data:`TUPLE_SETS`) and
        counts (:data:`FEATURES`) with ``stages`` phases of the game (see :func:`stage_of`)
        and the output kind ``output``."""
        check_output(output)
        if not 1 <= stages <= MAX_STAGES:
            raise UsageError(f"stages must be in 1..{MAX_STAGES}, got {stages}")
        names = parse_tuples(tuples)
        tables = [TUPLES[name] for name in names]
        table_start = table_offsets(tables, VALUES_PER_SQUARE)
        rows: list[tuple[int, ...]] = []
        offsets: list[int] = []
        for t, sq in enumerate(tables):
            for image in symmetric_images(sq):
                rows.append(image)
                offsets.append(int(table_start[t]))  # images share their tuple's table
        start = int(table_start[-1])
        for code in _count_codes(features):
            rows.append((COUNT_CODE - code,))
            offsets.append(start)
            start += COUNT_VALUES
        width = max(len(r) for r in rows)
        squares = np.full((len(rows), width), -1, np.int64)
        for i, r in enumerate(rows):
            squares[i, : len(r)] = r
        base = np.array(offsets, np.int64)
        staged = base[None, :] + start * np.arange(stages, dtype=np.int64)[:, None]
        return cls(names, squares, staged, np.zeros(start * stages, np.float32), output)

    #: The game, as model files name it (:mod:`boardai.learn.model_file`).
    GAME: ClassVar[str] = "othello"

    def layout(self) -> dict[str, Any]:
        """The metadata that describes the tables in a model file: tuple names, stages, output
        kind (a file without one is ``tanh``: every file written before linear networks) and,
        if it has any, the counts (``features``; a file without is a network of tuples only)."""
        out: dict[str, Any] = {
            "tuples": ",".join(self.names),
            "stages": self.stages,
            "output": self.output,
        }
        if self.features:
            out["features"] = ",".join(self.features)
        return out

    @classmethod
    def weights_size(cls, layout: Mapping[str, Any]) -> int:
        """The number of weights of the network a model file's ``layout`` describes."""
        check_output(layout.get("output", "tanh"))
        stages = int(layout.get("stages", 1))
        if not 1 <= stages <= MAX_STAGES:
            raise UsageError(f"stages must be in 1..{MAX_STAGES}, got {stages}")
        tables = [TUPLES[name] for name in parse_tuples(layout["tuples"])]
        counts = len(_count_codes(layout.get("features", "")))
        return stages * (int(table_offsets(tables, VALUES_PER_SQUARE)[-1]) + counts * COUNT_VALUES)

    @classmethod
    def from_layout(cls, layout: Mapping[str, Any], weights: np.ndarray) -> NTupleNetwork:
        """The network a model file's ``layout`` describes, holding ``weights``."""
        net = cls.create(
            layout["tuples"],
            int(layout.get("stages", 1)),
            layout.get("output", "tanh"),
            layout.get("features", ""),
        )
        if weights.shape != net.weights.shape or weights.dtype != np.float32:
            raise ValueError(f"weights {weights.shape} do not fit tuples {layout['tuples']!r}")
        net.weights = weights
        return net

    @property
    def n_images(self) -> int:
        """Table lookups per evaluation."""
        return int(self.offsets.shape[1])

    @property
    def features(self) -> list[str]:
        """The counts' names (:data:`FEATURES`) the network has besides its tuples."""
        codes = {COUNT_CODE - int(c) for c in self.squares[:, 0] if c <= COUNT_CODE}
        return [name for name, own in FEATURES.items() if own[0] in codes]

    @property
    def stages(self) -> int:
        """Phases of the game with their own tables."""
        return int(self.offsets.shape[0])

    @property
    def linear(self) -> bool:
        """Whether the sum of the weights is the value itself, in discs (``output="linear"``)."""
        return self.output == "linear"

    def data(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(squares, offsets, weights)`` for the compiled functions (:func:`value`,
        :func:`greedy_action`, the TD updates), which value a position as ``tanh`` of the sum
        and a finished game as ±1.

        A tanh network's weights are its own array (the TD updates write to it). A linear
        network's are a read-only copy scaled by 1/64 (exact: a power of two), made once per
        weights array (replace the array, do not edit it in place): ``tanh(discs / 64)``
        orders positions as their disc values do, where ``tanh(discs)`` would round every
        value past ±19 discs to ±1 (``tanh(discs / 64)`` does only past ±1,200), and a
        finished game's ±1 ranks past any value, as a finished game does in the search. So
        the 1-ply player and the vector env's opponent play a linear network by its disc
        values."""
        if not self.linear:
            return self.squares, self.offsets, self.weights
        if self._play is None or self._play[0] is not self.weights:
            scaled = self.weights * np.float32(_LINEAR_PLAY_SCALE)
            scaled.flags.writeable = False
            self._play = (self.weights, scaled)
        return self.squares, self.offsets, self._play[1]

    def raw_value(self, mover: int, opponent: int) -> float:
        """The sum of the weights of the position's images (before ``tanh`` or the clip)."""
        return float(
            raw_value(
                np.uint64(mover), np.uint64(opponent), self.squares, self.offsets, self.weights
            )
        )

    def value(self, mover: int, opponent: int) -> float:
        """The network's value of a position for the player to move: in (-1, 1) for a tanh
        network, the predicted final disc difference within ±:data:`DISC_CLIP` for a linear
        one."""
        if self.linear:
            return min(max(self.raw_value(mover, opponent), -DISC_CLIP), DISC_CLIP)
        return float(value(np.uint64(mover), np.uint64(opponent), *self.data()))


def _count_codes(features: str) -> list[int]:
    return [code for name in parse_features(features) for code in FEATURES[name]]


@njit(inline="always")
def _next_to(x: np.uint64) -> np.uint64:
    """The squares next to a square of ``x`` in any of the 8 directions (and some of ``x``).
    A shift that moves a square one column east drops what lands in column a (it came from
    column h), one that moves it west what lands in column h."""
    east = (x << np.uint64(1)) | (x << np.uint64(9)) | (x >> np.uint64(7))
    west = (x >> np.uint64(1)) | (x >> np.uint64(9)) | (x << np.uint64(7))
    return (x << np.uint64(8)) | (x >> np.uint64(8)) | (east & NOT_COL_A) | (west & NOT_COL_H)


@njit
def count_value(P: np.uint64, O: np.uint64, code: np.int64) -> np.int64:
    """Count ``code`` of :data:`FEATURES` for the mover ``P``: 0 its legal moves, 1 the
    opponent's, 2 the empty squares next to an opponent's disc, 3 next to a mover's disc, 4
    the empty squares."""
    if code == 0:
        return np.int64(popcount(legal_moves(P, O)))
    if code == 1:
        return np.int64(popcount(legal_moves(O, P)))
    empty = ~(P | O)
    if code == 4:
        return np.int64(popcount(empty))
    return np.int64(popcount(empty & _next_to(O if code == 2 else P)))


@njit
def feature_index(P: np.uint64, O: np.uint64, squares: np.ndarray, i: np.int64) -> np.int64:
    """Base-3 index of image ``i`` (0 empty, 1 mover, 2 opponent; first square most
    significant), or a count's value (:func:`count_value`) for a count's row."""
    first = squares[i, 0]
    if first <= COUNT_CODE:
        return count_value(P, O, COUNT_CODE - first)
    idx = np.int64(0)
    for k in range(squares.shape[1]):
        s = squares[i, k]
        if s < 0:
            break
        bit = np.uint64(s)
        idx = 3 * idx + np.int64((P >> bit) & _ONE) + 2 * np.int64((O >> bit) & _ONE)
    return idx


@njit
def stage_of(P: np.uint64, O: np.uint64, n_stages: np.int64) -> np.int64:
    """The stage of a position: its disc count, 4..64, cut into ``n_stages`` equal bands
    (fewer discs than 4, possible only in made-up positions, count as stage 0).

    >>> [int(stage_of(np.uint64(0), np.uint64(2**d - 1), 3)) for d in (4, 24, 25, 44, 45, 64)]
    [0, 0, 1, 1, 2, 2]
    """
    s = (np.int64(popcount(P | O)) - 4) * n_stages // 61
    return min(max(s, np.int64(0)), np.int64(n_stages - 1))


@njit
def raw_value(
    P: np.uint64, O: np.uint64, squares: np.ndarray, offsets: np.ndarray, weights: np.ndarray
) -> float:
    """Sum of the weights of all images (before ``tanh``)."""
    st = stage_of(P, O, offsets.shape[0])
    v = 0.0
    for i in range(offsets.shape[1]):
        v += weights[offsets[st, i] + feature_index(P, O, squares, i)]
    return v


@njit
def value(
    P: np.uint64, O: np.uint64, squares: np.ndarray, offsets: np.ndarray, weights: np.ndarray
) -> float:
    """The network's value for the mover, ``tanh`` of :func:`raw_value`."""
    return np.tanh(raw_value(P, O, squares, offsets, weights))


@njit
def outcome(P: np.uint64, O: np.uint64) -> float:
    """+1, 0 or -1: the finished game's result for the player to move."""
    s = final_score(P, O)
    return 1.0 if s > 0 else -1.0 if s < 0 else 0.0


@njit
def position_value(
    P: np.uint64, O: np.uint64, squares: np.ndarray, offsets: np.ndarray, weights: np.ndarray
) -> float:
    """The game result if the game is over, else the network's value (for the mover)."""
    if legal_moves(P, O) == 0 and legal_moves(O, P) == 0:
        return outcome(P, O)
    return value(P, O, squares, offsets, weights)


@njit
def greedy_action(
    P: np.uint64, O: np.uint64, squares: np.ndarray, offsets: np.ndarray, weights: np.ndarray
) -> np.int64:
    """The move leaving the opponent the lowest value (first of equals); PASS when forced.

    The ``ntuple`` player's 1-ply move, and the self-play policy of
    :mod:`boardai.othello.train.ntuple`."""
    moves = legal_moves(P, O)
    if moves == 0:
        return np.int64(PASS)
    best = 1e300
    best_a = np.int64(-1)
    while moves:
        m = moves & (_ZERO - moves)
        moves ^= m
        O2, P2 = play_bit(m, P, O)
        v = position_value(O2, P2, squares, offsets, weights)
        if v < best:
            best = v
            best_a = np.int64(lowest_square(m))
    return best_a


@njit
def indices(
    P: np.uint64, O: np.uint64, squares: np.ndarray, offsets: np.ndarray, out: np.ndarray
) -> None:
    """Write the weight index of every image (stage included) into ``out``."""
    st = stage_of(P, O, offsets.shape[0])
    for i in range(offsets.shape[1]):
        out[i] = offsets[st, i] + feature_index(P, O, squares, i)


@njit
def update(
    P: np.uint64,
    O: np.uint64,
    squares: np.ndarray,
    offsets: np.ndarray,
    weights: np.ndarray,
    delta: float,
) -> None:
    """Add ``delta`` to the weight of every image (a TD step already times the learning rate;
    :func:`boardai.learn.ntuple.add_at`)."""
    idx = np.empty(offsets.shape[1], np.int64)
    indices(P, O, squares, offsets, idx)
    add_at(weights, idx, delta)


@njit
def update_tc(
    P: np.uint64,
    O: np.uint64,
    squares: np.ndarray,
    offsets: np.ndarray,
    weights: np.ndarray,
    tc: np.ndarray,
    step: float,
    error: float,
) -> None:
    """Temporal coherence step (:func:`boardai.learn.ntuple.add_at_tc`): each looked-up weight
    moves by ``step * |E| / A``, where ``E`` sums the errors that reached it and ``A`` their
    absolute values (``tc[i] = (E_i, A_i)``)."""
    idx = np.empty(offsets.shape[1], np.int64)
    indices(P, O, squares, offsets, idx)
    add_at_tc(weights, tc, idx, step, error)
