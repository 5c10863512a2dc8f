"""What a network sees of an Othello position: three planes from the mover's view (the
environments, the DQN player and its trainer read boards through this one function).

>>> from boardai.othello.board import Board
>>> observe(Board.initial()).sum(axis=(1, 2)).tolist()
[2, 2, 4]
"""

from __future__ import annotations

import numpy as np

from boardai.othello.board import Board

OBS_SHAPE = (3, 8, 8)


def observe(board: Board) -> np.ndarray:
    """uint8 planes ``(3, 8, 8)`` from the mover's view: its discs, the opponent's, its legal
    squares (row-major, a1 at ``[:, 0, 0]``)."""
    out = np.zeros((3, 64), np.uint8)
    for plane, bits in enumerate((board.mover, board.opponent, board.legal_moves_mask())):
        out[plane] = (np.uint64(bits) >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    return out.reshape(OBS_SHAPE)
