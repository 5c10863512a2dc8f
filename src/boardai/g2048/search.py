"""Expectimax search for 2048, entirely in compiled code, with a pluggable evaluator.

The search follows nneonneo's 2048-ai: max nodes over the legal moves, chance nodes over every
empty cell with a 2 (probability ``1 - p4``) or a 4 (``p4``), a depth limit, a cut-off on the
probability of reaching a node, and a transposition table over chance nodes.

Depth counts max layers (player moves): depth 1 plays the move whose afterstate evaluates
best; depth 2 also averages over every spawn after it and the best reply to each, and so on.
(nneonneo's ``depth_limit`` d is depth d + 1 here.)

Evaluator contract
------------------
The search evaluates afterstates (boards after a move, before the spawn) at its leaf chance
nodes through an ``@njit`` function::

    evaluate(afterstate: uint64, data) -> float64

``data`` is any numba-typable object (a tuple of numpy arrays, say) that the search passes
through untouched. The value of a max node is ``max_a [reward_weight * r(a) + chance(a)]`` where
``r(a)`` is the move's reward (the tiles it made) and ``chance(a)`` the value of its afterstate:
the spawn-weighted average of the max nodes below it, or ``evaluate`` at a leaf. A max node with
no legal move is worth 0. The hand-made heuristic uses ``reward_weight=0`` (its evaluation
already holds everything); an n-tuple afterstate value uses ``reward_weight=1``.

The evaluator is a first-class argument of the compiled kernels, so numba specialises the
search per evaluator without any change here. Numba cannot cache code specialised on a function
argument (the cache key holds the function's identity), so :func:`search_root` is compiled with
``cache=False``: the first search of each process compiles it (a few seconds); the kernels it
calls, evaluators included, are cached as usual.

Boards with a tile above 32768 (``Board.hi != 0``) do not fit one ``uint64``; the search runs on
:func:`approximate_board`, which caps those tiles at 32768. Callers must check the chosen move on
the exact board (:func:`best_action` does).

>>> from boardai.g2048 import Board
>>> b = Board.from_grid([[2, 2, 4, 8], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
>>> action, value = best_action(b, depth=2)
>>> action in b.legal_actions()
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.g2048.kernels import (
    LEFT_TABLE,
    OVERFLOW,
    REWARD_TABLE,
    RIGHT_TABLE,
    count_empty,
    transpose,
)

_NIB = np.uint64(0xF)
_ROW = np.uint64(0xFFFF)
_GOLDEN = np.uint64(0x9E37_79B9_7F4A_7C15)
_REWARD_MASK = np.int64(OVERFLOW - 1)


def _column_table(rows: np.ndarray) -> np.ndarray:
    """A row table's results spread into a column: nibble j goes to bits 16j .. 16j+3."""
    out = np.zeros(65536, np.uint64)
    r = rows.astype(np.uint64)
    for j in range(4):
        out |= ((r >> np.uint64(4 * j)) & _NIB) << np.uint64(16 * j)
    return out


# nneonneo's column tables: "up" slides the rows of the transposed board left and writes them
# straight back as columns, so a max node transposes its board once, not three times.
_UP_TABLE = _column_table(LEFT_TABLE)
_DOWN_TABLE = _column_table(RIGHT_TABLE)


@njit
def _moves(b: np.uint64, t: np.uint64) -> tuple[tuple[np.uint64, ...], tuple[np.int64, ...]]:
    """Afterstates and rewards of moves 0..3 of ``b``, given ``t = transpose(b)``."""
    left = np.uint64(0)
    right = np.uint64(0)
    up = np.uint64(0)
    down = np.uint64(0)
    r_rows = np.int64(0)
    r_cols = np.int64(0)
    for k in range(4):
        sh = np.uint64(16 * k)
        row = np.int64((b >> sh) & _ROW)
        col = np.int64((t >> sh) & _ROW)
        left |= np.uint64(LEFT_TABLE[row]) << sh
        right |= np.uint64(RIGHT_TABLE[row]) << sh
        up |= _UP_TABLE[col] << np.uint64(4 * k)
        down |= _DOWN_TABLE[col] << np.uint64(4 * k)
        r_rows += np.int64(REWARD_TABLE[row])
        r_cols += np.int64(REWARD_TABLE[col])
    r_rows &= _REWARD_MASK
    r_cols &= _REWARD_MASK
    return (up, right, down, left), (r_cols, r_rows, r_cols, r_rows)


#: Statistics slots of the ``stats`` array the kernels fill.
STAT_MOVES, STAT_LEAVES, STAT_CHANCE, STAT_HITS = 0, 1, 2, 3


class Table:
    """A transposition table over chance nodes: parallel numpy arrays, direct-mapped.

    Slot ``hash(board) >> (64 - bits)`` holds the board, its value, and ``info = generation << 8
    | remaining depth``. Each search bumps the generation, which empties the table in O(1).

    Args:
        bits: log2 of the number of slots (20: a million slots, 20 MiB).
    """

    def __init__(self, bits: int = 20) -> None:
        if not 4 <= bits <= 28:
            raise ValueError(f"table bits must be in 4..28, got {bits}")
        self.bits = bits
        self.keys = np.zeros(1 << bits, np.uint64)
        self.values = np.zeros(1 << bits, np.float64)
        self.info = np.zeros(1 << bits, np.uint32)
        self.generation = 0

    def next_generation(self) -> int:
        """Start a new search: older entries stop matching."""
        self.generation += 1
        if self.generation >= 1 << 24:  # info holds 24 bits of generation
            self.info[:] = 0
            self.generation = 1
        return self.generation


@njit(cache=False)
def _chance(
    after: np.uint64,
    remaining: np.int64,
    cprob: float,
    evaluate: Any,
    data: Any,
    reward_weight: float,
    prob_cut: float,
    p4: float,
    keys: np.ndarray,
    values: np.ndarray,
    info: np.ndarray,
    gen: np.uint32,
    shift: np.uint64,
    stats: np.ndarray,
) -> float:
    """Value of the chance node of afterstate ``after`` with ``remaining`` max layers below."""
    if remaining <= 0 or cprob < prob_cut:
        stats[STAT_LEAVES] += 1
        return evaluate(after, data)
    n_empty = count_empty(after)
    if n_empty == 0:  # not an afterstate of a legal move; evaluate rather than fail
        stats[STAT_LEAVES] += 1
        return evaluate(after, data)
    slot = np.int64((after * _GOLDEN) >> shift)
    tag = info[slot]
    if (
        keys[slot] == after
        and (tag >> np.uint32(8)) == gen
        and np.int64(tag & np.uint32(0xFF)) >= remaining
    ):
        stats[STAT_HITS] += 1
        return values[slot]
    stats[STAT_CHANCE] += 1
    total = 0.0
    p2 = 1.0 - p4
    t_after = transpose(after)
    for i in range(16):
        sh = np.uint64(4 * i)
        if (after >> sh) & _NIB != 0:
            continue
        t_sh = np.uint64(4 * (4 * (i & 3) + (i >> 2)))  # cell (r, c) is (c, r) in t_after
        for k in range(2):
            p = p2 if k == 0 else p4
            if p <= 0.0:
                continue
            tile = np.uint64(k + 1)
            board = after | (tile << sh)
            outs, rewards = _moves(board, t_after | (tile << t_sh))
            stats[STAT_MOVES] += 4
            best = 0.0
            found = False
            child_prob = cprob * p / n_empty
            leaf = remaining <= 1 or child_prob < prob_cut  # checked here: saves a call per leaf
            for a in range(4):
                out = outs[a]
                if out == board:
                    continue
                if leaf:
                    stats[STAT_LEAVES] += 1
                    v = evaluate(out, data)
                else:
                    v = _chance(
                        out, remaining - 1, child_prob, evaluate, data, reward_weight,
                        prob_cut, p4, keys, values, info, gen, shift, stats,
                    )  # fmt: skip
                v += reward_weight * np.float64(rewards[a])
                if not found or v > best:
                    best = v
                    found = True
            total += p * best
    value = total / n_empty
    keys[slot] = after
    values[slot] = value
    info[slot] = (gen << np.uint32(8)) | np.uint32(min(remaining, 255))
    return value


@njit(cache=False)
def search_root(
    board: np.uint64,
    depth: np.int64,
    evaluate: Any,
    data: Any,
    reward_weight: float,
    prob_cut: float,
    p4: float,
    keys: np.ndarray,
    values: np.ndarray,
    info: np.ndarray,
    gen: np.uint32,
    stats: np.ndarray,
) -> np.ndarray:
    """Kernel: the value of each root move (``-inf`` where illegal), searched ``depth`` layers.

    ``keys``/``values``/``info`` are a :class:`Table`'s arrays (their length a power of two),
    ``gen`` its generation; ``stats`` (int64, 4 slots) counts moves, leaves, chance nodes
    expanded and table hits.
    """
    out_values = np.full(4, -np.inf)
    bits = np.int64(0)
    n = keys.shape[0]
    while (np.int64(1) << bits) < n:
        bits += 1
    shift = np.uint64(64 - bits)
    outs, rewards = _moves(board, transpose(board))
    stats[STAT_MOVES] += 4
    for a in range(4):
        out = outs[a]
        if out == board:
            continue
        out_values[a] = reward_weight * np.float64(rewards[a]) + _chance(
            out, depth - 1, 1.0, evaluate, data, reward_weight, prob_cut, p4,
            keys, values, info, gen, shift, stats,
        )  # fmt: skip
    return out_values


@njit
def count_distinct(board: np.uint64) -> np.int64:
    """Number of distinct tiles on the board (empty cells not counted)."""
    seen = 0
    for i in range(16):
        e = (board >> np.uint64(4 * i)) & _NIB
        if e != 0:
            seen |= 1 << np.int64(e)
    n = 0
    while seen:
        n += seen & 1
        seen >>= 1
    return n


def approximate_board(lo: int, hi: int) -> int:
    """The one-word board the search sees: tiles above 32768 are capped at 32768."""
    for i in range(16):
        if hi >> i & 1:
            lo |= 0xF << (4 * i)
    return lo


@dataclass
class SearchResult:
    """What one search found: the move, the values of all four moves, and its cost."""

    action: int
    value: float
    values: np.ndarray
    depth: int
    moves: int = 0
    leaves: int = 0
    chance_nodes: int = 0
    table_hits: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def search(
    board: Any,
    depth: int,
    *,
    evaluator: Any = None,
    data: Any = None,
    reward_weight: float = 0.0,
    prob_cut: float = 1e-4,
    p4: float = 0.1,
    table: Table | None = None,
    time_budget: float | None = None,
) -> SearchResult:
    """Search ``board`` to ``depth`` max layers and return the best legal move with its value.

    Args:
        board: a :class:`~boardai.g2048.board.Board`.
        depth: max layers, >= 1 (1 = pick the best afterstate).
        evaluator: the ``@njit`` leaf evaluator (see the module docstring); default: the
            nneonneo row heuristic of :mod:`boardai.g2048.heuristic` with its tables as ``data``.
        data: passed to ``evaluator`` untouched.
        reward_weight: weight of the move rewards (0 for heuristics, 1 for afterstate values).
        prob_cut: chance nodes reached with probability below this are evaluated, not expanded
            (0 disables the cut-off).
        p4: probability that a spawn is a 4.
        table: a transposition table to reuse (a fresh one of 2^16 slots if None).
        time_budget: seconds; if given, searches depth 1, 2, ... and stops before a depth whose
            estimated cost would overrun the budget (the deepest finished result is returned).

    Raises:
        ValueError: the board has no legal move, or depth < 1.
    """
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    legal = board.legal_actions()
    if not legal:
        raise ValueError("no legal move: the game is over")
    if evaluator is None:
        from boardai.g2048 import heuristic

        evaluator, data = heuristic.evaluate_rows, heuristic.row_table_data()
    if table is None:
        table = Table(16)
    approx = np.uint64(approximate_board(board.lo, board.hi))
    stats = np.zeros(4, np.int64)
    start = time.perf_counter()
    depths = range(1, depth + 1) if time_budget is not None else (depth,)
    found: np.ndarray | None = None
    reached = 0
    last = 0.0
    for d in depths:
        if time_budget is not None and found is not None:
            elapsed = time.perf_counter() - start
            if elapsed + 8.0 * last > time_budget:  # the next depth costs about 8x this one
                break
        t0 = time.perf_counter()
        gen = np.uint32(table.next_generation())
        found = search_root(
            approx, d, evaluator, data, float(reward_weight), float(prob_cut), float(p4),
            table.keys, table.values, table.info, gen, stats,
        )  # fmt: skip
        last = time.perf_counter() - t0
        reached = d
    assert found is not None
    # The search saw the capped board: keep only moves legal on the exact one.
    values = found.copy()
    best = max(legal, key=lambda a: (values[a], -a))
    if not np.isfinite(values[best]):  # capped board thinks every legal move is illegal
        best = legal[0]
    return SearchResult(
        action=int(best),
        value=float(values[best]),
        values=values,
        depth=reached,
        moves=int(stats[STAT_MOVES]),
        leaves=int(stats[STAT_LEAVES]),
        chance_nodes=int(stats[STAT_CHANCE]),
        table_hits=int(stats[STAT_HITS]),
        seconds=time.perf_counter() - start,
    )


def best_action(board: Any, depth: int = 3, **kwargs: Any) -> tuple[int, float]:
    """The best legal move of ``board`` and its value: :func:`search` without the statistics."""
    result = search(board, depth, **kwargs)
    return result.action, result.value
