"""A slow, obviously right 2048 engine over lists of tile values, the truth the kernels are
checked against. A grid is 4 rows of 4 ints (0 empty)."""

from __future__ import annotations

Grid = list[list[int]]

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3


def slide_line(line: list[int]) -> tuple[list[int], int]:
    """Slide one line towards index 0: each tile merges at most once per move."""
    tiles = [v for v in line if v]
    out: list[int] = []
    reward = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            reward += 2 * tiles[i]
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(line) - len(out)), reward


def lines(grid: Grid, action: int) -> list[list[tuple[int, int]]]:
    """The cells of each line, listed from the side the tiles move towards."""
    if action == LEFT:
        return [[(r, c) for c in range(4)] for r in range(4)]
    if action == RIGHT:
        return [[(r, c) for c in reversed(range(4))] for r in range(4)]
    if action == UP:
        return [[(r, c) for r in range(4)] for c in range(4)]
    return [[(r, c) for r in reversed(range(4))] for c in range(4)]


def slide(grid: Grid, action: int) -> tuple[Grid, int]:
    out = [row[:] for row in grid]
    total = 0
    for cells in lines(grid, action):
        values, reward = slide_line([grid[r][c] for r, c in cells])
        total += reward
        for (r, c), v in zip(cells, values, strict=True):
            out[r][c] = v
    return out, total


def legal_actions(grid: Grid) -> list[int]:
    return [a for a in range(4) if slide(grid, a)[0] != grid]


def empty_cells(grid: Grid) -> list[int]:
    return [4 * r + c for r in range(4) for c in range(4) if grid[r][c] == 0]


def transpose(grid: Grid) -> Grid:
    return [[grid[c][r] for c in range(4)] for r in range(4)]


def mirror(grid: Grid) -> Grid:
    """Left-right mirror."""
    return [row[::-1] for row in grid]


def spawn(grid: Grid, bits: int, p4: float) -> Grid:
    """The grid after the spawn that 64 random ``bits`` make: the k-th of the n empty cells in
    row-major order, k = (bits >> 32) * n >> 32, gets a 4 if the low 32 bits are below
    p4 * 2**32, else a 2; a full grid stays as it is."""
    empties = empty_cells(grid)
    if not empties:
        return grid
    cell = empties[((bits >> 32) * len(empties)) >> 32]
    out = [row[:] for row in grid]
    out[cell // 4][cell % 4] = 4 if (bits & 0xFFFF_FFFF) < p4 * 2**32 else 2
    return out
