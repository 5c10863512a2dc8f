"""``boardai othello perft DEPTH``: count the positions the move generator reaches."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import json_option, positive_int

if TYPE_CHECKING:
    from boardai.cli import App

#: Deeper runs need --force: depth 12 counts about 2 billion leaves, some 20 s at the 100
#: million leaves a second of a busy 2-core machine, and each ply more is about 9 times that.
MAX_DEPTH = 12
#: Leaves at depths 1..10 (a pass counts as a ply); deeper ones are estimated from the last.
LEAVES = (4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056)
GROWTH = 9.0
RATE = 1e8
#: Runs estimated to take longer than this in all (``--repeat`` included) need --force too.
MAX_SECONDS = 60.0


def estimate(depth: int) -> tuple[float, float]:
    """(leaves, seconds) a run of ``depth`` plies takes, roughly."""
    if depth <= len(LEAVES):
        leaves = float(LEAVES[depth - 1])
    else:
        leaves = LEAVES[-1] * GROWTH ** (depth - len(LEAVES))
    return leaves, leaves / RATE


def register(app: App) -> None:
    p = app.command(
        "othello perft",
        aliases=["perft othello"],
        help="Othello perft from the start position (a pass is a ply) and leaves per second",
        examples=(
            "boardai othello perft 7\nboardai othello perft 11 --json perft.json\n"
            "boardai othello perft 13 --force   # about 3 minutes"
        ),
    )
    p.add_argument(
        "depth",
        type=positive_int,
        help=f"plies (1..7 give 4 12 56 244 1396 8200 55092); above {MAX_DEPTH} (about 20 s, "
        "and 9 times longer each ply more) only with --force",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help=f"run a depth above {MAX_DEPTH}, or runs of more than a minute in all, anyway",
    )
    p.add_argument("--repeat", type=positive_int, default=1, help="runs; the median time is shown")
    json_option(p, "write depth, leaves, seconds as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import statistics
    import time

    from boardai.cli._common import console, rough_duration, write_json
    from boardai.errors import UsageError

    leaves_guess, seconds_guess = estimate(args.depth)
    total = seconds_guess * args.repeat
    runs = f" {args.repeat:,} times" if args.repeat > 1 else ""
    guess = f"about {leaves_guess:.1e} leaves{runs}, {rough_duration(total)}"
    long = args.depth > MAX_DEPTH or total > MAX_SECONDS
    if long and not args.force:
        raise UsageError(
            f"othello perft {args.depth} counts {guess} at 1e8 leaves/s: add --force to run it"
        )
    if long:
        console(stderr=True).print(f"othello perft {args.depth}: {guess}, in one compiled call")
    from boardai.cli._common import interruptible
    from boardai.othello import kernels as K

    K.perft(K.START_BLACK, K.START_WHITE, 1)  # compile or load before timing

    def timed() -> tuple[int, float]:
        t0 = time.perf_counter()
        leaves = int(K.perft(K.START_BLACK, K.START_WHITE, args.depth))
        return leaves, time.perf_counter() - t0

    times = []
    leaves = 0
    for _ in range(args.repeat):
        leaves, seconds = interruptible(timed)  # Ctrl-C stops a count of minutes at once
        times.append(seconds)
    secs = statistics.median(times)
    rate = leaves / secs if secs > 0 else float("nan")
    if args.json != "-":  # (to stdout: the JSON alone)
        console().print(
            f"perft({args.depth}) = {leaves:,}  in {secs:.3f} s  ({rate:,.0f} leaves/s)"
        )
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
