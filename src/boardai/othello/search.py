"""Alpha-beta search for Othello in compiled code: principal variation search (fail-soft
negamax, null windows after the first move) with a transposition table, move ordering,
multi-prob-cut (optional, :mod:`boardai.othello.probcut`), a node budget, aspiration windows
over iterative deepening, and an exact endgame solver.

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
:mod:`boardai.g2048.search`, the evaluator is an argument of the compiled kernels, so numba
specialises the search per evaluator; they take it as a :class:`~boardai.jitref.Ref`
(:class:`Searcher` wraps it), whose type names the function, so the search compiled for it is
cached on disk like any other kernel.

The endgame solver (:func:`solve`, :func:`solve_position`) searches to the end of the game with
the exact disc difference as the value: :mod:`boardai.othello.endgame` holds its kernels.

:class:`Searcher` wraps the kernels with iterative deepening and a time budget: each depth is
searched under a node limit from the measured speed, and the last finished depth decides.
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.intrinsics import borrow, borrow_all
from boardai.jitref import call, ref
from boardai.othello import evaluation as ev
from boardai.othello import probcut
from boardai.othello.endgame import solve_endgame
from boardai.othello.kernels import (
    CORNERS,
    PASS,
    legal_moves,
    lowest_square,
    play_bit,
    popcount,
)

#: A leaf evaluator: an ``@njit`` function ``evaluate(P, O, data) -> float`` (the module
#: docstring's contract); ``data`` is whatever numba-typable object the caller pairs with it.
Evaluator = Callable[[np.uint64, np.uint64, Any], float]

WIN_VALUE = 1e6
INF = 1e9
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_LOWER, _EXACT, _UPPER = 1, 2, 3
# stats slots
_NODES, _LIMIT, _ABORT, _EVALS = 0, 1, 2, 3  # the endgame solver's stats have the first 3
_MAX_MOVES = 34  # an Othello position has at most 33 legal moves
# Move ordering (see _order), by the plies left at a node: from _SHALLOW_FROM a search of each
# child (1 ply, one more for every _SHALLOW_STEP more plies), from _EVAL_SORT_FROM the child's
# static value, from 2 the replies it leaves the opponent. Chosen by the evaluations and nodes
# to a fixed depth of benchmarks/othello_midgame.py (docs/journal/benchmarks-journal.md,
# "midgame search").
_SHALLOW_FROM, _SHALLOW_STEP = 8, 3
_EVAL_SORT_FROM = 5


def value_in_discs(value: float) -> float:
    """A search value with a finished game's ``±WIN_VALUE`` taken off (:func:`terminal_value`):
    the disc difference of a game the search saw end, else the value as it is."""
    if value >= WIN_VALUE / 2:
        return value - WIN_VALUE
    if value <= -WIN_VALUE / 2:
        return value + WIN_VALUE
    return value


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
    """The first slot of the position's two-slot bucket (``mask`` = table size - 2)."""
    h = P * np.uint64(0x9E37_79B9_7F4A_7C15) ^ (O * np.uint64(0xC2B2_AE3D_27D4_EB4F))
    return np.int64((h ^ (h >> np.uint64(29))) & mask)


@njit
def _tt_find(P: np.uint64, O: np.uint64, keys: np.ndarray) -> np.int64:
    """The slot holding the position, or -1."""
    slot = _tt_slot(P, O, np.uint64(keys.shape[0] - 2))
    for s in range(slot, slot + 2):
        if keys[s, 0] == P and keys[s, 1] == O:
            return np.int64(s)
    return np.int64(-1)


@njit
def _tt_store(
    P: np.uint64,
    O: np.uint64,
    depth: np.int64,
    value: float,
    flag: np.int64,
    move: np.int64,
    keys: np.ndarray,
    vals: np.ndarray,
    info: np.ndarray,
    gen: np.int64,
) -> None:
    """Store a result. A bucket holds two entries: the first keeps the deepest result of the
    current search (an older search's entry gives way), the second takes the rest."""
    slot = _tt_slot(P, O, np.uint64(keys.shape[0] - 2))
    in_first = keys[slot, 0] == P and keys[slot, 1] == O
    in_second = keys[slot + 1, 0] == P and keys[slot + 1, 1] == O
    first_gives_way = info[slot, 3] != gen or info[slot, 0] <= depth
    s = slot if in_first or (not in_second and first_gives_way) else slot + 1
    keys[s, 0] = P
    keys[s, 1] = O
    vals[s] = value
    info[s, 0] = depth
    info[s, 1] = flag
    info[s, 2] = move
    info[s, 3] = gen


@njit(inline="always")  # inlined: no mutual recursion (numba cannot cache that)
def _order(
    P: np.uint64,
    O: np.uint64,
    moves: np.uint64,
    depth: np.int64,
    first: np.int64,
    evaluate: Any,
    data: Any,
    keys: np.ndarray,
    vals: np.ndarray,
    info: np.ndarray,
    gen: np.int64,
    stats: np.ndarray,
    mpc: Any,
    sqs: np.ndarray,
) -> np.int64:
    """Write the moves into ``sqs`` best first and return how many there are.

    ``first`` (the table's move) leads; the rest go, worst for the opponent first, by a shallow
    search of the child (``depth`` >= :data:`_SHALLOW_FROM`), by its static value (>=
    :data:`_EVAL_SORT_FROM`), or by the opponent's replies, corners counted twice (>= 2: an
    evaluation can cost 50 times a move). At depth 1 every child is a leaf: no order.
    """
    scores = np.empty(_MAX_MOVES, np.float64)
    n = 0
    shallow = (depth - _SHALLOW_FROM) // _SHALLOW_STEP + 1
    while moves:
        m = moves & (_ZERO - moves)
        moves ^= m
        s = np.int64(lowest_square(m))
        sqs[n] = s
        if s == first:
            scores[n] = -INF
        elif depth >= _SHALLOW_FROM:
            O2, P2 = play_bit(m, P, O)
            scores[n] = _pvs(
                O2, P2, -INF, INF, shallow, evaluate, data, keys, vals, info, gen, stats, mpc
            )
        elif depth >= _EVAL_SORT_FROM:
            O2, P2 = play_bit(m, P, O)
            stats[_EVALS] += 1
            scores[n] = call(evaluate, O2, P2, data)
        elif depth >= 2:
            O2, P2 = play_bit(m, P, O)
            r = legal_moves(O2, P2)
            scores[n] = np.float64(popcount(r) + popcount(r & CORNERS))
        else:
            scores[n] = 0.0
        n += 1
    if depth >= 2 or first >= 0:
        for i in range(1, n):  # insertion sort: stable, and n is small
            k = scores[i]
            s = sqs[i]
            j = i - 1
            while j >= 0 and scores[j] > k:
                scores[j + 1] = scores[j]
                sqs[j + 1] = sqs[j]
                j -= 1
            scores[j + 1] = k
            sqs[j + 1] = s
    return np.int64(n)


@njit(inline="always")  # inlined: no mutual recursion (numba cannot cache that)
def _probcut(
    P: np.uint64,
    O: np.uint64,
    depth: np.int64,
    alpha: float,
    beta: float,
    evaluate: Any,
    data: Any,
    keys: np.ndarray,
    vals: np.ndarray,
    info: np.ndarray,
    gen: np.int64,
    stats: np.ndarray,
    mpc: Any,
) -> np.int64:
    """Multi-prob-cut (Buro): 1 if shallow searches say the ``depth``-ply value is at least
    ``beta`` with enough confidence, -1 if at most ``alpha``, 0 if they cannot tell.

    ``mpc`` is ``(t, stage_of, table)`` (see :mod:`boardai.othello.probcut`): for the stage
    ``stage_of[discs]`` and this depth, each row ``(d', a, b, sigma)`` of the table models the
    deep value as ``a * v' + b`` with an error of standard deviation ``sigma``, ``v'`` the
    ``d'``-ply value. A null-window search of ``d'`` plies tells whether ``v'`` reaches
    ``(beta + t * sigma - b) / a`` (then the deep value is likely >= ``beta``) or stays at or
    below ``(alpha - t * sigma - b) / a``; the rows are tried in turn (rows with ``d' < 0``
    are unused)."""
    t, stage_of, table = mpc
    stage = stage_of[popcount(P | O)]
    for k in range(table.shape[2]):
        shallow = np.int64(table[stage, depth, k, 0])
        if shallow < 0:
            break
        a = table[stage, depth, k, 1]
        b = table[stage, depth, k, 2]
        margin = t * table[stage, depth, k, 3]
        hi = (beta + margin - b) / a
        if hi < WIN_VALUE / 2:
            v = _pvs(
                P, O, np.nextafter(hi, -INF), hi, shallow, evaluate, data, keys, vals, info,
                gen, stats, mpc,
            )  # fmt: skip
            if stats[_ABORT]:
                return np.int64(0)
            if v >= hi:
                return np.int64(1)
        lo = (alpha - margin - b) / a
        if lo > -WIN_VALUE / 2:
            v = _pvs(
                P, O, lo, np.nextafter(lo, INF), shallow, evaluate, data, keys, vals, info,
                gen, stats, mpc,
            )  # fmt: skip
            if stats[_ABORT]:
                return np.int64(0)
            if v <= lo:
                return np.int64(-1)
    return np.int64(0)


@njit(inline="always")  # inlined: no mutual recursion (numba cannot cache that)
def _children(
    P: np.uint64,
    O: np.uint64,
    moves: np.uint64,
    first: np.int64,
    alpha: float,
    beta: float,
    depth: np.int64,
    evaluate: Any,
    data: Any,
    keys: np.ndarray,
    vals: np.ndarray,
    info: np.ndarray,
    gen: np.int64,
    stats: np.ndarray,
    mpc: Any,
) -> tuple[float, np.int64]:
    """(best value, its square) over the ``moves``, tried in :func:`_order`'s order (``first``,
    the table's move, leads): principal variation search, fail-soft, to a beta cut-off. The
    first move is searched in the full window, the others in a null window just above
    ``alpha`` that only tells whether one beats the best so far, and again in the full window
    when it does. If the search runs out of nodes (``stats[2]``) it stops there and the
    result must be ignored."""
    sqs = np.empty(_MAX_MOVES, np.int64)
    n = _order(P, O, moves, depth, first, evaluate, data, keys, vals, info, gen, stats, mpc, sqs)
    best = -INF
    best_sq = sqs[0]
    for k in range(n):
        s = sqs[k]
        O2, P2 = play_bit(_ONE << np.uint64(s), P, O)
        if k == 0:
            v = -_pvs(
                O2, P2, -beta, -alpha, depth - 1, evaluate, data, keys, vals, info, gen, stats, mpc
            )
        else:
            edge = np.nextafter(alpha, INF)
            v = -_pvs(
                O2, P2, -edge, -alpha, depth - 1, evaluate, data, keys, vals, info, gen, stats, mpc
            )
            if alpha < v < beta and not stats[_ABORT]:
                v = -_pvs(
                    O2, P2, -beta, -alpha, depth - 1, evaluate, data, keys, vals, info, gen,
                    stats, mpc,
                )  # fmt: skip
        if stats[_ABORT]:
            break
        if v > best:
            best = v
            best_sq = s
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best, best_sq


@njit
def _pvs(
    P: np.uint64,
    O: np.uint64,
    alpha: float,
    beta: float,
    depth: np.int64,
    evaluate: Any,
    data: Any,
    keys: np.ndarray,
    vals: np.ndarray,
    info: np.ndarray,
    gen: np.int64,
    stats: np.ndarray,
    mpc: Any,
) -> float:
    """Fail-soft principal variation search: the value if it lies in ``(alpha, beta)``, else
    a bound on the same side of the window."""
    stats[_NODES] += 1
    if stats[_NODES] > stats[_LIMIT]:
        stats[_ABORT] = 1
        return 0.0
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            return terminal_value(P, O)
        if depth == 0:
            stats[_EVALS] += 1
            return call(evaluate, P, O, data)
        return -_pvs(
            O, P, -beta, -alpha, depth - 1, evaluate, data, keys, vals, info, gen, stats, mpc
        )
    if depth == 0:
        stats[_EVALS] += 1
        return call(evaluate, P, O, data)

    alpha0 = alpha
    first = np.int64(-1)
    slot = np.int64(-1)
    if depth >= 2:  # below, a table costs more than it saves
        slot = _tt_find(P, O, keys)
    if slot >= 0:
        first = info[slot, 2]
        if info[slot, 0] >= depth:
            v = vals[slot]
            flag = info[slot, 1]
            if flag == _EXACT:
                return v
            if flag == _LOWER and v > alpha:
                alpha = v
            elif flag == _UPPER and v < beta:
                beta = v
            if alpha >= beta:
                return v
    if (
        mpc[0] > 0.0
        and depth < mpc[2].shape[1]
        and beta <= np.nextafter(alpha, INF)  # a null window: not on the principal variation
        and abs(alpha) < WIN_VALUE / 2
    ):
        cut = _probcut(P, O, depth, alpha, beta, evaluate, data, keys, vals, info, gen, stats, mpc)
        if stats[_ABORT]:
            return 0.0
        if cut > 0:
            return beta
        if cut < 0:
            return alpha

    best, best_sq = _children(
        P, O, moves, first, alpha, beta, depth, evaluate, data, keys, vals, info, gen, stats, mpc
    )
    if stats[_ABORT]:
        return 0.0
    if depth >= 2:
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        _tt_store(P, O, depth, best, flag, best_sq, keys, vals, info, gen)
    return best


@njit
def search_root(
    P: np.uint64,
    O: np.uint64,
    depth: np.int64,
    alpha: float,
    beta: float,
    evaluate: Any,
    data: Any,
    keys: np.ndarray,
    vals: np.ndarray,
    info: np.ndarray,
    gen: np.int64,
    stats: np.ndarray,
    mpc: Any,
) -> tuple[np.int64, float]:
    """(best action, its value) of a ``depth``-ply search in the window ``(alpha, beta)``.

    The value is exact if it lies inside the window; at or below ``alpha`` it is an upper
    bound (no move reached ``alpha``, and the action is only the first tried), at or above
    ``beta`` a lower bound reached by the action. ``stats[2]`` is set if the search ran out of
    nodes (``stats[1]``); the result must then be ignored. A finished game gives action -1.
    ``keys``/``vals``/``info`` are the transposition table (see :class:`Searcher`), ``gen``
    the number of the current search.
    """
    keys, vals, info, stats = borrow(keys), borrow(vals), borrow(info), borrow(stats)
    data, mpc = borrow_all(data), borrow_all(mpc)
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            return np.int64(-1), terminal_value(P, O)
        v = -_pvs(O, P, -beta, -alpha, depth - 1, evaluate, data, keys, vals, info, gen, stats, mpc)
        return np.int64(PASS), v
    stats[_NODES] += 1
    slot = _tt_find(P, O, keys)
    first = info[slot, 2] if slot >= 0 else np.int64(-1)
    best, best_sq = _children(
        P, O, moves, first, alpha, beta, depth, evaluate, data, keys, vals, info, gen, stats, mpc
    )
    if stats[_ABORT]:
        return best_sq, best
    flag = _UPPER if best <= alpha else _LOWER if best >= beta else _EXACT
    _tt_store(P, O, depth, best, flag, best_sq, keys, vals, info, gen)
    return best_sq, best


@njit
def solve_window(
    P: np.uint64,
    O: np.uint64,
    lo: np.int64,
    hi: np.int64,
    stats: np.ndarray,
    order: Any = None,
    order_data: Any = None,
) -> tuple[np.int64, np.int64]:
    """(best action, final disc difference for the mover) searched in the window ``(lo, hi)``:
    exact if it falls inside, else a bound (``<= lo`` or ``>= hi``) and an action reaching it.
    A finished game gives action -1, a mover with no square :data:`PASS`. ``stats[2]`` is set
    if the node limit ``stats[1]`` was hit (the result must then be ignored). The search is
    :func:`boardai.othello.endgame.solve_endgame` with a table sized for the empties;
    ``order`` and ``order_data``, an evaluation in discs (a fitted network, see
    :func:`solver_order`), help order its moves: the values stay exact either way."""
    empties = 64 - np.int64(popcount(P | O))
    bits = min(max(int(empties), 12), 21)
    tt = np.zeros((1 << bits, 3), np.uint64)
    return solve_endgame(P, O, lo, hi, stats, tt, order, order_data)


@njit
def solve(
    P: np.uint64, O: np.uint64, stats: np.ndarray, order: Any = None, order_data: Any = None
) -> tuple[np.int64, np.int64]:
    """(best action, exact final disc difference for the mover with perfect play); a finished
    game gives action -1. ``stats[2]`` is set if the node limit ``stats[1]`` was hit."""
    return solve_window(P, O, np.int64(-64), np.int64(64), stats, order, order_data)


def solver_order(network: Any, data: tuple[Any, ...] | None = None) -> tuple[Any, Any] | None:
    """The endgame solver's move-ordering evaluation for an n-tuple ``network``: ``(evaluate,
    data)`` if it is valued in discs (``linear``, a fitted network), else None (the order's
    other keys alone). The data is the network's own weights with a scratch array of its own,
    so that a solve never shares one with a search that may run beside it; ``data``, the
    network's :func:`~boardai.othello.ntuple_eval.search_data` if built already, lends its
    tables."""
    if network is None or not network.linear:
        return None
    from boardai.othello.ntuple_eval import evaluate_ntuple, own_scratch, search_data

    return ref(evaluate_ntuple), search_data(network) if data is None else own_scratch(data)


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
    order: tuple[Any, Any] | None = None,
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
    ordering = (None, None) if order is None else order

    def work() -> None:
        a, v = solve_window(np.uint64(mover), np.uint64(opponent), lo, hi, stats, *ordering)
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
    evaluations: int = 0  #: calls of the evaluator (the search's main cost with a network)


def endgame_empties(seconds: float) -> int:
    """Empty squares from which the endgame solver usually finishes within a third of
    ``seconds``: 18 at 0.9 s, 16 at 0.1 s, 20 at 5 s.

    On self-play positions of the shipped n-tuple network (8 games, one thread of a loaded
    2-core box) a solve took a median of 0.15 s at 18 empties and about 2.6 times longer for
    each empty more (docs/journal/benchmarks-journal.md, "midgame search").
    """
    if seconds <= 0:
        return 0
    return max(0, 18 + math.floor(math.log(seconds / 3 / 0.15) / math.log(2.6)))


class _Watchdog:
    """Holds compiled searches to wall-clock deadlines. Their node budgets come from speeds
    measured on earlier searches, which a busy machine can halve in the middle of a move; so
    from its deadline on, a thread sets the node limit of each stats array it watches to 0
    (the kernels release the GIL and compare the count with the limit at every node), again
    every few milliseconds, as each new depth sets a limit of its own. No deadline: no thread."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.watched: list[tuple[np.ndarray, float]] = []
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, stats: np.ndarray, deadline: float | None = None) -> np.ndarray:
        """Stop the searches counting in ``stats`` at ``deadline`` (default: the whole
        search's; an array is not watched when neither is set)."""
        deadline = self.deadline if deadline is None else deadline
        if deadline is not None:
            self.watched.append((stats, deadline))
        return stats

    def _run(self) -> None:
        while True:
            now = time.perf_counter()
            wait = 0.01  # an array watched later may have an earlier deadline
            for stats, deadline in list(self.watched):
                if now >= deadline:
                    stats[_LIMIT] = 0
                    wait = 0.002
                else:
                    wait = min(wait, deadline - now)
            if self._done.wait(wait):
                return

    def __enter__(self) -> _Watchdog:
        if self.deadline is not None:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()


class Searcher:
    """Iterative deepening with aspiration windows and a time budget over the compiled search.

    Depth 1, 2, ... are searched in turn, all sharing one transposition table (kept from move
    to move too; :meth:`clear` empties it): each depth finds the previous depth's best move in
    the table and tries it first. From depth 2 on, the root is searched in a window of
    ``± window`` around the previous depth's value, widened (four times as wide each time)
    when the value falls outside it.

    Args:
        evaluator: the ``@njit`` leaf evaluator (see the module docstring); default: the
            Othello League's weighted piece counter,
            :func:`boardai.othello.evaluation.evaluate_wpc`.
        data: passed to ``evaluator`` untouched (default: the WPC weights, as a 1-tuple).
        tt_bits: the transposition table holds ``2**tt_bits`` entries.
        window: half-width of the first aspiration window, in evaluation units (0: none).
        mpc: multi-prob-cut's parameters, :func:`boardai.othello.probcut.table` (None: off).
            The endgame solver never cuts: its values stay exact.
        order: the endgame solver's move-ordering evaluation, ``(evaluate, data)`` from
            :func:`solver_order` (None: its other keys alone).
    """

    def __init__(
        self,
        evaluator: Evaluator | None = None,
        data: object = None,
        tt_bits: int = 18,
        window: float = 30.0,
        mpc: tuple[float, np.ndarray, np.ndarray] | None = None,
        order: tuple[Any, Any] | None = None,
    ) -> None:
        if evaluator is None:
            evaluator, data = ev.evaluate_wpc, ev.wpc_data()
        self.evaluator = ref(evaluator)
        self.data = data
        self.window = window
        self.mpc = probcut.off() if mpc is None else mpc
        self.order = (None, None) if order is None else order
        self.tt_keys = np.zeros((1 << tt_bits, 2), np.uint64)
        self.tt_vals = np.zeros(1 << tt_bits, np.float64)
        self.tt_info = np.zeros((1 << tt_bits, 4), np.int64)  # depth, bound, move, search
        self.generation = 0
        self.nps = 1e6  # nodes per second, re-measured every search
        self.solve_nps = 1e7  # the same for the endgame solver

    def clear(self) -> None:
        """Empty the transposition table."""
        self.tt_keys[:] = 0
        self.tt_info[:] = 0

    def search(
        self,
        mover: int,
        opponent: int,
        depth: int,
        seconds: float | None = None,
        endgame: int = 0,
        nodes: int | None = None,
    ) -> SearchResult:
        """Search to ``depth`` plies (deepening 1, 2, ...), or until ``seconds`` run out, or
        about ``nodes`` nodes (a limit that, unlike time, gives the same move on every run).

        With ``endgame`` or fewer empty squares the endgame solver takes over; under a time
        budget only from :func:`endgame_empties` of it, and with at most three quarters of
        it: a solve that does not finish leaves the rest to the midgame search. A depth cut
        short by a limit still counts where it tells a move (see :meth:`_iteration`)."""
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        with _Watchdog(deadline) as watchdog:
            return self._search(mover, opponent, depth, endgame, seconds, deadline, watchdog, nodes)

    def _search(
        self,
        mover: int,
        opponent: int,
        depth: int,
        endgame: int,
        seconds: float | None,
        deadline: float | None,
        watchdog: _Watchdog,
        node_limit: int | None,
    ) -> SearchResult:
        P, O = np.uint64(mover), np.uint64(opponent)
        cap = (1 << 62) if node_limit is None else max(int(node_limit), 1)
        start = time.perf_counter()
        empties = 64 - (mover | opponent).bit_count()
        if seconds is not None:
            endgame = min(endgame, endgame_empties(seconds))
        if endgame and empties <= endgame:
            solve_by = None if seconds is None else start + 0.75 * seconds
            stats = watchdog.watch(np.zeros(3, np.int64), solve_by)
            stats[_LIMIT] = min(
                cap, 1 << 62 if seconds is None else max(int(0.75 * seconds * self.solve_nps), 1000)
            )
            a, v = solve(P, O, stats, *self.order)
            spent = time.perf_counter() - start
            if stats[_NODES] >= 1_000_000 and spent > 0.01:
                self.solve_nps = stats[_NODES] / spent
            if not stats[_ABORT]:
                return SearchResult(int(a), float(v), empties, int(stats[_NODES]), True)
        self.generation += 1
        # nodes, limit, aborted, evaluations: over all depths
        stats = watchdog.watch(np.zeros(4, np.int64))
        result = None
        for d in range(1, max(depth, 1) + 1):
            t0 = time.perf_counter()
            n0 = int(stats[_NODES])
            found = self._iteration(P, O, d, result, deadline, stats, cap)
            spent = time.perf_counter() - t0
            if stats[_NODES] - n0 >= 20_000 and spent > 0.01:  # small searches time overhead
                self.nps = (stats[_NODES] - n0) / spent
            if found is None:
                if result is not None:
                    break
                spare = np.zeros(4, np.int64)  # unwatched: depth 1 always finishes
                found = self._iteration(P, O, d, None, None, spare, 1 << 62)
                assert found is not None
                stats[_NODES] += spare[_NODES]
                stats[_EVALS] += spare[_EVALS]
            nodes, evals = int(stats[_NODES]), int(stats[_EVALS])
            result = SearchResult(found[0], found[1], d, nodes, False, evals)
            if stats[_ABORT]:
                break  # a depth cut short that still told a move (see _iteration)
            if deadline is not None and time.perf_counter() + 2 * spent > deadline:
                break  # the next depth would not finish
            if d >= 2 * empties:  # to the end of the game, passes included
                break
        assert result is not None
        return result

    def _iteration(
        self,
        P: np.uint64,
        O: np.uint64,
        depth: int,
        previous: SearchResult | None,
        deadline: float | None,
        stats: np.ndarray,
        cap: int,
    ) -> tuple[int, float] | None:
        """(action, value) of one depth; ``stats`` counts on, to at most ``cap`` nodes in all.

        If the time or the nodes run out first (``stats[2]`` is then left set), what the depth
        found so far, where it says anything: a root move searched to the end at this depth whose
        value beat the window's low end (the previous depth's best move, which the table puts
        first, confirmed, or another that proved better), or one whose value failed high
        before a wider window was tried. Else None (a forced pass too: its value is unknown)."""
        width = self.window
        lo, hi = -INF, INF
        if previous is not None and width > 0 and abs(previous.value) < WIN_VALUE / 2:
            lo, hi = previous.value - width, previous.value + width
        high: tuple[int, float] | None = None
        while True:
            stats[_LIMIT] = min(cap, stats[_NODES] + self._limit(deadline, 1 << 62))
            stats[_ABORT] = 0
            a, v = search_root(
                P, O, depth, lo, hi, self.evaluator, self.data,
                self.tt_keys, self.tt_vals, self.tt_info, self.generation, stats, self.mpc,
            )  # fmt: skip
            if stats[_ABORT]:
                # the root keeps the best of the moves it searched to the end (-INF: none)
                return (int(a), float(v)) if v > lo and a != PASS else high
            width *= 4
            if v <= lo:
                lo = -INF if width > 1e3 * self.window else v - width
            elif v >= hi:
                high = int(a), float(v)
                hi = INF if width > 1e3 * self.window else v + width
            else:
                return int(a), float(v)

    def _limit(self, deadline: float | None, cap: int) -> int:
        if deadline is None:
            return cap
        left = max(deadline - time.perf_counter(), 0.0)
        return max(int(left * self.nps), 1000)
