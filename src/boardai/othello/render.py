"""A picture of an Othello board as an RGB array, drawn with numpy alone (no imaging library),
for the environments' ``rgb_array`` render mode and video recorders that take frames as they
are, and under the coordinates and captions of ``boardai render``'s pictures. The colours are
those of :mod:`boardai.ui.theme` (the web page and the terminal app).

>>> from boardai.othello import Board
>>> img = board_image(Board.initial())
>>> img.shape, img.dtype.name
((416, 416, 3), 'uint8')
>>> centre = lambda square: 16 + 48 * square + 24  # a 16-pixel frame, 48-pixel squares
>>> img[centre(3), centre(3)].tolist(), img[centre(3), centre(4)].tolist()  # d4 white, e4 black
([245, 245, 245], [17, 17, 17])
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np

#: The frame, the board, its lines, the discs, the legal-move dots, the last move's dot and the
#: ring of a flipped disc (theme.OTHELLO's).
FRAME = (0x14, 0x47, 0x1A)
BOARD = (0x2E, 0x7D, 0x32)
LINE = (0x1B, 0x5E, 0x20)
DISCS = {1: (0x11, 0x11, 0x11), 2: (0xF5, 0xF5, 0xF5)}  # black, white (to_grid's values)
LEGAL = (0xA5, 0xD6, 0xA7)
LAST = (0xE5, 0x39, 0x35)
FLIP = (0xFF, 0xCA, 0x28)


def _disc(square: int, radius: float) -> np.ndarray:
    """The pixels of a square (``square`` x ``square``) inside a circle of ``radius`` at its
    centre."""
    centre = (square - 1) / 2
    y, x = np.ogrid[:square, :square]
    return np.asarray((y - centre) ** 2 + (x - centre) ** 2 <= radius**2)


def board_image(
    board: Any,
    square: int = 48,
    legal: Collection[int] = (),
    last: int | None = None,
    flips: Collection[int] = (),
    margin: int | None = None,
) -> np.ndarray:
    """An RGB picture (H x W x 3, uint8) of ``board``: discs on the green board in a frame.

    Args:
        board: an Othello :class:`~boardai.othello.Board`.
        square: side of a square in pixels (at least 8).
        legal: squares to mark with a small dot (the legal moves; others are ignored).
        last: the square of the last move, marked with a red dot on its disc.
        flips: squares whose discs the last move flipped, ringed.
        margin: the frame's width in pixels (default a third of a square).
    """
    if square < 8:
        raise ValueError(f"square must be >= 8 pixels, got {square}")
    margin = square // 3 if margin is None else margin
    side = 8 * square + 2 * margin
    img = np.empty((side, side, 3), np.uint8)
    img[:] = FRAME
    img[margin : side - margin, margin : side - margin] = BOARD
    for k in range(9):  # the lines, two pixels wide, on the squares' edges
        at = min(margin + k * square, side - margin - 1)
        img[margin : side - margin, max(at - 1, 0) : at + 1] = LINE
        img[max(at - 1, 0) : at + 1, margin : side - margin] = LINE
    radius = square / 2 - max(2, square // 12)
    disc = _disc(square, radius)
    ring = disc & ~_disc(square, radius - max(2, square // 16))
    dot = _disc(square, max(1.5, square / 10))
    for i, v in enumerate(v for row in board.to_grid() for v in row):
        y, x = margin + (i // 8) * square, margin + (i % 8) * square
        cell = img[y : y + square, x : x + square]
        if v:
            cell[disc] = DISCS[v]
            if i in flips:
                cell[ring] = FLIP
            if i == last:
                cell[dot] = LAST
        elif i in legal:
            cell[dot] = LEGAL
    return img
