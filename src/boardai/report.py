"""Rich tables for 2048 results: the score summary, seed 004's tile reach table and seed 000's
score buckets. Shared by ``boardai 2048 random``, the arena and the training reports."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from boardai.g2048.stats import Summary, score_buckets, tile_reach


def folding(table: Table) -> Table:
    """``table`` with every cell folded onto more lines where the width is short, never cut:
    rich ends a word longer than its column (an agent spec, a path, a trial's name) with an
    ellipsis by default, and a report at 80 columns lost the end of it."""
    for column in table.columns:
        column.overflow = "fold"
        column.no_wrap = False
    return table


def summary_table(
    summary: Summary, title: str = "scores", extra: dict[str, str] | None = None
) -> Table:
    """Mean ± standard error, median, min, max score and moves per game (plus ``extra`` rows)."""
    t = Table(title=title, show_header=False, title_justify="left")
    t.add_column("what")
    t.add_column("value", justify="right")
    t.add_row("games", f"{summary.games:,}")
    t.add_row("average score", f"{summary.mean:,.1f} ± {summary.sem:,.1f}")
    t.add_row("median score", f"{summary.median:,.0f}")
    t.add_row("min / max score", f"{summary.min:,} / {summary.max:,}")
    t.add_row("moves per game", f"{summary.moves_mean:,.1f}")
    for key, value in (extra or {}).items():
        t.add_row(key, value)
    return folding(t)


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
    """Games per score band (seed 000's table)."""
    rows = score_buckets(scores, width)
    n = sum(r[2] for r in rows) or 1
    t = Table(title=title, title_justify="left")
    t.add_column("score", justify="right")
    t.add_column("games", justify="right")
    t.add_column("share", justify="right")
    for lo, hi, count in rows:
        t.add_row(f"{lo:,}-{hi:,}", f"{count:,}", f"{100 * count / n:.1f}%")
    return folding(t)
