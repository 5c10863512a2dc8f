"""Tile downgrading: value a late-game board as the earlier board it resembles.

An n-tuple network learned by TD sees few boards that hold its largest tiles (a 1-ply player
that makes 16384 in one game of ten trains on 16384 boards in a tenth of its games), so its
values there are poor. Downgrading (a trick the 2048 literature calls tile-downgrading; the
rule here is our own) values such a board through the weights of a board the network has seen
often: when the largest tile is at least ``2**min_exponent`` and some smaller tile is missing,
every tile above the largest missing one halves; this repeats while the largest tile is still
at least ``2**min_exponent`` and a smaller tile is missing. A board holding 16384, 4096 and
2048 but no 8192 reads as one holding 8192, 4096 and 2048.

Tiles keep their order, and no tile lands on a value another tile has (the missing value is
the one filled), so the downgraded board has the same equal neighbours, hence the same merges,
as the board itself. Only the values differ (future merges of the halved tiles count half); the
boards one search compares mostly share their large tiles, which keeps that difference small.

A multi-stage network counts a board's stage on the board as it is, and reads its features
downgraded (:func:`~boardai.g2048.ntuple_play.lookup_read`): with stages from 16384 and
downgrading from 16384, the late boards read the shapes the early game taught, in weights
of their own, which learn what those shapes are worth once the large tiles are there.

>>> from boardai.g2048 import Board
>>> b = Board.from_grid([[16384, 4096, 2048, 2], [0] * 4, [0] * 4, [0] * 4])
>>> Board._make(int(downgrade(b.lo, 14))).to_grid()[0]
[8192, 4096, 2048, 2]
>>> int(downgrade(b.lo, 15)) == b.lo  # its largest tile is below 32768: unchanged
True
"""

from __future__ import annotations

import numpy as np

from boardai._jit import njit
from boardai.g2048.ntuple import tile_presence

_NIB = np.uint64(0xF)


def downgrade_exponent(tile: int) -> int:
    """The ``min_exponent`` of a downgrade option given as a tile: 0 for 0 (off), 14 for 16384.

    Raises:
        ValueError: not 0 and not a tile from 4 to 32768.
    """
    if tile and not (4 <= tile <= 32768 and tile & (tile - 1) == 0):
        raise ValueError(f"downgrade must be 0 or a tile from 4 to 32768, got {tile}")
    return tile.bit_length() - 1 if tile else 0


@njit
def downgrade(board: np.uint64, min_exponent: int) -> np.uint64:
    """The downgraded feature board (see the module docstring); ``board`` when none applies."""
    board = np.uint64(board)
    while True:
        present = tile_presence(board)
        top = 0
        for e in range(16):
            if (present >> np.int64(e)) & 1:
                top = e
        if top < min_exponent:
            return board
        gap = 0
        for e in range(top - 1, 0, -1):
            if not (present >> np.int64(e)) & 1:
                gap = e
                break
        if gap == 0:
            return board
        out = np.uint64(0)
        for i in range(16):
            shift = np.uint64(4 * i)
            t = (board >> shift) & _NIB
            if t > np.uint64(gap):
                t -= np.uint64(1)
            out |= t << shift
        board = out
