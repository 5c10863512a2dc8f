"""Several players on the same game seeds, side by side."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.table import Table

from boardai.arena.results import RunResult, wilson_interval
from boardai.g2048.stats import REACH_TILES


def compare_table(runs: Sequence[RunResult], title: str = "players on the same seeds") -> Table:
    """One column per player: score statistics, moves, speed and tile reach rates (95% CI)."""
    t = Table(title=title, title_justify="left")
    t.add_column("")
    for run in runs:
        t.add_column(run.agent, justify="right", overflow="fold")
    summaries = [run.summary() for run in runs]
    t.add_row("games", *(f"{s.games:,}" for s in summaries))
    t.add_row("average score", *(f"{s.mean:,.0f} ± {s.sem:,.0f}" for s in summaries))
    t.add_row("median score", *(f"{s.median:,.0f}" for s in summaries))
    t.add_row("min / max", *(f"{s.min:,} / {s.max:,}" for s in summaries))
    t.add_row("moves per game", *(f"{s.moves_mean:,.0f}" for s in summaries))
    t.add_row("moves per second", *(f"{run.moves_per_second():,.0f}" for run in runs))
    cpu = [run.cpu_ms_per_move() for run in runs]
    t.add_row("CPU ms per move", *(f"{x:,.3f}" if math.isfinite(x) else "-" for x in cpu))
    top = max((int(run.max_tiles.max()) for run in runs if run.results), default=0)
    for tile in REACH_TILES:
        if tile < 256 or tile > top:
            continue
        cells = []
        for run in runs:
            hits = int((run.max_tiles >= tile).sum())
            lo, hi = wilson_interval(hits, len(run.results))
            cells.append(
                f"{100 * hits / max(len(run.results), 1):.0f}% ({100 * lo:.0f}-{100 * hi:.0f})"
            )
        t.add_row(f"reached {tile}", *cells)
    return t
