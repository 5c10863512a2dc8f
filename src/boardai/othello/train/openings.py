"""Every position of the first plies of Othello, each once up to the board's symmetries.

Training games start with random plies that are left out of the data, so the positions of a
real game's first moves are the ones a fitted evaluation sees least, and its first phases
borrow their weights from the later ones. Egaroucid fills its opening phases with positions
enumerated from the start and labelled by a deeper search; :func:`openings` gives those
positions (a pass counts as a ply, as in perft), for :func:`boardai.othello.train.label.label`
to label. There are 1, 1, 3, 14, 60, 322, 1,773, 10,649, 67,245 and 434,021 new ones at plies
0-9.

A position and its 8 images under the board's symmetries (mirrors and rotations) have one
value, so each is kept once, as its smallest image: ``(mover, opponent)`` compared as a pair
of unsigned integers.
"""

from __future__ import annotations

import numpy as np

from boardai._jit import njit
from boardai.othello.kernels import flips, legal_moves
from boardai.othello.ntuple_lines import transpose

_COLUMNS_1 = np.uint64(0x5555555555555555)
_COLUMNS_2 = np.uint64(0x3333333333333333)
_COLUMNS_4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_ROWS_1 = np.uint64(0x00FF00FF00FF00FF)
_ROWS_2 = np.uint64(0x0000FFFF0000FFFF)


@njit(inline="always")
def _mirror(x: np.uint64) -> np.uint64:
    """Columns reversed: square (r, c), bit ``8 r + c``, to (r, 7 - c)."""
    x = ((x >> np.uint64(1)) & _COLUMNS_1) | ((x & _COLUMNS_1) << np.uint64(1))
    x = ((x >> np.uint64(2)) & _COLUMNS_2) | ((x & _COLUMNS_2) << np.uint64(2))
    return ((x >> np.uint64(4)) & _COLUMNS_4) | ((x & _COLUMNS_4) << np.uint64(4))


@njit(inline="always")
def _flip(x: np.uint64) -> np.uint64:
    """Rows reversed: square (r, c) to (7 - r, c) (the bytes in reverse order)."""
    x = ((x >> np.uint64(8)) & _ROWS_1) | ((x & _ROWS_1) << np.uint64(8))
    x = ((x >> np.uint64(16)) & _ROWS_2) | ((x & _ROWS_2) << np.uint64(16))
    return (x >> np.uint64(32)) | (x << np.uint64(32))


@njit(inline="always")
def image(x: np.uint64, t: np.int64) -> np.uint64:
    """The discs ``x`` under symmetry ``t`` (0..7): columns reversed if bit 0 of ``t`` is set,
    then rows if bit 1 is, then mirrored in the a1-h8 diagonal if bit 2 is."""
    if t & 1:
        x = _mirror(x)
    if t & 2:
        x = _flip(x)
    if t & 4:
        x = transpose(x)
    return x


@njit
def canonical(mover: np.ndarray, opponent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position's smallest image under the 8 symmetries, ``(mover, opponent)`` compared
    as a pair."""
    n = len(mover)
    P2 = np.empty(n, np.uint64)
    O2 = np.empty(n, np.uint64)
    for i in range(n):
        bp, bo = mover[i], opponent[i]
        for t in range(1, 8):
            p, o = image(mover[i], t), image(opponent[i], t)
            if p < bp or (p == bp and o < bo):
                bp, bo = p, o
        P2[i], O2[i] = bp, bo
    return P2, O2


@njit
def children(mover: np.ndarray, opponent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions one ply after each of the given ones, from their new mover's side: one a
    legal move, or the pass of a mover with none whose opponent has some; finished games have
    none."""
    n = len(mover)
    count = 0
    for i in range(n):
        moves = legal_moves(mover[i], opponent[i])
        if moves:
            while moves:
                moves &= moves - np.uint64(1)
                count += 1
        elif legal_moves(opponent[i], mover[i]):
            count += 1
    P2 = np.empty(count, np.uint64)
    O2 = np.empty(count, np.uint64)
    k = 0
    for i in range(n):
        me, you = mover[i], opponent[i]
        moves = legal_moves(me, you)
        if moves == 0 and legal_moves(you, me):
            P2[k], O2[k] = you, me
            k += 1
        while moves:
            m = moves & (~moves + np.uint64(1))
            moves ^= m
            f = flips(m, me, you)
            P2[k], O2[k] = you ^ f, me | f | m
            k += 1
    return P2, O2


def _unique(mover: np.ndarray, opponent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The canonical forms of the positions, each once, sorted by (mover, opponent)."""
    p, o = canonical(mover, opponent)
    pairs = np.unique(np.stack([p, o], axis=1), axis=0)
    return pairs[:, 0].copy(), pairs[:, 1].copy()


def openings(plies: int) -> tuple[np.ndarray, np.ndarray]:
    """Every position reached from the start in at most ``plies`` plies, once up to symmetry
    (as its smallest image), ordered by ply and then by ``(mover, opponent)``: the mover's and
    the opponent's discs (uint64 arrays)."""
    from boardai.othello.board import Board

    if plies < 0:
        raise ValueError(f"plies must be >= 0, got {plies}")
    start = Board.initial()
    level = _unique(np.array([start.mover], np.uint64), np.array([start.opponent], np.uint64))
    movers, opponents = [level[0]], [level[1]]
    for _ in range(plies):
        level = _unique(*children(*level))
        movers.append(level[0])
        opponents.append(level[1])
    mover, opponent = np.concatenate(movers), np.concatenate(opponents)
    # a pass brings back a disc count seen a ply earlier: keep each position's first ply only
    _, first = np.unique(np.stack([mover, opponent], axis=1), axis=0, return_index=True)
    keep = np.sort(first)
    return mover[keep], opponent[keep]
