"""``boardai 2048 compare``: several 2048 players on the same seeds, side by side."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    from boardai.cli._common import output_option
    from boardai.cli.g2048.eval import add_run_arguments

    p = app.command(
        "2048 compare",
        aliases=["compare"],
        help="play several 2048 players on the same seeds and show them side by side",
        examples=(
            "boardai 2048 compare --agents random greedy heuristic --games 100\n"
            "boardai 2048 compare --agents expectimax:preset=fast expectimax --games 20 "
            "--json cmp.json\n"
            "boardai 2048 compare --agents greedy heuristic --games 2000 --cluster local "
            "--resume c.jsonl"
        ),
    )
    p.add_argument("--agents", nargs="+", required=True, metavar="SPEC", help="the players")
    add_run_arguments(p)
    output_option(
        p, "--json", metavar="FILE", help="write every player's games and summary as JSON"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from boardai.arena.compare import compare_table
    from boardai.arena.solo import prepare
    from boardai.cli._arena import open_journal
    from boardai.cli._common import console, default_workers, warn_if_slow, write_json
    from boardai.cli.g2048.eval import play_with_progress

    warn_if_slow("2048", args.agents)
    for spec in args.agents:
        prepare(spec, args.workers or default_workers())
    runs = []
    identity = {"players": args.agents, "seed": args.seed, "games": args.games}
    journal = open_journal(args, {"command": "compare", **identity})
    try:
        for spec in args.agents:
            run_ = play_with_progress(spec, args, spec, journal=journal)
            runs.append(run_)
            if run_.interrupted:
                break
    finally:
        if journal is not None:
            journal.close()
    console().print(compare_table(runs, f"{args.games} games per player, seed {args.seed}"))
    if args.json:
        write_json(args.json, {"seed": args.seed, "runs": [r.to_dict() for r in runs]})
    return 130 if any(r.interrupted for r in runs) else 0
