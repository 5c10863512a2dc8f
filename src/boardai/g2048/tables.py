"""Rich tables of 2048 results: the tile reach table and the score bands. Shared by ``boardai
2048 random``, ``eval``, ``bench ntuple`` and the training reports."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from boardai.g2048.stats import score_buckets, tile_reach
from boardai.report import folding


def reach_table(max_tiles: Any, title: str = "tiles") -> Table:
    """For each tile: the share of games that reached it, and that ended on it."""
    t = Table(title=title, title_justify="left")
    t.add_column("tile", justify="right")
    t.add_column("reached", justify="right")
    t.add_column("ended on", justify="right")
    for tile, reached, ended in tile_reach(max_tiles):
        t.add_row(f"{tile}", f"{100 * reached:.1f}%", f"{100 * ended:.1f}%")
    return folding(t)


def bucket_table(scores: Any, width: int | None = None, title: str = "score bands") -> Table:
    """Games per score band ."""
    rows = score_buckets(scores, width)
    n = sum(r[2] for r in rows) or 1
    t = Table(title=title, title_justify="left")
    t.add_column("score", justify="right")
    t.add_column("games", justify="right")
    t.add_column("share", justify="right")
    for lo, hi, count in rows:
        t.add_row(f"{lo:,}-{hi:,}", f"{count:,}", f"{100 * count / n:.1f}%")
    return folding(t)
