"""The coloured boards of the terminal: a 2048 grid and an Othello position as rich ``Text``,
in :mod:`boardai.ui.theme`'s colours. The terminal app draws them, and so do ``boardai 2048
watch`` and ``boardai othello watch`` (rich only: no Textual).

>>> text = board_text_2048([[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2048]])
>>> "2048" in text.plain and len(text.plain.splitlines()) == 4 * CELL_H + 5
True
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from boardai.ui import theme

CELL_W, CELL_H = 8, 3  # a 2048 tile, in characters


def board_text_2048(grid: list[list[int]]) -> Text:
    """A 2048 grid as coloured text: tiles ``CELL_W`` x ``CELL_H`` on the board colour."""
    board = f"on {theme.G2048['board']}"
    text = Text()
    gap_line = Text(" " * (4 * CELL_W + 5), style=board)
    text.append_text(gap_line)
    text.append("\n")
    for row in grid:
        for line in range(CELL_H):
            text.append(" ", style=board)
            for value in row:
                background, ink = theme.tile_colors(value)
                label = str(value) if value and line == CELL_H // 2 else ""
                text.append(label.center(CELL_W), style=f"bold {ink} on {background}")
                text.append(" ", style=board)
            text.append("\n")
        text.append_text(gap_line)
        text.append("\n")
    return text


def board_text_othello(
    state: dict[str, Any], cursor: int | None = None, legal_moves: bool = False
) -> Text:
    """An Othello position as coloured text: the last move and its flips, and the legal moves
    (dotted) where there is a ``cursor`` or ``legal_moves`` asks for them."""
    c = theme.OTHELLO
    legal = set(state["legal"]) if cursor is not None or legal_moves else set()
    flips = set(state["flips"])
    frame = f"{c['text']} on {c['frame']}"
    text = Text("   " + "".join(f" {ch} " for ch in "abcdefgh") + " \n", style=frame)
    for r in range(8):
        text.append(f" {r + 1} ", style=frame)
        for col in range(8):
            i = 8 * r + col
            ch = state["cells"][i]
            background = c["flip"] if i in flips else c["legal"] if i == cursor else c["board"]
            if i == state["last"]:
                background = c["last"]
            if ch in "BW":
                glyph, ink = " ● ", c["black" if ch == "B" else "white"]
            elif i in legal:
                glyph, ink = " · ", c["legal"]
            else:
                glyph, ink = "   ", c["board"]
            text.append(glyph, style=f"bold {ink} on {background}")
        text.append(" \n", style=frame)
    text.append(" " * 28, style=frame)
    return text
