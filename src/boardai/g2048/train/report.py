"""Training reports in seed 004's form: a line per chunk, the tile reach table, a plot (the CSV
is :class:`boardai.learn.csv_log.CsvLog`).

Seed 004 printed, every 1,000 episodes::

    69000  avg = 35182, max = 106264, ops = 3343
         2048     72.2% (50.2%)

boardai prints the same line (``moves/s`` for ``ops``) and :func:`boardai.report.reach_table`.
"""

from __future__ import annotations

import os
from typing import Any

from boardai.g2048.train.trainer import Chunk, Trainer, summary_fields


def report_line(row: dict[str, Any]) -> str:
    """Seed 004's headline: episodes, average and max score, speed."""
    line = (
        f"{row['episode']:>8}  avg = {row['avg']:,.0f}, max = {row['max']:,}, "
        f"moves/s = {row['moves_per_s']:,}"
    )
    if row.get("restarts"):
        line += (
            f"; {row['restarts']:,} restarts: +{row['restart_avg']:,.0f}, "
            f"16384 {100 * row['restart_reach_16384']:.1f}%, "
            f"32768 {100 * row['restart_reach_32768']:.1f}%"
        )
    return line


def report_row(chunk: Chunk, trainer: Trainer) -> dict[str, Any]:
    """The report (and CSV) row of a chunk: :func:`summary_fields`, the learning rate of its
    last episode and the seconds of training so far."""
    row = summary_fields(chunk)
    row["alpha"] = trainer.alpha_at(trainer.episodes - 1)
    row["seconds"] = round(trainer.seconds, 1)
    return row


def report_view(row: dict[str, Any], chunk: Chunk, quiet: bool = False) -> Any:
    """What to print for a report row of ``chunk``: its line and, unless ``quiet``, the tile
    reach table of the chunk's fresh games."""
    from rich.console import Group
    from rich.text import Text

    from boardai.g2048.tables import reach_table

    line = Text(report_line(row))
    if quiet:
        return line
    fresh = ~chunk.restarted
    tiles = chunk.max_tiles[fresh] if fresh.any() else chunk.max_tiles
    return Group(line, reach_table(tiles, title=f"tiles, last {len(tiles):,} games"))


def plot_curve(
    rows: list[dict[str, Any]], path: str | os.PathLike[str], title: str = "n-tuple TD"
) -> None:
    """The learning curve (average and max score per report, 2048 reach rate) as a PNG."""
    from boardai.plotting import figure, save_png

    x = [r["episode"] for r in rows]
    fig = figure(8, 4.5)
    ax = fig.subplots()
    ax.plot(x, [r["avg"] for r in rows], label="average score")
    ax.plot(x, [r["max"] for r in rows], label="max score", alpha=0.5)
    ax.set_xlabel("episodes")
    ax.set_ylabel("score")
    ax.set_title(title)
    ax2 = ax.twinx()
    ax2.plot(
        x,
        [100 * r["reach_2048"] for r in rows],
        color="tab:green",
        ls="--",
        label="2048 reached (%)",
    )
    ax2.set_ylabel("2048 reached (%)")
    ax2.set_ylim(0, 100)
    lines = ax.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
    ax.legend(lines, [str(ln.get_label()) for ln in lines], loc="upper left")
    save_png(fig, path)
