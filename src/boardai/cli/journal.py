"""``boardai journal merge``: put together the journals of one run played in parts."""

from __future__ import annotations

import argparse


def register(app: argparse.Namespace) -> None:
    p = app.command(
        "journal merge",
        help="add to a --resume journal the games of others of the same run (played with --part)",
        description=(
            "A long run can be split over machines that share no cluster: each plays a --part "
            "of it with its own --resume journal. This adds to TARGET the games of the SOURCES "
            "that it lacks (a game is the same wherever it was played) and their games cut "
            "short; resuming TARGET then plays only what is still missing. Safe while a run "
            "writes to TARGET (lines are appended)."
        ),
        examples="""
boardai 2048 eval --agent expectimax --games 1000 --resume a.jsonl --part 0:500     # here
boardai 2048 eval --agent expectimax --games 1000 --resume b.jsonl --part 500:1000  # elsewhere
boardai journal merge a.jsonl b.jsonl
boardai 2048 eval --agent expectimax --games 1000 --resume a.jsonl   # the report of all 1000
""",
    )
    p.add_argument("target", metavar="TARGET", help="the journal to add to (made if missing)")
    p.add_argument("sources", metavar="SOURCE", nargs="+", help="journals of the same run")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import os

    from boardai.arena.journal import merge
    from boardai.cli._common import console
    from boardai.errors import UsageError

    target = os.path.abspath(args.target)
    if any(os.path.abspath(s) == target for s in args.sources):
        raise UsageError(f"{args.target} is both the target and a source")
    done = merge(args.target, args.sources)
    carried = f"; {done.partial} games cut short carried over" if done.partial else ""
    console().print(f"{args.target}: {done.added:,} games added, {done.games:,} in all{carried}")
    return 0
