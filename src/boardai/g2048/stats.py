"""Statistics of many 2048 games: score summary, tile reach table (seed 004's form), and
score buckets (seed 000's table). Plain numpy; rendering is the caller's."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

#: Tiles of the reach table, as in seed 004's report (32 ... 131072).
REACH_TILES = tuple(1 << e for e in range(5, 18))


@dataclass(frozen=True)
class Summary:
    """Score statistics of a set of games."""

    games: int
    mean: float
    sem: float
    median: float
    min: int
    max: int
    moves_mean: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def standard_error(values: Any) -> float:
    """Standard error of the mean of ``values`` (nan for fewer than 2)."""
    v = np.asarray(values, dtype=np.float64)
    return float(v.std(ddof=1) / math.sqrt(len(v))) if len(v) > 1 else math.nan


def summarize(scores: Any, moves: Any) -> Summary:
    """Mean (with standard error), median, min, max score and mean moves per game."""
    s = np.asarray(scores, dtype=np.float64)
    m = np.asarray(moves, dtype=np.float64)
    n = len(s)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan, 0, 0, math.nan)
    sem = standard_error(s)
    return Summary(
        n, float(s.mean()), sem, float(np.median(s)), int(s.min()), int(s.max()), float(m.mean())
    )


def tile_reach(max_tiles: Any) -> list[tuple[int, float, float]]:
    """For each tile of :data:`REACH_TILES` up to the largest seen: (tile, share of games that
    reached at least it, share that ended with it as the largest tile)."""
    t = np.asarray(max_tiles, dtype=np.int64)
    if len(t) == 0:
        return []
    top = int(t.max())
    rows = []
    for tile in REACH_TILES:
        if tile > max(top, REACH_TILES[0]):
            break
        rows.append((tile, float((t >= tile).mean()), float((t == tile).mean())))
    return rows


def score_buckets(scores: Any, width: int | None = None) -> list[tuple[int, int, int]]:
    """Games per score band ``[lo, hi)``: (lo, hi, count). ``width`` None picks a round width
    that gives about ten bands."""
    s = np.asarray(scores, dtype=np.int64)
    if len(s) == 0:
        return []
    if width is None:
        span = max(int(s.max()), 1)
        raw = span / 10
        mag = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
        width = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    if width <= 0:
        raise ValueError(f"bucket width must be positive, got {width}")
    lo = int(s.min()) // width * width
    rows = []
    while lo <= s.max():
        rows.append((lo, lo + width, int(((s >= lo) & (s < lo + width)).sum())))
        lo += width
    return rows
