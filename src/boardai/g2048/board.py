"""Board: an immutable, hashable 2048 position over the packed bitboard.

>>> b = Board.from_grid([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
>>> after, reward = b.slide(LEFT)
>>> after.to_grid()[0], reward
([4, 0, 0, 0], 4)
>>> Board.from_str(str(after)) == after
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from boardai.g2048 import kernels as K
from boardai.g2048.kernels import ACTION_NAMES, DOWN, LEFT, MAX_EXPONENT, RIGHT, UP

if TYPE_CHECKING:
    from typing import Self

__all__ = ["ACTION_NAMES", "DOWN", "LEFT", "RIGHT", "UP", "Board", "parse_action"]

MAX_TILE = 1 << MAX_EXPONENT
_U64 = (1 << 64) - 1
_set = object.__setattr__


def parse_action(action: int | str) -> int:
    """An action as 0..3, from an int or a name (``up``, ``right``, ``down``, ``left``)."""
    if isinstance(action, str):
        name = action.strip().lower()
        if name in ACTION_NAMES:
            return ACTION_NAMES.index(name)
        raise ValueError(f"unknown action {action!r}: expected one of {', '.join(ACTION_NAMES)}")
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool) and 0 <= action <= 3:
        return int(action)
    raise ValueError(f"action {action!r} is not one of 0 up, 1 right, 2 down, 3 left")


def _exponent_of(value: object, where: str) -> int:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        v = int(value)
        if v == 0:
            return 0
        if v >= 2 and v & (v - 1) == 0:
            if v > MAX_TILE:
                raise ValueError(
                    f"{where}: {v} is above 2^{MAX_EXPONENT}, the largest tile a board holds"
                )
            return v.bit_length() - 1
    raise ValueError(f"{where}: {value!r} is not 0 or a power of two >= 2")


class Board:
    """A 2048 position: 16 cells, each empty or a tile 2 .. 131072 (boards built by hand may
    hold tiles up to 2^30; a slide may make 2^31).

    ``int(board)`` is the packed value: cell (r, c)'s exponent in bits 4*(4r+c)..4*(4r+c)+3,
    plus, only for boards holding a tile above 32768, bit ``64 + i`` for each cell i whose
    exponent is 16 or more (its nibble then holds ``exponent - 16``).
    """

    __slots__ = ("_hi", "_lo")

    _lo: int
    _hi: int

    def __init__(self, packed: int = 0) -> None:
        packed = int(packed)
        if packed < 0 or packed >> 80:
            raise ValueError(f"packed board {packed:#x} is out of range")
        lo, hi = packed & _U64, packed >> 64
        for i in range(16):
            if (hi >> i) & 1 and ((lo >> (4 * i)) & 0xF) + 16 > MAX_EXPONENT + 1:
                raise ValueError(
                    f"packed board {packed:#x}: cell {i} is above 2^{MAX_EXPONENT + 1}"
                )
        _set(self, "_lo", lo)
        _set(self, "_hi", hi)

    @classmethod
    def _make(cls, lo: int, hi: int = 0) -> Self:
        b = object.__new__(cls)
        _set(b, "_lo", lo)
        _set(b, "_hi", hi)
        return b

    # -- construction and conversion ------------------------------------------------------

    @classmethod
    def from_grid(cls, rows: Sequence[Sequence[int]]) -> Self:
        """A board from 4 rows of 4 tile values (0 for empty)."""
        if not isinstance(rows, Sequence) or len(rows) != 4:
            raise ValueError(f"a grid needs 4 rows, got {_len_or_type(rows)}")
        cells = []
        for r, row in enumerate(rows):
            if not isinstance(row, Sequence) or len(row) != 4:
                raise ValueError(f"row {r} needs 4 cells, got {_len_or_type(row)}")
            for c, value in enumerate(row):
                cells.append(_exponent_of(value, f"cell (row {r}, column {c})"))
        return cls.from_exponents(cells)

    @classmethod
    def from_exponents(cls, exponents: Iterable[int]) -> Self:
        """A board from 16 exponents in row-major order (0 empty, 1 = tile 2, ...)."""
        cells = [int(e) for e in exponents]
        if len(cells) != 16:
            raise ValueError(f"a board has 16 cells, got {len(cells)}")
        lo = hi = 0
        for i, e in enumerate(cells):
            if not 0 <= e <= MAX_EXPONENT + 1:
                raise ValueError(f"cell {i}: exponent {e} is not in 0..{MAX_EXPONENT}")
            lo |= (e & 0xF) << (4 * i)
            hi |= (e >> 4) << i
        return cls._make(lo, hi)

    @classmethod
    def from_str(cls, text: str) -> Self:
        """Parse the grid ``str(board)`` prints (``.`` or ``0`` for empty cells)."""
        rows = []
        for line in text.strip().splitlines():
            tokens = line.replace("|", " ").split()
            if tokens:
                rows.append([0 if t in (".", "0", "-") else _parse_int(t) for t in tokens])
        return cls.from_grid(rows)

    def to_grid(self) -> list[list[int]]:
        """4 rows of 4 tile values, 0 for empty."""
        e = self.exponents()
        return [[(1 << e[4 * r + c]) if e[4 * r + c] else 0 for c in range(4)] for r in range(4)]

    def exponents(self) -> list[int]:
        """The 16 exponents, row-major."""
        return [((self._lo >> (4 * i)) & 0xF) + 16 * ((self._hi >> i) & 1) for i in range(16)]

    def __int__(self) -> int:
        return self._lo | (self._hi << 64)

    def __index__(self) -> int:
        return int(self)

    @property
    def lo(self) -> int:
        """The packed nibbles (exact alone when no tile is above 32768)."""
        return self._lo

    @property
    def hi(self) -> int:
        """Mask of cells whose exponent is 16 or more (0 for nearly every board)."""
        return self._hi

    # -- rules ----------------------------------------------------------------------------

    def slide(self, action: int) -> tuple[Self, int]:
        """The afterstate (no spawn) and reward of ``action``; an illegal move changes nothing."""
        if action.__class__ is not int or not 0 <= action <= 3:
            action = parse_action(action)
        lo, hi, reward = K.move(self._lo, self._hi, action)
        return self._make(int(lo), int(hi)), int(reward)

    def legal_actions(self) -> list[int]:
        """The actions that change the board, in order 0..3."""
        mask = K.legal_mask(self._lo, self._hi)
        return [a for a in range(4) if mask >> a & 1]

    def is_terminal(self) -> bool:
        """True when no move is legal."""
        if self._hi == 0:
            return not K.can_move_fast(self._lo)
        return K.legal_mask(self._lo, self._hi) == 0

    def max_tile(self) -> int:
        """The largest tile (0 on an empty board)."""
        e = int(K.max_exponent(self._lo, self._hi))
        return 1 << e if e else 0

    def empty_cells(self) -> list[int]:
        """Indices 4r+c of the empty cells, increasing."""
        mask = K.empty_mask(self._lo, self._hi)
        return [i for i in range(16) if mask >> i & 1]

    def tile_sum(self) -> int:
        """Sum of all tiles (kept by every slide)."""
        return sum(1 << e for e in self.exponents() if e)

    def place(self, cell: int, value: int) -> Self:
        """This board with a tile of ``value`` (2 or 4) put on the empty ``cell``."""
        if not 0 <= cell < 16 or (self._lo >> (4 * cell)) & 0xF or (self._hi >> cell) & 1:
            raise ValueError(f"cell {cell} is not an empty cell of this board")
        if value not in (2, 4):
            raise ValueError(f"a spawned tile is 2 or 4, not {value}")
        return self._make(self._lo | ((value >> 1) << (4 * cell)), self._hi)

    def spawn(self, rng: np.random.Generator, p4: float = 0.1) -> Self:
        """One tile by the rules: a uniformly chosen empty cell, 4 with probability p4, else 2.

        A full board is returned unchanged.
        """
        cell, value = self.draw_spawn(rng, p4)
        return self if cell < 0 else self.place(cell, value)

    def draw_spawn(self, rng: np.random.Generator, p4: float = 0.1) -> tuple[int, int]:
        """The (cell, value) the rules would spawn, or (-1, 0) on a full board."""
        empties = self.empty_cells()
        if not empties:
            return -1, 0
        cell = empties[int(rng.integers(len(empties)))]
        return cell, 4 if rng.random() < p4 else 2

    def chance_outcomes(self, p4: float = 0.1) -> list[tuple[Self, float]]:
        """Every board one spawn can make, with its probability (they sum to 1).

        A full board has the single outcome (itself, 1.0).
        """
        empties = self.empty_cells()
        if not empties:
            return [(self, 1.0)]
        n = len(empties)
        out = []
        for cell in empties:
            if p4 < 1.0:
                out.append((self.place(cell, 2), (1.0 - p4) / n))
            if p4 > 0.0:
                out.append((self.place(cell, 4), p4 / n))
        return out

    # -- value semantics ------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Board):
            return self._lo == other._lo and self._hi == other._hi
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._lo, self._hi))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable")

    def __repr__(self) -> str:
        return f"Board({int(self):#x})"

    def __str__(self) -> str:
        grid = self.to_grid()
        width = max(4, max(len(str(v)) for row in grid for v in row))
        return "\n".join(" ".join((str(v) if v else ".").rjust(width) for v in row) for row in grid)


def _parse_int(token: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise ValueError(f"{token!r} is not a tile value") from None


def _len_or_type(x: object) -> str:
    return str(len(x)) if isinstance(x, Sequence) else type(x).__name__
