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

Where the search reaches a leaf after a spawn, it evaluates the legal moves' afterstates
together, through the evaluator's batch form::

    evaluate_batch(evaluate, outs: (uint64,) * 4, need: int64, data, vals: float64[4]) -> None

which writes ``vals[a]``, the value ``evaluate`` gives ``outs[a]``, for each bit ``a`` of
``need`` (the same value bit for bit). ``None`` instead of a batch form evaluates the leaves one
by one (numba prunes the batch code then: a cheap evaluator such as the hand-made heuristic
pays nothing for it); an evaluator that pays a memory latency per lookup (an n-tuple network)
has its own, which starts every lookup's load before it sums any.

The evaluator is an argument of the compiled kernels, so numba specialises the search per
evaluator without any change here. The kernels take it, and its batch form, as a
:class:`~boardai.jitref.Ref` (:func:`search` wraps a function with
:func:`~boardai.jitref.ref`): a compiled function passed as itself would be typed by its
identity in the process, and numba cannot cache that, so every process would compile the
search afresh (10-30 seconds); a reference is typed by the function's name, so the search
compiled for it loads from numba's cache. :func:`search` then calls the compiled overload
directly, skipping numba's per-call argument typing.

Leaf cache
----------
Within one search about half of the leaf evaluations repeat an afterstate already evaluated
(different spawns and moves reach the same board: 46% at depth 2, 56% at depth 3 with the
shipped n-tuple network), and the search of the next move meets many of them again. A
:class:`Table` made with ``leaf_bits`` keeps each evaluated leaf (direct-mapped), so a repeat
costs a probe, not an evaluation. A leaf's value depends only on the afterstate, the evaluator
and its data, so the entries carry a leaf tag (:meth:`Table.leaf_tag`) that stays the same
from one search to the next while those stay the same, and changes, which empties the cache,
when they do. Values are the evaluator's own, so every search result is the same bit for bit
with or without it; it pays where an evaluation is dear (an n-tuple network's 40 scattered
loads) and not for a few row-table reads (the hand-made heuristic).

Entry points: :func:`search` (a ``Board``, statistics and an optional time budget),
:func:`best_action` (just the move and its value), and the kernels :func:`search_root` (the
four root values of one one-word board) and :func:`search_batch` (many boards in one compiled
loop, for benchmarks and analysis).

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

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from boardai._jit import njit
from boardai.g2048.kernels import (
    LEFT_TABLE,
    OVERFLOW,
    REWARD_TABLE,
    RIGHT_TABLE,
    capped,
    count_empty,
    transpose,
)
from boardai.intrinsics import borrow, borrow_all, prefetch
from boardai.jitref import call, ref

if TYPE_CHECKING:
    from boardai.g2048.board import Board

#: A leaf evaluator: an ``@njit`` function ``evaluate(afterstate, data) -> float`` (the module
#: docstring's contract); ``data`` is whatever numba-typable object the caller pairs with it.
Evaluator = Callable[[np.uint64, Any], float]

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


@njit(inline="always")
def _line_rewards(b: np.uint64, t: np.uint64) -> tuple[np.int64, np.int64]:
    """The reward sums of the rows of ``b`` and of its columns (the rows of ``t``), unmasked."""
    r_rows = np.int64(0)
    r_cols = np.int64(0)
    for k in range(4):
        sh = np.uint64(16 * k)
        r_rows += np.int64(REWARD_TABLE[np.int64((b >> sh) & _ROW)])
        r_cols += np.int64(REWARD_TABLE[np.int64((t >> sh) & _ROW)])
    return r_rows, r_cols


@njit
def _moves(
    b: np.uint64, t: np.uint64, with_rewards: bool
) -> tuple[tuple[np.uint64, ...], tuple[np.int64, ...]]:
    """Afterstates and rewards of moves 0..3 of ``b``, given ``t = transpose(b)``.

    Rewards are 0 unless ``with_rewards`` (heuristic searches do not need them).
    """
    left = np.uint64(0)
    right = np.uint64(0)
    up = np.uint64(0)
    down = np.uint64(0)
    for k in range(4):
        sh = np.uint64(16 * k)
        row = np.int64((b >> sh) & _ROW)
        col = np.int64((t >> sh) & _ROW)
        left |= np.uint64(LEFT_TABLE[row]) << sh
        right |= np.uint64(RIGHT_TABLE[row]) << sh
        up |= _UP_TABLE[col] << np.uint64(4 * k)
        down |= _DOWN_TABLE[col] << np.uint64(4 * k)
    r_rows = np.int64(0)
    r_cols = np.int64(0)
    if with_rewards:
        r_rows, r_cols = _line_rewards(b, t)
        r_rows &= _REWARD_MASK
        r_cols &= _REWARD_MASK
    return (up, right, down, left), (r_cols, r_rows, r_cols, r_rows)


_COLUMN = np.uint64(0x000F_000F_000F_000F)


@njit(inline="always")
def _spawn_moves(
    moved: tuple[np.uint64, ...],
    row_reward: np.int64,
    col_reward: np.int64,
    row: np.uint64,
    col: np.uint64,
    r: np.uint64,
    c: np.uint64,
    with_rewards: bool,
) -> tuple[tuple[np.uint64, ...], tuple[np.int64, ...]]:
    """:func:`_moves` of a board that differs from one already moved in one cell, row ``r``,
    column ``c``: ``moved`` is that board's (up, right, down, left), ``row_reward`` /
    ``col_reward`` its rows' / columns' reward sums less row ``r``'s / column ``c``'s, and
    ``row`` / ``col`` the new board's row ``r`` / column ``c`` (a column as a row of the
    transposed board). Only that row and that column move again: four table reads, not
    sixteen, and the same afterstates and rewards."""
    up, right, down, left = moved
    rs = np.uint64(16) * r
    cs = np.uint64(4) * c
    keep_row = ~(_ROW << rs)
    keep_col = ~(_COLUMN << cs)
    left = (left & keep_row) | (np.uint64(LEFT_TABLE[np.int64(row)]) << rs)
    right = (right & keep_row) | (np.uint64(RIGHT_TABLE[np.int64(row)]) << rs)
    up = (up & keep_col) | (_UP_TABLE[np.int64(col)] << cs)
    down = (down & keep_col) | (_DOWN_TABLE[np.int64(col)] << cs)
    r_rows = np.int64(0)
    r_cols = np.int64(0)
    if with_rewards:
        r_rows = (row_reward + np.int64(REWARD_TABLE[np.int64(row)])) & _REWARD_MASK
        r_cols = (col_reward + np.int64(REWARD_TABLE[np.int64(col)])) & _REWARD_MASK
    return (up, right, down, left), (r_cols, r_rows, r_cols, r_rows)


@njit(inline="always")
def _spawn_lines(
    after: np.uint64,
    t_after: np.uint64,
    r: np.uint64,
    c: np.uint64,
    all_rows: np.int64,
    all_cols: np.int64,
    with_rewards: bool,
) -> tuple[np.uint64, np.uint64, np.int64, np.int64]:
    """What :func:`_spawn_moves` takes of a spawn in row ``r``, column ``c`` of ``after``
    (``t_after`` its transpose, ``all_rows`` / ``all_cols`` its :func:`_line_rewards`): that
    row and column of ``after`` before the spawn (a column as a row of ``t_after``), and the
    reward sums of the other rows and columns (0 unless ``with_rewards``)."""
    row = (after >> (np.uint64(16) * r)) & _ROW
    col = (t_after >> (np.uint64(16) * c)) & _ROW
    row_reward = np.int64(0)
    col_reward = np.int64(0)
    if with_rewards:
        row_reward = all_rows - np.int64(REWARD_TABLE[np.int64(row)])
        col_reward = all_cols - np.int64(REWARD_TABLE[np.int64(col)])
    return row, col, row_reward, col_reward


#: Statistics slots of the ``stats`` array the kernels fill (:data:`N_STATS` of them): moves
#: generated, leaves reached, chance nodes expanded, chance-node table hits, leaves answered by
#: the leaf cache.
STAT_MOVES, STAT_LEAVES, STAT_CHANCE, STAT_HITS, STAT_LEAF_HITS = 0, 1, 2, 3, 4
N_STATS = 5


def _slots(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The keys (uint64), values (float64) and infos (uint32) of ``n`` table slots: strided
    views of one buffer of three words a slot, so that a probe reads one cache line (mostly),
    not one in each of three arrays (a table of 4M slots: 1.2x less time a move at the strong
    preset's depths, docs/journal/benchmarks-journal.md). The kernels index them as any
    arrays."""
    buf = np.zeros((n, 3), np.uint64)
    return buf[:, 0], buf.view(np.float64)[:, 1], buf.view(np.uint32)[:, 4]


class TableView(NamedTuple):
    """A :class:`Table` as the compiled kernels take it (:meth:`Table.view`), in one argument.

    A named tuple, which numba types field by field as it would the loose values (the same
    code, cached like any other signature): the arrays the kernels read and write, and the
    generation, leaf tag and slot shifts of the searches under way.
    """

    keys: np.ndarray
    """uint64: the board in each chance-node slot"""
    values: np.ndarray
    """float64: its value"""
    info: np.ndarray
    """uint32: ``generation << 8 | remaining depth``"""
    leaf_keys: np.ndarray
    """uint64: the afterstate in each leaf slot (empty: no leaf cache)"""
    leaf_values: np.ndarray
    """float64: its value"""
    leaf_info: np.ndarray
    """uint32: the leaf tag it was stored under"""
    generation: int | np.uint32
    """the generation of the (first) search; older chance-node entries do not match (a
    Python int here, which passes for less than a numpy scalar; the search reads it as the
    uint32 of ``info``)"""
    leaf_tag: int | np.uint32
    """the tag of this evaluator and data (:meth:`Table.leaf_tag`; read as a uint32)"""
    shift: np.uint64
    """64 - log2 of the chance-node slots: maps a 64-bit hash to a slot"""
    leaf_shift: np.uint64
    """the same for the leaf slots (64 with no leaf cache; never used then)"""


@njit(inline="always")
def _with_generation(t: TableView, generation: int | np.uint32) -> TableView:
    """``t`` for a search under ``generation``."""
    return TableView(
        t.keys, t.values, t.info, t.leaf_keys, t.leaf_values, t.leaf_info, generation,
        t.leaf_tag, t.shift, t.leaf_shift,
    )  # fmt: skip


@njit(inline="always")
def _borrowed(t: TableView) -> TableView:
    """``t`` with reference-free views of its arrays (:func:`~boardai.intrinsics.borrow`):
    numba would otherwise count references, atomically, to every array at every call and
    leaf; without it the strong preset takes 0.65x the time a move, depth 6 over a network
    0.56x. The caller must hold ``t``'s arrays for as long as the views are used. The
    generation and leaf tag become the uint32s that ``info`` and ``leaf_info`` hold."""
    return TableView(
        borrow(t.keys), borrow(t.values), borrow(t.info), borrow(t.leaf_keys),
        borrow(t.leaf_values), borrow(t.leaf_info), np.uint32(t.generation),
        np.uint32(t.leaf_tag), t.shift, t.leaf_shift,
    )  # fmt: skip


class Table:
    """A transposition table over chance nodes: parallel numpy arrays, direct-mapped; and,
    optionally, a cache of evaluated leaves (see the module docstring).

    Slot ``hash(board) >> (64 - bits)`` holds the board, its value, and ``info = generation << 8
    | remaining depth``. Each search bumps the generation, which empties the table in O(1).
    The leaf cache (``leaf_keys``, ``leaf_values``, ``leaf_info``: the afterstate, its value,
    the leaf tag) works the same way, but its tag changes only with the evaluator or its data
    (:meth:`leaf_tag`), so leaves outlive the search that evaluated them; with
    ``leaf_bits=0`` its arrays are empty and the search evaluates every leaf. The cache takes
    an evaluator's data as unchanging: after changing it in place (new weights in the same
    arrays), call :meth:`clear_leaves`.

    Args:
        bits: log2 of the number of slots (20: a million slots, 24 MiB).
        leaf_bits: log2 of the leaf cache's slots (0: none; 14: 16,384 slots, 384 KiB).
    """

    def __init__(self, bits: int = 20, leaf_bits: int = 0) -> None:
        if not 4 <= bits <= 28:
            raise ValueError(f"table bits must be in 4..28, got {bits}")
        if leaf_bits and not 4 <= leaf_bits <= 24:
            raise ValueError(f"leaf cache bits must be 0 or in 4..24, got {leaf_bits}")
        self.bits = bits
        self.keys, self.values, self.info = _slots(1 << bits)
        size = 1 << leaf_bits if leaf_bits else 0
        self.leaf_bits = leaf_bits
        self.leaf_keys, self.leaf_values, self.leaf_info = _slots(size)
        # what every view holds, made once: a search makes a view per call
        self._arrays = (
            self.keys, self.values, self.info, self.leaf_keys, self.leaf_values, self.leaf_info
        )  # fmt: skip
        self._shifts = (np.uint64(64 - bits), np.uint64(64 - leaf_bits))
        self.generation = 0
        self.leaf_generation = 0
        self._leaf_owner: tuple[object, ...] = ()

    def view(self, generation: int, leaf_tag: int = 0) -> TableView:
        """The table as the kernels take it, for searches that start at ``generation`` (from
        :meth:`next_generation`) under ``leaf_tag`` (:meth:`leaf_tag`; any value without a
        leaf cache)."""
        # tuple.__new__: the named tuple's own __new__ is a Python call more, per search
        fields = (*self._arrays, generation, leaf_tag, *self._shifts)
        return tuple.__new__(TableView, fields)

    def next_generation(self, count: int = 1) -> int:
        """Start a new search (or ``count`` of them): older entries stop matching.

        Returns the first new generation; the searches use it and the ``count - 1`` after it.
        """
        if self.generation + count >= 1 << 24:  # info holds 24 bits of generation
            self.info[:] = 0
            self.generation = 0
        first = self.generation + 1
        self.generation += count
        return first

    def leaf_tag(self, evaluator: object, batch: object, data: object) -> int:
        """The leaf cache's tag for searches with this evaluator, batch form and data: the
        same as the last search's while all three are the same objects (its leaves are still
        good), a new one, which empties the cache in O(1), when any differs."""
        owner = self._leaf_owner  # (a call a search: no generator, no zip)
        if not (owner and owner[0] is evaluator and owner[1] is batch and owner[2] is data):
            self.clear_leaves()
            self._leaf_owner = (evaluator, batch, data)
        return self.leaf_generation

    def clear_leaves(self) -> None:
        """Forget every cached leaf (the next :meth:`leaf_tag` is a new one)."""
        if self.leaf_generation + 1 >= 1 << 32:  # leaf_info holds 32 bits
            self.leaf_info[:] = 0
            self.leaf_generation = 0
        self.leaf_generation += 1
        self._leaf_owner = ()


@njit(inline="always")
def _slot(board: np.uint64, shift: np.uint64) -> np.int64:
    """The slot of ``board`` in a direct-mapped table of ``2 ** (64 - shift)`` entries
    (Fibonacci hashing): the transposition table's and the leaf cache's."""
    return np.int64((board * _GOLDEN) >> shift)


@njit(inline="always")
def _leaf_slot(
    after: np.uint64, lkeys: np.ndarray, linfo: np.ndarray, lgen: np.uint32, lshift: np.uint64
) -> tuple[np.int64, bool]:
    """The leaf cache's slot for ``after``, and whether it holds ``after``'s value under the
    leaf tag ``lgen`` (this evaluator and data)."""
    slot = _slot(after, lshift)
    return slot, lkeys[slot] == after and linfo[slot] == lgen


@njit(inline="always")
def _leaf(after: np.uint64, evaluate: Any, data: Any, t: TableView, stats: np.ndarray) -> float:
    """``evaluate(after, data)``, from the leaf cache when it holds ``after`` under the leaf
    tag of ``t``."""
    stats[STAT_LEAVES] += 1
    if t.leaf_keys.shape[0] == 0:
        return call(evaluate, after, data)
    slot, hit = _leaf_slot(after, t.leaf_keys, t.leaf_info, t.leaf_tag, t.leaf_shift)
    if hit:
        stats[STAT_LEAF_HITS] += 1
        return t.leaf_values[slot]
    v = call(evaluate, after, data)
    t.leaf_keys[slot] = after
    t.leaf_values[slot] = v
    t.leaf_info[slot] = t.leaf_tag
    return v


@njit(inline="always")
def _leaves(
    board: np.uint64,
    outs: tuple[np.uint64, ...],
    evaluate: Any,
    evaluate_batch: Any,
    data: Any,
    lkeys: np.ndarray,
    lvals: np.ndarray,
    linfo: np.ndarray,
    lgen: np.uint32,
    lshift: np.uint64,
    stats: np.ndarray,
    vals: np.ndarray,
) -> None:
    """``vals[a]``: the value of each legal move's afterstate ``outs[a]`` of ``board`` (the
    moves after a spawn at a leaf), from the leaf cache (its fields) where it holds them, the
    rest evaluated in one batch.

    It takes the leaf cache's fields, not the TableView: inlined into the loop over spawns, a
    helper given the whole view copies it, counting references to each of its arrays at
    every leaf (a call each, even on borrowed views: 1.2x the time a move over a network)."""
    cached = lkeys.shape[0] > 0
    need = np.int64(0)
    for a in range(4):
        out = outs[a]
        if out == board:
            continue
        stats[STAT_LEAVES] += 1
        if cached:
            slot, hit = _leaf_slot(out, lkeys, linfo, lgen, lshift)
            if hit:
                stats[STAT_LEAF_HITS] += 1
                vals[a] = lvals[slot]
                continue
        need |= np.int64(1) << a
    if need == 0:
        return
    call(evaluate_batch, evaluate, outs, need, data, vals)
    if cached:
        for a in range(4):
            if (need >> a) & 1:
                out = outs[a]
                slot = _leaf_slot(out, lkeys, linfo, lgen, lshift)[0]
                lkeys[slot] = out
                lvals[slot] = vals[a]
                linfo[slot] = lgen


@njit
def _chance(
    after: np.uint64,
    remaining: np.int64,
    cprob: float,
    evaluate: Any,
    evaluate_batch: Any,
    data: Any,
    reward_weight: float,
    prob_cut: float,
    p4: float,
    t: TableView,
    stats: np.ndarray,
    vals: np.ndarray,
) -> float:
    """Value of the chance node of afterstate ``after`` with ``remaining`` max layers below
    (``vals``: scratch for four leaf values)."""
    if remaining <= 0 or cprob < prob_cut:
        return _leaf(after, evaluate, data, t, stats)
    n_empty = count_empty(after)
    if n_empty == 0:  # not an afterstate of a legal move; evaluate rather than fail
        return _leaf(after, evaluate, data, t, stats)
    plain_leaves = t.leaf_keys.shape[0] == 0  # read once, not at every leaf
    slot = _slot(after, t.shift)
    tag = t.info[slot]
    if (
        t.keys[slot] == after
        and (tag >> np.uint32(8)) == t.generation
        and np.int64(tag & np.uint32(0xFF)) >= remaining
    ):
        stats[STAT_HITS] += 1
        return t.values[slot]
    stats[STAT_CHANCE] += 1
    total = 0.0
    p2 = 1.0 - p4
    t_after = transpose(after)
    # Each spawn changes one row and one column: move the afterstate once, then only those.
    with_rewards = reward_weight != 0.0
    moved = _moves(after, t_after, False)[0]
    all_rows, all_cols = _line_rewards(after, t_after) if with_rewards else (0, 0)
    for i in range(16):
        sh = np.uint64(4 * i)
        if (after >> sh) & _NIB != 0:
            continue
        r = np.uint64(i >> 2)
        c = np.uint64(i & 3)
        row, col, row_reward, col_reward = _spawn_lines(
            after, t_after, r, c, all_rows, all_cols, with_rewards
        )
        for k in range(2):
            p = p2 if k == 0 else p4
            if p <= 0.0:
                continue
            tile = np.uint64(k + 1)
            board = after | (tile << sh)
            outs, rewards = _spawn_moves(
                moved, row_reward, col_reward, row | (tile << (np.uint64(4) * c)),
                col | (tile << (np.uint64(4) * r)), r, c, with_rewards,
            )  # fmt: skip
            stats[STAT_MOVES] += 4
            best = 0.0
            found = False
            child_prob = cprob * p / n_empty
            leaf = remaining <= 1 or child_prob < prob_cut  # checked here: saves a call per leaf
            if not leaf and evaluate_batch is not None:
                # each child probes the table first: start loading its entries now (where the
                # evaluator is dear, as a network's, the search is deep and its table large;
                # for the hand-made heuristic, no batch form, this code is pruned)
                for a in range(4):
                    if outs[a] != board:
                        child = _slot(outs[a], t.shift)
                        prefetch(t.keys, child)
                        prefetch(t.info, child)
            if leaf and evaluate_batch is not None:
                _leaves(
                    board, outs, evaluate, evaluate_batch, data, t.leaf_keys, t.leaf_values,
                    t.leaf_info, t.leaf_tag, t.leaf_shift, stats, vals,
                )  # fmt: skip
            for a in range(4):
                out = outs[a]
                if out == board:
                    continue
                if leaf:
                    if evaluate_batch is not None:
                        v = vals[a]
                    elif plain_leaves:  # the plain leaf: _leaf's first case, but
                        # written here (bench search: _leaf in its place is 2.5-3x slower)
                        stats[STAT_LEAVES] += 1
                        v = call(evaluate, out, data)
                    else:
                        v = _leaf(out, evaluate, data, t, stats)
                else:
                    v = _chance(
                        out, remaining - 1, child_prob, evaluate, evaluate_batch, data,
                        reward_weight, prob_cut, p4, t, stats, vals,
                    )  # fmt: skip
                v += reward_weight * np.float64(rewards[a])
                if not found or v > best:
                    best = v
                    found = True
            total += p * best
    value = total / n_empty
    t.keys[slot] = after
    t.values[slot] = value
    t.info[slot] = (t.generation << np.uint32(8)) | np.uint32(remaining if remaining < 255 else 255)
    return value


@njit
def _root(
    board: np.uint64,
    depth: np.int64,
    evaluate: Any,
    evaluate_batch: Any,
    data: Any,
    reward_weight: float,
    prob_cut: float,
    p4: float,
    t: TableView,
    stats: np.ndarray,
    out_values: np.ndarray,
    vals: np.ndarray,
) -> None:
    """Write the value of each root move into ``out_values`` (``-inf`` where illegal; ``vals``:
    scratch for four leaf values)."""
    # Reference-free views (the caller holds the arrays for the whole search; see _borrowed).
    t = _borrowed(t)
    stats, vals = borrow(stats), borrow(vals)
    data = borrow_all(data)
    outs, rewards = _moves(board, transpose(board), reward_weight != 0.0)
    stats[STAT_MOVES] += 4
    for a in range(4):
        out = outs[a]
        if out == board:
            out_values[a] = -np.inf
        elif depth <= 1:
            stats[STAT_LEAVES] += 1  # four leaves at most: no cache
            out_values[a] = reward_weight * np.float64(rewards[a]) + call(evaluate, out, data)
        else:
            out_values[a] = reward_weight * np.float64(rewards[a]) + _chance(
                out, depth - 1, 1.0, evaluate, evaluate_batch, data, reward_weight, prob_cut,
                p4, t, stats, vals,
            )  # fmt: skip


@njit
def search_root(
    board: np.uint64,
    depth: np.int64,
    evaluate: Any,
    evaluate_batch: Any,
    data: Any,
    reward_weight: float,
    prob_cut: float,
    p4: float,
    table: TableView,
    stats: np.ndarray,
) -> np.ndarray:
    """Kernel: the value of each root move (``-inf`` where illegal), searched ``depth`` layers.

    ``evaluate`` is the evaluator as a :class:`~boardai.jitref.Ref`, ``evaluate_batch`` its
    batch form (the module docstring's contract; a Ref, or None: one leaf at a time);
    ``table`` a :class:`Table`'s :meth:`~Table.view` for this search's generation and leaf
    tag; ``stats`` (int64, :data:`N_STATS` slots) counts moves, leaves, chance nodes
    expanded, table hits and leaf cache hits.
    """
    out_values = np.empty(4)
    _root(
        board, depth, evaluate, evaluate_batch, data, reward_weight, prob_cut, p4, table, stats,
        out_values, np.empty(4),
    )  # fmt: skip
    return out_values


@njit
def search_batch(
    boards: np.ndarray,
    depth: np.int64,
    evaluate: Any,
    evaluate_batch: Any,
    data: Any,
    reward_weight: float,
    prob_cut: float,
    p4: float,
    table: TableView,
    stats: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Kernel: search every board of ``boards`` (one-word boards) in one compiled loop.

    Returns the best action (-1 where none is legal; ties to the lowest) and its value per
    board. Each board gets its own table generation, ``table.generation``, the one after,
    ...: the caller advances its :class:`Table` by ``len(boards)``; the leaves (its leaf tag)
    are shared by all. For benchmarks and batch analysis.
    """
    n = boards.shape[0]
    actions = np.full(n, -1, np.int64)
    best = np.full(n, -np.inf)
    v = np.empty(4)
    vals = np.empty(4)
    table = _borrowed(table)  # a new view per search would count its references: one here
    for i in range(n):
        _root(
            boards[i], depth, evaluate, evaluate_batch, data, reward_weight, prob_cut, p4,
            _with_generation(table, table.generation + i), stats, v, vals,
        )  # fmt: skip
        for a in range(4):
            if v[a] > best[i]:
                best[i] = v[a]
                actions[i] = a
    return actions, best


@njit
def count_distinct(board: np.uint64) -> int:
    """Number of distinct tiles on the board (empty cells not counted)."""
    seen = 0
    for i in range(16):
        e = (board >> np.uint64(4 * i)) & _NIB
        if e != 0:
            seen |= 1 << int(e)
    n = 0
    while seen:
        n += seen & 1
        seen >>= 1
    return n


@njit
def depth_by_distinct(board: np.uint64, min_depth: int, max_depth: int) -> int:
    """The search depth for ``board`` when it goes by the position: one less than its distinct
    tiles, kept between ``min_depth`` and ``max_depth`` (nneonneo's rule)."""
    return min(max_depth, max(min_depth, count_distinct(board) - 1))


def approximate_board(lo: int, hi: int) -> int:
    """The one-word board the search sees: tiles above 32768 are capped at 32768
    (:func:`~boardai.g2048.kernels.capped`)."""
    return int(capped(np.uint64(lo), np.uint64(hi))) if hi else lo


_DEFAULT: list[Table] = []
#: (id(evaluator), id(batch), id(data), leaf cache?) -> ((evaluator, batch, data), compiled
#: search_root).
_ENTRIES: dict[
    tuple[int, int, int, bool], tuple[tuple[object, ...], Callable[..., np.ndarray]]
] = {}


def _root_kernel(
    evaluator: Evaluator, batch: object, data: object, leaf_cache: bool, args: tuple[object, ...]
) -> Callable[..., np.ndarray]:
    """The compiled :func:`search_root` for this evaluator, batch form and data, without
    numba's dispatch.

    Typing a function and a tuple of arrays on every call costs more than a shallow search
    (about 12 us); the entry point of the compiled overload skips it. It is looked up once per
    (evaluator, batch, data object) and kind of table; the data's types cannot change under
    the same object. A table without a leaf cache has empty leaf arrays, which numpy calls
    contiguous, so numba types them apart from a cache's strided ones: a second signature.
    """
    key = (id(evaluator), id(batch), id(data), leaf_cache)
    hit = _ENTRIES.get(key)
    if hit is not None:
        known_evaluator, known_batch, known_data = hit[0]
        if known_evaluator is evaluator and known_batch is batch and known_data is data:
            return hit[1]
    from numba import typeof

    signature = tuple(typeof(a) for a in args)
    search_root.compile(signature)  # a no-op when compiled already
    entry = search_root.overloads[signature].entry_point
    if len(_ENTRIES) > 64:
        _ENTRIES.clear()
    _ENTRIES[key] = ((evaluator, batch, data), entry)
    return entry


@functools.cache
def _default_evaluator() -> tuple[Evaluator, object]:
    """nneonneo's row heuristic and its table."""
    from boardai.g2048 import heuristic

    return heuristic.evaluate_rows, heuristic.row_table_data()


def _default_table() -> Table:
    """The table :func:`search` uses when given none (one per process; not for threads)."""
    if not _DEFAULT:
        _DEFAULT.append(Table(18))
    return _DEFAULT[0]


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
    leaf_hits: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def search(
    board: Board,
    depth: int,
    *,
    evaluator: Evaluator | None = None,
    data: object = None,
    batch: Callable[..., None] | None = None,
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
        batch: ``evaluator``'s batch form (the module docstring); None (default): one leaf at
            a time.
        reward_weight: weight of the move rewards (0 for heuristics, 1 for afterstate values).
        prob_cut: chance nodes reached with probability below this are evaluated, not expanded
            (0 disables the cut-off).
        p4: probability that a spawn is a 4.
        table: the transposition table (default: one shared by the process; pass your own when
            searching from several threads).
        time_budget: seconds; if given, searches depth 1, 2, ... and stops before a depth whose
            estimated cost would overrun the budget (the deepest finished result is returned).

    Raises:
        ValueError: the board has no legal move, or depth < 1.
    """
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    # On one-word boards the kernel's own legality is exact; wide boards check the exact board.
    legal = board.legal_actions() if board.hi else None
    if legal == []:
        raise ValueError("no legal move: the game is over")
    if evaluator is None:
        evaluator, data = _default_evaluator()
    evaluator, batch = ref(evaluator), ref(batch)
    if table is None:
        table = _default_table()
    approx = np.uint64(approximate_board(board.lo, board.hi) if board.hi else board.lo)
    stats = np.zeros(N_STATS, np.int64)
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
        gen = table.next_generation()
        lgen = table.leaf_tag(evaluator, batch, data) if table.leaf_bits else 0
        args = (
            approx, d, evaluator, batch, data, float(reward_weight), float(prob_cut),
            float(p4), table.view(gen, lgen), stats,
        )  # fmt: skip
        found = _root_kernel(evaluator, batch, data, table.leaf_bits > 0, args)(*args)
        last = time.perf_counter() - t0
        reached = d
    assert found is not None
    vals = found.tolist()
    if legal is None:
        legal = [a for a in range(4) if vals[a] != -math.inf]
        if not legal:
            raise ValueError("no legal move: the game is over")
    # A wide board was searched capped: keep only moves legal on the exact one. Ties go to the
    # lowest action; a capped board may even think every exactly legal move is illegal.
    best = legal[0]
    for a in legal:
        if vals[a] > vals[best]:
            best = a
    counts = stats.tolist()
    return SearchResult(
        action=best,
        value=vals[best],
        values=found,
        depth=reached,
        moves=counts[STAT_MOVES],
        leaves=counts[STAT_LEAVES],
        chance_nodes=counts[STAT_CHANCE],
        table_hits=counts[STAT_HITS],
        leaf_hits=counts[STAT_LEAF_HITS],
        seconds=time.perf_counter() - start,
    )


def best_action(board: Board, depth: int = 3, **kwargs: Any) -> tuple[int, float]:
    """The best legal move of ``board`` and its value: :func:`search` without the statistics."""
    result = search(board, depth, **kwargs)
    return result.action, result.value
