"""Two players on the same games, paired: the score difference game by game and, for a tile, the
games where only one of them reached it, with McNemar's exact test.

Two runs with the same seed play the same games (game ``i`` depends on the run's seed and ``i``
alone: :mod:`boardai.arena.seeding`), so comparing them game by game removes the luck of the
spawns that the two averages share. A game is paired by its index and its game seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rich.table import Table

from boardai.arena.results import RunResult


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: the chance, were both players as likely to be the one
    of a discordant game, of a split at least this uneven (the binomial with p = 1/2 over the
    ``only_a + only_b`` discordant games, its smaller tail doubled, at most 1).

    >>> round(mcnemar_exact(20, 32), 2)
    0.13
    """
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return min(1.0, 2 * tail / 2**n)


@dataclass(frozen=True)
class Paired:
    """Run ``b`` against run ``a`` on their common games."""

    games: int
    #: mean of (b's score - a's score) over the common games, and its standard error
    diff_mean: float
    diff_sem: float
    tile: int
    #: common games where both, only a, only b, neither reached ``tile``
    both: int
    only_a: int
    only_b: int
    neither: int

    @property
    def p_value(self) -> float:
        """McNemar's exact test of the tile's reach (:func:`mcnemar_exact`)."""
        return mcnemar_exact(self.only_a, self.only_b)


def paired(a: RunResult, b: RunResult, tile: int) -> Paired:
    """Pair the games of ``a`` and ``b`` that have the same index and game seed."""
    of_a = {(r.index, r.seed): r for r in a.results}
    common = [(of_a[r.index, r.seed], r) for r in b.results if (r.index, r.seed) in of_a]
    diff = np.array([rb.score - ra.score for ra, rb in common], np.float64)
    reach = [(ra.max_tile >= tile, rb.max_tile >= tile) for ra, rb in common]
    n = len(common)
    return Paired(
        games=n,
        diff_mean=float(diff.mean()) if n else math.nan,
        diff_sem=float(diff.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan,
        tile=tile,
        both=sum(x and y for x, y in reach),
        only_a=sum(x and not y for x, y in reach),
        only_b=sum(y and not x for x, y in reach),
        neither=sum(not x and not y for x, y in reach),
    )


def common_tile(runs: Sequence[RunResult]) -> int:
    """The largest tile that every run reached at least once (2 if a run has no games)."""
    return min((int(run.max_tiles.max()) if run.results else 2 for run in runs), default=2)


def paired_table(runs: Sequence[RunResult], tile: int) -> Table:
    """Each run after the first against the first, on their common games."""
    first = runs[0]
    t = Table(
        title=f"game by game against the first player ({first.agent}), {tile}: McNemar's exact "
        "test",
        title_justify="left",
    )
    t.add_column("player", overflow="fold")
    for name in ("games", "score - first's", f"{tile} only it", f"{tile} only first", "p"):
        t.add_column(name, justify="right")
    for run in runs[1:]:
        p = paired(first, run, tile)
        if p.games == 0:
            t.add_row(run.agent, "0", "-", "-", "-", "-")
            continue
        sem = "" if math.isnan(p.diff_sem) else f" ± {p.diff_sem:,.0f}"
        t.add_row(
            run.agent,
            f"{p.games:,}",
            f"{p.diff_mean:+,.0f}{sem}",
            f"{p.only_b:,}",
            f"{p.only_a:,}",
            f"{p.p_value:.2g}",
        )
    return t
