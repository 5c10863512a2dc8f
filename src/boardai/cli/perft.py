"""``boardai perft othello DEPTH``: count the positions the move generator reaches."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import output_option, positive_int


def register(app: Any) -> None:
    p = app.command(
        "perft othello",
        help="Othello perft from the start position (a pass is a ply) and leaves per second",
        examples="boardai perft othello 7\nboardai perft othello 11 --json perft.json",
    )
    p.add_argument("depth", type=positive_int, help="plies (1..7 give 4 12 56 244 1396 8200 55092)")
    p.add_argument("--repeat", type=positive_int, default=1, help="runs; the median time is shown")
    output_option(p, "--json", metavar="FILE", help="write depth, leaves, seconds as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import statistics
    import time

    from boardai.cli._common import console, write_json
    from boardai.othello import kernels as K

    K.perft(K.START_BLACK, K.START_WHITE, 1)  # compile or load before timing
    times = []
    leaves = 0
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        leaves = int(K.perft(K.START_BLACK, K.START_WHITE, args.depth))
        times.append(time.perf_counter() - t0)
    secs = statistics.median(times)
    rate = leaves / secs if secs > 0 else float("nan")
    console().print(f"perft({args.depth}) = {leaves:,}  in {secs:.3f} s  ({rate:,.0f} leaves/s)")
    if args.json:
        write_json(
            args.json,
            {
                "game": "othello",
                "depth": args.depth,
                "leaves": leaves,
                "seconds": secs,
                "leaves_per_second": rate,
            },
        )
    return 0
