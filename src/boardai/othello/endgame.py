"""Exact Othello endgame solving in compiled code.

The value of a position is the final disc difference for the mover with perfect play (empty
squares to the winner). The search is a fail-soft alpha-beta tuned for the last 30 or so
empties, with the techniques of the strong endgame solvers (Edax, Zebra):

- special solvers for the last 6..1 empties that walk the empty squares instead of generating
  moves, order them by quadrant parity, and count the flips of the last move without making it
  (on a full board only the mover's discs matter: one table look-up per line through the
  square);
- flips from ray masks: the first disc that is not the opponent's along a ray is its lowest
  (or highest) set bit, so a direction costs a few instructions and no loop;
- above that, principal variation search (null windows after the first move) with a
  transposition table of bounds (each entry prefetched as the node starts), enhanced
  transposition cut-offs (a child's stored bound can cut before any move is searched; the
  children's entries are prefetched while the moves are ordered), stability cut-offs (the
  opponent's stable discs bound the score), and fastest-first ordering (fewest replies for the
  opponent, corners counted twice, then its potential mobility, a bonus for odd quadrants and
  corners), and from :data:`ORDER_EVAL_MIN` empties, when the solver is given one, an
  evaluation of each child in discs (a fitted network, as Edax orders its deep nodes by its
  evaluation): the values stay exact, the order alone changes.

Node counts (``stats[0]``) count every position the search visits, leaves included.
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from boardai._jit import njit
from boardai.jitref import call
from boardai.othello.kernels import PASS, final_score, legal_moves, lowest_square, popcount

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
# stats slots (as in boardai.othello.search)
_NODES, _LIMIT, _ABORT = 0, 1, 2
_NO, _YES = np.int64(0), np.int64(1)  # "passed" flags (one type: one compiled version)

#: The search's kernels never allocate, so they run without numba's runtime: with it, every
#: call that passes an array counts a reference up and down again (two atomic operations per
#: array and call), some 5-10% of the solver's time on FFO #40-#42.
_kernel = njit(_nrt=False)
#: The same, and always inlined (LLVM's own choice leaves the flips a call at every use).
_inline_kernel = njit(_nrt=False, forceinline=True)


def _highest_square(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the highest set bit of a non-zero ``uint64`` (63 - ``lzcnt``)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return sig, codegen


#: ``highest_square(x)``: index of the highest set bit of a non-zero uint64 (compiled code).
highest_square: Any = intrinsic(_highest_square)


def _prefetch(typingctx, address):  # type: ignore[no-untyped-def]
    """Start loading the cache line at ``address`` (a uint64) for a read soon after."""
    sig = types.void(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ptr = builder.inttoptr(args[0], ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [ptr.type], fnty)
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


#: ``prefetch(address)``: a hint to fetch the cache line at ``address`` (compiled code).
prefetch: Any = intrinsic(_prefetch)


def _rays() -> np.ndarray:
    """uint64[64, 8]: the squares from each square to the edge in each direction (the square
    itself excluded); directions 0..3 go to higher indices (E, S, SE, SW), 4..7 to lower."""
    out = np.zeros((64, 8), np.uint64)
    steps = [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)]
    for sq in range(64):
        for d, (dr, dc) in enumerate(steps):
            r, c = divmod(sq, 8)
            bits = 0
            r, c = r + dr, c + dc
            while 0 <= r < 8 and 0 <= c < 8:
                bits |= 1 << (8 * r + c)
                r, c = r + dr, c + dc
            out[sq, d] = bits
    return out


RAYS = _rays()
#: The up to 8 squares around each square: a move there must touch an opponent disc.
NEIGHBOURS = np.array(
    [
        sum(
            1 << (8 * r + c)
            for r in range(sq // 8 - 1, sq // 8 + 2)
            for c in range(sq % 8 - 1, sq % 8 + 2)
            if 0 <= r < 8 and 0 <= c < 8 and 8 * r + c != sq
        )
        for sq in range(64)
    ],
    np.uint64,
)
#: The four 4x4 quadrants (parity ordering: play first where an odd number of squares is empty).
QUADRANTS = np.array(
    [0x0000_0000_0F0F_0F0F, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000, 0xF0F0_F0F0_0000_0000],
    np.uint64,
)
CORNERS = np.uint64(0x8100_0000_0000_0081)
COL_A = np.uint64(0x0101_0101_0101_0101)
COL_H = np.uint64(0x8080_8080_8080_8080)
ROW_1 = np.uint64(0x0000_0000_0000_00FF)
ROW_8 = np.uint64(0xFF00_0000_0000_0000)

#: At this many empties or fewer the general search hands over to the shallow solver (no move
#: generation, no table, parity order). 6 measured best on FFO #40-#42, CPU seconds side by
#: side: 5 took 1.08x the time of 6 (178.6M nodes against 190.7M on #41-#42); 7 1.02x (268.5M
#: nodes against 213.1M on #40-#42, each node cheaper).
SMALL = 6
#: From this many empties the transposition table and stability cut-offs are used.
TT_MIN = 7
#: From this many empties, enhanced transposition cut-offs (a table probe for each child).
ETC_MIN = 9
#: Weight of the opponent's potential mobility (empties next to the mover's discs) in the order
#: (FFO #40: 0: 24.4M nodes, 4: 23.0M, 8: 21.8M).
POTENTIAL_W = 8
#: From this many empties an evaluation of each child, when the solver is given one, joins the
#: order's key, weighted by ORDER_EVAL_W a disc (an evaluation's errors cost more than its time
#: high in the tree, where a node's subtree is large and a wrong first move costs the most).
#: Measured on FFO #40-#44 with the fitted network: nodes 358.0M without, 210.5M from 16 empties
#: at weight 8 (198.0M from 14, 234.5M from 18; weight 4: 214.7M, 16: 223.5M); an evaluation
#: alone instead of the mobility keys searched more (302.2M from 14, 293.8M from 16).
ORDER_EVAL_MIN = 16
ORDER_EVAL_W = 8.0


@_inline_kernel
def flips_at(sq: np.int64, P: np.uint64, O: np.uint64) -> np.uint64:
    """Discs of ``O`` flipped when the mover plays the (empty) square ``sq``.

    Branch free: along each ray the first square that is not the opponent's is the outflank
    square, kept only if the mover holds it (``o``); the flips are the ray's squares before it.
    """
    f = _ZERO
    notO = ~O
    rays = RAYS[sq]
    for d in range(4):  # rays to higher squares: the first non-opponent square is the lowest bit
        ray = rays[d]
        x = ray & notO
        o = x & (_ZERO - x) & P
        f |= (o - np.uint64(o != _ZERO)) & ray
    for d in range(4, 8):  # rays to lower squares: the highest bit (bit 0 stands in if none)
        ray = rays[d]
        x = ray & notO
        o = (_ONE << highest_square(x | _ONE)) & P & ray
        f |= ray & (_ZERO - (o << _ONE))
    return f


def _count_table() -> np.ndarray:
    """uint8[8, 256]: discs flipped on a full line of 8 by a move at position ``i`` when the
    mover holds the positions of ``x``'s set bits and the opponent all others (bit i aside)."""
    out = np.zeros((8, 256), np.uint8)
    for i in range(8):
        for x in range(256):
            n = 0
            for step in (1, -1):
                j = i + step
                while 0 <= j < 8 and not x >> j & 1:
                    j += step
                if 0 <= j < 8 and abs(j - i) > 1:
                    n += abs(j - i) - 1
            out[i, x] = n
    return out


COUNT_LAST = _count_table()


def _diagonals() -> np.ndarray:
    """uint64[64, 2]: the diagonal (step 9) and the anti-diagonal (step 7) through each square."""
    out = np.zeros((64, 2), np.uint64)
    for sq in range(64):
        r, c = divmod(sq, 8)
        for k, dc in enumerate((1, -1)):
            bits = 0
            for t in range(-7, 8):
                rr, cc = r + t, c + dc * t
                if 0 <= rr < 8 and 0 <= cc < 8:
                    bits |= 1 << (8 * rr + cc)
            out[sq, k] = bits
    return out


DIAGONALS = _diagonals()
_COL_GATHER = np.uint64(0x0102_0408_1020_4080)  # column bits (8 apart) to one byte, row r at bit r


@_inline_kernel
def _count_last(X: np.uint64, sq: np.int64) -> np.int64:
    """Discs flipped by a move at ``sq`` on a board full but for ``sq``, for the player whose
    discs are ``X`` (all others the opponent's): a table look-up per line through ``sq``."""
    r = sq >> 3
    c = sq & 7
    row = (X >> np.uint64(sq & 56)) & np.uint64(0xFF)
    col = (((X >> np.uint64(c)) & COL_A) * _COL_GATHER) >> np.uint64(56)
    d9 = ((X & DIAGONALS[sq, 0]) * COL_A) >> np.uint64(56)
    d7 = ((X & DIAGONALS[sq, 1]) * COL_A) >> np.uint64(56)
    return (
        np.int64(COUNT_LAST[c, row])
        + np.int64(COUNT_LAST[r, col])
        + np.int64(COUNT_LAST[c, d9])
        + np.int64(COUNT_LAST[c, d7])
    )


@_inline_kernel
def _last1(P: np.uint64, O: np.uint64, sq: np.int64) -> np.int64:
    """Exact score with the one empty square ``sq``: only the count of flips is needed."""
    p = np.int64(popcount(P))
    n = _count_last(P, sq)
    if n:
        return 2 * (p + n + 1) - 64
    n = _count_last(~P, sq)
    if n:
        return 2 * (p - n) - 64
    return 2 * p - 62 if 2 * p > 63 else 2 * p - 64  # nobody can play: the empty to the winner


@_kernel
def _parity(empty: np.uint64) -> np.uint64:
    """Squares of ``empty`` in quadrants with an odd number of empties."""
    odd = _ZERO
    for q in range(4):
        if popcount(empty & QUADRANTS[q]) & _ONE:
            odd |= QUADRANTS[q]
    return odd & empty


@_kernel
def _moves2(
    P: np.uint64, O: np.uint64, beta: np.int64, x1: np.int64, x2: np.int64, stats: np.ndarray
) -> np.int64:
    """Best score of the mover's moves with the two empties ``x1 < x2`` (-65: no move)."""
    best = np.int64(-65)
    if NEIGHBOURS[x1] & O:
        f = flips_at(x1, P, O)
        if f:
            stats[_NODES] += 1
            best = -_last1(O & ~f, P | f | (_ONE << np.uint64(x1)), x2)
            if best >= beta:
                return best
    if NEIGHBOURS[x2] & O:
        f = flips_at(x2, P, O)
        if f:
            stats[_NODES] += 1
            v = -_last1(O & ~f, P | f | (_ONE << np.uint64(x2)), x1)
            if v > best:
                best = v
    return best


@_kernel
def _last2(
    P: np.uint64,
    O: np.uint64,
    alpha: np.int64,
    beta: np.int64,
    empty: np.uint64,
    stats: np.ndarray,
) -> np.int64:
    """Exact score with the two empties of ``empty`` (fail-soft in ``(alpha, beta)``)."""
    stats[_NODES] += 1
    x1 = np.int64(lowest_square(empty))
    x2 = np.int64(lowest_square(empty & (empty - _ONE)))
    best = _moves2(P, O, beta, x1, x2, stats)
    if best > -65:
        return best
    stats[_NODES] += 1  # the pass
    v = _moves2(O, P, -alpha, x1, x2, stats)
    if v > -65:
        return -v
    return final_score(P, O)


@_kernel
def _small(
    P: np.uint64,
    O: np.uint64,
    alpha: np.int64,
    beta: np.int64,
    empty: np.uint64,
    passed: np.int64,
    stats: np.ndarray,
) -> np.int64:
    """Exact score with 2..:data:`SMALL` empties: tries each empty square (odd quadrants first);
    the last two empties go to :func:`_last2`."""
    n = popcount(empty)
    if n == 2:
        return _last2(P, O, alpha, beta, empty, stats)
    stats[_NODES] += 1
    best = np.int64(-65)
    odd = _parity(empty)
    x = odd
    even = empty & ~odd
    while True:
        if x == 0:  # the odd quadrants' squares are done: the others next
            if even == 0:
                break
            x = even
            even = _ZERO
        sq = np.int64(lowest_square(x))
        x &= x - _ONE
        if NEIGHBOURS[sq] & O == 0:
            continue
        f = flips_at(sq, P, O)
        if f == 0:
            continue
        bit = _ONE << np.uint64(sq)
        if n == 3:
            v = -_last2(O & ~f, P | f | bit, -beta, -alpha, empty & ~bit, stats)
        else:
            v = -_small(O & ~f, P | f | bit, -beta, -alpha, empty & ~bit, _NO, stats)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    return best
    if best == -65:  # no move
        if passed:
            return final_score(P, O)
        return -_small(O, P, -beta, -alpha, empty, _YES, stats)
    return best


@_kernel
def _safe_axis(
    filled: np.uint64, s: np.uint64, end_up: np.uint64, end_down: np.uint64
) -> np.uint64:
    """Squares that cannot be bracketed along the axis of step ``s``: its whole line is filled,
    or it has no neighbour on one side (``end_up``: none at +s, ``end_down``: none at -s)."""
    up = filled
    down = filled
    for _ in range(7):
        up = filled & (end_up | (up >> s))
        down = filled & (end_down | (down << s))
    return (up & down) | end_up | end_down


@_kernel
def _stable(O: np.uint64, filled: np.uint64) -> np.uint64:
    """Discs of ``O`` that can never be flipped (a subset: full lines, edges, and discs whose
    every line is full, off the board, or next to a stable disc of the same colour)."""
    safe_h = _safe_axis(filled, np.uint64(1), COL_H, COL_A)
    safe_v = _safe_axis(filled, np.uint64(8), ROW_8, ROW_1)
    safe_9 = _safe_axis(filled, np.uint64(9), COL_H | ROW_8, COL_A | ROW_1)
    safe_7 = _safe_axis(filled, np.uint64(7), COL_A | ROW_8, COL_H | ROW_1)
    stable = O & safe_h & safe_v & safe_9 & safe_7
    if stable == 0:
        return stable
    while True:
        h = safe_h | ((stable << np.uint64(1)) & ~COL_A) | ((stable >> np.uint64(1)) & ~COL_H)
        v = safe_v | (stable << np.uint64(8)) | (stable >> np.uint64(8))
        d9 = safe_9 | ((stable << np.uint64(9)) & ~COL_A) | ((stable >> np.uint64(9)) & ~COL_H)
        d7 = safe_7 | ((stable << np.uint64(7)) & ~COL_H) | ((stable >> np.uint64(7)) & ~COL_A)
        new = O & h & v & d9 & d7
        if new == stable:
            return stable
        stable = new


@_kernel
def _slot(P: np.uint64, O: np.uint64, mask: np.uint64) -> np.int64:
    h = P * np.uint64(0x9E37_79B9_7F4A_7C15) ^ (O * np.uint64(0xC2B2_AE3D_27D4_EB4F))
    return np.int64((h ^ (h >> np.uint64(29))) & mask)


@_inline_kernel
def _prefetch_slot(tt: np.ndarray, slot: np.int64) -> None:
    """Start loading a table entry: it is read a few hundred instructions later, and a table
    of millions of entries misses the cache on almost every probe."""
    prefetch(np.uint64(tt.ctypes.data) + np.uint64(tt.strides[0]) * np.uint64(slot))


@_kernel
def _around(x: np.uint64) -> np.uint64:
    """Squares next to a disc of ``x`` (in any of the 8 directions)."""
    w = (x >> np.uint64(1)) & ~COL_H
    e = (x << np.uint64(1)) & ~COL_A
    row = x | w | e
    return (row | (row << np.uint64(8)) | (row >> np.uint64(8))) & ~x


@_kernel
def _pack(lower: np.int64, upper: np.int64, move: np.int64) -> np.uint64:
    """One table word: lower and upper bounds (-64..64) and the best square (-1 if none)."""
    return (
        np.uint64(lower + 64)
        | np.uint64(upper + 64) << np.uint64(8)
        | np.uint64(move + 1) << np.uint64(16)
    )


@_kernel
def _unpack(word: np.uint64) -> tuple[np.int64, np.int64, np.int64]:
    """(lower, upper, move) of a table word from :func:`_pack`."""
    lower = np.int64(word & np.uint64(0xFF)) - 64
    upper = np.int64((word >> np.uint64(8)) & np.uint64(0xFF)) - 64
    return lower, upper, np.int64(word >> np.uint64(16)) - 1


@_kernel
def _search(
    P: np.uint64,
    O: np.uint64,
    alpha: np.int64,
    beta: np.int64,
    passed: np.int64,
    stats: np.ndarray,
    tt: np.ndarray,
    sq_buf: np.ndarray,
    key_buf: np.ndarray,
    flip_buf: np.ndarray,
    evaluate: Any,
    data: Any,
) -> np.int64:
    stats[_NODES] += 1
    if stats[_NODES] > stats[_LIMIT]:
        stats[_ABORT] = 1
        return np.int64(0)
    filled = P | O
    empty = ~filled
    n = np.int64(popcount(empty))
    if n <= SMALL:
        return _small(P, O, alpha, beta, empty, passed, stats)
    mask = np.uint64(tt.shape[0] - 1)
    if n >= TT_MIN:
        _prefetch_slot(tt, _slot(P, O, mask))
    moves = legal_moves(P, O)
    if moves == 0:
        if passed:
            return final_score(P, O)
        return -_search(
            O, P, -beta, -alpha, _YES, stats, tt, sq_buf, key_buf, flip_buf, evaluate, data
        )

    # Stability cut-off: the mover cannot end above 64 - 2 * (the opponent's stable discs).
    if n >= TT_MIN and alpha >= 64 - 2 * np.int64(popcount(O)):
        top = 64 - 2 * np.int64(popcount(_stable(O, filled)))
        if top <= alpha:
            return top

    slot = np.int64(-1)
    tt_move = np.int64(-1)
    if n >= TT_MIN:
        slot = _slot(P, O, mask)
        if tt[slot, 0] == P and tt[slot, 1] == O:
            lower, upper, tt_move = _unpack(tt[slot, 2])
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper

    # The move list, with ordering keys (lower first) and enhanced transposition cut-offs.
    odd = _parity(empty)
    k = 0
    if moves & (moves - _ONE) == 0:  # one move: nothing to order, no child to probe
        sq = np.int64(lowest_square(moves))
        bit = _ONE << np.uint64(sq)
        f = flips_at(sq, P, O)
        if n - 1 <= SMALL:
            v = -_small(O & ~f, P | f | bit, -beta, -alpha, empty & ~bit, _NO, stats)
        else:
            v = -_search(
                O & ~f,
                P | f | bit,
                -beta,
                -alpha,
                _NO,
                stats,
                tt,
                sq_buf,
                key_buf,
                flip_buf,
                evaluate,
                data,
            )
        if stats[_ABORT]:
            return np.int64(0)
        return v
    x = moves
    while x:
        sq = np.int64(lowest_square(x))
        x &= x - _ONE
        bit = _ONE << np.uint64(sq)
        f = flips_at(sq, P, O)
        P2 = P | f | bit
        O2 = O & ~f
        if n >= ETC_MIN:
            _prefetch_slot(tt, _slot(O2, P2, mask))
        sq_buf[n, k] = sq
        flip_buf[n, k] = f
        if sq == tt_move:
            key_buf[n, k] = -(1 << 20)
        else:
            reply = legal_moves(O2, P2)
            key = 16 * np.int64(popcount(reply) + popcount(reply & CORNERS))
            key += POTENTIAL_W * np.int64(popcount(_around(P2) & empty & ~bit))
            if bit & odd:
                key -= 10
            if bit & CORNERS:
                key -= 12
            if evaluate is not None and n >= ORDER_EVAL_MIN:
                key += np.int64(ORDER_EVAL_W * call(evaluate, O2, P2, data))
            key_buf[n, k] = key
        k += 1

    if n >= ETC_MIN:  # ETC: a child's stored upper bound may already refute it
        for i in range(k):
            bit = _ONE << np.uint64(sq_buf[n, i])
            f = flip_buf[n, i]
            P2 = P | f | bit
            O2 = O & ~f
            cs = _slot(O2, P2, mask)
            if tt[cs, 0] == O2 and tt[cs, 1] == P2:
                v = -_unpack(tt[cs, 2])[1]
                if v >= beta:
                    return v

    best = np.int64(-65)
    best_sq = np.int64(-1)
    alpha0 = alpha
    for i in range(k):
        # Select the next best move (cut-offs come early, so a full sort is wasted).
        j = i
        for t in range(i + 1, k):
            if key_buf[n, t] < key_buf[n, j]:
                j = t
        sq = sq_buf[n, j]
        f = flip_buf[n, j]
        key_buf[n, j] = key_buf[n, i]
        sq_buf[n, j] = sq_buf[n, i]
        flip_buf[n, j] = flip_buf[n, i]
        bit = _ONE << np.uint64(sq)
        P2 = P | f | bit
        O2 = O & ~f
        if n - 1 <= SMALL:
            v = -_small(O2, P2, -beta, -alpha, empty & ~bit, _NO, stats)
        elif i == 0:
            v = -_search(
                O2, P2, -beta, -alpha, _NO, stats, tt, sq_buf, key_buf, flip_buf, evaluate, data
            )
        else:
            v = -_search(
                O2,
                P2,
                -alpha - 1,
                -alpha,
                _NO,
                stats,
                tt,
                sq_buf,
                key_buf,
                flip_buf,
                evaluate,
                data,
            )
            if alpha < v < beta:
                v = -_search(
                    O2, P2, -beta, -v, _NO, stats, tt, sq_buf, key_buf, flip_buf, evaluate, data
                )
        if stats[_ABORT]:
            return np.int64(0)
        if v > best:
            best = v
            best_sq = sq
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break

    if slot >= 0:
        lower, upper = np.int64(-64), np.int64(64)
        if tt[slot, 0] == P and tt[slot, 1] == O:  # tighten the bounds already known
            lower, upper, _ = _unpack(tt[slot, 2])
        if best < beta:  # an upper bound (exact if above alpha0)
            upper = min(best, upper)
        if best > alpha0:  # a lower bound
            lower = max(best, lower)
        tt[slot, 0] = P
        tt[slot, 1] = O
        tt[slot, 2] = _pack(lower, upper, best_sq)
    return best


@njit
def solve_endgame(
    P: np.uint64,
    O: np.uint64,
    lo: np.int64,
    hi: np.int64,
    stats: np.ndarray,
    tt: np.ndarray,
    evaluate: Any = None,
    data: Any = None,
) -> tuple[np.int64, np.int64]:
    """(best action, final disc difference for the mover) in the window ``(lo, hi)``: exact
    inside it, a bound outside. A finished game gives action -1, a forced pass :data:`PASS`.
    ``tt`` (uint64[N, 3], N a power of two, zeros when new) is the transposition table: the
    two bitboards, then the bounds and the best square packed by :func:`_pack`; it may be kept
    between calls."""
    sq_buf = np.empty((65, 34), np.int64)
    key_buf = np.empty((65, 34), np.int64)
    flip_buf = np.empty((65, 34), np.uint64)
    moves = legal_moves(P, O)
    if moves == 0:
        action = np.int64(-1) if legal_moves(O, P) == 0 else np.int64(PASS)
        stats[_NODES] += 1
        return action, -_search(
            O,
            P,
            -hi,
            -lo,
            np.int64(action == -1),
            stats,
            tt,
            sq_buf,
            key_buf,
            flip_buf,
            evaluate,
            data,
        )
    v = _search(P, O, lo, hi, _NO, stats, tt, sq_buf, key_buf, flip_buf, evaluate, data)
    if stats[_ABORT]:
        return np.int64(-1), np.int64(0)
    # The root's move: the table's, or the first that reaches the value.
    slot = _slot(P, O, np.uint64(tt.shape[0] - 1))
    if tt[slot, 0] == P and tt[slot, 1] == O and _unpack(tt[slot, 2])[2] >= 0:
        return _unpack(tt[slot, 2])[2], v
    x = moves
    while x:
        sq = np.int64(lowest_square(x))
        x &= x - _ONE
        f = flips_at(sq, P, O)
        bit = _ONE << np.uint64(sq)
        w = -_search(
            O & ~f, P | f | bit, -hi, -lo, _NO, stats, tt, sq_buf, key_buf, flip_buf, evaluate, data
        )
        if w == v or (v >= hi and w >= hi) or (v <= lo and w <= lo):
            return sq, v
    return np.int64(-1), v
