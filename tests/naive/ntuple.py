"""A slow, obviously right n-tuple network over 4x4 lists of exponents: the truth the compiled
lookups and updates are checked against.

A network here is a list of patterns (tuples of cells 4*row+col) and, per stage, one dict per
pattern from index to weight (missing = 0). The value of a board is the sum over the 8
symmetric images of the grid and over the patterns of ``table[index]``, where ``index`` reads
the pattern's cells as base-16 digits, the first cell lowest, each exponent capped at 15.
"""

from __future__ import annotations

from typing import Any

Grid = list[list[int]]


def grid_of(exponents: list[int]) -> Grid:
    return [exponents[4 * r : 4 * r + 4] for r in range(4)]


def rotate(grid: Grid) -> Grid:
    """A quarter turn clockwise."""
    return [list(row) for row in zip(*grid[::-1], strict=True)]


def mirror(grid: Grid) -> Grid:
    return [row[::-1] for row in grid]


def images(grid: Grid) -> list[Grid]:
    """The 8 symmetric images: 4 rotations of the grid and 4 of its mirror."""
    out = []
    for g in (grid, mirror(grid)):
        for _ in range(4):
            out.append(g)
            g = rotate(g)
    return out


def index(grid: Grid, pattern: tuple[int, ...]) -> int:
    return sum(min(grid[c // 4][c % 4], 15) * 16**j for j, c in enumerate(pattern))


def stage(grid: Grid, thresholds: tuple[int | tuple[int, ...], ...]) -> int:
    """How many thresholds the board reaches. A threshold is an exponent or a tuple of them,
    largest first; the board reaches it when its distinct exponents (capped at 15), largest
    first, are at least the threshold as Python lists compare: [15, 3] >= [14, 13] and
    [14, 13, 2] >= [14, 13] but [14, 12] < [14, 13]; for one exponent, the largest tile reaches it.
    """
    tiles = sorted({min(e, 15) for row in grid for e in row if e > 0}, reverse=True)
    return sum(tiles >= ([t] if isinstance(t, int) else list(t)) for t in thresholds)


def lookups(exponents: list[int], patterns: list[tuple[int, ...]]) -> list[tuple[int, int]]:
    """(pattern number, index) of every lookup, 8 per pattern."""
    return [
        (p, index(g, pat)) for g in images(grid_of(exponents)) for p, pat in enumerate(patterns)
    ]


Tables = list[list[dict[int, float]]]


def tables_from(
    weights: Any, offsets: Any, patterns: list[tuple[int, ...]], n_stages: int
) -> Tables:
    """The tables of a flat weight array laid out as the compiled network's: stage ``s``,
    pattern ``p`` at ``s * offsets[-1] + offsets[p]``, ``16 ** len(pattern)`` entries."""
    size = int(offsets[-1])
    return [
        [
            {i: float(weights[s * size + offsets[p] + i]) for i in range(16 ** len(pat))}
            for p, pat in enumerate(patterns)
        ]
        for s in range(n_stages)
    ]


def value(
    exponents: list[int],
    patterns: list[tuple[int, ...]],
    tables: Tables,
    thresholds: tuple[int | tuple[int, ...], ...] = (),
    stage_exponents: list[int] | None = None,
) -> float:
    """``tables[stage][pattern]`` maps index -> weight; the stage is that of
    ``stage_exponents`` when given (a downgraded board's is that of the board as it is)."""
    s = stage(grid_of(exponents if stage_exponents is None else stage_exponents), thresholds)
    return sum(tables[s][p].get(i, 0.0) for p, i in lookups(exponents, patterns))


def update(
    exponents: list[int],
    patterns: list[tuple[int, ...]],
    tables: Tables,
    step: float,
    thresholds: tuple[int | tuple[int, ...], ...] = (),
) -> None:
    """Add ``step`` to the weight of every lookup (twice if looked up twice)."""
    s = stage(grid_of(exponents), thresholds)
    for p, i in lookups(exponents, patterns):
        tables[s][p][i] = tables[s][p].get(i, 0.0) + step


def lambda_return(
    rewards: list[float], values: list[float], t: int, lam: float, horizon: int
) -> float:
    """The truncated lambda return of afterstate t of an episode of n afterstates: n-step returns
    G(m) = r[t+1] + ... + r[t+m] + values[t+m] (no value past the end), mixed with weights
    (1-lam) lam^(m-1) for m < horizon and lam^(horizon-1) for m = horizon."""
    n = len(rewards)

    def g(m: int) -> float:
        end = min(t + m, n - 1)
        ret = sum(rewards[t + 1 : end + 1])
        return ret + (values[t + m] if t + m <= n - 1 else 0.0)

    total = sum((1 - lam) * lam ** (m - 1) * g(m) for m in range(1, horizon))
    return total + lam ** (horizon - 1) * g(horizon)


def downgrade(exponents: list[int], min_exponent: int) -> list[int]:
    """Tile downgrading, spelled out: while the largest exponent is at least ``min_exponent``
    and some exponent between 1 and it is missing, lower every exponent above the largest
    missing one by one."""
    cells = list(exponents)
    while True:
        top = max(cells)
        missing = [e for e in range(1, top) if e not in cells]
        if top < min_exponent or not missing:
            return cells
        gap = max(missing)
        cells = [c - 1 if c > gap else c for c in cells]
