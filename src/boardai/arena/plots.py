"""PNGs of arena runs: one run's score histogram beside its tile reach bars, and several
players' score distributions beside their tile reach curves."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardai.arena.results import RunResult, wilson_interval
from boardai.g2048.stats import REACH_TILES, tile_reach
from boardai.plotting import figure, save_png

#: Score spreads wider than this (largest over smallest median) are drawn on a log scale.
LOG_SPREAD = 20.0


def write_plot(run: RunResult, path: str | os.PathLike[str]) -> None:
    """Write the histogram of scores and the share of games reaching each tile to ``path``."""
    fig = figure()
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
    save_png(fig, path)


def reach_curve(run: RunResult, tiles: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The share of ``run``'s games reaching each of ``tiles``, and its 95% Wilson interval
    as ``(2, len(tiles))`` distances below and above (matplotlib's ``yerr``)."""
    n = len(run.results)
    hits = [int((run.max_tiles >= tile).sum()) for tile in tiles]
    rates = np.array([h / n if n else 0.0 for h in hits])
    bounds = np.array([wilson_interval(h, n) for h in hits]).reshape(len(tiles), 2).T
    return rates, np.abs(bounds - rates)


def _wrapped(name: str, width: int = 26) -> str:
    """A player's spec over lines of about ``width`` characters, broken after its commas."""
    lines = [""]
    for part in name.split(","):
        piece = part if not lines[-1] else "," + part
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines[-1] += ","
            lines.append(part)
        else:
            lines[-1] += piece
    return "\n".join(lines)


def write_compare_plot(runs: Sequence[RunResult], path: str | os.PathLike[str], title: str) -> None:
    """Write :func:`compare_figure` to ``path`` as a PNG."""
    save_png(compare_figure(runs, title), path)


def compare_figure(runs: Sequence[RunResult], title: str) -> Any:
    """Several players side by side (the runs with games): each one's scores as a box
    (median, quartiles, 5th and 95th percentiles; a log scale where the medians differ more
    than :data:`LOG_SPREAD` times), and the share of its games reaching each tile, with 95%
    intervals (from the tile below the first one some player does not always reach)."""
    from matplotlib.ticker import StrMethodFormatter

    fig = figure()
    left, right = fig.subplots(1, 2)
    played = [run for run in runs if len(run.results)]
    colours = [f"C{k % 10}" for k in range(len(played))]  # one colour a player, both panels
    boxes = left.boxplot(
        [run.scores for run in played],
        whis=(5, 95),
        showfliers=False,
        patch_artist=True,
        medianprops={"color": "black"},
    )
    for box, colour in zip(boxes["boxes"], colours, strict=True):
        box.set_facecolor(colour)
        box.set_alpha(0.7)
    left.set_xticks(range(1, len(played) + 1), [_wrapped(run.agent) for run in played])
    left.tick_params(axis="x", labelsize="small")
    medians = [float(np.median(run.scores)) for run in played]
    if medians and min(medians) > 0 and max(medians) / min(medians) > LOG_SPREAD:
        left.set_yscale("log")
    left.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    left.set_ylabel("score")
    left.set_title(title, fontsize="medium")
    top = max((int(run.max_tiles.max()) for run in played), default=0)
    tiles = [t for t in REACH_TILES if t <= max(top, REACH_TILES[0])]
    curves = [reach_curve(run, tiles) for run in played]
    short = [k for k in range(len(tiles)) if any(rates[k] < 1.0 for rates, _ in curves)]
    first = max(0, short[0] - 1) if short else 0  # the tiles every game reached say nothing
    tiles = tiles[first:]
    at = np.arange(len(tiles), dtype=np.float64)
    for k, (run, (rates, err)) in enumerate(zip(played, curves, strict=True)):
        dodge = (k - (len(played) - 1) / 2) * 0.06  # intervals side by side, not on top
        right.errorbar(
            at + dodge,
            100 * rates[first:],
            yerr=100 * err[:, first:],
            marker="o",
            capsize=3,
            color=colours[k],
            label=_wrapped(run.agent, 40),
        )
    right.set_xticks(at, [str(t) for t in tiles])
    right.set_ylabel("% of games reaching the tile")
    right.set_ylim(0, 102)
    right.set_title("tiles (95% intervals)", fontsize="medium")
    if played:
        right.legend(fontsize="small")
    return fig


def tournament_figure(
    names: Sequence[str], elo: Sequence[float], scores: dict[tuple[int, int], tuple[float, int]]
) -> Any:
    """A round robin (``scores[(i, j)] = (points of i against j, games)``, players
    ``names`` with ratings ``elo``): the cross table of each row player's score against each
    column player, best rated first, beside the Elo ratings."""
    fig = figure()
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    played = sorted({k for pair in scores for k in pair}, key=lambda k: -elo[k])
    n = len(played)
    table = np.full((n, n), np.nan)
    for (i, j), (points, games) in scores.items():
        if games:
            a, b = played.index(i), played.index(j)
            table[a, b], table[b, a] = points / games, 1 - points / games
    left.imshow(table, cmap="RdYlGn", vmin=0, vmax=1)
    for a in range(n):
        for b in range(n):
            if not np.isnan(table[a, b]):
                ink = "white" if abs(table[a, b] - 0.5) > 0.35 else "black"  # on dark cells
                left.text(
                    b,
                    a,
                    f"{table[a, b]:.2f}",
                    ha="center",
                    va="center",
                    fontsize="small",
                    color=ink,
                )
    labels = [_wrapped(names[k], 20) for k in played]
    left.set_xticks(range(n), labels, rotation=30, ha="right", fontsize="small")
    left.set_yticks(range(n), labels, fontsize="small")
    left.set_title("score of the row's player against the column's", fontsize="medium")
    ratings = [elo[k] for k in played]
    bars = right.barh(range(n), ratings, color="#2e7d32")
    right.bar_label(bars, [f"{x:.0f}" for x in ratings], padding=3, fontsize="small")
    right.set_yticks(range(n), labels, fontsize="small")
    right.invert_yaxis()  # best on top, as in the table
    low, high = min(ratings), max(ratings)
    pad = max(50.0, (high - low) * 0.15)
    right.set_xlim(low - pad, high + pad)
    right.set_xlabel("Elo (mean 1500)")
    right.set_title("ratings", fontsize="medium")
    return fig


def write_tournament_plot(
    names: Sequence[str],
    elo: Sequence[float],
    scores: dict[tuple[int, int], tuple[float, int]],
    path: str | os.PathLike[str],
) -> None:
    """Write :func:`tournament_figure` to ``path`` as a PNG."""
    save_png(tournament_figure(names, elo, scores), path)
