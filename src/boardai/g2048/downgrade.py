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
from boardai.g2048.ntuple import Stage, tile_presence

_NIB = np.uint64(0xF)


def downgrade_exponent(tile: int) -> int:
    """The ``min_exponent`` of a downgrade option given as a tile: 0 for 0 (off), 14 for 16384.

    Raises:
        ValueError: not 0 and not a tile from 4 to 32768.
    """
    if tile and not (4 <= tile <= 32768 and tile & (tile - 1) == 0):
        raise ValueError(f"downgrade must be 0 or a tile from 4 to 32768, got {tile}")
    return tile.bit_length() - 1 if tile else 0


def unread_stages(stages: tuple[Stage, ...], min_exponent: int) -> tuple[Stage, ...]:
    """The stage thresholds that downgrading from ``2**min_exponent`` leaves all but unread.

    A board past such a threshold holds a tile of at least ``2**min_exponent``, so it reads
    downgraded, below the threshold, unless it holds at least as many different tiles as the
    threshold's largest exponent: downgrading keeps the different tiles apart and stops with a
    large tile only on a board holding every tile from 2 up to it (14 different tiles for
    16384). The weights of these stages then stay almost untouched in training and unused in
    play.

    >>> unread_stages(((13,), (14,), (14, 13)), 14)
    ((14,), (14, 13))
    >>> unread_stages(((14,),), 0)  # downgrading off
    ()
    """
    return tuple(s for s in stages if min_exponent and s[0] >= min_exponent)


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
