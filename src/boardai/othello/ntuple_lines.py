"""Othello n-tuple indices read a line at a time: the same base-3 index as
:func:`boardai.othello.ntuple.feature_index`, from a few table lookups instead of one step a
square.

An image's squares are split into groups whose rows use pairwise disjoint sets of columns (a
row, a diagonal, the squares of a few rows over different columns). For such a group with
mask ``m``, ``((X & m) * 0x0101010101010101) >> 56`` folds every row of ``X & m`` into one byte
without a carry (each byte of the product receives each row at most once, and the rows' columns
differ), so the byte has bit ``c`` set exactly where a group square in column ``c`` holds a
disc. A table per group maps that byte to its squares' share of the index: the sum of
``3 ** (n - 1 - k)`` over the group squares with a disc, ``k`` the square's place in the image.
The mover's byte adds its share once, the opponent's twice (digits 1 and 2). Columns, whose
squares share a column, are read from the transposed board, where they are rows; each image
takes whichever board needs fewer groups. The 84 images of the ``standard`` tuples need 116
groups, against 632 squares.

The tables are built by enumerating every disc pattern of each group, and the build checks that
no two patterns fold to the same byte; tests compare every index with ``feature_index``.
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardai._jit import njit

_FOLD = np.uint64(0x0101_0101_0101_0101)
_K1 = np.uint64(0x5500_5500_5500_5500)
_K2 = np.uint64(0x3333_0000_3333_0000)
_K4 = np.uint64(0x0F0F_0F0F_0000_0000)
_MASK64 = (1 << 64) - 1


class LineGroups(NamedTuple):
    """The groups of a network's images, as the kernels take them.

    Attributes:
        start: int64[n_images + 1]: image ``i`` has groups ``start[i]`` to ``start[i + 1]``.
        transposed: int64[G]: 1 where the group is read from the transposed board.
        mask: uint64[G]: the group's squares (on the board it is read from).
        table: int32[G, 256]: the folded byte's share of the image's index.
    """

    start: np.ndarray
    transposed: np.ndarray
    mask: np.ndarray
    table: np.ndarray


def _fold(x: int) -> int:
    return ((x * 0x0101_0101_0101_0101) & _MASK64) >> 56


def _split(cells: list[tuple[int, int]]) -> list[list[int]]:
    """Positions (into ``cells``, (row, column) pairs) grouped so that the rows of a group use
    disjoint columns: rows with most squares first, each into the first group it fits."""
    rows: dict[int, list[int]] = {}
    for k, (r, _) in enumerate(cells):
        rows.setdefault(r, []).append(k)
    groups: list[tuple[set[int], list[int]]] = []
    for r in sorted(rows, key=lambda r: (-len(rows[r]), r)):
        columns = {cells[k][1] for k in rows[r]}
        for used, members in groups:
            if not used & columns:
                used |= columns
                members.extend(rows[r])
                break
        else:
            groups.append((set(columns), list(rows[r])))
    return [members for _, members in groups]


def line_groups(squares: np.ndarray) -> LineGroups:
    """The groups and tables of every image of ``squares`` (int64[n_images, width], -1 padded,
    as :class:`boardai.othello.ntuple.NTupleNetwork` holds them). A count's row (no square)
    has no groups: its index is the count's, not read from the board.

    Raises:
        ValueError: a group whose patterns would fold to the same byte (cannot happen for
            groups made by the rule above; checked all the same).
    """
    start = [0]
    transposed: list[int] = []
    masks: list[int] = []
    tables: list[np.ndarray] = []
    for row in squares:
        image = [int(s) for s in row if s >= 0]
        n = len(image)
        best: tuple[int, list[list[int]], list[tuple[int, int]]] | None = None
        for t in (0, 1):
            cells = [(s // 8, s % 8) if t == 0 else (s % 8, s // 8) for s in image]
            groups = _split(cells)
            if best is None or len(groups) < len(best[1]):
                best = (t, groups, cells)
        assert best is not None
        t, groups, cells = best
        for members in groups:
            bits = [1 << (8 * cells[k][0] + cells[k][1]) for k in members]
            mask = sum(bits)
            table = np.full(256, -1, np.int64)
            for pattern in range(1 << len(members)):
                x = sum(bits[j] for j in range(len(members)) if pattern >> j & 1)
                share = sum(
                    3 ** (n - 1 - members[j]) for j in range(len(members)) if pattern >> j & 1
                )
                b = _fold(x)
                if table[b] not in (-1, share):
                    raise ValueError(f"image {image}: two disc patterns fold to byte {b}")
                table[b] = share
            table[table < 0] = 0  # bytes no pattern of the group folds to
            transposed.append(t)
            masks.append(mask)
            tables.append(table)
        start.append(len(masks))
    return LineGroups(
        np.array(start, np.int64),
        np.array(transposed, np.int64),
        np.array(masks, np.uint64),
        np.array(tables, np.int32).reshape(len(tables), 256),
    )


@njit(inline="always")
def transpose(x: np.uint64) -> np.uint64:
    """The board mirrored in the a1-h8 diagonal: square (row r, column c) to (c, r)."""
    t = _K4 & (x ^ (x << np.uint64(28)))
    x ^= t ^ (t >> np.uint64(28))
    t = _K2 & (x ^ (x << np.uint64(14)))
    x ^= t ^ (t >> np.uint64(14))
    t = _K1 & (x ^ (x << np.uint64(7)))
    x ^= t ^ (t >> np.uint64(7))
    return x


@njit(inline="always")
def line_index(
    P: np.uint64,
    O: np.uint64,
    PT: np.uint64,
    OT: np.uint64,
    i: np.int64,
    start: np.ndarray,
    transposed: np.ndarray,
    mask: np.ndarray,
    table: np.ndarray,
) -> np.int64:
    """The base-3 index of image ``i`` (``feature_index``'s), ``PT``, ``OT`` being the
    transposed boards."""
    P, O, PT, OT = np.uint64(P), np.uint64(O), np.uint64(PT), np.uint64(OT)
    idx = np.int64(0)
    for g in range(start[i], start[i + 1]):
        m = mask[g]
        if transposed[g]:
            bp = ((PT & m) * _FOLD) >> np.uint64(56)
            bo = ((OT & m) * _FOLD) >> np.uint64(56)
        else:
            bp = ((P & m) * _FOLD) >> np.uint64(56)
            bo = ((O & m) * _FOLD) >> np.uint64(56)
        idx += np.int64(table[g, bp]) + 2 * np.int64(table[g, bo])
    return idx
