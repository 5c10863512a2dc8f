"""Rich tables of results shared by every report: the score summary, and folding long cells.
A game's own tables (2048's tile reach and score bands) are in its package."""

from __future__ import annotations

from typing import Protocol

from rich.table import Table


class Summary(Protocol):
    """What :func:`summary_table` reads of a run's scores (a game's summary, such as
    :class:`boardai.g2048.stats.Summary`)."""

    @property
    def games(self) -> int: ...
    @property
    def mean(self) -> float: ...
    @property
    def sem(self) -> float: ...
    @property
    def median(self) -> float: ...
    @property
    def min(self) -> int: ...
    @property
    def max(self) -> int: ...
    @property
    def moves_mean(self) -> float: ...


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
