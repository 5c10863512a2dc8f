"""A plain recursive expectimax over Board.chance_outcomes(), and nneonneo's row heuristic
written out cell by cell: the slow truth the compiled search is checked against."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from boardai.g2048 import Board

Evaluate = Callable[[Board], float]


def row_score(line: list[int], smoothness: float = 0.0) -> float:
    """nneonneo's heuristic of one line of 4 exponents (his tuned weights), minus
    ``smoothness`` times the rank differences of neighbouring tiles (empties skipped)."""
    total = sum(rank**3.5 for rank in line)
    empty = line.count(0)
    merges = 0
    prev = 0
    counter = 0
    for rank in line:
        if rank == 0:
            continue
        if prev == rank:
            counter += 1
        elif counter > 0:
            merges += 1 + counter
            counter = 0
        prev = rank
    if counter > 0:
        merges += 1 + counter
    left = right = 0.0
    for a, b in itertools.pairwise(line):
        if a > b:
            left += a**4 - b**4
        else:
            right += b**4 - a**4
    tiles = [rank for rank in line if rank]
    rough = sum(abs(a - b) for a, b in itertools.pairwise(tiles))
    return (
        200000.0 + 270.0 * empty + 700.0 * merges - 47.0 * min(left, right) - 11.0 * total
        - smoothness * rough
    )  # fmt: skip


def heuristic(board: Board) -> float:
    """Sum of :func:`row_score` over the 4 rows and the 4 columns (exponents above 15 capped)."""
    e = [min(x, 15) for x in board.exponents()]
    rows = [e[4 * r : 4 * r + 4] for r in range(4)]
    cols = [[e[4 * r + c] for r in range(4)] for c in range(4)]
    return sum(row_score(line) for line in rows + cols)


def max_value(
    board: Board, depth: int, evaluate: Evaluate, reward_weight: float, p4: float
) -> float:
    """Value of a max node with ``depth`` max layers (this one included); 0 with no move."""
    values = root_values(board, depth, evaluate, reward_weight, p4)
    finite = [v for v in values if v != -math.inf]
    return max(finite) if finite else 0.0


def chance_value(
    after: Board, depth: int, evaluate: Evaluate, reward_weight: float, p4: float
) -> float:
    """Value of an afterstate with ``depth`` max layers below it (0: evaluate it)."""
    if depth == 0:
        return evaluate(after)
    return sum(
        p * max_value(b, depth, evaluate, reward_weight, p4) for b, p in after.chance_outcomes(p4)
    )


def root_values(
    board: Board,
    depth: int,
    evaluate: Evaluate = heuristic,
    reward_weight: float = 0.0,
    p4: float = 0.1,
) -> list[float]:
    """The value of each of the 4 moves (``-inf`` where illegal) searched ``depth`` layers."""
    out = []
    for a in range(4):
        after, reward = board.slide(a)
        if after == board:
            out.append(-math.inf)
        else:
            out.append(
                reward_weight * reward + chance_value(after, depth - 1, evaluate, reward_weight, p4)
            )
    return out
