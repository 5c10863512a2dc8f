"""Pictures of a 2048 board: text for terminals and an RGB image in the game's colours.

The image is drawn with numpy alone (a 5x7 pixel font for the numbers), so it needs no
plotting or imaging library; GIF and PNG exporters take it as it is.

>>> from boardai.g2048 import Board
>>> img = board_image(Board.from_grid([[2, 4, 0, 0], [0, 2048, 0, 0], [0] * 4, [0] * 4]))
>>> img.shape, img.dtype.name
((460, 460, 3), 'uint8')
>>> print(board_text(Board.from_grid([[2, 0, 0, 0]] + [[0] * 4] * 3)).splitlines()[1])
|    2 |      |      |      |
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The original game's colours: background, empty cell, and tiles 2 .. 2048 by exponent.
BACKGROUND = (0xBB, 0xAD, 0xA0)
TILE_COLOURS = {
    0: (0xCD, 0xC1, 0xB4),
    1: (0xEE, 0xE4, 0xDA),
    2: (0xED, 0xE0, 0xC8),
    3: (0xF2, 0xB1, 0x79),
    4: (0xF5, 0x95, 0x63),
    5: (0xF6, 0x7C, 0x5F),
    6: (0xF6, 0x5E, 0x3B),
    7: (0xED, 0xCF, 0x72),
    8: (0xED, 0xCC, 0x61),
    9: (0xED, 0xC8, 0x50),
    10: (0xED, 0xC5, 0x3F),
    11: (0xED, 0xC2, 0x2E),
}
#: Tiles above 2048 are dark, as in the game.
BIG_TILE = (0x3C, 0x3A, 0x32)
DARK_TEXT = (0x77, 0x6E, 0x65)
LIGHT_TEXT = (0xF9, 0xF6, 0xF2)

# A 5x7 pixel font for the digits, one string of 7 rows of 5 pixels per digit.
_GLYPHS = {
    "0": "01110 10001 10011 10101 11001 10001 01110",
    "1": "00100 01100 00100 00100 00100 00100 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111",
    "3": "11110 00001 00001 01110 00001 00001 11110",
    "4": "00010 00110 01010 10010 11111 00010 00010",
    "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110",
    "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110",
    "9": "01110 10001 10001 01111 00001 00010 01100",
}
_FONT = {
    ch: np.array([[c == "1" for c in row] for row in rows.split()], dtype=bool)
    for ch, rows in _GLYPHS.items()
}


def _exponents(board: Any) -> list[int]:
    """16 exponents from a Board, a packed int, or a 4x4 array of exponents."""
    if hasattr(board, "exponents"):
        return list(board.exponents())
    if isinstance(board, (int, np.integer)):
        from boardai.g2048.board import Board

        return Board(int(board)).exponents()
    cells = np.asarray(board).reshape(-1)
    if cells.size != 16:
        raise ValueError(f"expected a board or 16 exponents, got {cells.size} values")
    return [int(e) for e in cells]


def _text_picture(text: str, scale: int) -> np.ndarray:
    glyphs = [np.kron(_FONT[ch], np.ones((scale, scale), bool)) for ch in text]
    gap = np.zeros((7 * scale, scale), bool)
    parts: list[np.ndarray] = []
    for i, g in enumerate(glyphs):
        if i:
            parts.append(gap)
        parts.append(g)
    return np.hstack(parts)


def board_image(board: Any, tile: int = 100, gap: int = 12) -> np.ndarray:
    """An RGB picture (H x W x 3, uint8) of ``board`` in the game's colours, with the numbers.

    Args:
        board: a :class:`~boardai.g2048.Board`, its packed int, or a 4x4 array of exponents.
        tile: side of a tile in pixels (at least 20).
        gap: pixels between tiles and around the board.
    """
    if tile < 20 or gap < 0:
        raise ValueError(f"tile must be >= 20 and gap >= 0, got tile={tile}, gap={gap}")
    side = 4 * tile + 5 * gap
    img = np.empty((side, side, 3), np.uint8)
    img[:] = BACKGROUND
    for i, e in enumerate(_exponents(board)):
        r, c = divmod(i, 4)
        y, x = gap + r * (tile + gap), gap + c * (tile + gap)
        img[y : y + tile, x : x + tile] = TILE_COLOURS.get(e, BIG_TILE)
        if e == 0:
            continue
        text = str(1 << e)
        width_units = 6 * len(text) - 1
        scale = max(1, min((tile * 3 // 4) // width_units, (tile // 2) // 7))
        pic = _text_picture(text, scale)
        h, w = pic.shape
        ty, tx = y + (tile - h) // 2, x + (tile - w) // 2
        colour = DARK_TEXT if e <= 2 else LIGHT_TEXT
        img[ty : ty + h, tx : tx + w][pic] = colour
    return img


def board_text(board: Any, score: int | None = None) -> str:
    """A boxed text picture of ``board`` (``.`` for nothing; tiles right-aligned)."""
    cells = _exponents(board)
    width = max(4, *(len(str(1 << e)) for e in cells if e)) if any(cells) else 4
    line = "+" + "+".join("-" * (width + 2) for _ in range(4)) + "+"
    rows = [line]
    for r in range(4):
        values = [str(1 << e) if e else "" for e in cells[4 * r : 4 * r + 4]]
        rows.append("|" + "|".join(f" {v:>{width}} " for v in values) + "|")
        rows.append(line)
    if score is not None:
        rows.append(f"score {score}")
    return "\n".join(rows)
