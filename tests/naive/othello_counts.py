"""Slow, obviously right counts of an Othello position (the features besides an n-tuple
network's tuples, :data:`boardai.othello.ntuple.FEATURES`), square by square over a grid."""

from __future__ import annotations

from tests.naive.othello import DIRECTIONS, grid_of, legal_squares


def mobility(p: int, o: int) -> int:
    """The mover's legal moves: squares where it flips at least one disc."""
    return len(legal_squares(p, o))


def potential_mobility(p: int, o: int) -> int:
    """Empty squares with an opponent's disc on one of their (up to 8) neighbouring squares."""
    g = grid_of(p, o)
    count = 0
    for r in range(8):
        for c in range(8):
            if g[r][c] != 0:
                continue
            near = [
                g[r + dr][c + dc] for dr, dc in DIRECTIONS if 0 <= r + dr < 8 and 0 <= c + dc < 8
            ]
            count += -1 in near
    return count


def count(p: int, o: int, code: int) -> int:
    """Count ``code`` of :func:`boardai.othello.ntuple.count_value` for the mover ``p``."""
    empties = sum(1 for s in range(64) if not (p | o) >> s & 1)
    counts = [mobility(p, o), mobility(o, p), potential_mobility(p, o), potential_mobility(o, p)]
    return [*counts, empties][code]
