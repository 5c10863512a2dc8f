"""Alpha-beta search for Othello in compiled code: negamax with a transposition table, move
ordering, a node budget, and an exact endgame solver.

Values are from the mover's point of view. A finished game is worth ``±WIN_VALUE`` plus the
final disc difference (so any win beats any evaluation); other leaves take the evaluator's
value. A pass is a ply.

Evaluator contract
------------------
The search values its leaves through an ``@njit`` function::

    evaluate(P: uint64, O: uint64, data) -> float64

(the mover's and the opponent's bitboards; the value for the mover, well inside
``±WIN_VALUE``). ``data`` is any numba-typable object (a tuple of arrays, say) that the search
passes through untouched. The evaluators live beside their data:
:func:`boardai.othello.evaluation.evaluate_wpc` and
:func:`~boardai.othello.evaluation.evaluate_classic` (hand-made),
:func:`boardai.othello.ntuple_eval.evaluate_ntuple` (a learned network). As in
:mod:`boardai.g2048.search`, the evaluator is a first-class argument of the compiled kernels,
so numba specialises the search per evaluator; such code cannot be cached on disk, so the
search kernels are compiled with ``cache=False`` (once per process and evaluator, a few
seconds); the kernels they call are cached as usual.

The endgame solver (:func:`solve`, :func:`solve_position`) searches to the end of the game with
the exact disc difference as the value: :mod:`boardai.othello.endgame` holds its kernels.

:class:`Searcher` wraps the kernels with iterative deepening and a time budget: each depth is
searched under a node limit from the measured speed, and the last finished depth decides.
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.othello import evaluation as ev
from boardai.othello.endgame import solve_endgame
from boardai.othello.kernels import (
    PASS,
    legal_moves,
    lowest_square,
    play_bit,
    popcount,
)

WIN_VALUE = 1e6
INF = 1e9
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_LOWER, _EXACT, _UPPER = 1, 2, 3
# stats slots
_NODES, _LIMIT, _ABORT = 0, 1, 2
_MAX_MOVES = 34  # an Othello position has at most 33 legal moves


@njit
def terminal_value(P: np.uint64, O: np.uint64) -> float:
    """Search value of a finished game: ``±WIN_VALUE`` plus the disc difference (0 a draw)."""
    p = np.int64(popcount(P))
    o = np.int64(popcount(O))
    e = 64 - p - o
    if p > o:
        return WIN_VALUE + np.float64(p - o + e)
    if p < o:
        return -WIN_VALUE + np.float64(p - o - e)
    return 0.0


@njit
def _tt_slot(P: np.uint64, O: np.uint64, mask: np.uint64) -> np.int64:
    h = P * np.uint64(0x9E37_79B9_7F4A_7C15) ^ (O * np.uint64(0xC2B2_AE3D_27D4_EB4F))
    return np.int64((h ^ (h >> np.uint64(29))) & mask)


@njit(cache=False)
def _negamax(
    P: np.uint64,
    O: np.uint64,
    depth: np.int64,
    alpha: float,
    beta: float,
    evaluate: Any,
    data: Any,
    tt_keys: np.ndarray,
    tt_vals: np.ndarray,
    tt_info: np.ndarray,
    stats: np.ndarray,
) -> float:
    stats[_NODES] += 1
    if stats[_NODES] > stats[_LIMIT]:
        stats[_ABORT] = 1
        return 0.0
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            return terminal_value(P, O)
        if depth == 0:
            return evaluate(P, O, data)
        return -_negamax(
            O,
            P,
            depth - 1,
            -beta,
            -alpha,
            evaluate,
            data,
            tt_keys,
            tt_vals,
            tt_info,
            stats,
        )
    if depth == 0:
        return evaluate(P, O, data)

    alpha0 = alpha
    slot = _tt_slot(P, O, np.uint64(tt_vals.shape[0] - 1))
    tt_move = np.int64(-1)
    if tt_keys[slot, 0] == P and tt_keys[slot, 1] == O:
        tt_move = tt_info[slot, 2]
        if tt_info[slot, 0] >= depth:
            v = tt_vals[slot]
            flag = tt_info[slot, 1]
            if flag == _EXACT:
                return v
            if flag == _LOWER and v > alpha:
                alpha = v
            elif flag == _UPPER and v < beta:
                beta = v
            if alpha >= beta:
                return v

    # Order: the table's move first, then children by static value (worst for the opponent first).
    sqs = np.empty(_MAX_MOVES, np.int64)
    keys = np.empty(_MAX_MOVES, np.float64)
    n = 0
    while moves:
        m = moves & (_ZERO - moves)
        moves ^= m
        s = np.int64(lowest_square(m))
        sqs[n] = s
        if s == tt_move:
            keys[n] = -INF
        elif depth >= 2:
            O2, P2 = play_bit(m, P, O)
            keys[n] = evaluate(O2, P2, data)
        else:
            keys[n] = 0.0
        n += 1
    order = np.argsort(keys[:n])

    best = -INF
    best_sq = sqs[order[0]]
    for k in range(n):
        s = sqs[order[k]]
        O2, P2 = play_bit(_ONE << np.uint64(s), P, O)
        v = -_negamax(
            O2,
            P2,
            depth - 1,
            -beta,
            -alpha,
            evaluate,
            data,
            tt_keys,
            tt_vals,
            tt_info,
            stats,
        )
        if stats[_ABORT]:
            return 0.0
        if v > best:
            best = v
            best_sq = s
        if v > alpha:
            alpha = v
        if alpha >= beta:
            break

    tt_keys[slot, 0] = P
    tt_keys[slot, 1] = O
    tt_vals[slot] = best
    tt_info[slot, 0] = depth
    tt_info[slot, 1] = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
    tt_info[slot, 2] = best_sq
    return best


@njit(cache=False)
def search_root(
    P: np.uint64,
    O: np.uint64,
    depth: np.int64,
    evaluate: Any,
    data: Any,
    tt_keys: np.ndarray,
    tt_vals: np.ndarray,
    tt_info: np.ndarray,
    stats: np.ndarray,
) -> tuple[np.int64, float]:
    """(best action, its value) of a ``depth``-ply search; ``stats[2]`` is set if it ran out of
    nodes (``stats[1]``), and the result must then be ignored."""
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            return np.int64(-1), terminal_value(P, O)
        v = -_negamax(
            O,
            P,
            depth - 1,
            -INF,
            INF,
            evaluate,
            data,
            tt_keys,
            tt_vals,
            tt_info,
            stats,
        )
        return np.int64(PASS), v
    # The root is searched with a full window: its value is exact (and its move goes in the table).
    slot = _tt_slot(P, O, np.uint64(tt_vals.shape[0] - 1))
    first = np.int64(-1)
    if tt_keys[slot, 0] == P and tt_keys[slot, 1] == O:
        first = tt_info[slot, 2]
    best = -INF
    best_sq = np.int64(-1)
    alpha = -INF
    for rnd in range(2):
        x = moves
        while x:
            m = x & (_ZERO - x)
            x ^= m
            s = np.int64(lowest_square(m))
            if (rnd == 0) != (s == first):
                continue
            O2, P2 = play_bit(m, P, O)
            v = -_negamax(
                O2,
                P2,
                depth - 1,
                -INF,
                -alpha,
                evaluate,
                data,
                tt_keys,
                tt_vals,
                tt_info,
                stats,
            )
            if stats[_ABORT]:
                return best_sq, best
            if v > best:
                best = v
                best_sq = s
                alpha = v
    tt_keys[slot, 0] = P
    tt_keys[slot, 1] = O
    tt_vals[slot] = best
    tt_info[slot, 0] = depth
    tt_info[slot, 1] = _EXACT
    tt_info[slot, 2] = best_sq
    return best_sq, best


@njit
def solve_window(
    P: np.uint64, O: np.uint64, lo: np.int64, hi: np.int64, stats: np.ndarray
) -> tuple[np.int64, np.int64]:
    """(best action, final disc difference for the mover) searched in the window ``(lo, hi)``:
    exact if it falls inside, else a bound (``<= lo`` or ``>= hi``) and an action reaching it.
    A finished game gives action -1, a mover with no square :data:`PASS`. ``stats[2]`` is set
    if the node limit ``stats[1]`` was hit (the result must then be ignored). The search is
    :func:`boardai.othello.endgame.solve_endgame` with a table sized for the empties."""
    empties = 64 - np.int64(popcount(P | O))
    bits = min(max(int(empties), 12), 21)
    return solve_endgame(P, O, lo, hi, stats, np.zeros((1 << bits, 3), np.uint64))


@njit
def solve(P: np.uint64, O: np.uint64, stats: np.ndarray) -> tuple[np.int64, np.int64]:
    """(best action, exact final disc difference for the mover with perfect play); a finished
    game gives action -1. ``stats[2]`` is set if the node limit ``stats[1]`` was hit."""
    return solve_window(P, O, np.int64(-64), np.int64(64), stats)


@dataclass
class SolveResult:
    """What one exact solve found."""

    action: int  #: a best action (:data:`PASS` if the mover must pass, -1 if the game is over)
    score: int  #: final disc difference for the mover; with ``wld`` only its sign (-1, 0, 1)
    nodes: int
    seconds: float
    complete: bool  #: False if a node or time limit stopped it (score and action are then -)


def solve_position(
    mover: int,
    opponent: int,
    *,
    wld: bool = False,
    max_nodes: int | None = None,
    seconds: float | None = None,
) -> SolveResult:
    """Solve a position exactly (or only win/loss/draw with ``wld``, which is faster).

    The compiled solver runs in a worker thread (it releases the GIL) so that a time limit and
    Ctrl-C can stop it: both set its node limit to zero. On Ctrl-C the solver is stopped first
    and the ``KeyboardInterrupt`` then goes on to the caller.

    >>> r = solve_position((1 << 60) - 1, 0b111 << 60)  # h8 empty: playing it wins 64-0
    >>> r.action, r.score
    (63, 64)
    """
    import threading

    stats = np.zeros(3, np.int64)
    stats[_LIMIT] = (1 << 62) if max_nodes is None else max_nodes
    lo, hi = (-1, 1) if wld else (-64, 64)
    out: list[tuple[int, int]] = []

    def work() -> None:
        a, v = solve_window(np.uint64(mover), np.uint64(opponent), lo, hi, stats)
        out.append((int(a), int(v)))

    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
            if deadline is not None and time.perf_counter() > deadline:
                stats[_LIMIT] = 0
    except KeyboardInterrupt:
        stats[_LIMIT] = 0
        worker.join()
        raise
    spent = time.perf_counter() - start
    action, score = out[0]
    if wld:
        score = (score > 0) - (score < 0)
    return SolveResult(action, score, int(stats[_NODES]), spent, not stats[_ABORT])


@dataclass
class SearchResult:
    """What one move's search found."""

    action: int
    value: float
    depth: int
    nodes: int
    exact: bool  #: solved by the endgame solver (value is the final disc difference)


class Searcher:
    """Iterative deepening with a time budget over the compiled search.

    Args:
        evaluator: the ``@njit`` leaf evaluator (see the module docstring); default: the
            Othello League's weighted piece counter,
            :func:`boardai.othello.evaluation.evaluate_wpc`.
        data: passed to ``evaluator`` untouched (default: the WPC weights, as a 1-tuple).
        tt_bits: the transposition table holds ``2**tt_bits`` entries.
    """

    def __init__(self, evaluator: Any = None, data: Any = None, tt_bits: int = 18) -> None:
        if evaluator is None:
            evaluator, data = ev.evaluate_wpc, ev.wpc_data()
        self.evaluator = evaluator
        self.data = data
        self.tt_keys = np.zeros((1 << tt_bits, 2), np.uint64)
        self.tt_vals = np.zeros(1 << tt_bits, np.float64)
        self.tt_info = np.zeros((1 << tt_bits, 3), np.int64)
        self.nps = 1e6  # nodes per second, re-measured every search

    def clear(self) -> None:
        """Empty the transposition table."""
        self.tt_keys[:] = 0

    def search(
        self,
        mover: int,
        opponent: int,
        depth: int,
        seconds: float | None = None,
        endgame: int = 0,
    ) -> SearchResult:
        """Search to ``depth`` plies (deepening 1, 2, ...), or until ``seconds`` run out;
        with ``endgame`` or fewer empty squares, solve exactly instead."""
        P, O = np.uint64(mover), np.uint64(opponent)
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        stats = np.zeros(3, np.int64)
        empties = 64 - (mover | opponent).bit_count()
        if endgame and empties <= endgame:
            stats[_LIMIT] = self._limit(deadline, 1 << 62)
            a, v = solve(P, O, stats)
            if not stats[_ABORT]:
                return SearchResult(int(a), float(v), empties, int(stats[_NODES]), True)
        result = None
        total = 0
        for d in range(1, max(depth, 1) + 1):
            stats[:] = 0
            stats[_LIMIT] = self._limit(deadline, 1 << 62)
            t0 = time.perf_counter()
            a, v = search_root(
                P,
                O,
                d,
                self.evaluator,
                self.data,
                self.tt_keys,
                self.tt_vals,
                self.tt_info,
                stats,
            )
            spent = time.perf_counter() - t0
            total += int(stats[_NODES])
            if stats[_NODES] >= 20_000 and spent > 0.01:  # small searches time the overhead
                self.nps = stats[_NODES] / spent
            if stats[_ABORT] and result is not None:
                break
            result = SearchResult(int(a), float(v), d, total, False)
            if deadline is not None and time.perf_counter() + 2 * spent > deadline:
                break  # the next depth would not finish
            if d >= 2 * empties:  # to the end of the game, passes included
                break
        assert result is not None
        return result

    def _limit(self, deadline: float | None, cap: int) -> int:
        if deadline is None:
            return cap
        left = max(deadline - time.perf_counter(), 0.0)
        return max(int(left * self.nps), 1000)
