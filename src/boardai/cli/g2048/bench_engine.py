"""``boardai 2048 bench engine``: slides per second, compiled batch path and Python Board.slide."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import json_option, positive_int

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    p = app.command(
        "2048 bench engine",
        aliases=["bench engine"],
        help="slides per second of the 2048 engine (compiled batch and Python API)",
        description=(
            "Slides per second on boards from real random games, each slid in all four "
            "directions: the compiled batch kernel (slides_per_s) and Board.slide from Python "
            "(py_slides_per_s). Reports the median of --repeat runs."
        ),
        examples="boardai 2048 bench engine\nboardai 2048 bench engine --json --repeat 7",
    )
    p.add_argument(
        "--games",
        type=positive_int,
        default=2000,
        help="random games that supply the boards (default 2000)",
    )
    p.add_argument(
        "--repeat",
        type=positive_int,
        default=5,
        help="timed runs; the median is reported (default 5)",
    )
    p.add_argument(
        "--py-boards",
        type=positive_int,
        default=25000,
        help="boards for the Python-level timing (default 25000)",
    )
    json_option(p, "write the figures as JSON (keys slides_per_s, py_slides_per_s, ...)")
    p.set_defaults(func=run)


def measure(games: int, repeat: int, py_boards: int) -> dict[str, float]:
    """The benchmark itself: medians of ``repeat`` runs."""
    import statistics
    import time

    import numpy as np

    from boardai.g2048 import Board
    from boardai.g2048 import kernels as K

    boards = K.random_game_boards(games, np.uint64(2048), 0.1)
    K.slide_all(boards[:8])  # compile (or load from cache) outside the timing
    batch = []
    for _ in range(repeat):
        t = time.perf_counter()
        K.slide_all(boards)
        batch.append(4 * len(boards) / (time.perf_counter() - t))
    objects = [Board(int(b)) for b in boards[:py_boards]]
    objects[0].slide(0)
    py = []
    for _ in range(repeat):
        t = time.perf_counter()
        for b in objects:
            b.slide(0)
            b.slide(1)
            b.slide(2)
            b.slide(3)
        py.append(4 * len(objects) / (time.perf_counter() - t))
    return {
        "slides_per_s": statistics.median(batch),
        "py_slides_per_s": statistics.median(py),
        "boards": float(len(boards)),
        "repeat": float(repeat),
    }


def run(args: argparse.Namespace) -> int:
    from boardai.cli._common import write_json

    result = measure(args.games, args.repeat, args.py_boards)
    if args.json == "-":  # the figures alone
        write_json("-", result)
        return 0
    print(
        f"compiled batch: {result['slides_per_s']:.3e} slides/s "
        f"({int(result['boards']):,} boards x 4 directions, median of {args.repeat})"
    )
    print(f"Board.slide:    {result['py_slides_per_s']:.3e} slides/s")
    if args.json:
        write_json(args.json, result)
    return 0
