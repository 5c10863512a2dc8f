"""``boardai 2048 random``: statistics of random play, compiled end to end."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import json_option, nonneg_int, positive_int, probability

if TYPE_CHECKING:
    from boardai.cli import App

CHUNK = 2000


def register(app: App) -> None:
    p = app.command(
        "2048 random",
        aliases=["random"],
        help="play many random games: the baseline every player is measured against",
        examples=(
            "boardai 2048 random --games 10000 --seed 1\n"
            "boardai 2048 random --games 1000 --p4 0.2 --start-p4 0  # more 4s, none at start\n"
            "boardai 2048 random --games 1000 --buckets 500 --json random.json"
        ),
    )
    p.add_argument("--games", type=positive_int, default=1000, help="games to play (default 1000)")
    p.add_argument(
        "--seed",
        type=nonneg_int,
        default=0,
        help="seed (default 0): the games eval --agent random plays with this seed",
    )
    p.add_argument(
        "--p4", type=probability, default=0.1, help="probability a spawn is a 4 (default 0.1)"
    )
    p.add_argument(
        "--start-tiles", type=nonneg_int, default=2, help="tiles on the start board (default 2)"
    )
    p.add_argument(
        "--start-p4",
        type=probability,
        default=None,
        help="probability of a 4 at the start (default: --p4)",
    )
    p.add_argument(
        "--buckets",
        type=positive_int,
        default=None,
        help="score band width (default: chosen from the data)",
    )
    json_option(p, "write the summary and every game's result as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import time
    from functools import partial

    import numpy as np
    from rich.progress import TextColumn

    from boardai.cli._common import console, interruptible, progress, write_json
    from boardai.g2048 import kernels as K
    from boardai.g2048.stats import summarize, tile_reach
    from boardai.g2048.tables import bucket_table, reach_table
    from boardai.report import summary_table

    if args.start_tiles > 16:
        from boardai.errors import UsageError

        raise UsageError(f"--start-tiles {args.start_tiles}: a board has 16 cells")
    start_p4 = args.p4 if args.start_p4 is None else args.start_p4
    scores, maxes, moves = [], [], []
    done = 0
    t0 = time.perf_counter()
    with progress(TextColumn("avg {task.fields[avg]:,.0f}")) as bar:
        task = bar.add_task("random games", total=args.games, avg=0.0)
        try:
            while done < args.games:
                n = min(CHUNK, args.games - done)
                s, m, mv = interruptible(
                    partial(
                        K.play_random_games,
                        n,
                        np.uint64(args.seed),
                        args.p4,
                        args.start_tiles,
                        start_p4,
                        done,
                    )
                )
                scores.append(s)
                maxes.append(m)
                moves.append(mv)
                done += n
                bar.update(task, completed=done, avg=float(np.concatenate(scores).mean()))
        except KeyboardInterrupt:
            console(stderr=True).print(f"interrupted: reporting the {done} games finished")
    if not done:
        return 130
    elapsed = time.perf_counter() - t0
    s, mv = np.concatenate(scores), np.concatenate(moves)
    tiles = np.where(np.concatenate(maxes) > 0, 1 << np.concatenate(maxes), 0)
    summary = summarize(s, mv)
    out = console()
    out.print(
        summary_table(
            summary,
            f"random play, {done:,} games, seed {args.seed}",
            {
                "moves per second": f"{mv.sum() / elapsed:,.0f}",
                "time": f"{elapsed:.2f} s",
            },
        )
    )
    out.print(reach_table(tiles))
    out.print(bucket_table(s, args.buckets))
    if args.json:
        write_json(
            args.json,
            {
                "agent": "random",
                "seed": args.seed,
                "rules": {"p4": args.p4, "start_tiles": args.start_tiles, "start_p4": start_p4},
                "summary": summary.to_dict(),
                "tile_reach": [
                    {"tile": t, "reached": r, "ended": e} for t, r, e in tile_reach(tiles)
                ],
                "games": [
                    {"index": i, "score": int(a), "max_tile": int(b), "moves": int(c)}
                    for i, (a, b, c) in enumerate(zip(s, tiles, mv, strict=True))
                ],
            },
        )
    return 0 if done == args.games else 130
