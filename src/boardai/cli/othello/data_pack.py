"""``boardai othello data pack``: the games of Othello matches (``--record`` files) as
training data for an evaluation fitted by regression, in one compact, checked games file
(:mod:`boardai.othello.train.games_file`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import force_option, output_option

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    p = app.command(
        "othello data pack",
        help="pack match records into one games file (moves, random plies, exact results)",
        description=(
            "Read the games of INPUTs (--record files of boardai othello match, --resume "
            "journals of runs with --record, or games files packed before), check every game "
            "(its moves replayed, its result the one they give), drop duplicates (the same "
            "moves) and write them to one games file: per game its moves, how many opening "
            "plies were random and the final disc difference. Unfinished games (forfeits) "
            "are left out, and counted."
        ),
        examples=(
            "boardai othello match --black alphabeta:depth=6,endgame=16 "
            "--white alphabeta:depth=6,endgame=16 --random-plies 8-30 --no-swap --games 2000 "
            "--record games.jsonl\n"
            "boardai othello data pack games.jsonl --out games.npz\n"
            "boardai othello data pack games.npz more.jsonl --out all.npz"
        ),
    )
    p.add_argument("inputs", metavar="INPUT", nargs="+", help="record files and games files")
    output_option(p, "--out", required=True, metavar="FILE", help="the games file to write")
    force_option(p, "replace what --out holds already (refused without it)")
    p.set_defaults(func=pack)


def pack(args: argparse.Namespace) -> int:
    import shlex

    from boardai.cli._common import console, plural, progress, refuse_to_overwrite
    from boardai.othello.train import games_file as gf

    refuse_to_overwrite(args.out, "--out", force=args.force, resume=None)
    parts = []
    skipped: dict[str, int] = {}
    with progress(transient=True) as bar:
        task = bar.add_task("reading", total=len(args.inputs))
        for _, games, left_out in gf.read_inputs(args.inputs):
            parts.append(games)
            for why, n in left_out.items():
                skipped[why] = skipped.get(why, 0) + n
            bar.advance(task)
    command = shlex.join(["boardai", "othello", "data", "pack", *args.inputs, "--out", args.out])
    merged, duplicates = gf.merge(parts, [{"command": command}])
    gf.write_games(args.out, merged)
    size = gf.file_size(args.out)
    n = len(merged)
    out = console()
    out.print(
        f"{args.out}: {n:,} {plural(n, 'game')}, {gf.count_positions(merged):,} positions "
        f"after the random openings, {duplicates:,} {plural(duplicates, 'duplicate')} dropped, "
        f"{size:,} bytes" + (f" ({size / n:.1f} a game)" if n and size else "")
    )
    for why, count in skipped.items():
        out.print(f"left out: {count:,} {plural(count, 'game')} {why}")
    return 0
