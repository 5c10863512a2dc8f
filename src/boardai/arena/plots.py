"""A PNG of an arena run: the score histogram beside the tile reach bars."""

from __future__ import annotations

import os

from boardai.arena.results import RunResult
from boardai.atomic import atomic_write
from boardai.g2048.stats import tile_reach


def write_plot(run: RunResult, path: str | os.PathLike[str]) -> None:
    """Write the histogram of scores and the share of games reaching each tile to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 4.2), layout="constrained")
    left, right = fig.subplots(1, 2)
    scores = run.scores
    left.hist(scores, bins=min(40, max(5, len(scores) // 3)), color="#edc22e", edgecolor="#776e65")
    left.set_xlabel("score")
    left.set_ylabel("games")
    left.set_title(
        f"{run.agent}: {len(scores)} games, mean {scores.mean():,.0f}" if len(scores) else run.agent
    )
    rows = tile_reach(run.max_tiles)
    labels = [str(t) for t, _, _ in rows]
    right.bar(labels, [100 * r for _, r, _ in rows], color="#f67c5f", label="reached")
    right.bar(labels, [100 * e for _, _, e in rows], color="#776e65", label="ended on", width=0.4)
    right.set_ylabel("% of games")
    right.set_ylim(0, 100)
    right.set_title("tiles")
    right.tick_params(axis="x", rotation=45)
    right.legend()
    with atomic_write(path, "wb") as f:
        fig.savefig(f, format="png", dpi=100)
