"""``boardai othello data show``: what a games file of ``boardai othello data pack`` holds."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from boardai.cli import App

#: The empties bands ``show`` counts positions in (a position with a move has 1..60 empties).
BANDS = ((1, 10), (11, 20), (21, 30), (31, 40), (41, 50), (51, 60))


def register(app: App) -> None:
    p = app.command(
        "othello data show",
        help="what a games file holds: games, positions by empties, labels, where they came from",
        examples="boardai othello data show games.npz",
    )
    p.add_argument("file", metavar="FILE", help="a games file (boardai othello data pack)")
    p.set_defaults(func=show)


def show(args: argparse.Namespace) -> int:
    import json

    import numpy as np
    from rich.table import Table

    from boardai.cli._common import console
    from boardai.othello.train import games_file as gf

    games = gf.read_games(args.file)
    pos = gf.positions(games)
    lengths = np.diff(games.offsets)
    t = Table(title=args.file, show_header=False, title_justify="left")
    t.add_column("what")
    t.add_column("value", justify="right")
    t.add_row("games", f"{len(games):,}")
    if len(games):
        t.add_row("moves a game (mean, min-max)", _spread(lengths))
        t.add_row("random plies (mean, min-max)", _spread(games.random_plies))
        wins = int((games.results > 0).sum()), int((games.results == 0).sum())
        t.add_row(
            "black wins / draws / losses", f"{wins[0]} / {wins[1]} / {len(games) - sum(wins)}"
        )
    t.add_row("positions (after the random plies)", f"{len(pos.label):,}")
    for lo, hi in BANDS:
        band = (pos.empties >= lo) & (pos.empties <= hi)
        t.add_row(f"  {lo}-{hi} empties", f"{int(band.sum()):,}")
    if len(pos.label):
        label = pos.label.astype(np.float64)
        t.add_row(
            "label (mover's disc difference)", f"mean {label.mean():+.2f}, std {label.std():.2f}"
        )
    out = console()
    out.print(t)
    meta = {k: v for k, v in games.meta.items() if k != "sources"}
    out.print("metadata: " + json.dumps(meta, separators=(", ", ": ")))
    for source in games.meta.get("sources", []):
        out.print("source: " + json.dumps(source, separators=(", ", ": ")))
    return 0


def _spread(values: np.ndarray) -> str:
    """``"58.9, 42-61"``: the mean, the least and the most of ``values``."""
    return f"{float(values.mean()):.1f}, {int(values.min())}-{int(values.max())}"
