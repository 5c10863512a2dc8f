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

_LOW_NIBS = np.uint64(0x0F0F_0F0F_0F0F_0F0F)  # the low nibble of every byte
_BYTE_ONES = np.uint64(0x0101_0101_0101_0101)


def downgrade_exponent(tile: int) -> int:
    """The ``min_exponent`` of a downgrade option given as a tile: 0 for 0 (off), 14 for 16384.

    Raises:
        ValueError: not 0 and not a tile from 4 to 32768.
    """
    if tile and not (4 <= tile <= 32768 and tile & (tile - 1) == 0):
        raise ValueError(f"downgrade must be 0 or a tile from 4 to 32768, got {tile}")
    return tile.bit_length() - 1 if tile else 0


@njit(inline="always")
def _top_bit(x: np.int64) -> np.int64:
    """The index of the highest bit set of ``0 < x < 2**16``."""
    n = np.int64(0)
    if x >= 256:
        x >>= 8
        n += 8
    if x >= 16:
        x >>= 4
        n += 4
    if x >= 4:
        x >>= 2
        n += 2
    if x >= 2:
        n += 1
    return n


@njit(inline="always")
def _lower_above(board: np.uint64, gap: np.int64) -> np.uint64:
    """``board`` with every tile of exponent above ``gap`` (1..14) one lower, all 16 cells at
    once: each nibble sits in a byte of its own (even cells, then odd ones), where adding
    ``15 - gap`` carries into bit 4 exactly when the nibble is above ``gap``."""
    k = np.uint64(15 - gap) * _BYTE_ONES
    even = board & _LOW_NIBS
    odd = (board >> np.uint64(4)) & _LOW_NIBS
    even -= ((even + k) >> np.uint64(4)) & _BYTE_ONES
    odd -= ((odd + k) >> np.uint64(4)) & _BYTE_ONES
    return even | (odd << np.uint64(4))


@njit
def downgrade(board: np.uint64, min_exponent: int) -> np.uint64:
    """The downgraded feature board (see the module docstring); ``board`` when none applies.

    Works on the board's tile-presence mask: the largest tile is its top bit, the largest
    missing tile below it the top bit of the mask's complement, and halving the tiles above
    that gap shifts their bits down by one (:func:`_lower_above` does the board in a few word
    operations; ``tests/g2048/test_downgrade.py`` holds the cell-by-cell reference)."""
    board = np.uint64(board)
    present = tile_presence(board)
    while present != 0:
        top = _top_bit(present)
        if top < min_exponent:
            return board
        missing = ~present & ((np.int64(1) << top) - 2)  # exponents 1 .. top - 1 absent
        if missing == 0:
            return board
        gap = _top_bit(missing)
        board = _lower_above(board, gap)
        below = (np.int64(1) << gap) - 1
        present = (present & below) | ((present >> 1) & ~below)
    return board
