"""Numba bitboard kernels for Othello.

A position is two ``uint64`` words: ``P`` (discs of the player to move) and ``O`` (the
opponent's). Square ``8*row + column`` is bit ``8*row + column``; a1 = 0 is the top left, h8 =
63 the bottom right. Actions are 0..63 (a square) and :data:`PASS` = 64.

Legal moves use the shift-and-mask fill ("dumb7fill", see
https://www.chessprogramming.org/Dumb7Fill): in each of the 8 directions, shift the mover's
discs over runs of opponent discs and keep the empty squares reached. Horizontal and diagonal
shifts wrap around the board's edge, so the opponent set is first masked to columns b..g
(:data:`INNER_COLS`). Flips walk each direction from the move until they leave the run of
opponent discs, and keep the run if a disc of the mover closes it.
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards, as in the literature)
from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from boardai._jit import njit
from boardai.rng import seed_stream, splitmix64

PASS = 64
N_ACTIONS = 65

#: Every square but column a / column h: what a shift east / west may land on.
NOT_COL_A = np.uint64(0xFEFE_FEFE_FEFE_FEFE)
NOT_COL_H = np.uint64(0x7F7F_7F7F_7F7F_7F7F)
#: Columns b..g: opponent discs a horizontal or diagonal run may pass over without wrapping.
INNER_COLS = np.uint64(0x7E7E_7E7E_7E7E_7E7E)
#: The four corners a1, h1, a8, h8.
CORNERS = np.uint64(0x8100_0000_0000_0081)
#: Start position (black to move): black on e4 (28) and d5 (35), white on d4 (27) and e5 (36).
START_BLACK = np.uint64((1 << 28) | (1 << 35))
START_WHITE = np.uint64((1 << 27) | (1 << 36))

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_S1 = np.uint64(1)
_S7 = np.uint64(7)
_S8 = np.uint64(8)
_S9 = np.uint64(9)


def _popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of set bits of a ``uint64`` (one ``popcnt`` instruction)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


def _lowest_square(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit of a non-zero ``uint64`` (``tzcnt``)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


#: ``popcount(x)``: set bits of a uint64 (compiled code only).
popcount: Any = intrinsic(_popcount)
#: ``lowest_square(x)``: index of the lowest set bit of a non-zero uint64 (compiled code only).
lowest_square: Any = intrinsic(_lowest_square)


@njit
def _fill_up(P: np.uint64, mO: np.uint64, empty: np.uint64, s: np.uint64) -> np.uint64:
    """Empty squares reached by shifting ``P`` left by ``s`` over at least one disc of ``mO``."""
    t = (P << s) & mO
    t |= (t << s) & mO
    t |= (t << s) & mO
    t |= (t << s) & mO
    t |= (t << s) & mO
    t |= (t << s) & mO
    return (t << s) & empty


@njit
def _fill_down(P: np.uint64, mO: np.uint64, empty: np.uint64, s: np.uint64) -> np.uint64:
    """As :func:`_fill_up`, shifting right."""
    t = (P >> s) & mO
    t |= (t >> s) & mO
    t |= (t >> s) & mO
    t |= (t >> s) & mO
    t |= (t >> s) & mO
    t |= (t >> s) & mO
    return (t >> s) & empty


@njit
def legal_moves(P: np.uint64, O: np.uint64) -> np.uint64:
    """Bitboard of the squares where the player to move may play."""
    empty = ~(P | O)
    h = O & INNER_COLS
    moves = _fill_up(P, h, empty, _S1) | _fill_down(P, h, empty, _S1)
    moves |= _fill_up(P, O, empty, _S8) | _fill_down(P, O, empty, _S8)
    moves |= _fill_up(P, h, empty, _S7) | _fill_down(P, h, empty, _S7)
    moves |= _fill_up(P, h, empty, _S9) | _fill_down(P, h, empty, _S9)
    return moves


@njit
def _flips_up(m: np.uint64, P: np.uint64, mO: np.uint64, s: np.uint64) -> np.uint64:
    f = _ZERO
    x = m << s
    while x & mO:
        f |= x
        x <<= s
    return f if x & P else _ZERO


@njit
def _flips_down(m: np.uint64, P: np.uint64, mO: np.uint64, s: np.uint64) -> np.uint64:
    f = _ZERO
    x = m >> s
    while x & mO:
        f |= x
        x >>= s
    return f if x & P else _ZERO


@njit
def flips(m: np.uint64, P: np.uint64, O: np.uint64) -> np.uint64:
    """Opponent discs flipped when the mover plays the square of the one-bit board ``m``."""
    h = O & INNER_COLS
    f = _flips_up(m, P, h, _S1) | _flips_down(m, P, h, _S1)
    f |= _flips_up(m, P, O, _S8) | _flips_down(m, P, O, _S8)
    f |= _flips_up(m, P, h, _S7) | _flips_down(m, P, h, _S7)
    f |= _flips_up(m, P, h, _S9) | _flips_down(m, P, h, _S9)
    return f


@njit
def play_bit(m: np.uint64, P: np.uint64, O: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The position after the mover plays square-bit ``m`` (assumed legal), seen by the next
    mover: ``(O', P')`` with the sides swapped."""
    f = flips(m, P, O)
    return O & ~f, P | m | f


@njit
def play(P: np.uint64, O: np.uint64, action: np.int64) -> tuple[np.uint64, np.uint64]:
    """The position after ``action`` (a square or :data:`PASS`), sides swapped; unchecked."""
    if action == PASS:
        return O, P
    return play_bit(_ONE << np.uint64(action), P, O)


@njit
def is_terminal(P: np.uint64, O: np.uint64) -> bool:
    """Whether neither side can move (the game is over)."""
    return legal_moves(P, O) == 0 and legal_moves(O, P) == 0


@njit
def final_score(P: np.uint64, O: np.uint64) -> np.int64:
    """Disc difference of a finished game for the player to move, empties to the winner."""
    p = np.int64(popcount(P))
    o = np.int64(popcount(O))
    empties = 64 - p - o
    if p > o:
        return p - o + empties
    if p < o:
        return p - o - empties
    return np.int64(0)


@njit
def _perft(P: np.uint64, O: np.uint64, depth: np.int64) -> np.int64:
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            return np.int64(0)  # the game ended before this depth
        if depth == 1:
            return np.int64(1)
        return _perft(O, P, depth - 1)
    if depth == 1:
        return np.int64(popcount(moves))
    n = np.int64(0)
    while moves:
        m = moves & (_ZERO - moves)
        moves ^= m
        O2, P2 = play_bit(m, P, O)
        n += _perft(O2, P2, depth - 1)
    return n


@njit
def perft(P: np.uint64, O: np.uint64, depth: np.int64) -> np.int64:
    """Leaves at ``depth`` plies from ``(P, O)``; a pass is a ply, a finished game no leaf."""
    if depth <= 0:
        return np.int64(1)
    return _perft(P, O, depth)


@njit
def action_mask(P: np.uint64, O: np.uint64) -> np.ndarray:
    """int8[65]: 1 on each legal action (PASS alone when the mover has no square but the game
    goes on; all zero when the game is over)."""
    out = np.zeros(N_ACTIONS, np.int8)
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) != 0:
            out[PASS] = 1
        return out
    while moves:
        sq = lowest_square(moves)
        moves &= moves - _ONE
        out[sq] = 1
    return out


@njit
def random_below(state: np.uint64, n: np.int64) -> tuple[np.uint64, np.int64]:
    """(new state, a uniform integer in 0..n-1) for ``1 <= n < 2**32``."""
    state, bits = splitmix64(state)
    return state, np.int64(((bits >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit
def nth_square(moves: np.uint64, k: np.int64) -> np.int64:
    """Index of the k-th (from 0, lowest first) set bit of ``moves``."""
    for _ in range(k):
        moves &= moves - _ONE
    return np.int64(lowest_square(moves))


@njit
def random_action(P: np.uint64, O: np.uint64, state: np.uint64) -> tuple[np.uint64, np.int64]:
    """(new rng state, a uniformly random legal action: PASS when there is no square)."""
    moves = legal_moves(P, O)
    if moves == 0:
        return state, np.int64(PASS)
    state, k = random_below(state, np.int64(popcount(moves)))
    return state, nth_square(moves, k)


@njit
def random_positions(n: np.int64, seed: np.uint64) -> np.ndarray:
    """``n`` positions ``(P, O)`` from random games: game i is played from stream i of ``seed``
    for a random number of plies (0..59), stopping early if it ends."""
    out = np.empty((n, 2), np.uint64)
    for i in range(n):
        state = seed_stream(seed, np.uint64(i))
        state, plies = random_below(state, np.int64(60))
        P = START_BLACK
        O = START_WHITE
        for _ in range(plies):
            if is_terminal(P, O):
                break
            state, a = random_action(P, O, state)
            P, O = play(P, O, a)
        out[i, 0] = P
        out[i, 1] = O
    return out
