"""Position files the Othello commands read (``othello solve``, ``othello analyze``): the FFO /
obf format, a position a line, or board text as boardai prints it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from boardai.errors import MIB, UsageError, read_limited

_BLACK_CHARS = "XxBb*"
_WHITE_CHARS = "OoWw"
_EMPTY_CHARS = "-."
#: A line of board text as ``str(Board)`` writes it: the header, a row, the side to move.
_BOARD_TEXT = re.compile(r"a b c d e f g h|(\d\s+)?([XxOo.-]\s*){8}|(black|white) to move", re.I)
_SIDES = {"x": 0, "b": 0, "black": 0, "*": 0, "o": 1, "w": 1, "white": 1}
#: The most bytes of a position file read (a line a position: some 200,000 of them, each an
#: exact solve); a larger or endless one (``/dev/zero``) is refused in one line.
MAX_POSITION_BYTES = 16 * MIB


@dataclass
class Position:
    """One position of the file and where it came from."""

    line: int
    mover: int
    opponent: int
    empties: int
    side: int = 0  #: the colour to move (boardai.othello.board.BLACK or WHITE)

    def board(self) -> Any:
        """The position as a :class:`boardai.othello.Board`."""
        from boardai.othello import Board

        black, white = (
            (self.mover, self.opponent) if self.side == 0 else (self.opponent, self.mover)
        )
        return Board(black, white, self.side)


def _bad(path: str, line: int, why: str) -> UsageError:
    return UsageError(f"{path}:{line}: {why}")


def _obf(path: str, number: int, text: str) -> tuple[int, int, int]:
    """(black, white, side) of an obf line without its comment."""
    words = text.split()
    board = words[0]
    if len(board) != 64:
        raise _bad(path, number, f"the board has {len(board)} squares, not 64")
    for ch in board:
        if ch not in _BLACK_CHARS + _WHITE_CHARS + _EMPTY_CHARS:
            raise _bad(path, number, f"bad character {ch!r} in the board (X, O or -)")
    if len(words) < 2:
        raise _bad(path, number, "no side to move after the board (X or O)")
    side = _SIDES.get(words[1].lower())
    if side is None or len(words) > 2:
        raise _bad(path, number, f"bad side to move {' '.join(words[1:])!r} (X or O)")
    black = sum(1 << i for i, ch in enumerate(board) if ch in _BLACK_CHARS)
    white = sum(1 << i for i, ch in enumerate(board) if ch in _WHITE_CHARS)
    return black, white, side


def read_positions(path: str, errors: list[str] | None = None) -> list[Position]:
    """The positions of an obf / board-text file; a bad line raises a :class:`UsageError`
    naming the file and line, or with ``errors``, is left out and its one line added there
    (every bad line of the file, in order)."""
    from boardai.othello import Board

    try:
        text = read_limited(path, MAX_POSITION_BYTES, "a position file").decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: cannot read: {e}") from None
    lines = text.splitlines()
    out: list[Position] = []
    block: list[str] = []  # board text collected so far
    block_start = 0

    def add(number: int, black: int, white: int, side: int) -> None:
        if black & white:
            raise _bad(path, number, "a square is both black and white")
        board = Board(black, white, side)
        if board.is_terminal():
            raise _bad(path, number, "the game is over: there is nothing to solve")
        out.append(Position(number, board.mover, board.opponent, board.empties(), side))

    def line(number: int, raw: str) -> None:
        nonlocal block, block_start
        text = raw.split(";", 1)[0].strip()
        if not text or text.startswith(("%", "#")):
            if block:
                block = []
                raise _bad(path, block_start, "board text without 'black/white to move'")
            return
        if not block and not _BOARD_TEXT.fullmatch(text):
            add(number, *_obf(path, number, text))
            return
        if not block:
            block_start = number
        block.append(text)
        if text.lower().split()[0] in ("black", "white"):
            text_block, block = block, []
            try:
                b = Board.from_str("\n".join(text_block))
            except ValueError as e:
                raise _bad(path, block_start, str(e)) from None
            add(block_start, b.black, b.white, b.to_move)

    for number, raw in enumerate(lines, start=1):
        try:
            line(number, raw)
        except UsageError as e:
            if errors is None:
                raise
            errors.append(str(e))
    if block:
        bad = _bad(path, block_start, "board text without 'black/white to move'")
        if errors is None:
            raise bad
        errors.append(str(bad))
    if not out and not errors:
        raise UsageError(f"{path}: no positions")
    return out
