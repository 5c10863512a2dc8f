"""Board: an immutable, hashable Othello position (two bitboards and the side to move).

>>> b = Board.initial()
>>> b.legal_actions()
[19, 26, 37, 44]
>>> after = b.play("d3")
>>> after.discs()
(4, 1)
>>> Board.from_str(str(after)) == after
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from boardai.othello import kernels as K
from boardai.othello.kernels import N_ACTIONS, PASS

if TYPE_CHECKING:
    from typing import Self

__all__ = ["BLACK", "N_ACTIONS", "PASS", "WHITE", "Board", "action_text", "parse_action"]

BLACK = 0
WHITE = 1
COLOR_NAMES = ("black", "white")
#: Characters of ``str(board)``: black, white, empty.
DISC_CHARS = ("X", "O", ".")
_U64 = (1 << 64) - 1
_set = object.__setattr__


def action_text(action: int) -> str:
    """``'d3'`` for square 19, ``'pass'`` for 64."""
    if action == PASS:
        return "pass"
    if not 0 <= action < 64:
        raise ValueError(f"action {action!r} is not 0..64")
    return "abcdefgh"[action % 8] + str(action // 8 + 1)


def parse_action(action: int | str) -> int:
    """An action 0..64 from an int or text (``d3``, ``D3``, ``pass``)."""
    if isinstance(action, str):
        t = action.strip().lower()
        if t in ("pass", "pa", "ps"):
            return PASS
        if len(t) == 2 and t[0] in "abcdefgh" and t[1] in "12345678":
            return 8 * (int(t[1]) - 1) + "abcdefgh".index(t[0])
        raise ValueError(f"unknown move {action!r}: expected a square a1..h8 or 'pass'")
    if (
        isinstance(action, (int, np.integer))
        and not isinstance(action, bool)
        and 0 <= action <= PASS
    ):
        return int(action)
    raise ValueError(f"action {action!r} is not 0..63 (a square) or 64 (pass)")


class Board:
    """An Othello position: black and white discs and the colour to move.

    Internally ``(P, O)``: the mover's and the opponent's bitboards, square ``8*row + col``
    with a1 = 0 at the top left (``K`` is :mod:`boardai.othello.kernels`).
    """

    __slots__ = ("_color", "_o", "_p")

    _p: int
    _o: int
    _color: int

    def __init__(self, black: int, white: int, to_move: int = BLACK) -> None:
        black, white = int(black), int(white)
        for name, bb in (("black", black), ("white", white)):
            if not 0 <= bb <= _U64:
                raise ValueError(f"{name} bitboard {bb:#x} is not a uint64")
        if black & white:
            raise ValueError(f"black and white share squares {black & white:#x}")
        if to_move not in (BLACK, WHITE):
            raise ValueError(f"to_move must be {BLACK} (black) or {WHITE} (white), got {to_move!r}")
        p, o = (black, white) if to_move == BLACK else (white, black)
        _set(self, "_p", p)
        _set(self, "_o", o)
        _set(self, "_color", to_move)

    @classmethod
    def _make(cls, p: int, o: int, color: int) -> Self:
        b = object.__new__(cls)
        _set(b, "_p", p)
        _set(b, "_o", o)
        _set(b, "_color", color)
        return b

    @classmethod
    def initial(cls) -> Self:
        """The start position: white on d4 and e5, black on d5 and e4, black to move."""
        return cls._make(int(K.START_BLACK), int(K.START_WHITE), BLACK)

    @classmethod
    def from_mover(cls, p: int, o: int, to_move: int) -> Self:
        """A board from the mover's and the opponent's bitboards."""
        return cls._make(int(p), int(o), int(to_move))

    # -- views ----------------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """:data:`BLACK` (0) or :data:`WHITE` (1)."""
        return self._color

    @property
    def mover(self) -> int:
        """Bitboard of the discs of the player to move."""
        return self._p

    @property
    def opponent(self) -> int:
        """Bitboard of the other player's discs."""
        return self._o

    @property
    def black(self) -> int:
        """Bitboard of the black discs."""
        return self._p if self._color == BLACK else self._o

    @property
    def white(self) -> int:
        """Bitboard of the white discs."""
        return self._o if self._color == BLACK else self._p

    def discs(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return self.black.bit_count(), self.white.bit_count()

    def empties(self) -> int:
        """Number of empty squares."""
        return 64 - (self._p | self._o).bit_count()

    def to_grid(self) -> list[list[int]]:
        """8 rows of 8 cells: 0 empty, 1 black, 2 white (row 0 is rank 1, the top)."""
        b, w = self.black, self.white
        return [
            [1 if b >> (8 * r + c) & 1 else 2 if w >> (8 * r + c) & 1 else 0 for c in range(8)]
            for r in range(8)
        ]

    @classmethod
    def from_grid(cls, rows: Sequence[Sequence[int]], to_move: int = BLACK) -> Self:
        """Inverse of :meth:`to_grid`."""
        if len(rows) != 8 or any(len(r) != 8 for r in rows):
            raise ValueError("an Othello grid needs 8 rows of 8 cells")
        black = white = 0
        for r, row in enumerate(rows):
            for c, v in enumerate(row):
                if v == 1:
                    black |= 1 << (8 * r + c)
                elif v == 2:
                    white |= 1 << (8 * r + c)
                elif v != 0:
                    raise ValueError(f"cell (row {r}, column {c}): {v!r} is not 0, 1 or 2")
        return cls(black, white, to_move)

    # -- rules ----------------------------------------------------------------------------

    def legal_moves_mask(self) -> int:
        """Bitboard of the squares the mover may play (0 if it must pass or the game is over)."""
        return int(K.legal_moves(np.uint64(self._p), np.uint64(self._o)))

    def legal_actions(self) -> list[int]:
        """Legal actions, increasing: squares, or ``[PASS]`` when forced, ``[]`` at the end."""
        moves = self.legal_moves_mask()
        if moves:
            return [i for i in range(64) if moves >> i & 1]
        if K.legal_moves(np.uint64(self._o), np.uint64(self._p)):
            return [PASS]
        return []

    def action_mask(self) -> np.ndarray:
        """int8[65] with 1 on each legal action."""
        return K.action_mask(np.uint64(self._p), np.uint64(self._o))

    def is_legal(self, action: int | str) -> bool:
        """Whether ``action`` may be played here."""
        return parse_action(action) in self.legal_actions()

    def play(self, action: int | str) -> Self:
        """The board after ``action`` (a square, text like ``d3``, or :data:`PASS`).

        Raises:
            ValueError: the action is illegal here (the message names it).
        """
        a = parse_action(action)
        moves = self.legal_moves_mask()
        if a == PASS:
            if moves or not K.legal_moves(np.uint64(self._o), np.uint64(self._p)):
                why = "the player has a move" if moves else "the game is over"
                raise ValueError(f"illegal move pass for {COLOR_NAMES[self._color]}: {why}")
        elif not moves >> a & 1:
            raise ValueError(
                f"illegal move {action_text(a)} for {COLOR_NAMES[self._color]}"
                f" (legal: {', '.join(action_text(x) for x in self.legal_actions()) or 'none'})"
            )
        o2, p2 = K.play(np.uint64(self._p), np.uint64(self._o), a)
        return self._make(int(o2), int(p2), 1 - self._color)

    def is_terminal(self) -> bool:
        """True when neither side can move."""
        return bool(K.is_terminal(np.uint64(self._p), np.uint64(self._o)))

    def score(self, color: int = BLACK) -> int:
        """Disc difference for ``color``; at the end, empty squares count for the winner."""
        d = int(K.final_score(np.uint64(self._p), np.uint64(self._o)))
        if not self.is_terminal():
            d = self._p.bit_count() - self._o.bit_count()
        return d if color == self._color else -d

    def winner(self) -> int | None:
        """:data:`BLACK`, :data:`WHITE` or None for a draw, of a finished game."""
        r = self.result(BLACK)
        return None if r == 0 else BLACK if r > 0 else WHITE

    def result(self, color: int = BLACK) -> int:
        """+1 if ``color`` won the finished game, -1 if it lost, 0 for a draw.

        Raises:
            ValueError: the game is not over.
        """
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        s = self.score(color)
        return (s > 0) - (s < 0)

    # -- text -----------------------------------------------------------------------------

    action_text = staticmethod(action_text)

    def __str__(self) -> str:
        grid = self.to_grid()
        lines = ["  a b c d e f g h"]
        for r in range(8):
            lines.append(f"{r + 1} " + " ".join(DISC_CHARS[(v - 1) % 3] for v in grid[r]))
        lines.append(f"{COLOR_NAMES[self._color]} to move")
        return "\n".join(lines)

    @classmethod
    def from_str(cls, text: str) -> Self:
        """Parse ``str(board)``: 8 rows of ``X`` (black), ``O`` (white), ``.`` (empty), an
        optional header and row numbers, and a last line ``black to move`` or ``white to move``
        (black if it is missing)."""
        rows: list[list[int]] = []
        to_move = BLACK
        for line in text.strip().splitlines():
            words = line.lower().split()
            if not words:
                continue
            if words[0] in COLOR_NAMES:
                to_move = COLOR_NAMES.index(words[0])
                continue
            cells = "".join(w for w in line.split() if not w.isdigit())
            if cells.lower() == "abcdefgh":
                continue
            if len(cells) != 8 or any(ch not in "XxOo.-" for ch in cells):
                raise ValueError(f"not a board row: {line!r}")
            rows.append([1 if ch in "Xx" else 2 if ch in "Oo" else 0 for ch in cells])
        return cls.from_grid(rows, to_move)

    # -- value semantics ------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Board):
            return (self._p, self._o, self._color) == (other._p, other._o, other._color)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._p, self._o, self._color))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable")

    def __repr__(self) -> str:
        color = COLOR_NAMES[self._color]
        return f"Board(black={self.black:#x}, white={self.white:#x}, to_move={color})"
