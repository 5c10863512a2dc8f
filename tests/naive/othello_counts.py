"""Slow, obviously right pieces of an Othello n-tuple network's value: the plain sum of its
tuples' weights, and the counts of a position (the features besides the tuples,
:data:`boardai.othello.ntuple.FEATURES`), square by square over a grid."""

from __future__ import annotations

from typing import Any

from tests.naive.othello import DIRECTIONS, grid_of, legal_squares


def tuple_sum(net: Any, p: int, o: int) -> float:
    """A network of tuples only (no counts), the plain way: the stage from the disc count,
    then every image's squares read as base-3 digits (1 the mover's, 2 the opponent's) into
    that stage's copy of its tuple's table."""
    discs = bin(p | o).count("1")
    stage = min(max((discs - 4) * net.stages // 61, 0), net.stages - 1)
    table = net.weights.size // net.stages
    total = 0.0
    for i in range(net.n_images):
        idx = 0
        for s in net.squares[i]:
            if s < 0:
                break
            idx = 3 * idx + (1 if p >> int(s) & 1 else 2 if o >> int(s) & 1 else 0)
        total += float(net.weights[stage * table + int(net.offsets[0, i]) + idx])
    return total


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
